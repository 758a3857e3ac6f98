"""Column generation (CG) as a CNF learner: the interface of :mod:`rulelearn.learners`.

Not registered in :data:`rulelearn.learners.LEARNERS` yet. The learners see the CNF view of
:mod:`rulelearn.estimator` (a DNF is reached by De Morgan before this point), so the rule is
learned here as a CNF over the problem's features: :func:`rulelearn.certify.learn_cg` with
``form="cnf"``, seeded with the set-covering rule, so its objective is never above SC's.
"""

from __future__ import annotations

import numpy as np

from rulelearn.certify import learn_cg, terms_matrix
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import cnf_objective
from rulelearn.learners.result import LearnResult
from rulelearn.learners.sc import set_cover

#: Seconds of column generation (each pricing MIP: :data:`PRICING_TIME_LIMIT` at most).
TIME_LIMIT = 60.0
PRICING_TIME_LIMIT = 10.0


def cg(solver: ClauseSolver, theta: float, max_rules: int) -> LearnResult:
    """The CG rule of at most ``max_rules`` clauses (padded with disabled clauses to that many
    rows). ``history`` holds the objective and the certified lower bound.

    Takes only ``max_rules`` after θ, so that :func:`rulelearn.learners.run_learner` can call
    it as it is (its options are read from the signature)."""
    problem = solver.problem
    n = problem.n_features
    A = np.vstack([problem.A_pos[:, :n], problem.A_neg[:, :n]]).astype(np.uint8)
    y = np.concatenate([np.ones(len(problem.A_pos), bool), np.zeros(len(problem.A_neg), bool)])
    weight = np.concatenate([problem.w_pos, problem.w_neg])
    seed = set_cover(solver, theta, max_rules).W
    seed_terms = [tuple(np.flatnonzero(c[:n]).tolist()) for c in seed if not c[-1]]
    learned = learn_cg(A, y, theta, form="cnf", max_rules=max_rules, sample_weight=weight,
                       disable_cost=solver.disable_cost, time_limit=TIME_LIMIT,
                       pricing_time_limit=PRICING_TIME_LIMIT, seed_terms=seed_terms)
    W = terms_matrix(learned.terms, n, max_rules)
    objective = cnf_objective(problem, W, theta, solver.disable_cost)
    return LearnResult(W, objective, n_iter=learned.certificate.iterations,
                       history=[objective, learned.certificate.bound])
