"""rulelearn: interpretable two-level Boolean rules (CNF / DNF) via LP relaxations."""

__version__ = "0.1.0"

#: Version of the model-file format written by ``rulelearn fit --save``.
MODEL_FORMAT_VERSION = 1


__all__ = ["BooleanRuleClassifier", "BooleanRuleClassifierCV", "BooleanRuleListClassifier",
           "MODEL_FORMAT_VERSION", "__version__"]


def __getattr__(name):  # the estimator loads scikit-learn and HiGHS: import it on first use
    if name == "BooleanRuleClassifier":
        from rulelearn.estimator import BooleanRuleClassifier

        return BooleanRuleClassifier
    if name == "BooleanRuleClassifierCV":
        from rulelearn.cv_estimator import BooleanRuleClassifierCV

        return BooleanRuleClassifierCV
    if name == "BooleanRuleListClassifier":
        from rulelearn.rule_list import BooleanRuleListClassifier

        return BooleanRuleListClassifier
    raise AttributeError(f"module 'rulelearn' has no attribute {name!r}")


def __dir__():  # the lazily imported estimator is listed too (tab completion, dir())
    return sorted(set(globals()) | set(__all__))
