"""``rulelearn show`` and ``rulelearn export`` through Click's test runner."""

import io
import json
import sqlite3

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn import export as export_module
from rulelearn.cli import main
from rulelearn.cli.model import FORMATS
from rulelearn.rules import Rule


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def saved(run, tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=80).round(2),
                          "c": rng.choice(["red", "blue"], 80)})
    frame.loc[::9, "a"] = np.nan
    frame["y"] = np.where((frame["a"] > 0.3) | frame["a"].isna(), "yes", "no")
    frame.to_csv(tmp_path / "d.csv", index=False)
    r = run("fit", "d.csv", "--form", "dnf", "-R", "3", "--theta", "0.5", "--positive", "yes",
            "--save", "m.json")
    assert r.exit_code == 0, r.output
    return tmp_path / "m.json"


def one_line_error(result, *words, code=1):
    assert result.exit_code == code and "Traceback" not in result.output, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), result.stderr


def test_formats_follow_the_library():
    assert FORMATS == export_module.FORMATS


def test_show_reprints_rule_and_metadata(run, saved):
    r = run("show", saved)
    assert r.exit_code == 0, r.output
    doc = json.loads(saved.read_text())
    rule = Rule.from_dict(doc["rule"])
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"model: {saved}")
    assert lines[1] == "target 'y': positive class yes, negative no"
    assert lines[2].startswith("rule (DNF, method bcd, R = 3, theta = 0.5): ")
    assert rule.describe("yes", "y") in r.stdout
    assert "training: d.csv, 80 rows, accuracy " in r.stdout
    assert "per clause, training precision: 1. " in r.stdout


def test_show_says_when_it_simplified(run, tmp_path, saved):
    doc = json.loads(saved.read_text())
    doc["rule"] = Rule.parse("(a is missing) OR (a is not missing AND a > 0.3)", "dnf").to_dict()
    del doc["proba"]  # as in a file from before probabilities
    (tmp_path / "old.json").write_text(json.dumps(doc))
    r = run("show", "old.json")
    assert r.exit_code == 0, r.output
    assert "simplified from 3 to 2 literals" in r.stdout
    assert "per clause" not in r.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_writes_code(run, tmp_path, saved, fmt):
    r = run("export", saved, "--format", fmt, "-o", f"rule.{fmt}")
    assert r.exit_code == 0, r.output
    assert f"written: rule.{fmt}" in r.stderr
    assert r.stdout == ""
    assert (tmp_path / f"rule.{fmt}").read_text() == run("export", saved, "--format", fmt).stdout


def test_exported_sql_and_python_predict_as_predict(run, tmp_path, saved):
    predicted = pd.read_csv(io.StringIO(run("predict", saved, "d.csv").stdout))
    frame = pd.read_csv(tmp_path / "d.csv")
    sql = run("export", saved, "--format", "sql").stdout.splitlines()[-1]
    with sqlite3.connect(":memory:") as db:
        frame.to_sql("d", db, index=False)
        assert [row[0] for row in db.execute(f"SELECT {sql} FROM d")] == \
            list(predicted["prediction"])
    namespace: dict = {}
    exec(run("export", saved, "--format", "python").stdout, namespace)
    assert [namespace["predict"](row) for row in frame.to_dict("records")] == \
        list(predicted["prediction"])


def test_bad_input(run, tmp_path, saved):
    one_line_error(run("show", "absent.json"), "no such file")
    one_line_error(run("export", "absent.json", "--format", "sql"), "no such file")
    one_line_error(run("show", "d.csv"), "not a rulelearn model file")
    one_line_error(run("export", saved, "--format", "java"), "'java' is not one of", code=2)
    one_line_error(run("export", saved, "--format", "sql", "-o", "m.json"), "model file")
    one_line_error(run("export", saved, "--format", "sql", "-o", "no/dir/x.sql"), "cannot write")
    doc = json.loads(saved.read_text())
    doc["rule"]["clauses"][0][0]["feature"] = "a\x00b"
    (tmp_path / "nul.json").write_text(json.dumps(doc))
    one_line_error(run("export", "nul.json", "--format", "sql", "-o", "x.sql"),
                   "column name `a\\x00b` cannot be written in SQL")
    assert not (tmp_path / "x.sql").exists()


def test_rule_lines_add_the_simplified_rule_only_when_it_is_shorter():
    from rulelearn.cli.model import rule_lines
    from rulelearn.rules import Rule

    redundant = Rule.parse("(x > 1 AND x > 2) OR (y > 2)", "dnf")
    lines = list(rule_lines(redundant, 1, "label"))
    assert len(lines) == 3
    assert lines[1].startswith("simplified from 3 to 2 literals")
    assert "x > 1" in lines[0] and "x > 1" not in lines[2] and "x > 2" in lines[2]
    plain = Rule.parse("(x > 1) OR (y > 2)", "dnf")
    assert list(rule_lines(plain, 1, "label")) == [plain.describe(1, "label")]


def test_rule_lines_read_a_cnf_for_the_other_class():
    from rulelearn.cli.model import rule_lines
    from rulelearn.rules import Rule

    cnf = Rule.parse("(x > 1) AND (x <= 1 OR y > 2)", "cnf")
    lines = list(rule_lines(cnf, "yes", "label", negative="no"))
    assert len(lines) == 5 and lines[1].startswith("simplified from 3 to 2 literals")
    assert lines[3] == ("the same rule, read for the other class (a DNF; here a comparison "
                        "with a missing value, or of a non-number with a threshold, holds):")
    assert lines[4] == "IF  1. x <= 1\nOR  2. y <= 2\nTHEN label = no"


def test_show_prints_sets_and_the_cnf_read_for_the_other_class(run, tmp_path):
    tiers = np.array(["bronze", "silver", "gold", "platinum"] * 15)
    frame = pd.DataFrame({"tier": tiers,
                          "y": np.where(np.isin(tiers, ["gold", "platinum"]), "yes", "no")})
    frame.to_csv(tmp_path / "t.csv", index=False)
    r = run("fit", "t.csv", "--form", "cnf", "-R", "1", "--theta", "0.5", "--positive", "yes",
            "--save", "m.json")
    assert r.exit_code == 0, r.output
    shown = run("show", "m.json").stdout.splitlines()
    assert shown[2].startswith("rule (CNF, method bcd, R = 1, theta = 0.5): ")
    at = shown.index("IF  1. tier in {'gold', 'platinum'}")
    assert shown[at + 1] == "THEN y = yes"
    assert shown[at + 2].startswith("the same rule, read for the other class (a DNF")
    assert shown[at + 3:at + 5] == ["IF  1. tier not in {'gold', 'platinum'}", "THEN y = no"]
    assert "tier not in {'gold', 'platinum'}" in r.stdout  # fit prints the same


def test_show_names_the_class_weight(run, tmp_path):
    pd.DataFrame({"x": [1] * 30 + [0] * 70, "y": [1] * 15 + [0] * 85}).to_csv(
        tmp_path / "rare.csv", index=False)
    r = run("fit", "rare.csv", "--theta", "1", "-R", "1", "--form", "dnf", "--class-weight",
            "balanced", "--save", "m.json")
    assert r.exit_code == 0, r.output
    assert run("show", "m.json").stdout.splitlines()[2].startswith(
        "rule (DNF, method bcd, R = 1, theta = 1, class weight 'balanced'): 1 clause, 1 literal")
