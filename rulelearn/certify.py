"""Certificates: a lower bound on the best objective any two-level rule can reach.

The objective
-------------
This project's objective (:func:`rulelearn.learners.problem.cnf_objective`, the paper's (3)) for
a DNF with terms (conjunctions of literals) ``S_1, ..., S_K`` over a 0/1 literal matrix ``A``:

* a negative row pays one for **every** term that covers it (``K`` ideal clause outputs to
  flip, one per covering term: in the CNF view of :mod:`rulelearn.estimator` a DNF negative is
  a CNF positive, which pays per unsatisfied clause);
* a positive row pays the fewest literals it misses in any term (0 when covered). When fewer
  than ``max_rules`` terms are used the learners pad the rule with disabled clauses (the
  "always true" feature), and a disabled clause caps that cost at 1;
* θ per literal, plus ``disable_cost`` per disabled clause (≥ 0; 0 by default).

Every row counts with its weight. A CNF for ``y`` over ``A`` is, by De Morgan, the DNF for
``not y`` over ``1 - A`` with the same literal sets, and has the same objective
(:func:`rule_objective` evaluates both through the project's own ``cnf_objective``).

The relaxation
--------------
Each objective above is at least

    G(S) = Σ_{negatives i} w_i · #{k : S_k covers i} + Σ_{positives i} w_i · [no S_k covers i]
           + θ · Σ_k |S_k|

(an uncovered positive misses at least one literal of each term, and a capped one pays 1).
G is the objective of BRCG (Dash, Günlük & Wei 2018) with zero cost per clause; in particular
negatives are charged per covering term in both, so no extra "any clause" variable is needed.
Over *all* conjunctions ``k`` (cost ``c_k = θ|S_k| + Σ_{negatives i covered} w_i``) the master LP

    min  Σ_{positives i} w_i ξ_i + Σ_k c_k x_k
    s.t. ξ_i + Σ_{k covers i} x_k ≥ 1   (each positive i),   Σ_k x_k ≤ R   (if max_rules = R),
         ξ ≥ 0, x ≥ 0

has, for every DNF with at most R distinct terms, the feasible point ``x_k = 1`` on its terms,
``ξ_i = [i uncovered]`` of value G ≤ its objective (repeating a term only adds cost). So the
LP optimum LP* ≤ min over rules of the objective. It equals that minimum when the LP has an
integral optimum using fewer than R terms; when a rule uses all R clauses its uncovered
positives can pay more than 1, which G does not see (the bound may then stay below the
optimum even at an integral LP optimum: 2 of 12 random 40-row cases with R = 2).

The ladder (``levels`` = T ≥ 1; :func:`lower_bound`'s default 2, the CG learner's 1 = G)
---------------------------------------------------------------------------------------
With ``d_k(i)`` the literals of term ``k`` that positive ``i`` lacks, a rule of R terms charges
``i`` ``min_k d_k(i) = Σ_{t ≥ 1} [no term has d_k(i) < t]``. So each positive gets rows
t = 1..T,

    ξ_{i,t} + Σ_{k: d_k(i) < t} x_k + [t ≥ 2] x_dis ≥ 1,     cost w_i per ξ_{i,t} ≥ 0,

(t = 1 is G's row), and a disabled-clause column ``x_dis ≥ 0`` of cost ``disable_cost`` that
counts in ``Σ x ≤ R``. A rule of R terms has the point ``x_dis = 0``, ``ξ_{i,t} = [min_k d_k(i)
≥ t]`` of value ≤ its objective (``min(T, min_k d_k(i))`` per positive); a rule of fewer
terms, which pays at most 1 per positive and ``disable_cost`` per disabled clause, has
``x_dis = 1``, ``ξ_{i,1} = [i uncovered]``, ``ξ_{i,t≥2} = 0``. Any T is valid, T ≥ the longest
term is exact for rules of R terms, and without ``max_rules`` (a disabled clause always
there) the ladder adds nothing, so T = 1 then. On 150 random 30-row problems (3–5 literals,
R ≤ 3, every conjunction in the master) T = 2 closed 94 % of G's total gap to the optimum
(13 cases with a gap -> 2), and more levels closed nothing more there.

Pricing with levels: with duals ``μ_{i,t}`` (clipped to ``[0, w_i]``) and ρ, a conjunction's
reduced cost is ``c_k − Σ_{i,t: d_k(i) < t} μ_{i,t} − ρ`` (:func:`reduced_costs`; the beam
search tracks each positive's ``d`` and gains, per added literal, the levels a positive keeps).
The pricing MIP adds a level indicator ``δ_{i,t}`` (t ≥ 2, objective ``−μ_{i,t}``) per positive:
``Σ_{j ∉ L(i)} z_j + M_i δ_{i,t} ≤ (t − 1) + M_i`` with ``M_i`` = (the most literals of those
a term can select: one per conflict clique) − (t − 1), no row and δ free in [0, 1] when
``M_i ≤ 0``, δ binary otherwise (big-M rows are not integral at integral z);
``δ_{i,t−1} ≤ δ_{i,t}``; and ``(t − 1)(δ_{i,t} − δ_{i,t−1}) ≤ Σ_{j ∉ L(i)} z_j`` (a positive
missing exactly t − 1 literals has that many selected), which holds δ down where z is spread
thinly. A term whose literals share no positive covers no positive at level 1 but can at
level 2, so it can no longer be dropped on the ground that its reduced cost is ≥ −ρ: its rows
are among ``x_dis``'s, so ``rc_k ≥ rc_dis + c_k − disable_cost``, and the MIP keeps leaving
such terms out only when ``disable_cost < c_min``, with ``L = min(L_MIP, rc_dis + c_min −
disable_cost)``.

Column generation solves the master restricted to a few conjunctions (HiGHS simplex, through
:class:`rulelearn.lp.LinearProgram`) and prices new ones. For duals ``μ`` (positive rows,
clipped to ``[0, w_i]``) and ``ρ ≤ 0`` (the ``R`` row) a conjunction's reduced cost is
``rc_k = c_k − Σ_{i covered} μ_i − ρ``. For *any* feasible point of the full master,

    Σ w_i ξ_i + Σ c_k x_k ≥ Σ μ_i (ξ_i + Σ_{k covers i} x_k) + ρ Σ_k x_k + Σ_k rc_k x_k
                         ≥ Σ μ_i + ρ R + min(0, L) · U,

where ``L`` ≤ min_k rc_k and ``U`` ≥ Σ_k x_k at some LP optimum: ``U = min(R, V / c_min)``
with ``V`` the restricted master's value (≥ LP*) and ``c_min = min(θ, total negative
weight)`` the least cost of any conjunction (a Lagrangian bound). Farley's bound
``(Σ μ_i + ρ R) · c_min / (c_min − L)`` (the duals scaled into feasibility) is also valid and
better when ``L`` is far below 0; the larger is kept, over all iterations. With levels the
same steps run over every row (i, t): ``Σ_{i,t} w_i ξ_{i,t} ≥ Σ_{i,t} μ_{i,t} ξ_{i,t}``,
each column's cost is ``rc + Σ_{(i,t) it covers} μ_{i,t} + ρ``, the rows are ≥ 1 and
``Σ x + x_dis ≤ R``, so

    value ≥ Σ_{i,t} μ_{i,t} + ρ R + min(0, L) · U + min(0, rc_dis) · R

(``x_dis ≤ R``; ``rc_dis = disable_cost − Σ_{i, t ≥ 2} μ_{i,t} − ρ``, ≥ 0 up to the LP's
tolerances since ``x_dis`` is always in the master), and Farley's scaling ``α`` is capped so
that ``x_dis``'s dual row holds too (``α ≤ disable_cost / (disable_cost − rc_dis)`` when
``rc_dis < 0``). Neither needs pricing to have finished: ``L`` is the MIP's proven bound.
Pricing is an exact HiGHS MIP over conjunctions (binary ``z_j`` per literal, coverage
``δ_i`` per row) and ``L`` is its proven dual bound, so the bound stays valid when the MIP
stops early; when it proves that no column has a negative reduced cost, the bound is the LP
value (``exact_pricing``). A cheap beam search proposes columns first; only the MIP's dual
bounds enter the bound.

The pricing MIP (BRCG's): ``min θ Σ_j z_j + Σ_neg w_i δ_i − Σ_pos μ_i δ_i − ρ`` with
``δ_i + Σ_{j: a_ij = 0} z_j ≥ 1`` per negative and ``δ_i + z_j ≤ 1`` per positive and literal
``j`` it lacks; ``0 ≤ δ ≤ 1`` stay continuous (integral at integral ``z``). Its LP relaxation
is weak (``z`` spread thinly over many literals excludes every negative and loses few
positives), so it is strengthened by valid pair cuts ``δ_p − δ_i ≤ Σ_{j: a_pj = 1, a_ij = 0}
z_j`` (a term covering positive ``p`` and not negative ``i`` has a literal that separates them;
``δ_p ≤ δ_i`` where none does): all of the latter, and the former separated from the LP
relaxation in a few rounds before each MIP (kept across pricing calls); and by ``Σ z ≤ 1``
over cliques of conflicting literals (one implies the other on every row, or they share no
positive). A term with such a pair is never the least of negative reduced cost (drop the
implied literal: θ less, same coverage; or it covers no positive: ``rc ≥ −ρ ≥ 0``), so
``min(0, L)`` stays a valid bound on the least reduced cost. HiGHS MIPs are
called directly here (:mod:`rulelearn.lp` has no dual-bound access), through its silent
HiGHS constructor; HiGHS's ``threads`` option is never set.

Budgets. Every limit of :func:`lower_bound` but two is a count (master LP solves, nodes per
pricing MIP, cut rounds, columns), so a bound is the same on any machine. ``cpu_limit`` is a
CPU budget that HiGHS enforces through its wall-clock ``time_limit`` (the CPU seconds left):
the bound it gives depends on the machine's load. ``cpu_safety`` is a safety net instead,
checked only between HiGHS runs (each run stops after that many wall seconds at most, against
one runaway run): where the counts stop first, the bound does not depend on the load; where
the net or a HiGHS time limit stops it, the status is "cpu limit" (never "pricing stalled").

Identical rows of the same class are merged into one weighted row first (exact). With
integer row weights the bound is rounded up to the least value an objective can take
(:func:`round_up_to_objective`).

Where the bound is loose (measured, DNF, R = 5, fold 0 of results/gaps at its chosen θ)
-----------------------------------------------------------------------------------------
Two causes, one per dataset. *Parkinsons* (130 rows, 434 literals, θ = 1.17677): under the
bench's limits (10 master LPs, 20 nodes per pricing MIP) the bound is the Farley/Lagrangian
one, 3.48 (33 CPU s); pricing to the end reaches the LP optimum 9.237 (25 MIPs, all
finished; 254 CPU s at 1000 nodes, and 269 at the bench's 20 nodes given 40 master LPs: the
iteration limit, not the node limit, stops it), but that optimum is half-integral (7 terms
at weight 1/2, Σ x = 3.5, so the R row is slack) while BCD's rules cost 19.18 (SC start) and
11.77 (best start): exact pricing certifies a gap of 21.5 % at best for the best rule known
(the optimum lies somewhere in [9.24, 11.77]). *Pima* (512 rows, 146 literals): the pricing
MIP does not finish in 1000 nodes (28 CPU s per call; dual bound −40 where the best column
found has −7 to −10), so the bound stays the fallback one (2.8 against a rule of 107.9).
Closing either needs more than this module does: cuts on the master that pricing respects
(subset-row / Chvátal-Gomory cuts over positives against the half-integral solutions) or
branch-and-price; and a pricing formulation whose relaxation is tighter on many rows.
Two cheap candidates measured against brute force on 150 random 30-row problems (5 literals,
R = 2 or 3, every conjunction in the master), 11 of them with the LP below the optimum: the
best of the masters with Σ x = k for k = 0..R (the clause-count row as an equation) closed
none of the gap in any; 91 % of the gap there was G's own undercount (a rule of R clauses
pays an uncovered positive the literals it misses), and in the one case where the least G
itself was above the LP, 3-row Chvátal-Gomory cuts over positives closed none of it.
The floor this LP sets on every fold of results/gaps (the least gap any bound from it can
certify for the best rule known, and where pricing does not finish) is measured in
results/gaps/what_limits.md (benchmarks/lp_floor.py).

Beyond the LP: exact search and the closure
-------------------------------------------
``pricing="search"`` prices by the depth-first branch-and-bound of
:mod:`rulelearn.conjunctions` (exact; stopped at its node limit it still bounds the least
reduced cost by its open nodes' least estimate), ``"auto"`` by the search until it neither
finishes nor finds a column, then by the MIP. ``closure=True`` then goes past the LP optimum
(:func:`closure_bound`): with exact duals, every column of a rule below an upper bound UB has
reduced cost ≤ UB − LB, the search lists them all, and the master MIP over them bounds every
rule by ``min(UB, its dual bound)``. Measured on the folds of benchmarks/lp_floor.py in
results/gaps/what_limits.md (benchmarks/exact_bound.py).
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace

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


#: Ladder levels of :func:`lower_bound` (1: the relaxation G; see the module docstring).
LEVELS = 2
#: Limits of the closure (:func:`closure_bound`): conjunctions it may enumerate (more: the
#: LP bound is kept), nodes of the search that enumerates them and of its MIP.
CLOSURE_COLUMNS = 100_000
CLOSURE_SEARCH_NODES = 2_000_000
CLOSURE_NODES = 1000


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
    column, then the MIP). See the module docstring for the formulation and why the bound is
    valid. ``closure`` (with ``max_rules``): then :func:`closure_bound` lifts the bound
    towards ``upper_bound`` (None: the objective of the master MIP's rule over the generated
    columns, its terms dropped while that lowers it, as the CG learner does, or the LP
    optimum's rule when that is integral and lower) within
    ``closure_columns`` conjunctions and ``closure_nodes`` MIP nodes, over
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
    ``status`` (:class:`Certificate`'s ``closure_status``) and the conjunctions of its MIP."""

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
    and its row ``Σ_k x_k + x_dis ≤ R`` by ``ρ``, give

        value = D + Σ_k rc_k x_k + rc_dis x_dis + Σ_{i,t} (w_i − μ_{i,t}) ξ_{i,t}
                + Σ_{i,t} μ_{i,t} (row (i,t)'s surplus) − ρ (R − Σ_k x_k − x_dis)
              ≥ D + Σ_k rc_k x_k + rc_dis x_dis,

    every other term being ≥ 0. A rule's point has binary ``x`` and ``x_dis`` with
    ``Σ x + x_dis ≤ R``; if it uses column ``k`` the other R − 1 at most add ≥
    ``min(0, L, rc_dis)`` each, so value < UB forces

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
    ``deadline`` (a :func:`time.process_time` value) is a safety net for both. Run only
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
    process or from ``known``: :func:`bound_key` -> :class:`Certificate`; the result's
    ``bound_key`` names it). With ``closure=True`` and the rule seeding, the closure
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
    ``bound_kind`` ("lp" or "closure": :class:`Certificate`'s ``kind``)."""
    certified = certify(estimator, X, y, sample_weight, **options)
    estimator.fit_stats_.update(objective=certified.objective, lower_bound=certified.bound,
                                gap=certified.gap,
                                certificate_status=certified.certificate.status,
                                bound_kind=certified.certificate.kind)
    return certified
