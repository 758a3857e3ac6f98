"""The one-clause LP (or MIP) of Malioutov & Varshney (2013), built from a CNFProblem.

For weights ``c`` on positives ``P`` and (active) negatives ``N``::

    min  sum_{i in P} c_i xi_i + sum_j (theta_j + sum_{i in N} c_i a_ij) w_j
    s.t. xi_i + sum_j a_ij w_j >= 1      for i in P
         0 <= w_j <= 1,  xi_i >= 0

Only the positives are rows; the negatives and θ only change column costs.
So one HiGHS model per training set serves every clause, every BCD/AM
iteration and every θ (:class:`ClauseLP`).

When positives far outnumber features (MAGIC: 12,000 rows, 201 columns) the
LP's dual is solved instead (:func:`dual_clause_model`): one row per feature,
so the simplex basis is 201 x 201 rather than 12,000 x 12,000, and the clause
weights ``w`` are read off its row duals (a vertex of the clause LP). Where the
features are thresholds and levels of a few columns, that dual is written with the
positives summed per bin (:func:`binned_dual_clause_model`: the same LP with a
quarter of the nonzeros, cold solves started from a crash basis).

When both are many (Musk: 5,350 positives, 3,243 features, half the entries
ones) its dual is solved over growing subsets of the features and of the
positives (:class:`SiftedDualLP`: column generation on the features, row
generation on the positives): a few hundred features and about a quarter of
the positives enter a restricted model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse

from rulelearn.errors import ParameterError
from rulelearn.learners.problem import CNFProblem
from rulelearn.lp import INF, LinearProgram


def clause_model(problem: CNFProblem, exact: bool = False, time_limit: float | None = None,
                 presolve: bool = False) -> LinearProgram:
    """The clause LP (or MIP) over ``problem``'s positives, with zero costs on ``w``."""
    A = problem.A_pos
    n_pos, n_cols = A.shape
    nonzero = A != 0
    counts = nonzero.sum(axis=0)
    rows_by_col = np.nonzero(nonzero.T)[1]  # row indices, column by column
    indptr = np.concatenate([[0], np.cumsum(counts), np.cumsum(counts)[-1] + 1 + np.arange(n_pos)])
    indices = np.concatenate([rows_by_col, np.arange(n_pos)])
    values = np.ones(len(indices))
    cost = np.concatenate([np.zeros(n_cols), problem.w_pos])
    upper = np.concatenate([np.ones(n_cols), np.full(n_pos, INF)])
    integer = np.concatenate([np.ones(n_cols, bool), np.zeros(n_pos, bool)]) if exact else None
    return LinearProgram(cost, np.zeros(n_cols + n_pos), upper, np.ones(n_pos), np.full(n_pos, INF),
                         indptr, indices, values, integer=integer, time_limit=time_limit,
                         presolve=presolve)


def complement_partners(A: np.ndarray) -> np.ndarray:
    """For each column of 0/1 ``A``, the column that is its complement on every row, or -1."""
    bits = np.asarray(A, dtype=bool)
    index = {column.tobytes(): j for j, column in enumerate(np.packbits(bits, axis=0).T)}
    return np.array([index.get(column.tobytes(), -1)
                     for column in np.packbits(~bits, axis=0).T], dtype=np.int64)


def rows_via_total(A: np.ndarray):
    """Which dual rows to write through the total, and the column each row then sums.

    A column with a complement and more ones than it is written via
    ``T - (its complement)``; ``support[j]`` is the column whose ones row ``j`` sums.
    """
    A = np.asarray(A, dtype=bool)
    partner = complement_partners(A)
    ones = A.sum(axis=0)
    via_total = (partner >= 0) & (ones > ones[np.maximum(partner, 0)])
    return np.where(via_total, partner, np.arange(A.shape[1])), via_total


def dual_clause_model(problem: CNFProblem, presolve: bool = False) -> LinearProgram:
    """The LP dual of the clause LP, with the feature costs as row bounds (zero here).

    For costs ``d_j`` of ``w_j`` and weights ``c_i`` of the positives::

        max  sum_i y_i - sum_j u_j
        s.t. sum_{i in P} a_ij y_i - u_j <= d_j     for every feature j
             0 <= y_i <= c_i,  u_j >= 0

    (written as a minimization of the negated objective). The clause LP's
    ``w_j`` is minus the dual value of row ``j``.

    A feature and its negation (``x <= t``, ``x > t``) are complements on the
    positives, so the one with more ones is written through the total
    ``T = sum_i y_i`` (a free column with one extra row, ``T - sum_i y_i = 0``)
    as ``T - sum_{i in P} a_ik y_i - u_j <= d_j``, ``k`` its complement: the
    same LP (the same ``w``) with about half the nonzeros, so faster to solve.
    """
    A = np.asarray(problem.A_pos, dtype=bool)
    n_pos, n_cols = A.shape
    support, via_total = rows_via_total(A)
    sign = np.where(via_total, -1.0, 1.0)
    samples, rows = np.nonzero(A[:, support])  # row-major: grouped by positive (dual column)
    counts = np.bincount(samples, minlength=n_pos) + 1  # + the entry in the total's row
    ends = np.cumsum(counts)
    n_entries = int(counts.sum())
    indices = np.empty(n_entries, dtype=np.int64)
    values = np.empty(n_entries)
    indices[ends - 1], values[ends - 1] = n_cols, -1.0  # T - sum_i y_i = 0 is row n_cols
    slots = np.ones(n_entries, dtype=bool)
    slots[ends - 1] = False
    indices[slots], values[slots] = rows, sign[rows]
    total_rows = np.append(np.flatnonzero(via_total), n_cols)
    indptr = np.concatenate([[0], ends, n_entries + 1 + np.arange(n_cols),
                             [n_entries + n_cols + len(total_rows)]])
    indices = np.concatenate([indices, np.arange(n_cols), total_rows])
    values = np.concatenate([values, -np.ones(n_cols), np.ones(len(total_rows))])
    cost = np.concatenate([-np.ones(n_pos), np.ones(n_cols), [0.0]])
    lower = np.concatenate([np.zeros(n_pos + n_cols), [-INF]])
    upper = np.concatenate([problem.w_pos, np.full(n_cols + 1, INF)])
    return LinearProgram(cost, lower, upper, np.append(np.full(n_cols, -INF), 0.0),
                         np.zeros(n_cols + 1), indptr, indices, values, presolve=presolve)


BIN_GAIN = 0.5  # the binned dual is used when it has at most this share of the full dual's nonzeros


def feature_groups(A: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Consecutive features (the always-true last column left out) grouped while each one
    adds at most one distinct pattern of the rows of ``A`` on the group: the thresholds of
    one numeric column and their negations (k thresholds, k + 1 patterns), or the levels
    of one categorical column (an unrelated feature would double the patterns). Per group:
    its features and each row's pattern (numbered 0, 1, ... in the order of the patterns).
    Any grouping gives the same LP (:func:`binned_dual_clause_model`); this one few bins."""
    A = np.asarray(A, dtype=bool)
    n_cols = A.shape[1] - 1
    groups: list[tuple[np.ndarray, np.ndarray]] = []
    first, ids, n_patterns = 0, np.zeros(len(A), dtype=np.int64), 1
    for j in range(n_cols):
        trial = np.unique(ids * 2 + A[:, j], return_inverse=True)
        if j > first and len(trial[0]) > n_patterns + 1:
            groups.append((np.arange(first, j), ids))
            trial = np.unique(A[:, j], return_inverse=True)
            first = j
        ids, n_patterns = trial[1].ravel().astype(np.int64), len(trial[0])
    if n_cols:
        groups.append((np.arange(first, n_cols), ids))
    return groups


def binned_dual_clause_model(problem: CNFProblem, presolve: bool = False):
    """:func:`dual_clause_model`'s LP with the positives summed per bin, or None when that does
    not at least halve the nonzeros (``BIN_GAIN``).

    Features are grouped (:func:`feature_groups`); within a group the positives fall into
    bins (their distinct patterns on its features), and a free column ``B_b = sum_{i in b}
    y_i`` (one equality row per bin, after the total's row) stands for each bin. A feature's
    row sums the bins it holds, ``sum_{b in j} B_b - u_j <= d_j``, or through the total the
    bins it does not: the same LP over ``(y, u, T)``, the same optimum and row duals (``w``),
    but each ``y_i`` has one entry per group instead of one per feature (5,000 generated
    rows: 63,103 instead of 262,269 nonzeros). Returns ``(model, crash basis)``: the basis
    with ``T`` and every ``B_b`` basic (they are defined by their rows), from which a cold
    solve starts (measured: half the simplex time of a cold solve of the full dual).
    """
    A = np.asarray(problem.A_pos, dtype=bool)
    n_pos, n_cols = A.shape
    groups = feature_groups(A)
    full = int(np.minimum(A.sum(axis=0), n_pos - A.sum(axis=0))[:-1].sum()) * 2 + n_pos
    bins, memberships, firsts, n_bins = [], [], [], 0
    for group, ids in groups:
        n_patterns = int(ids.max(initial=-1)) + 1
        example = np.zeros(n_patterns, dtype=np.int64)
        example[ids] = np.arange(n_pos)  # a row of each pattern
        bins.append(A[example][:, group])
        memberships.append(n_bins + ids)
        firsts.append(n_bins)
        n_bins += n_patterns
    if n_pos * (len(groups) + 1) > BIN_GAIN * (full + n_pos):
        return None
    total_row, total_col = n_cols, n_pos + n_cols
    entries: list = []  # (row, column, value) blocks
    y = np.arange(n_pos)
    entries.append((np.full(n_pos, total_row), y, -np.ones(n_pos)))
    for membership in memberships:
        entries.append((n_cols + 1 + membership, y, -np.ones(n_pos)))
    bin_cols = total_col + 1 + np.arange(n_bins)
    entries.append((n_cols + 1 + np.arange(n_bins), bin_cols, np.ones(n_bins)))
    for (group, _), patterns, first in zip(groups, bins, firsts):
        for k, j in enumerate(group):
            ones, zeros = np.flatnonzero(patterns[:, k]), np.flatnonzero(~patterns[:, k])
            if len(ones) <= len(zeros) + 1:
                entries.append((np.full(len(ones), j), total_col + 1 + first + ones,
                                np.ones(len(ones))))
            else:
                entries.append((np.array([j]), np.array([total_col]), np.ones(1)))
                entries.append((np.full(len(zeros), j), total_col + 1 + first + zeros,
                                -np.ones(len(zeros))))
    entries.append((np.array([n_cols - 1, total_row]), np.array([total_col, total_col]),
                    np.ones(2)))  # the always-true feature holds every positive: T
    entries.append((np.arange(n_cols), n_pos + np.arange(n_cols), -np.ones(n_cols)))
    rows, columns, values = (np.concatenate(part) for part in zip(*entries))
    n_rows = n_cols + 1 + n_bins
    matrix = scipy.sparse.csc_matrix((values, (rows, columns)),
                                     shape=(n_rows, total_col + 1 + n_bins))
    matrix.sort_indices()
    cost = np.concatenate([-np.ones(n_pos), np.ones(n_cols), np.zeros(1 + n_bins)])
    lower = np.concatenate([np.zeros(n_pos + n_cols), np.full(1 + n_bins, -INF)])
    upper = np.concatenate([problem.w_pos, np.full(n_cols + 1 + n_bins, INF)])
    row_lower = np.append(np.full(n_cols, -INF), np.zeros(1 + n_bins))
    model = LinearProgram(cost, lower, upper, row_lower, np.zeros(n_rows), matrix.indptr,
                          matrix.indices, matrix.data, presolve=presolve)
    return model, model.basis_with(basic_columns=np.arange(total_col, total_col + 1 + n_bins),
                                   basic_rows=np.arange(n_cols))


SCREEN_TOLERANCE = 1e-9  # per positive row: HiGHS's dual feasibility tolerance (lp.py)


def positive_cover(problem: CNFProblem) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's covered positive weight ``sum_{i in P} c_i a_ij`` and count of ones."""
    A = problem.A_pos.astype(np.float64)
    return problem.w_pos @ A, A.sum(axis=0)


def screened_features(w_costs: np.ndarray, cover: np.ndarray, ones: np.ndarray) -> np.ndarray:
    """Features that are zero at every optimum of the clause LP (safe screening).

    ``w_costs`` are the LP's feature costs as solved: ``d_j`` = θ (or the
    disable cost) + the active negatives' weight + the tie-break cost. If
    ``d_j > sum_{i in P} c_i a_ij`` (the positive weight ``j`` covers), any
    feasible ``(w, xi)`` with ``w_j > 0`` is strictly improved by ``w_j := 0``,
    ``xi_i += a_ij w_j`` (still feasible; the cost changes by
    ``w_j (sum_i c_i a_ij - d_j) < 0``); so ``w_j = 0`` at every optimum, and
    fixing it at 0 leaves the LP's optimal set (and, with the tie-break, its
    one optimum) unchanged. In the dual: ``0 <= y_i <= c_i``, so its row
    ``j`` (reduced cost ``d_j - sum_i a_ij y_i > 0``) is never tight. Rounding
    reads ``w`` only, so it is unchanged too. Strict, with a margin of
    ``SCREEN_TOLERANCE`` per positive row the feature covers: a solver
    accepts ``y_i`` up to ``c_i`` + that tolerance, and ties are never screened.
    """
    return w_costs > cover + SCREEN_TOLERANCE * (1.0 + ones)


FORMULATIONS = ("auto", "primal", "dual", "sifted")
SIFT_MIN = 1_000  # "sifted" when both positives and features number at least this many


def choose_formulation(problem: CNFProblem, exact: bool = False) -> str:
    """The fastest formulation measured for the problem's shape (the MIP: always "primal").

    "dual" when positives outnumber features at least twice (MAGIC, Pima: a
    much smaller basis); "sifted" when both number ``SIFT_MIN`` or more
    (Musk, dense: there the full dual is slower than the primal, and the sifted
    dual :class:`SiftedDualLP` faster, with the same rules); else "primal".
    The timings behind these choices: see the docs, performance.
    """
    n_pos, n_cols = problem.A_pos.shape
    if exact:
        return "primal"
    if n_pos >= 2 * n_cols:
        return "dual"
    return "sifted" if min(n_pos, n_cols) >= SIFT_MIN else "primal"


@dataclass(frozen=True)
class KeptDualBasis:
    """A final basis of the full dual (:func:`dual_clause_model`) and the point it was
    optimal at: enough to tell whether it is still optimal at other feature costs.

    ``costs``: the feature costs (the dual's row bounds) it was solved for; ``columns`` /
    ``rows``: the basic columns and rows; ``x`` / ``activity``: their values there.
    """

    basis: object
    w: np.ndarray
    value: float
    costs: np.ndarray
    columns: np.ndarray
    rows: np.ndarray
    x: np.ndarray
    activity: np.ndarray


KEPT_TOLERANCE = 1e-10  # primal feasibility a kept basis must keep (tighter than HiGHS's 1e-9)


@dataclass(frozen=True)
class LPSolution:
    """An optimal ``w`` of the clause LP, the optimum, simplex iterations, the final basis."""

    w: np.ndarray
    value: float
    iterations: int
    basis: object = None


class _RestrictedDual:
    """A restricted dual model: some positives (columns ``y_i``) and some features (rows).

    Column 0 is the total ``T`` and row 0 is ``T - sum_i y_i = 0`` over the
    positives in the model; each feature row ``j`` has its ``u_j`` column.
    Positives and features are appended in any order (HiGHS keeps the basis:
    new columns nonbasic at 0, new rows with basic slacks).
    """

    def __init__(self):
        self.model = LinearProgram([0.0], [-INF], [INF], [0.0], [0.0], [0, 1], [0], [1.0])
        self.positives = np.zeros(0, dtype=np.int64)  # the positive of each y column
        self.y_columns = np.zeros(0, dtype=np.int64)
        self.features = np.zeros(0, dtype=np.int64)  # the feature of each row after row 0
        self.u_columns = np.zeros(0, dtype=np.int64)

    def canonical_basis(self, basis):
        """``basis`` with its columns in the order of a model rebuilt from
        (:attr:`positives`, :attr:`features`): ``T``, the ``y_i``, the ``u_j``."""
        order = np.concatenate([[0], self.y_columns, self.u_columns])
        status = list(basis.col_status)
        basis.col_status = [status[k] for k in order]
        return basis


class SiftedDualLP:
    """The clause LP's dual over growing subsets of the features and of the positives.

    The optimal ``w`` is sparse: of Musk's 3,243 features a few hundred enter
    an LP (column generation). Each feature is a row of the dual
    (:func:`dual_clause_model`); a restricted model holds only the rows added
    so far. After each solve its ``y`` prices every feature left out (the
    reduced cost in the clause LP, ``d_j - sum_i a_ij y_i``); the ``batch``
    most negative are added and the LP re-solved from its basis.

    With ``rows=True`` the positives are generated too (row generation in the
    clause LP, i.e. columns ``y_i`` of the dual): a positive left out is a
    clause-LP row dropped, ``y_i = 0``. After each solve the restricted ``w``
    is checked against every positive left out; those whose row
    ``sum_j a_ij w_j >= 1`` it violates (the ``row_batch`` most violated,
    weight times violation) enter the model, and the LP is re-solved from its
    basis. Dropping rows (and their ``xi_i``, of cost ``c_i >= 0``) only
    relaxes the LP, so when no row is violated the restricted ``w`` with
    ``xi_i = 0`` on the rows left out is feasible for the full LP at the
    restricted optimum's value: optimal, and (the tie-break making the optimum
    unique) the full LP's ``w``.

    The loop ends when no feature prices in and no positive is violated: then
    ``y`` (zero on the positives left out) is feasible for the full dual and
    ``w`` (zero on the features left out) for the full clause LP, at equal
    objectives. Every LP starts a new restricted model from the rows and basis
    kept from an earlier solve (``start``), or else, when ``carry``, from the
    features active (``w_j > 0``) and the positives binding (``y_i > 0``) at
    the last optimum, of whatever LP (the working sets carry across clauses,
    BCD/AM iterations and θ), plus the ``batch`` features priced lowest with
    ``y`` = the positives' weights (cost minus the weight they cover).
    """

    def __init__(self, problem: CNFProblem, batch: int = 50, carry: bool = True,
                 rows: bool = True, row_batch: int = 300):
        A = problem.A_pos
        self._n_pos, self._n_cols = A.shape
        self._bool = np.asarray(A, dtype=bool)
        self._by_feature = np.ascontiguousarray(self._bool.T)  # one feature's ones per row
        self._w_pos = problem.w_pos
        # each feature's dual row sums its own ones or, through the total, its complement's
        self._support, self._via_total = rows_via_total(A)
        self._sign = np.where(self._via_total, -1.0, 1.0)
        # pricing: sum_i a_ij y_i over the supports only (the sparser of a feature and its
        # complement), sparse and in double precision (costs reach thousands)
        supports, self._support_slot = np.unique(self._support, return_inverse=True)
        self._priced = scipy.sparse.csr_matrix(self._bool[:, supports], dtype=np.float64).T
        self._support_columns = self._priced.T.tocsc()  # positives x supports, by column
        self.batch = batch
        self.carry = carry
        self.rows = rows
        self.row_batch = row_batch
        self._last_features: np.ndarray | None = None  # active at the last optimum
        self._last_positives: np.ndarray | None = None  # binding at the last optimum
        self.n_rows_added = 0  # over every LP: features added to the restricted models
        self.n_positives_added = 0  # over every LP: positives added to them
        self.n_rounds = 0  # HiGHS runs over every LP
        self.total_iterations = 0

    def _add_positives(self, lp: _RestrictedDual, positives: np.ndarray) -> None:
        """Columns ``y_i``: -1 in row 0, ``a_ij`` (or ``-a_ik`` through the total) in the
        rows of the features in the model."""
        if len(positives) == 0:
            return
        model = lp.model
        block = self._bool[positives][:, self._support[lp.features]]
        samples, rows = np.nonzero(block)  # grouped by positive
        counts = np.bincount(samples, minlength=len(positives)) + 1
        ends = np.cumsum(counts)
        indices = np.empty(int(ends[-1]), dtype=np.int64)
        values = np.empty(int(ends[-1]))
        firsts = ends - counts
        indices[firsts], values[firsts] = 0, -1.0  # row 0 first, then the feature rows
        slots = np.ones(len(indices), dtype=bool)
        slots[firsts] = False
        indices[slots], values[slots] = rows + 1, self._sign[lp.features][rows]
        first = model.n_cols
        model.add_columns(-np.ones(len(positives)), np.zeros(len(positives)),
                          self._w_pos[positives], np.concatenate([[0], ends]), indices, values)
        lp.positives = np.concatenate([lp.positives, positives])
        lp.y_columns = np.concatenate([lp.y_columns, first + np.arange(len(positives))])
        self.n_positives_added += len(positives)

    def _add_features(self, lp: _RestrictedDual, features: np.ndarray, w_costs) -> None:
        """Rows ``sum_i a_ij y_i - u_j <= d_j`` over the positives in the model (as in
        :func:`dual_clause_model`, some through the total), and their ``u_j`` columns."""
        if len(features) == 0:  # no feature priced in (every one costs more than it covers)
            return
        model = lp.model
        first = model.n_rows
        via_total = self._via_total[features]
        block = self._by_feature[self._support[features]][:, lp.positives]
        block = np.concatenate([via_total[:, None], block], axis=1)  # T is column 0
        rows, slots = np.nonzero(block)  # grouped by feature
        columns = np.concatenate([[0], lp.y_columns])[slots]
        values = np.where(slots == 0, 1.0, self._sign[features][rows])
        counts = np.bincount(rows, minlength=len(features))
        model.add_rows(np.full(len(features), -INF), w_costs[features],
                       np.concatenate([[0], np.cumsum(counts)]), columns, values)
        k = len(features)
        u_first = model.n_cols
        model.add_columns(np.ones(k), np.zeros(k), np.full(k, INF), np.arange(k + 1),
                          first + np.arange(k), -np.ones(k))
        lp.features = np.concatenate([lp.features, features])
        lp.u_columns = np.concatenate([lp.u_columns, u_first + np.arange(k)])
        self.n_rows_added += k

    def _most_negative(self, w_costs, y, in_model, screened=None):
        """Up to ``batch`` features left out with a negative reduced cost, most negative first;
        ``y`` is given on the positives ``y[0]`` with values ``y[1]``."""
        positives, values = y
        full = np.zeros(self._n_pos)
        full[positives] = values
        sums = (self._priced @ full)[self._support_slot]
        covered = np.where(self._via_total, full.sum() - sums, sums)  # sum_i a_ij y_i
        reduced = w_costs - covered
        reduced[in_model] = np.inf
        if screened is not None:
            reduced[screened] = np.inf
        candidates = np.flatnonzero(reduced < -1e-9)
        return candidates[np.argsort(reduced[candidates], kind="stable")[: self.batch]]

    def _most_violated(self, w, in_model):
        """Up to ``row_batch`` positives left out whose clause-LP row ``w`` violates, the
        largest weighted violation first."""
        live = np.flatnonzero(w > 0)
        # sum_j a_ij w_j; a feature through the total is 1 - (its complement)
        columns = self._support_columns[:, self._support_slot[live]]
        covered = columns @ (self._sign[live] * w[live]) + w[live][self._via_total[live]].sum()
        violation = 1.0 - covered
        violation[in_model] = -np.inf
        candidates = np.flatnonzero(violation > 1e-9)
        order = np.argsort(-(self._w_pos[candidates] * violation[candidates]), kind="stable")
        return candidates[order[: self.row_batch]]

    def solve(self, w_costs: np.ndarray, warm: bool = False, start=None,
              screened: np.ndarray | None = None) -> LPSolution:
        """As :meth:`ClauseLP.solve`; ``start`` is the ``basis`` of an earlier solution.

        ``warm`` is ignored: every LP is a new restricted model, so there is no
        last basis to start from (only a kept one, ``start``). ``screened``
        features are never priced in (their reduced cost is positive for every
        ``y`` of the restricted dual anyway: see :func:`screened_features`).
        """
        lp = _RestrictedDual()
        all_positives = np.arange(self._n_pos)
        basis = None
        if start is not None:
            kept_positives, kept_features, basis = start
            self._add_positives(lp, kept_positives)
            self._add_features(lp, kept_features, w_costs)
        else:
            if not self.rows:
                positives = all_positives
            elif self.carry and self._last_positives is not None:
                positives = self._last_positives
            else:  # every row is violated at w = 0: the heaviest first
                positives = np.argsort(-self._w_pos, kind="stable")[: self.row_batch]
            self._add_positives(lp, positives)
            if self.carry and self._last_features is not None:
                carried = self._last_features
                if screened is not None:
                    carried = carried[~screened[carried]]
                self._add_features(lp, carried, w_costs)
            self._add_features(lp, self._most_negative(w_costs, (all_positives, self._w_pos),
                                                       lp.features, screened), w_costs)
        warm = False  # the first solve: from ``basis`` if kept, else from scratch
        while True:
            result = lp.model.solve(warm=warm, start=basis)
            self.n_rounds += 1
            x = np.asarray(result.x)
            w = np.zeros(self._n_cols)
            w[lp.features] = np.clip(-np.asarray(result.row_dual)[1:], 0.0, 1.0)
            y = (lp.positives, x[lp.y_columns])
            new_features = self._most_negative(w_costs, y, lp.features, screened)
            new_positives = (self._most_violated(w, lp.positives) if self.rows
                             else np.zeros(0, dtype=np.int64))
            if len(new_features) == 0 and len(new_positives) == 0:
                break
            self._add_positives(lp, new_positives)
            self._add_features(lp, new_features, w_costs)
            warm, basis = True, None  # on from the last basis (new rows' slacks basic)
        self.total_iterations += lp.model.total_iterations
        self._last_features = lp.features[w[lp.features] > 0]
        self._last_positives = y[0][y[1] > 0]
        kept = (lp.positives, lp.features, lp.canonical_basis(result.basis))
        return LPSolution(w, -result.objective, lp.model.total_iterations, kept)


class ClauseLP:
    """The clause LP in one of its formulations; ``solve(costs)`` gives ``w``."""

    def __init__(self, problem: CNFProblem, formulation: str = "auto", exact: bool = False,
                 time_limit: float | None = None, presolve: bool = False, carry: bool = True,
                 row_generation: bool = True):
        if formulation not in FORMULATIONS:
            raise ParameterError(f"formulation must be one of {FORMULATIONS}, got {formulation!r}")
        if formulation == "auto":
            formulation = choose_formulation(problem, exact)
        if exact and formulation != "primal":
            raise ParameterError("the exact (MIP) clause solver needs the primal formulation")
        self.formulation = formulation
        self.problem = problem
        self._n_cols = problem.A_pos.shape[1]
        self._n_pos = problem.A_pos.shape[0]
        self.n_solves = 0  # clause LPs solved (a sifted one may take several HiGHS runs)
        self.n_still_optimal = 0  # full dual: LPs answered by a kept basis, without HiGHS
        self._fixed = np.zeros(self._n_cols, dtype=bool)  # primal: w_j fixed at 0 (screened)
        self.sifted = (SiftedDualLP(problem, carry=carry, rows=row_generation)
                        if formulation == "sifted" else None)
        self.model: LinearProgram | None
        self._crash: object = None  # binned full dual: the basis cold solves start from
        if self.sifted is not None:
            self.model = None  # a new restricted model per LP
        elif formulation == "dual":
            binned = binned_dual_clause_model(problem, presolve)
            self.model, self._crash = ((dual_clause_model(problem, presolve), None)
                                       if binned is None else binned)
            self._row_lower = np.append(np.full(self._n_cols, -INF),
                                        np.zeros(self.model.n_rows - self._n_cols))
            lp = self.model.highs_lp()
            self._matrix = scipy.sparse.csc_matrix(
                (np.asarray(lp.a_matrix_.value_), np.asarray(lp.a_matrix_.index_),
                 np.asarray(lp.a_matrix_.start_)), shape=(self.model.n_rows, self.model.n_cols))
            self._dual_cost = np.asarray(lp.col_cost_, dtype=np.float64)
            self._dual_lower = np.asarray(lp.col_lower_, dtype=np.float64)
            self._dual_upper = np.asarray(lp.col_upper_, dtype=np.float64)
        else:
            self.model = clause_model(problem, exact, time_limit, presolve)

    @property
    def total_iterations(self) -> int:
        """Simplex iterations of every HiGHS run so far (stalled warm starts included)."""
        if self.sifted is not None:
            return self.sifted.total_iterations
        assert self.model is not None
        return self.model.total_iterations

    def solve(self, w_costs: np.ndarray, warm: bool = False, start=None,
              screened: np.ndarray | None = None) -> LPSolution:
        """The optimum for the feature costs ``w_costs``.

        ``start``: a basis kept from an earlier solve (``LPSolution.basis``)
        to start from; otherwise from scratch, or from the last basis if ``warm``.
        ``screened``: features known to be 0 at the optimum
        (:func:`screened_features`), left out of the LP: fixed at 0 in the
        primal, never priced in by the sifted dual; the full dual keeps their
        rows (never tight at its optimum; removing them would rebuild the model).
        """
        self.n_solves += 1
        if self.sifted is not None:
            return self.sifted.solve(w_costs, warm, start, screened)
        assert self.model is not None
        if self.formulation == "primal":
            fixed = np.zeros(self._n_cols, dtype=bool) if screened is None else screened
            changed = np.flatnonzero(fixed != self._fixed)
            if len(changed):
                self.model.set_column_bounds(changed, np.zeros(len(changed)),
                                             np.where(fixed[changed], 0.0, 1.0))
                self._fixed = fixed.copy()
        if self.formulation == "dual":
            if isinstance(start, KeptDualBasis):
                kept = self._still_optimal(start, w_costs)
                if kept is not None:
                    self.n_still_optimal += 1
                    return LPSolution(kept.w, kept.value, 0, kept)
                start = start.basis
            self.model.set_row_bounds(self._row_lower, self._row_upper(w_costs))
            if start is None and not warm and self._crash is not None:
                start = self._crash  # the binned dual: from T and the bins basic
        else:
            self.model.set_costs(np.concatenate([w_costs, self.problem.w_pos]))
        result = self.model.solve(warm=warm, start=start)
        if self.formulation == "dual":
            w = np.clip(-np.asarray(result.row_dual)[: self._n_cols], 0.0, 1.0)
            columns, rows = self.model.basic_variables()
            assert result.row_value is not None
            kept = KeptDualBasis(result.basis, w, -result.objective,
                                 np.array(w_costs, dtype=np.float64), columns, rows,
                                 np.asarray(result.x)[columns], result.row_value[rows])
            return LPSolution(w, -result.objective, result.iterations, kept)
        return LPSolution(result.x[: self._n_cols], result.objective, result.iterations,
                          result.basis)

    def _row_upper(self, w_costs: np.ndarray) -> np.ndarray:
        """The full dual's row upper bounds: the feature costs, then zeros (the total's and
        the bins' equality rows)."""
        assert self.model is not None
        return np.append(np.asarray(w_costs, dtype=np.float64),
                         np.zeros(self.model.n_rows - self._n_cols))

    def _still_optimal(self, kept: KeptDualBasis, w_costs: np.ndarray) -> KeptDualBasis | None:
        """``kept`` at the feature costs ``w_costs``, if its basis is still optimal there.

        In the full dual the feature costs are row bounds only: the objective and so the
        row duals (the clause LP's ``w``) of a basis do not depend on them, and a basis
        optimal at other costs stays dual feasible. It is optimal at ``w_costs`` if it is
        primal feasible there: the nonbasic rows (at their bounds) move by the change in
        cost, the basic columns by the solution of that square system, and every basic
        column and row must stay within its bounds (:data:`KEPT_TOLERANCE`). Then ``w``
        is the kept one, as HiGHS would return it from that basis without an iteration
        (on a θ path most LPs at small θ). ``None``: not (or the system is singular).
        """
        costs = np.asarray(w_costs, dtype=np.float64)
        assert self.model is not None
        n_rows = self.model.n_rows
        nonbasic = np.ones(n_rows, dtype=bool)
        nonbasic[kept.rows] = False
        change = np.append(costs - kept.costs, np.zeros(n_rows - self._n_cols))
        block = self._matrix[:, kept.columns].toarray()
        try:
            step = np.linalg.solve(block[nonbasic], change[nonbasic])
        except np.linalg.LinAlgError:
            return None
        x = kept.x + step
        if (np.any(x < self._dual_lower[kept.columns] - KEPT_TOLERANCE)
                or np.any(x > self._dual_upper[kept.columns] + KEPT_TOLERANCE)):
            return None
        activity = kept.activity + block[kept.rows] @ step
        upper = self._row_upper(costs)[kept.rows]
        lower = self._row_lower[kept.rows]
        scale = KEPT_TOLERANCE * np.maximum(1.0, np.abs(upper))
        if np.any(activity > upper + scale) or np.any(activity < lower - KEPT_TOLERANCE):
            return None
        value = kept.value - float(self._dual_cost[kept.columns] @ step)
        return KeptDualBasis(kept.basis, kept.w, value, costs.copy(), kept.columns, kept.rows,
                             x, activity)
