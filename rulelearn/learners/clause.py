"""One OR-clause: the LP relaxation of Malioutov & Varshney (2013) and its rounding.

For weights ``c`` on positives ``P`` and (active) negatives ``N``::

    min  sum_{i in P} c_i xi_i + sum_j (theta_j + sum_{i in N} c_i a_ij) w_j
    s.t. xi_i + sum_j a_ij w_j >= 1      for i in P
         0 <= w_j <= 1,  xi_i >= 0

Only the positives are rows; the negatives and θ only change column costs.
So one HiGHS model per training set serves every clause, every BCD/AM
iteration and every θ, re-solved warm from the last basis.

The LP optimum is often fractional. :func:`round_best_threshold` tries each
distinct value of ``w`` as a threshold and keeps the integer clause with the
lowest clause objective (the long version of the paper, arXiv 1511.07361).
``exact=True`` instead solves the same problem as a MIP with a time limit.

``columns="generate"`` (off by default) solves the LP by column generation
over the literal columns: with only a subset ``K`` of literals, positives
whose rows agree on ``K`` are merged (their weights summed), which shrinks
MAGIC's first clause LP from 12k rows to a few hundred (1.3 s -> 0.03 s).
The row duals, split over each merged row in proportion to the weights, price
the other literals; literals with a negative reduced cost join ``K`` until none
is left (then the restricted optimum is optimal for the full LP). When the
merged LP grows past half the positives it solves the full LP instead. The LP
value is always the full LP's; the optimal *vertex* may differ from the full
cold solve when the LP has several optima, and then so may the rounded clause.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulelearn.learners.problem import CNFProblem, clause_objective
from rulelearn.lp import INF, LinearProgram, LPResult


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


COLUMN_MODES = ("all", "generate")


class ClauseSolver:
    """Learns one clause for given negative weights and θ, reusing one HiGHS model.

    ``columns``: ``"all"`` solves the full LP cold; ``"generate"`` solves it by
    column generation over merged rows (see the module notes; LPs only).
    """

    def __init__(self, problem: CNFProblem, *, disable_cost: float = 0.0, exact: bool = False,
                 time_limit: float | None = 60.0, warm: bool = False, columns: str = "all"):
        if columns not in COLUMN_MODES:
            raise ValueError(f"columns must be one of {COLUMN_MODES}, got {columns!r}")
        self.problem = problem
        self.warm = warm
        self.columns = columns
        self._sub_solves = 0
        self._sub_iterations = 0
        self.n_full_fallbacks = 0
        self.disable_cost = float(disable_cost)
        self.exact = exact
        self._model = clause_model(problem, exact, time_limit if exact else None)
        self._n_cols = problem.A_pos.shape[1]
        self.cache_hits = 0
        self._cache = {}

    @property
    def n_solves(self) -> int:
        return self._model.n_solves + self._sub_solves

    @property
    def total_iterations(self) -> int:
        return self._model.total_iterations + self._sub_iterations

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
        column_costs = self.column_costs(neg_weight, theta)
        if self.columns == "generate" and not self.exact:
            result = self._generate(column_costs)
        else:
            self._model.set_costs(np.concatenate([column_costs, self.problem.w_pos]))
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


    def _generate(self, column_costs: np.ndarray, first: int = 20, add: int = 20,
                  max_share: float = 0.5, tol: float = 1e-7) -> LPResult:
        """The clause LP by column generation over merged rows; x holds ``w`` only.

        Starts from the ``first`` literals with the most covered positive
        weight per unit cost (plus always-true), adds at most ``add`` literals
        of most negative reduced cost per round. Depends on the costs only.
        """
        A, c = self.problem.A_pos, self.problem.w_pos
        d = self._n_cols
        score = (c @ A) / np.maximum(column_costs, 1e-12)
        order = np.lexsort((np.arange(d), -score))
        K = np.union1d(order[:first], [d - 1])
        iterations = 0
        for rounds in range(1, d + 1 if len(c) else 1):
            packed = np.packbits(A[:, K] != 0, axis=1)
            unique, inverse = np.unique(packed, axis=0, return_inverse=True)
            inverse = inverse.ravel()
            if rounds > 1 and len(unique) > max_share * len(c):
                break
            merged_weight = np.bincount(inverse, weights=c, minlength=len(unique))
            rows = np.unpackbits(unique, axis=1, count=len(K)).astype(np.float32)
            sub = CNFProblem(rows, merged_weight, rows[:0], c[:0])
            model = clause_model(sub)
            model.set_costs(np.concatenate([column_costs[K], merged_weight]))
            result = model.solve(warm=False)
            self._sub_solves += 1
            self._sub_iterations += result.iterations
            iterations += result.iterations
            dual = result.row_dual[inverse] * (c / merged_weight[inverse])
            reduced = column_costs - (dual @ A)
            outside = np.ones(d, dtype=bool)
            outside[K] = False
            entering = np.flatnonzero(outside & (reduced < -tol))
            if len(entering) == 0:
                x = np.zeros(d)
                x[K] = result.x[: len(K)]
                return LPResult(x=x, objective=result.objective, iterations=iterations,
                                status=result.status)
            entering = entering[np.lexsort((entering, reduced[entering]))[:add]]
            K = np.union1d(K, entering)
        self.n_full_fallbacks += 1
        self._model.set_costs(np.concatenate([column_costs, c]))
        result = self._model.solve(warm=False)
        return LPResult(x=result.x, objective=result.objective,
                        iterations=iterations + result.iterations, status=result.status)


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
