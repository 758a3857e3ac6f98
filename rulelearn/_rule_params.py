"""The parameters of ``BooleanRuleClassifier``, declared once.

Kept free of scikit-learn so that the CLI can build its choices and ranges from them cheaply;
the estimator holds this dict as its ``_parameter_constraints`` (see :mod:`rulelearn._params`).
Parameters not listed (``pos_label``) take any value.
"""

from __future__ import annotations

import numbers

from rulelearn._params import InstanceOf, Interval, Options
from rulelearn.learners import LEARNERS
from rulelearn.learners.descent import STARTS

#: Numbers of cross-validation folds (``cv`` of the CV estimator and ``fit``, a config's folds).
CV_FOLDS: list = [Interval(numbers.Integral, 2)]

#: In the order they are checked (the first refused value is reported). The numeric ones are
#: also what the search's grids (:mod:`rulelearn.model_selection`), a benchmark config
#: (:mod:`rulelearn.bench.config`) and ``rulelearn fit``'s options accept.
RULE_PARAMETERS: dict[str, list] = {
    "method": [Options(*LEARNERS)],
    "form": [Options("cnf", "dnf")],
    "clause_solver": [Options("lp", "mip")],
    "start": [Options(*STARTS)],
    "binarize": [Options("auto", True, False)],
    "max_rules": [Interval(numbers.Integral, 1)],
    "max_iter": [Interval(numbers.Integral, 0)],
    "n_thresholds": [Interval(numbers.Integral, 1)],
    "theta": [Interval(numbers.Real, 0, finite=True)],
    "disable_cost": [Interval(numbers.Real, 0, finite=True)],
    "time_limit": [Interval(numbers.Real, 0)],
    "lp_rows": [Options("auto"), None, Interval(numbers.Integral, 1)],
    "class_weight": [None, Options("balanced"), InstanceOf(dict)],
    "cut_points": [Options("quantile", "tree", "both")],  # binarize.CUT_POINTS
    "certify": [Options(True, False)],
    "polish": [Options(True, False)],
    "perturb": [Interval(numbers.Integral, 0)],
}
