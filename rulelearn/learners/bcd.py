"""Block coordinate descent (BCD), section 3.1 of the paper."""

from __future__ import annotations

import numpy as np

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.descent import descend
from rulelearn.learners.problem import cnf_objective, count_matrix
from rulelearn.learners.result import LearnResult


def bcd(solver: ClauseSolver, theta: float, max_rules: int, max_iter: int = 100,
        start: str = "sc", polish: bool = False, perturb: int = 0) -> LearnResult:
    """Greedy BCD from the set-covering rule.

    Each iteration re-learns every clause in turn with the others fixed (the
    negatives already rejected by another clause are "don't care" and leave
    its problem), and keeps the single update that lowers the objective most.
    The LP is the paper's; its rounding compares candidate clauses by the CNF
    objective itself, each remaining negative's count capped at the smallest
    count of the other clauses (the clause objective alone overcharges a
    negative that several selected features accept, and so favours disabling
    the clause).
    It stops when no update lowers the objective, or after ``max_iter``; ``polish``: then
    single-literal moves; ``perturb``: then that many rounds of iterated local search
    (:func:`~rulelearn.learners.descent.descend`).
    """
    problem = solver.problem

    def step(W):
        counts = count_matrix(problem.A_neg, W, problem.by_feature[1])
        best = None
        for r in range(len(W)):
            others = np.delete(counts, r, axis=1)
            cap = others.min(axis=1) if others.shape[1] else None
            weights = problem.w_neg if cap is None else np.where(cap == 0, 0.0, problem.w_neg)
            fit = solver.fit(weights, theta, cap)
            if np.array_equal(fit.clause, W[r]):
                continue
            trial = W.copy()
            trial[r] = fit.clause
            value = cnf_objective(problem, trial, theta, solver.disable_cost)
            if best is None or value < best[0]:
                best = (value, trial)
        return best

    return descend(solver, theta, max_rules, max_iter, step, start, polish, perturb)
