"""Alternating minimization (AM), section 3.2 of the paper."""

from __future__ import annotations

import numpy as np

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.descent import descend
from rulelearn.learners.problem import clause_objective, cnf_objective, count_matrix
from rulelearn.learners.result import LearnResult


def assign_negatives(A_neg: np.ndarray, w_neg: np.ndarray, W: np.ndarray) -> np.ndarray:
    """The v-step: each negative goes to a clause with the fewest selected active features.

    Ties go to the tied clause whose cluster centre (the weighted mean row of the
    negatives for which that clause is minimal, ties included) is closest in l1.
    """
    counts = count_matrix(A_neg, W)
    minimal = counts == counts.min(axis=1, keepdims=True)
    assignment = np.argmax(minimal, axis=1)
    tied = np.flatnonzero(minimal.sum(axis=1) > 1)
    if len(tied):
        weights = minimal * w_neg[:, None]
        totals = weights.sum(axis=0)
        centres = (weights.T @ A_neg) / np.maximum(totals, 1e-300)[:, None]
        # every tied negative's l1 distance to every centre, a block of negatives at a time
        # (the same sums, element for element, as one negative at a time); non-minimal
        # clauses are out, and argmin keeps the first of equal distances
        block = max(1, _TIE_BLOCK // max(1, centres.size))
        for first in range(0, len(tied), block):
            rows = tied[first:first + block]
            distances = np.abs(A_neg[rows][:, None, :] - centres[None, :, :]).sum(axis=2)
            distances[~minimal[rows]] = np.inf
            assignment[rows] = np.argmin(distances, axis=1)
    return assignment


_TIE_BLOCK = 1 << 20  # doubles per block of tied negatives' differences (8 MiB)


def am(solver: ClauseSolver, theta: float, max_rules: int, max_iter: int = 100,
        start: str = "sc", polish: bool = False, perturb: int = 0) -> LearnResult:
    """AM from the set-covering rule.

    Alternates the v-step (``assign_negatives``) with R independent clause
    updates, each on the positives and the negatives assigned to it. A clause
    keeps its old value unless the new one has a lower clause objective, so the
    objective never increases. Stops when it does not decrease, or after
    ``max_iter``; ``polish``: then single-literal moves
    (:func:`~rulelearn.learners.descent.descend`).
    """
    problem = solver.problem

    def step(W):
        assignment = assign_negatives(problem.A_neg, problem.w_neg, W)
        trial = W.copy()
        for r in range(len(W)):
            weights = np.where(assignment == r, problem.w_neg, 0.0)
            fit = solver.fit(weights, theta)
            old = clause_objective(problem, W[r], weights, theta, solver.disable_cost)
            if fit.objective < old - 1e-9:
                trial[r] = fit.clause
        return cnf_objective(problem, trial, theta, solver.disable_cost), trial

    return descend(solver, theta, max_rules, max_iter, step, start, polish, perturb)
