"""Probabilities from a rule: the training precision of the clause that decides a row,
put on the rule's side of 0.5.

DNF: a row that clauses accept gets the highest (sample-weighted) training precision among
those clauses (the share of positives among the training rows the clause accepts); a row no
clause accepts gets the share of positives among the training rows no clause accepts.
CNF, the dual: a row that clauses reject gets the lowest share of positives among the training
rows each of those clauses rejects; a row every clause accepts gets the rule's precision.
A clause (or the rest) that no training row reaches gets the share of positives overall.

The prediction is the rule, and the probability agrees with it: a row the rule accepts gets
``max(precision, 0.5)``, a row it rejects ``min(precision, 0.5)``. A clause of training
precision below 0.5 (possible: the rule minimises Hamming loss plus θ times its size over all
clauses together, not each clause's precision) thus gives 0.5, not a probability that would
contradict the prediction. The order of rows within each side is kept, and every row the rule
accepts ranks at or above every row it rejects (ROC-AUC, calibration).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rulelearn.rules import Rule


@dataclass(frozen=True)
class RuleProba:
    """Per clause, and for the rows no clause decides, the probability of the positive class."""

    clause_precision: tuple[float, ...]
    default_precision: float

    def positive(self, rule: Rule, X: pd.DataFrame) -> np.ndarray:
        """The probability of the positive class per row of ``X``: at least 0.5 where the rule
        holds, at most 0.5 where it does not (see the module docstring)."""
        return self.decide(rule, X)[1]

    def decide(self, rule: Rule, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """Per row of ``X``: whether the rule holds, and :meth:`positive`."""
        if len(self.clause_precision) != rule.n_clauses:
            raise ValueError(f"{len(self.clause_precision)} clause precisions for a rule of "
                             f"{rule.n_clauses} clauses")
        dnf = rule.form == "dnf"
        out = np.full(len(X), np.nan)
        for clause, value in zip(rule.clauses, self.clause_precision):
            decides = clause.evaluate(X, rule.inner_op) == dnf
            better = np.fmax(out, value) if dnf else np.fmin(out, value)
            out = np.where(decides, better, out)
        decided = ~np.isnan(out)
        held = decided if dnf else ~decided  # DNF: a clause accepts; CNF: none rejects
        out = np.where(decided, out, self.default_precision)
        return held, np.where(held, np.maximum(out, 0.5), np.minimum(out, 0.5))


def fit_proba(rule: Rule, X: pd.DataFrame, positive: np.ndarray,
              sample_weight=None) -> RuleProba:
    """The :class:`RuleProba` of ``rule`` on training rows ``X`` with labels ``positive``."""
    positive = np.asarray(positive, dtype=bool)
    weights = np.ones(len(positive)) if sample_weight is None else np.asarray(sample_weight,
                                                                              dtype=float)
    overall = _rate(positive, weights, np.ones(len(positive), dtype=bool), 0.5)
    dnf = rule.form == "dnf"
    decided = np.zeros(len(positive), dtype=bool)
    values = []
    for clause in rule.clauses:
        decides = clause.evaluate(X, rule.inner_op) == dnf
        decided |= decides
        values.append(_rate(positive, weights, decides, overall))
    return RuleProba(tuple(values), _rate(positive, weights, ~decided, overall))


def _rate(positive, weights, rows, fallback: float) -> float:
    total = float(weights[rows].sum())
    return float(weights[rows & positive].sum()) / total if total > 0 else fallback
