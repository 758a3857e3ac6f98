"""Set covering (SC) and the one-clause rule (OCRL) of Malioutov & Varshney (2013)."""

from __future__ import annotations

import numpy as np

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import clause_counts, cnf_objective, disabled_clause
from rulelearn.learners.result import LearnResult


def set_cover(solver: ClauseSolver, theta: float, max_rules: int, **_) -> LearnResult:
    """Add clauses one at a time, each learned on the negatives no earlier clause rejects.

    Stops after ``max_rules`` clauses, when every negative is rejected, or when
    the new clause is disabled or rejects no remaining negative. The result is
    padded with disabled clauses to ``max_rules`` rows.
    """
    problem = solver.problem
    remaining = problem.w_neg.copy()
    clauses = []
    while len(clauses) < max_rules and remaining.sum() > 0:
        fit = solver.fit(remaining, theta)
        rejects = clause_counts(problem.A_neg, fit.clause) == 0
        if fit.clause[-1] or not np.any(rejects & (remaining > 0)):
            break
        clauses.append(fit.clause)
        remaining = np.where(rejects, 0.0, remaining)
    W = np.array(clauses + [disabled_clause(problem.n_features)] * (max_rules - len(clauses)),
                 dtype=bool).reshape(max_rules, problem.n_features + 1)
    objective = cnf_objective(problem, W, theta, solver.disable_cost)
    return LearnResult(W, objective, n_iter=len(clauses), history=[objective])


def ocrl(solver: ClauseSolver, theta: float, **_) -> LearnResult:
    """One clause learned on all samples (R = 1)."""
    fit = solver.fit(solver.problem.w_neg, theta)
    W = fit.clause[None, :]
    objective = cnf_objective(solver.problem, W, theta, solver.disable_cost)
    return LearnResult(W, objective, n_iter=1, history=[objective])


def descend(solver: ClauseSolver, theta: float, max_rules: int, max_iter: int,
            step) -> LearnResult:
    """From the set-covering rule, apply ``step(W) -> (objective, W) or None`` while it helps.

    Stops when a step does not lower the objective (or proposes nothing), or
    after ``max_iter`` steps; the objective never increases.
    """
    start = set_cover(solver, theta, max_rules)
    W, objective, history, n_iter = start.W.copy(), start.objective, [start.objective], 0
    while n_iter < max_iter:
        proposal = step(W)
        n_iter += 1
        if proposal is None or proposal[0] >= objective - 1e-9:
            break
        objective, W = proposal
        history.append(objective)
    return LearnResult(W, objective, n_iter=n_iter, history=history)
