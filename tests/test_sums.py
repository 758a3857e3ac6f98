"""Derived sum columns (``sums``, ``fit --sum``): computed, learned on, saved, predicted and
exported from the raw columns."""

import csv
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from test_export import pandas_holds, python_predict, sql_predict

from rulelearn import BooleanRuleClassifier
from rulelearn.binarize import QuantileBinarizer, add_sums, check_sums, sum_features
from rulelearn.cli import main
from rulelearn.csv_predict import predict_csv
from rulelearn.cv_estimator import BooleanRuleClassifierCV
from rulelearn.errors import DataError, ModelFileError, ParameterError
from rulelearn.export import SQL_HEADER, export_rule
from rulelearn.model_io import load_model, save_model

#: Hostile column names: a quote, a double quote, a newline, a plus sign.
DAY, EVE, NIGHT = "day 'charge'", 'eve "x"\nnew', "night+1"


def calls(n=400, seed=0):
    """Churn rises with the total of three charges, which no single charge shows."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({DAY: rng.uniform(0, 10, n).round(2),
                          EVE: rng.uniform(0, 10, n).round(2),
                          NIGHT: rng.uniform(0, 10, n).round(2),
                          "plan": rng.choice(["a", "b"], n)})
    churn = frame[DAY] + frame[EVE] + frame[NIGHT] > 19
    frame["churn"] = np.where(churn, "yes", "no")
    return frame


SUMS = {"total": [DAY, EVE, NIGHT]}


def test_a_sum_adds_left_to_right_and_is_missing_where_a_part_is():
    frame = pd.DataFrame({"a": [1.0, np.nan, 0.1], "b": ["2", "3", "x"], "c": [0.2, 1, 2]})
    out = add_sums(frame, {"s": ["a", "c"], "t": ["a", "b"]})
    assert list(out.columns) == ["a", "b", "c", "s", "t"]
    assert out["s"].tolist()[0] == 1.2 and np.isnan(out["s"][1]) and out["s"][2] == 0.1 + 2
    assert out["t"][0] == 3.0 and np.isnan(out["t"][1]) and np.isnan(out["t"][2])  # 'x': no number
    assert add_sums(frame, None) is frame
    assert sum_features(["s", "a", "z"], {"s": ["a", "c"]}) == ["a", "c", "z"]


@pytest.mark.parametrize("sums, message", [
    ({"s": ["a"]}, "two or more distinct columns"),
    ({"s": ["a", "a"]}, "two or more distinct columns"),
    ({"": ["a", "b"]}, "non-empty text"),
    ({"s": "ab"}, "must list column names"),
    (["s"], "must be a mapping"),
])
def test_bad_sums_are_refused_naming_the_problem(sums, message):
    with pytest.raises(ParameterError, match=message):
        check_sums(sums)


@pytest.mark.parametrize("sums, message", [
    ({"s": ["a", "nope"]}, "sum 's': the data has no column 'nope'"),
    ({"s": ["a", "k"]}, "sum 's': column 'k' is not numeric"),
    ({"a": ["b", "c"]}, "sum 'a': the data already has a column of that name"),
])
def test_at_fit_unknown_non_numeric_and_taken_names_are_refused(sums, message):
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": [1, 2], "c": [3, 4], "k": ["u", "v"]})
    with pytest.raises(DataError, match=message):
        add_sums(frame, sums, check=True)


def test_the_estimator_learns_on_the_sum_and_predicts_from_raw_columns():
    frame = calls()
    X, y = frame.drop(columns="churn"), frame["churn"]
    plain = BooleanRuleClassifier(max_rules=1, theta=5, pos_label="yes").fit(X, y)
    model = BooleanRuleClassifier(max_rules=1, theta=5, pos_label="yes", sums=SUMS).fit(X, y)
    (literal,), = [c.literals for c in model.rule_.clauses]
    assert (literal.feature, literal.op) == ("total", ">") and 17 < literal.value < 21
    assert model.score(X, y) > plain.score(X, y) + 0.05
    assert list(model.feature_names_in_) == list(X.columns)  # X keeps its own columns
    # the raw columns' literals are the binarizer's as before; the sum's come after them
    raw = QuantileBinarizer().fit(X).literals_
    assert model.literals_[:len(raw)] == raw == plain.literals_
    assert {lit.feature for lit in model.literals_[len(raw):]} == {"total"}
    new = calls(50, seed=1).drop(columns="churn")
    expected = np.where(new[DAY] + new[EVE] + new[NIGHT] > literal.value, "yes", "no")
    assert list(model.predict(new)) == list(expected)
    assert model.predict_proba(new).shape == (50, 2)


def test_the_cv_estimator_passes_sums_to_every_fit():
    frame = calls(300)
    X, y = frame.drop(columns="churn"), frame["churn"]
    search = BooleanRuleClassifierCV(sums=SUMS, cv=3, rules=(1,), forms=("dnf",),
                                     pos_label="yes").fit(X, y)
    assert search.best_estimator_.sums == SUMS and "total" in search.rule_.features
    assert search.score(X, y) > 0.95


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sums")
    frame = calls()
    X, y = frame.drop(columns="churn"), frame["churn"]
    model = BooleanRuleClassifier(max_rules=3, theta=1, pos_label="yes", sums=SUMS).fit(X, y)
    path = save_model(model, folder / "m.json", target="churn", X=X, y=y)
    new = calls(60, seed=2)
    new.loc[::7, EVE] = np.nan  # a missing part: the sum is missing, its literal false
    new[NIGHT] = new[NIGHT].astype(object)
    new.loc[5, NIGHT] = "n/a?"  # not a number: the same
    new.to_csv(folder / "new.csv", index=False)
    return load_model(path), folder / "new.csv", new, model


def test_a_saved_model_predicts_from_the_raw_columns(saved):
    model, data, new, fitted = saved
    assert model.sums == (("total", (DAY, EVE, NIGHT)),)
    assert "total" in model.rule.features and "total" not in model.features
    assert {DAY, EVE, NIGHT} <= set(model.features)
    predicted = list(predict_csv(model, data).table["prediction"])
    numbers = new.drop(columns="churn").assign(**{NIGHT: pd.to_numeric(new[NIGHT],
                                                                        errors="coerce")})
    assert predicted == list(fitted.predict(numbers))  # the estimator, on the same numbers
    total = numbers[DAY] + numbers[EVE] + numbers[NIGHT]
    assert total.isna().sum() == 10 and predicted[0] == predicted[5] == "no"  # missing parts
    assert list(model.predict(new)) == predicted
    with pytest.raises(DataError, match="lacks 1 column"):
        model.predict(new.drop(columns=[EVE]))


def test_every_export_computes_the_sum_as_predict_does(saved):
    model, data, _, _ = saved
    expected = list(predict_csv(model, data).table["prediction"])
    source = export_rule(model, "python")
    with open(data, newline="") as f:
        assert python_predict(source, csv.DictReader(f)) == expected
    assert python_predict(source, pd.read_csv(data).to_dict("records")) == expected
    for frame in (pd.read_csv(data), pd.read_csv(data, dtype=str, keep_default_na=False)):
        holds = pandas_holds(export_rule(model, "pandas"), frame)
        assert list(np.where(holds, "yes", "no")) == expected
    text = export_rule(model, "sql")
    expression = text[len(SQL_HEADER):]
    assert "(\"day 'charge'\" + \"eve \"\"x\"\"\nnew\" + \"night+1\") > " in expression
    numbers = pd.read_csv(data).apply(pd.to_numeric, errors="coerce")  # SQL: numbers or NULL
    assert sql_predict(expression, numbers) == expected


def test_a_model_file_with_bad_sums_is_refused(saved, tmp_path):
    model = saved[0]
    doc = json.loads(open(model.path).read())
    doc["sums"] = [{"name": "total", "columns": [DAY]}]
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(ModelFileError, match="bad sums: sum 'total' must add up two or more"):
        load_model(tmp_path / "bad.json")


def test_fit_sum_flag_prints_saves_and_refuses_bad_columns(tmp_path):
    calls(200).to_csv(tmp_path / "d.csv", index=False)
    runner = CliRunner()
    result = runner.invoke(main, ["fit", str(tmp_path / "d.csv"), "-t", "churn", "-q",
                                  "--form", "dnf", "-R", "1", "--theta", "1",
                                  "--sum", f"total={DAY}+{EVE}+{NIGHT}".replace(NIGHT, "x"),
                                  ])
    assert result.exit_code == 1 and "sum 'total': the data has no column 'x'" in result.output
    assert "Traceback" not in result.output
    frame = calls(200).rename(columns={DAY: "day", EVE: "eve", NIGHT: "night"})
    frame.to_csv(tmp_path / "d.csv", index=False)
    out = tmp_path / "m.json"
    result = runner.invoke(main, ["fit", str(tmp_path / "d.csv"), "-t", "churn", "-q",
                                  "--form", "dnf", "-R", "1", "--theta", "1",
                                  "--sum", "total=day+eve+night", "--save", str(out)])
    assert result.exit_code == 0, result.output
    assert "total > " in result.output and "where total = day + eve + night" in result.output
    shown = runner.invoke(main, ["show", str(out)])
    assert "where total = day + eve + night" in shown.output
    for args, message in ((["--sum", "total=day+plan"], "column 'plan' is not numeric"),
                          (["--sum", "eve=day+night"], "already has a column of that name"),
                          (["--sum", "total=day"], "expected NAME=COLUMN+COLUMN"),
                          (["--sum", "t=day+eve", "--sum", "t=eve+night"], "given twice")):
        result = runner.invoke(main, ["fit", str(tmp_path / "d.csv"), "-t", "churn", "-q",
                                      *args])
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output


def test_certify_reads_the_sum_from_the_raw_columns():
    from rulelearn.certify import certify_fitted

    frame = calls(200)
    X, y = frame.drop(columns="churn"), frame["churn"]
    model = BooleanRuleClassifier(max_rules=1, theta=5, pos_label="yes", sums=SUMS).fit(X, y)
    certify_fitted(model, X, y)  # the raw columns, as fit --certify passes them
    stats = model.fit_stats_
    assert stats["lower_bound"] <= stats["objective"] + 1e-9
    errors = int((model.predict(X) != y).sum())
    assert stats["objective"] == pytest.approx(errors + 5 * model.rule_.n_literals)


def test_fit_sum_refuses_a_target_of_three_classes(tmp_path):
    frame = calls(90).rename(columns={DAY: "day", EVE: "eve", NIGHT: "night"})
    frame["churn"] = np.resize(["a", "b", "c"], 90)
    frame.to_csv(tmp_path / "d.csv", index=False)
    result = CliRunner().invoke(main, ["fit", str(tmp_path / "d.csv"), "-t", "churn", "-q",
                                       "--sum", "total=day+eve"])
    assert result.exit_code == 1 and "--sum is for a target of two classes" in result.output
