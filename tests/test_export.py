"""Exported rules (Python, SQL, pandas) predict as ``rulelearn predict`` does, missing cells,
unseen categories and non-numeric cells included."""

import csv
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelearn import BooleanRuleClassifier
from rulelearn.csv_predict import predict_csv
from rulelearn.data.parse import DEFAULT_MISSING
from rulelearn.errors import ParameterError
from rulelearn.export import SQL_HEADER, export_rule, pandas_source, python_source, sql_case
from rulelearn.model_io import load_model, save_model
from rulelearn.rules import Clause, Literal, Rule


def python_predict(source, rows):
    namespace: dict = {}
    exec(compile(source, "exported.py", "exec"), namespace)
    return [namespace["predict"](row) for row in rows]


def sql_predict(expression, frame):
    with sqlite3.connect(":memory:") as db:
        frame.to_sql("data", db, index=False)
        return [row[0] for row in db.execute(f"SELECT {expression} FROM data")]


def pandas_holds(source, frame):
    namespace: dict = {}
    exec(compile(source, "exported.py", "exec"), namespace)
    holds = namespace["holds"](frame)
    assert holds.dtype == bool and holds.index.equals(frame.index)
    assert namespace["select"](frame).index.equals(frame.index[holds.to_numpy()])
    labels = namespace["predict"](frame)
    assert list(labels) == [namespace["POSITIVE"] if h else namespace["NEGATIVE"] for h in holds]
    return holds.to_numpy()


def training(n=300, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"age": rng.normal(50, 10, n).round(1),
                          "colour": rng.choice(["red", "blue", "green"], n),
                          "size": rng.integers(1, 6, n).astype(float)})
    frame.loc[rng.random(n) < 0.1, "age"] = np.nan
    frame.loc[rng.random(n) < 0.1, "colour"] = None
    sick = ((frame["age"] > 55) & (frame["colour"] != "blue")) | (frame["size"] <= 1) \
        | frame["age"].isna()
    frame["sick"] = np.where(sick, "yes", "no")
    return frame


@pytest.fixture(scope="module", params=["dnf", "cnf"])
def saved(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    frame = training()
    X, y = frame.drop(columns="sick"), frame["sick"]
    model = BooleanRuleClassifier(form=request.param, max_rules=3, theta=0.5,
                                  pos_label="yes").fit(X, y)
    path = save_model(model, folder / "m.json", target="sick", X=X, y=y,
                      extra={"missing_values": list(DEFAULT_MISSING)})
    new = training(200, seed=1).drop(columns="sick")
    new.loc[::7, "colour"] = "purple"  # a category never seen in training
    new.loc[::11, "age"] = np.nan
    new.loc[3, "size"] = np.nan
    new.to_csv(folder / "new.csv", index=False)
    return load_model(path), folder / "new.csv"


def test_python_export_predicts_as_predict(saved):
    model, data = saved
    expected = list(predict_csv(model, data).table["prediction"])
    source = export_rule(model, "python")
    with open(data, newline="") as f:  # cells as text, as a CSV reader gives them
        assert python_predict(source, csv.DictReader(f)) == expected
    typed = pd.read_csv(data).to_dict("records")  # numbers and NaN
    assert python_predict(source, typed) == expected


def test_sql_export_predicts_as_predict(saved):
    model, data = saved
    expected = list(predict_csv(model, data).table["prediction"])
    text = export_rule(model, "sql")
    assert text.startswith(SQL_HEADER) and "sick" not in SQL_HEADER  # no data in comments
    expression = text[len(SQL_HEADER):]
    assert expression == text.splitlines()[-1] + "\n"
    assert sql_predict(expression, pd.read_csv(data)) == expected
    as_text = pd.read_csv(data, dtype=str, keep_default_na=False)  # as predict reads the cells
    as_text = as_text.mask(as_text.isin(DEFAULT_MISSING))
    for column in ("age", "size"):  # the columns the rule compares with numbers: numbers
        as_text[column] = pd.to_numeric(as_text[column])
    assert sql_predict(expression, as_text) == expected


def test_pandas_export_predicts_as_predict(saved):
    model, data = saved
    expected = predict_csv(model, data).table["prediction"].to_numpy() == "yes"
    source = export_rule(model, "pandas")
    for frame in (pd.read_csv(data), pd.read_csv(data, dtype=str, keep_default_na=False),
                  pd.read_csv(data, na_values=list(DEFAULT_MISSING), keep_default_na=False)):
        assert np.array_equal(pandas_holds(source, frame), expected)


def test_unknown_format(saved):
    with pytest.raises(ParameterError, match="unknown export format 'java'"):
        export_rule(saved[0], "java")


def test_a_backtick_name_exports_to_pandas_and_sql():
    rule = Rule("dnf", (Clause((Literal("a`b", "<=", 1),)),))
    frame = pd.DataFrame({"a`b": [0.0, 2.0, np.nan]})
    assert pandas_holds(pandas_source(rule, 1, 0, DEFAULT_MISSING), frame).tolist() == \
        [True, False, False]
    assert sql_predict(sql_case(rule, 1, 0), frame) == [1, 0, 0]


def test_sql_refuses_a_nul_naming_the_column():
    rule = Rule("dnf", (Clause((Literal("a\x00b", "<=", 1),)),))
    with pytest.raises(ParameterError, match=r"column name `a\\x00b` cannot be written in SQL"):
        sql_case(rule, 1, 0)


LITERALS = [Literal("x", op, t) for t in (1, 2.5) for op in ("<=", ">")] + [
    Literal(f, op) for f in ("x", "c") for op in ("is missing", "is not missing")] + [
    Literal("c", op, v) for v in ("a", "it's", "7") for op in ("==", "!=")] + [
    Literal("x", op, 2) for op in ("==", "!=")] + [Literal("weird \"name\" or 'x'", "<=", 0)]
RULES = st.builds(
    lambda form, clauses: Rule(form, tuple(Clause(tuple(c)) for c in clauses)),
    st.sampled_from(["dnf", "cnf"]),
    st.lists(st.lists(st.sampled_from(LITERALS), max_size=5), max_size=4))
ROWS = st.lists(st.tuples(st.sampled_from([0.5, 1.0, 2.0, 2.5, 3.0, np.nan]),
                          st.sampled_from(["a", "b", "it's", "7", None]),
                          st.sampled_from([-1.0, 0.0, 1.0, np.nan])), min_size=1, max_size=20)


@settings(max_examples=150, deadline=None)
@given(RULES, ROWS)
def test_every_export_agrees_with_the_rule(rule, rows):
    frame = pd.DataFrame(rows, columns=["x", "c", "weird \"name\" or 'x'"])
    expected = rule.evaluate(frame)
    labels = np.where(expected, "pos", "neg").tolist()
    source = python_source(rule, "pos", "neg", DEFAULT_MISSING)
    assert python_predict(source, frame.to_dict("records")) == labels
    assert python_predict(source, frame.astype(object).where(frame.notna(), "")
                          .astype(str).to_dict("records")) == labels  # as CSV text
    assert sql_predict(sql_case(rule, "pos", "neg"), frame) == labels
    assert np.array_equal(pandas_holds(pandas_source(rule, "pos", "neg", DEFAULT_MISSING),
                                       frame), expected)
