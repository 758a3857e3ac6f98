"""Silent data traps: columns a rule can read, but should not read as they are.

- **Numbers stored as text**: an object (or string) column whose values, all but the missing
  ones, read as numbers (``"53"``, or ``53.0`` in an object column, as
  ``SimpleImputer(strategy="most_frequent").set_output(transform="pandas")`` leaves them) is
  read as numbers (:func:`numbers_as_numbers`), with a warning: as categories it would give one
  literal per value (``age == 53 OR age == 56 OR ...``) where a threshold generalizes.
- **Identifiers**: a text column with a different value in every row (at least
  :data:`MIN_ROWS` rows): a rule on it cannot carry over to a new row.
- **Row order**: a numeric column that strictly increases (or decreases) from row to row (a row
  number, an index, a time stamp of a file sorted by it): a rule on it reads the file's order;
  in a file sorted by the label, ``rownames > t`` separates the training rows and means
  nothing.

``rulelearn fit`` leaves the last two out (``--keep COLUMN`` keeps one) and says so; the
estimator (:class:`~rulelearn.estimator.BooleanRuleClassifier`) only warns
(:class:`DataTrapWarning`), since a caller's columns are the caller's choice.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

#: Fewer rows than this: no column is called an identifier or a row order (too few to tell).
MIN_ROWS = 20


class DataTrapWarning(UserWarning):
    """A column that a rule would read in a way that does not carry to new data."""


def _is_text_like(column: pd.Series) -> bool:
    if isinstance(column.dtype, pd.CategoricalDtype):  # categories by the caller's choice
        return False
    return column.dtype == object or pd.api.types.is_string_dtype(column.dtype)


def numbers_as_text(frame: pd.DataFrame) -> list:
    """The object or string columns of ``frame`` with at least one value, whose values (all
    but the missing ones) all read as numbers (no booleans: ``True`` is not a number here)."""
    found = []
    for name in frame.columns:
        column = frame[name]
        if not _is_text_like(column):
            continue
        present = column.dropna()
        if not len(present) or any(isinstance(v, (bool, np.bool_)) for v in present.unique()):
            continue
        numbers = pd.to_numeric(present, errors="coerce")
        if not numbers.isna().any():
            found.append(name)
    return found


def numbers_as_numbers(frame: pd.DataFrame, *, warn: bool = True) -> pd.DataFrame:
    """``frame`` with its :func:`numbers_as_text` columns as float64 (the others as they are),
    and a :class:`DataTrapWarning` naming them (``warn``)."""
    columns = numbers_as_text(frame)
    if not columns:
        return frame
    if warn:
        names = ", ".join(map(repr, map(str, columns)))
        warnings.warn(f"column{'s' if len(columns) > 1 else ''} {names} "
                      f"{'hold' if len(columns) > 1 else 'holds'} numbers stored as text (dtype "
                      "object): read as numbers, for thresholds (convert them before fit to "
                      "silence this, or make them category dtype to keep them categories)",
                      DataTrapWarning, stacklevel=3)
    out = frame.copy()
    for name in columns:
        out[name] = pd.to_numeric(frame[name], errors="coerce").astype("float64")
    return out


def identifier_columns(frame: pd.DataFrame) -> list:
    """Text (or category) columns with a different value in every row of at least
    :data:`MIN_ROWS` rows, none missing."""
    if len(frame) < MIN_ROWS:
        return []
    return [name for name in frame.columns
            if not (pd.api.types.is_numeric_dtype(frame[name])
                    or pd.api.types.is_bool_dtype(frame[name]))
            and frame[name].notna().all() and frame[name].nunique() == len(frame)]


def row_order_columns(frame: pd.DataFrame) -> list:
    """Numeric columns of at least :data:`MIN_ROWS` rows, none missing, that strictly
    increase or strictly decrease from each row to the next."""
    if len(frame) < MIN_ROWS:
        return []
    found = []
    for name in frame.columns:
        column = frame[name]
        if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        values = column.to_numpy(dtype=float)
        if np.isnan(values).any():
            continue
        steps = np.diff(values)
        if (steps > 0).all() or (steps < 0).all():
            found.append(name)
    return found


def trap_columns(frame: pd.DataFrame) -> dict:
    """``{column: why}`` for each identifier and row-order column of ``frame``."""
    found = {name: "has a different value in every row (an identifier?)"
             for name in identifier_columns(frame)}
    for name in row_order_columns(frame):
        found[name] = "increases or decreases with the row order (a row number?)"
    return found


def warn_traps(frame: pd.DataFrame) -> None:
    """One :class:`DataTrapWarning` per :func:`trap_columns` column."""
    for name, why in trap_columns(frame).items():
        warnings.warn(f"column {str(name)!r} {why}: a rule on it does not carry over to new "
                      "rows; leave it out of X", DataTrapWarning, stacklevel=3)
