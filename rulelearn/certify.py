"""Certificates: a lower bound on the objective of every two-level rule, and a rule's gap.

:func:`lower_bound` bounds the objective of every DNF (or CNF) of at most ``max_rules``
clauses over the literals of ``A``: column generation (:mod:`rulelearn.colgen`) over the
master LP of BRCG's relaxation G, tightened by a ladder of rows per positive, with a valid
Lagrangian/Farley bound at every iteration (so pricing need not finish), then optionally
lifted past the LP by the closure (:func:`closure_bound`: the master MIP over every
conjunction that a rule below a known objective can use). :func:`certify` bounds a fitted
estimator's rule, :func:`bound_key` names a bound for reuse. Every default limit is a
count, so a bound is the same on any machine.

The formulation, why the bound is valid, where it is exact and where loose, and what was
measured: docs/explanation/certificates.md.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, fields, replace

import numpy as np

from rulelearn.colgen import (
    CUT_ROUNDS,
    MASTER_COLUMNS,
    MAX_COLUMNS,
    MAX_ITERATIONS,
    PRICING,
    PRICING_NODES,
    PRICINGS,
    SEARCH_NODES,
    Certificate,
    _check_options,
    _covering_mip,
    _generate,
    _Master,
    _prune,
    _rounded,
    master_mip,
    rule_objective,
)
from rulelearn.conjunctions import ConjunctionSearch
from rulelearn.errors import ParameterError


def gap(objective: float, bound: float) -> float:
    """Relative gap ``(objective − bound) / objective`` (0 when both are 0)."""
    objective, bound = float(objective), float(bound)
    if objective <= 0:
        return 0.0 if objective - bound <= 1e-12 else float("inf")
    return max(0.0, objective - bound) / objective


#: Ladder levels of :func:`lower_bound` (1: the relaxation G; docs/explanation/certificates.md).
LEVELS = 2
#: Limits of the closure (:func:`closure_bound`): conjunctions it may enumerate (more: the
#: LP bound is kept), nodes of the search that enumerates them and of its MIP.
CLOSURE_COLUMNS = 100_000
CLOSURE_SEARCH_NODES = 2_000_000
CLOSURE_NODES = 1000



@dataclass(frozen=True)
class Limits:
    """Limits of :func:`lower_bound`, named once and passed on as ``**limits.options()``; a
    field left None keeps :func:`lower_bound`'s default. :meth:`bench` gives the
    benchmark's."""

    max_iterations: int | None = None
    pricing_nodes: int | None = None
    cut_rounds: int | None = None
    cpu_safety: float | None = None
    levels: int | None = None
    pricing: str | None = None
    closure: bool | None = None
    max_columns: int | None = None
    search_nodes: int | None = None
    cpu_limit: float | None = None
    time_limit: float | None = None
    closure_columns: int | None = None
    closure_nodes: int | None = None
    closure_levels: int | str | None = None

    def options(self) -> dict:
        """The keyword arguments of :func:`lower_bound` these limits set (the fields given)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}

    @classmethod
    def bench(cls) -> "Limits":
        """The limits of a benchmark record's certificate: counts only (40 master LP solves,
        20 nodes per pricing MIP after 2 cut rounds), so that its bound is the same on any
        machine at any load; the ladder (2 levels); pricing "auto" and the closure; and a
        CPU safety net of 600 s, checked between HiGHS runs (where it stops a bound, the
        record is not reproducible). Why these: docs/explanation/certificates.md."""
        return cls(max_iterations=40, pricing_nodes=20, cut_rounds=2, cpu_safety=600.0,
                   levels=2, pricing="auto", closure=True)

def lower_bound(A, y, theta: float, *, form: str = "dnf", max_rules: int | None = None,
                sample_weight=None, max_iterations: int = MAX_ITERATIONS,
                pricing_nodes: int = PRICING_NODES, max_columns: int = MAX_COLUMNS,
                cut_rounds: int = CUT_ROUNDS, time_limit: float | None = None,
                cpu_limit: float | None = None, cpu_safety: float | None = None,
                initial_terms=(), pricer=None, levels: int = LEVELS,
                disable_cost: float = 0.0, pricing: str = PRICING,
                search_nodes: int = SEARCH_NODES, closure: bool = False,
                upper_bound: float | None = None, closure_columns: int = CLOSURE_COLUMNS,
                closure_nodes: int = CLOSURE_NODES,
                closure_levels: int | str | None = None) -> Certificate:
    """A lower bound on the objective of every rule over the literals (columns) of ``A``.

    ``A``: 0/1 matrix (rows × literals), ``y``: booleans (True = the class the rule
    predicts). ``form``: "dnf" or "cnf" (De Morgan). ``max_rules``: at most that many clauses
    (None: any number). The work is capped by counts, so the result does not depend on the
    machine: ``max_iterations`` master LP solves, ``pricing_nodes`` branch-and-bound nodes
    per pricing MIP (HiGHS's ``mip_max_nodes``; its dual bound stays valid at the limit),
    ``max_columns`` conjunctions (the beam search may add a few more at its last step),
    ``cut_rounds`` rounds of pair cuts from each pricing MIP's LP relaxation; one
    more pricing MIP prices the final duals for the bound. ``time_limit`` (seconds, None:
    none) stops starting new iterations, at the price of a machine-dependent result.
    ``cpu_limit`` (CPU seconds of this process, None: none) is a budget: no iteration starts
    after it, every HiGHS run of the pricing stops at it (HiGHS's wall-clock limit set to
    the CPU seconds left), and the last pricing MIP, which gives the bound at the final
    duals, gets what is left or a tenth of the budget, whichever is more; the status is then
    "cpu limit" and the bound the Lagrangian/Farley one, valid, and load-dependent.
    ``cpu_safety`` (CPU seconds; instead of ``cpu_limit``) is a safety net that leaves the
    counts in charge: it is checked only between HiGHS runs, and each HiGHS run stops after
    that many wall seconds at most (a backstop against one runaway run); HiGHS runs are
    otherwise not cut. Where the counts stop the column generation first, the bound is the
    same on any machine at any load; where the net is hit, the status is "cpu limit".
    ``initial_terms``: conjunctions to start from (e.g. a learned rule's). ``pricer``
    replaces the pricing MIP (for tests): a callable ``(mu, rho) -> result with term, value,
    dual_bound, optimal``. ``levels``: ladder rows per positive (1: the relaxation G; with
    ``max_rules`` None always 1). ``disable_cost``: the rule's cost per disabled clause
    (the ladder's disabled-clause column pays it once). ``pricing``: "mip", "search"
    (:mod:`rulelearn.conjunctions`: exact, ``search_nodes`` nodes per call, its bound valid
    when it stops there) or "auto" (the search until it neither finishes nor finds a
    column, then the MIP). The formulation and why the bound is valid:
    docs/explanation/certificates.md. ``closure`` (with ``max_rules``): then
    :func:`closure_bound` lifts the bound towards ``upper_bound`` (None: the objective of
    the master MIP's rule over the generated columns, its terms dropped while that lowers
    it, as the CG learner does, or the LP optimum's rule when that is integral and lower)
    within ``closure_columns`` conjunctions and ``closure_nodes`` MIP nodes, over
    ``closure_levels`` ladder rows (None: the master's; "exact": every literal a term
    misses; see :func:`closure_bound`); the certificate's ``kind`` and ``closure_status``
    say what it gave, ``closure_terms`` the rule the closure MIP found.
    """
    start, cpu_start = time.perf_counter(), time.process_time()
    if pricing not in PRICINGS:
        raise ParameterError(f"pricing must be one of {PRICINGS}, got {pricing!r}")
    _check_options(form, theta, max_rules, search_nodes=search_nodes,
                   closure_columns=closure_columns, closure_nodes=closure_nodes)
    certificate, master, reduced = _generate(
        A, y, theta, form=form, max_rules=max_rules, sample_weight=sample_weight,
        max_iterations=max_iterations, pricing_nodes=pricing_nodes, max_columns=max_columns,
        cut_rounds=cut_rounds, time_limit=time_limit, cpu_limit=cpu_limit,
        cpu_safety=cpu_safety, initial_terms=initial_terms, pricer=pricer, levels=levels,
        disable_cost=disable_cost, pricing=pricing, search_nodes=search_nodes)
    certificate = replace(certificate, pricing=pricing)
    if not closure or master is None or max_rules is None:
        return certificate
    if upper_bound is None:
        upper_bound = _known_rule(A, y, theta, form, max_rules, sample_weight, disable_cost,
                                  certificate, master, reduced)
    budget = cpu_limit if cpu_safety is None else cpu_safety
    deadline = None if budget is None else cpu_start + float(budget)
    closed = closure_bound(master, float(upper_bound), certificate.lp_bound or 0.0,
                           max_columns=closure_columns, node_limit=closure_nodes,
                           deadline=deadline, levels=closure_levels)
    bound = certificate.bound
    if closed.bound is not None and closed.bound > (certificate.lp_bound or 0.0):
        bound = max(bound, _rounded(closed.bound, master.data))
    return replace(certificate, bound=bound,
                   kind="closure" if bound > certificate.bound else "lp",
                   closure_status=closed.status, closure_columns=closed.columns,
                   upper_bound=float(upper_bound), closure_terms=closed.terms,
                   seconds=time.perf_counter() - start,
                   cpu_seconds=time.process_time() - cpu_start)



def _known_rule(A, y, theta, form, max_rules, sample_weight, disable_cost,
                certificate: Certificate, master: _Master, reduced) -> float:
    """The objective of the best rule column generation found, for the closure to certify
    below: the master MIP's over the ``MASTER_COLUMNS`` columns of least reduced cost, its
    terms dropped while that lowers it (the CG learner's rule: the master MIP minimizes G,
    and its rule of R terms can pay far more than G), or the LP optimum's own rule when that
    is integral and lower (optimal when it has fewer than R terms)."""
    order = np.argsort(reduced, kind="stable")[:MASTER_COLUMNS]
    chosen = master_mip(A, y, theta, [master.terms[k] for k in order], form=form,
                        max_rules=max_rules, data=master.data)
    best = _prune(A, y, chosen, theta, form, max_rules, sample_weight, disable_cost)[1]
    if certificate.integral and 0 < len(certificate.terms) <= max_rules:
        best = min(best, rule_objective(A, y, certificate.terms, theta, form=form,
                                        max_rules=max_rules, sample_weight=sample_weight,
                                        disable_cost=disable_cost))
    return best

# ---------------------------------------------------------------------------- the closure
@dataclass(frozen=True)
class Closure:
    """What :func:`closure_bound` gave: ``bound`` (None: none better than the LP's), its
    ``status`` (:class:`~rulelearn.colgen.Certificate`'s ``closure_status``) and the
    conjunctions of its MIP."""

    bound: float | None
    status: str
    columns: int = 0
    terms: tuple[tuple[int, ...], ...] = ()  # the rule of the MIP's best solution


def closure_bound(master: _Master, upper_bound: float, lp_bound: float, *,
                  max_columns: int = CLOSURE_COLUMNS, node_limit: int = CLOSURE_NODES,
                  search_nodes: int = CLOSURE_SEARCH_NODES,
                  deadline: float | None = None, levels: int | str | None = None) -> Closure:
    """A bound above the LP's by reduced-cost enumeration (exact; standard in set
    partitioning): the master as a MIP over every conjunction that an integer solution below
    ``upper_bound`` (UB) can use.

    Why those suffice. Take the master's last duals, ``μ_{i,t} ∈ [0, w_i]`` and ``ρ ≤ 0``
    (``master.final_duals``), the dual value ``D = Σ_{i,t} μ_{i,t} + ρR``, each column's
    reduced cost ``rc_k``, the disabled-clause column's ``rc_dis`` (``x_dis``), and a bound
    ``L`` ≤ every ``rc_k`` (the last pricing's). For any feasible point of the full master,
    its rows ``ξ_{i,t} + Σ_{k: d_k(i) < t} x_k + [t ≥ 2] x_dis ≥ 1`` weighted by ``μ_{i,t}``,
    and its row ``Σ_k x_k + x_dis ≤ R`` by ``ρ``, give::

        value = D + Σ_k rc_k x_k + rc_dis x_dis + Σ_{i,t} (w_i − μ_{i,t}) ξ_{i,t}
                + Σ_{i,t} μ_{i,t} (row (i,t)'s surplus) − ρ (R − Σ_k x_k − x_dis)
              ≥ D + Σ_k rc_k x_k + rc_dis x_dis,

    every other term being ≥ 0. A rule's point has binary ``x`` and ``x_dis`` with
    ``Σ x + x_dis ≤ R``; if it uses column ``k`` the other R − 1 at most add ≥
    ``min(0, L, rc_dis)`` each, so value < UB forces::

        rc_k < Δ = UB − D − min(0, L, rc_dis) · (R − 1)

    (with exact pricing, ``L ≥ 0`` up to tolerances and ``D`` the LP bound LB: ``Δ = UB −
    LB``). :meth:`~rulelearn.conjunctions.ConjunctionSearch.below` lists every conjunction
    with ``rc ≤ Δ`` except those with a literal that holds on every row of a shorter prefix;
    such a term covers the same rows as without that literal, lacking fewer literals, so
    dropping the literal (or the term, when the rule has the shorter one already) never
    raises a point's value: some least point uses listed columns only. The master MIP over
    them (ξ continuous, ``x`` and ``x_dis`` binary; HiGHS, ``node_limit`` nodes) has a
    proven dual bound ``β``: every rule's point of value < UB is ≥ β, so
    ``min(UB, β)`` is a valid bound whether or not the MIP finished (and any UB will do; a
    known rule's objective is the natural one). The MIP has ``levels`` ladder rows (None:
    the master's; "exact": as many as the longest listed term has literals, and at least
    the master's). With more rows than the master a rule's point there is worth
    at least its point in the master (more rows, ξ ≥ 0), so the listing still holds every
    column of a rule below UB, and a rule of R terms is then charged exactly (the module
    docstring), one of fewer terms its G plus one ``disable_cost``: with ``disable_cost``
    0 a finished MIP's value is the least objective over the listed columns, i.e. the
    optimum when it is below UB. ``None`` (status "column cap") when more
    than ``max_columns`` conjunctions qualify or the search's ``search_nodes`` run out;
    ``deadline`` (a ``time.process_time()`` value) is a safety net for both. Run only
    once pricing has proven ``L ≥ 0`` (up to 1e-6; status "pricing unfinished" otherwise),
    though the argument holds for any ``L``.
    """
    if master.final_duals is None or master.max_rules is None:
        return Closure(None, "pricing unfinished")
    mu, rho, least = master.final_duals
    if not least >= -1e-6:  # Δ grows with (R − 1)·|L|: listing is hopeless far below 0
        return Closure(None, "pricing unfinished")
    if upper_bound <= lp_bound + 1e-7 * max(1.0, abs(upper_bound)):  # (the LP's tolerances)
        return Closure(None, "upper bound met")  # the LP bound proves UB optimal already
    data, R = master.data, int(master.max_rules)
    disabled = master.disabled_reduced_cost(mu, rho)
    low = min(0.0, float(least), 0.0 if disabled is None else float(disabled))
    dual_value = float(np.sum(mu)) + rho * R
    threshold = upper_bound - dual_value - low * (R - 1)
    search = ConjunctionSearch(data.P, data.wp, data.N, data.wn, data.theta)
    found = search.below(mu, rho, threshold + 1e-7 * max(1.0, abs(upper_bound)),
                         node_limit=search_nodes, max_terms=max_columns, deadline=deadline)
    if not found.optimal:
        return Closure(None, "time limit" if found.clock else "column cap", len(found.terms))
    beta, status, rule = _closure_mip(master, found.terms, node_limit, deadline, levels)
    return Closure(None if beta is None else min(upper_bound, beta), status, len(found.terms),
                   rule)


def _closure_mip(master: _Master, terms, node_limit: int, deadline: float | None,
                 levels: int | str | None = None):
    """The proven MIP bound over ``terms`` (``x``, ``x_dis`` binary) of the master with
    ``levels`` ladder rows (:func:`closure_bound`), how the MIP ended, and the terms of its
    best solution."""
    data = master.data
    levels = (master.levels if levels is None else
              max([master.levels] + [len(t) for t in terms]) if levels == "exact"
              else max(master.levels, int(levels)))
    n = len(data.wp)
    n_xi = n * levels
    n_rows = n_xi + 1
    indptr, indices = list(range(n_xi + 1)), list(range(n_xi))
    costs = [np.tile(data.wp, levels)]
    if levels > 1:
        indices += list(range(n, n_xi)) + [n_xi]
        indptr.append(len(indices))
        costs.append(np.array([master.disable_cost]))
    term_costs = []
    for term in terms:
        misses = data.misses(term, data.P)
        indices += [t * n + i for t in range(levels) for i in np.flatnonzero(misses <= t)]
        indices.append(n_xi)
        indptr.append(len(indices))
        term_costs.append(data.cost(term))
    costs.append(np.array(term_costs, dtype=np.float64))
    options = {"mip_rel_gap": 0.0}
    if deadline is not None:
        options["time_limit"] = float(max(deadline - time.process_time(), 1e-3))
    run = _covering_mip(np.concatenate(costs), n_xi, indptr, indices, n_rows,
                        float(master.max_rules or 0), node_limit=node_limit,
                        what="closure MIP", options=options)
    if not run.bounded:
        return None, f"MIP {run.status}", ()
    name = "optimal" if run.optimal else "time limit" if run.timed_out else "node limit"
    rule: tuple[tuple[int, ...], ...] = ()
    if run.x is not None:
        x = run.x[n_xi + (levels > 1):]
        rule = tuple(terms[k] for k in np.flatnonzero(x > 0.5))
    return (run.dual_bound if np.isfinite(run.dual_bound) else None), name, rule


# ---------------------------------------------------------------------------- a fitted model
@dataclass(frozen=True)
class CertifiedRule:
    """A rule's objective beside the certified lower bound and their relative gap."""

    objective: float
    bound: float
    gap: float
    certificate: Certificate
    fit_objective: float | None = None  # ``fit_stats_["objective"]``, for comparison
    bound_key: str | None = None  # :func:`bound_key` of an unseeded, cached bound


def estimator_problem(estimator, X, y):
    """The 0/1 literal matrix, the positive mask and the rule's terms (literal indices) of a
    fitted :class:`~rulelearn.estimator.BooleanRuleClassifier`, from public attributes only."""
    from sklearn.utils.validation import check_is_fitted

    from rulelearn.binarize import add_sums, as_frame

    check_is_fitted(estimator, "rule_")
    frame = add_sums(as_frame(X), getattr(estimator, "sums", None))  # its derived columns
    if estimator.binarizer_ is not None:
        A = estimator.binarizer_.transform(frame)
    else:  # the 0/1 columns were the literals
        A = np.column_stack([lit.evaluate(frame) for lit in estimator.literals_])
    index = {lit: j for j, lit in enumerate(estimator.literals_)}
    terms = [tuple(index[lit] for lit in clause.literals) for clause in estimator.rule_.clauses]
    positive = np.asarray(y) == estimator.pos_label_
    return np.asarray(A, dtype=np.uint8), positive, terms


_CACHE: dict = {}
_CACHE_SIZE = 64
#: The sources a bound depends on (with highspy's version) in :func:`bound_key`.
_BOUND_SOURCES = ("certify.py", "colgen.py", "conjunctions.py", "lp.py", "learners/problem.py")
_CODE_DIGEST: list[str] = []


def _code_digest() -> str:
    if not _CODE_DIGEST:
        from importlib import metadata
        from pathlib import Path

        digest = hashlib.sha256(metadata.version("highspy").encode())
        root = Path(__file__).resolve().parent
        for name in _BOUND_SOURCES:
            digest.update(name.encode() + b"|" + (root / name).read_bytes() + b"|")
        _CODE_DIGEST.append(digest.hexdigest())
    return _CODE_DIGEST[0]


def bound_key(A, positive, theta, *, form, max_rules, sample_weight=None, **options) -> str:
    """A name for :func:`lower_bound` of one problem without initial terms: a digest of the
    literal matrix, classes, weights, θ, form, ``max_rules``, the options (limits) and the
    code that computes the bound (its sources and highspy's version). Two fits with the same
    key get the same bound, whichever method learned their rules."""
    digest = hashlib.sha256()
    A = np.ascontiguousarray(A, dtype=np.uint8)
    parts = (A, np.ascontiguousarray(positive, dtype=bool),
             b"none" if sample_weight is None
             else np.ascontiguousarray(sample_weight, dtype=np.float64))
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.tobytes())
        digest.update(b"|")
    digest.update(repr((A.shape, float(theta), form, max_rules,
                        sorted(options.items()))).encode())
    digest.update(_code_digest().encode())
    return digest.hexdigest()[:32]


def _cached_bound(A, positive, theta, *, form, max_rules, sample_weight, known=None,
                  **options) -> tuple[Certificate, str]:
    """:func:`lower_bound` without initial terms and its :func:`bound_key`, remembered per
    problem (the last :data:`_CACHE_SIZE` in this process); ``known`` (key -> Certificate,
    e.g. from earlier runs' records) is looked up first."""
    key = bound_key(A, positive, theta, form=form, max_rules=max_rules,
                    sample_weight=sample_weight, **options)
    if known and key in known:
        return known[key], key
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = lower_bound(A, positive, theta, form=form, max_rules=max_rules,
                                  sample_weight=sample_weight, **options)
    return _CACHE[key], key


def certify(estimator, X, y, sample_weight=None, *, seed_rule: bool = True,
            cache: bool = False, known=None, **options) -> CertifiedRule:
    """Objective, lower bound and gap of a fitted ``BooleanRuleClassifier`` on ``(X, y)``.

    ``(X, y, sample_weight)`` should be the training data. Reads the public attributes
    ``rule_``, ``literals_``, ``binarizer_``, ``pos_label_``, ``fit_stats_`` and the parameters
    ``theta``, ``form``, ``max_rules``, ``method`` (OCRL: one clause), ``disable_cost``.
    ``options`` go to :func:`lower_bound` (``max_iterations``, ``pricing_nodes``, ...); the rule's
    terms seed the column generation unless ``seed_rule=False`` (then the bound depends on
    the data, θ, R and form only, and ``cache=True`` reuses it for the same problem, in this
    process or from ``known``: :func:`bound_key` -> :class:`~rulelearn.colgen.Certificate`;
    the result's ``bound_key`` names it). With ``closure=True`` and the rule seeding, the closure
    (:func:`closure_bound`) certifies up to the rule's objective unless ``upper_bound`` is
    given; unseeded, up to the master MIP's rule (so that the bound stays the rule's own).
    """
    A, positive, terms = estimator_problem(estimator, X, y)
    key = None
    max_rules = 1 if estimator.method == "ocrl" else int(estimator.max_rules)
    options.setdefault("disable_cost", float(estimator.disable_cost))
    objective = rule_objective(A, positive, terms, estimator.theta, form=estimator.form,
                               max_rules=max_rules, sample_weight=sample_weight,
                               disable_cost=estimator.disable_cost)
    if seed_rule:
        if options.get("closure"):
            options.setdefault("upper_bound", objective)
        certificate = lower_bound(A, positive, estimator.theta, form=estimator.form,
                                  max_rules=max_rules, sample_weight=sample_weight,
                                  initial_terms=terms, **options)
    elif cache:
        certificate, key = _cached_bound(A, positive, estimator.theta, form=estimator.form,
                                         max_rules=max_rules, sample_weight=sample_weight,
                                         known=known, **options)
    else:
        certificate = lower_bound(A, positive, estimator.theta, form=estimator.form,
                                  max_rules=max_rules, sample_weight=sample_weight, **options)
    fit_objective = getattr(estimator, "fit_stats_", {}).get("objective")
    return CertifiedRule(objective, certificate.bound, gap(objective, certificate.bound),
                         certificate, fit_objective, key)


def certify_fitted(estimator, X, y, sample_weight=None, **options) -> CertifiedRule:
    """:func:`certify`, and its figures put into the estimator's ``fit_stats_``:
    ``objective``, ``lower_bound``, ``gap`` (relative), ``certificate_status`` and
    ``bound_kind`` ("lp" or "closure": :class:`~rulelearn.colgen.Certificate`'s ``kind``)."""
    certified = certify(estimator, X, y, sample_weight, **options)
    estimator.fit_stats_.update(objective=certified.objective, lower_bound=certified.bound,
                                gap=certified.gap,
                                certificate_status=certified.certificate.status,
                                bound_kind=certified.certificate.kind)
    return certified
