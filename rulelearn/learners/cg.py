"""Column generation (CG) as a CNF learner: the interface of :mod:`rulelearn.learners`.

The learners see the CNF view of :mod:`rulelearn.estimator` (a DNF is reached by De Morgan
before this point), so the rule is learned here as a CNF over the problem's features:
:func:`rulelearn.certify.learn_cg` with ``form="cnf"``, seeded with the set-covering rule, so
its objective is never above SC's. Columns are priced by a beam search (as AIX360's BRCG
does); every limit is a count, so the same data give the same rule on any machine.

On a θ path (``fit_path``, the solver's ``warm_across_theta``) the columns priced at one θ
seed the master at the next and the rule learned last is the master MIP's first incumbent
(a :class:`~rulelearn.certify.ColumnPath` kept with the solver): a rule then depends on the
θ values fitted before it on the same data, unlike BCD's. Measured on Pima's first outer
fold (8-θ path, R = 5): objectives 115.0-121.0 below θ = 1 where each θ alone reached
119.1-124.0 (151.4 against 147.2 at θ = 1.18), and, with the beam of one ranking, a
brcg-protocol unit (88 fits) in 10.4 CPU s instead of 21.1.
"""

from __future__ import annotations

import numpy as np

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import cnf_objective
from rulelearn.learners.result import LearnResult
from rulelearn.learners.sc import set_cover

#: Master LP solves of the column generation (each adds the beam search's columns).
ITERATIONS = 10
#: Columns added per θ at most, and branch-and-bound nodes of the master MIP that picks the
#: rule among the MASTER_COLUMNS of least reduced cost (30: as good a rule as 100 on Pima's
#: path at a fifth of the MIP time; HiGHS's root work grows fast with the columns).
MAX_COLUMNS = 1000
MASTER_NODES = 100
MASTER_COLUMNS = 30


def cg(solver: ClauseSolver, theta: float, max_rules: int) -> LearnResult:
    """The CG rule of at most ``max_rules`` clauses (padded with disabled clauses to that many
    rows). ``history`` holds the set-covering seed's objective and the CG rule's.

    Takes only ``max_rules`` after θ, so that :func:`rulelearn.learners.run_learner` can call
    it as it is (its options are read from the signature)."""
    # imported here: rulelearn.certify imports rulelearn.learners, which registers this
    from rulelearn.certify import ColumnPath, learn_cg, terms_matrix

    problem = solver.problem
    n = problem.n_features
    A = np.vstack([problem.A_pos[:, :n], problem.A_neg[:, :n]]).astype(np.uint8)
    y = np.concatenate([np.ones(len(problem.A_pos), bool), np.zeros(len(problem.A_neg), bool)])
    weight = np.concatenate([problem.w_pos, problem.w_neg])
    seed = set_cover(solver, theta, max_rules)
    seed_terms = [tuple(np.flatnonzero(c[:n]).tolist()) for c in seed.W if not c[-1]]
    path = None
    if solver.warm_across_theta:  # one column path per solver (its data) and max_rules
        path = solver.starts.setdefault(("cg columns", max_rules), ColumnPath())
    learned = learn_cg(A, y, theta, form="cnf", max_rules=max_rules, sample_weight=weight,
                       disable_cost=solver.disable_cost, seed_terms=seed_terms,
                       max_iterations=ITERATIONS, max_columns=MAX_COLUMNS,
                       master_nodes=MASTER_NODES, master_columns=MASTER_COLUMNS, path=path)
    W = terms_matrix(learned.terms, n, max_rules)
    objective = cnf_objective(problem, W, theta, solver.disable_cost)
    return LearnResult(W, objective, n_iter=learned.certificate.iterations,
                       history=[seed.objective, objective])
