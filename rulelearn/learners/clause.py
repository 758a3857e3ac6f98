"""One OR-clause: the LP relaxation of Malioutov & Varshney (2013) and its rounding.

For weights ``c`` on positives ``P`` and (active) negatives ``N``::

    min  sum_{i in P} c_i xi_i + sum_j (theta_j + sum_{i in N} c_i a_ij) w_j
    s.t. xi_i + sum_j a_ij w_j >= 1      for i in P
         0 <= w_j <= 1,  xi_i >= 0

Only the positives are rows; the negatives and θ only change column costs.
So one HiGHS model per training set serves every clause, every BCD/AM
iteration and every θ. Each solve starts from scratch (``warm=False``, the
default): measured faster than warm re-solves on these LPs, and the optimal
vertex, hence the rounded clause, then depends on the LP alone.

The LP optimum is often fractional. :func:`round_best_threshold` tries each
distinct value of ``w`` as a threshold and keeps the integer clause with the
lowest clause objective (the long version of the paper, arXiv 1511.07361).
``exact=True`` instead solves the same problem as a MIP with a time limit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulelearn.learners.problem import CNFProblem, clause_objective
from rulelearn.lp import INF, LinearProgram


@dataclass(frozen=True)
class ClauseFit:
    """An integer clause (bool over features + always-true), its objective and LP facts."""

    clause: np.ndarray
    objective: float
    lp_value: float
    iterations: int


def clause_model(problem: CNFProblem, exact: bool = False, time_limit: float | None = None,
                 presolve: bool = False) -> LinearProgram:
    """The clause LP (or MIP) over ``problem``'s positives, with zero costs on ``w``."""
    A = problem.A_pos
    n_pos, n_cols = A.shape
    nonzero = A != 0
    counts = nonzero.sum(axis=0)
    rows_by_col = np.nonzero(nonzero.T)[1]  # row indices, column by column
    indptr = np.concatenate([[0], np.cumsum(counts), np.cumsum(counts)[-1] + 1 + np.arange(n_pos)])
    indices = np.concatenate([rows_by_col, np.arange(n_pos)])
    values = np.ones(len(indices))
    cost = np.concatenate([np.zeros(n_cols), problem.w_pos])
    upper = np.concatenate([np.ones(n_cols), np.full(n_pos, INF)])
    integer = np.concatenate([np.ones(n_cols, bool), np.zeros(n_pos, bool)]) if exact else None
    return LinearProgram(cost, np.zeros(n_cols + n_pos), upper, np.ones(n_pos), np.full(n_pos, INF),
                         indptr, indices, values, integer=integer, time_limit=time_limit,
                         presolve=presolve)


class ClauseSolver:
    """Learns one clause for given negative weights and θ, reusing one HiGHS model."""

    def __init__(self, problem: CNFProblem, *, disable_cost: float = 0.0, exact: bool = False,
                 time_limit: float | None = 60.0, warm: bool = False):
        self.problem = problem
        self.warm = warm
        self.disable_cost = float(disable_cost)
        self.exact = exact
        self._model = clause_model(problem, exact, time_limit if exact else None)
        self._n_cols = problem.A_pos.shape[1]
        self.cache_hits = 0
        self._cache = {}

    @property
    def n_solves(self) -> int:
        return self._model.n_solves

    @property
    def total_iterations(self) -> int:
        return self._model.total_iterations

    def column_costs(self, neg_weight: np.ndarray, theta: float) -> np.ndarray:
        """Costs of ``w`` (features, then always-true): θ plus the active negatives' weight."""
        cost = (neg_weight.astype(np.float32) @ self.problem.A_neg).astype(np.float64)
        cost[:-1] += theta
        cost[-1] += self.disable_cost
        return cost

    def fit(self, neg_weight: np.ndarray, theta: float) -> ClauseFit:
        """Solve the clause LP (or MIP) and round it to the best integer clause.

        The same (negative weights, θ) asked again returns the stored answer:
        BCD asks for the clause it has just updated once more in its next
        iteration, with nothing changed.
        """
        key = (neg_weight.tobytes(), float(theta))
        if key in self._cache:
            self.cache_hits += 1
            return self._cache[key]
        costs = np.concatenate([self.column_costs(neg_weight, theta), self.problem.w_pos])
        self._model.set_costs(costs)
        result = self._model.solve(warm=self.warm)
        w = result.x[: self._n_cols]
        if self.exact:
            clause = normalize(w > 0.5)
            objective = clause_objective(self.problem, clause, neg_weight, theta, self.disable_cost)
        else:
            clause, objective = round_best_threshold(self.problem, w, neg_weight, theta,
                                                     self.disable_cost)
        fit = ClauseFit(clause, objective, result.objective, result.iterations)
        if len(self._cache) < 10_000:
            self._cache[key] = fit
        return fit


def normalize(clause: np.ndarray) -> np.ndarray:
    """A clause with the always-true feature selects nothing else (cheaper, same output)."""
    clause = np.asarray(clause, dtype=bool).copy()
    if clause[-1]:
        clause[:-1] = False
    return clause


def round_best_threshold(problem: CNFProblem, w: np.ndarray, neg_weight: np.ndarray,
                         theta: float, disable_cost: float, tol: float = 1e-9):
    """Best integer clause ``w >= t`` over every distinct positive value ``t`` of ``w``.

    The empty clause (``t`` above every value) is a candidate too. Ties keep the
    larger threshold, i.e. the sparser clause. The winner is then :func:`prune`-d.
    """
    levels = np.unique(w[w > tol])[::-1]
    best = np.zeros(len(w), dtype=bool)
    best_objective = clause_objective(problem, best, neg_weight, theta, disable_cost)
    seen = set()
    for level in levels:
        candidate = normalize(w >= level - tol)
        key = candidate.tobytes()
        if key in seen:
            continue
        seen.add(key)
        objective = clause_objective(problem, candidate, neg_weight, theta, disable_cost)
        if objective < best_objective - 1e-9:
            best, best_objective = candidate, objective
    return prune(problem, best, best_objective, w, neg_weight, theta, disable_cost)


def prune(problem, clause, objective, w, neg_weight, theta, disable_cost):
    """Drop selected features, weakest LP value first, while the objective does not rise.

    Removes redundant literals that rounding can leave in (``x <= 166.8`` beside
    ``x <= 198.7`` in one AND-term), which cost θ and change no prediction.
    """
    clause = clause.copy()
    for j in sorted(np.flatnonzero(clause[:-1]), key=lambda j: (w[j], j)):
        clause[j] = False
        value = clause_objective(problem, clause, neg_weight, theta, disable_cost)
        if value <= objective + 1e-12:
            objective = value
        else:
            clause[j] = True
    return clause, objective
