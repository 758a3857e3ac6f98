"""The LP core, and the only module that imports highspy.

A :class:`LinearProgram` is built once, in one ``passModel`` call, from
column-wise (CSC) numpy arrays. When only the column costs or the row bounds
change (another clause, another BCD/AM iteration, another θ)
:meth:`LinearProgram.set_costs` and :meth:`LinearProgram.set_row_bounds` keep
the HiGHS object, so nothing is rebuilt. :meth:`~LinearProgram.solve` starts
from scratch, from the kept basis, or from a basis kept from an earlier solve;
which one the learners use is said in :class:`rulelearn.learners.clause.ClauseSolver`.
A :class:`MixedIntegerProgram` is a MIP kept the same way whose runs may stop at a
limit: it reports HiGHS's proven dual bound (the pricing and master MIPs of
:mod:`rulelearn.colgen`).
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass

import highspy
import numpy as np

from rulelearn.errors import ParameterError, SolverError

INF = highspy.kHighsInf
log = logging.getLogger(__name__)
_banner_shown = False


def new_highs() -> highspy.Highs:
    """A silent HiGHS object with HiGHS's own thread setting.

    The ``threads`` option is left alone: HiGHS starts one thread scheduler
    per process at its first solve, and a later model that asks for another
    thread count is refused. So rulelearn runs after (or before) any other
    user of HiGHS in the same process. The simplex is serial either way.

    HiGHS prints its banner once per process, from the constructor, before any
    option can be set; the first construction therefore runs with the process's
    standard output pointed at /dev/null.
    """
    global _banner_shown
    if _banner_shown:
        highs = highspy.Highs()
    else:
        if sys.stdout is not None:  # None: the process started with descriptor 1 closed
            try:
                sys.stdout.flush()
            except (OSError, ValueError):  # closed or broken: nothing of ours to keep
                pass
        try:
            saved = os.dup(1)
        except OSError:  # descriptor 1 closed: the banner goes nowhere anyway
            saved = None
        try:
            with open(os.devnull, "w") as devnull:
                if saved is not None:
                    os.dup2(devnull.fileno(), 1)
                highs = highspy.Highs()
        finally:
            if saved is not None:
                os.dup2(saved, 1)
                os.close(saved)
        _banner_shown = True
    # Tighter than HiGHS's 1e-7 feasibility tolerances, so that the clause LPs'
    # tie-break costs (1e-5 scale) decide ties the same way on every solve path.
    for option, value in (("output_flag", False), ("random_seed", 0),
                          ("primal_feasibility_tolerance", 1e-9),
                          ("dual_feasibility_tolerance", 1e-9)):
        highs.setOptionValue(option, value)
    return highs


@dataclass(frozen=True)
class LPResult:
    """The outcome of one solve: column values, objective, simplex iterations."""

    x: np.ndarray
    objective: float
    iterations: int
    status: str  # "optimal", or "time limit" for a MIP stopped with a feasible solution
    row_dual: np.ndarray | None = None  # the rows' dual values (LPs only)
    row_value: np.ndarray | None = None  # the rows' activities ``A x`` (LPs only)
    basis: object = None  # the final simplex basis (LPs only), for ``solve(start=...)``


class LinearProgram:
    """``min cost @ x`` s.t. ``row_lower <= A x <= row_upper``, ``lower <= x <= upper``.

    ``A`` is given in CSC form (``indptr``, ``indices``, ``values``) with
    ``len(cost)`` columns and ``n_rows`` rows. ``integer`` marks integer columns
    (a MIP, solved with ``time_limit`` seconds at most). LPs skip HiGHS's
    presolve unless ``presolve=True`` (MIPs always use it).
    """

    def __init__(self, cost, lower, upper, row_lower, row_upper, indptr, indices, values,
                 *, integer=None, time_limit=None, presolve=False):
        cost = np.asarray(cost, dtype=np.float64)
        self.n_cols = len(cost)
        self.n_rows = len(row_lower)
        self.is_mip = integer is not None and bool(np.any(integer))
        self.n_solves = 0
        self.total_iterations = 0
        self.n_fallbacks = 0  # warm re-solves that stalled and were redone cold
        self._highs = new_highs()
        if time_limit is not None:
            self._highs.setOptionValue("time_limit", float(time_limit))
        lp = highspy.HighsLp()
        lp.num_col_ = self.n_cols
        lp.num_row_ = self.n_rows
        lp.col_cost_ = cost
        lp.col_lower_ = np.asarray(lower, dtype=np.float64)
        lp.col_upper_ = np.asarray(upper, dtype=np.float64)
        lp.row_lower_ = np.asarray(row_lower, dtype=np.float64)
        lp.row_upper_ = np.asarray(row_upper, dtype=np.float64)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.asarray(indptr, dtype=np.int32)
        lp.a_matrix_.index_ = np.asarray(indices, dtype=np.int32)
        lp.a_matrix_.value_ = np.asarray(values, dtype=np.float64)
        self._presolve = "choose" if (self.is_mip or presolve) else "off"
        self._highs.setOptionValue("presolve", self._presolve)  # off: measured faster here
        self._rescuing = False
        if self.is_mip:
            kinds = highspy.HighsVarType
            lp.integrality_ = [kinds.kInteger if flag else kinds.kContinuous for flag in integer]
        status = self._highs.passModel(lp)
        if status == highspy.HighsStatus.kError:
            raise SolverError(f"HiGHS rejected the model ({self._size()})")
        self._all_columns = np.arange(self.n_cols, dtype=np.int32)

    def _size(self) -> str:
        return f"{self.n_rows} rows x {self.n_cols} columns"

    def set_costs(self, cost) -> None:
        """Replace every column cost; the basis is kept for a warm re-solve."""
        cost = np.asarray(cost, dtype=np.float64)
        if cost.shape != (self.n_cols,):
            raise ParameterError(f"expected {self.n_cols} costs, got shape {cost.shape}")
        self._highs.changeColsCost(self.n_cols, self._all_columns, cost)

    def set_row_bounds(self, row_lower, row_upper) -> None:
        """Replace every row's bounds; the basis is kept for a warm re-solve."""
        lower = np.asarray(row_lower, dtype=np.float64)
        upper = np.asarray(row_upper, dtype=np.float64)
        if lower.shape != (self.n_rows,) or upper.shape != (self.n_rows,):
            raise ParameterError(f"expected {self.n_rows} row bounds, got shapes {lower.shape} "
                             f"and {upper.shape}")
        self._highs.changeRowsBounds(  # type: ignore[attr-defined]  # not in highspy's stubs
            self.n_rows, np.arange(self.n_rows, dtype=np.int32), lower, upper)

    def set_column_bounds(self, columns, lower, upper) -> None:
        """Replace the bounds of ``columns``; the basis is kept for a warm re-solve."""
        columns = np.asarray(columns, dtype=np.int32)
        self._highs.changeColsBounds(len(columns), columns, np.asarray(lower, dtype=np.float64),
                                     np.asarray(upper, dtype=np.float64))

    def highs_lp(self):
        """The model as HiGHS holds it (``highspy.HighsLp``: matrix, costs, bounds)."""
        return self._highs.getLp()

    def add_rows(self, lower, upper, indptr, indices, values) -> None:
        """Append rows given in CSR form; the basis is kept (the new rows' slacks basic)."""
        lower = np.asarray(lower, dtype=np.float64)
        self._highs.addRows(len(lower), lower, np.asarray(upper, dtype=np.float64),
                            len(indices), np.asarray(indptr[:-1], dtype=np.int32),
                            np.asarray(indices, dtype=np.int32),
                            np.asarray(values, dtype=np.float64))
        self.n_rows += len(lower)

    def add_columns(self, cost, lower, upper, indptr, indices, values) -> None:
        """Append columns given in CSC form; the basis is kept (the new columns nonbasic)."""
        cost = np.asarray(cost, dtype=np.float64)
        self._highs.addCols(len(cost), cost, np.asarray(lower, dtype=np.float64),
                            np.asarray(upper, dtype=np.float64), len(indices),
                            np.asarray(indptr[:-1], dtype=np.int32),
                            np.asarray(indices, dtype=np.int32),
                            np.asarray(values, dtype=np.float64))
        self.n_cols += len(cost)
        self._all_columns = np.arange(self.n_cols, dtype=np.int32)

    def solve(self, warm: bool = True, start=None) -> LPResult:
        """Solve and raise :class:`SolverError` unless optimal.

        ``warm=True`` re-solves from the kept basis. If that stalls (HiGHS's
        primal simplex can cycle on these degenerate LPs), it stops at an
        iteration limit and the LP is solved again from scratch.
        ``warm=False`` always starts from scratch (from the slack basis), so the
        answer depends on the LP only, never on what was solved before.
        ``start``, a basis from an earlier :class:`LPResult` of this model, is
        where a warm solve starts (with the same fallback).
        """
        if start is not None and not self.is_mip:
            warm = True
            self._highs.setBasis(start)
        elif not warm:
            self._highs.clearSolver()
        limit = 10 * (self.n_rows + self.n_cols) + 1000 if warm and not self.is_mip else None
        self._highs.setOptionValue("simplex_iteration_limit", limit or 2**31 - 1)
        run_status = self._highs.run()
        model_status = self._highs.getModelStatus()
        if limit and model_status == highspy.HighsModelStatus.kIterationLimit:
            self.n_fallbacks += 1
            self.total_iterations += max(int(self._highs.getInfo().simplex_iteration_count), 0)
            log.debug("warm re-solve of an LP of %s stalled at %d iterations; solving it again "
                      "from scratch", self._size(), limit)
            return self.solve(warm=False)
        if model_status == highspy.HighsModelStatus.kNotset:
            raise SolverError(f"HiGHS did not start on an LP of {self._size()} (model status "
                              f"'Not Set'): an option set in this process conflicts with it")
        if (model_status != highspy.HighsModelStatus.kOptimal and not self.is_mip
                and not self._rescuing):
            return self._rescue(model_status)
        info = self._highs.getInfo()
        iterations = int(info.simplex_iteration_count)
        if self.is_mip:
            iterations = int(info.mip_node_count) + max(iterations, 0)
        self.n_solves += 1
        self.total_iterations += max(iterations, 0)
        optimal = model_status == highspy.HighsModelStatus.kOptimal
        timed_out = (model_status == highspy.HighsModelStatus.kTimeLimit and self.is_mip
                     and info.primal_solution_status == highspy.kSolutionStatusFeasible)
        if run_status == highspy.HighsStatus.kError or not (optimal or timed_out):
            raise SolverError(f"HiGHS stopped with model status "
                              f"'{self._highs.modelStatusToString(model_status)}' on an LP of "
                              f"{self._size()}")
        solution = self._highs.getSolution()
        x = np.array(solution.col_value, dtype=np.float64)
        row_dual = None if self.is_mip else np.array(solution.row_dual, dtype=np.float64)
        row_value = None if self.is_mip else np.array(solution.row_value, dtype=np.float64)
        basis = None if self.is_mip else self._highs.getBasis()
        return LPResult(x=x, objective=float(info.objective_function_value),
                        iterations=max(iterations, 0),
                        status="optimal" if optimal else "time limit", row_dual=row_dual,
                        row_value=row_value, basis=basis)

    def basis_with(self, basic_columns, basic_rows):
        """A basis of this model for ``solve(start=...)``: ``basic_columns`` and ``basic_rows``
        (their slacks) basic, every other column and row nonbasic at its lower bound (they
        must number the rows together, and those columns with those rows' slacks must make a
        nonsingular basis matrix)."""
        status = highspy.HighsBasisStatus
        basis = highspy.HighsBasis()
        columns = np.full(self.n_cols, status.kLower)
        columns[np.asarray(basic_columns, dtype=np.int64)] = status.kBasic
        rows = np.full(self.n_rows, status.kLower)
        rows[np.asarray(basic_rows, dtype=np.int64)] = status.kBasic
        if np.count_nonzero(columns == status.kBasic) + np.count_nonzero(
                rows == status.kBasic) != self.n_rows:
            raise ParameterError(f"a basis of an LP of {self._size()} needs {self.n_rows} "
                                 f"basic variables")
        basis.col_status = list(columns)
        basis.row_status = list(rows)
        basis.valid = True
        return basis

    def basic_variables(self) -> tuple[np.ndarray, np.ndarray]:
        """The basic columns and the basic rows (slacks) of the last solve's final basis."""
        basic = np.asarray(self._highs.getBasicVariables()[1],  # type: ignore[attr-defined]
                           dtype=np.int64)
        return np.sort(basic[basic >= 0]), np.sort(-1 - basic[basic < 0])

    def _rescue(self, model_status) -> LPResult:
        """Solve again from scratch with presolve, then with the interior-point method.

        Seen here: with presolve off, HiGHS's simplex occasionally ends an
        ionosphere clause LP with model status 'Unknown'.
        """
        self.n_fallbacks += 1
        self._rescuing = True
        status = self._highs.modelStatusToString(model_status)
        try:
            for option, value, default in (("presolve", "on", self._presolve),
                                           ("solver", "ipm", "choose")):
                log.info("HiGHS ended an LP of %s with model status '%s'; solving it again "
                         "with %s=%s", self._size(), status, option, value)
                self._highs.setOptionValue(option, value)
                try:
                    return self.solve(warm=False)
                except SolverError:
                    continue
                finally:
                    self._highs.setOptionValue(option, default)
        finally:
            self._rescuing = False
        raise SolverError(f"HiGHS stopped with model status '{status}' on an LP of "
                          f"{self._size()}, also when solved again with presolve and with IPM")


#: How a HiGHS MIP run can end with a proven dual bound: optimal, or stopped at a limit (time,
#: nodes, solutions) or by an interrupt. After any other ending the bound is not trusted.
_BOUNDED_ENDINGS = (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit,
                    highspy.HighsModelStatus.kIterationLimit,
                    highspy.HighsModelStatus.kSolutionLimit, highspy.HighsModelStatus.kInterrupt)


@dataclass(frozen=True)
class MIPRun:
    """How one :meth:`MixedIntegerProgram.run` ended.

    ``bounded``: HiGHS proved ``dual_bound`` (it finished, or stopped at a limit); otherwise
    ``dual_bound`` is −inf (so too when HiGHS's is not finite). ``x``: the best solution found
    (None when there is none). ``status``: HiGHS's name of the model status.
    """

    optimal: bool
    timed_out: bool
    bounded: bool
    dual_bound: float
    x: np.ndarray | None
    status: str


class MixedIntegerProgram:
    """``min cost @ x`` s.t. ``row_lower <= A x <= row_upper``, ``lower <= x <= upper``, the
    ``integer`` columns integral: a HiGHS MIP built once (``A`` column-wise, as
    :class:`LinearProgram` takes it), whose costs, rows, integrality and options change
    between runs, for the dual bound and the stopped runs that :class:`LinearProgram`
    does not report. ``options``: HiGHS options set before the model is passed; ``what``
    names the model in errors.
    """

    def __init__(self, cost, lower, upper, row_lower, row_upper, indptr, indices, values,
                 integer, *, options=None, what: str = "MIP"):
        cost = np.asarray(cost, dtype=np.float64)
        self.n_cols = len(cost)
        self.what = what
        self._highs = new_highs()
        for option, value in (options or {}).items():
            self._highs.setOptionValue(option, value)
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = self.n_cols, len(row_lower)
        lp.col_cost_ = cost
        lp.col_lower_ = np.asarray(lower, dtype=np.float64)
        lp.col_upper_ = np.asarray(upper, dtype=np.float64)
        lp.row_lower_ = np.asarray(row_lower, dtype=np.float64)
        lp.row_upper_ = np.asarray(row_upper, dtype=np.float64)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.asarray(indptr, dtype=np.int32)
        lp.a_matrix_.index_ = np.asarray(indices, dtype=np.int32)
        lp.a_matrix_.value_ = np.asarray(values, dtype=np.float64)
        kinds = highspy.HighsVarType
        lp.integrality_ = [kinds.kInteger if flag else kinds.kContinuous for flag in integer]
        if self._highs.passModel(lp) == highspy.HighsStatus.kError:
            raise SolverError(f"HiGHS rejected the {what} ({len(row_lower)} rows x "
                              f"{self.n_cols} columns)")
        self._all_columns = np.arange(self.n_cols, dtype=np.int32)

    def set_options(self, **options) -> None:
        """Set HiGHS options for the next runs (``time_limit``, ``presolve``, ...)."""
        for option, value in options.items():
            self._highs.setOptionValue(option, value)

    def option(self, name: str):
        """The value of a HiGHS option."""
        return self._highs.getOptionValue(name)[1]

    def set_costs(self, cost) -> None:
        """Replace every column cost."""
        self._highs.changeColsCost(self.n_cols, self._all_columns,
                                   np.asarray(cost, dtype=np.float64))

    def add_rows(self, lower, upper, indptr, indices, values) -> None:
        """Append rows given in CSR form."""
        lower = np.asarray(lower, dtype=np.float64)
        self._highs.addRows(len(lower), lower, np.asarray(upper, dtype=np.float64),
                            len(indices), np.asarray(indptr[:-1], dtype=np.int32),
                            np.asarray(indices, dtype=np.int32),
                            np.asarray(values, dtype=np.float64))

    def set_integer(self, columns, integer: bool) -> None:
        """Make ``columns`` integer, or continuous (the LP relaxation over them)."""
        kinds = highspy.HighsVarType
        columns = np.asarray(columns, dtype=np.int32)
        kind = kinds.kInteger if integer else kinds.kContinuous
        self._highs.changeColsIntegrality(len(columns), columns,
                                          np.array([kind] * len(columns)))

    def run(self, *, clear: bool = False) -> MIPRun:
        """Run HiGHS (from scratch when ``clear``; else it may reuse what the last run left)
        and say how it ended; a :class:`SolverError` if it did not start."""
        if clear:
            self._highs.clearSolver()
        self._highs.run()
        status = self._highs.getModelStatus()
        if status == highspy.HighsModelStatus.kNotset:
            raise SolverError(f"HiGHS did not start on the {self.what} (model status 'Not "
                              f"Set'): an option set in this process conflicts with it")
        info = self._highs.getInfo()
        bounded = status in _BOUNDED_ENDINGS
        dual = float(info.mip_dual_bound) if bounded else -np.inf
        x = None
        if info.primal_solution_status == highspy.kSolutionStatusFeasible:
            x = np.asarray(self._highs.getSolution().col_value, dtype=np.float64)
        return MIPRun(optimal=status == highspy.HighsModelStatus.kOptimal,
                      timed_out=status == highspy.HighsModelStatus.kTimeLimit,
                      bounded=bounded, dual_bound=dual if np.isfinite(dual) else -np.inf,
                      x=x, status=self._highs.modelStatusToString(status))
