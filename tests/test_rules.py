"""Literal / Clause / Rule: evaluation (incl. missing values), size, str <-> parse, JSON."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelearn.errors import DataError, RuleError, RuleLearnError
from rulelearn.rules import Clause, Literal, Rule


@pytest.fixture
def frame():
    return pd.DataFrame({
        "age": [30.0, 54.5, np.nan, 70.0],
        "thal": ["fixed", "normal", None, "fixed"],
        "code": ["7", "8", "7", np.nan],  # numbers stored as text, e.g. read from a CSV
        "n": [1, 2, 3, 4],
    })


def held(literal_text, X):
    return Literal.parse(literal_text).evaluate(X).tolist()


# ------------------------------------------------------------------------ literal evaluation

@pytest.mark.parametrize("text, expected", [
    ("age <= 54.5", [True, True, False, False]),
    ("age > 54.5", [False, False, False, True]),
    ("age == 70", [False, False, False, True]),
    ("age != 70", [True, True, False, False]),
    ("age is missing", [False, False, True, False]),
    ("age is not missing", [True, True, False, True]),
    ("thal == 'fixed'", [True, False, False, True]),
    ("thal != 'fixed'", [False, True, False, False]),
    ("thal is missing", [False, False, True, False]),
    ("thal is not missing", [True, True, False, True]),
    ("n <= 2", [True, True, False, False]),
    ("n != 2", [True, False, True, True]),
])
def test_literal_evaluate(frame, text, expected):
    assert held(text, frame) == expected


def test_equality_on_text_cells_matches_values_equal_cell_by_cell():
    # text columns are compared once per distinct text; a mix of types cell by cell (1 and
    # True share a hash key but not values_equal's answer against 'True')
    from rulelearn.rules import _equal_cells, values_equal

    for cells in (["a", "7", None, np.nan, pd.NA, "b", "1.0", "a", "", " a"],
                  [1, True, "True", None, "a", 7.0], [None, np.nan], []):
        values = np.array(cells, dtype=object)
        for target in ("a", "7", 7, "1.0", 1, True, "True", "", "zzz"):
            assert _equal_cells(values, target).tolist() == \
                [values_equal(v, target) for v in values], (cells, target)


def test_every_comparison_with_a_missing_value_is_false(frame):
    for text in ("age <= 1e9", "age > -1e9", "age == 1", "age != 1",
                 "thal == 'fixed'", "thal != 'fixed'"):
        assert held(text, frame)[2] is False, text
    for text in ("code == 7", "code != 7", "code <= 100", "code > -100", "code != 'x'"):
        assert held(text, frame)[3] is False, text


def test_numbers_stored_as_text_compare_with_numbers_in_the_literal(frame):
    assert held("code == 7", frame) == [True, False, True, False]
    assert held("code == 7.0", frame) == [True, False, True, False]
    assert held("code != 7", frame) == [False, True, False, False]
    assert held("code <= 7.5", frame) == [True, False, True, False]
    assert held("code > 7.5", frame) == [False, True, False, False]
    assert held("code == '7'", frame) == [True, False, True, False]
    # and the other way round: a number in the data, text in the literal
    assert held("n == '2'", frame) == [False, True, False, False]


def test_pandas_na_in_a_string_column_is_missing():
    X = pd.DataFrame({"s": pd.array(["a", None, "b"], dtype="string"),
                      "i": pd.array([1, None, 3], dtype="Int64"),
                      "o": pd.Series(["a", pd.NA, "b"], dtype=object)})
    assert held("s == 'a'", X) == [True, False, False]
    assert held("s != 'a'", X) == [False, False, True]
    assert held("o != 'a'", X) == [False, False, True]
    assert held("i == 1", X) == [True, False, False]
    assert held("i != 1", X) == [False, False, True]
    assert held("i <= 2", X) == [True, False, False]
    assert held("i is missing", X) == [False, True, False]


def test_categorical_dtype_and_unknown_column():
    X = pd.DataFrame({"c": pd.Categorical(["x", "y", None, "x"])})
    assert held("c == 'x'", X) == [True, False, False, True]
    assert held("c != 'x'", X) == [False, True, False, False]
    with pytest.raises(DataError, match="no column 'missing_col'"):
        Literal("missing_col", "<=", 1).evaluate(X)


def test_non_string_column_labels_match_their_string_name():
    X = pd.DataFrame({0: [1.0, 5.0], 1: ["a", "b"]})
    assert held("0 <= 2", X) == [True, False]
    assert held("1 == 'b'", X) == [False, True]


def test_negate_is_exact_on_non_missing_values(frame):
    for text in ("age <= 54.5", "thal == 'fixed'", "code == 7", "age is missing"):
        literal = Literal.parse(text)
        both = literal.evaluate(frame) | literal.negate().evaluate(frame)
        either = literal.evaluate(frame) & literal.negate().evaluate(frame)
        assert not either.any()
        if not text.endswith("missing"):
            assert both.tolist() == frame[literal.feature].notna().tolist()
        else:
            assert both.all()
    assert Literal("a", "<=", 1).negate() == Literal("a", ">", 1)
    assert Literal("a", "is missing").negate() == Literal("a", "is not missing")


def test_unknown_operator_is_refused():
    with pytest.raises(RuleError, match="unknown literal operator '<'"):
        Literal("a", "<", 1)


@pytest.mark.parametrize("args, match", [
    ((5, "<=", 1), "feature must be a column name"),
    (("a", ["<="], 1), "unknown literal operator"),
    (("a", "<=", "abc"), "threshold of a <= must be a number, got 'abc'"),
    (("a", ">", None), "threshold of a > must be a number, got None"),
    (("a", "<=", True), "threshold of a <= must be a number, got True"),
    (("a", "<=", float("nan")), "threshold of a <= is NaN"),
    (("a", "==", float("nan")), "value of a == is NaN"),
    (("a", "==", None), "value of a == must be a string, number or boolean"),
    (("a", "!=", [1, 2]), "value of a != must be a string, number or boolean"),
    (("a", "is missing", 3), "a is missing takes no value, got 3"),
    (("a <= b", "<=", "x"), "threshold of `a <= b` <= must be a number"),
])
def test_malformed_literals_raise_rule_errors(args, match):
    with pytest.raises(RuleError, match=match) as info:
        Literal(*args)
    assert isinstance(info.value, RuleLearnError) and isinstance(info.value, ValueError)


def test_huge_integer_thresholds_evaluate():
    X = pd.DataFrame({"a": [1.0, 2.0, np.nan]})
    assert Literal("a", "<=", 10**400).evaluate(X).tolist() == [True, True, False]
    assert Literal("a", ">", -(10**400)).evaluate(X).tolist() == [True, True, False]
    assert Literal("a", "==", 10**400).evaluate(X).tolist() == [False, False, False]


# ------------------------------------------------------------------------ str <-> parse

@pytest.mark.parametrize("literal, text", [
    (Literal("age", "<=", 54.5), "age <= 54.5"),
    (Literal("age", ">", -3), "age > -3"),
    (Literal("age", "<=", 2.0), "age <= 2"),
    (Literal("x", "<=", 1.5e-07), "x <= 1.5e-07"),
    (Literal("x", ">", -2.5e30), "x > -2.5e+30"),
    (Literal("thal", "==", "fixed"), "thal == 'fixed'"),
    (Literal("thal", "!=", "it's"), "thal != \"it's\""),
    (Literal("chol", "is missing"), "chol is missing"),
    (Literal("blood pressure", "is not missing"), "blood pressure is not missing"),
    (Literal("flag", "==", True), "flag == True"),
    (Literal("x", "==", np.int64(3)), "x == 3"),
    (Literal("x", "<=", np.float32(0.5)), "x <= 0.5"),
])
def test_literal_prints_as_expected(literal, text):
    assert str(literal) == text


@pytest.mark.parametrize("value", [
    54.5, -3, 0, 7, -0.25, 1.5e-07, -2.5e30, 1e22, 0.1 + 0.2, 10**17 + 1, -(10**30) + 1,
    float("inf"), "fixed", "it's", 'say "hi"', "a'b\"c", "a\\b", "tab\there", "", "7", "ünï",
    True, False,
])
def test_literal_round_trips_through_its_string(value):
    numeric = not isinstance(value, (str, bool))
    for op in ("==", "!=", "<=", ">") if numeric else ("==", "!="):
        literal = Literal("my col", op, value)
        back = Literal.parse(str(literal))
        assert back == literal
        assert type(back.value) is type(value) or isinstance(value, float) and value.is_integer()


def test_parse_types_of_numbers():
    assert type(Literal.parse("x <= 3").value) is int
    assert type(Literal.parse("x <= 3.0").value) is float
    assert type(Literal.parse("x <= 1e5").value) is float
    assert Literal.parse("x <= 1E5").value == 100000.0
    assert Literal.parse("x == 'it\\'s'").value == "it's"
    assert Literal.parse("  age   <=   5  ") == Literal("age", "<=", 5)
    with pytest.raises(RuleError, match="cannot parse a literal"):
        Literal.parse("age is big")


@pytest.mark.parametrize("literal, text", [
    (Literal("a <= b", "<=", 0.23), "`a <= b` <= 0.23"),
    (Literal("x AND y", "==", "v"), "`x AND y` == 'v'"),
    (Literal("f) OR (g", "is missing"), "`f) OR (g` is missing"),
    (Literal("a is missing", "is not missing"), "`a is missing` is not missing"),
    (Literal("it's", ">", 1), "`it's` > 1"),
    (Literal("back`tick", ">", 1), "`back``tick` > 1"),
    (Literal(" padded", ">", 1), "` padded` > 1"),
    (Literal("", ">", 1), "`` > 1"),
    (Literal("tab\there", ">", 1), "`tab\\there` > 1"),
    (Literal("two\nlines", "is missing"), "`two\\nlines` is missing"),
    (Literal("C:\\dir <= x", "<=", 1), "`C:\\\\dir <= x` <= 1"),
    (Literal("nul\x00 and\u2028", "==", "v"), "`nul\\x00 and\\u2028` == 'v'"),
    (Literal("C:\\dir", "<=", 1), "C:\\dir <= 1"),
    (Literal("(x", ">", 1), "`(x` > 1"),
    # ordinary names, even with spaces, parentheses and symbols, stay as they are
    (Literal("MDVP:Fo(Hz)", "<=", 198.7), "MDVP:Fo(Hz) <= 198.7"),
    (Literal("mean radius", ">", 13.67), "mean radius > 13.67"),
    (Literal("a<=b", "<=", 1), "a<=b <= 1"),
    (Literal("ORDER", "==", "x"), "ORDER == 'x'"),
    (Literal("ünï cödé", "is missing"), "ünï cödé is missing"),
])
def test_names_that_could_be_misread_are_quoted(literal, text):
    assert str(literal) == text
    assert Literal.parse(text) == literal


def test_an_ambiguous_unquoted_line_is_refused_not_misread():
    with pytest.raises(RuleError, match="must be a number, got 'b <= 0.23'"):
        Literal.parse("a <= b <= 0.23")
    assert Literal.parse("`a <= b` <= 0.23") == Literal("a <= b", "<=", 0.23)
    with pytest.raises(RuleError, match="closing backtick"):
        Literal.parse("`a <= 1")


# ------------------------------------------------------------------------ rules

A, B, C = Literal("a", "==", 1), Literal("b", "==", 1), Literal("c", "==", 1)
TRUTH = pd.DataFrame([(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)],
                     columns=["a", "b", "c"])


def test_dnf_and_cnf_against_a_truth_table():
    dnf = Rule("dnf", (Clause((A, B)), Clause((C,))))  # (a AND b) OR c
    cnf = Rule("cnf", (Clause((A, B)), Clause((C,))))  # (a OR b) AND c
    a, b, c = (TRUTH[k].to_numpy() == 1 for k in "abc")
    assert dnf.evaluate(TRUTH).tolist() == ((a & b) | c).tolist()
    assert cnf.evaluate(TRUTH).tolist() == ((a | b) & c).tolist()
    assert dnf.evaluate(TRUTH).tolist() == [False, True, False, True, False, True, True, True]
    assert cnf.evaluate(TRUTH).tolist() == [False, False, False, True, False, True, False, True]


def test_empty_rules_and_empty_clauses():
    n = len(TRUTH)
    assert Rule("dnf", ()).evaluate(TRUTH).tolist() == [False] * n
    assert Rule("cnf", ()).evaluate(TRUTH).tolist() == [True] * n
    assert str(Rule("dnf", ())) == "FALSE" and str(Rule("cnf", ())) == "TRUE"
    # an empty AND-clause in a DNF is true; an empty OR-clause in a CNF is false
    assert Rule("dnf", (Clause(()),)).evaluate(TRUTH).tolist() == [True] * n
    assert Rule("cnf", (Clause(()),)).evaluate(TRUTH).tolist() == [False] * n
    assert Clause(()).evaluate(TRUTH, "and").tolist() == [True] * n
    assert Clause(()).evaluate(TRUTH, "or").tolist() == [False] * n
    assert Rule("dnf", (Clause(()), Clause((A,)))).evaluate(TRUTH).all()
    assert not Rule("cnf", (Clause(()), Clause((A,)))).evaluate(TRUTH).any()


def test_size_and_features():
    rule = Rule("dnf", (Clause((Literal("age", "<=", 50), Literal("thal", "==", "fixed"))),
                        Clause((Literal("age", ">", 60),)), Clause(())))
    assert rule.n_clauses == 3
    assert rule.n_literals == 3
    assert rule.features == ["age", "thal"]
    assert Rule("cnf", ()).n_literals == 0 and Rule("cnf", ()).features == []


def test_form_is_checked():
    with pytest.raises(RuleError, match="form must be 'cnf' or 'dnf', got 'DNF'"):
        Rule("DNF", ())


RULES = [
    Rule("dnf", (Clause((Literal("age", "<=", 54.5), Literal("thal", "==", "fixed"))),
                 Clause((Literal("chol", "is missing"),)))),
    Rule("cnf", (Clause((Literal("age", ">", -3), Literal("sex", "!=", "it's"))),
                 Clause((Literal("x (cm)", "<=", 1.5e-07),)))),
    Rule("dnf", (Clause((Literal("age", "<=", 54.5),)),)),
    Rule("cnf", (Clause((Literal("a", "==", "(b)"), Literal("c", "is not missing"))),)),
    Rule("dnf", (Clause(()), Clause((A, B)))),
    Rule("cnf", (Clause((A,)), Clause(()))),
    Rule("dnf", ()),
    Rule("cnf", ()),
]


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_rule_round_trips_through_its_string(rule):
    assert Rule.parse(str(rule), rule.form) == rule


def test_rule_prints_clauses_in_parentheses():
    assert str(RULES[0]) == "(age <= 54.5 AND thal == 'fixed') OR (chol is missing)"
    assert str(RULES[2]) == "age <= 54.5"


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_rule_round_trips_through_json(rule):
    assert Rule.from_dict(json.loads(json.dumps(rule.to_dict()))) == rule


def test_numpy_scalars_survive_json():
    literals = (Literal("a", "<=", np.float64(2.5)), Literal("b", "==", np.int64(3)),
                Literal("c", "==", np.str_("x")), Literal("d", "==", np.bool_(True)))
    rule = Rule("dnf", (Clause(literals),))
    data = json.loads(json.dumps(rule.to_dict()))
    back = Rule.from_dict(data)
    assert back == rule
    assert [type(lit["value"]) for lit in data["clauses"][0]] == [float, int, str, bool]


def test_describe_lists_every_literal_and_the_outcome():
    rule = RULES[0]
    text = rule.describe(positive="sick", target="diagnosis")
    for clause in rule.clauses:
        for literal in clause.literals:
            assert str(literal) in text
    lines = text.splitlines()
    assert lines[0].startswith("IF  1. age <= 54.5")
    assert lines[-1] == "THEN diagnosis = sick"
    assert any(line.startswith("OR  2. chol is missing") for line in lines)
    assert rule.describe().splitlines()[-1] == "THEN predict positive"
    assert Rule("dnf", ()).describe(1).startswith("never predict 1")
    assert Rule("cnf", ()).describe(1).startswith("always predict 1")


@pytest.mark.parametrize("data, match", [
    ([], "a rule must be an object"),
    ({"form": "dnf"}, "no 'clauses' entry"),
    ({"clauses": []}, "no 'form' entry"),
    ({"form": "dnf", "clauses": "abc"}, "'clauses' must be a list"),
    ({"form": "dnf", "clauses": [{"feature": "a"}]}, "clause 1 must be a list of literals"),
    ({"form": "dnf", "clauses": [[], ["x"]]}, "clause 2, literal 1: a literal must be an object"),
    ({"form": "dnf", "clauses": [[{"op": "<="}]]}, "clause 1, literal 1: .*no 'feature'"),
    ({"form": "dnf", "clauses": [[{"feature": "a", "op": "<=", "value": 1, "val": 2}]]},
     "unknown entry 'val'"),
    ({"form": "dnf", "clauses": [[{"feature": "a", "op": ">", "value": "abc"}]]},
     "clause 1, literal 1: the threshold of a > must be a number, got 'abc'"),
    ({"form": 3, "clauses": []}, "form must be 'cnf' or 'dnf', got 3"),
])
def test_from_dict_names_what_is_malformed(data, match):
    with pytest.raises(RuleError, match=match):
        Rule.from_dict(data)


# ------------------------------------------------------------------ property: str <-> parse

NAME = st.one_of(
    st.text(max_size=12),
    st.lists(st.sampled_from(["a", "b c", " ", "<=", ">", "==", "!=", "AND", "OR", "is",
                              "not", "missing", "(", ")", "'", '"', "`", "\\", "\t", "\n",
                              "TRUE", "FALSE", "é", "名", "\u00a0", ","]),
             max_size=6).map("".join),
)
NUMBER = st.one_of(st.integers(-(10**20), 10**20),
                   st.floats(allow_nan=False, allow_infinity=False), st.just(float("inf")))
VALUE = st.one_of(NUMBER, st.text(max_size=8), st.booleans())


@st.composite
def literals(draw):
    op = draw(st.sampled_from(["<=", ">", "==", "!=", "is missing", "is not missing"]))
    name = draw(NAME)
    if op.startswith("is "):
        return Literal(name, op)
    return Literal(name, op, draw(NUMBER if op in ("<=", ">") else VALUE))


@settings(max_examples=300, deadline=None)
@given(literals())
def test_any_literal_round_trips_through_its_string(literal):
    assert Literal.parse(str(literal)) == literal
    assert len(str(literal).splitlines()) == 1  # one line, whatever the name holds


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["dnf", "cnf"]),
       st.lists(st.lists(literals(), max_size=3).map(tuple), max_size=3))
def test_any_rule_round_trips_through_its_string(form, clauses):
    rule = Rule(form, tuple(Clause(c) for c in clauses))
    assert Rule.parse(str(rule), form) == rule


@pytest.mark.parametrize("form, text, expected", [
    ("dnf", "(a == 1)", "a == 1"),
    ("dnf", "(a == 1 AND b > 2)", "a == 1 AND b > 2"),
    ("cnf", "(MDVP:Fo(Hz) <= 109.1 OR D2 > 2.4)", "MDVP:Fo(Hz) <= 109.1 OR D2 > 2.4"),
])
def test_parse_one_clause_in_parentheses(form, text, expected):
    rule = Rule.parse(text, form)
    assert str(rule) == expected
    assert rule == Rule.parse(expected, form)
    assert all(not lit.feature.startswith("(") for c in rule.clauses for lit in c.literals)


# ------------------------------------------------------------------ readable pieces

@pytest.mark.parametrize("form, literals, text", [
    ("dnf", [("tier", "!=", "bronze"), ("tier", "!=", "silver")],
     "tier not in {'bronze', 'silver'}"),
    ("cnf", [("tier", "==", "gold"), ("tier", "==", "platinum"), ("age", ">", 3)],
     "tier in {'gold', 'platinum'} OR age > 3"),
    ("dnf", [("x", ">", 1), ("x", "<=", 2.5), ("y", "==", 1)], "1 < x <= 2.5 AND y == 1"),
    # not grouped: one literal, another column between, the other order, the other join
    ("dnf", [("c", "!=", "a"), ("d", "==", 1), ("c", "!=", "b")],
     "c != 'a' AND d == 1 AND c != 'b'"),
    ("dnf", [("x", "<=", 2), ("x", ">", 1)], "x <= 2 AND x > 1"),
    ("cnf", [("x", ">", 1), ("x", "<=", 2)], "x > 1 OR x <= 2"),
    ("cnf", [("c", "!=", "a"), ("c", "!=", "b")], "c != 'a' OR c != 'b'"),
    ("dnf", [("c", "==", "a"), ("c", "==", "b")], "c == 'a' AND c == 'b'"),
    # names that could be misread in the grouped forms are quoted
    ("dnf", [("x not", "!=", 1), ("x not", "!=", 2)], "`x not` not in {1, 2}"),
    ("dnf", [("1 < y", ">", 0), ("1 < y", "<=", 1)], "0 < `1 < y` <= 1"),
    ("cnf", [("a in {b}", "==", "}"), ("a in {b}", "==", "x, y")],
     "`a in {b}` in {'}', 'x, y'}"),
    ("cnf", [("time in care", "==", 1), ("time in care", "==", 2)], "time in care in {1, 2}"),
])
def test_neighbours_on_one_column_print_together_and_parse_back(form, literals, text):
    rule = Rule(form, (Clause(tuple(Literal(*lit) for lit in literals)),))
    assert str(rule) == text
    assert Rule.parse(text, form) == rule


GROUP_NAME = st.sampled_from(["x", "not", "x not", "in", "a in b", "{", "1 < y", "c,d", "é"])


@st.composite
def pieces(draw, join):
    """A run of literals that one piece prints: a set, a range, or a single literal."""
    kind = draw(st.sampled_from(["set", "range", "one"]))
    name = draw(st.one_of(GROUP_NAME, NAME))
    if kind == "set":
        op = "!=" if join == "and" else "=="
        values = draw(st.lists(VALUE, min_size=2, max_size=3))
        return [Literal(name, op, v) for v in values]
    if kind == "range":
        return [Literal(name, ">", draw(NUMBER)), Literal(name, "<=", draw(NUMBER))]
    return [draw(literals())]


@st.composite
def grouped_rules(draw):
    form = draw(st.sampled_from(["dnf", "cnf"]))
    join = "and" if form == "dnf" else "or"
    clauses = draw(st.lists(st.lists(pieces(join), max_size=3), max_size=3))
    return Rule(form, tuple(Clause(tuple(lit for run in c for lit in run)) for c in clauses))


@settings(max_examples=150, deadline=None)
@given(grouped_rules())
def test_any_rule_with_grouped_pieces_round_trips_through_its_string(rule):
    assert Rule.parse(str(rule), rule.form) == rule
    assert len(str(rule).splitlines()) == 1


# ------------------------------------------------------------------ what decided a row

EXPLAIN_ROWS = pd.DataFrame({"x": [5, 1, 5, 1, np.nan], "c": ["a", "a", "b", "b", "a"]})


@pytest.mark.parametrize("form, text, expected", [
    ("dnf", "(x > 3 AND c == 'a') OR (c == 'b')",
     ["true: x > 3; c == 'a'", "false: x > 3; c == 'b'", "true: c == 'b'", "true: c == 'b'",
      "false: x > 3; c == 'b'"]),
    ("dnf", "(x > 3 AND c == 'a') OR (x > 3 AND c == 'b')",  # the same literal named once
     ["true: x > 3; c == 'a'", "false: x > 3", "true: x > 3; c == 'b'", "false: x > 3",
      "false: x > 3"]),
    ("cnf", "(x > 3 OR c == 'a') AND (c == 'b' OR x <= 2)",
     ["false: c == 'b'; x <= 2", "true: c == 'a'; x <= 2", "true: x > 3; c == 'b'",
      "false: x > 3; c == 'a'", "false: c == 'b'; x <= 2"]),
    ("dnf", "FALSE", ["no clause"] * 5),
    ("cnf", "TRUE", ["all clauses hold"] * 5),
])
def test_explain_names_the_deciding_literals(form, text, expected):
    from rulelearn.rules import explain

    assert list(explain(Rule.parse(text, form), EXPLAIN_ROWS)) == expected


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["dnf", "cnf"]),
       st.lists(st.lists(st.sampled_from(
           [Literal("x", op, t) for t in (1, 2) for op in ("<=", ">")]
           + [Literal("c", op, "a") for op in ("==", "!=")] + [Literal("x", "is missing")]),
           min_size=1, max_size=3).map(tuple), min_size=1, max_size=3))
def test_the_named_literals_decide_the_row(form, clauses):
    """Brute force over every row of a small grid: a DNF's positive row holds every named
    literal, which make up one clause; a negative row fails every named literal, one of each
    clause; a CNF dually."""
    from rulelearn.rules import explain

    rule = Rule(form, tuple(Clause(c) for c in clauses))
    frame = pd.DataFrame([(x, c) for x in (0.5, 1.5, 2.5, np.nan) for c in ("a", "b", None)],
                         columns=["x", "c"])
    texts = explain(rule, frame)
    held = rule.evaluate(frame)
    for i, text in enumerate(texts):
        row = frame.iloc[[i]]
        word, _, names = text.partition(": ")
        named = names.split("; ")
        by_text = {str(lit): lit for c in rule.clauses for lit in c.literals}
        assert all(by_text[n].evaluate(row)[0] == (word == "true") for n in named)
        if (word == "true") == (form == "dnf"):  # one whole clause
            assert held[i] == (form == "dnf")
            assert any(set(named) == {str(lit) for lit in c.literals} for c in rule.clauses)
        else:  # one literal of every clause
            assert held[i] == (form == "cnf")
            assert all(set(named) & {str(lit) for lit in c.literals} for c in rule.clauses)
