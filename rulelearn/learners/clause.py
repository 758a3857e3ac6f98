"""One clause for given negative weights and θ: solve the clause LP, then round it.

One clause LP serves every clause, BCD/AM iteration and θ of a training set.
An LP for new negative weights starts from scratch: measured faster than a
warm re-solve from another clause's basis. The same weights at another θ
start from the basis kept from their earlier solve (:class:`ClauseSolver`,
``warm_across_theta``).

These LPs are highly degenerate: they often have many optimal vertices, and
which one a simplex run ends at depends on the formulation, the start basis,
presolve and row order, and the rounded rule with it. A fixed tie-break
makes the optimum unique: every feature cost gets a tiny, fixed,
pseudo-random extra cost (:func:`tie_break_costs`, at most 2e-5 per unit of
``w``), so among the LP's optimal solutions the one with the lowest
tie-break cost is the answer, whatever path the solver takes: the reference
loop (primal, presolve on, unmerged rows, cold) and the fast path (dual,
merged, θ warm starts) often differ without it, and reach the same rule with
it (``tests/test_perf.py``, ``make perf``).

The LP is built in :mod:`rulelearn.learners.formulation` and rounded in
:mod:`rulelearn.learners.rounding`; ``exact=True`` instead solves the same
problem as a MIP with a time limit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from rulelearn.learners.formulation import ClauseLP, positive_cover, screened_features
from rulelearn.learners.problem import BLOCK_ABOVE, CNFProblem, clause_objective
from rulelearn.learners.rounding import (
    no_worse_than_trivial,
    normalize,
    round_best_threshold,
    single_feature_sums,
)

TIE_BREAK = 1e-5  # ε: the tie-break costs ε to 2ε per unit of w_j (one sample weighs 1)
TREE_ROWS = 20_000  # a sampled LP's tree start (starts.tree_start) is grown on this many rows
W_DECIMALS = 6  # LP values of w are snapped to this grid before rounding (solver noise ~1e-9)


@dataclass(frozen=True)
class ClauseFit:
    """An integer clause (bool over features + always-true), its objective and LP facts."""

    clause: np.ndarray
    objective: float
    lp_value: float
    iterations: int


def tie_break_costs(problem: CNFProblem) -> np.ndarray:
    """Fixed extra costs in ``[ε, 2ε)`` per feature that make the clause LP's optimum unique.

    Pseudo-random from a fixed seed, so the same feature gets the same extra
    cost in every LP of every run. ``ε`` is ``TIE_BREAK`` times the smaller
    of one and the smallest sample weight, so that with fractional sample
    weights it stays far below one sample's cost. Small enough to change no
    choice the objective makes, except between (near-)equal ones: with θ ≥
    1e-4, ``k + 1`` features still cost more than ``k`` for ``k`` up to 10.
    Unique is up to the solver's tolerance (1e-9): two optimal vertices whose
    tie-break costs differ by less stay tied. On 107 BCD clause LPs on 3,000
    Musk samples the sifted and the full LP disagreed on ``w`` once with
    ``ε`` = 1e-6 (objectives 2e-10 apart) and never with 1e-5.
    """
    n_cols = problem.A_pos.shape[1]
    weights = np.concatenate([problem.w_pos, problem.w_neg])
    scale = min(1.0, float(weights.min())) if len(weights) else 1.0
    return TIE_BREAK * scale * np.asarray(np.random.default_rng(20160623).uniform(1.0, 2.0, n_cols))


def _exact_in_single(weights: np.ndarray) -> bool:
    """Non-negative integer weights whose total is below 2^24 (exact sums in float32)."""
    return bool(np.all(weights == np.round(weights)) and weights.min(initial=0.0) >= 0
                and weights.sum() < 2.0**24)


def sample_sizes(n_pos: int, lp_rows) -> tuple:
    """The clause LP's sample sizes, stage by stage, for ``n_pos`` positive rows.

    ``lp_rows``: None (one stage: every row), an int (one stage of at most that many rows)
    or increasing ints (one stage each). A size of ``n_pos`` or more is every row (``None``)
    and ends the schedule.
    """
    sizes = [lp_rows] if lp_rows is None or isinstance(lp_rows, (int, np.integer)) else lp_rows
    stages: list = []
    for size in sizes:
        if size is None or int(size) >= n_pos:
            stages.append(None)
            break
        if int(size) < 1:
            raise ValueError(f"a sample size of the clause LP must be >= 1, got {size}")
        stages.append(int(size))
    return tuple(stages)


def sampled_positives(problem: CNFProblem, n_rows: int | None, seed: int = 0) -> CNFProblem:
    """``problem`` with at most ``n_rows`` of its positive rows, for the clause LP only.

    The rows are drawn uniformly at random (without replacement, from ``seed``), and their
    weights scaled so that the sample's total positive weight is the problem's. Only the LP
    sees the sample: the negative weight sums (the LP's costs), the rounding and every
    objective are computed on all rows, so the LP only proposes clauses. ``None`` or at
    least all rows: ``problem`` itself.
    """
    n_pos = len(problem.w_pos)
    if n_rows is None or n_rows >= n_pos:
        return problem
    rows = np.sort(np.random.default_rng(seed).choice(n_pos, n_rows, replace=False))
    weights = problem.w_pos[rows]
    weights = weights * (float(problem.w_pos.sum()) / float(weights.sum()))
    return CNFProblem(problem.A_pos[rows], weights, problem.A_neg[:0], problem.w_neg[:0])


class ClauseSolver:
    """Learns one clause for given negative weights and θ, reusing one HiGHS model.

    Every LP carries the tie-break costs (:func:`tie_break_costs`), so its
    optimum is unique and the rule does not depend on how it was reached.
    Two kinds of reuse, both exact (every answer is the optimum of its own LP):
    an answer cache (the same negative weights and θ asked again: BCD asks for
    the clause it has just updated once more in its next iteration), and, when
    ``warm_across_theta``, a θ path warm start: the final basis of every solve
    is kept per set of negative weights, and the same weights at another θ
    start from it. On a θ path most LPs differ from an earlier one only in θ,
    and from the kept basis they take far fewer simplex iterations.
    With ``warm_across_theta=False`` (or a single θ) every LP starts from scratch.

    ``screen``: before each LP, the features whose cost exceeds the positive
    weight they cover are left out of it
    (:func:`~rulelearn.learners.formulation.screened_features`: zero at the optimum, so the
    same ``w`` and rule);
    ``n_screened`` counts them over every LP. Not for the MIP.
    ``carry_working_set``: the sifted dual starts each LP from the features
    active at the last optimum (:class:`~rulelearn.learners.formulation.SiftedDualLP`).
    ``row_generation``: the sifted dual also generates the positives (clause-LP
    rows) it needs, checking every one left out before it accepts an optimum.
    """

    def __init__(self, problem: CNFProblem, *, disable_cost: float = 0.0, exact: bool = False,
                 time_limit: float | None = 60.0, warm: bool = False, formulation: str = "auto",
                 warm_across_theta: bool = True, screen: bool = True,
                 carry_working_set: bool = True, row_generation: bool = True,
                 lp_rows=None, lp_seed: int = 0, lp_answers: dict | None = None):
        self.problem = problem
        self.warm = warm
        self.disable_cost = float(disable_cost)
        self.exact = exact
        self.warm_across_theta = warm_across_theta and not exact
        self._lp_options: dict = dict(formulation=formulation, exact=exact,
                                time_limit=time_limit if exact else None,
                                carry=carry_working_set, row_generation=row_generation)
        self.lp_sizes = sample_sizes(len(problem.w_pos), None if exact else lp_rows)
        self.lp_seed = lp_seed
        #: rows the tree start is grown on (None: all): sampled only when the LP is
        self.start_rows = None if self.lp_sizes[0] is None else TREE_ROWS
        self.starts: dict = {}  # start rules' θ-free parts (the tree's leaves), per key
        self._stages: dict[int, tuple] = {}  # stage -> (LP problem, ClauseLP, cover)
        self.stage = 0
        self.tie_break = tie_break_costs(problem)
        self.screen = screen and not exact
        self.n_screened = 0  # features left out of an LP by screening, summed over LPs
        self.cache_hits = 0
        self.warm_starts = 0  # LPs started from a basis kept for the same negative weights
        self._cache: dict = {}
        self._bases: dict = {}  # (stage, negative weights) -> the final basis of their last solve
        # negative weights -> (their column sums, the rounding's single-feature sums)
        self._neg_sums: dict = {}
        #: LP optima ``(w, value)`` per (stage, sample size, digest of the negative weights,
        #: θ), shared with other solvers on the same problem (None: not kept)
        self.lp_answers = lp_answers

    @property
    def n_stages(self) -> int:
        """Sample sizes the clause LP can be asked at (1: one LP, on a sample or on all rows)."""
        return len(self.lp_sizes)

    def _stage(self, stage: int) -> tuple:
        if stage not in self._stages:
            size = self.lp_sizes[stage]
            lp_problem = sampled_positives(self.problem, size, self.lp_seed)
            self._stages[stage] = (lp_problem, ClauseLP(lp_problem, **self._lp_options),
                                   positive_cover(lp_problem) if self.screen else None)
        return self._stages[stage]

    @property
    def lp_problem(self) -> CNFProblem:
        """The problem the current stage's LP is built on (its positives may be a sample)."""
        return self._stage(self.stage)[0]

    @property
    def _lp(self) -> ClauseLP:
        return self._stage(self.stage)[1]

    @_lp.setter
    def _lp(self, lp: ClauseLP) -> None:
        """Replace the current stage's LP (a benchmark's reference loop builds its own)."""
        lp_problem, _, cover = self._stage(self.stage)
        self._stages[self.stage] = (lp_problem, lp, cover)

    @property
    def formulation(self) -> str:
        return self._lp.formulation

    @property
    def n_solves(self) -> int:
        return sum(lp.n_solves for _, lp, _ in self._stages.values())

    @property
    def total_iterations(self) -> int:
        return sum(lp.total_iterations for _, lp, _ in self._stages.values())

    def _sifted_total(self, name: str) -> int:
        return sum(getattr(lp.sifted, name) for _, lp, _ in self._stages.values()
                   if lp.sifted is not None)

    @property
    def n_rows_added(self) -> int:
        """Sifted dual only: features added to its restricted models over every LP (else 0)."""
        return self._sifted_total("n_rows_added")

    @property
    def n_positives_added(self) -> int:
        """Sifted dual only: positives added to its restricted models over every LP (else 0)."""
        return self._sifted_total("n_positives_added")

    @property
    def n_rounds(self) -> int:
        """Sifted dual only: HiGHS runs over every LP (several per LP as rows enter; else 0)."""
        return self._sifted_total("n_rounds")

    def column_costs(self, neg_weight: np.ndarray, theta: float, weights_key=None) -> np.ndarray:
        """Costs of ``w`` (features, then always-true): θ plus the active negatives' weight.

        ``weights_key`` (``neg_weight.tobytes()``): the weight sums are kept under it
        (``_negative_sums``).
        """
        cost = self._negative_sums(neg_weight, weights_key)[0].copy()
        cost[:-1] += theta
        cost[-1] += self.disable_cost
        return cost

    def _negative_sums(self, neg_weight: np.ndarray, weights_key=None):
        """Per feature, the negative weight it accepts: as an LP cost (summed in single
        precision) and for the rounding (:func:`single_feature_sums`).

        Kept per set of negative weights (``weights_key``): a θ path asks for the same
        weights at many θ, and the two products over every negative were about a fifth
        of a MAGIC BCD fit. The same products as computed afresh, so the same costs.
        """
        kept = None if weights_key is None else self._neg_sums.get(weights_key)
        if kept is None:
            costs = (neg_weight.astype(np.float32) @ self.problem.A_neg).astype(np.float64)
            if self.problem.A_neg.size > BLOCK_ABOVE and _exact_in_single(neg_weight):
                # integer weights summing below 2^24: every partial sum of the single-precision
                # product is exact, so it equals the double one (1M rows: 3.4 s per weight
                # vector of block conversions saved)
                kept = (costs, costs[:-1].copy())
            else:
                kept = (costs, single_feature_sums(self.problem, neg_weight))
            if weights_key is not None and len(self._neg_sums) < 2_000:
                self._neg_sums[weights_key] = kept
        return kept

    def fit(self, neg_weight: np.ndarray, theta: float, cap=None) -> ClauseFit:
        """Solve the clause LP (or MIP) and round it to the best integer clause.

        ``cap`` (per negative) is passed to the rounding's objective
        (:func:`round_best_threshold`); the LP does not depend on it.
        """
        weights_key = neg_weight.tobytes()
        key = (self.stage, weights_key, float(theta),
               None if cap is None else np.asarray(cap).tobytes())
        if key in self._cache:
            self.cache_hits += 1
            return self._cache[key]
        neg_sums = self._negative_sums(neg_weight, weights_key)[1]
        known, answer_key = self.lp_answers, None
        if known is not None:
            answer_key = (self.stage, self.lp_sizes[self.stage],
                          hashlib.blake2b(weights_key, digest_size=16).digest(), float(theta))
        if known is not None and answer_key in known:
            (w, lp_value), iterations = known[answer_key], 0
        else:
            w, lp_value, iterations = self._solve(neg_weight, theta, weights_key)
            if known is not None:
                known[answer_key] = (w, lp_value)
        if self.exact:
            clause = normalize(w > 0.5)
            objective = clause_objective(self.problem, clause, neg_weight, theta,
                                         self.disable_cost, cap)
            clause, objective = no_worse_than_trivial(self.problem, clause, objective, neg_weight,
                                                      theta, self.disable_cost, cap, neg_sums)
        else:
            clause, objective = round_best_threshold(self.problem, w, neg_weight, theta,
                                                     self.disable_cost, cap=cap,
                                                     neg_sums=neg_sums)
        fit = ClauseFit(clause, objective, lp_value, iterations)
        if len(self._cache) < 10_000:
            self._cache[key] = fit
        return fit

    def _solve(self, neg_weight: np.ndarray, theta: float, weights_key: bytes) -> tuple:
        """``(w, value, simplex iterations)`` of the clause LP (``w`` snapped to
        :data:`W_DECIMALS`, the value without the tie-break costs)."""
        start = self._bases.get((self.stage, weights_key)) if self.warm_across_theta else None
        self.warm_starts += start is not None
        costs = self.column_costs(neg_weight, theta, weights_key) + self.tie_break
        screened = None
        cover = self._stage(self.stage)[2]
        if cover is not None:
            screened = screened_features(costs, *cover)
            self.n_screened += int(screened.sum())
        solution = self._lp.solve(costs, self.warm, start, screened)
        if self.warm_across_theta and len(self._bases) < 2_000:
            self._bases[(self.stage, weights_key)] = solution.basis
        w = np.round(solution.w, W_DECIMALS)
        return w, solution.value - float(self.tie_break @ solution.w), solution.iterations
