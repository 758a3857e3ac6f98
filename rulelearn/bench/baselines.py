"""Baseline classifiers with the same small interface as the rule learners.

``CartClassifier`` wraps scikit-learn's ``DecisionTreeClassifier`` (its depth is tuned by the
same inner CV as θ); ``RipperClassifier`` wraps the ``wittgenstein`` package's RIPPER (an
optional extra: ``pip install rulelearn[ripper]``), calling its own ``fit``/``predict``
directly -- it predates scikit-learn's estimator tags, so it is never handed to scikit-learn's
CV helpers.  Both take a raw DataFrame, like ``BooleanRuleClassifier``, and expose
``n_features_used_`` (the Table 2 size: split nodes of the tree, conditions of the rule set),
``n_rules_`` and ``rule_text_``.

:func:`describe` reads the same summary off any fitted model, rule learner or baseline.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier, export_text
from sklearn.utils.validation import check_is_fitted

from rulelearn._params import Interval, Options, validate_params
from rulelearn.errors import RuleLearnError

_AT_LEAST_ONE = Interval(numbers.Integral, 1)
_FRACTION = Interval(numbers.Real, 0, 1, closed="neither")


def _numeric_frame(X, columns=None) -> pd.DataFrame:
    """Numeric matrix for a tree: categorical columns one-hot encoded, missing values -> NaN."""
    X = pd.DataFrame(X).copy()
    X.columns = [str(c) for c in X.columns]
    cats = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    if cats:
        X = pd.get_dummies(X, columns=cats, dummy_na=True, dtype=float)
    if columns is not None:
        X = X.reindex(columns=columns, fill_value=0.0)
    return X.astype(float)


class CartClassifier(ClassifierMixin, BaseEstimator):
    """CART (scikit-learn's decision tree) on the raw features."""

    _parameter_constraints: dict = {
        "max_depth": [_AT_LEAST_ONE, None],
        "min_samples_leaf": [_AT_LEAST_ONE, _FRACTION],
        "criterion": [Options("gini", "entropy", "log_loss")],
    }

    def __init__(self, *, max_depth=None, min_samples_leaf=1, criterion="gini", pos_label=None,
                 random_state=None):
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.criterion = criterion
        self.pos_label = pos_label
        self.random_state = random_state

    def fit(self, X, y):
        validate_params(self)
        Xn = _numeric_frame(X)
        self.columns_ = list(Xn.columns)
        self.tree_ = DecisionTreeClassifier(
            max_depth=self.max_depth, min_samples_leaf=self.min_samples_leaf,
            criterion=self.criterion, random_state=self.random_state).fit(Xn, np.asarray(y))
        self.classes_ = self.tree_.classes_
        t = self.tree_.tree_
        self.n_features_used_ = int(np.sum(t.children_left != -1))  # split nodes
        self.n_rules_ = int(t.n_leaves)
        self.rule_text_ = export_text(self.tree_, feature_names=self.columns_, max_depth=50)
        return self

    def predict(self, X):
        check_is_fitted(self, "tree_")
        return self.tree_.predict(_numeric_frame(X, self.columns_))


class RipperClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER (Cohen 1995) from the ``wittgenstein`` package; learns rules for ``pos_label``."""

    _parameter_constraints: dict = {
        "k": [_AT_LEAST_ONE],
        "prune_size": [_FRACTION],
        "max_rules": [_AT_LEAST_ONE, None],
        "max_rule_conds": [_AT_LEAST_ONE, None],
        "n_discretize_bins": [_AT_LEAST_ONE],
    }

    def __init__(self, *, k=2, prune_size=0.33, max_rules=None, max_rule_conds=None,
                 n_discretize_bins=10, pos_label=None, random_state=None):
        self.k = k
        self.prune_size = prune_size
        self.max_rules = max_rules
        self.max_rule_conds = max_rule_conds
        self.n_discretize_bins = n_discretize_bins
        self.pos_label = pos_label
        self.random_state = random_state

    def fit(self, X, y):
        try:
            import wittgenstein
        except ImportError:
            raise RuleLearnError(
                "method 'ripper' needs the optional 'wittgenstein' package: "
                "pip install 'rulelearn[ripper]'") from None
        validate_params(self)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if self.pos_label is None:
            labels, counts = np.unique(y, return_counts=True)
            self.pos_label_ = labels[int(np.argmin(counts))]
        else:
            self.pos_label_ = self.pos_label
        X = pd.DataFrame(X).reset_index(drop=True)
        X.columns = [str(c) for c in X.columns]
        self.ripper_ = wittgenstein.RIPPER(
            k=self.k, prune_size=self.prune_size, max_rules=self.max_rules,
            max_rule_conds=self.max_rule_conds, n_discretize_bins=self.n_discretize_bins,
            random_state=self.random_state)
        target = (y == self.pos_label_)
        self.ripper_.fit(X, target, pos_class=True)
        others = [c for c in self.classes_ if c != self.pos_label_]
        self.neg_label_ = others[0] if others else self.pos_label_
        rules = self.ripper_.ruleset_.rules
        self.n_rules_ = len(rules)
        self.n_features_used_ = int(sum(len(r.conds) for r in rules))
        self.rule_text_ = str(self.ripper_.ruleset_)
        return self

    def predict(self, X):
        check_is_fitted(self, "ripper_")
        X = pd.DataFrame(X).reset_index(drop=True)
        X.columns = [str(c) for c in X.columns]
        hit = np.asarray(self.ripper_.predict(X), dtype=bool)
        return np.where(hit, self.pos_label_, self.neg_label_)


def describe(model) -> dict:
    """The per-run summary of a fitted model: sizes (``literals``, ``clauses``), rule text,
    solver statistics; :func:`~.records.unit_record` writes it into a record."""
    rule = getattr(model, "rule_", None)
    if rule is not None:  # a BooleanRuleClassifier
        stats = dict(getattr(model, "fit_stats_", None) or {})
        try:
            rule_dict = rule.to_dict()
        except Exception:  # noqa: BLE001 - the text is what matters
            rule_dict = None
        return {"literals": int(rule.n_literals), "clauses": int(rule.n_clauses),
                "rule": str(rule), "rule_json": rule_dict,
                "n_lp": stats.get("n_lp"), "simplex_iterations": stats.get("simplex_iterations"),
                "objective": stats.get("objective"), "n_iter": getattr(model, "n_iter_", None)}
    return {"literals": int(getattr(model, "n_features_used_", 0)),
            "clauses": int(getattr(model, "n_rules_", 0)),
            "rule": getattr(model, "rule_text_", ""), "rule_json": None, "n_lp": None,
            "simplex_iterations": None, "objective": None, "n_iter": None}
