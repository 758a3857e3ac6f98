"""Turn raw columns into binary literals (a scikit-learn transformer).

Numeric columns give ``x <= t`` and ``x > t`` for the interior quantiles
``k / (n_thresholds + 1)``, ``k = 1..n_thresholds`` of the training values
(10 thresholds, as in the paper; quantiles that split the training values the
same way give one threshold, so a discrete column gets fewer). Each
threshold is written as the shortest decimal at or above the quantile that
splits the training data the same way and stays in the lower half of the gap
to the next training value, so rules print as ``age <= 54.5`` and evaluate
exactly as they print.

Categorical columns (object, string or category dtype) give ``x == v`` and
``x != v`` for each value seen in training (a two-valued column gives one
pair only).

Missing values: a column with missing values in training also gets
``x is missing`` and ``x is not missing``; every comparison with a missing
value is false (see :mod:`rulelearn.rules`). Constant columns (one value
and no missing one) and columns with no value at all are dropped with a
warning; a near-constant column is kept: 9,999 rows of one value and one
of another give one threshold between them (the quantile cuts always split
two distinct values; the tree cuts, which keep 1 % of the rows in a leaf,
fall back to them on a column they cannot cut).
"""

from __future__ import annotations

import math
import warnings
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from rulelearn.errors import DataError, ParameterError
from rulelearn.rules import Literal, feature_column


def short_threshold(q: float, upper: float) -> float:
    """The shortest decimal ``t`` with ``q <= t < upper`` in the lower half of ``[q, upper)``."""
    q_dec = Decimal(q)
    for places in range(-15, 18):
        step = Decimal(1).scaleb(-places)
        candidate = (q_dec / step).to_integral_value(rounding=ROUND_CEILING) * step
        value = float(candidate)
        # compare the two distances, not value and a rounded midpoint q + (upper - q) / 2,
        # which can sit an ulp past the true midpoint
        if q <= value < upper and value - q <= upper - value:
            return value
    return float(q)


def numeric_thresholds(values: np.ndarray, n_thresholds: int,
                       sample_weight: np.ndarray | None = None) -> np.ndarray:
    """Distinct split points ``t`` for ``x <= t`` from interior quantiles of ``values``.

    The quantile of level ``k / (n_thresholds + 1)`` (linear interpolation, numpy's
    default) sits at position ``h = (n - 1) k / (n_thresholds + 1)`` of the sorted
    values, so it splits them as ``x <= sorted[floor(h)]``. ``floor(h)`` is found in
    exact integer arithmetic: the floating-point quantile can land a rounding error
    below a data value it equals and would move that value to the wrong side.
    Quantiles that split the training values the same way give one threshold.

    ``sample_weight`` counts each value that many times: the quantiles are those of the
    values repeated by their (integer) weights, computed without repeating them
    (:func:`weighted_quantiles`), and a value of weight 0 is not there at all.
    """
    keep = ~np.isnan(values)
    if sample_weight is None:
        finite = np.sort(values[keep])
    else:
        keep &= np.asarray(sample_weight) > 0
        order = np.argsort(values[keep], kind="stable")
        finite = values[keep][order]
    distinct = np.unique(finite)
    if len(distinct) < 2:
        return np.empty(0)
    parts = n_thresholds + 1
    levels = np.arange(1, n_thresholds + 1)
    if sample_weight is None:
        n = len(finite)
        with np.errstate(invalid="ignore"):  # inf - inf where a column holds infinities
            quantiles = np.quantile(finite, levels / parts)
        below = [float(finite[(n - 1) * int(k) // parts]) for k in levels]
    else:
        weights = np.asarray(sample_weight, dtype=float)[keep][order]
        quantiles, below = weighted_quantiles(finite, weights, levels, parts)
    lowest: dict = {}  # first distinct value above the split -> lowest quantile making that split
    for q, at in zip(quantiles, below):
        above = int(np.searchsorted(distinct, at, side="right"))
        if above >= len(distinct):  # x <= q holds for every training value
            continue
        q = float(q) if at <= q < distinct[above] else at
        lowest[above] = min(q, lowest.get(above, q))
    if not lowest:  # more than n/(n+1) of the values sit at the maximum
        lowest[len(distinct) - 1] = float(distinct[-2])
    return np.asarray([short_threshold(q, float(distinct[above]))
                       for above, q in sorted(lowest.items())])


def weighted_quantiles(finite: np.ndarray, weights: np.ndarray, levels: np.ndarray,
                       parts: int) -> tuple[np.ndarray, list[float]]:
    """``np.quantile(np.repeat(finite, weights), levels / parts)`` and, per level, the value
    at position ``floor(h)`` of the repeated values, without repeating them.

    ``finite`` is sorted and ``weights`` are positive. The repeated sequence has
    ``W = sum(weights)`` positions; value ``i`` fills positions ``[c_{i-1}, c_i)`` of the
    cumulative weights ``c``. The interpolation is numpy's own (``linear``: virtual index
    ``(W - 1) q``, then its ``lerp``), so that integer weights give bit for bit the
    thresholds of repeated rows, and unit weights those of no weights. Fractional weights
    extend the same positions to real-valued counts.
    """
    cumulative = np.cumsum(weights)
    total = float(cumulative[-1])
    last = len(finite) - 1

    def at(position):  # the value at (integer) positions of the repeated sequence
        return finite[np.minimum(np.searchsorted(cumulative, position, side="right"), last)]

    virtual = (total - 1) * (levels / parts)
    previous = np.clip(np.floor(virtual), 0, max(total - 1, 0))
    following = np.clip(previous + 1, 0, max(total - 1, 0))
    gamma = np.where(virtual < 0, 0.0, virtual - previous)
    a, b = at(previous), at(following)
    with np.errstate(invalid="ignore"):  # inf - inf where a column holds infinities
        diff = b - a
        quantiles = np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)
    exact = Fraction(total) - 1  # floor(h) in exact arithmetic, as in the unweighted case
    below = [float(at(max(math.floor(exact * int(k) / parts), 0))) for k in levels]
    return quantiles, below


#: The smallest share of the (weighted) rows in a leaf of :func:`tree_thresholds`'s tree.
TREE_MIN_LEAF = 0.01


def tree_thresholds(values: np.ndarray, positive: np.ndarray, n_thresholds: int,
                    sample_weight: np.ndarray | None = None) -> np.ndarray:
    """Supervised split points ``t`` for ``x <= t``: those of a CART tree (scikit-learn, Gini,
    best first) grown on this column alone against ``positive``, with at most
    ``n_thresholds + 1`` leaves, each with at least :data:`TREE_MIN_LEAF` of the weight (no
    cut that sets one or two rows apart).

    Unlike quantiles, a cut lands where the classes change, also in a tail that holds a few
    per cent of the rows (a rare positive class at high values of one column). Each cut is
    written as :func:`numeric_thresholds` writes its own (the shortest decimal in the lower
    half of the gap between the training values on either side), so it splits the training
    values as the tree did. Missing values and rows of weight 0 are left out.
    """
    from sklearn.tree import DecisionTreeClassifier

    keep = ~np.isnan(values)
    if sample_weight is not None:
        keep &= np.asarray(sample_weight) > 0
    finite = values[keep]
    distinct = np.unique(finite)
    labels = np.asarray(positive, dtype=bool)[keep]
    if len(distinct) < 2 or labels.all() or not labels.any():
        return np.empty(0)
    tree = DecisionTreeClassifier(max_leaf_nodes=n_thresholds + 1, random_state=0,
                                  min_weight_fraction_leaf=TREE_MIN_LEAF)
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=float)[keep]
    tree.fit(finite.reshape(-1, 1), labels, sample_weight=weights)
    nodes = tree.tree_
    cuts = sorted(float(t) for t, left in zip(nodes.threshold, nodes.children_left) if left != -1)
    out = set()
    for cut in cuts:  # the tree's cut (float32 midpoint) -> the training values either side
        above = int(np.searchsorted(distinct, cut, side="right"))
        if 0 < above < len(distinct):
            out.add(short_threshold(float(distinct[above - 1]), float(distinct[above])))
    return np.asarray(sorted(out))


def check_sums(sums) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``sums`` (None, or a mapping from a new column's name to the two or more columns it
    adds up) as ``((name, (column, ...)), ...)``; :class:`ParameterError` naming the problem."""
    if sums is None:
        return ()
    if not hasattr(sums, "items"):
        raise ParameterError(f"sums must be a mapping from a new column's name to the columns "
                             f"it adds up; got {sums!r}")
    out = []
    for name, columns in sums.items():
        if not isinstance(name, str) or not name:
            raise ParameterError(f"the name of a sum must be non-empty text; got {name!r}")
        if isinstance(columns, str) or not all(isinstance(c, str) and c for c in columns):
            raise ParameterError(f"sum {name!r} must list column names (text); got {columns!r}")
        columns = tuple(columns)
        if len(columns) < 2 or len(set(columns)) < len(columns):
            raise ParameterError(f"sum {name!r} must add up two or more distinct columns; got "
                                 f"{', '.join(map(repr, columns)) or 'none'}")
        out.append((name, columns))
    return tuple(out)


def add_sums(frame: pd.DataFrame, sums, *, check: bool = False) -> pd.DataFrame:
    """``frame`` with one more column per named sum of its columns (``sums``: see
    :func:`check_sums`), added left to right; a sum is missing where any of its columns is
    (or holds no number). A column of ``frame`` with a sum's name is replaced.

    ``check`` (at fit): :class:`DataError` unless every column is in ``frame``, is numeric,
    and no sum's name is already a column.
    """
    pairs = check_sums(sums)
    if not pairs:
        return frame
    columns = {str(c): c for c in frame.columns}
    added = {}
    for name, parts in pairs:
        if check and (name in columns or name in added):
            raise DataError(f"sum {name!r}: the data already has a column of that name")
        total = None
        for part in parts:
            if part not in columns:
                raise DataError(f"sum {name!r}: the data has no column {part!r}")
            column = frame[columns[part]]
            if check and is_categorical(column):
                raise DataError(f"sum {name!r}: column {part!r} is not numeric")
            values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
            total = values if total is None else total + values
        added[name] = total
    kept = frame.drop(columns=[columns[n] for n in added if n in columns])
    return pd.concat([kept, pd.DataFrame(added, index=frame.index)], axis=1)


def sum_features(features, sums) -> list[str]:
    """``features`` with each sum's name replaced by the columns it adds up (in order, each
    once): the columns a rule over ``features`` reads."""
    parts = dict(check_sums(sums))
    out = [column for f in features for column in parts.get(f, (f,))]
    return list(dict.fromkeys(out))


#: The most categories of one column that give literals (``x == v`` and ``x != v`` each):
#: beyond it, the most frequent ones (by total weight; a tie by text), so that a column of a
#: different text in every row (200,000 rows: 400,000 literals, a fit of minutes) costs as
#: much as ten numeric columns. The rows of a category left out hold none of its column's
#: ``==`` literals. Every column of the public benchmark has fewer (51 at most).
MAX_CATEGORIES = 100


def _categories(column: pd.Series, weights, missing: bool) -> list:
    """The values of a categorical column that give literals, sorted by text: at most
    :data:`MAX_CATEGORIES` (:func:`_most_frequent`); one of two values when none is missing
    (``x == a`` is ``x != b``); none of one value (``x == v`` is ``x is not missing``)."""
    values = sorted(_most_frequent(column, weights, MAX_CATEGORIES), key=str)
    if len(values) == 2 and not missing:
        return values[:1]
    return [] if len(values) == 1 else values


def _most_frequent(column: pd.Series, weights, limit: int) -> list:
    """The distinct non-missing values of ``column``: all of them, or the ``limit`` most
    frequent (by total ``weights``, one per row without them; a tie: the first by text)."""
    present = column.notna().to_numpy()
    codes, uniques = pd.factorize(column.astype(object)[present])
    if len(uniques) <= limit:
        return list(uniques)
    if weights is None:
        totals = np.bincount(codes, minlength=len(uniques)).astype(float)
    else:
        totals = np.bincount(codes, weights=np.asarray(weights)[present], minlength=len(uniques))
    texts = np.array([str(u) for u in uniques], dtype=object)
    order = np.lexsort((texts, -totals))  # by weight, descending; then by text
    return [uniques[i] for i in order[:limit]]


#: How numeric split points are found (:class:`QuantileBinarizer`'s ``cut_points``).
CUT_POINTS = ("quantile", "tree", "both")


def is_categorical(column: pd.Series) -> bool:
    """Object, string and category columns are categorical; numbers and booleans are not."""
    return not (pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column))


class QuantileBinarizer(TransformerMixin, BaseEstimator):
    """Binarize a DataFrame into 0/1 literal columns; see the module docstring.

    Parameters
    ----------
    n_thresholds : int, default=10
        Quantile thresholds per numeric column.
    negations : bool, default=True
        Also emit ``x > t`` (and ``x != v``) beside ``x <= t`` (and ``x == v``).
    cut_points : {"quantile", "tree", "both"}, default="quantile"
        Numeric split points: the quantiles (the paper's; no ``y`` needed), those of a tree
        per column grown against ``y`` (:func:`tree_thresholds`; ``fit`` needs ``y``), or
        both (their union).

    Attributes
    ----------
    literals_ : list of Literal
        One per output column, in order.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    """

    def __init__(self, n_thresholds=10, negations=True, cut_points="quantile"):
        self.n_thresholds = n_thresholds
        self.negations = negations
        self.cut_points = cut_points

    def fit(self, X, y=None, sample_weight=None):
        """Learn the literals. ``sample_weight`` counts each row that many times: numeric
        thresholds are weighted quantiles, and a row of weight 0 is ignored (as if removed).
        ``y``: the positive-class mask (or two labels, the positive one the larger), needed
        by ``cut_points`` "tree" and "both" only."""
        X = as_frame(X)
        if not isinstance(self.n_thresholds, (int, np.integer)) or self.n_thresholds < 1:
            raise ParameterError(f"The 'n_thresholds' parameter of QuantileBinarizer must be an "
                             f"int >= 1. Got {self.n_thresholds!r} instead.")
        positive = self._positive(X, y)
        self.feature_names_in_ = np.asarray([str(c) for c in X.columns], dtype=object)
        self.n_features_in_ = X.shape[1]
        self.literals_ = []
        self._columns = []  # (name, kind, values) per kept column
        dropped = []
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight, dtype=float).ravel()
            if weights.shape != (len(X),):
                raise DataError(f"sample_weight has {weights.size} values for {len(X)} samples")
            if positive is not None:
                positive = positive[weights > 0]
            X, weights = X[weights > 0], weights[weights > 0]
        capped = []
        for name in X.columns:
            column = X[name]
            missing = bool(column.isna().any())
            if is_categorical(column):
                values = _categories(column, weights, missing)
                if len(values) == MAX_CATEGORIES and column.nunique() > MAX_CATEGORIES:
                    capped.append(str(name))
                literals = [lit for v in values for lit in self._pair(name, "==", v)]
                kind = "categorical"
            else:
                numbers = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
                cuts = self._numeric_cuts(numbers, positive, weights)
                values = [float(t) for t in cuts]
                literals = [lit for t in values for lit in self._pair(name, "<=", t)]
                kind = "numeric"
            if missing and column.notna().any():
                literals += [Literal(str(name), "is missing"), Literal(str(name), "is not missing")]
            if not literals:
                dropped.append(str(name))
                continue
            self._columns.append((name, kind, list(values), missing))
            self.literals_.extend(literals)
        if capped:
            warnings.warn(f"column(s) {', '.join(map(repr, capped[:10]))}"
                          f"{' ...' if len(capped) > 10 else ''}: more than {MAX_CATEGORIES} "
                          f"categories; only the {MAX_CATEGORIES} most frequent give literals "
                          "(an identifier? leave it out)", UserWarning, stacklevel=2)
        if dropped:
            warnings.warn(f"dropped {len(dropped)} constant or empty column(s): "
                          f"{', '.join(dropped[:10])}{' ...' if len(dropped) > 10 else ''}",
                          UserWarning, stacklevel=2)
        return self

    def _positive(self, X, y) -> np.ndarray | None:
        """``cut_points`` checked, and the positive-class mask the tree cuts need (or None)."""
        if not isinstance(self.cut_points, str) or self.cut_points not in CUT_POINTS:
            raise ParameterError(f"The 'cut_points' parameter of QuantileBinarizer must be one "
                                 f"of {{{', '.join(map(repr, CUT_POINTS))}}}. Got "
                                 f"{self.cut_points!r} instead.")
        if self.cut_points == "quantile":
            return None
        if y is None:
            raise DataError(f"cut_points={self.cut_points!r} needs y")
        y = np.asarray(y)
        if len(y) != len(X):
            raise DataError(f"X has {len(X)} rows but y has {len(y)} labels")
        return y.astype(bool) if y.dtype == bool else y == np.unique(y)[-1]

    def _numeric_cuts(self, numbers, positive, weights) -> np.ndarray:
        cuts = []
        if self.cut_points in ("quantile", "both"):
            cuts.append(numeric_thresholds(numbers, self.n_thresholds, weights))
        if self.cut_points in ("tree", "both"):
            cuts.append(tree_thresholds(numbers, positive, self.n_thresholds, weights))
        if self.cut_points == "tree" and not len(cuts[0]):
            # a column the tree cannot cut (one value in over 99 % of the rows: no leaf holds
            # 1 %) is not constant: its quantile cuts keep it (9,999 rows of 2, one of 4: b > 2)
            return numeric_thresholds(numbers, self.n_thresholds, weights)
        if len(cuts) == 1:
            return cuts[0]
        merged = np.union1d(*cuts)
        # two cuts with no training value between them split alike: keep the first
        distinct = np.unique(numbers[~np.isnan(numbers)])
        splits = np.searchsorted(distinct, merged, side="right")
        return merged[np.unique(splits, return_index=True)[1]]

    def _pair(self, name, op, value):
        literal = Literal(str(name), op, value)
        return [literal, literal.negate()] if self.negations else [literal]

    def transform(self, X) -> np.ndarray:
        """0/1 matrix of shape ``(n_samples, len(literals_))``, dtype uint8."""
        check_is_fitted(self, "literals_")
        X = as_frame(X)
        blocks = []
        for name, kind, values, missing in self._columns:
            if name not in X.columns:
                raise DataError(f"column {name!r} seen in fit is missing from the data")
            column = X[name]
            isna = column.isna().to_numpy()
            if kind == "numeric":
                numbers = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
                low = numbers[:, None] <= np.asarray(values, dtype=float)[None, :]
                high = numbers[:, None] > np.asarray(values, dtype=float)[None, :]
            else:
                low = _equals_matrix(column.astype(object).to_numpy(), values)
                high = ~low
            low &= ~isna[:, None]
            high &= ~isna[:, None]
            pairs = np.stack([low, high], axis=2).reshape(len(X), -1) if self.negations else low
            blocks.append(pairs)
            if missing:
                blocks.append(np.column_stack([isna, ~isna]))
        if not blocks:
            return np.zeros((len(X), 0), dtype=np.uint8)
        return np.hstack(blocks).astype(np.uint8)

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "literals_")
        return np.asarray([str(lit) for lit in self.literals_], dtype=object)


class ZeroOneBinarizer(TransformerMixin, BaseEstimator):
    """0/1 columns as literals: ``x == 1`` and its negation ``x == 0`` per column.

    What ``BooleanRuleClassifier(binarize="auto")`` uses on a 0/1 matrix, so that a rule can
    say "x is 0" (y = NOT x0 is one literal). A missing cell holds neither literal.

    Attributes
    ----------
    literals_ : list of Literal
        ``x == 1``, ``x == 0`` per column, in order.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    """

    def fit(self, X, y=None, sample_weight=None):
        """Learn the columns (any 0/1 values; checked by the caller)."""
        X = as_frame(X)
        self.feature_names_in_ = np.asarray([str(c) for c in X.columns], dtype=object)
        self.n_features_in_ = X.shape[1]
        self.literals_ = [Literal(str(c), "==", v) for c in X.columns for v in (1, 0)]
        return self

    def transform(self, X) -> np.ndarray:
        """0/1 matrix of shape ``(n_samples, 2 * n_features_in_)``, dtype uint8."""
        check_is_fitted(self, "literals_")
        X = as_frame(X)
        blocks = []
        for name in self.feature_names_in_:
            try:
                column = feature_column(X, name)
            except DataError:
                raise DataError(f"column {name!r} seen in fit is missing from the data") from None
            values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
            blocks.append(np.column_stack([values == 1, values == 0]))
        if not blocks:
            return np.zeros((len(X), 0), dtype=np.uint8)
        return np.hstack(blocks).astype(np.uint8)

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "literals_")
        return np.asarray([str(lit) for lit in self.literals_], dtype=object)


def _equals(values: np.ndarray, target) -> np.ndarray:
    """``values_equal(v, target)`` for every v (:func:`_equals_matrix` of one target)."""
    return _equals_matrix(values, [target])[:, 0]


def _as_number(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return None if number != number else number  # NaN equals nothing


def _equals_matrix(values: np.ndarray, targets) -> np.ndarray:
    """``values_equal(v, t)`` for every v (rows) and target t (columns), judged once per
    distinct value by lookups, not by comparing each value with each target (a column of
    200,000 distinct texts against 100 categories: 2e5 lookups, not 2e7 comparisons).

    :func:`~rulelearn.rules.values_equal` holds where ``v == t``; else, where both read as
    numbers (``float``), where the numbers are equal; else where their texts are equal. Each
    of the three is a dictionary of the targets by value, by number, by text.
    """
    values = np.asarray(values, dtype=object)
    is_bool = np.fromiter((isinstance(v, (bool, np.bool_)) for v in values), dtype=bool,
                          count=len(values))
    if is_bool.any() and not is_bool.all():  # factorize merges True with 1: judged apart
        out = np.zeros((len(values), len(targets)), dtype=bool)
        out[is_bool] = _equals_matrix(values[is_bool], targets)
        out[~is_bool] = _equals_matrix(values[~is_bool], targets)
        return out
    codes, uniques = pd.factorize(values)  # missing values get code -1
    by_value: dict = {}
    by_number: dict = {}
    by_text: dict = {}  # str(t) -> targets, for a value that is not a number
    by_text_of_word: dict = {}  # str(t) -> the targets that are not numbers
    for j, target in enumerate(targets):
        try:
            by_value.setdefault(target, []).append(j)
        except TypeError:  # unhashable: compared by number or text only
            pass
        number = _as_number(target)
        if number is not None:
            by_number.setdefault(number, []).append(j)
        elif not _is_number_like(target):
            by_text_of_word.setdefault(str(target), []).append(j)
        by_text.setdefault(str(target), []).append(j)
    hits = np.zeros((len(uniques) + 1, len(targets)), dtype=bool)  # the last row: missing
    for i, value in enumerate(uniques):
        try:
            found = list(by_value.get(value, ()))
        except TypeError:
            found = []
        number = _as_number(value)
        if number is not None:
            found += by_number.get(number, []) + by_text_of_word.get(str(value), [])
        elif not _is_number_like(value):
            found += by_text.get(str(value), [])
        else:  # NaN, or a float beyond range: equal only to itself, or by text to a word
            found += by_text_of_word.get(str(value), [])
        hits[i, found] = True
    return hits[codes]


def _is_number_like(value) -> bool:
    """``float(value)`` does not raise TypeError or ValueError (NaN and overflow included)."""
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    except OverflowError:
        return True
    return True


def as_frame(X, names=None) -> pd.DataFrame:
    """``X`` as a DataFrame: a DataFrame as is (its column names, as text, must be distinct), a
    2-d array (dense or sparse) with the columns ``names`` (when they fit) or ``x0, x1, ...``;
    anything else raises :class:`DataError`."""
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns]
        if len(set(names)) < len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise DataError(f"X has {names.count(twice)} columns named {twice!r}; a rule names "
                            "its columns: make the names distinct")
        return X
    if hasattr(X, "toarray"):
        X = X.toarray()
    array = np.asarray(X)
    if np.iscomplexobj(array):
        raise DataError("Complex data not supported: X has complex values")
    if array.ndim == 1:
        raise DataError("Expected a 2-d array of samples x features, got a 1-d array. "
                        "Reshape your data with X.reshape(-1, 1) for one feature")
    if array.ndim != 2:
        raise DataError(f"expected a 2-d array of samples x features, got shape {array.shape}")
    columns = list(names) if names is not None and len(names) == array.shape[1] else \
        [f"x{j}" for j in range(array.shape[1])]
    return pd.DataFrame(array, columns=columns)
