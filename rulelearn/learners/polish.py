"""Local search on a learned CNF rule: single-literal moves while they lower the objective.

The descents let an LP propose each clause and a rounding pick its literals; no step tries one
literal at a time on the integer rule. :func:`polish` does, on the paper's objective
(:func:`~rulelearn.learners.problem.cnf_objective`). Its moves on a rule ``W``:

- add one literal to an enabled clause;
- drop one literal of a clause of two or more (a clause is never left empty);
- swap one literal of a clause for one it lacks (a disabled clause: enable it with one literal);
- disable a clause.

Each round scores every move exactly and applies the best (the first of equal ones), while it
lowers the objective by more than 1e-9, so the result is never worse than ``W`` and a tie keeps
``W``. One round is two matrix products: for each clause and each literal it holds (or none),
the clause without that literal is a *base*, and the objective of the base plus any literal j
is linear in column j of the positives and of the negatives (per-row counts of the selected
literals; see :func:`move_values`). The chosen move is checked by recomputing the objective.
DNF is handled by the caller, as for the learners: the problem is then the CNF of the other
class over the complemented literals.
"""

from __future__ import annotations

import numpy as np

from rulelearn.learners.problem import BLOCK_ABOVE, CNFProblem, cnf_objective, count_matrix
from rulelearn.learners.result import LearnResult

#: A move must lower the objective by more than this.
TOLERANCE = 1e-9
_BLOCK_ROWS = 32_768


def polish(problem: CNFProblem, W, theta: float, disable_cost: float = 0.0) -> LearnResult:
    """``W`` after best-improvement single-literal moves (see the module), until none helps.

    Returns the rule, its objective, the number of moves made (``n_iter``) and the objective
    after each (``history``, the input's first).
    """
    W = np.array(W, dtype=bool)
    objective = cnf_objective(problem, W, theta, disable_cost)
    history = [objective]
    doubles = tuple(None if A.size > BLOCK_ABOVE else A.astype(np.float64)
                    for A in (problem.A_pos, problem.A_neg))
    while True:
        move = best_move(problem, W, theta, disable_cost, doubles)
        if move is None or move[0] >= objective - TOLERANCE:
            break
        trial = move[1]
        value = cnf_objective(problem, trial, theta, disable_cost)
        if value >= objective - TOLERANCE:  # a rounding slip in the scores: stop, never worse
            break
        W, objective = trial, value
        history.append(objective)
    return LearnResult(W, objective, n_iter=len(history) - 1, history=history)


def best_move(problem: CNFProblem, W: np.ndarray, theta: float, disable_cost: float = 0.0,
              doubles=(None, None)):
    """``(objective, rule)`` of the best single move from ``W`` (ties: the first in the order
    of :func:`move_values`), or None if there is no move. ``doubles``: ``A_pos`` and ``A_neg``
    in double precision, if at hand."""
    table, slots = move_table(problem, W, theta, disable_cost, doubles)
    if not np.isfinite(table).any():
        return None
    best = int(np.argmin(table))
    return float(table.flat[best]), apply_move(W, _move(slots, best, table.shape[1]))


def apply_move(W: np.ndarray, move: tuple) -> np.ndarray:
    """``W`` after ``move``: ``(r, k, j)`` takes literal k out of clause r (None: none) and puts
    j in (None: none); ``(r, "disable")`` makes clause r the disabled clause."""
    trial = W.copy()
    if move[1] == "disable":
        trial[move[0]] = False
        trial[move[0], -1] = True
        return trial
    r, k, j = move
    if k is not None:
        trial[r, k] = False
    if j is not None:
        trial[r, j] = True
    return trial


def move_values(problem: CNFProblem, W: np.ndarray, theta: float, disable_cost: float = 0.0,
                doubles=(None, None)) -> tuple[np.ndarray, list]:
    """The objective after each single move from ``W``, and the moves (see :func:`apply_move`),
    in the order ties are broken (:func:`move_table`'s, row by row)."""
    table, slots = move_table(problem, W, theta, disable_cost, doubles)
    where = np.flatnonzero(np.isfinite(table.ravel()))
    return table.ravel()[where], [_move(slots, int(i), table.shape[1]) for i in where]


def _move(slots: list, index: int, width: int) -> tuple:
    """The move at flat ``index`` of a :func:`move_table` of ``width`` columns."""
    slot, column = divmod(index, width)
    r, k = slots[slot]
    if k == "disable":
        return (r, "disable")
    return (r, k, None if column == 0 else column - 1)


def move_table(problem: CNFProblem, W: np.ndarray, theta: float, disable_cost: float = 0.0,
               doubles=(None, None)) -> tuple[np.ndarray, list]:
    """Every single move's objective: one row per slot, first ``(r, "disable")`` for each clause
    r (column 0: disable it), then each base ``(r, k)``, clause r without literal k (None: the
    clause itself; column 0: drop k, column 1 + j: add literal j); inf where there is no move.

    With ``P``, ``N`` the per-row counts of clause r's literals on the positives and the
    negatives, and ``m`` each negative's smallest count over the other clauses, the clause
    ``B + {j}`` (base ``B``) costs the positives ``w_pos . [P_B = 0 and a_j = 0]`` and the
    negatives ``w_neg . min(N_B + a_j, m) = w_neg . min(N_B, m) + (w_neg [N_B < m]) . a_j``:
    one product with each side's matrix gives every j for every base at once.
    """
    W = np.asarray(W, dtype=bool)
    R, width = W.shape
    d = width - 1
    pos_by_feature, neg_by_feature = problem.by_feature
    P = count_matrix(problem.A_pos, W, pos_by_feature)
    N = count_matrix(problem.A_neg, W, neg_by_feature)
    cost = np.full(width, float(theta))
    cost[-1] = float(disable_cost)
    clause_cost = W.astype(np.float64) @ cost
    unsat = problem.w_pos @ (P == 0)  # per clause, the positive weight it fails
    others_pos = float(unsat.sum()) - unsat
    disabled_rows = [r for r in range(R) if W[r, -1] and W[r].sum() == 1]
    disables: list[tuple] = []  # (r, "disable") and its objective
    bases: list[tuple] = []  # (r, k), the objective of the base alone, and whether a drop
    pos_cols, neg_cols = [], []
    for r in range(R):
        m = (np.delete(N, r, axis=1).min(axis=1) if R > 1 else np.full(len(N), np.inf))
        rest = float(clause_cost.sum() - clause_cost[r])
        held = np.flatnonzero(W[r])
        exactly_disabled = r in disabled_rows
        if exactly_disabled and r != disabled_rows[0]:
            continue  # the same moves as the first disabled clause
        if not exactly_disabled:
            disables.append(((r, "disable"), others_pos[r] + float(problem.w_neg @ np.minimum(
                1.0, m)) + rest + float(disable_cost)))
        for k in ([None] if not W[r, -1] else []) + [int(k) for k in held]:
            Bp, Bn = P[:, r], N[:, r]
            if k is not None:
                Bp = Bp - pos_by_feature[k]
                Bn = Bn - neg_by_feature[k]
            zero = Bp == 0
            value = (others_pos[r] + float(problem.w_pos @ zero)
                     + float(problem.w_neg @ np.minimum(Bn, m))
                     + rest + float(clause_cost[r]) - (0.0 if k is None else cost[k]))
            bases.append(((r, k), value, k is not None and len(held) > 1))
            pos_cols.append(np.where(zero, problem.w_pos, 0.0))
            neg_cols.append(np.where(Bn < m, problem.w_neg, 0.0))
    slots = [slot for slot, _ in disables] + [slot for slot, _, _ in bases]
    table = np.full((len(slots), width), np.inf)
    table[:len(disables), 0] = [value for _, value in disables]
    if bases:
        base_value = np.array([value for _, value, _ in bases])
        table[len(disables):, 0] = np.where([drop for _, _, drop in bases], base_value, np.inf)
        gain = _products(np.column_stack(pos_cols), problem.A_pos, doubles[0])
        loss = _products(np.column_stack(neg_cols), problem.A_neg, doubles[1])
        added = base_value[:, None] - gain[:, :d] + loss[:, :d] + cost[None, :d]
        allowed = ~W[[r for (r, _), _, _ in bases], :d]
        for b, ((_, k), _, _) in enumerate(bases):
            if k is not None and k < d:
                allowed[b, k] = False  # putting it back is no move
        table[len(disables):, 1:] = np.where(allowed, added, np.inf)
    return table, slots


def _products(U: np.ndarray, A: np.ndarray, A_double) -> np.ndarray:
    """``U.T @ A`` in double precision (``A`` 0/1), by blocks of rows above BLOCK_ABOVE."""
    if A_double is not None:
        return U.T @ A_double
    total = np.zeros((U.shape[1], A.shape[1]))
    for first in range(0, len(A), _BLOCK_ROWS):
        block = slice(first, first + _BLOCK_ROWS)
        total += U[block].T @ A[block].astype(np.float64)
    return total
