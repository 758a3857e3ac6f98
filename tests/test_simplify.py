"""Rule simplification: fewer literals, the same prediction on every input (missing included)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelearn.rules import Clause, Literal, Rule, simplify


@pytest.mark.parametrize("form, text, simpler", [
    ("dnf", "(a is missing) OR (a is not missing AND b > 3)", "(a is missing) OR (b > 3)"),
    ("dnf", "(x > 3) OR (x <= 3 AND x > 1 AND y == 1)", "(x > 3) OR (x > 1 AND y == 1)"),
    ("dnf", "(c == 'r') OR (c != 'r' AND c != 'g')", "(c == 'r') OR (c != 'g')"),
    ("dnf", "(b > 3) OR (b > 5 AND c == 1) OR (b > 3)", "b > 3"),
    ("dnf", "(x <= 3 AND x <= 5 AND x <= 3) OR (x > 4 AND x <= 2)", "x <= 3"),
    ("cnf", "(x > 3) AND (x <= 3 OR y == 1)", "(x > 3) AND (y == 1)"),
    ("cnf", "(x <= 3 OR x <= 5) AND (a is missing OR a is not missing)", "x <= 5"),
    ("cnf", "(x > 3 OR y == 1) AND (x > 3 OR y == 1 OR z <= 2)", "x > 3 OR y == 1"),
])
def test_simplifications(form, text, simpler):
    assert str(simplify(Rule.parse(text, form))) == simpler


@pytest.mark.parametrize("text", [
    "(x > 3) OR (x <= 3 AND y == 1)",  # a row missing x: false, while x > 3 OR y == 1 is true
    "(c == 'r') OR (c != 'r' AND y == 1)",
    "(x > 3) OR (x <= 3 AND c == 'r' AND y == 1)",  # c says nothing about x
])
def test_complements_that_missing_values_break_are_kept(text):
    rule = Rule.parse(text, "dnf")
    assert simplify(rule) == rule
    row = pd.DataFrame({"x": [np.nan], "c": [None], "y": [1]})
    assert not rule.evaluate(row)[0]


LITERALS = [Literal("x", op, t) for t in (1, 2, 3) for op in ("<=", ">")] + [
    Literal(f, op) for f in ("x", "c") for op in ("is missing", "is not missing")] + [
    Literal("c", op, v) for v in ("a", "b") for op in ("==", "!=")]
CELLS_X = st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, np.nan, "junk", None])
CELLS_C = st.sampled_from(["a", "b", "z", None, np.nan])
RULES = st.builds(
    lambda form, clauses: Rule(form, tuple(Clause(tuple(c)) for c in clauses)),
    st.sampled_from(["dnf", "cnf"]),
    st.lists(st.lists(st.sampled_from(LITERALS), max_size=4), max_size=5))


@settings(max_examples=400, deadline=None)
@given(RULES, st.lists(st.tuples(CELLS_X, CELLS_C), min_size=1, max_size=30), st.booleans())
def test_simplified_rule_predicts_as_the_original(rule, rows, numeric):
    frame = pd.DataFrame(rows, columns=["x", "c"])
    if numeric:  # x as a float column (its junk cells missing) or as cells of any kind
        frame["x"] = pd.to_numeric(frame["x"], errors="coerce")
    simpler = simplify(rule)
    assert simpler.n_literals <= rule.n_literals
    assert np.array_equal(simpler.evaluate(frame), rule.evaluate(frame)), (rule, simpler)
    assert simplify(simpler) == simpler


def test_exhaustive_inputs_for_small_rules():
    """Every row of every cell kind, on a few hundred random rules."""
    rng = np.random.default_rng(0)
    cells_x = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, np.nan, "junk"]
    cells_c = ["a", "b", "z", None]
    frame = pd.DataFrame([(x, c) for x in cells_x for c in cells_c], columns=["x", "c"])
    for _ in range(300):
        clauses = tuple(Clause(tuple(LITERALS[k] for k in rng.integers(0, len(LITERALS),
                                                                       rng.integers(0, 4))))
                        for _ in range(rng.integers(0, 5)))
        for form in ("dnf", "cnf"):
            rule = Rule(form, clauses)
            assert np.array_equal(simplify(rule).evaluate(frame), rule.evaluate(frame)), rule


# ---------------------------------------------------------------- what fit and show display

def _frame(rows, numeric):
    frame = pd.DataFrame(rows, columns=["x", "c"])
    if numeric:
        frame["x"] = pd.to_numeric(frame["x"], errors="coerce")
    return frame


@settings(max_examples=150, deadline=None)
@given(RULES, st.lists(st.tuples(CELLS_X, CELLS_C), min_size=1, max_size=30), st.booleans())
def test_the_displayed_simplification_predicts_as_the_original(rule, rows, numeric):
    """The text fit and show print (grouped pieces of the simplified rule), read back."""
    frame = _frame(rows, numeric)
    shown = Rule.parse(str(simplify(rule)), rule.form)
    assert np.array_equal(shown.evaluate(frame), rule.evaluate(frame)), (rule, shown)


def _flipped_holds(rule, frame):
    """The other-class DNF as its header reads: a comparison with a missing value, or of a
    non-number with a threshold, holds."""
    held = np.zeros(len(frame), dtype=bool)
    for clause in rule._flipped().clauses:
        term = np.ones(len(frame), dtype=bool)
        for lit in clause.literals:
            column = frame[lit.feature]
            unknown = pd.isna(column).to_numpy()
            if lit.op in ("<=", ">"):
                unknown = unknown | pd.to_numeric(column, errors="coerce").isna().to_numpy()
            comparison = lit.op in ("<=", ">", "==", "!=")
            term &= lit.evaluate(frame) | (unknown & comparison)
        held |= term
    return held


@settings(max_examples=150, deadline=None)
@given(RULES, st.lists(st.tuples(CELLS_X, CELLS_C), min_size=1, max_size=30), st.booleans())
def test_a_cnf_read_for_the_other_class_is_its_negation(rule, rows, numeric):
    frame = _frame(rows, numeric)
    rule = Rule("cnf", rule.clauses)
    if not rule.clauses:
        assert rule.other_class_text() is None
        return
    assert np.array_equal(_flipped_holds(rule, frame), ~rule.evaluate(frame)), rule


def test_a_cnf_is_read_for_the_other_class():
    rule = Rule.parse("(tier == 'gold' OR tier == 'platinum' OR x <= 3) AND (y <= 1 OR y > 4)",
                      "cnf")
    assert str(rule) == "(tier in {'gold', 'platinum'} OR x <= 3) AND (y <= 1 OR y > 4)"
    assert rule.other_class_text("no", "churn").splitlines() == [
        "IF  1. tier not in {'gold', 'platinum'} AND",
        "       x > 3",
        "OR  2. 1 < y <= 4",  # two conditions in the CNF, one here
        "THEN churn = no"]
    assert Rule.parse("x > 3 AND y > 1", "dnf").other_class_text() is None
    assert Rule("cnf", ()).other_class_text() is None
