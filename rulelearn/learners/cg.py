"""Column generation (CG) as a rule learner: :func:`learn_cg`, and method "cg" (:func:`cg`).

:func:`learn_cg` runs the column generation of :mod:`rulelearn.colgen` with the beam search
as pricing (as AIX360's BRCG does), then picks the rule among the columns with the master
MIP, seeded with a given rule (the set-covering rule for :func:`cg`) and never worse than
it. :func:`cg` is its interface in :mod:`rulelearn.learners`: the learners see the CNF view
of :mod:`rulelearn.estimator`, so the rule is learned as a CNF. On a θ path the columns of
one θ seed the next (:class:`ColumnPath`, kept with the solver), so a rule depends on the θ
values fitted before it on the same data, unlike BCD's. Every limit is a count: the same
data give the same rule on any machine.

How it works and what was measured: docs/explanation/certificates.md (the column-generation
learner).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulelearn import colgen
from rulelearn.colgen import (
    Certificate,
    _generate,
    _Master,
    _prune,
    master_mip,
    relaxed_objective,
    rule_objective,
    terms_matrix,
)
from rulelearn.errors import ParameterError
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


# ---------------------------------------------------------------------------- a CG learner
@dataclass(frozen=True)
class CGRule:
    """A rule learned by column generation: its terms (literal indices), objective, bound."""

    terms: tuple[tuple[int, ...], ...]
    objective: float
    certificate: Certificate
    source: str  # "master MIP" or "seed"

    def rule(self, literals, form: str = "dnf"):
        """The :class:`~rulelearn.rules.Rule` over ``literals`` (a list of Literal)."""
        from rulelearn.rules import Clause, Rule

        return Rule(form, tuple(Clause(tuple(literals[j] for j in t)) for t in self.terms))


class ColumnPath:
    """The columns of :func:`learn_cg` kept from one θ to the next on the same data (a θ
    path: the inner CV's and the refit's), with the master LP that holds them.

    At the next θ the master starts from every column generated so far, re-costed (the
    HiGHS model and its basis are kept), and the rule learned last is the master MIP's first
    incumbent. A rule learned on a path thus depends on the θ values before it; one
    :class:`ColumnPath` per data set, form and ``max_rules``.
    """

    def __init__(self) -> None:
        self.master: _Master | None = None
        self.rule: tuple[tuple[int, ...], ...] = ()  # the last rule learned
        self.fits = 0


def learn_cg(A, y, theta: float, *, form: str = "dnf", max_rules: int | None = None,
             sample_weight=None, disable_cost: float = 0.0, seed_terms=(),
             exact_pricing: bool = False, master_nodes: int = colgen.MASTER_NODES,
             master_columns: int = colgen.MASTER_COLUMNS, path: ColumnPath | None = None,
             **options) -> CGRule:
    """Column generation, then the restricted master as a MIP over the generated columns.

    The columns of :mod:`rulelearn.colgen`'s column generation (seeded with ``seed_terms``,
    e.g. a set-covering rule; priced by the beam search only unless ``exact_pricing``, as
    AIX360's BRCG does) form the pool. When the master LP's optimum is integral its terms
    are the rule (the MIP's optimum over the pool); otherwise the master MIP
    (``master_nodes`` nodes at most) picks at most ``max_rules`` columns minimizing the
    relaxed objective G, among the ``master_columns`` of least reduced cost at the final
    duals that can be in a rule better than the incumbent (reduced cost at most the
    incumbent's G less the LP value: the LP bound excludes the others), the incumbent being
    the better of the seed and the path's last rule. Terms are then dropped while that
    lowers the project's objective. The seed rule is returned instead when its objective is
    lower, so the result is never worse than the seed. ``path``: a :class:`ColumnPath` to
    continue from and update. ``options`` (``max_iterations``, ``pricing_nodes``,
    ``max_columns``, ``time_limit``) go to the column generation, as for
    :func:`rulelearn.certify.lower_bound`; every default limit is a count, so the rule is the
    same on any machine. With ``exact_pricing`` the certificate's bound is valid (≤ the
    objective); without, it is 0.
    """
    seed = tuple(tuple(sorted(t)) for t in seed_terms)
    kept = path.master if path is not None else None
    last: tuple[tuple[int, ...], ...] = path.rule if kept is not None and path else ()
    if kept is not None and (kept.max_rules != max_rules
                             or kept.data.d != np.asarray(A).shape[1]):
        raise ParameterError("a ColumnPath serves one data set, form and max_rules")
    certificate, master, reduced = _generate(
        A, y, theta, form=form, max_rules=max_rules, sample_weight=sample_weight,
        initial_terms=seed + last, exact_pricing=exact_pricing, master=kept, **options)
    if master is None:  # no positive or no negative: the empty rule or the empty term
        pool = [()] + list(seed)
        chosen = master_mip(A, y, theta, pool, form=form, max_rules=max_rules,
                            sample_weight=sample_weight, node_limit=master_nodes)
    elif certificate.integral:  # the LP's optimum is a rule: the best over the pool
        chosen = certificate.terms
    else:
        data = master.data
        fits = [t for t in (seed, last)
                if t and (max_rules is None or len(t) <= max_rules)]
        incumbent = min(fits, key=lambda t: relaxed_objective(data, t), default=())
        slack = (relaxed_objective(data, incumbent) - certificate.lp_value if incumbent
                 else np.inf)
        order = np.argsort(reduced, kind="stable")[:master_columns]
        pool = [master.terms[k] for k in order if reduced[k] <= slack + 1e-9]
        chosen = master_mip(A, y, theta, pool, form=form, max_rules=max_rules,
                            node_limit=master_nodes, incumbent=incumbent, data=data)
    if path is not None and master is not None:
        path.master = master
        path.fits += 1
    terms, value = _prune(A, y, chosen, theta, form, max_rules, sample_weight, disable_cost)
    source = "master MIP"
    if seed and (max_rules is None or len(seed) <= max_rules):
        seed_value = rule_objective(A, y, seed, theta, form=form, max_rules=max_rules,
                                    sample_weight=sample_weight, disable_cost=disable_cost)
        if seed_value < value - 1e-12:
            terms, value, source = seed, seed_value, "seed"
    if path is not None:
        path.rule = terms
    return CGRule(terms, value, certificate, source)
