"""Model files: save, load, validation, label types, prediction from a CSV."""

import json

import numpy as np
import pandas as pd
import pytest

from rulelearn import MODEL_FORMAT_VERSION, __version__
from rulelearn.csv_predict import predict_csv
from rulelearn.data import read_csv_dataset
from rulelearn.errors import DataError, ModelFileError, ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_io import accuracy, load_model, model_dict, save_model
from rulelearn.rules import Rule


def planted_csv(path, labels=(0, 1), n=60, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    c = rng.choice(["red", "blue", "green"], n)
    y = np.where((a > 0.3) | ((b < -0.5) & (c == "red")), labels[1], labels[0])
    pd.DataFrame({"a": a, "b": b, "c": c, "y": y}).to_csv(path, index=False)
    return path


def fitted(tmp_path, labels=(0, 1), **params):
    ds = read_csv_dataset(planted_csv(tmp_path / "d.csv", labels))
    params = {"max_rules": 3, "theta": 0.5, **params}
    model = BooleanRuleClassifier(pos_label=ds.positive, **params).fit(ds.X, ds.y)
    return ds, model


@pytest.mark.parametrize("labels", [(0, 1), ("no", "yes"), (2, 7), ("-1.5", "2.5")])  # as written
def test_round_trip_keeps_labels_and_their_types(tmp_path, labels):
    ds, model = fitted(tmp_path, labels)
    path = save_model(model, tmp_path / "m.json", target="y", X=ds.X, y=ds.y)
    loaded = load_model(path)
    assert loaded.rule == model.rule_
    assert loaded.target == "y" and loaded.form == "dnf" and loaded.method == "bcd"
    assert loaded.theta == 0.5
    assert type(loaded.positive) is type(ds.positive.item() if hasattr(ds.positive, "item")
                                          else ds.positive)
    assert loaded.positive == ds.positive
    assert {loaded.positive, loaded.negative} == set(labels)
    assert loaded.training == {"n_samples": 60, "accuracy": accuracy(model, ds.X, ds.y),
                               "n_literals": model.rule_.n_literals,
                               "n_clauses": model.rule_.n_clauses}
    assert loaded.features == model.rule_.features
    assert list(loaded.predict(ds.X)) == list(model.predict(ds.X))


def test_file_content(tmp_path):
    ds, model = fitted(tmp_path, ("no", "yes"))
    doc = json.loads(save_model(model, tmp_path / "m.json", target="y",
                                extra={"data": "d.csv"}).read_text())
    assert doc["format"] == "rulelearn-model"
    assert doc["format_version"] == MODEL_FORMAT_VERSION
    assert doc["rulelearn_version"] == __version__
    assert doc["positive"] == ds.positive and doc["classes"] == ["no", "yes"]
    assert doc["params"]["max_rules"] == 3 and doc["data"] == "d.csv"
    assert doc["features"] == ["a", "b", "c"]
    assert doc["training"]["n_samples"] is None  # no X, y given
    assert Rule.from_dict(doc["rule"]) == model.rule_
    assert doc["created"][:2] == "20"


def test_save_refuses_unfitted_or_inconsistent_input(tmp_path):
    with pytest.raises(ParameterError, match="fitted"):
        save_model(BooleanRuleClassifier(), tmp_path / "m.json", target="y")
    _, model = fitted(tmp_path)
    with pytest.raises(ParameterError, match="positive"):
        model_dict(model, target="y", positive=0)
    assert model_dict(model, target="y", positive="1")["positive"] == 1  # matched by text
    with pytest.raises(ParameterError, match="rule"):
        model_dict(model, target="y", extra={"rule": 1})


def test_save_is_atomic_and_leaves_no_temp_file(tmp_path):
    _, model = fitted(tmp_path)
    target = tmp_path / "m.json"
    target.write_text("old")
    save_model(model, target, target="y")
    assert load_model(target).rule == model.rule_
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "m.json"]
    with pytest.raises(OSError):
        save_model(model, tmp_path / "no" / "m.json", target="y")
    assert not (tmp_path / "no").exists()


def test_empty_and_cnf_rules_round_trip(tmp_path):
    ds, model = fitted(tmp_path, theta=1000.0)  # too costly to use any literal
    assert model.rule_.n_clauses == 0
    loaded = load_model(save_model(model, tmp_path / "m.json", target="y"))
    assert (loaded.predict(ds.X) == loaded.negative).all()
    ds, model = fitted(tmp_path, form="cnf", theta=0.2)
    loaded = load_model(save_model(model, tmp_path / "m.json", target="y"))
    assert loaded.form == "cnf" and loaded.rule == model.rule_
    assert list(loaded.predict(ds.X)) == list(model.predict(ds.X))


def write_model(tmp_path, doc):
    path = tmp_path / "m.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def literal(doc, **entries):
    """``doc`` with its first literal's entries replaced (JSON allows NaN / Infinity)."""
    doc = json.loads(json.dumps(doc))
    doc["rule"]["clauses"][0][0].update(entries)
    return json.dumps(doc)


@pytest.fixture
def good_doc(tmp_path):
    _, model = fitted(tmp_path)
    return model_dict(model, target="y")


@pytest.mark.parametrize("change, match", [
    (lambda d: "{not json", r"not a rulelearn model file \(not JSON"),
    (lambda d: [1, 2], r'not a rulelearn model file \(no "format"'),
    (lambda d: {**d, "format": "sklearn"}, "not a rulelearn model file"),
    (lambda d: {k: v for k, v in d.items() if k != "format_version"}, "bad format_version"),
    (lambda d: {**d, "format_version": "1"}, "bad format_version"),
    (lambda d: {**d, "format_version": MODEL_FORMAT_VERSION + 1, "rulelearn_version": "9.0"},
     f"version {MODEL_FORMAT_VERSION + 1} \\(written by rulelearn 9.0\\); this rulelearn "
     f"{__version__} reads version {MODEL_FORMAT_VERSION}: upgrade"),
    (lambda d: {**d, "format_version": 0}, f"reads only version {MODEL_FORMAT_VERSION}"),
    (lambda d: {k: v for k, v in d.items() if k != "rule"}, "no rule"),
    (lambda d: {**d, "rule": {"form": "xnf", "clauses": []}}, "bad rule"),
    (lambda d: {**d, "rule": {"form": "dnf", "clauses": [[{"feature": "a", "op": "~"}]]}},
     "bad rule"),
    (lambda d: {**d, "rule": {"form": "dnf", "clauses": 3}}, "bad rule"),
    (lambda d: {k: v for k, v in d.items() if k != "positive"}, "no 'positive'"),
    (lambda d: {**d, "negative": d["positive"]}, "bad class labels"),
    (lambda d: {**d, "positive": [1]}, "bad class labels"),
    (lambda d: {**d, "target": 3}, "bad target"),
    (lambda d: {**d, "target": ""}, "bad target"),
    (lambda d: literal(d, value=float("nan")),
     r"bad rule: clause 1, literal 1: the threshold of \w+ [<=>]+ is NaN"),
    (lambda d: literal(d, value=float("inf")), r"\(\w+ [<=>]+ inf\) has the threshold inf; "
                                             "thresholds must be finite"),
    (lambda d: literal(d, value=-1e400), "has the threshold -inf"),
    (lambda d: literal(d, value=10**400), "has the threshold 1000"),
    (lambda d: literal(d, value="abc"), "clause 1, literal 1: the threshold of .* must be a "
                                        "number, got 'abc'"),
    (lambda d: literal(d, value=True), "must be a number, got True"),
    (lambda d: literal(d, value=None), "must be a number, got None"),
    (lambda d: literal(d, op="<"), "unknown literal operator '<'"),
    (lambda d: literal(d, op="=="), None),  # numbers compare by value: fine
    (lambda d: literal(d, op="==", value=[1]), "must be a string, number or boolean"),
    (lambda d: literal(d, op="is missing", value=2), "takes no value, got 2"),
    (lambda d: literal(d, feature=7), "feature must be a column name"),
    (lambda d: literal(d, extra=1), "unknown entry 'extra'"),
    (lambda d: {**d, "rule": {"form": "dnf", "clauses": [[{"op": "<=", "value": 1}]]}},
     "no 'feature' entry"),
    (lambda d: {**d, "rule": {"form": "dnf", "clauses": [[], "x"]}},
     "clause 2 must be a list of literals"),
    (lambda d: {**d, "rule": {"form": "dnf", "clauses": []}}, None),  # the empty rule: fine
    (lambda d: {**d, "rule": []}, "a rule must be an object"),
    (lambda d: {**d, "theta": float("nan")}, "bad theta nan"),
    (lambda d: {**d, "theta": -1}, "bad theta -1"),
    (lambda d: {**d, "theta": "0.5"}, "bad theta '0.5'"),
    (lambda d: {**d, "params": [1]}, "bad params"),
    (lambda d: {**d, "params": {"method": 3}}, "bad params.method 3"),
    (lambda d: {**d, "training": "x"}, "bad training"),
    (lambda d: {**d, "features": "a"}, "bad features"),
    (lambda d: {**d, "missing_values": [1]}, "bad missing_values"),
    (lambda d: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_load_refuses_bad_files(tmp_path, good_doc, change, match):
    if match is None:
        assert load_model(write_model(tmp_path, change(dict(good_doc))))
        return
    with pytest.raises(ModelFileError, match=match) as info:
        load_model(write_model(tmp_path, change(dict(good_doc))))
    assert "\n" not in str(info.value)


def test_load_refuses_unreadable_files(tmp_path):
    with pytest.raises(ModelFileError, match="cannot read model file .*: no such file"):
        load_model(tmp_path / "absent.json")
    with pytest.raises(ModelFileError, match="cannot read model file"):
        load_model(tmp_path)
    (tmp_path / "bin").write_bytes(b"\x89PNG\xff\xfe\x00")
    with pytest.raises(ModelFileError, match="not a rulelearn model file"):
        load_model(tmp_path / "bin")


def test_predict_names_missing_columns(tmp_path):
    ds, model = fitted(tmp_path)
    loaded = load_model(save_model(model, tmp_path / "m.json", target="y"))
    with pytest.raises(DataError, match="lacks 1 column the rule uses: 'a'"):
        loaded.predict(ds.X.drop(columns="a"))


def test_predict_csv_needs_only_the_rule_columns_and_scores_labels(tmp_path):
    ds, model = fitted(tmp_path, ("no", "yes"))
    loaded = load_model(save_model(model, tmp_path / "m.json", target="y"))
    raw = pd.read_csv(tmp_path / "d.csv", dtype=str)
    expected = model.predict(ds.X)

    keep = raw[loaded.features]
    keep.to_csv(tmp_path / "p.csv", index=False)
    out = predict_csv(loaded, tmp_path / "p.csv")
    assert list(out.table.columns) == [*loaded.features, "prediction"]
    assert list(out.table["prediction"]) == list(expected)
    assert not out.has_target and out.accuracy is None
    assert "no target column 'y'" in out.summary("y")

    labeled = raw.copy()
    labeled.loc[0, "y"] = ""        # unlabeled row: not scored
    labeled.loc[1, "y"] = "maybe"   # not a class: scored as wrong
    labeled.to_csv(tmp_path / "q.csv", index=False)
    out = predict_csv(loaded, tmp_path / "q.csv")
    assert out.n_scored == 59 and out.n_unknown_labels == 1
    right = np.asarray(labeled["y"][2:]) == expected[2:]
    assert out.accuracy == pytest.approx(right.sum() / 59)
    assert "on the 59 rows that have a label" in out.summary("y")
    assert list(out.table["y"][:2]) == ["", "maybe"]  # cells written back as they were

    with pytest.raises(DataError, match="already has a column 'prediction'"):
        predict_csv(loaded, _with_prediction(tmp_path, raw))
    with pytest.raises(DataError, match="already has a column 'y'"):
        predict_csv(loaded, tmp_path / "d.csv", column="y")
    with pytest.raises(DataError, match="lacks 2 columns the rule uses"):
        raw.drop(columns=["a", "c"]).to_csv(tmp_path / "r.csv", index=False)
        predict_csv(loaded, tmp_path / "r.csv")


def _with_prediction(tmp_path, raw):
    raw.assign(prediction=1).to_csv(tmp_path / "s.csv", index=False)
    return tmp_path / "s.csv"


def test_labels_compared_by_value(tmp_path):
    ds, model = fitted(tmp_path, (0, 1))
    loaded = load_model(save_model(model, tmp_path / "m.json", target="y"))
    raw = pd.read_csv(tmp_path / "d.csv", dtype=str)
    raw["y"] = raw["y"].map({"0": "0.0", "1": " 1"})  # the same labels, written differently
    raw.to_csv(tmp_path / "p.csv", index=False)
    out = predict_csv(loaded, tmp_path / "p.csv")
    assert out.accuracy == pytest.approx(model.score(ds.X, ds.y))
    assert out.n_unknown_labels == 0


def test_save_refuses_non_finite_numbers(tmp_path):
    _, model = fitted(tmp_path)
    model.theta = float("inf")
    with pytest.raises(ParameterError, match="cannot save the model: theta is inf"):
        model_dict(model, target="y")
    _, model = fitted(tmp_path)
    clause = model.rule_.clauses[0]
    first = clause.literals[0]
    bad = type(first)(first.feature, "<=", float("-inf"))
    model.rule_ = Rule(model.rule_.form, (type(clause)((bad,)),))
    with pytest.raises(ParameterError, match=r"clause 1, literal 1 \(.* <= -inf\) has the "
                                             "threshold -inf"):
        save_model(model, tmp_path / "m.json", target="y")
    assert not (tmp_path / "m.json").exists()


def test_predict_csv_tells_integer_labels_beyond_2_53_apart(tmp_path):
    rule = {"form": "dnf", "clauses": [[{"feature": "a", "op": ">", "value": 0.5}]]}
    doc = {"format": "rulelearn-model", "format_version": MODEL_FORMAT_VERSION, "rule": rule,
           "target": "y", "positive": 2**53 + 1, "negative": 2**53}
    (tmp_path / "m.json").write_text(json.dumps(doc))
    (tmp_path / "d.csv").write_text(f"a,y\n1,{2**53 + 1}\n0,{2**53}\n1,{2**53}\n0,{2**53}.0\n")
    out = predict_csv(load_model(tmp_path / "m.json"), tmp_path / "d.csv")
    assert out.accuracy == 0.75 and out.n_unknown_labels == 0
    assert out.confusion == {"tp": 1, "fn": 0, "fp": 1, "tn": 2}


def test_a_fitted_cv_estimator_is_saved_as_its_refit_with_its_cv_choice(tmp_path):
    from rulelearn.cv_estimator import BooleanRuleClassifierCV
    from rulelearn.export import export_rule

    ds = read_csv_dataset(planted_csv(tmp_path / "d.csv", ("no", "yes")))
    search = BooleanRuleClassifierCV(forms=("dnf",), rules=(1, 2), thetas=(0.01, 1.0, 8.0),
                                     theta_scale="errors", cv=3, max_iter=5, pos_label="yes")
    with pytest.raises(ParameterError, match="no rule_ yet"):  # unfitted: the same message
        model_dict(search, target="y")
    search.fit(ds.X, ds.y)
    doc = json.loads(save_model(search, tmp_path / "m.json", target="y", X=ds.X,
                                y=ds.y).read_text())
    best = search.best_estimator_
    assert Rule.from_dict(doc["rule"]) == best.rule_ == search.rule_
    assert doc["theta"] == best.theta == search.theta_
    assert doc["params"] == json.loads(json.dumps(best.get_params()))
    assert doc["cv_selection"] == json.loads(json.dumps(search.selection_.to_dict()))
    assert doc["cv_selection"]["chosen"] == search.best_index_
    loaded = load_model(tmp_path / "m.json")
    assert list(loaded.predict(ds.X)) == list(search.predict(ds.X))
    assert loaded.training["accuracy"] == accuracy(search, ds.X, ds.y)
    assert "def predict" in export_rule(loaded, "python")
    # the caller's own cv_selection wins over the estimator's (no clash)
    mine = model_dict(search, target="y", extra={"cv_selection": {"by": "hand"}})
    assert mine["cv_selection"] == {"by": "hand"}


def test_predict_csv_reads_each_thresholded_column_as_the_rule_does(tmp_path):
    """Several thresholds on one column share one conversion of its texts: the rows held are
    still Rule.evaluate's on the same texts, non-numeric cells included."""
    def lit(feature, op, value):
        return {"feature": feature, "op": op, "value": value}

    clauses = [[lit("a", ">", 0.5), lit("a", "<=", 3)], [lit("a", "<=", -1), lit("b", "==", "x")],
               [lit("a", ">", 1e308)]]
    rule = {"form": "dnf", "clauses": clauses}
    doc = {"format": "rulelearn-model", "format_version": MODEL_FORMAT_VERSION, "rule": rule,
           "target": "y", "positive": 1, "negative": 0}
    (tmp_path / "m.json").write_text(json.dumps(doc))
    a = ["1", " 2.5", "3", "3.0001", "-1", "-2", "abc", "", "1e0", "inf", "-inf", "nan", "0x1",
         "1_0", "2e308", "1", "-5"]
    b = ["x"] * 8 + ["y"] * 8 + ["x"]
    pd.DataFrame({"a": a, "b": b}).to_csv(tmp_path / "d.csv", index=False)
    out = predict_csv(load_model(tmp_path / "m.json"), tmp_path / "d.csv")
    cells = pd.read_csv(tmp_path / "d.csv", dtype=str, keep_default_na=False)
    cells = cells.mask(cells.isin(["", "nan"]))  # the CSV reader's missing cells
    cells["a"] = cells["a"].str.strip()
    expected = Rule.from_dict(rule).evaluate(cells.astype(object))
    assert list(out.table["prediction"]) == list(np.where(expected, 1, 0))
    assert list(expected[:6]) == [True, True, True, False, True, True]  # the test is not empty
    assert len(out.notes) == 1 and "'a' has 3 non-numeric values (e.g. 'abc')" in out.notes[0]
