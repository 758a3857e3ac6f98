"""Rule lists for targets of three or more classes: the value, the estimator, the CV per step,
model files, exports (hostile labels too) and the CLI."""

import json
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulelearn.cli import main
from rulelearn.csv_predict import predict_csv
from rulelearn.errors import DataError, ModelFileError, ParameterError, RuleError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.export import SQL_LIST_HEADER, export_rule
from rulelearn.model_io import LoadedModel, LoadedRuleList, load_model, model_json
from rulelearn.rule_list import (
    BooleanRuleListClassifier,
    RuleList,
    class_order,
    fit_select_rule_list,
)

# a planted list over a 0/1 truth table, in the default order (8 b, 6 a, 18 c):
# IF x2 AND x3 THEN b ELIF x0 AND x1 THEN a ELSE c
TABLE = pd.DataFrame([(a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1)
                      for d in (0, 1)] * 2, columns=["x0", "x1", "x2", "x3"])
PLANTED = np.where((TABLE.x2 == 1) & (TABLE.x3 == 1), "b",
                   np.where((TABLE.x0 == 1) & (TABLE.x1 == 1), "a", "c"))
PLANTED_TEXT = "IF x2 == 1 AND x3 == 1 THEN b ELIF x0 == 1 AND x1 == 1 THEN a ELSE c"
PWNED = '"""+str(__import__("os").system("touch PWNED"))+"""'
DROP = "'); DROP TABLE canary; --"


def planted_model(labels=("a", "b", "c"), **estimator_params):
    y = np.select([PLANTED == "a", PLANTED == "b"], labels[:2], labels[2]).astype(object)
    estimator = BooleanRuleClassifier(theta=0.1, **estimator_params)
    return BooleanRuleListClassifier(estimator=estimator).fit(TABLE, y), y


# ------------------------------------------------------------------------------- class order

def test_most_frequent_last_the_others_by_count_ties_by_label_order():
    y = ["m"] * 5 + ["r"] * 1 + ["s"] * 3 + ["t"] * 3
    assert class_order(y) == ["s", "t", "r", "m"]
    assert class_order(y, "rarest") == ["r", "s", "t", "m"]  # the ELSE stays the majority
    assert class_order(y, ["t", "r", "m", "s"]) == ["t", "r", "m", "s"]
    assert class_order([2, 10, 10, 1, 1], "rarest") == [2, 1, 10]  # 1 < 10 as numbers
    assert class_order(y, "rarest", sample_weight=[1] * 5 + [9] + [1] * 6) == ["s", "t", "m", "r"]


@pytest.mark.parametrize("order, message", [
    ("largest", "must be one of"), (["r", "s", "t"], "each class of y once"),
    (["r", "s", "t", "m", "x"], "not one class"), (["r", "r", "s", "m"], "each class"),
])
def test_a_bad_order_is_refused(order, message):
    with pytest.raises(ParameterError, match=message):
        class_order(["m", "r", "s", "t"], order)


# ------------------------------------------------------------------------------ the estimator

def test_a_planted_three_class_list_is_recovered_exactly():
    model, y = planted_model()
    assert str(model.rule_list_) == PLANTED_TEXT
    assert model.classes_.tolist() == ["a", "b", "c"]
    assert (model.predict(TABLE) == y).all() and model.score(TABLE, y) == 1.0
    assert model.complexity_ == 4 and model.rule_list_.n_clauses == 2
    assert [step.pos_label_ for step in model.steps_] == [True, True]
    # the first rule saw the 16 distinct rows, the second the 12 that the first left
    assert [step.fit_stats_["n_rows_merged"] for step in model.steps_] == [16, 12]


def test_the_cv_of_fit_chooses_each_step_and_recovers_the_planted_list():
    model, selections = fit_select_rule_list(
        BooleanRuleListClassifier(), TABLE, PLANTED, cv=3, rules=(1, 3), forms=("dnf",),
        thetas=(0.1, 1.0), seed=0)
    assert str(model.rule_list_) == PLANTED_TEXT
    assert [s.best.mean_error for s in selections] == [0.0, 0.0]
    assert [s.n_folds for s in selections] == [3, 3]


def test_an_explicit_order_and_numeric_labels():
    y = np.select([PLANTED == "a", PLANTED == "b"], [7, 8], 9)
    model = BooleanRuleListClassifier(estimator=BooleanRuleClassifier(theta=0.1),
                                      order=[7, 8, 9]).fit(TABLE, y)
    # 7 first: the 0/1 columns' negations (x == 0) tell x0 AND x1 from x0 AND x1 AND x2 AND x3
    assert str(model.rule_list_) == \
        "IF [(x0 == 1 AND x1 == 1 AND x3 == 0) OR (x0 == 1 AND x1 == 1 AND x2 == 0)] THEN 7 " \
        "ELIF x2 == 1 AND x3 == 1 THEN 8 ELSE 9"
    predicted = model.predict(TABLE)
    assert predicted.dtype == y.dtype
    assert (predicted == y).all()
    # the columns as the literals (no negation): 7 takes every x0 AND x1 row, 8's included
    plain = BooleanRuleListClassifier(estimator=BooleanRuleClassifier(theta=0.1, binarize=True),
                                      order=[7, 8, 9]).fit(TABLE, y)
    assert str(plain.rule_list_) == \
        "IF x0 == 1 AND x1 == 1 THEN 7 ELIF x2 == 1 AND x3 == 1 THEN 8 ELSE 9"
    both = (TABLE.x0 & TABLE.x1).astype(bool), (TABLE.x2 & TABLE.x3).astype(bool)
    assert (plain.predict(TABLE) == np.where(both[0], 7, np.where(both[1], 8, 9))).all()
    assert plain.score(TABLE, y) == 30 / 32  # the 2 rows (1, 1, 1, 1) are 8 but meet 7 first
    assert model.score(TABLE, y) == 1.0


def test_two_classes_give_one_rule_for_the_minority_as_the_binary_classifier():
    y = ((TABLE.x0 & TABLE.x1) | TABLE.x2).astype(int).to_numpy()
    listed = BooleanRuleListClassifier(estimator=BooleanRuleClassifier(theta=0.1)).fit(TABLE, 1 - y)
    binary = BooleanRuleClassifier(theta=0.1, pos_label=1).fit(TABLE, 1 - y)
    assert listed.rule_list_.labels == (1,) and listed.rule_list_.default == 0
    assert (listed.predict(TABLE) == binary.predict(TABLE)).all()


def test_one_class_gives_an_empty_list_and_a_class_with_no_row_left_a_false_rule():
    model = BooleanRuleListClassifier().fit(TABLE, ["z"] * len(TABLE))
    assert str(model.rule_list_) == "ELSE z" and (model.predict(TABLE) == "z").all()
    # θ = 100: rule 1 is TRUE for the 18 a's (cheaper than FALSE): no row is left for rule 2
    y = np.array(["a"] * 18 + ["b"] * 7 + ["c"] * 7)
    model = BooleanRuleListClassifier(estimator=BooleanRuleClassifier(theta=100.0),
                                      order=["a", "b", "c"]).fit(TABLE, y)
    assert str(model.rule_list_) == "IF TRUE THEN a ELIF FALSE THEN b ELSE c"
    assert model.steps_[1] is None and (model.predict(TABLE) == "a").all()


@pytest.mark.parametrize("y, message", [
    (np.linspace(0, 1, 32), "continuous"), (np.full(32, np.inf), "infinite label"),
    ([1, 2, None, 3] * 8, "missing labels")])
def test_labels_that_are_not_classes_are_refused(y, message):
    with pytest.raises(DataError, match=message):
        BooleanRuleListClassifier().fit(TABLE, y)


def test_the_estimator_parameter_must_be_a_boolean_rule_classifier():
    with pytest.raises(ParameterError, match="'estimator' parameter"):
        BooleanRuleListClassifier(estimator="bcd").fit(TABLE, PLANTED)


@parametrize_with_checks([BooleanRuleListClassifier(
    estimator=BooleanRuleClassifier(max_rules=2, max_iter=5))])
def test_sklearn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dropped constant columns
        check(estimator)


# ------------------------------------------------------------------------------- the value

def test_rule_list_json_round_trip_and_errors():
    model, _ = planted_model()
    assert RuleList.from_dict(json.loads(json.dumps(model.rule_list_.to_dict()))) \
        == model.rule_list_
    with pytest.raises(RuleError, match="step 1"):
        RuleList.from_dict({"steps": [{"label": "a", "rule": {"form": "xnf", "clauses": []}}],
                            "default": "b"})
    with pytest.raises(RuleError, match="'steps'"):
        RuleList.from_dict({"default": "b"})


def test_describe_prints_if_elif_else():
    model, _ = planted_model()
    assert model.rule_list_.describe("y").splitlines() == [
        "IF   1. x2 == 1 AND", "        x3 == 1", "THEN y = b",
        "ELIF 1. x0 == 1 AND", "        x1 == 1", "THEN y = a", "ELSE y = c"]


def test_a_label_with_a_line_break_prints_on_its_line():
    model, _ = planted_model(("a\nELSE y = z", "b", "c"))
    assert str(model.rule_list_).endswith("x1 == 1 THEN 'a\\nELSE y = z' ELSE c")
    assert "THEN y = 'a\\nELSE y = z'" in model.rule_list_.describe("y").splitlines()


# --------------------------------------------------------------------- model files, exports

def saved(tmp_path, model, y, name="m.json"):
    path = tmp_path / name
    path.write_text(model_json(model, target="y", X=TABLE, y=y, extra={"data": "t.csv"}),
                    encoding="utf-8")
    return path


def test_save_load_predict_round_trip(tmp_path):
    model, y = planted_model()
    loaded = load_model(saved(tmp_path, model, y))
    assert isinstance(loaded, LoadedRuleList) and loaded.rule_list == model.rule_list_
    assert loaded.training["accuracy"] == 1.0 and loaded.settings[0]["theta"] == 0.1
    assert (loaded.predict(TABLE) == model.predict(TABLE)).all()
    csv = tmp_path / "t.csv"
    TABLE.assign(y=y).to_csv(csv, index=False)
    result = predict_csv(loaded, csv, explain="why")
    assert result.table["prediction"].tolist() == model.predict(TABLE).tolist()
    assert result.accuracy == 1.0 and result.n_unknown_labels == 0
    assert result.table["why"].iloc[15] == "rule 1: x2 == 1 AND x3 == 1"  # row (1, 1, 1, 1)
    assert result.table["why"].iloc[12] == "rule 2: x0 == 1 AND x1 == 1"  # row (1, 1, 0, 0)
    assert result.table["why"].iloc[0] == "no rule holds"


def test_a_binary_model_file_has_no_kind_and_loads_as_before(tmp_path):
    y = ((TABLE.x0 & TABLE.x1) | TABLE.x2).astype(int)
    binary = BooleanRuleClassifier(theta=0.1, pos_label=1).fit(TABLE, y)
    path = tmp_path / "b.json"
    path.write_text(model_json(binary, target="y"), encoding="utf-8")
    assert "kind" not in json.loads(path.read_text())
    assert isinstance(load_model(path), LoadedModel)


@pytest.mark.parametrize("edit, message", [
    (lambda d: {**d, "kind": "forest"}, "unknown kind 'forest'"),
    (lambda d: {**d, "rule_list": {"steps": [], "default": None}}, "bad class labels"),
    (lambda d: {**d, "rule_list": {**d["rule_list"], "default": "a"}}, "bad class labels"),
    (lambda d: {**d, "rule_list": None}, "bad rule list"),
])
def test_a_bad_rule_list_file_is_refused(tmp_path, edit, message):
    model, y = planted_model()
    path = saved(tmp_path, model, y)
    path.write_text(json.dumps(edit(json.loads(path.read_text()))), encoding="utf-8")
    with pytest.raises(ModelFileError, match=message):
        load_model(path)


def exported_predictions(loaded, fmt, frame):
    """What the exported ``fmt`` code predicts on ``frame``'s cells (text)."""
    text = export_rule(loaded, fmt)
    if fmt == "sql":
        with sqlite3.connect(":memory:") as db:
            names = ", ".join('"' + c.replace('"', '""') + '"' for c in frame.columns)
            db.execute(f"CREATE TABLE t ({names})")
            db.executemany(f"INSERT INTO t VALUES ({', '.join('?' * frame.shape[1])})",
                           frame.to_numpy().tolist())
            db.execute("CREATE TABLE canary (x)")
            body = text[len(SQL_LIST_HEADER):]
            out = [row[0] for row in db.execute(f"SELECT {body} FROM t ORDER BY rowid")]
            assert db.execute("SELECT count(*) FROM canary").fetchone() == (0,)
            return out
    namespace: dict = {}
    exec(compile(text, "exported.py", "exec"), namespace)
    if fmt == "python":
        return [namespace["predict"](row) for row in frame.to_dict("records")]
    return namespace["predict"](frame).tolist()


@pytest.mark.parametrize("fmt", ["python", "pandas", "sql"])
def test_exports_predict_as_predict_does(tmp_path, fmt):
    model, y = planted_model()
    loaded = load_model(saved(tmp_path, model, y))
    cells = TABLE.astype(str)
    assert exported_predictions(loaded, fmt, cells) == model.predict(TABLE).tolist()


@pytest.mark.parametrize("fmt", ["python", "pandas", "sql"])
def test_hostile_labels_and_names_in_a_rule_list_export(tmp_path, fmt, monkeypatch):
    monkeypatch.chdir(tmp_path)
    labels = (PWNED, DROP, "c\n# '''")
    model, y = planted_model(labels)
    loaded = load_model(saved(tmp_path, model, y))
    renamed = {"x0": PWNED, "x1": DROP, "x2": 'x"2', "x3": "x\n3"}
    doc = json.loads((tmp_path / "m.json").read_text())
    for step in doc["rule_list"]["steps"]:
        for clause in step["rule"]["clauses"]:
            for literal in clause:
                literal["feature"] = renamed[literal["feature"]]
    (tmp_path / "m.json").write_text(json.dumps(doc), encoding="utf-8")
    loaded = load_model(tmp_path / "m.json")
    text = export_rule(loaded, fmt)
    comments = [line for line in text.splitlines() if line.lstrip().startswith(("#", "--"))]
    assert not any(label in line for line in comments for label in (PWNED, DROP))
    cells = TABLE.rename(columns=renamed).astype(str)
    assert exported_predictions(loaded, fmt, cells) == model.predict(TABLE).tolist()
    assert not (tmp_path / "PWNED").exists()


# --------------------------------------------------------------------------------- the CLI

def test_cli_fit_save_predict_show_export_on_three_classes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    TABLE.assign(kind=PLANTED).to_csv("t.csv", index=False)
    runner = CliRunner()
    fitted = runner.invoke(main, ["fit", "t.csv", "-q", "-j", "1", "--theta", "0.1", "-R", "1",
                                  "--form", "dnf", "--save", "m.json"])
    assert fitted.exit_code == 0, fitted.output
    assert "3 classes: b (8 rows), a (6 rows), c (18 rows)" in fitted.output
    assert "IF   1. x2 == 1 AND\n        x3 == 1\nTHEN kind = b\nELIF 1. x0 == 1 AND\n" \
        "        x1 == 1\nTHEN kind = a\nELSE kind = c\ntraining accuracy: 100.0 %" \
        in fitted.output
    predicted = runner.invoke(main, ["predict", "m.json", "t.csv"])
    assert predicted.exit_code == 0
    assert pd.read_csv(pd.io.common.StringIO(predicted.stdout))["prediction"].tolist() \
        == PLANTED.tolist()
    assert "accuracy 100.0 %" in predicted.stderr
    shown = runner.invoke(main, ["show", "m.json"])
    assert shown.exit_code == 0 and "ELSE kind = c" in shown.output
    exported = runner.invoke(main, ["export", "m.json", "--format", "sql"])
    assert exported.exit_code == 0 and "WHEN (\"x2\" = '1'" in exported.stdout
    as_json = runner.invoke(main, ["fit", "t.csv", "-q", "-j", "1", "--json", "--theta", "0.1",
                                   "-R", "1", "--form", "dnf"])
    doc = json.loads(as_json.stdout)
    assert doc["rule_list"] == PLANTED_TEXT and doc["literals"] == 4
    assert doc["train_accuracy_percent"] == 100.0


@pytest.mark.parametrize("args, message", [
    (["fit", "t.csv", "--positive", "a"], "leave out --positive"),
    (["predict", "m.json", "t.csv", "--proba"], "leave out --proba"),
])
def test_cli_refuses_what_a_rule_list_has_not(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    TABLE.assign(kind=PLANTED).to_csv("t.csv", index=False)
    model, y = planted_model()
    saved(tmp_path, model, y)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and message in result.output
    assert "Traceback" not in result.output


def test_predict_reads_decimal_commas_for_a_rule_list(tmp_path):
    X = pd.DataFrame({"v": [0.5, 1.5, 2.5, 3.5] * 6})
    y = np.array(["low", "mid", "high", "high"] * 6)
    model = BooleanRuleListClassifier(estimator=BooleanRuleClassifier(theta=0.1)).fit(X, y)
    assert model.score(X, y) == 1.0
    path = tmp_path / "m.json"
    path.write_text(model_json(model, target="y"), encoding="utf-8")
    csv = tmp_path / "c.csv"
    csv.write_text("v;y\n" + "".join(f"{v:.1f};{label}\n".replace(".", ",")
                                     for v, label in zip(X.v, y)), encoding="utf-8")
    result = predict_csv(load_model(path), csv, sep=";", decimal=",")
    assert result.table["prediction"].tolist() == y.tolist() and result.accuracy == 1.0
