"""Silent data traps (rulelearn._traps): numbers stored as text, identifiers, row order."""

import warnings

import numpy as np
import pandas as pd
import pytest

from rulelearn._traps import (
    DataTrapWarning,
    identifier_columns,
    numbers_as_numbers,
    numbers_as_text,
    row_order_columns,
    trap_columns,
)


def test_identifiers_are_text_distinct_in_every_row_of_20_or_more():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(30)], "a": rng.permutation(30),
                          "c": ["x", "y"] * 15,
                          "gap": [f"r{i}" for i in range(29)] + [None]})
    assert identifier_columns(frame) == ["id"]  # "a" is numeric; "gap" has a missing cell
    assert identifier_columns(frame.iloc[:19]) == []  # too few rows to tell
    assert identifier_columns(frame.astype({"id": "category"})) == ["id"]


def test_row_order_columns_strictly_increase_or_decrease():
    n = 25
    frame = pd.DataFrame({"row": np.arange(n), "down": -np.arange(n) * 0.5,
                          "ties": np.arange(n) // 2, "shuffled": np.random.default_rng(1)
                          .permutation(n), "flag": [True, False] * 12 + [True],
                          "gap": [np.nan] + list(range(1, n))})
    assert row_order_columns(frame) == ["row", "down"]
    assert row_order_columns(frame.iloc[:19]) == []
    assert list(trap_columns(frame)) == ["row", "down"]


def test_numbers_stored_as_text_are_read_as_numbers_with_one_warning():
    frame = pd.DataFrame({"age": pd.Series(["53", "56", None, "61.5"], dtype=object),
                          "floats": pd.Series([1.0, 2.0, 2.0, np.nan], dtype=object),
                          "words": ["a", "1", "2", "3"], "bools": [True, False, True, None],
                          "cat": pd.Series(["1", "2", "3", "4"], dtype="category"),
                          "empty": pd.Series([None] * 4, dtype=object)})
    assert numbers_as_text(frame) == ["age", "floats"]
    with pytest.warns(DataTrapWarning, match=r"columns 'age', 'floats' hold numbers stored as "
                                             r"text"):
        out = numbers_as_numbers(frame)
    assert out["age"].dtype == np.float64 and out["age"].tolist()[:2] == [53.0, 56.0]
    assert np.isnan(out["age"].iloc[2]) and not pd.api.types.is_numeric_dtype(out["words"])
    assert out["cat"].dtype == "category" and frame["age"].dtype == object  # not in place
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numbers_as_numbers(frame[["words"]]) is not None
