"""Rounding the clause LP's optimum to an integer clause.

The LP optimum is often fractional. :func:`round_best_threshold` tries each
distinct value of ``w`` as a threshold and keeps the integer clause with the
lowest clause objective (the long version of the paper, arXiv 1511.07361).
Every rounded clause is also compared with the trivial ones
(:func:`no_worse_than_trivial`) and pruned of redundant features (:func:`prune`).
"""

from __future__ import annotations

import logging
import weakref

import numpy as np

from rulelearn.learners.problem import (
    BLOCK_ABOVE,
    CNFProblem,
    clause_objective,
    disabled_clause,
    sparsity,
    weighted_column_sums,
)

log = logging.getLogger(__name__)


def normalize(clause: np.ndarray) -> np.ndarray:
    """A clause with the always-true feature selects nothing else (cheaper, same output)."""
    clause = np.asarray(clause, dtype=bool).copy()
    if clause[-1]:
        clause[:-1] = False
    return clause


def round_best_threshold(problem: CNFProblem, w: np.ndarray, neg_weight: np.ndarray,
                         theta: float, disable_cost: float, tol: float = 1e-9, cap=None,
                         neg_sums=None):
    """Best integer clause ``w >= t`` over every distinct positive value ``t`` of ``w``.

    Three candidates that need no threshold are always tried too: the empty
    clause (``t`` above every value), the disabled clause (the always-true
    feature alone) and the best single feature. So a rounded clause is never
    worse than the trivial choices, whatever the LP's fractional optimum looks
    like (on one-hot data it spreads ``w`` evenly and may never touch the
    always-true feature). Ties keep the earlier candidate: the larger threshold,
    i.e. the sparser clause. The winner is then :func:`prune`-d. Candidates are
    compared by :func:`~rulelearn.learners.problem.clause_objective` with ``cap``.
    ``neg_sums``: :func:`best_single_feature`'s product, if already known.
    """
    levels = np.unique(w[w > tol])[::-1]
    best = np.zeros(len(w), dtype=bool)
    best_objective = clause_objective(problem, best, neg_weight, theta, disable_cost, cap)
    # The candidates are nested: keep each row's count of selected features and
    # add the features each lower level brings in (same sums as clause_objective).
    selected = np.zeros(len(w), dtype=bool)
    pos_counts = np.zeros(len(problem.A_pos))
    neg_counts = np.zeros(len(problem.A_neg))
    pos_by_feature, neg_by_feature = problem.by_feature  # exact integer counts, fast
    for level in levels:
        candidate = w >= level - tol
        if candidate[-1]:  # the always-true feature: the disabled clause, tried below
            break
        new = np.flatnonzero(candidate & ~selected)
        if len(new) == 0:
            continue
        selected |= candidate
        pos_counts += np.add.reduce(pos_by_feature[new], axis=0, dtype=np.int64)
        neg_counts += np.add.reduce(neg_by_feature[new], axis=0, dtype=np.int64)
        charged = neg_counts if cap is None else np.minimum(neg_counts, cap)
        objective = (float(problem.w_pos[pos_counts == 0].sum()) + float(neg_weight @ charged)
                     + sparsity(selected, theta, disable_cost))
        if objective < best_objective - 1e-9:
            best, best_objective = selected.copy(), objective
    best, best_objective = no_worse_than_trivial(problem, best, best_objective, neg_weight,
                                                 theta, disable_cost, cap, neg_sums)
    return prune(problem, best, best_objective, w, neg_weight, theta, disable_cost, cap)


def no_worse_than_trivial(problem: CNFProblem, clause: np.ndarray, objective: float,
                          neg_weight: np.ndarray, theta: float, disable_cost: float, cap=None,
                          neg_sums=None):
    """``(clause, objective)``, or a trivial clause with a lower objective.

    The trivial clauses: empty (rejects everything), disabled (accepts
    everything) and the best single feature. Ties keep ``clause``.
    """
    empty = np.zeros(problem.n_features + 1, dtype=bool)
    for name, candidate in (("empty", empty), ("disabled", disabled_clause(problem.n_features)),
                            ("single-feature",
                             best_single_feature(problem, neg_weight, theta, neg_sums))):
        value = clause_objective(problem, candidate, neg_weight, theta, disable_cost, cap)
        if value < objective - 1e-9:
            log.debug("the %s clause (objective %.6g) beats the clause so far (%.6g)", name,
                      value, objective)
            clause, objective = candidate, value
    return clause, objective


def best_single_feature(problem: CNFProblem, neg_weight: np.ndarray, theta: float,
                        neg_sums=None) -> np.ndarray:
    """The clause of the one feature with the lowest clause objective (first on ties).

    A cap of at least one changes nothing here: one feature counts 0 or 1.
    ``neg_sums``: :func:`single_feature_sums` of ``neg_weight`` if already known (a
    learner asks for the same negative weights at many θ).
    """
    if neg_sums is None:
        neg_sums = single_feature_sums(problem, neg_weight)
    objective = _uncovered(problem) + neg_sums + theta
    clause = np.zeros(problem.n_features + 1, dtype=bool)
    if problem.n_features:
        clause[int(np.argmin(objective))] = True
    return clause


def single_feature_sums(problem: CNFProblem, neg_weight: np.ndarray) -> np.ndarray:
    """Per feature (always-true excluded), the negative weight it accepts alone."""
    if problem.A_neg.size > BLOCK_ABOVE:
        return weighted_column_sums(neg_weight, problem.A_neg[:, :-1])
    return neg_weight @ problem.neg_features_double


_UNCOVERED: dict = {}  # (id(A_pos), id(w_pos)) -> (weak references to both, uncovered weights)


def _uncovered(problem: CNFProblem) -> np.ndarray:
    """Per feature, the positive weight it leaves uncovered alone; kept per problem.

    Converting Musk's positives to double precision for it took 14% of a BCD
    fit when done on every call.
    """
    key = (id(problem.A_pos), id(problem.w_pos))
    kept = _UNCOVERED.get(key)
    if kept is not None and kept[0]() is problem.A_pos and kept[1]() is problem.w_pos:
        return kept[2]
    A_pos = problem.A_pos[:, :-1]
    uncovered = float(problem.w_pos.sum()) - weighted_column_sums(problem.w_pos, A_pos)
    if len(_UNCOVERED) >= 8:
        _UNCOVERED.clear()
    _UNCOVERED[key] = (weakref.ref(problem.A_pos), weakref.ref(problem.w_pos), uncovered)
    return uncovered


def prune(problem, clause, objective, w, neg_weight, theta, disable_cost, cap=None):
    """Drop selected features, weakest LP value first, while the objective does not rise.

    Removes redundant literals that rounding can leave in (``x <= 166.8`` beside
    ``x <= 198.7`` in one AND-term), which cost θ and change no prediction.
    """
    clause = clause.copy()
    for j in sorted(np.flatnonzero(clause[:-1]), key=lambda j: (w[j], j)):
        clause[j] = False
        value = clause_objective(problem, clause, neg_weight, theta, disable_cost, cap)
        if value <= objective + 1e-12:
            objective = value
        else:
            clause[j] = True
    return clause, objective
