"""A CNF learning problem and the paper's objective.

Learners work on CNF (AND of OR-clauses) over 0/1 features; DNF is reached by
De Morgan in :mod:`rulelearn.estimator`. Identical samples of the same class
are merged into one row with a weight (exact: every quantity below is a sum
over samples that depends on the sample only through its row and label).

Clauses are rows of a boolean matrix ``W`` of shape ``(R, d + 1)``; the last
column is the paper's "always true" feature: a clause that selects it is
disabled (always true, so it drops out of the AND).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class CNFProblem:
    """Positives and negatives as 0/1 float32 matrices with an always-true last column."""

    A_pos: np.ndarray
    w_pos: np.ndarray
    A_neg: np.ndarray
    w_neg: np.ndarray

    @property
    def n_features(self) -> int:
        """Features excluding the always-true column."""
        return self.A_pos.shape[1] - 1

    @cached_property
    def by_feature(self) -> tuple[np.ndarray, np.ndarray]:
        """``A_pos`` and ``A_neg`` feature-major, as uint8: row ``j`` is column ``j``.

        Summing a clause's selected columns over these contiguous rows is many
        times faster than gathering the columns of the sample-major matrices,
        and exact (integer counts). Built on first use; the matrices must not
        change afterwards (nothing in rulelearn changes them).
        """
        return (np.ascontiguousarray(self.A_pos.T, dtype=np.uint8),
                np.ascontiguousarray(self.A_neg.T, dtype=np.uint8))

    @cached_property
    def neg_features_double(self) -> np.ndarray:
        """``A_neg`` without the always-true column, in double precision; built on first use."""
        return self.A_neg[:, :-1].astype(np.float64)

    @classmethod
    def from_data(cls, A, y, sample_weight=None, merge=True) -> "CNFProblem":
        """Build from a 0/1 matrix ``A`` and boolean labels ``y`` (True = positive)."""
        A = np.asarray(A)
        y = np.asarray(y, dtype=bool)
        weight = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        parts = []
        for label in (True, False):
            rows = np.asarray(A[y == label], dtype=np.uint8)  # one copy (A[mask] copies)
            w = weight[y == label]
            if merge and len(rows):
                rows, inverse = unique_rows(rows)
                w = np.bincount(inverse.ravel(), weights=w, minlength=len(rows))
            keep = w > 0
            if not keep.all():
                rows, w = rows[keep], w[keep]
            ext = np.ones((len(rows), A.shape[1] + 1), dtype=np.float32)
            ext[:, :-1] = rows
            del rows
            parts += [ext, w.astype(np.float64)]
        return cls(*parts)


#: Above this many entries a 0/1 matrix is not copied whole into double precision for a
#: weighted column sum (:func:`weighted_column_sums`): it is summed in blocks of rows.
BLOCK_ABOVE = 50_000_000
_BLOCK_ROWS = 32_768


def weighted_column_sums(weights: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``weights @ matrix`` in double precision, ``matrix`` 0/1 of any dtype.

    Up to :data:`BLOCK_ABOVE` entries (every dataset of the paper) the matrix is converted
    whole, as before; above, block by block of rows, so that no double copy of a large
    matrix is made (1M x 346 rows: 2.8 GB). The sums of blocks may round differently in
    the last bits (not at all for integer weights, which are exact in double precision).
    """
    if matrix.size <= BLOCK_ABOVE:
        return weights @ matrix.astype(np.float64)
    total = np.zeros(matrix.shape[1])
    for first in range(0, len(matrix), _BLOCK_ROWS):
        block = slice(first, first + _BLOCK_ROWS)
        total += weights[block] @ matrix[block].astype(np.float64)
    return total


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_inverse=True)`` for a uint8 matrix, faster on 0/1.

    0/1 rows are compared as bit-packed byte strings: the same order (packed bits
    keep the lexicographic order of the rows), the same rows and inverse, about 50x
    faster on 50,000 x 346.
    """
    if rows.shape[1] == 0 or rows.max(initial=0) > 1:
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
        return unique, inverse.ravel()
    packed = np.ascontiguousarray(np.packbits(rows, axis=1))
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    unique, inverse = np.unique(keys, return_inverse=True)
    unpacked = np.unpackbits(unique.view(np.uint8).reshape(len(unique), -1), axis=1,
                             count=rows.shape[1])
    return unpacked, inverse.ravel()


def clause_counts(A: np.ndarray, clause: np.ndarray, by_feature=None) -> np.ndarray:
    """Number of selected features active on each row (``a_i . w``).

    ``by_feature``: ``A``'s 0/1 columns as contiguous uint8 rows
    (:attr:`CNFProblem.by_feature`), for a faster, equal count.
    """
    selected = np.flatnonzero(clause)
    if len(selected) == 0:
        return np.zeros(len(A))
    if by_feature is not None:
        return np.add.reduce(by_feature[selected], axis=0, dtype=np.int64).astype(np.float64)
    return A[:, selected].sum(axis=1, dtype=np.float64)


def count_matrix(A: np.ndarray, W, by_feature=None) -> np.ndarray:
    """:func:`clause_counts` of every clause of ``W``: one column per clause."""
    return np.column_stack([clause_counts(A, clause, by_feature) for clause in W])


def sparsity(clause: np.ndarray, theta: float, disable_cost: float) -> float:
    """θ per selected feature, plus ``disable_cost`` for the always-true feature."""
    return theta * float(np.count_nonzero(clause[:-1])) + disable_cost * float(clause[-1])


def clause_objective(problem: CNFProblem, clause, neg_weight, theta, disable_cost,
                     cap=None) -> float:
    """One clause's objective: uncovered positive weight + weighted negative counts + sparsity.

    ``cap`` (one value per negative) caps each negative's count: with the other
    clauses of a CNF fixed and ``cap`` their smallest count on each negative,
    this is the CNF objective up to a constant (see :func:`cnf_objective`).
    """
    pos_by_feature, neg_by_feature = problem.by_feature
    uncovered = clause_counts(problem.A_pos, clause, pos_by_feature) == 0
    counts = clause_counts(problem.A_neg, clause, neg_by_feature)
    if cap is not None:
        counts = np.minimum(counts, cap)
    return (float(problem.w_pos[uncovered].sum()) + float(neg_weight @ counts)
            + sparsity(clause, theta, disable_cost))


def cnf_objective(problem: CNFProblem, W, theta, disable_cost=0.0) -> float:
    """The paper's objective (3) with the ideal outputs v chosen optimally.

    Each positive pays one per unsatisfied clause; each negative pays the
    smallest number of selected active features over the clauses; plus θ per
    selected feature.
    """
    W = np.asarray(W, dtype=bool)
    if len(W) == 0:  # the empty CNF is always true: every negative is wrong
        return float(problem.w_neg.sum())
    pos_by_feature, neg_by_feature = problem.by_feature
    pos = np.column_stack([clause_counts(problem.A_pos, c, pos_by_feature) == 0 for c in W])
    neg = count_matrix(problem.A_neg, W, neg_by_feature)
    return (float(problem.w_pos @ pos.sum(axis=1))
            + float(problem.w_neg @ neg.min(axis=1))
            + sum(sparsity(c, theta, disable_cost) for c in W))


def disabled_clause(n_features: int) -> np.ndarray:
    """A clause that selects only the always-true feature."""
    clause = np.zeros(n_features + 1, dtype=bool)
    clause[-1] = True
    return clause


def predict_cnf(A_ext: np.ndarray, W) -> np.ndarray:
    """CNF output on rows of ``A_ext`` (with the always-true column)."""
    W = np.asarray(W, dtype=bool)
    out = np.ones(len(A_ext), dtype=bool)
    for clause in W:
        out &= clause_counts(A_ext, clause) > 0
    return out
