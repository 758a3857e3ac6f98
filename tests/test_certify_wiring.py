"""Certificates wired in: the estimator's ``certify``, ``fit --certify``, a bench config's
``certify: true`` (its records and ``gaps.md``), and the ``cg`` learner through the estimator.

The bound itself is tested against brute force in ``test_certify.py``; here a planted rule
whose LP is integral gives exact figures (bound = objective = 2θ, gap 0).
"""

import json
import re
import textwrap

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.bench import certificates, experiment, units
from rulelearn.bench.config import parse_config
from rulelearn.bench.records import Record
from rulelearn.bench.report import gap_frame, render_gaps
from rulelearn.cli import main
from rulelearn.errors import ConfigError
from rulelearn.estimator import BooleanRuleClassifier


def planted(n=48, seed=0):
    """0/1 columns; y = x0 AND x1 exactly."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, (n, 4)), columns=["x0", "x1", "x2", "x3"])
    return X, (X.x0 & X.x1).to_numpy()


# ---------------------------------------------------------------------------- the estimator
@pytest.mark.parametrize("method", ["bcd", "sc", "cg"])
def test_certify_puts_an_exact_bound_into_fit_stats(method):
    X, y = planted()
    model = BooleanRuleClassifier(method=method, theta=0.5, max_rules=2, certify=True,
                                  pos_label=1).fit(X, y)
    stats = model.fit_stats_
    assert str(model.rule_) == "x0 == 1 AND x1 == 1"
    assert stats["objective"] == pytest.approx(1.0)  # two literals, no error
    assert stats["lower_bound"] == pytest.approx(1.0, abs=1e-6)
    assert stats["gap"] == pytest.approx(0.0, abs=1e-6)
    assert stats["certificate_status"] == "optimal"


def test_certify_on_noisy_data_bounds_the_objective_from_below():
    X, y = planted(60, seed=3)
    y = y ^ (np.arange(60) % 7 == 0)  # flip every 7th label
    model = BooleanRuleClassifier(theta=0.3, max_rules=2, certify=True, pos_label=1).fit(X, y)
    stats = model.fit_stats_
    assert 0 < stats["lower_bound"] <= stats["objective"] + 1e-9
    assert stats["gap"] == pytest.approx((stats["objective"] - stats["lower_bound"])
                                         / stats["objective"])


def test_without_certify_fit_stats_have_no_bound():
    X, y = planted()
    model = BooleanRuleClassifier(theta=0.5, max_rules=2, pos_label=1).fit(X, y)
    assert "lower_bound" not in model.fit_stats_ and "gap" not in model.fit_stats_


def test_certify_must_be_a_bool():
    X, y = planted()
    with pytest.raises(ValueError, match="'certify' parameter"):
        BooleanRuleClassifier(certify="yes").fit(X, y)


# ---------------------------------------------------------------------------- the CLI
@pytest.fixture
def csv(tmp_path):
    X, y = planted()
    X.assign(y=y).to_csv(tmp_path / "d.csv", index=False)
    return tmp_path / "d.csv"


FIXED = ["--form", "dnf", "--rules", "2", "--theta", "0.5", "--positive", "1", "-q"]


def test_fit_certify_prints_objective_bound_and_gap(csv):
    result = CliRunner().invoke(main, ["fit", str(csv), "--certify", *FIXED])
    assert result.exit_code == 0, result.output
    assert "objective 1, lower bound 1, gap 0.0 %" in result.stdout
    plain = CliRunner().invoke(main, ["fit", str(csv), *FIXED])
    assert plain.exit_code == 0 and "lower bound" not in plain.stdout


def test_fit_certify_json(csv):
    result = CliRunner().invoke(main, ["fit", str(csv), "--certify", "--json", *FIXED])
    assert result.exit_code == 0, result.output
    cert = json.loads(result.stdout)["certificate"]
    assert cert["objective"] == pytest.approx(1.0) and cert["status"] == "optimal"
    assert cert["lower_bound"] == pytest.approx(1.0, abs=1e-6)
    assert cert["gap"] == pytest.approx(0.0, abs=1e-6)
    plain = CliRunner().invoke(main, ["fit", str(csv), "--json", *FIXED])
    assert "certificate" not in json.loads(plain.stdout)


def noisy_csv(tmp_path, n=400, seed=7):
    """12 numeric columns, a noisy two-term label: a bound that is not done at once."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 12)).round(3), columns=[f"v{i}" for i in range(12)])
    y = ((X.v0 > 0.3) & (X.v1 < 0.5)) | ((X.v2 > 0.8) & (X.v3 > -0.2))
    y ^= rng.random(n) < 0.15
    X.assign(y=y.astype(int)).to_csv(tmp_path / "noisy.csv", index=False)
    return tmp_path / "noisy.csv"


def test_fit_certify_budget_stops_the_bound_and_says_so(tmp_path):
    data = str(noisy_csv(tmp_path))
    args = ["fit", data, "--certify", "--certify-budget", "1e-6", "--form", "dnf", "--rules",
            "3", "--theta", "0.001", "--positive", "1", "-q"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    cert = json.loads(result.stdout)["certificate"]
    assert cert["status"] == "cpu limit"
    assert 0 <= cert["lower_bound"] <= cert["objective"] + 1e-9
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert ("(the bound stopped at the cpu limit: valid, maybe loose; --certify-budget"
            in text.stdout)


@pytest.mark.parametrize("status, note", [
    ("optimal", ""), ("trivial", ""),
    ("pricing stalled", " (pricing stalled: the bound is valid, maybe loose)"),
    ("iteration limit", " (the bound stopped at the iteration limit: valid, maybe loose)"),
    ("cpu limit", " (the bound stopped at the cpu limit: valid, maybe loose; "
                  "--certify-budget raises it)")])
def test_the_certificate_line_says_why_a_bound_is_not_proven(status, note):
    from rulelearn.cli.fit import _bound_note

    assert _bound_note(status) == note


@pytest.mark.parametrize("budget", ["0", "-1", "soon"])
def test_fit_certify_budget_must_be_positive_seconds(csv, budget):
    result = CliRunner().invoke(main, ["fit", str(csv), "--certify", "--certify-budget", budget,
                                       *FIXED])
    assert result.exit_code == 2
    assert "--certify-budget" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------------------- the bench
def config_text(tmp_path, extra=""):
    X, y = planted(60, seed=1)
    X.assign(y=np.where(y, "yes", "no")).to_csv(tmp_path / "toy.csv", index=False)
    return textwrap.dedent(f"""\
        name: t
        datasets: [{{name: toy, path: {tmp_path / 'toy.csv'}, target: y, positive: 'yes'}}]
        methods: [bcd, ocrl, cg, cart]
        R: 2
        max_iter: 5
        theta: [0.5, 5.0]
        outer_folds: 2
        inner_folds: 2
        jobs: 1
        output: {tmp_path / 'results'}
        """) + extra


def test_certify_key_changes_only_the_lp_methods_and_only_when_true(tmp_path):
    plain = parse_config(config_text(tmp_path))
    off = parse_config(config_text(tmp_path, "certify: false\n"))
    on = parse_config(config_text(tmp_path, "certify: true\n"))
    keys = [u.key for u in experiment.plan(plain)]
    assert [u.key for u in experiment.plan(off)] == keys  # old folders keep their keys
    assert "certify" not in plain.to_dict() and on.to_dict()["certify"] is True
    certified = {m.name: m.params.get("certify") for m in on.methods}
    assert certified == {"bcd": True, "ocrl": True, "cg": True, "cart": None}
    assert [m.label for m in on.methods] == [m.label for m in plain.methods]
    changed = {u.method.name for u, k in zip(experiment.plan(on), keys) if u.key != k}
    assert changed == {"bcd", "ocrl", "cg"}


def test_certify_key_must_be_true_or_false(tmp_path):
    with pytest.raises(ConfigError, match="certify.*must be true"):
        parse_config(config_text(tmp_path, "certify: 'yes'\n"))


def test_a_certified_unit_records_its_bound(tmp_path):
    config = parse_config(config_text(tmp_path, "certify: true\n"))
    planned = {u.method.name: u for u in experiment.plan(config) if u.fold == 0}
    data = units.load_data(config.datasets[0])
    for name in ("bcd", "ocrl"):
        rec = units.run_unit(planned[name], data)
        assert rec["status"] == "ok", rec.get("error")
        cert = rec["certificate"]
        assert cert["theta"] == rec["chosen"]
        assert 0 <= cert["lower_bound"] <= cert["objective"] + 1e-9
        # what produced the bound: the bench's limits, and whether the counts stopped it
        assert cert["limits"] == certificates.CERTIFY_LIMITS
        assert cert["reproducible"] == (cert["status"] != "cpu limit")
        assert cert["cpu_seconds"] >= 0 and cert["pricing_mips"] >= 0
        assert Record.from_dict(json.loads(json.dumps(rec))).certificate == {
            k: pytest.approx(cert[k]) for k in ("objective", "lower_bound", "gap")}
    cart = units.run_unit(planned["cart"], data)
    assert "certificate" not in cart and Record.from_dict(cart).certificate is None


def _record(label, fold, certificate):
    rec = {"key": f"{label}{fold}", "status": "ok", "dataset": "d", "label": label,
           "method": label.partition("[")[0], "fold": fold, "test_error": 0.1,
           "train_error": 0.1, "n_features": 3}
    if certificate is not None:
        rec["certificate"] = certificate
    return Record.from_dict(rec)


def test_records_without_a_usable_certificate_load_without_one():
    assert _record("bcd", 0, None).certificate is None
    assert _record("bcd", 0, "broken").certificate is None
    assert _record("bcd", 0, {"objective": 3.0, "lower_bound": None, "gap": 0.1}).certificate \
        is None
    assert _record("bcd", 0, {"objective": 3, "lower_bound": 2, "gap": 0.25,
                              "status": "optimal"}).certificate == {
        "objective": 3.0, "lower_bound": 2.0, "gap": 0.25}


def test_the_gap_table_of_hand_made_records():
    records = [_record("bcd", 0, {"objective": 10.0, "lower_bound": 9.0, "gap": 0.1}),
               _record("bcd", 1, {"objective": 20.0, "lower_bound": 20.0, "gap": 0.0}),
               _record("sc", 0, {"objective": 12.0, "lower_bound": 9.0, "gap": 0.25}),
               _record("cart", 0, None)]
    frame = gap_frame(records)
    assert frame.method.tolist() == ["bcd", "sc"]
    bcd = frame.iloc[0]
    assert (bcd.n_certified, bcd.objective_mean, bcd.lower_bound_mean) == (2, 15.0, 14.5)
    assert bcd.gap_mean == pytest.approx(5.0) and bcd.gap_sem == pytest.approx(5.0)
    assert bcd.gap_within_1 == 1
    text = render_gaps(frame, ["experiment: t"])
    assert re.search(r"\|\s+d \|\s+5\.0 \(5\.0\) \[1/2\] \|\s+25\.0 \(–\) \[0/1\] \|", text), text
    assert "15.0 / 14.5" in text and "12.0 / 9.0" in text
    assert gap_frame(records[-1:]).empty
