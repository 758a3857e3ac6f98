"""BRCG -- Boolean rules by column generation (Dash, Günlük & Wei, NeurIPS 2018) -- as a baseline.

``BrcgClassifier`` runs AIX360's ``BooleanRuleCG`` (an optional extra: ``pip install
rulelearn[brcg]``) on this project's binarization: a :class:`~rulelearn.binarize.QuantileBinarizer`
fitted on the training data gives the literals, passed to BRCG as the 0/1 frame with
``(feature, operation, value)`` column labels it expects.  The chosen conjunctions come back
as a :class:`~rulelearn.rules.Rule` (a DNF of them; with ``form="cnf"`` their negations, a CNF),
which predicts on the raw data and is counted and printed like the rule learners' rules.

``lambda0`` (cost per clause) and ``lambda1`` (cost per literal) are BRCG's complexity
penalties; ``lambda0=None`` ties the clause cost to ``lambda1``, so that one parameter,
tuned by the inner CV, sets the complexity.

Column generation stops after ``max_iter`` iterations (or when no column improves).
AIX360 also stops it after ``timeMax`` seconds of wall time (100 by default), which makes
the rule depend on the machine and its load; here ``time_max=None`` (the default) lifts that
limit, so the same data give the same rule anywhere.  Give ``time_max`` to bound a fit's time.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from rulelearn._params import Interval, Options, validate_params
from rulelearn.binarize import QuantileBinarizer, as_frame
from rulelearn.errors import DataError, RuleLearnError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.rules import Clause, Literal, Rule

_AT_LEAST_ONE = Interval(numbers.Integral, 1)
_NON_NEGATIVE = Interval(numbers.Real, 0, finite=True)
_POSITIVE = Interval(numbers.Real, 0, closed="neither", finite=True)

#: How a missing-value literal is written in BRCG's column labels (AIX360's own convention).
_MISSING = "NaN"


def literal_key(literal: Literal) -> tuple:
    """The ``(feature, operation, value)`` column label BRCG expects for ``literal``."""
    if literal.op == "is missing":
        return (literal.feature, "==", _MISSING)
    if literal.op == "is not missing":
        return (literal.feature, "!=", _MISSING)
    return (literal.feature, literal.op, literal.value)


def brcg_frame(A: np.ndarray, literals: list[Literal]) -> pd.DataFrame:
    """The 0/1 literal matrix ``A`` as BRCG's input: int columns labelled by :func:`literal_key`."""
    columns = pd.MultiIndex.from_tuples([literal_key(lit) for lit in literals],
                                        names=["feature", "operation", "value"])
    return pd.DataFrame(np.asarray(A, dtype=int), columns=columns)


def negation(literal: Literal, missing: set) -> tuple[Literal, ...]:
    """Literals whose OR is exactly NOT ``literal``, also where a ``missing`` column is missing."""
    if literal.op.startswith("is ") or literal.feature not in missing:
        return (literal.negate(),)
    return (literal.negate(), Literal(literal.feature, "is missing"))


def conjunction_rule(Z: np.ndarray, literals: list[Literal], form: str, missing=()) -> Rule:
    """The rule of BRCG's chosen conjunctions (columns of the literal-by-conjunction matrix ``Z``).

    A DNF rule is their OR; BRCG's CNF is a DNF learned for the negative class and negated, so
    each conjunction becomes the clause of its negated literals.
    """
    conjunctions = [[literals[i] for i in np.flatnonzero(column)]
                    for column in np.asarray(Z, dtype=bool).T]
    if form == "dnf":
        return Rule("dnf", tuple(Clause(tuple(c)) for c in conjunctions))
    missing = set(missing)
    return Rule("cnf", tuple(Clause(tuple(n for lit in c for n in negation(lit, missing)))
                             for c in conjunctions))


@contextlib.contextmanager
def _quiet():
    """Silence BRCG: cvxpy's ``*`` deprecation warnings, AIX360's NaN comparisons (a missing
    value's column label, false as meant) and the solver's banner on stdout."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\s*This use of ``\*``")
        warnings.filterwarnings("ignore", message="invalid value encountered",
                                category=RuntimeWarning, module=r"aix360\.")
        sys.stdout.flush()
        try:
            saved = os.dup(1)
        except OSError:  # no file descriptor 1: nothing to redirect
            yield
            return
        try:
            with open(os.devnull, "w") as devnull:
                os.dup2(devnull.fileno(), 1)
                yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def import_brcg():
    """AIX360's ``BooleanRuleCG``, or :class:`RuleLearnError` naming the extra to install."""
    try:
        from aix360.algorithms.rbm import BooleanRuleCG
    except ImportError:
        raise RuleLearnError("method 'brcg' needs the optional 'aix360' and 'cvxpy' packages: "
                             "pip install 'rulelearn[brcg]'") from None
    return BooleanRuleCG


class BrcgClassifier(ClassifierMixin, BaseEstimator):
    """BRCG (AIX360's ``BooleanRuleCG``) on this project's binarization; see the module doc."""

    _parameter_constraints: dict = {
        "form": [Options("dnf", "cnf")],
        "lambda0": [_NON_NEGATIVE, None],
        "lambda1": [_NON_NEGATIVE],
        "n_thresholds": [_AT_LEAST_ONE],
        "max_iter": [_AT_LEAST_ONE],
        "time_max": [_POSITIVE, None],
        "max_columns": [_AT_LEAST_ONE],
        "max_degree": [_AT_LEAST_ONE],
        "beam_width": [_AT_LEAST_ONE],
    }

    def __init__(self, *, form="dnf", lambda0=None, lambda1=0.001, n_thresholds=10,
                 max_iter=100, time_max=None, max_columns=10, max_degree=10, beam_width=5,
                 pos_label=None):
        self.form = form
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.n_thresholds = n_thresholds
        self.max_iter = max_iter
        self.time_max = time_max
        self.max_columns = max_columns
        self.max_degree = max_degree
        self.beam_width = beam_width
        self.pos_label = pos_label

    def fit(self, X, y):
        """Binarize ``X``, run BRCG, keep its conjunctions as ``rule_``; returns ``self``."""
        BooleanRuleCG = import_brcg()
        validate_params(self)
        frame = as_frame(X)
        y = np.asarray(y)
        if len(frame) != len(y):
            raise DataError(f"X has {len(frame)} rows but y has {len(y)} labels")
        classes, pos_label = BooleanRuleClassifier(pos_label=self.pos_label)._classes(y)
        binarizer = QuantileBinarizer(n_thresholds=self.n_thresholds).fit(frame)
        if not binarizer.literals_:
            raise DataError("no usable feature: every column is constant or empty")
        literals = list(binarizer.literals_)
        target = (y == pos_label).astype(int)
        lambda0 = self.lambda1 if self.lambda0 is None else self.lambda0
        self.brcg_ = BooleanRuleCG(
            lambda0=lambda0, lambda1=self.lambda1, CNF=self.form == "cnf", iterMax=self.max_iter,
            timeMax=math.inf if self.time_max is None else self.time_max, K=self.max_columns,
            D=self.max_degree, B=self.beam_width, solver="HIGHS", silent=True)
        with _quiet():
            self.brcg_.fit(brcg_frame(binarizer.transform(frame), literals), target)
        chosen = np.asarray(self.brcg_.w) > 0.5
        missing = {lit.feature for lit in literals if lit.op == "is missing"}
        self.classes_, self.pos_label_ = classes, pos_label
        self.binarizer_, self.literals_ = binarizer, literals
        self.n_features_in_ = frame.shape[1]
        self.rule_ = conjunction_rule(self.brcg_.z.to_numpy()[:, chosen], literals, self.form,
                                      missing)
        self.n_iter_ = int(self.brcg_.it)
        return self

    def predict(self, X):
        """``pos_label_`` where the rule holds on the raw rows, the other class elsewhere."""
        check_is_fitted(self, "rule_")
        held = self.rule_.evaluate(as_frame(X))
        negative = self.classes_[0] if self.classes_[1] == self.pos_label_ else self.classes_[1]
        return np.where(held, self.pos_label_, negative)
