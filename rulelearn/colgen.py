"""Column generation over conjunctions, shared by the bound and the CG learner.

The restricted master LP (``_Master``, on :class:`rulelearn.lp.LinearProgram`), the
pricing of new conjunctions (the beam search :func:`beam_columns`, the pricing MIP
``_PricingMIP``, or the exact search of :mod:`rulelearn.conjunctions`), the loop that
alternates them (``_generate``) and the master MIP over the generated columns
(:func:`master_mip`). :mod:`rulelearn.certify` turns them into a lower bound,
:mod:`rulelearn.learners.cg` into a rule. The formulation and why it is valid:
docs/explanation/certificates.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from rulelearn.conjunctions import ConjunctionSearch
from rulelearn.errors import ParameterError
from rulelearn.lp import INF, LinearProgram, MIPRun, MixedIntegerProgram

if TYPE_CHECKING:
    from rulelearn.learners.problem import CNFProblem

# rulelearn.learners.problem is imported where it is used: importing it runs
# rulelearn.learners, whose CG learner (rulelearn.learners.cg) imports this module.

FORMS = ("dnf", "cnf")
_TOL = 1e-9


@dataclass(frozen=True)
class Certificate:
    """A valid lower bound on the objective of every rule of the form, and how it was reached.

    ``bound``: no rule (with at most ``max_rules`` clauses) has a lower objective.
    ``lp_value``: the final restricted master's value (the LP optimum when ``exact_pricing``).
    ``exact_pricing``: the last pricing MIP proved that no conjunction improves the LP.
    ``terms`` / ``weights``: the conjunctions (literal indices) with positive LP weight.
    ``integral``: those weights are all 1 (then, with ``exact_pricing``, ``terms`` is a rule
    whose relaxed objective G equals the bound; when it has fewer than ``max_rules`` clauses
    its objective equals the bound too, so it is an optimal rule).
    ``seconds``: wall time (``cpu_seconds``: CPU); ``pricing_mips``: pricing MIPs solved
    (``iterations`` counts master LP solves). With integer row weights ``bound`` is the LP's
    bound ``lp_bound`` rounded up to the least objective a rule can have
    (:func:`round_up_to_objective`), so it can exceed ``lp_value``.
    """

    bound: float
    lp_value: float
    exact_pricing: bool
    iterations: int
    columns: int
    seconds: float
    #: "optimal", "iteration limit", "column limit", "time limit", "pricing stalled",
    #: "trivial", or "beam exhausted" (no pricing MIP: no bound)
    status: str
    terms: tuple[tuple[int, ...], ...] = ()
    weights: tuple[float, ...] = ()
    pricing_mips: int = 0
    #: the LP's bound before :func:`round_up_to_objective` (``bound`` when no rounding applies)
    lp_bound: float | None = None
    #: ladder rows per positive of the master (1: the relaxation G)
    levels: int = 1
    #: CPU seconds of this process (``seconds`` is wall time)
    cpu_seconds: float = 0.0
    #: how conjunctions were priced: "mip" (the pricing MIP) or "search"
    #: (:mod:`rulelearn.conjunctions`' branch-and-bound)
    pricing: str = "mip"
    #: which bound ``bound`` is: "lp" (column generation) or "closure" (the master MIP over
    #: every conjunction of small enough reduced cost; :func:`rulelearn.certify.closure_bound`)
    kind: str = "lp"
    #: the closure's outcome ("" when not asked): "optimal" (its MIP finished), "node limit",
    #: "time limit" (stopped: the bound is its proven dual bound), "column cap" (too many
    #: conjunctions qualify: the LP bound is kept), "pricing unfinished" (no exact duals),
    #: "upper bound met" (the LP bound reached the upper bound: nothing to close)
    closure_status: str = ""
    #: conjunctions the closure's MIP chose from, and the objective it certified below
    closure_columns: int = 0
    upper_bound: float | None = None
    #: the rule of the closure MIP's best solution (terms: literal indices of ``A``)
    closure_terms: tuple[tuple[int, ...], ...] = ()

    @property
    def integral(self) -> bool:
        return all(abs(w - 1.0) <= 1e-6 for w in self.weights)


# ---------------------------------------------------------------------------- the objective
def _check_form(form: str) -> None:
    if form not in FORMS:
        raise ParameterError(f"form must be one of {FORMS}, got {form!r}")


def _cnf_view(A, y, form: str, sample_weight=None) -> CNFProblem:
    """The learners' CNF problem for the rule (the estimator's De Morgan mapping)."""
    from rulelearn.learners.problem import CNFProblem

    _check_form(form)
    A = np.asarray(A, dtype=np.uint8)
    y = np.asarray(y, dtype=bool)
    if form == "cnf":
        return CNFProblem.from_data(A, y, sample_weight)
    return CNFProblem.from_data(1 - A, ~y, sample_weight)


def terms_matrix(terms, n_literals: int, max_rules: int | None) -> np.ndarray:
    """Clause matrix (always-true last) of ``terms``, padded with disabled clauses to
    ``max_rules`` rows (one disabled clause when ``max_rules`` is None)."""
    from rulelearn.learners.problem import disabled_clause

    rows = []
    for term in terms:
        row = np.zeros(n_literals + 1, dtype=bool)
        row[list(term)] = True
        rows.append(row)
    if max_rules is not None and len(rows) > max_rules:
        raise ParameterError(f"{len(rows)} clauses exceed max_rules = {max_rules}")
    pad = 1 if max_rules is None else max_rules - len(rows)
    rows += [disabled_clause(n_literals)] * pad
    return np.array(rows, dtype=bool).reshape(len(rows), n_literals + 1)


def rule_objective(A, y, terms, theta: float, *, form: str = "dnf",
                   max_rules: int | None = None, sample_weight=None,
                   disable_cost: float = 0.0) -> float:
    """The project's objective of the rule whose clauses select the literal sets ``terms``.

    A DNF term / CNF clause is a sequence of column indices of ``A``; the rule is padded with
    disabled clauses to ``max_rules`` as the learners do (None: any number of clauses, one
    disabled clause available). Computed by :func:`~rulelearn.learners.problem.cnf_objective`
    on the estimator's CNF view of the data.
    """
    from rulelearn.learners.problem import cnf_objective

    problem = _cnf_view(A, y, form, sample_weight)
    W = terms_matrix(terms, np.asarray(A).shape[1], max_rules)
    return cnf_objective(problem, W, theta, disable_cost)


# ---------------------------------------------------------------------------- data
@dataclass
class _Data:
    """Merged DNF rows over the literals: positives ``P``, negatives ``N`` (0/1 uint8)."""

    P: np.ndarray
    wp: np.ndarray
    N: np.ndarray
    wn: np.ndarray
    theta: float

    @classmethod
    def build(cls, A, y, theta, form, sample_weight) -> "_Data":
        from rulelearn.learners.problem import CNFProblem

        A = np.asarray(A)
        if A.ndim != 2 or not np.isin(A, (0, 1)).all():
            raise ParameterError("A must be a 2-d 0/1 matrix")
        y = np.asarray(y, dtype=bool)
        if form == "cnf":  # De Morgan: a CNF for y over A is NOT (a DNF for not y over 1 - A)
            A, y = 1 - A, ~y
        # CNFProblem.from_data merges identical rows per class into weights; drop its
        # always-true column
        merged = CNFProblem.from_data(A, y, sample_weight)
        return cls(merged.A_pos[:, :-1].astype(np.uint8), merged.w_pos,
                   merged.A_neg[:, :-1].astype(np.uint8), merged.w_neg, float(theta))

    @property
    def d(self) -> int:
        return self.P.shape[1]

    def covers(self, term, rows: np.ndarray) -> np.ndarray:
        term = list(term)
        if not term:
            return np.ones(len(rows), dtype=bool)
        return np.asarray(rows[:, term].all(axis=1), dtype=bool)

    def cost(self, term) -> float:
        return self.theta * len(term) + float(self.wn @ self.covers(term, self.N))

    def misses(self, term, rows: np.ndarray) -> np.ndarray:
        """How many literals of ``term`` each row lacks (0: the row is covered)."""
        term = list(term)
        if not term:
            return np.zeros(len(rows), dtype=np.int64)
        return len(term) - rows[:, term].sum(axis=1, dtype=np.int64)


def level_gain(mu, misses) -> np.ndarray:
    """Per positive, the dual weight ``Σ_{t > d_i} μ_{i,t}`` of the ladder rows a term that
    misses ``d_i`` of its literals covers; ``mu``: (levels × positives), or one level 1-D."""
    mu = np.atleast_2d(np.asarray(mu, dtype=np.float64))
    # suffix sums over levels, and 0 past the last level
    tail = np.vstack([np.cumsum(mu[::-1], axis=0)[::-1], np.zeros((1, mu.shape[1]))])
    return tail[np.minimum(misses, len(mu)), np.arange(mu.shape[1])]


# ---------------------------------------------------------------------------- master LP
class _Master:
    """The restricted master LP: ξ per positive and level, the disabled-clause column when
    there are levels beyond the first, then one column per conjunction.

    ``levels`` (T): ladder rows per positive (1 is G, and without ``max_rules`` the ladder
    adds nothing, so T = 1 there; docs/explanation/certificates.md)."""

    def __init__(self, data: _Data, max_rules: int | None, levels: int = 1,
                 disable_cost: float = 0.0):
        self.data = data
        self.max_rules = max_rules
        self.levels = levels = 1 if max_rules is None else int(levels)
        self.disable_cost = float(disable_cost)
        n = len(data.wp)
        n_xi = n * levels
        self.n_rows = n_xi + (max_rules is not None)
        row_lower = np.ones(self.n_rows)
        row_upper = np.full(self.n_rows, INF)
        if max_rules is not None:
            row_lower[-1], row_upper[-1] = -INF, float(max_rules)
        self.lp = LinearProgram(np.tile(data.wp, levels), np.zeros(n_xi), np.full(n_xi, INF),
                                row_lower, row_upper, np.arange(n_xi + 1), np.arange(n_xi),
                                np.ones(n_xi))
        self.offset = n_xi
        if levels > 1:  # x_dis: covers every row of level ≥ 2 and counts in Σ x ≤ R
            rows = np.arange(n, self.n_rows)
            self.lp.add_columns([self.disable_cost], np.zeros(1), np.full(1, INF),
                                np.array([0, len(rows)]), rows.astype(np.int64),
                                np.ones(len(rows)))
            self.offset += 1
        self.terms: list[tuple[int, ...]] = []
        self.seen: set[tuple[int, ...]] = set()
        self.negative: list[float] = []  # each column's covered negative weight (θ-free)
        #: the last duals priced (μ, ρ) and the pricing's bound on the least reduced cost
        self.final_duals: tuple | None = None

    def add(self, terms) -> int:
        new = []
        for term in terms:
            term = tuple(sorted(set(int(j) for j in term)))
            if term not in self.seen:
                self.seen.add(term)
                new.append(term)
        if not new:
            return 0
        n = len(self.data.wp)
        indptr, indices, costs = [0], [], []
        for term in new:
            misses = self.data.misses(term, self.data.P)
            rows = [t * n + i for t in range(self.levels) for i in np.flatnonzero(misses <= t)]
            if self.max_rules is not None:
                rows.append(self.n_rows - 1)
            indices += rows
            indptr.append(len(indices))
            self.negative.append(float(self.data.wn @ self.data.covers(term, self.data.N)))
            costs.append(self.data.theta * len(term) + self.negative[-1])
        k = len(new)
        self.lp.add_columns(costs, np.zeros(k), np.full(k, INF), np.array(indptr),
                            np.array(indices, dtype=np.int64), np.ones(len(indices)))
        self.terms += new
        return k

    def reduced_costs(self, mu, rho) -> np.ndarray:
        """Each column's reduced cost at duals ``mu`` and ``rho`` (:func:`reduced_costs`)."""
        lengths = np.array([len(t) for t in self.terms], dtype=np.float64)
        if np.ndim(mu) == 1:
            covered = np.array([float(mu @ self.data.covers(t, self.data.P))
                                for t in self.terms])
        else:
            covered = np.array([float(level_gain(mu, self.data.misses(t, self.data.P)).sum())
                                for t in self.terms])
        return self.data.theta * lengths + np.asarray(self.negative) - covered - rho

    def disabled_reduced_cost(self, mu, rho) -> float | None:
        """The disabled-clause column's reduced cost (None without levels beyond the first)."""
        if self.levels == 1:
            return None
        return self.disable_cost - float(np.asarray(mu)[1:].sum()) - rho

    def set_theta(self, theta: float) -> None:
        """Every column's cost at ``theta``; the HiGHS model and its basis are kept (the
        costs alone change, so the next solve starts from the last optimal basis)."""
        self.data.theta = float(theta)
        lengths = np.array([len(t) for t in self.terms], dtype=np.float64)
        fixed = [np.tile(self.data.wp, self.levels)] + (
            [np.array([self.disable_cost])] if self.levels > 1 else [])
        self.lp.set_costs(np.concatenate(fixed + [theta * lengths + self.negative]))

    def solve(self):
        """Value, the conjunction weights, duals μ (clipped to [0, w]; levels × positives when
        there are several levels, else one per positive) and ρ (≤ 0)."""
        result = self.lp.solve(warm=True)
        dual = np.asarray(result.row_dual)
        n = len(self.data.wp)
        mu = np.clip(dual[:n * self.levels].reshape(self.levels, n), 0.0, self.data.wp)
        rho = min(float(dual[-1]), 0.0) if self.max_rules is not None else 0.0
        return result.objective, result.x[self.offset:], (mu[0] if self.levels == 1 else mu), rho


# ---------------------------------------------------------------------------- pricing
def reduced_costs(data: _Data, terms, mu, rho) -> np.ndarray:
    """``c_k − Σ_{positives covered} μ_i − ρ`` of each term; with levels (``mu``: levels ×
    positives) ``c_k − Σ_{i, t: d_k(i) < t} μ_{i,t} − ρ``."""
    if np.ndim(mu) == 1:
        return np.array([data.cost(t) - float(mu @ data.covers(t, data.P)) - rho
                         for t in terms])
    return np.array([data.cost(t) - float(level_gain(mu, data.misses(t, data.P)).sum()) - rho
                     for t in terms])


#: The beam's two rankings of the terms to grow (AIX360's ``wLB``, the weight of a child's
#: lower bound against its reduced cost): by reduced cost alone, and by their mean.
BEAM_BOUND_WEIGHTS = (0.0, 0.5)


def beam_columns(data: _Data, mu, rho, width: int = 20, depth: int = 8, keep: int = 20,
                 bound_weights=BEAM_BOUND_WEIGHTS):
    """Conjunctions of negative reduced cost found by a beam search from the empty term: the
    ``keep`` of least reduced cost among the children (a term of the beam and one literal
    more) of every level.

    For each weight ``b`` of ``bound_weights`` the next level grows from the ``width``
    children ranked best by ``(1 − b)`` × their reduced cost + ``b`` × the least reduced cost
    of any term that contains them (θ for one literal more, every negative dropped), as
    AIX360's BRCG ranks them with ``b = 0.5``; children no extension of which can reach a
    negative reduced cost are not grown. Ranked by the reduced cost alone (``b = 0``) the
    beam grows terms that cover few negatives and misses a conjunction whose literals each
    cover many; both rankings together gave the CG learner lower objectives than either
    (measured: docs/explanation/certificates.md, the column-generation learner).
    With the ladder's duals (``mu``: levels × positives) a child keeps, per positive, the
    levels of :func:`level_gain` at the literals it now lacks; an extension only lacks more,
    so the least reduced cost of any term containing the child is bounded as above.
    """
    Pf, Nf = data.P.astype(np.float64), data.N.astype(np.float64)
    P, N = data.P.astype(bool), data.N.astype(bool)
    levels = np.ndim(mu) != 1  # the ladder's duals: levels × positives
    terms: list[tuple[int, ...]] = [()]
    # per term of the beam: how many of its literals each positive lacks, the negatives it covers
    miss = np.zeros((1, len(data.wp)), np.int64)
    cov_n = np.ones((1, len(data.wn)), bool)
    found: dict[tuple[int, ...], float] = {}
    empty_rc = float(data.wn.sum()) - float(mu.sum()) - rho
    if empty_rc < -_TOL:
        found[()] = empty_rc
    for size in range(1, min(depth, data.d) + 1):
        if not levels:  # [parent, j]: covered positive dual weight of the child
            gain = ((miss == 0) * mu) @ Pf
        else:  # ladder rows kept: as the parent's where j holds, one level down where it does not
            has, lacks = level_gain(mu, miss), level_gain(mu, miss + 1)
            gain = lacks.sum(axis=1)[:, None] + (has - lacks) @ Pf
        rc = data.theta * size + (cov_n * data.wn) @ Nf - gain - rho
        below = data.theta * (size + 1) - gain - rho  # any term containing the child
        for parent, term in enumerate(terms):
            rc[parent, list(term)] = np.inf
        negative = np.where(rc < -_TOL, rc, np.inf)
        for child, (parent, j) in _first_children(negative, terms, keep).items():
            found[child] = float(rc[parent, j])
        grow: dict[tuple[int, ...], tuple[int, int]] = {}
        for weight in bound_weights:
            score = np.where(below < -_TOL, (1 - weight) * rc + weight * below, np.inf)
            for child, where in _first_children(score, terms, width).items():
                grow.setdefault(child, where)
        if not grow:
            break
        terms = list(grow)
        parents = np.array([p for p, _ in grow.values()])
        literals = np.array([j for _, j in grow.values()])
        miss = miss[parents] + ~P[:, literals].T
        cov_n = cov_n[parents] & N[:, literals].T
    return [t for t, _ in sorted(found.items(), key=lambda item: item[1])[:keep]]


def _first_children(values: np.ndarray, terms, limit: int) -> dict:
    """The first ``limit`` distinct finite children in the order of ``values`` (parents ×
    literals; ties: the parent's order, then the literal's): child -> (parent, literal)."""
    flat = values.ravel()
    finite = int(np.count_nonzero(flat < np.inf))
    # a child is reached from at most as many parents as it has literals: the least
    # ``limit`` × that many values (and their ties) hold the first ``limit`` distinct children
    reach = limit * (len(terms[0]) + 1 if terms else 1)
    if finite > reach:
        cut = np.partition(flat, reach - 1)[reach - 1]
        candidates = np.flatnonzero(flat <= cut)
    else:
        candidates = np.flatnonzero(flat < np.inf)
    order = candidates[np.lexsort((candidates, flat[candidates]))].tolist()
    out: dict[tuple[int, ...], tuple[int, int]] = {}
    for index in order:
        if len(out) == limit:
            break
        parent, j = divmod(index, values.shape[1])
        out.setdefault(tuple(sorted(terms[parent] + (j,))), (parent, j))
    return out


def literal_conflicts(data: _Data, disjoint: bool = True) -> list[tuple[int, int]]:
    """Literal pairs no conjunction of negative reduced cost selects together.

    ``j`` implies ``k`` on every row (equal columns: the later implies the earlier): ``k``
    adds θ and changes no coverage, so dropping it lowers the reduced cost. ``j`` and ``k``
    share no positive: the term covers no positive and its reduced cost is ≥ 0 (ρ ≤ 0).
    Excluding such terms leaves the least reduced cost, when negative, unchanged, and so the
    bound ``min(0, ·)`` valid.
    """
    rows = np.vstack([data.P, data.N]).astype(np.float64)
    outside = rows.T @ (1 - rows)  # [j, k]: rows where j holds and k does not
    implies = outside == 0
    same = implies & implies.T
    implies &= ~(same & (np.arange(data.d)[:, None] < np.arange(data.d)[None, :]))
    np.fill_diagonal(implies, False)
    P = data.P.astype(np.float64)
    apart = np.triu((P.T @ P) == 0, 1) if disjoint else np.zeros_like(implies)
    pairs = {(min(j, k), max(j, k)) for j, k in zip(*np.nonzero(implies | apart))}
    return sorted((int(j), int(k)) for j, k in pairs)


_MAX_CUTS = 50_000
_BLOCK_CELLS = 4_000_000  # negatives x positives per block of the cut computations


def _blocks(lacks, z, n_pos: int):
    """Blocks of negatives' rows ``lacks * z`` (float), few enough cells at a time."""
    n = len(lacks)
    size = max(1, _BLOCK_CELLS // max(1, lacks.shape[1], n_pos))
    for first in range(0, n, size):
        yield first, lacks[first:first + size].astype(np.float64) * z


def conflict_cliques(data: _Data, disjoint: bool = True) -> list[tuple[int, ...]]:
    """Greedy cliques of :func:`literal_conflicts` (one grown from each literal): at most one
    literal of each is selected (``Σ z ≤ 1``, stronger than the pairs in the LP relaxation;
    a chain of thresholds on one feature is such a clique)."""
    adjacent = np.zeros((data.d, data.d), dtype=bool)
    for j, k in literal_conflicts(data, disjoint):
        adjacent[j, k] = adjacent[k, j] = True
    degree = adjacent.sum(axis=1)
    cliques = set()
    for j in range(data.d):
        if not degree[j]:
            continue
        clique = [j]
        member = adjacent[j].copy()
        for k in sorted(np.flatnonzero(adjacent[j]).tolist(), key=lambda k: -degree[k]):
            if member[k]:
                clique.append(k)
                member &= adjacent[k]
        cliques.add(tuple(sorted(clique)))
    return sorted(cliques)


@dataclass
class _PricingResult:
    term: tuple[int, ...] | None
    value: float  # reduced cost of ``term`` (inf when no solution)
    dual_bound: float  # proven lower bound on the least reduced cost
    optimal: bool
    clock: bool = False  # HiGHS stopped at its time limit (the result depends on the machine)
    terms: tuple = ()  # more columns of negative reduced cost (the search's), best first


def _coverage_rows(data: _Data):
    """The pricing MIP's rows, built row-wise (entries' rows and columns, row bounds, row
    count): per negative i, ``δ_i + Σ_{a_ij=0} z_j ≥ 1``; per positive i and literal j it
    lacks (``a_ij = 0``), ``δ_i + z_j ≤ 1``. Columns: ``z`` (literals), δ of the positives,
    δ of the negatives."""
    d, n_p = data.d, len(data.wp)
    rows_r: list[int] = []
    rows_c: list[int] = []
    lower: list[float] = []
    upper: list[float] = []
    r = 0
    for i in range(len(data.wn)):
        zeros = np.flatnonzero(data.N[i] == 0)
        rows_r += [r] * (len(zeros) + 1)
        rows_c += zeros.tolist() + [d + n_p + i]
        lower.append(1.0)
        upper.append(INF)
        r += 1
    for i in range(n_p):
        zeros = np.flatnonzero(data.P[i] == 0)
        for j in zeros:
            rows_r += [r, r]
            rows_c += [int(j), d + i]
            lower.append(-INF)
            upper.append(1.0)
            r += 1
    return rows_r, rows_c, lower, upper, r


def _covered_together(data: _Data) -> list[tuple[int, int]]:
    """Pairs (positive p, negative i) where a term that covers p covers i (row p of P has no
    1 where row i of N has a 0), at most :data:`_MAX_CUTS` (any subset of valid rows is
    valid): the pair cuts ``δ_p ≤ δ_i`` added to the pricing MIP from the start."""
    pairs: list[tuple[int, int]] = []
    for first, block in _blocks(1 - data.N, np.ones(data.d), len(data.wp)):
        neg, pos = np.nonzero(block @ data.P.T.astype(np.float64) == 0)
        pairs += zip(pos.tolist(), (neg + first).tolist())
        if len(pairs) >= _MAX_CUTS:
            return pairs[:_MAX_CUTS]
    return pairs


class _PricingMIP:
    """BRCG's pricing MIP over conjunctions, built once; only its costs change."""

    def __init__(self, data: _Data, node_limit: int = 1000, cut_rounds: int = 20,
                 levels: int = 1, disjoint: bool = True):
        self.data = data
        self.levels = int(levels)
        self._values: dict[tuple[int, int], float] = {}  # matrix entries other than 1
        d, n_p, n_n = data.d, len(data.wp), len(data.wn)
        self.n_cols = d + n_p + n_n + n_p * (self.levels - 1)
        rows_r, rows_c, lower, upper, r = _coverage_rows(data)
        integer = np.zeros(self.n_cols, dtype=bool)
        integer[:d] = True
        cliques = conflict_cliques(data, disjoint)
        self._cliques = sorted((set(c) for c in cliques), key=len, reverse=True)
        for t in range(2, self.levels + 1):
            rows_r, rows_c, lower, upper, r = self._level_rows(
                t, rows_r, rows_c, lower, upper, r, integer)
        rows_r_a, rows_c_a = np.array(rows_r, dtype=np.int64), np.array(rows_c, dtype=np.int64)
        order = np.lexsort((rows_r_a, rows_c_a))
        indptr = np.searchsorted(rows_c_a[order], np.arange(self.n_cols + 1))
        values = np.array([self._values.get((int(a), int(b)), 1.0)
                           for a, b in zip(rows_r_a, rows_c_a)]) if self._values else None
        self.model = MixedIntegerProgram(
            np.zeros(self.n_cols), np.zeros(self.n_cols), np.ones(self.n_cols), lower, upper,
            indptr, rows_r_a[order], values[order] if values is not None else np.ones(len(order)),
            integer, what="pricing MIP",
            options={"mip_rel_gap": 0.0, "mip_abs_gap": 1e-7, "presolve": "on",
                     "mip_max_nodes": int(node_limit)})
        self.integer = integer
        self.cut_rounds = cut_rounds
        self.cuts: set[tuple[int, int]] = set()
        pairs = _covered_together(data)
        self.cuts.update(pairs)
        self.add_rows([self.pair_cut(p, i) for p, i in pairs])
        self.add_rows([(np.array(c), np.ones(len(c))) for c in cliques], upper=1.0)

    def level_column(self, t: int, i: int) -> int:
        """The column of ``δ_{i,t}``: positive ``i`` misses fewer than ``t`` literals."""
        data = self.data
        if t == 1:
            return data.d + i
        return data.d + len(data.wp) + len(data.wn) + (t - 2) * len(data.wp) + i

    def most_selected(self, literals) -> int:
        """At most how many of ``literals`` a term the MIP admits selects: one per clique
        of :func:`conflict_cliques` (``Σ z ≤ 1`` there), the cliques taken largest first."""
        left, count = set(literals), 0
        for clique in self._cliques:
            if left & clique:
                left -= clique
                count += 1
        return count + len(left)

    def _level_rows(self, t, rows_r, rows_c, lower, upper, r, integer):
        """Rows of level ``t ≥ 2`` per positive ``i`` that lacks the literals ``lacks``, of
        which a term selects at most ``m_i`` (:meth:`most_selected`):
        ``Σ_{lacks} z_j + M δ_{i,t} ≤ (t − 1) + M`` (``M = m_i − t + 1``; none when
        ``M ≤ 0``: no term misses ``t`` of them), ``δ_{i,t−1} ≤ δ_{i,t}``, and
        ``(t − 1)(δ_{i,t} − δ_{i,t−1}) ≤ Σ_{lacks} z_j`` (a term missing exactly ``t − 1``
        selects that many; this keeps ``δ_{i,t}`` down where ``z`` is spread thinly). ``δ_{i,t}``
        is binary when the big-M row is there (it is not integral at integral ``z``)."""
        data = self.data
        for i in range(len(data.wp)):
            lacks = np.flatnonzero(data.P[i] == 0).tolist()
            col, below = self.level_column(t, i), self.level_column(t - 1, i)
            big_m = self.most_selected(lacks) - t + 1
            if big_m > 0:
                rows_r += [r] * (len(lacks) + 1)
                rows_c += lacks + [col]
                values = [1.0] * len(lacks) + [float(big_m)]
                self._values.update({(r, j): v for j, v in zip(lacks + [col], values)})
                lower.append(-INF)
                upper.append(float(t - 1 + big_m))
                r += 1
                integer[col] = True
            # δ_{i,t−1} − δ_{i,t} ≤ 0
            rows_r += [r, r]
            rows_c += [below, col]
            self._values.update({(r, below): 1.0, (r, col): -1.0})
            lower.append(-INF)
            upper.append(0.0)
            r += 1
            # (t−1) δ_{i,t} − (t−1) δ_{i,t−1} − Σ_{lacks} z_j ≤ 0
            rows_r += [r] * (len(lacks) + 2)
            rows_c += lacks + [col, below]
            self._values.update({(r, j): -1.0 for j in lacks})
            self._values.update({(r, col): float(t - 1), (r, below): -float(t - 1)})
            lower.append(-INF)
            upper.append(0.0)
            r += 1
        return rows_r, rows_c, lower, upper, r

    def add_rows(self, rows, upper: float = 0.0) -> int:
        """Append rows ``Σ coef · var ≤ upper`` given as (indices, coefficients) pairs."""
        if not rows:
            return 0
        indptr = np.cumsum([0] + [len(idx) for idx, _ in rows])
        index = np.concatenate([np.asarray(idx, dtype=np.int32) for idx, _ in rows])
        value = np.concatenate([np.asarray(val, dtype=np.float64) for _, val in rows])
        self.model.add_rows(np.full(len(rows), -INF), np.full(len(rows), upper), indptr, index,
                            value)
        return len(rows)

    def pair_cut(self, p: int, i: int):
        """``δ_p − δ_i − Σ_{j: a_ij = 0, a_pj = 1} z_j ≤ 0``: a term that covers positive
        ``p`` but not negative ``i`` has a literal that ``p`` has and ``i`` lacks."""
        data = self.data
        sep = np.flatnonzero((data.N[i] == 0) & (data.P[p] == 1))
        idx = np.concatenate([[data.d + p, data.d + len(data.wp) + i], sep])
        return idx, np.concatenate([[1.0, -1.0], -np.ones(len(sep))])

    def separate(self, x, limit: int = 300) -> int:
        """Add the pair cuts most violated by the LP point ``x``; return how many."""
        data = self.data
        d, n_p = data.d, len(data.wp)
        z, dp, dn = x[:d], x[d:d + n_p], x[d + n_p:d + n_p + len(data.wn)]
        best: list[tuple[float, int, int]] = []  # (violation, p, i)
        for first, block in _blocks(1 - data.N, z, n_p):
            sep = block @ data.P.T.astype(np.float64)  # negatives of the block x positives
            violation = dp[None, :] - dn[first:first + len(block), None] - sep
            top = np.argsort(violation, axis=None)[::-1][:limit]
            rows, cols = np.unravel_index(top, violation.shape)
            best += [(float(violation[r, c]), int(c), int(r) + first)
                     for r, c in zip(rows, cols) if violation[r, c] > 1e-6]
            best = sorted(best, reverse=True)[:limit]
        new = [(p, i) for _, p, i in best if (p, i) not in self.cuts]
        self.cuts.update(new)
        return self.add_rows([self.pair_cut(p, i) for p, i in new])

    def _limit_time(self, deadline: float | None, wall: float | None = None) -> None:
        """HiGHS's wall-clock limit of the next run: the CPU seconds left before ``deadline``
        (a ``time.process_time()`` value; None: no limit). Wall time runs at least as
        fast as this process's CPU time on a loaded machine, so the run stops no later.
        ``wall`` (seconds, with ``deadline`` None): a fixed limit per run, a backstop that
        a run on a loaded machine reaches no sooner than on an idle one."""
        left = (INF if wall is None else float(wall)) if deadline is None else max(
            deadline - time.process_time(), 1e-3)
        # HiGHS's MIP presolve does not look at the clock while it merges cliques: on WDBC
        # (600 literals) one presolve ran for minutes past the limit; without presolve a
        # 20 s budget stopped the same pricing MIP after 8 CPU s
        self.model.set_options(time_limit=float(left),
                               presolve="on" if deadline is None and wall is None else "off")

    def _relaxation(self, rounds: int, deadline: float | None = None,
                    wall: float | None = None) -> bool:
        """Strengthen the model with pair cuts from its LP relaxation (kept for later calls);
        False when a run stopped at its time limit."""
        columns = np.flatnonzero(self.integer)
        self.model.set_integer(columns, False)
        try:
            for _ in range(rounds):
                self._limit_time(deadline, wall)
                run = self.model.run()
                if run.timed_out:
                    return False
                if not run.optimal or run.x is None or not self.separate(run.x):
                    break
        finally:
            self.model.set_integer(columns, True)
        return True

    def price(self, mu, rho, deadline: float | None = None,
              wall: float | None = None) -> _PricingResult:
        """The least reduced cost's bound and a column at duals ``mu``, ``rho``; HiGHS stops
        at ``deadline`` (CPU seconds) or after ``wall`` seconds per run (:meth:`_limit_time`)
        with its proven dual bound; ``clock`` says that it did."""
        data = self.data
        mu = np.atleast_2d(np.asarray(mu, float))
        cost = np.concatenate([np.full(data.d, data.theta), -mu[0], data.wn, -mu[1:].ravel()])
        self.model.set_costs(cost)
        clock = bool(self.cut_rounds) and not self._relaxation(self.cut_rounds, deadline, wall)
        self._limit_time(deadline, wall)
        # HiGHS stops at a gap of mip_abs_gap, or at its node limit: its dual bound is still
        # proven (MIPRun.dual_bound); after any other ending it is −inf
        run = self.model.run(clear=True)
        term, value = None, np.inf
        if run.x is not None:
            term = tuple(int(j) for j in np.flatnonzero(run.x[:data.d] > 0.5))
            value = float(reduced_costs(data, [term], mu if len(mu) > 1 else mu[0], rho)[0])
        return _PricingResult(term, value, run.dual_bound - rho, run.optimal,
                              clock or run.timed_out)


# ---------------------------------------------------------------------------- the bound
@dataclass
class _State:
    best_bound: float = 0.0
    exact: bool = False
    iterations: int = 0
    mips: int = 0
    status: str = "optimal"


#: Default limits of the column generation: all are counts, so that a certificate is the
#: same on any machine (a wall-clock limit is available but off by default).
MAX_ITERATIONS = 200
PRICING_NODES = 1000
MAX_COLUMNS = 2000
CUT_ROUNDS = 20
#: How :func:`rulelearn.certify.lower_bound` prices: "mip" (the pricing MIP), "search" (the exact
#: branch-and-bound of :mod:`rulelearn.conjunctions`) or "auto" (the search until it
#: neither finishes nor finds a column, the MIP from then on), and the search's nodes per
#: call.
PRICING = "mip"
PRICINGS = ("mip", "search", "auto")
SEARCH_NODES = 200_000


def _generate(A, y, theta, *, form="dnf", max_rules=None, sample_weight=None,
              max_iterations=MAX_ITERATIONS, pricing_nodes=PRICING_NODES,
              max_columns=MAX_COLUMNS, cut_rounds=CUT_ROUNDS, time_limit=None,
              cpu_limit=None, cpu_safety=None, initial_terms=(), pricer=None,
              exact_pricing=True, master=None, levels=1, disable_cost=0.0, floor=0.0,
              after_g=True, pricing=PRICING, search_nodes=SEARCH_NODES,
              ) -> tuple[Certificate, "_Master | None", np.ndarray]:
    """The bound of :func:`rulelearn.certify.lower_bound`, the master (its ``terms``: every
    conjunction generated; None when the problem is trivial) and the columns' reduced costs
    at the final duals.

    ``exact_pricing=False`` prices by the beam search only (no MIP; the bound is then 0):
    the columns of a learner that needs no certificate. ``master``: a master of the same
    data (at another θ) to continue from, its columns re-costed at ``theta`` (``A``, ``y``
    and ``sample_weight`` are then not read, nor ``levels`` and ``disable_cost``: the
    master's are kept); ``max_columns`` counts the columns added. ``floor``: a valid bound
    found before (the result is never below it). ``after_g``: see below.

    With ``levels`` > 1 and ``after_g`` (and ``max_rules``, no ``master``, no ``pricer``)
    the ladder starts from G's columns: G's column generation runs first within the
    limits, then the ladder's from its columns with what is left of ``max_iterations``,
    ``cpu_limit`` (or ``cpu_safety``) and ``time_limit``, and G's bound is the ladder's floor. The
    ladder's pricing MIP (binary level indicators) can stop at the node limit where G's
    finishes: this way the bound is never below G's under the same limits."""
    start, cpu_start = time.perf_counter(), time.process_time()
    _check_options(form, theta, max_rules, max_iterations=max_iterations,
                   pricing_nodes=pricing_nodes, max_columns=max_columns)
    _check_budget(cpu_limit, cpu_safety)
    _check_ladder(levels, disable_cost)
    budget = cpu_limit if cpu_safety is None else cpu_safety
    if (after_g and levels > 1 and max_rules is not None and master is None
            and pricer is None and exact_pricing):
        return _ladder_after_g(A, y, theta, levels, time_limit, budget, cpu_safety is not None,
                               initial_terms, form=form, max_rules=max_rules,
                               sample_weight=sample_weight, max_iterations=max_iterations,
                               pricing_nodes=pricing_nodes, max_columns=max_columns,
                               cut_rounds=cut_rounds, disable_cost=disable_cost,
                               pricing=pricing, search_nodes=search_nodes)
    deadline = None if budget is None else cpu_start + float(budget)
    if master is None:
        master, initial_terms = _new_master(A, y, theta, form, max_rules, sample_weight,
                                            levels, disable_cost, initial_terms)
        if master is None:  # the empty DNF / the always-true term: 0
            trivial = Certificate(0.0, 0.0, True, 0, 0, time.perf_counter() - start,
                                  "trivial", lp_bound=0.0,
                                  cpu_seconds=time.process_time() - cpu_start)
            return trivial, None, np.zeros(0)
    data = master.data
    master.set_theta(theta)
    first_columns = len(master.terms)
    master.add(initial_terms)
    c_min = min(data.theta, float(data.wn.sum()))
    # with levels, a term that covers no positive covers some of the disabled column's
    # rows: the pricing MIP may leave such terms out only while that column is cheaper
    # (the search is exact over every conjunction: it leaves none out)
    disjoint = pricing == "mip" and (master.levels == 1 or master.disable_cost < c_min)
    price = _pricing(data, pricer, exact_pricing, pricing_nodes, cut_rounds,
                     None if cpu_safety is not None else deadline, cpu_limit, master.levels,
                     disjoint, wall=cpu_safety, pricing=pricing, search_nodes=search_nodes,
                     net=deadline)
    least = -np.inf

    state = _State(best_bound=max(0.0, float(floor)))
    while True:
        value, x, mu, rho = master.solve()
        state.iterations += 1
        out_of_time = time_limit is not None and time.perf_counter() - start >= time_limit
        out_of_cpu = deadline is not None and time.process_time() >= deadline
        limit = ("time limit" if out_of_time else "cpu limit" if out_of_cpu else
                 "iteration limit" if state.iterations >= max_iterations else
                 "column limit" if len(master.terms) - first_columns >= max_columns else None)
        if limit is None and master.add(beam_columns(data, mu, rho)):
            continue
        if price is None:  # beam pricing only: no bound
            state.status = limit or "beam exhausted"
            break
        result = price(mu, rho, last=limit is not None)
        least = _account(state, master, result, value, mu, rho, max_rules, c_min, disjoint)
        if state.exact:
            state.status = "optimal"
            break
        if getattr(result, "clock", False):  # HiGHS stopped at its time limit
            limit = "cpu limit"
        if limit is not None:
            state.status = limit
            break
        new_terms = list(getattr(result, "terms", ()) or ()) or [result.term]
        if result.term is None or result.value >= -_TOL or not master.add(new_terms):
            state.status = "pricing stalled"
            break
    master.final_duals = (mu, rho, least)
    return (_certificate(state, value, x, master, start, cpu_start), master,
            master.reduced_costs(mu, rho))


def _new_master(A, y, theta, form, max_rules, sample_weight, levels, disable_cost,
                initial_terms) -> tuple["_Master | None", list]:
    """A master of the data (None when a class is empty: the problem is trivial) and its
    first columns: the empty term, each literal that some positive has, ``initial_terms``."""
    data = _Data.build(A, y, theta, form, sample_weight)
    if len(data.wp) == 0 or len(data.wn) == 0:
        return None, []
    master = _Master(data, max_rules, levels, disable_cost)
    return master, ([()] + [(j,) for j in range(data.d) if data.P[:, j].any()]
                    + list(initial_terms))


def _account(state: _State, master: _Master, result, value: float, mu, rho, max_rules,
             c_min: float, disjoint: bool) -> float:
    """Count a pricing ``result`` at the master's value ``value`` and duals ``mu``, ``rho``
    in ``state``: the best bound so far, and whether pricing proved the LP optimal. Returns
    the bound on the least reduced cost (:func:`_with_disabled`)."""
    state.mips += 1
    U = float(max_rules) if c_min <= 0 else (  # c_min = 0 only with max_rules
        value / c_min if max_rules is None else min(float(max_rules), value / c_min))
    dual_value = float(mu.sum()) + rho * (max_rules or 0)
    least, disabled = _with_disabled(master, result.dual_bound, mu, rho, c_min, disjoint)
    state.best_bound = max(state.best_bound, _bound(dual_value, least, U, c_min, disabled))
    state.exact = result.optimal and least >= -1e-7
    return least


def _with_disabled(master: _Master, least: float, mu, rho, c_min: float, disjoint: bool):
    """The least reduced cost's bound and the disabled column's (cost, reduced cost, R) for
    :func:`_bound` (None without levels)."""
    if master.levels == 1 or master.max_rules is None:
        return least, None
    disabled = (master.disable_cost, float(master.disabled_reduced_cost(mu, rho) or 0.0),
                float(master.max_rules))
    if disjoint:
        # the pricing MIP leaves out terms that cover no positive; their rows are the
        # disabled column's, so their reduced cost is ≥ that column's + c_min − its cost
        least = min(least, disabled[1] + c_min - master.disable_cost)
    return least, disabled


def _ladder_after_g(A, y, theta, levels, time_limit, cpu_budget, safety, initial_terms,
                    **common):
    """G's column generation, then the ladder's from its columns with the time left and
    G's bound as its floor (``_generate``). ``cpu_budget`` is ``cpu_safety`` when
    ``safety``, else ``cpu_limit``."""
    start, cpu_start = time.perf_counter(), time.process_time()
    name = "cpu_safety" if safety else "cpu_limit"
    g, g_master, reduced = _generate(A, y, theta, **common, time_limit=time_limit,
                                     initial_terms=initial_terms, **{name: cpu_budget})
    cpu_left = (None if cpu_budget is None
                else float(cpu_budget) - (time.process_time() - cpu_start))
    wall_left = None if time_limit is None else time_limit - (time.perf_counter() - start)
    common["max_iterations"] -= g.iterations
    if g_master is None or common["max_iterations"] < 1 or g.status == "cpu limit" or any(
            left is not None and left <= 0 for left in (cpu_left, wall_left)):
        return g, g_master, reduced
    ladder, master, reduced = _generate(
        A, y, theta, **common, time_limit=wall_left, initial_terms=g_master.terms,
        levels=levels, floor=float(g.lp_bound or 0.0), after_g=False, **{name: cpu_left})
    return replace(ladder, iterations=g.iterations + ladder.iterations,
                   pricing_mips=g.pricing_mips + ladder.pricing_mips,
                   seconds=time.perf_counter() - start,
                   cpu_seconds=time.process_time() - cpu_start), master, reduced


def _pricing(data, pricer, exact_pricing, pricing_nodes, cut_rounds, deadline, cpu_limit,
             levels=1, disjoint=True, wall=None, pricing=PRICING, search_nodes=SEARCH_NODES,
             net=None):
    """``price(mu, rho, last)``: ``pricer``, else a pricing MIP that stops at ``deadline``
    (the ``last`` one, for the final bound, at a tenth of ``cpu_limit`` past it at the
    latest), or whose HiGHS runs stop after ``wall`` seconds each (``deadline`` None);
    None without a pricer and ``exact_pricing``. With ``pricing="search"`` the exact search
    of :mod:`rulelearn.conjunctions` (``search_nodes`` per call; it also stops at the CPU
    deadline ``net``, the budget's end, with a valid bound)."""
    if pricer is not None:
        return lambda mu, rho, last: pricer(mu, rho)
    if not exact_pricing:
        return None
    mips: list[_PricingMIP] = []  # built when first needed

    def by_mip(mu, rho, last: bool) -> _PricingResult:
        if not mips:
            mips.append(_PricingMIP(data, node_limit=pricing_nodes, cut_rounds=cut_rounds,
                                    levels=levels, disjoint=disjoint))
        if deadline is None:
            return mips[0].price(mu, rho, wall=wall)
        grace = 0.1 * float(cpu_limit) if last else 0.0
        return mips[0].price(mu, rho, max(deadline, time.process_time() + grace))
    if pricing == "mip":
        return by_mip
    search = ConjunctionSearch(data.P, data.wp, data.N, data.wn, data.theta)
    gave_up: list[bool] = []

    def by_search(mu, rho, last: bool) -> _PricingResult:
        if gave_up:  # "auto", once the search has failed: the MIP from then on
            return by_mip(mu, rho, last)
        search.theta = data.theta  # a master on a θ path re-costs its data
        found = search.least(mu, rho, node_limit=search_nodes, deadline=net)
        result = _PricingResult(found.term, found.value, found.dual_bound, found.optimal,
                                found.clock, tuple(found.terms))
        if pricing == "search" or found.optimal or found.terms or found.clock:
            return result
        # "auto": the search neither proved nor found a column; the MIP's bound and the
        # search's are both valid, the larger is kept
        gave_up.append(True)
        mip = by_mip(mu, rho, last)
        return replace(mip, dual_bound=max(mip.dual_bound, found.dual_bound))
    return by_search


def _check_budget(cpu_limit, cpu_safety=None) -> None:
    for name, budget in (("cpu_limit", cpu_limit), ("cpu_safety", cpu_safety)):
        if budget is not None and (isinstance(budget, bool)
                                   or not isinstance(budget, (int, float, np.number))
                                   or not budget > 0):
            raise ParameterError(f"{name} must be a positive number of seconds, got {budget!r}")
    if cpu_limit is not None and cpu_safety is not None:
        raise ParameterError("give cpu_limit (HiGHS stops at it) or cpu_safety (checked "
                             "between HiGHS runs), not both")


def _check_ladder(levels, disable_cost) -> None:
    if isinstance(levels, bool) or not isinstance(levels, (int, np.integer)) or levels < 1:
        raise ParameterError(f"levels must be an integer >= 1, got {levels!r}")
    if not disable_cost >= 0:
        raise ParameterError(f"disable_cost must be >= 0, got {disable_cost!r}")


def _check_options(form, theta, max_rules, **limits) -> None:
    _check_form(form)
    if not (theta > 0 or (theta == 0 and max_rules is not None)):
        raise ParameterError(f"theta must be positive (or 0 with max_rules), got {theta!r}")
    if max_rules is not None and int(max_rules) < 1:
        raise ParameterError(f"max_rules must be at least 1, got {max_rules!r}")
    for name, limit in limits.items():
        if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
            raise ParameterError(f"{name} must be an integer >= 1, got {limit!r}")


def _bound(dual_value: float, least: float, U: float, c_min: float,
           disabled: tuple[float, float, float] | None = None) -> float:
    """The better of two valid bounds from duals of value ``dual_value`` and a lower bound
    ``least`` on every conjunction's reduced cost.

    Lagrangian: ``dual_value + min(0, least) · U``. Farley: the duals scaled by
    ``α = c_min / (c_min − least)`` are feasible for the full dual (every conjunction's
    ``μ(cover) + ρ ≤ c_k − least`` and ``c_k ≥ c_min``, so ``α (μ(cover) + ρ) ≤ c_k``), which
    gives ``α · dual_value``: still positive when the pricing bound is far below 0.
    ``disabled``: cost ``e``, reduced cost ``r`` and an upper bound ``R`` on the weight of
    the ladder's disabled-clause column (always in the master, so ``r ≥ 0`` but for the
    LP's tolerances): the Lagrangian adds ``min(0, r) · R``; Farley's ``α`` must also keep
    ``α (e − r) ≤ e``, so ``α ≤ e / (e − r)`` when ``r < 0``.
    """
    e, r, R = disabled if disabled is not None else (0.0, 0.0, 0.0)
    if not np.isfinite(least):
        return 0.0
    lagrangian = dual_value + min(0.0, least) * U + min(0.0, r) * R
    alpha = 1.0 if least >= 0 else c_min / (c_min - least)
    if r < 0:
        alpha = min(alpha, e / (e - r))
    return max(lagrangian, alpha * dual_value)


#: Rounding gives up (keeps the LP's bound) beyond this many literal counts to try.
_MAX_LATTICE = 2_000_000


def round_up_to_objective(bound: float, theta: float, positive_weight: float,
                          negative_weight: float) -> float:
    """The least objective a rule can have that is not below ``bound`` (less 1e-6 relative,
    for the LP's tolerances), when every row weight is an integer.

    A DNF's objective with ``disable_cost = 0`` is then ``a + θ b``: ``a`` the integer loss,
    ``b`` the number of literals. With ``b = 0`` every term is empty, so it is
    ``positive_weight`` (no term) or ``k · negative_weight`` (``k ≥ 1`` empty terms: every
    negative pays per term); with ``b ≥ 1``, ``a`` is any integer ≥ 0. A disabled clause's
    cost only adds to it. ``bound`` itself when the literal counts to try exceed
    ``_MAX_LATTICE`` (θ tiny: the rounding would gain less than θ).
    """
    if bound <= 0 or not np.isfinite(bound):
        return bound
    target = bound - 1e-6 * max(1.0, abs(bound))
    if target / theta > _MAX_LATTICE:
        return bound
    empty = [positive_weight]
    if negative_weight > 0:
        empty.append(negative_weight * max(1.0, np.ceil(target / negative_weight)))
    best = min(v for v in empty if v >= target) if max(empty) >= target else np.inf
    literals = theta * np.arange(1, max(1, int(np.floor(target / theta))) + 2)
    values = literals + np.maximum(0.0, np.ceil(target - literals))
    best = min(best, float(values.min()))
    return max(bound, best) if np.isfinite(best) else bound


def _rounded(bound: float, data: _Data) -> float:
    """:func:`round_up_to_objective` when every row weight is an integer, else ``bound``."""
    weights = np.concatenate([data.wp, data.wn])
    if not np.array_equal(weights, np.round(weights)):
        return bound
    return round_up_to_objective(bound, data.theta, float(data.wp.sum()), float(data.wn.sum()))


def _certificate(state: _State, value: float, x, master: _Master, start: float,
                 cpu_start: float) -> Certificate:
    positive = np.flatnonzero(x > 1e-9)
    lp_bound = min(state.best_bound, value)
    data = master.data
    bound = _rounded(lp_bound, data)
    return Certificate(bound=bound, lp_bound=lp_bound, lp_value=value,
                       exact_pricing=state.exact, iterations=state.iterations,
                       columns=len(master.terms), seconds=time.perf_counter() - start,
                       status=state.status, terms=tuple(master.terms[k] for k in positive),
                       weights=tuple(float(x[k]) for k in positive), pricing_mips=state.mips,
                       levels=master.levels, cpu_seconds=time.process_time() - cpu_start)


# ---------------------------------------------------------------------------- the master MIP
#: HiGHS options of the master MIP. Its root node is nearly all of its cost, and on these
#: small covering MIPs HiGHS restarted it up to three times, each time separating thousands
#: of cuts again: without restarts and with a cut pool of 100 the slowest master MIP of a
#: Liver unit took 0.23 CPU s instead of 1.3, at the same optimum.
MASTER_OPTIONS = {"mip_allow_restart": False, "mip_pool_soft_limit": 100}
#: Branch-and-bound nodes of the CG learner's master MIP (a count: the same on any machine).
MASTER_NODES = 1000
#: Columns the master MIP chooses from: those of least reduced cost at the final duals.
MASTER_COLUMNS = 200


def relaxed_objective(data: _Data, terms) -> float:
    """G of the rule ``terms``: covered negatives per term, uncovered positives once, θ per
    literal (docs/explanation/certificates.md)."""
    covered = np.zeros(len(data.wp), dtype=bool)
    for term in terms:
        covered |= data.covers(term, data.P)
    return float(data.wp @ ~covered) + sum(data.cost(t) for t in terms)


def _covering_mip(costs, n_continuous: int, indptr, indices, n_rows: int,
                  max_rules: float | None, *, node_limit: int, what: str,
                  options=None) -> MIPRun:
    """HiGHS, run on ``min costs·v`` over 0/1 columns (``indptr``/``indices``, column-wise):
    every row ≥ 1 but the last, which is ≤ ``max_rules`` when that is given; the first
    ``n_continuous`` columns continuous ≥ 0, the others binary. ``what`` names the model in
    errors; ``options``: more HiGHS options."""
    n_cols = len(indptr) - 1
    row_lower, row_upper = np.ones(n_rows), np.full(n_rows, INF)
    if max_rules is not None:
        row_lower[-1], row_upper[-1] = -INF, float(max_rules)
    model = MixedIntegerProgram(
        costs, np.zeros(n_cols), np.concatenate([np.full(n_continuous, INF),
                                                 np.ones(n_cols - n_continuous)]),
        row_lower, row_upper, indptr, indices, np.ones(len(indices)),
        [False] * n_continuous + [True] * (n_cols - n_continuous), what=what,
        options={**MASTER_OPTIONS, "mip_max_nodes": int(node_limit), **(options or {})})
    return model.run()


def master_mip(A, y, theta: float, terms, *, form: str = "dnf", max_rules: int | None = None,
               sample_weight=None, node_limit: int = MASTER_NODES, incumbent=(),
               data: _Data | None = None) -> tuple[tuple[int, ...], ...]:
    """The rule of least relaxed objective G made of ``terms`` (HiGHS MIP, x binary), or the
    best one found within ``node_limit`` branch-and-bound nodes (no term when none is).

    ``incumbent``: a rule (at most ``max_rules`` terms) whose terms join the columns; the
    answer is never worse than it. It is not handed to HiGHS as a first solution: with
    presolve on, HiGHS 1.16 then returned it as optimal where a column alone did better
    (G 5 against 4 on a 10-row case; tests/test_cg.py). ``data``: the merged rows at
    ``theta`` (then ``A``, ``y`` are not read)."""
    if data is None:
        data = _Data.build(A, y, theta, form, sample_weight)
    incumbent = [tuple(sorted(t)) for t in incumbent]
    terms = list(dict.fromkeys([tuple(sorted(t)) for t in terms] + incumbent))
    n = len(data.wp)
    n_rows = n + (max_rules is not None)
    indptr, indices = list(range(n + 1)), list(range(n))
    cover = [np.flatnonzero(data.covers(term, data.P)) if n else np.zeros(0, int)
             for term in terms]
    for rows in cover:
        indices += rows.tolist() + ([n] if max_rules is not None else [])
        indptr.append(len(indices))
    costs = np.concatenate([data.wp, [data.cost(t) for t in terms]])
    run = _covering_mip(costs, n, indptr, indices, n_rows, max_rules,
                        node_limit=node_limit, what="master MIP")
    fits = incumbent and (max_rules is None or len(incumbent) <= max_rules)
    if run.x is None:
        return tuple(incumbent) if fits else ()
    x = run.x[n:]
    found = tuple(terms[k] for k in np.flatnonzero(x > 0.5))
    if fits and relaxed_objective(data, incumbent) < relaxed_objective(data, found) - 1e-9:
        return tuple(incumbent)
    return found


def _prune(A, y, terms, theta, form, max_rules, sample_weight, disable_cost):
    """Drop terms while that lowers the objective."""
    terms = list(terms)
    value = rule_objective(A, y, terms, theta, form=form, max_rules=max_rules,
                           sample_weight=sample_weight, disable_cost=disable_cost)
    improved = True
    while improved and terms:
        improved = False
        for k in range(len(terms)):
            trial = terms[:k] + terms[k + 1:]
            trial_value = rule_objective(A, y, trial, theta, form=form, max_rules=max_rules,
                                         sample_weight=sample_weight, disable_cost=disable_cost)
            if trial_value < value - 1e-12:
                terms, value, improved = trial, trial_value, True
                break
    return tuple(terms), value
