"""Set covering (SC) and the one-clause rule (OCRL) of Malioutov & Varshney (2013)."""

from __future__ import annotations

import numpy as np

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import clause_counts, cnf_objective, disabled_clause
from rulelearn.learners.result import LearnResult


def set_cover(solver: ClauseSolver, theta: float, max_rules: int) -> LearnResult:
    """Add clauses one at a time, each learned on the negatives no earlier clause rejects.

    Stops after ``max_rules`` clauses, when every negative is rejected, or when
    the new clause is disabled or rejects no remaining negative. Of the rules
    made by the first ``k`` clauses (``k`` = 0 is the always-true rule) the one
    with the lowest objective is kept: a later clause can cost its positives
    more than the negatives it rejects save. The result is padded with disabled
    clauses to ``max_rules`` rows.
    """
    problem = solver.problem
    remaining = problem.w_neg.copy()
    clauses: list = []
    while len(clauses) < max_rules and remaining.sum() > 0:
        fit = solver.fit(remaining, theta)
        rejects = clause_counts(problem.A_neg, fit.clause, problem.by_feature[1]) == 0
        if fit.clause[-1] or not np.any(rejects & (remaining > 0)):
            break
        clauses.append(fit.clause)
        remaining = np.where(rejects, 0.0, remaining)
    prefixes = [_padded(clauses[:k], problem.n_features, max_rules)
                for k in range(len(clauses) + 1)]
    objectives = [cnf_objective(problem, W, theta, solver.disable_cost) for W in prefixes]
    k = int(np.flatnonzero(np.array(objectives) <= min(objectives) + 1e-9)[0])  # ties: fewer
    return LearnResult(prefixes[k], objectives[k], n_iter=len(clauses), history=[objectives[k]])


def _padded(clauses, n_features: int, max_rules: int) -> np.ndarray:
    """``clauses`` followed by disabled clauses, ``max_rules`` rows in all."""
    rows = list(clauses) + [disabled_clause(n_features)] * (max_rules - len(clauses))
    return np.array(rows, dtype=bool).reshape(max_rules, n_features + 1)


def ocrl(solver: ClauseSolver, theta: float) -> LearnResult:
    """One clause learned on all samples (R = 1)."""
    fit = solver.fit(solver.problem.w_neg, theta)
    W = fit.clause[None, :]
    objective = cnf_objective(solver.problem, W, theta, solver.disable_cost)
    return LearnResult(W, objective, n_iter=1, history=[objective])
