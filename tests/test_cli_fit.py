"""``rulelearn fit`` and ``rulelearn predict`` through Click's test runner."""

import importlib
import io
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn import MODEL_FORMAT_VERSION
from rulelearn.cli import main
from rulelearn.data import read_csv_dataset
from rulelearn.estimator import FORMS, METHODS, BooleanRuleClassifier
from rulelearn.model_selection import FIT_THETAS

FAST = ["--theta", "0.5", "--rules", "3", "--form", "dnf"]  # all given: no CV


def planted(n=60, labels=(0, 1), seed=0):
    """a > 0.3 OR (b < -0.5 AND c == red) -> labels[1]; the positive class is the minority."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    c = rng.choice(["red", "blue", "green"], n)
    y = np.where((a > 0.3) | ((b < -0.5) & (c == "red")), labels[1], labels[0])
    return pd.DataFrame({"a": a, "b": b, "c": c, "y": y})


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Invoke ``rulelearn ARGS...`` in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args):
        return CliRunner().invoke(main, [str(a) for a in args])
    return invoke


@pytest.fixture
def data(tmp_path):
    planted().to_csv(tmp_path / "d.csv", index=False)
    return tmp_path / "d.csv"


def assert_one_line_error(result, *words, usage=False):
    """Non-zero exit, no traceback, exactly one ``Error:`` line on stderr naming ``words``."""
    assert result.exit_code == (2 if usage else 1), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.stderr + result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.stderr
    if not usage:  # library errors: the one line is all there is
        assert result.stderr.strip() == errors[0]
    for word in words:
        assert word in errors[0], (word, errors[0])
    return errors[0]


def test_cli_choices_follow_the_estimator():
    fit_module = importlib.import_module("rulelearn.cli.fit")
    assert set(fit_module.METHODS) == set(METHODS)
    assert set(fit_module.FORMS) == set(FORMS)


# ------------------------------------------------------------------------------------------- fit

def test_fit_prints_data_rule_size_and_accuracy(run, data):
    r = run("fit", data, *FAST)
    assert r.exit_code == 0, r.output
    out = r.stdout
    ds = read_csv_dataset(data)
    model = BooleanRuleClassifier(theta=0.5, max_rules=3, pos_label=1, start="best").fit(ds.X, ds.y)
    n_pos = int((ds.y == 1).sum())
    assert out.splitlines()[0] == (
        f"data: {data} (60 rows, 3 features); target 'y', positive class 1 "
        f"({n_pos} rows, the minority class), negative 0 ({60 - n_pos} rows)")
    assert "theta = 0.5 (given)" in out
    rule = model.rule_
    assert (f"rule (DNF, bcd, R = 3): {rule.n_clauses} clauses, {rule.n_literals} literals"
            in out)
    assert rule.describe(1, "y") in out and "THEN y = 1" in out
    assert f"training accuracy: {100 * model.score(ds.X, ds.y):.1f} %" in out
    assert r.stderr == ""


def test_fit_chooses_form_rules_and_theta_by_cv(run, data):
    r = run("fit", data)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[1].startswith("cross-validation (the best theta per form and R; --path: all")
    assert lines[2].split() == ["form", "R", "theta", "literals", "CV", "error", "%"]
    end = next(i for i, x in enumerate(lines) if x.startswith("chosen: "))
    table = [x for x in lines[3:end] if not x.startswith("  not tried: ")]
    # one row per (form, R) tried, DNF first, R ascending; R grows while it is used up
    tried = [(row[2:6].strip(), int(row[6:10])) for row in table]
    for form in ("DNF", "CNF"):
        rs = [n for f, n in tried if f == form]
        assert rs == [1, 3, 5, 10][:len(rs)] and rs
    assert [f for f, _ in tried] == sorted((f for f, _ in tried), key=("DNF", "CNF").index)
    if len(tried) < 8:
        assert lines[end - 1].startswith("  not tried: ")
    chosen = [row for row in table if row.startswith("*")]
    assert len(chosen) == 1
    form, rules = chosen[0][2:6].strip(), chosen[0][6:10].strip()
    assert lines[end].startswith(f"chosen: {form}, R = {rules}, theta = ")
    assert ("by 5-fold stratified CV over 2 forms x 4 R x 8 theta (the lowest CV error plus 0.1 "
            "point per literal); CV error ") in lines[end]
    assert lines[end + 1].startswith(f"rule ({form}, bcd, R = {rules}): ")
    assert not any(x.startswith("theta = ") for x in lines)


def test_fit_path_prints_every_theta(run, data):
    r = run("fit", data, "--rules", "2", "--form", "cnf", "--path")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[1] == "cross-validation (every theta; * = chosen):"
    rows = lines[3:11]
    assert all(row[2:].split()[:2] == ["CNF", "2"] for row in rows)
    thetas = [float(row.split()[-5]) for row in rows]
    assert thetas == pytest.approx([float(f"{t:.4g}") for t in FIT_THETAS])
    assert sum(row.startswith("*") for row in rows) == 1
    assert "over 8 theta (the lowest CV error plus" in lines[11]
    assert lines[11].startswith("chosen: CNF, R = 2,")


@pytest.mark.parametrize("args, form, rules, size", [
    (["--form", "cnf"], "CNF", None, "4 R x 8 theta"),
    (["-R", "3"], None, "3", "2 forms x 8 theta"),
    (["--theta", "0.5"], None, None, "2 forms x 4 R ("),
    (["--theta", "0.5", "--form", "dnf"], "DNF", None, "over 4 R ("),
])
def test_fit_given_options_fix_their_axis(run, data, args, form, rules, size):
    r = run("fit", data, *args)
    assert r.exit_code == 0, r.output
    chosen = next(x for x in r.stdout.splitlines() if x.startswith("chosen: "))
    assert size in chosen
    if form:
        assert chosen.startswith(f"chosen: {form},")
    if rules:
        assert f", R = {rules}," in chosen
    if "--theta" in args:
        assert ", theta = 0.5 by" in chosen


def test_fit_saves_the_cv_table(run, tmp_path, data):
    r = run("fit", data, "--form", "dnf", "-R", "2", "--save", "m.json")
    assert r.exit_code == 0, r.output
    saved = json.loads((tmp_path / "m.json").read_text())["cv_selection"]
    assert saved["n_folds"] == 5 and saved["seed"] == 0 and len(saved["rows"]) == 8
    chosen = saved["rows"][saved["chosen"]]
    assert (chosen["form"], chosen["max_rules"]) == ("dnf", 2)
    assert f"theta = {chosen['theta']:.3g} by 5-fold" in r.stdout


def test_fit_cv_folds_shrink_to_the_minority_class(run, tmp_path):
    df = planted(40)
    df["y"] = 0
    df.loc[:2, "y"] = 1  # 3 positives
    df.to_csv(tmp_path / "few.csv", index=False)
    r = run("fit", "few.csv", "--rules", "1", "--form", "dnf", "--cv", "10")
    assert r.exit_code == 0, r.output
    assert "by 3-fold stratified CV" in r.stdout


def test_fit_options_target_positive_form_method(run, tmp_path):
    df = planted(labels=("healthy", "sick"))
    df = df[["y", "a", "b", "c"]].rename(columns={"y": "status"})  # target not last
    df.to_csv(tmp_path / "s.csv", index=False)
    r = run("fit", "s.csv", "--target", "status", "--positive", "healthy", "--form", "cnf",
            "--method", "sc", "--theta", "0.5", "--rules", "3")
    assert r.exit_code == 0, r.output
    assert "target 'status', positive class healthy (" in r.stdout
    assert "given by --positive" in r.stdout
    assert "rule (CNF, sc, R = 3)" in r.stdout and "THEN status = healthy" in r.stdout


@pytest.mark.parametrize("method", METHODS)
def test_fit_every_method(run, data, method):
    r = run("fit", data, "--method", method, *FAST)
    assert r.exit_code == 0, r.output
    assert f"(DNF, {method}, R = 3)" in r.stdout


def test_fit_drop_and_identifier_warning(run, tmp_path):
    df = planted()
    df.insert(0, "id", [f"row{i}" for i in range(len(df))])
    df.to_csv(tmp_path / "i.csv", index=False)
    r = run("fit", "i.csv", *FAST)
    assert r.exit_code == 0, r.output
    assert "warning: column 'id' has a different value in every row (an identifier?): left " \
        "out (--keep id keeps it)" in r.stderr
    assert "(60 rows, 3 features)" in r.stdout
    r = run("fit", "i.csv", "--keep", "id", *FAST)
    assert r.exit_code == 0 and r.stderr == "" and "(60 rows, 4 features)" in r.stdout
    r = run("fit", "i.csv", "--drop", "id", *FAST)
    assert r.exit_code == 0 and r.stderr == ""
    assert "(60 rows, 3 features)" in r.stdout


def test_fit_missing_token_and_mostly_text_column(run, tmp_path):
    df = planted().astype({"a": object})
    df.loc[3, "a"] = "n/a"
    df.to_csv(tmp_path / "m.csv", index=False)
    assert_one_line_error(run("fit", "m.csv", *FAST), "'a'", "non-numeric", "'n/a'")
    r = run("fit", "m.csv", "--missing", "n/a", *FAST, "--save", "model.json")
    assert r.exit_code == 0, r.output
    assert "n/a" in json.loads((tmp_path / "model.json").read_text())["missing_values"]
    r = run("predict", "model.json", "m.csv")
    assert r.exit_code == 0, r.output
    # a column that is mostly text is categorical
    df = planted()
    df["c"] = df["c"].where(np.arange(len(df)) % 10 != 0, "7")
    df.to_csv(tmp_path / "cat.csv", index=False)
    assert run("fit", "cat.csv", *FAST).exit_code == 0


def test_fit_float_labels(run, tmp_path):
    planted(labels=(0.5, 1.5)).to_csv(tmp_path / "f.csv", index=False)
    r = run("fit", "f.csv", "--rules", "2", "--save", "m.json")
    assert r.exit_code == 0, r.output
    assert "positive class 1.5" in r.stdout
    r = run("predict", "m.json", "f.csv")
    assert r.exit_code == 0, r.output
    assert set(pd.read_csv(io.StringIO(r.stdout)).prediction) <= {0.5, 1.5}


# -------------------------------------------------------------------------- fit -> save -> predict

@pytest.mark.parametrize("labels", [(0, 1), ("benign", "malignant")])
def test_round_trip_fit_save_predict(run, tmp_path, labels):
    df = planted(labels=labels)
    df.to_csv(tmp_path / "d.csv", index=False)
    r = run("fit", "d.csv", *FAST, "--save", "model.json")
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith("saved: model.json")

    # the estimator on the same data gives the same predictions
    ds = read_csv_dataset(tmp_path / "d.csv")
    model = BooleanRuleClassifier(theta=0.5, max_rules=3, pos_label=ds.positive,
                                  start="best").fit(ds.X, ds.y)
    expected = [str(v) for v in model.predict(ds.X)]

    # new rows, in a shuffled order, to stdout
    new = planted(30, labels=labels, seed=5).sample(frac=1, random_state=2)
    new.to_csv(tmp_path / "new.csv", index=False)
    r = run("predict", "model.json", "new.csv")
    assert r.exit_code == 0, r.output
    out = pd.read_csv(io.StringIO(r.stdout), dtype=str)
    assert list(out.columns) == ["a", "b", "c", "y", "prediction"]
    assert list(out["a"]) == list(new["a"].astype(str))  # rows in input order
    truth = [str(v) for v in model.predict(read_csv_dataset(tmp_path / "new.csv").X)]
    assert list(out["prediction"]) == truth
    assert set(out["prediction"]) <= {str(v) for v in labels}
    acc = np.mean(np.asarray(truth) == new["y"].astype(str).to_numpy())
    assert f"30 rows predicted; accuracy {100 * acc:.1f} % against column 'y'" in r.stderr

    # the training file, to a file
    r = run("predict", "model.json", "d.csv", "-o", "out.csv")
    assert r.exit_code == 0, r.output
    assert r.stdout == "" and "written: out.csv" in r.stderr
    out = pd.read_csv(tmp_path / "out.csv", dtype=str)
    assert list(out["prediction"]) == expected
    assert list(out["y"]) == [str(v) for v in df["y"]]  # rows in order


def test_predict_needs_only_the_rule_columns(run, tmp_path, data):
    run("fit", data, *FAST, "--save", "model.json")
    rule_columns = json.loads((tmp_path / "model.json").read_text())["rule"]["clauses"]
    used = sorted({lit["feature"] for clause in rule_columns for lit in clause})
    pd.read_csv(data)[used].to_csv(tmp_path / "few.csv", index=False)
    r = run("predict", "model.json", "few.csv")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == ",".join(used + ["prediction"])
    assert "no target column 'y', so no accuracy" in r.stderr


def test_predict_notes_non_numeric_cells(run, tmp_path):
    df = planted()
    df.to_csv(tmp_path / "d.csv", index=False)
    r = run("fit", "d.csv", "--theta", "5", "--rules", "1", "--save", "model.json")
    assert "a > " in r.stdout  # the planted rule's strongest part
    df.astype({"a": object}).assign(a=lambda d: d.a.where(d.index != 2, "oops")).to_csv(
        tmp_path / "p.csv", index=False)
    r = run("predict", "model.json", "p.csv")
    assert r.exit_code == 0, r.output
    assert ("note: column 'a' has 1 non-numeric value (e.g. 'oops'), where comparisons with "
            "numbers are false") in r.stderr


def test_predict_column_option(run, tmp_path, data):
    run("fit", data, *FAST, "--save", "model.json")
    pd.read_csv(data).assign(prediction=1).to_csv(tmp_path / "p.csv", index=False)
    r = run("predict", "model.json", "p.csv", "--column", "rule_says")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0].endswith(",prediction,rule_says")


# ------------------------------------------------------------------------------------ bad input

def csv(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return name


def three_classes(tmp_path):
    df = planted()
    df.loc[:5, "y"] = 2
    df.to_csv(tmp_path / "x.csv", index=False)
    return "x.csv"


def one_class(tmp_path):
    planted().assign(y="a").to_csv(tmp_path / "x.csv", index=False)
    return "x.csv"


def all_missing(tmp_path):
    planted().assign(c="").to_csv(tmp_path / "x.csv", index=False)
    return "x.csv"


def junk(tmp_path):
    df = planted().astype({"b": object})
    df.loc[7, "b"] = "1,5"
    df.to_csv(tmp_path / "x.csv", index=False)
    return "x.csv"


def one_positive(tmp_path):
    planted().assign(y=lambda d: (d.index == 0).astype(int)).to_csv(tmp_path / "x.csv",
                                                                    index=False)
    return "x.csv"


def good(tmp_path):
    planted().to_csv(tmp_path / "x.csv", index=False)
    return "x.csv"


@pytest.mark.parametrize("make, extra, words", [
    (lambda p: "absent.csv", FAST, ["cannot read absent.csv", "no such file"]),
    (lambda p: ".", FAST, ["cannot read .", "directory"]),
    (lambda p: csv(p, "x.csv", ""), FAST, ["x.csv is empty"]),
    (lambda p: csv(p, "x.csv", "a,b,y\n"), FAST, ["x.csv has a header but no data rows"]),
    (lambda p: csv(p, "x.csv", "a\n1\n2\n"), FAST, ["1 column"]),
    (good, [*FAST, "--target", "yy"], ["no target column 'yy'", "did you mean 'y'"]),
    (good, [*FAST, "--target", "zzz"], ["no target column 'zzz'", "columns: a, b, c, y"]),
    (one_class, FAST, ["target 'y' has 1 class (a)", "exactly 2"]),
    (three_classes, [*FAST, "--positive", "2"], ["target 'y' has 3 classes", "rule list",
                                                 "leave out --positive"]),
    (all_missing, FAST, ["'c'", "all missing"]),
    (junk, FAST, ["column 'b'", "non-numeric", "'1,5'", "row 8"]),
    (good, [*FAST, "--positive", "maybe"], ["positive class 'maybe'", "values: 0, 1"]),
    (good, [*FAST, "--drop", "zzz"], ["--drop zzz", "no such feature column"]),
    (good, [*FAST, "--drop", "y"], ["--drop y", "target"]),
    (good, [*FAST, "--drop", "a", "--drop", "b", "--drop", "c"], ["no feature column"]),
    (one_positive, ["--rules", "2"], ["class 1 has only 1 row", "--theta, --rules and --form"]),
    (good, [*FAST, "--save", "no/such/folder/m.json"], ["cannot write no/such/folder/m.json",
                                                        "No such file or directory"]),
])
def test_fit_bad_input(run, tmp_path, make, extra, words):
    assert_one_line_error(run("fit", make(tmp_path), *extra), *words)


def test_fit_starts_the_workers_once_the_data_are_read_and_ends_them_on_an_error(
        run, tmp_path, monkeypatch):
    from rulelearn import _workers
    from rulelearn.cli import fit as fit_command

    started = []

    def start(n_jobs):
        up = _workers.start(n_jobs)
        started.append((n_jobs, list(_workers._pools[0]._processes.values()) if up else []))
        return up

    monkeypatch.setattr(fit_command, "start_workers", start)
    # the CV's own error (a class of 1 row), after the start: the worker ends with it
    assert_one_line_error(run("fit", one_positive(tmp_path), "--rules", "2", "-q", "-j", "2"),
                          "class 1 has only 1 row")
    [(n_jobs, processes)] = started
    assert n_jobs == 2 and processes and not any(p.is_alive() for p in processes)
    started.clear()  # none for a file that cannot be read, a fit without CV, one process
    for args in (["-j", "2"], FAST, ["-j", "1"]):
        assert_one_line_error(run("fit", "absent.csv", *args), "cannot read absent.csv")
    planted().to_csv(tmp_path / "d.csv", index=False)
    for args in (FAST, ["-j", "1", "--cv", "2", "--rules", "1", "--form", "dnf"]):
        assert run("fit", "d.csv", *args, "-q").exit_code == 0
    assert started == [(1, [])]


@pytest.mark.parametrize("args, words", [
    (["--theta", "-0.1"], ["'--theta'", "-0.1", "x>=0"]),
    (["--rules", "0"], ["'--rules'", "0", "x>=1"]),
    (["--method", "xyz"], ["'--method'", "'xyz'"]),
    (["--cv", "1"], ["'--cv'"]),
])
def test_fit_bad_option(run, data, args, words):
    assert_one_line_error(run("fit", data, *args), *words, usage=True)


@pytest.fixture
def saved(run, tmp_path, data):
    r = run("fit", data, *FAST, "--save", "model.json")
    assert r.exit_code == 0, r.output
    return json.loads((tmp_path / "model.json").read_text())


def model_file(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return "bad.json"


@pytest.mark.parametrize("make, words", [
    (lambda p, d: "absent.json", ["cannot read model file absent.json: no such file"]),
    (lambda p, d: ".", ["cannot read model file .", "directory"]),
    (lambda p, d: model_file(p, "a,b\n1,2\n"),
     ["bad.json is not a rulelearn model file (not JSON"]),
    (lambda p, d: model_file(p, {"coef": [1, 2]}),
     ["bad.json is not a rulelearn model file", "format"]),
    (lambda p, d: model_file(p, {**d, "format_version": MODEL_FORMAT_VERSION + 1,
                                 "rulelearn_version": "9.9"}),
     [f"version {MODEL_FORMAT_VERSION + 1}", "rulelearn 9.9", f"reads version "
      f"{MODEL_FORMAT_VERSION}", "upgrade"]),
    (lambda p, d: model_file(p, {**d, "format_version": 0}),
     ["version 0", f"only version {MODEL_FORMAT_VERSION}", "fit the model again"]),
    (lambda p, d: model_file(p, {**d, "rule": {"form": "dnf"}}), ["not a rulelearn model file"]),
])
def test_predict_bad_model(run, tmp_path, data, saved, make, words):
    assert_one_line_error(run("predict", make(tmp_path, saved), data), *words)


def test_predict_bad_data(run, tmp_path, data, saved):
    used = sorted({lit["feature"] for clause in saved["rule"]["clauses"] for lit in clause})
    assert used, "the planted rule uses at least one column"
    pd.read_csv(data).drop(columns=used).to_csv(tmp_path / "lacks.csv", index=False)
    assert_one_line_error(run("predict", "model.json", "lacks.csv"),
                          "lacks.csv lacks", *[repr(c) for c in used])
    assert_one_line_error(run("predict", "model.json", "absent.csv"),
                          "cannot read absent.csv: no such file")
    csv(tmp_path, "empty.csv", "")
    assert_one_line_error(run("predict", "model.json", "empty.csv"), "empty.csv is empty")
    pd.read_csv(data).assign(prediction=0).to_csv(tmp_path / "p.csv", index=False)
    assert_one_line_error(run("predict", "model.json", "p.csv"),
                          "already has a column 'prediction'", "--column")
    assert_one_line_error(run("predict", "model.json", data, "-o", "no/dir/out.csv"),
                          "cannot write no/dir/out.csv")


# ------------------------------------------------------------------- never overwrite an input

@pytest.mark.parametrize("save", ["d.csv", "./d.csv", "sub/../d.csv", "link.csv", "hard.csv"])
def test_fit_refuses_to_save_over_its_input(run, tmp_path, data, save):
    import os

    (tmp_path / "sub").mkdir()
    (tmp_path / "link.csv").symlink_to("d.csv")
    os.link(tmp_path / "d.csv", tmp_path / "hard.csv")
    before = data.read_bytes()
    assert_one_line_error(run("fit", "d.csv", *FAST, "--save", save),
                          f"--save {save} is the input data file", "choose another file")
    assert data.read_bytes() == before


def test_predict_refuses_to_write_over_its_inputs(run, tmp_path, data, saved):
    before = {p: (tmp_path / p).read_bytes() for p in ("d.csv", "model.json")}
    assert_one_line_error(run("predict", "model.json", "d.csv", "-o", "d.csv"),
                          "--output d.csv is the input data file")
    assert_one_line_error(run("predict", "model.json", "d.csv", "-o", "./model.json"),
                          "--output ./model.json is the model file")
    assert {p: (tmp_path / p).read_bytes() for p in before} == before
    r = run("predict", "model.json", "d.csv", "-o", "out.csv")
    assert r.exit_code == 0, r.output


# ------------------------------------------------------------------- encodings and separators

@pytest.mark.parametrize("sep, encoding, option", [
    (";", "utf-8", []), ("\t", "utf-8", []), (",", "utf-16", []), (";", "utf-16-le", []),
    (" ", "utf-8", ["--sep", "space"]), (":", "utf-8", ["--sep", ":"]),
    ("\t", "utf-8", ["--sep", "\\t"]), (";", "utf-8-sig", ["--sep", "semicolon"]),
])
def test_fit_and_predict_read_other_separators_and_utf16(run, tmp_path, sep, encoding, option):
    text = planted().to_csv(index=False, sep=sep)
    (tmp_path / "s.csv").write_bytes(text.encode(encoding))
    r = run("fit", "s.csv", *FAST, *option, "--save", "m.json")
    assert r.exit_code == 0, r.output
    assert "(60 rows, 3 features); target 'y'" in r.stdout
    r = run("predict", "m.json", "s.csv", *option, "-o", "p.csv")
    assert r.exit_code == 0, r.output
    assert "60 rows predicted; accuracy" in r.stderr
    assert list(pd.read_csv(tmp_path / "p.csv").columns) == ["a", "b", "c", "y", "prediction"]


@pytest.mark.parametrize("value", ["", ";;", "\n", '"', "semicolons"])
def test_bad_separator_option(run, data, value):
    assert_one_line_error(run("fit", data, *FAST, "--sep", value), "'--sep'", usage=True)


# ------------------------------------------------------------------------- warnings and OSError

def test_warnings_are_one_line_each_and_shown_once(run, tmp_path):
    planted().assign(k=1)[["k", "a", "b", "c", "y"]].to_csv(tmp_path / "k.csv", index=False)
    r = run("fit", "k.csv", "--rules", "2", "-q")  # theta by CV: the binarizer runs in every fold
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == ["warning: dropped 1 constant or empty column(s): k"]
    r = run("fit", "k.csv", "--rules", "2")  # the same with the CV progress lines between
    lines = [x for x in r.stderr.splitlines() if not x.startswith("CV: form")]
    assert lines == ["warning: dropped 1 constant or empty column(s): k"]


def test_warning_plumbing_dedupes_and_keeps_deprecations_apart(capsys):
    import warnings

    from rulelearn.cli import warnings_as_lines

    with warnings_as_lines():
        warnings.simplefilter("always")
        for _ in range(3):
            warnings.warn("same\nthing", stacklevel=1)
        warnings.warn("other", RuntimeWarning, stacklevel=1)
    assert capsys.readouterr().err.splitlines() == ["warning: same thing",
                                                    "warning: RuntimeWarning: other"]


def test_os_errors_are_one_line(run, data, saved, monkeypatch):
    import rulelearn.model_io

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(rulelearn.model_io, "load_model", refuse)
    assert_one_line_error(run("predict", "model.json", data), "model.json: Permission denied")


def test_save_to_a_named_pipe_writes_into_it_and_keeps_it(run, tmp_path, data):
    import os
    import stat
    import threading

    os.mkfifo(tmp_path / "pipe")
    got = []
    reader = threading.Thread(target=lambda: got.append((tmp_path / "pipe").read_text()),
                              daemon=True)
    reader.start()
    r = run("fit", data, *FAST, "--save", "pipe")
    reader.join(10)
    assert r.exit_code == 0, r.output
    assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode)  # not replaced by a regular file
    assert json.loads(got[0])["format"] == "rulelearn-model"


def test_save_through_a_link_replaces_the_file_it_points_to(run, tmp_path, data):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    r = run("fit", data, *FAST, "--save", "link.json")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text())["format"] == "rulelearn-model"


@pytest.mark.parametrize("args, words", [
    (["fit", "d.csv", *FAST, "--save", ""], ["'--save'", "an empty file name"]),
    (["fit", "d.csv", *FAST, "--seed", "-1"], ["'--seed'", "-1"]),
    (["predict", "model.json", "d.csv", "-o", " "], ["'--output'", "an empty file name"]),
])
def test_empty_paths_and_bad_seeds_are_usage_errors(run, data, saved, args, words):
    assert_one_line_error(run(*args), *words, usage=True)


@pytest.mark.parametrize("start", ["sc", "tree"])
def test_fit_start_option_reaches_the_estimator(run, data, start):
    r = run("fit", data, *FAST, "--start", start)
    assert r.exit_code == 0, r.output
    ds = read_csv_dataset(data)
    model = BooleanRuleClassifier(theta=0.5, max_rules=3, pos_label=1, start=start).fit(ds.X, ds.y)
    assert model.rule_.describe(1, "y") in r.stdout


@pytest.mark.parametrize("flag, polish",
                         [("--polish", True), ("--no-polish", False), (None, False)])
def test_fit_polish_option_reaches_the_estimator_and_the_model_file(run, data, flag, polish):
    r = run("fit", data, *FAST, *([flag] if flag else []), "--save", "m.json")
    assert r.exit_code == 0, r.output
    ds = read_csv_dataset(data)
    model = BooleanRuleClassifier(theta=0.5, max_rules=3, pos_label=1,
                                  polish=polish).fit(ds.X, ds.y)
    assert model.rule_.describe(1, "y") in r.stdout
    with open("m.json", encoding="utf-8") as f:
        assert json.load(f)["params"]["polish"] is polish
    r = run("fit", data, *FAST, *([flag] if flag else []), "--json")
    assert json.loads(r.stdout)["setting"].get("polish", False) is polish


def test_fit_shows_cv_progress_on_stderr_unless_quiet(run, data):
    r = run("fit", data, "--form", "dnf", "-R", "3", "--cv", "3")
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stderr.splitlines() if x.startswith("CV: ")]
    assert lines == [f"CV: form dnf R 3: {k}/3 folds" for k in (1, 2, 3)]
    assert "CV: form" not in r.stdout
    r = run("fit", data, "--form", "dnf", "-R", "3", "--cv", "3", "-q")
    assert r.exit_code == 0 and "CV: form" not in r.output
    r = run("fit", data, *FAST)  # nothing chosen by CV: no progress
    assert "CV: form" not in r.output


def test_cv_progress_on_a_terminal_rewrites_one_line_and_clears_it():
    from rulelearn.cli.fit import CVProgress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    p = CVProgress(stream)
    p("dnf", 10, 1, 5)
    p("dnf", 3, 2, 5)
    p.close()
    out = stream.getvalue()
    assert "\n" not in out and out.count("\r") == 4 and out.endswith("\r")
    assert "CV: form dnf R 10: 1/5 folds" in out and "CV: form dnf R 3: 2/5 folds " in out


def test_fit_json_is_the_only_stdout(run, data, tmp_path):
    r = run("fit", data, "--form", "dnf", "-R", "3", "--cv", "3", "--json", "-s", "m.json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["setting"]["form"] == "dnf" and doc["setting"]["R"] == 3
    assert doc["setting"]["chosen_by"] == "cv" and doc["setting"]["theta_per_row"] in FIT_THETAS
    assert doc["setting"]["theta"] == pytest.approx(doc["setting"]["theta_per_row"] * 60)
    assert doc["literals"] == sum(len(c) for c in doc["rule_json"]["clauses"])
    assert doc["clauses"] == len(doc["rule_json"]["clauses"])
    assert doc["rule"] and doc["rule_text"].startswith(("IF", "never", "always"))
    assert 0 <= doc["cv"]["error_percent"] <= 100 and doc["cv"]["folds"] == 3
    assert len(doc["cv"]["grid"]) == len(FIT_THETAS)
    assert 50 <= doc["train_accuracy_percent"] <= 100
    assert doc["positive"] == 1 and doc["negative"] == 0 and doc["rows"] == 60
    assert doc["saved"] == "m.json" and (tmp_path / "m.json").exists()
    assert "saved: m.json" in r.stderr and "CV: form dnf R 3: 3/3 folds" in r.stderr
    # the rule_json is the model's rule
    from rulelearn.rules import Rule
    saved = json.loads((tmp_path / "m.json").read_text())
    assert Rule.from_dict(doc["rule_json"]) == Rule.from_dict(saved["rule"])


def test_fit_json_with_every_setting_given(run, data):
    r = run("fit", data, *FAST, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["cv"] is None and doc["setting"] == {"form": "dnf", "R": 3, "theta": 0.5,
                                                    "thresholds": 10, "class_weight": None,
                                                    "cut_points": "quantile",
                                                    "chosen_by": "given", "pruned": False}


# ----------------------------------------------------------------------------------------------
# --thresholds N,N: the count of quantile thresholds as an axis of the CV


def test_several_threshold_counts_are_chosen_by_cv_even_with_the_rest_fixed(run, data):
    r = run("fit", data, *FAST, "--thresholds", "2,6", "-q", "--json", "--save", "m.json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    grid = out["cv"]["grid"]
    assert {row["thresholds"] for row in grid} == {2, 6}, grid
    chosen = [row for row in grid if row["chosen"]]
    assert len(chosen) == 1
    assert out["setting"]["thresholds"] == chosen[0]["thresholds"]
    saved = json.loads((data.parent / "m.json").read_text())
    assert saved["params"]["n_thresholds"] == chosen[0]["thresholds"]


def test_one_threshold_count_with_the_rest_fixed_runs_no_cv(run, data):
    r = run("fit", data, *FAST, "--thresholds", "6", "-q", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["cv"] is None and out["setting"]["thresholds"] == 6


@pytest.mark.parametrize("value, words", [("10,x", ["whole number"]), ("0", [">= 1"]),
                                          ("10,10", ["repeated"]), ("", ["whole number"])])
def test_bad_threshold_counts_are_one_line_usage_errors(run, data, value, words):
    assert_one_line_error(run("fit", data, "--thresholds", value), "--thresholds", *words,
                          usage=True)


def test_fit_select_1se_says_so_and_picks_no_larger_rule(run, data):
    args = ("fit", data, "--form", "dnf", "-R", "3", "--cv", "3", "--json", "-q")
    low, simple = run(*args, "--select", "min"), run(*args, "--select", "1se")
    assert low.exit_code == 0 and simple.exit_code == 0, simple.output
    low, simple = json.loads(low.stdout), json.loads(simple.stdout)
    assert low["cv"]["select"] == "min" and simple["cv"]["select"] == "1se"
    def unchosen(grid):
        return [{k: v for k, v in row.items() if k != "chosen"} for row in grid]

    assert unchosen(simple["cv"]["grid"]) == unchosen(low["cv"]["grid"])  # the same CV
    assert simple["cv"]["error_percent"] <= low["cv"]["error_percent"] + low["cv"]["sem_percent"]
    chosen = [[row for row in doc["cv"]["grid"] if row["chosen"]][0] for doc in (low, simple)]
    assert chosen[1]["literals"] <= chosen[0]["literals"]
    text = run("fit", data, "--form", "dnf", "-R", "3", "--cv", "3", "--select", "1se", "-q")
    assert text.exit_code == 0 and "within one SEM" in text.stdout
    assert_one_line_error(run("fit", data, "--select", "median"), "select", usage=True)


def test_class_weight_balanced_predicts_the_rare_class(run, tmp_path):
    """15 positives, all with x = 1; 85 negatives, 15 of them with x = 1: the unweighted rule
    is "never" (15 errors either way, the literal costs theta), the balanced one is x == 1."""
    pd.DataFrame({"x": [1] * 30 + [0] * 70, "y": [1] * 15 + [0] * 85}).to_csv(
        tmp_path / "rare.csv", index=False)
    args = ("fit", "rare.csv", "--theta", "1", "--rules", "1", "--form", "dnf", "--json")
    plain = json.loads(run(*args).stdout)
    assert plain["rule"] == "FALSE" and plain["setting"]["class_weight"] is None
    r = run(*args, "--class-weight", "balanced", "--save", "m.json")
    doc = json.loads(r.stdout)
    assert doc["rule"] == "x == 1" and doc["setting"]["class_weight"] == "balanced"
    r = run("fit", "rare.csv", "--class-weight", "balanced", "--rules", "1", "--form", "dnf",
            "--cv", "3", "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "x == 1" in r.stdout  # chosen by the balanced CV error as well
    assert "training accuracy: 85.0 % (balanced accuracy 91.2 %; class weight balanced)" \
        in r.stdout
    assert_one_line_error(run("fit", "rare.csv", "--class-weight", "equal"), "--class-weight",
                          usage=True)


def test_fit_cut_points_tree_finds_a_cut_in_the_tail(tmp_path):
    """A positive class in the top 3 % of a column: no quantile cut lies there (the empty rule),
    the tree's split does."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    y = np.where(x > np.quantile(x, 0.97), "yes", "no")
    data = tmp_path / "tail.csv"
    pd.DataFrame({"x": x.round(4), "noise": rng.normal(size=400).round(4), "y": y}).to_csv(
        data, index=False)
    args = ["fit", str(data), "--form", "dnf", "-R", "1", "--theta", "0.5", "--json", "-q"]
    quantile = json.loads(CliRunner().invoke(main, args).output)
    tree = json.loads(CliRunner().invoke(main, args + ["--cut-points", "tree"]).output)
    assert quantile["setting"]["cut_points"] == "quantile"
    assert tree["setting"]["cut_points"] == "tree"
    assert tree["train_accuracy_percent"] > quantile["train_accuracy_percent"]
    assert tree["train_accuracy_percent"] == 100.0


def test_fit_says_how_many_literals_pruning_dropped(run, data, monkeypatch):
    import rulelearn.prune

    real = rulelearn.prune.prune_model

    def dropping_two(model, X, y, **kwargs):
        real(model, X, y, **kwargs)
        model.fit_stats_ = {**model.fit_stats_, "pruned_literals": 2}
        return model

    args = ("fit", data, "--form", "dnf", "-R", "2", "--cv", "3")
    r = run(*args, "-q")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("rule ("))
    assert "before pruning" not in line or "more before pruning)" in line
    monkeypatch.setattr(rulelearn.prune, "prune_model", dropping_two)
    r = run(*args, "-q")
    line = next(x for x in r.stdout.splitlines() if x.startswith("rule ("))
    assert line.endswith(" literals (2 more before pruning)") or \
        line.endswith(" literal (2 more before pruning)")
    doc = json.loads(run(*args, "-q", "--json").stdout)
    assert doc["pruned_literals"] == 2


def test_fit_no_prune_keeps_the_rule_the_learner_found(run, data, monkeypatch):
    """By default the refit is pruned once; --no-prune never prunes (the same CV and setting),
    and --json says which (the literal counts themselves: test_selection.py)."""
    import rulelearn.prune

    real, calls = rulelearn.prune.prune_model, []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rulelearn.prune, "prune_model", counted)
    args = ("fit", data, "--form", "dnf", "-R", "2", "--cv", "3", "-j", "1", "-q", "--json")
    pruned = json.loads(run(*args).stdout)
    assert calls == [1] and pruned["setting"]["pruned"] is True

    def refuse(*args, **kwargs):
        raise AssertionError("pruned")

    monkeypatch.setattr(rulelearn.prune, "prune_model", refuse)
    r = run(*args, "--no-prune")
    assert r.exit_code == 0, r.output
    kept = json.loads(r.stdout)
    assert kept["setting"]["pruned"] is False and kept["pruned_literals"] == 0
    assert kept["setting"]["theta"] == pruned["setting"]["theta"]
    assert kept["literals"] == pruned["literals"] + pruned["pruned_literals"]
    assert "--no-prune" in run("fit", "--help").stdout


def test_fit_tries_more_cut_points_at_the_chosen_form_and_r(run, tmp_path):
    """--cut-points quantile,tree: the grid on the quantiles, the tree's cuts at the chosen
    form and R, and the CV picks the tree's (the positive class is the top 3 % of x)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    y = np.where(x > np.quantile(x, 0.97), "yes", "no")
    pd.DataFrame({"x": x.round(4), "noise": rng.normal(size=400).round(4), "y": y}).to_csv(
        tmp_path / "tail.csv", index=False)
    args = ("fit", "tail.csv", "-R", "1", "--cv", "3", "-j", "1", "-q")
    doc = json.loads(run(*args, "--cut-points", "quantile,tree", "--json").stdout)
    assert doc["setting"]["cut_points"] == "tree" and doc["train_accuracy_percent"] == 100.0
    tree = [row for row in doc["cv"]["grid"] if row.get("cut_points") == "tree"]
    assert len(tree) == len(FIT_THETAS) and doc["cv"]["grid"][-len(tree):] == tree
    assert {(row["form"], row["R"]) for row in tree} == {(doc["setting"]["form"], 1)}
    assert [row["chosen"] for row in tree].count(True) == 1
    r = run(*args, "--cut-points", "quantile,tree")
    assert "then tree cut points at the best form and R" in r.stdout
    assert " tree " in r.stdout.split("\n* ")[1].split("\n")[0]  # the chosen row's cut points
    assert_one_line_error(run(*args, "--cut-points", "quantile,trees"), "every kind must be",
                          usage=True)
    assert_one_line_error(run(*args, "--cut-points", "tree,tree"), "repeated", usage=True)


def test_fit_with_several_methods_lets_the_cv_choose_the_learner(run, tmp_path):
    """--method ocrl,bcd: both searches on the same folds; y = (a AND b) OR (c AND d) needs
    two clauses, so BCD's row wins, and the rule, --json and the saved model say bcd."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(160, 5)), columns=list("abcde"))
    y = (X.a & X.b) | (X.c & X.d)
    X.assign(y=np.where(y, "yes", "no")).to_csv(tmp_path / "terms.csv", index=False)
    args = ("fit", "terms.csv", "--form", "dnf", "-R", "3", "--cv", "3", "-j", "1", "-q",
            "--positive", "yes", "--method", "ocrl,bcd")
    doc = json.loads(run(*args, "--json", "--save", "m.json").stdout)
    assert doc["method"] == "bcd" and doc["cv"]["methods"] == ["ocrl", "bcd"]
    assert {row["method"] for row in doc["cv"]["grid"]} == {"ocrl", "bcd"}
    assert [row["method"] for row in doc["cv"]["grid"] if row["chosen"]] == ["bcd"]
    assert doc["train_accuracy_percent"] == 100.0
    assert json.loads((tmp_path / "m.json").read_text())["params"]["method"] == "bcd"
    r = run(*args)
    assert "rule (DNF, bcd, R = 3)" in r.stdout and "for each of ocrl, bcd" in r.stdout
    assert_one_line_error(run(*args[:-1], "bcd,cgg"), "every method must be", usage=True)


@pytest.mark.parametrize("args, perturb", [(["--perturb", "4", "--polish"], 4), ([], 0)])
def test_fit_perturb_option_reaches_the_estimator_and_the_model_file(run, data, args, perturb):
    r = run("fit", data, *FAST, *args, "--save", "m.json")
    assert r.exit_code == 0, r.output
    ds = read_csv_dataset(data)
    model = BooleanRuleClassifier(theta=0.5, max_rules=3, pos_label=1, polish=bool(perturb),
                                  perturb=perturb).fit(ds.X, ds.y)
    assert model.rule_.describe(1, "y") in r.stdout
    with open("m.json", encoding="utf-8") as f:
        assert json.load(f)["params"]["perturb"] == perturb
    r = run("fit", data, *FAST, *args, "--json")
    assert json.loads(r.stdout)["setting"].get("perturb", 0) == perturb


@pytest.mark.parametrize("value", ["-1", "2.5", "x"])
def test_a_bad_perturb_count_is_a_one_line_usage_error(run, data, value):
    assert_one_line_error(run("fit", data, *FAST, "--perturb", value), "'--perturb'", value,
                          usage=True)


@pytest.mark.parametrize("method, args, note", [
    ("sc", ["--polish", "--perturb", "3"], "--polish and --perturb apply to BCD and AM only"),
    ("cg", ["--perturb", "3"], "--perturb applies to BCD and AM only"),
    ("am", ["--perturb", "3"], None),
    ("bcd,cg", ["--polish"], None),
])
def test_descent_options_a_learner_does_not_take_are_noted(run, data, method, args, note):
    r = run("fit", data, *FAST, "--method", method, *args)
    assert r.exit_code == 0, r.output
    if note:
        assert f"note: {note}; --method {method} does not use" in r.stderr
    else:
        assert "apply to BCD and AM" not in r.stderr and "applies to BCD" not in r.stderr
