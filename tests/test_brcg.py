"""BRCG (AIX360's BooleanRuleCG) as a benchmark method: binarization in, our Rule out."""

import re
import sys

import numpy as np
import pandas as pd
import pytest

from rulelearn.bench import executors, experiment, units
from rulelearn.bench.brcg import (
    BrcgClassifier,
    _quiet,
    brcg_frame,
    conjunction_rule,
    literal_key,
)
from rulelearn.bench.config import parse_config
from rulelearn.binarize import QuantileBinarizer
from rulelearn.errors import ConfigError, RuleLearnError
from rulelearn.rules import Clause, Literal, Rule

pytest.importorskip("aix360", reason="BRCG needs the optional extra: pip install 'rulelearn[brcg]'")
pytest.importorskip("cvxpy", reason="BRCG needs the optional extra: pip install 'rulelearn[brcg]'")


def toy(n=60, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(20, 80, n).astype(float),
                      "noise": rng.normal(size=n).round(2),
                      "colour": rng.choice(["red", "blue", "green"], n)})
    if missing:
        X.loc[rng.random(n) < 0.15, "age"] = np.nan
        X.loc[rng.random(n) < 0.1, "colour"] = None
    return X


def test_a_planted_one_literal_rule_is_found_exactly():
    X = toy()
    planted = Literal("age", ">", 46.3)
    assert planted in QuantileBinarizer(n_thresholds=4).fit(X).literals_
    y = np.where(planted.evaluate(X), "sick", "well")
    for form in ("dnf", "cnf"):
        model = BrcgClassifier(form=form, n_thresholds=4, lambda1=0.01, pos_label="sick")
        model.fit(X, y)
        assert model.rule_ == Rule(form, (Clause((planted,)),))
        assert str(model.rule_) == "age > 46.3"
        assert (model.predict(X) == y).all()


def test_literals_map_to_brcg_column_labels_and_back():
    literals = QuantileBinarizer(n_thresholds=3).fit(toy(missing=True)).literals_
    keys = [literal_key(lit) for lit in literals]
    assert ("age", "==", "NaN") in keys and ("colour", "!=", "red") in keys
    assert len(set(keys)) == len(keys)  # one column label per literal
    frame = brcg_frame(np.zeros((2, len(literals)), dtype=np.uint8), literals)
    assert list(frame.columns) == keys
    assert frame.columns.names == ["feature", "operation", "value"]


def test_a_cnf_negates_each_conjunction_exactly_also_on_missing_values():
    literals = [Literal("a", "<=", 1.5), Literal("b", "==", "x")]
    rule = conjunction_rule(np.array([[1], [1]]), literals, "cnf", missing={"a"})
    assert str(rule) == "a > 1.5 OR a is missing OR b != 'x'"
    X = pd.DataFrame({"a": [1.0, 2.0, np.nan, 1.0], "b": ["x", "x", "x", "y"]})
    conjunction = literals[0].evaluate(X) & literals[1].evaluate(X)
    assert (rule.evaluate(X) == ~conjunction).all()


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_our_rule_predicts_as_brcg_on_its_binarized_frame(form):
    X = toy(n=80, seed=1, missing=True)
    rng = np.random.default_rng(2)
    y = np.where((X["noise"] > 0.3) | (X["colour"] == "red") ^ (rng.random(80) < 0.1), 1, 0)
    model = BrcgClassifier(form=form, n_thresholds=4, lambda1=0.003, pos_label=1).fit(X, y)
    assert model.rule_.n_literals > 0
    with _quiet():
        theirs = model.brcg_.predict(brcg_frame(model.binarizer_.transform(X), model.literals_))
    assert (model.predict(X) == np.asarray(theirs)).all()


def test_column_generation_has_no_wall_clock_stop_unless_asked(monkeypatch):
    # a clock that jumps 1,000 s at every reading: only a time limit notices
    import aix360.algorithms.rbm.boolean_rule_cg as cg

    X = toy(n=80, seed=1)
    y = np.where((X["noise"] > 0.3) | (X["colour"] == "red"), 1, 0)
    calm = BrcgClassifier(n_thresholds=4, lambda1=0.001, max_iter=5, pos_label=1).fit(X, y)
    assert calm.n_iter_ >= 2  # the generation runs more than one iteration on these data
    ticks = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(cg.time, "time", lambda: float(next(ticks)))
    slow = BrcgClassifier(n_thresholds=4, lambda1=0.001, max_iter=5, pos_label=1).fit(X, y)
    assert slow.brcg_.timeMax == float("inf")
    assert (slow.n_iter_, slow.rule_) == (calm.n_iter_, calm.rule_)
    capped = BrcgClassifier(n_thresholds=4, lambda1=0.001, max_iter=5, time_max=500,
                            pos_label=1).fit(X, y)
    assert capped.n_iter_ == 0  # stopped by the (jumping) clock before its first iteration


def test_the_fit_is_quiet(capfd, recwarn):
    X = toy()
    BrcgClassifier(n_thresholds=3).fit(X, np.asarray(X["age"] > 50))
    out, _ = capfd.readouterr()
    assert out == ""
    assert not [w for w in recwarn if "This use of" in str(w.message)]


def test_a_missing_extra_is_named(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "aix360", None)  # import aix360 -> ImportError
    monkeypatch.setitem(sys.modules, "aix360.algorithms.rbm", None)
    with pytest.raises(RuleLearnError, match=re.escape("pip install 'rulelearn[brcg]'")):
        BrcgClassifier().fit(toy(), np.arange(60) % 2)
    assert experiment._missing_requirement("brcg") == (
        "method 'brcg' needs the optional 'aix360' package: pip install 'rulelearn[brcg]'")
    X = toy()
    X.assign(label=np.where(X["age"] > 50, "yes", "no")).to_csv(tmp_path / "toy.csv", index=False)
    cfg = parse_config(f"name: t\ndatasets: [{{name: toy, path: {tmp_path / 'toy.csv'}, "
                       f"target: label}}]\nmethods: [cart, brcg]\nouter_folds: 2\n"
                       f"inner_folds: 2\njobs: 1\noutput: {tmp_path / 'results'}\n")
    ran = []
    monkeypatch.setattr(executors, "run_unit", lambda unit, data: ran.append(unit))
    with pytest.raises(ConfigError, match=re.escape("rulelearn[brcg]")):
        experiment.run(cfg, progress=False)
    assert ran == []


def test_the_config_takes_brcg_with_its_lambda1_grid():
    cfg = parse_config("datasets: [wdbc_bundled]\nbinarization: {n_thresholds: 7}\nmethods:\n"
                       "  - brcg: {lambda1: [0.01, 0.001], time_max: 5}\n")
    (method,) = cfg.methods
    assert (method.tuned, method.grid, method.prefer) == ("lambda1", (0.001, 0.01), "larger")
    assert method.params == {"form": "dnf", "n_thresholds": 7, "time_max": 5}
    assert method.label == "brcg[form=dnf,time_max=5]"
    default = parse_config("datasets: [wdbc_bundled]\nmethods: [brcg]\n").methods[0]
    assert default.grid == (3e-4, 1e-3, 3e-3, 1e-2, 3e-2)


@pytest.mark.parametrize("entry, message", [
    ("{lambda2: 0.1}", "unknown key 'lambda2'. Did you mean 'lambda1'"),
    ("{lambda1: [0.01, -1]}", "lambda1 must be a finite number >= 0. Got -1"),
    ("{lambda1: []}", "the lambda1 grid is empty"),
    ("{time_max: 0}", "'time_max' parameter of BrcgClassifier must be a finite number > 0"),
    ("{form: DNF}", "must be one of {'cnf', 'dnf'}. Got 'DNF'"),
])
def test_the_config_refuses_bad_brcg_parameters(entry, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(f"datasets: [wdbc_bundled]\nmethods:\n  - brcg: {entry}\n")


def test_a_brcg_unit_records_its_rule_like_the_rule_learners(tmp_path):
    X = toy(n=40)
    X.assign(label=np.where(X["age"] > 50, "yes", "no")).to_csv(tmp_path / "toy.csv", index=False)
    cfg = parse_config(f"name: t\ndatasets: [{{name: toy, path: {tmp_path / 'toy.csv'}, "
                       f"target: label, positive: 'yes'}}]\nmethods:\n"
                       f"  - brcg: {{lambda1: [0.01, 0.03]}}\nbinarization: {{n_thresholds: 3}}\n"
                       f"outer_folds: 2\ninner_folds: 2\njobs: 1\noutput: {tmp_path / 'r'}\n")
    unit = experiment.plan(cfg)[0]
    data = units.load_data(cfg.datasets[0])
    rec = units.run_unit(unit, data)
    assert rec["status"] == "ok", rec.get("error")
    assert rec["chosen"] in (0.01, 0.03) and rec["tuned_param"] == "lambda1"
    rule = Rule.from_dict(rec["rule_json"])
    assert rec["rule"] == str(rule) and rec["n_features"] == rule.n_literals
    assert rec["n_clauses"] == rule.n_clauses
