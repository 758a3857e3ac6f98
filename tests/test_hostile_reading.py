"""Third hostile battery, the reading part: how a CSV file is read, and a model that remembers it.

Every case runs the CLI as a user would, on files made in a fresh folder, and checks the exit
code, that there is no traceback, and that a failure is exactly one ``Error:`` line naming the
problem (``one_error``). The cases that read devices run in a real process under a 2 GB
address-space limit (``ulimit -v 2000000``), where an unbounded read dies with ``MemoryError``.
"""

import csv
import io
import json
import os
import resource
import sqlite3
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main

FAST = ["--theta", "0.5", "--rules", "2", "--form", "dnf"]  # no CV
#: Rows in a shuffled order: a column of the row number would be left out as a row order.
ORDER = [(17 * i) % 40 for i in range(40)]
D = "a,b,y\n" + "".join(f"{i},{(7 * i) % 10},{int(i % 10 > 4)}\n" for i in ORDER)


def run(tmp_path, monkeypatch, *args):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result, *words) -> str:
    """The one ``Error:`` line of a failed run (exit code 1, no traceback), holding ``words``."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output and (result.exception is None
                                          or isinstance(result.exception, SystemExit)), output
    assert result.exit_code == 1, output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0], (word, errors[0])
    return errors[0]


def ok(result):
    output = result.stdout + result.stderr
    assert "Traceback" not in output and result.exit_code == 0, output
    return result


# ------------------------------------------------------------------ 42.8: bounded reads of paths

def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))


def run_limited(tmp_path, *args, timeout=120):
    """``rulelearn ARGS`` in a process under ``ulimit -v 2000000``."""
    return subprocess.run([sys.executable, "-m", "rulelearn.cli", *map(str, args)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_limited)


def one_error_line(process, *words):
    assert process.returncode == 1, process.stderr
    assert "Traceback" not in process.stderr and "MemoryError" not in process.stderr
    lines = process.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_fit_of_a_device_is_refused_before_reading_it(tmp_path, device):
    one_error_line(run_limited(tmp_path, "fit", device, *FAST), device, "not a regular file")


@pytest.mark.parametrize("command", [["show", "m.json"], ["predict", "m.json", "d.csv"],
                                     ["export", "m.json", "--format", "sql"]])
def test_a_model_file_linked_to_dev_zero_is_refused(tmp_path, command):
    (tmp_path / "d.csv").write_text(D)
    (tmp_path / "m.json").symlink_to("/dev/zero")
    one_error_line(run_limited(tmp_path, *command), "model file m.json", "not a regular file")


def test_predict_of_data_that_is_a_device_is_refused(tmp_path, monkeypatch):
    (tmp_path / "d.csv").write_text(D)
    ok(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST, "--save", "m.json"))
    one_error_line(run_limited(tmp_path, "predict", "m.json", "/dev/urandom"),
                   "/dev/urandom", "not a regular file")


def test_binary_data_from_a_pipe_is_refused_after_its_first_block(tmp_path):
    fifo = tmp_path / "zeros"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"head -c 3000000000 /dev/zero > {fifo}"])
    try:
        one_error_line(run_limited(tmp_path, "fit", "zeros", *FAST), "zeros",
                       "not a text file")
    finally:
        writer.kill()
        writer.wait()


def test_a_model_file_from_a_pipe_of_zeros_is_one_line(tmp_path):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"head -c 3000000000 /dev/zero > {fifo}"])
    try:
        one_error_line(run_limited(tmp_path, "show", "m.json"), "not a rulelearn model file",
                       "binary")
    finally:
        writer.kill()
        writer.wait()


def test_a_model_file_over_the_size_bound_is_refused_unread(tmp_path, monkeypatch):
    from rulelearn.data import files

    monkeypatch.setattr(files, "MAX_MODEL_BYTES", 1000)
    (tmp_path / "m.json").write_text("{" + " " * 2000 + "}")
    one_error(run(tmp_path, monkeypatch, "show", "m.json"), "m.json", "larger than 1000 bytes")


def test_a_data_file_over_the_size_bound_is_refused(tmp_path, monkeypatch):
    from rulelearn.data import parse

    monkeypatch.setattr(parse, "MAX_TEXT_BYTES", 100)
    (tmp_path / "d.csv").write_text(D)
    one_error(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST), "d.csv", "larger than 100 bytes")


# ------------------------------------------------- 42.13, 42.14: the model remembers the reading

def european_csv(n=80, seed=3):
    """``a`` in thousands written 1.234,5, ``b`` with a decimal comma, ``c`` a category; ``;``
    separated; y = yes where a > 1500 and b > 1."""
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(0, 3000, n).round(1), rng.uniform(0, 3, n).round(2)
    c = rng.choice(["rot", "blau"], n)
    y = np.where((a > 1500) & (b > 1.0), "yes", "no")

    def grouped(x):
        whole, frac = f"{x:.1f}".split(".")
        groups = f"{int(whole):,}".replace(",", ".")
        return f"{groups},{frac}"

    lines = ["a;b;c;y"] + [f"{grouped(x)};{str(v).replace('.', ',')};{k};{t}"
                           for x, v, k, t in zip(a, b, c, y)]
    return "\n".join(lines) + "\n"


def test_a_model_fitted_with_decimal_commas_predicts_its_training_file_by_default(
        tmp_path, monkeypatch):
    (tmp_path / "e.csv").write_text(european_csv())
    fitted = ok(run(tmp_path, monkeypatch, "fit", "e.csv", *FAST, "--decimal", ",", "--json",
                    "--save", "m.json"))
    trained = json.loads(fitted.stdout)["train_accuracy_percent"]
    assert trained > 90
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["reading"] == {"sep": None, "decimal": ","}
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "e.csv"))
    assert f"accuracy {trained:.1f} %" in result.stderr
    assert "note:" not in result.stderr
    # an explicit option still overrides the model's reading, and says so once
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "e.csv", "--decimal", "."))
    notes = [line for line in result.stderr.splitlines() if "--decimal ." in line]
    assert notes == ["note: reading DATA with --decimal . (the model was fitted with "
                     "--decimal ,)"]
    shown = ok(run(tmp_path, monkeypatch, "show", "m.json"))
    assert "read with --decimal , (predict reads DATA the same way)" in shown.stdout


def test_a_separator_given_to_fit_is_the_default_of_predict(tmp_path, monkeypatch):
    (tmp_path / "s.csv").write_text(D.replace(",", " "))
    ok(run(tmp_path, monkeypatch, "fit", "s.csv", *FAST, "--sep", "space", "--save", "m.json"))
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "s.csv"))
    assert result.stdout.splitlines()[0] == "a b y prediction".replace(" ", ",")
    assert "accuracy" in result.stderr


def test_exports_and_predict_agree_on_a_file_read_with_decimal_commas(tmp_path, monkeypatch):
    from rulelearn.export import export_rule
    from rulelearn.model_io import load_model

    text = european_csv(seed=4)
    (tmp_path / "e.csv").write_text(text)
    ok(run(tmp_path, monkeypatch, "fit", "e.csv", "--theta", "0.01", "--rules", "3", "--form",
           "dnf", "--decimal", ",", "--save", "m.json"))
    loaded = load_model(tmp_path / "m.json")
    assert any(lit.op in ("<=", ">") for clause in loaded.rule.clauses
               for lit in clause.literals)
    predicted = ok(run(tmp_path, monkeypatch, "predict", "m.json", "e.csv"))
    expected = pd.read_csv(io.StringIO(predicted.stdout), dtype=str)["prediction"].tolist()
    assert sorted(set(expected)) == ["no", "yes"]

    rows = list(csv.DictReader(io.StringIO(text), delimiter=";", skipinitialspace=True))
    python = export_rule(loaded, "python")
    assert "decimal\ncomma (1,5)" in python
    namespace: dict = {}
    exec(compile(python, "exported.py", "exec"), namespace)
    assert [namespace["predict"](row) for row in rows] == expected

    pandas_code = export_rule(loaded, "pandas")
    namespace = {}
    exec(compile(pandas_code, "exported.py", "exec"), namespace)
    cells = pd.read_csv(io.StringIO(text), sep=";", dtype=str, keep_default_na=False,
                        skipinitialspace=True)
    assert namespace["predict"](cells).tolist() == expected
    parsed = pd.read_csv(io.StringIO(text), sep=";", decimal=",", thousands=".")
    assert namespace["predict"](parsed).tolist() == expected

    sql = export_rule(loaded, "sql")
    assert "-- The training file wrote numbers with a decimal comma" in sql
    with sqlite3.connect(":memory:") as db:
        parsed.to_sql("data", db, index=False)
        got = [row[0] for row in db.execute(f"SELECT {sql.splitlines()[-1]} FROM data")]
    assert got == expected


@pytest.mark.parametrize("cell, number", [("1.234,5", 1234.5), ("1 234,5", 1234.5),
                                          ("1'234,5", 1234.5), ("1\u00a0234,5", 1234.5),
                                          ("-12.500.000", -12500000.0), ("1.234", 1234.0)])
def test_decimal_comma_with_thousands_separators_is_numeric(tmp_path, cell, number):
    from rulelearn.data import read_csv_dataset

    cells = [cell, "2,5", "3", "7,25"] * 5
    text = "a;y\n" + "".join(f"{c};{i % 2}\n" for i, c in enumerate(cells))
    (tmp_path / "t.csv").write_text(text)
    dataset = read_csv_dataset(tmp_path / "t.csv", decimal=",")
    assert dataset.X["a"].dtype == np.float64
    assert dataset.X["a"].tolist()[:4] == [number, 2.5, 3.0, 7.25]


def test_thousands_in_a_fit_become_thresholds_not_categories(tmp_path, monkeypatch):
    (tmp_path / "e.csv").write_text(european_csv())
    result = ok(run(tmp_path, monkeypatch, "fit", "e.csv", *FAST, "--decimal", ","))
    assert "not in {" not in result.stdout and "a > " in result.stdout


def test_a_point_that_groups_thousands_and_one_that_is_a_decimal_point_are_refused(
        tmp_path, monkeypatch):
    cells = ["1.234,5", "0.5", "3", "7,25"] * 5
    (tmp_path / "t.csv").write_text("a;y\n" + "".join(f"{c};{i % 2}\n"
                                                        for i, c in enumerate(cells)))
    one_error(run(tmp_path, monkeypatch, "fit", "t.csv", *FAST, "--decimal", ","),
              "column 'a' mixes '1.234,5'", "'0.5'")


@pytest.mark.parametrize("reading, words", [
    ({"sep": ";", "decimal": ";"}, ["bad reading.decimal ';'"]),
    ({"sep": ";;", "decimal": "."}, ["bad reading.sep ';;'"]),
    ([",", "."], ["bad reading"]),
    ({"sep": None, "decimal": ",", "thousands": "."}, ["bad reading"]),
])
def test_a_model_file_with_a_bad_reading_entry_is_one_line(tmp_path, monkeypatch, reading, words):
    (tmp_path / "d.csv").write_text(D)
    ok(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST, "--save", "m.json"))
    doc = json.loads((tmp_path / "m.json").read_text())
    doc["reading"] = reading
    (tmp_path / "m.json").write_text(json.dumps(doc))
    one_error(run(tmp_path, monkeypatch, "predict", "m.json", "d.csv"), "m.json", *words)


# ------------------------------------------------------------------------------- 42.15: --sum

S = "a,b,c,y\n" + "".join(f"{i},{i % 7},{i % 3},{int(i > 20)}\n" for i in ORDER)


def test_a_sum_the_rule_does_not_read_is_not_needed_to_predict(tmp_path, monkeypatch):
    (tmp_path / "s.csv").write_text(S)
    fitted = ok(run(tmp_path, monkeypatch, "fit", "s.csv", "--sum", "t=b+c", *FAST, "--json",
                    "--save", "m.json"))
    doc = json.loads(fitted.stdout)
    assert "t" not in doc["rule"] and doc["setting"]["sums"] == {"t": ["b", "c"]}
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "s.csv"))
    assert f"accuracy {doc['train_accuracy_percent']:.1f} %" in result.stderr
    (tmp_path / "ay.csv").write_text("".join(",".join(line.split(",")[::3]) + "\n"
                                             for line in S.splitlines()))
    assert (tmp_path / "ay.csv").read_text().startswith("a,y\n0,0\n17,0\n")
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "ay.csv"))
    assert f"accuracy {doc['train_accuracy_percent']:.1f} %" in result.stderr


@pytest.mark.parametrize("definition", ["y=a+b", "t=a+y"])
def test_a_sum_that_names_or_reads_the_target_is_refused(tmp_path, monkeypatch, definition):
    (tmp_path / "s.csv").write_text(S)
    one_error(run(tmp_path, monkeypatch, "fit", "s.csv", "--sum", definition, *FAST),
              f"--sum {definition}", "'y' is the target column")


def test_a_model_file_whose_sum_overwrites_the_target_is_refused(tmp_path, monkeypatch):
    (tmp_path / "s.csv").write_text(S)
    ok(run(tmp_path, monkeypatch, "fit", "s.csv", "--sum", "t=b+c", *FAST, "--save", "m.json"))
    doc = json.loads((tmp_path / "m.json").read_text())
    doc["sums"] = [{"name": "y", "columns": ["a", "b"]}]
    (tmp_path / "m.json").write_text(json.dumps(doc))
    one_error(run(tmp_path, monkeypatch, "predict", "m.json", "s.csv"), "bad sums",
              "the target 'y'")


# ------------------------------------------------------------------ 42.16: empty header names

@pytest.mark.parametrize("text, words", [
    ("a,,y\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(20)),
     ["column 2 of 3 in the header has no name"]),
    ("a,b,c,y,\n" + "".join(f"{i},{i % 3},{i % 5},{i % 2},\n" for i in range(20)),
     ["column 5 of 5 in the header has no name", "the last"]),
    ("a,b,c,y,\n" + "".join(f"{i},{i % 3},{i % 5},{i % 2}\n" for i in range(20)),
     ["column 5 of 5"]),
    ("a,\" \",y\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(20)), ["column 2 of 3"]),
])
@pytest.mark.parametrize("command", ["fit", "predict"])
def test_an_empty_header_name_is_refused_by_its_position(tmp_path, monkeypatch, text, words,
                                                         command):
    (tmp_path / "e.csv").write_text(text)
    (tmp_path / "d.csv").write_text(D)
    ok(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST, "--save", "m.json"))
    args = ["fit", "e.csv", *FAST] if command == "fit" else ["predict", "m.json", "e.csv"]
    error = one_error(run(tmp_path, monkeypatch, *args), "e.csv: ", *words)
    assert "Unnamed" not in error


# ------------------------------------------------------------- 42.17: class labels as written

TREE = [*FAST, "--cut-points", "tree"]  # cuts where the classes change: exact on these


def labelled(labels, n=30):
    """``a`` = 0..n-1 in a shuffled order, labels by thirds / halves of ``a``."""
    k = len(labels)
    order = [(7 * i) % n for i in range(n)]
    return "a,y\n" + "".join(f"{i},{labels[min(i * k // n, k - 1)]}\n" for i in order)


@pytest.mark.parametrize("labels", [("007", "1e3"), ("-0", "1"), ("+1", "2"), ("1.0", "2.0"),
                                    ("0", "-0")])
def test_two_class_labels_are_kept_as_written(tmp_path, monkeypatch, labels):
    (tmp_path / "l.csv").write_text(labelled(labels))
    fitted = json.loads(ok(run(tmp_path, monkeypatch, "fit", "l.csv", *TREE, "--json",
                               "--save", "m.json")).stdout)
    assert {fitted["positive"], fitted["negative"]} == set(labels)
    assert fitted["train_accuracy_percent"] == 100.0
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "l.csv"))
    table = pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False)
    assert table["prediction"].tolist() == table["y"].tolist()
    assert "accuracy 100.0 %" in result.stderr and "neither class" not in result.stderr


def test_three_decimal_labels_are_classes_not_a_continuous_target(tmp_path, monkeypatch):
    (tmp_path / "l.csv").write_text(labelled(("1.50", "2.25", "3")))
    fitted = json.loads(ok(run(tmp_path, monkeypatch, "fit", "l.csv", *TREE, "--json",
                               "--save", "m.json")).stdout)
    assert sorted(fitted["classes"]) == ["1.50", "2.25", "3"]
    assert fitted["train_accuracy_percent"] == 100.0
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "l.csv"))
    table = pd.read_csv(io.StringIO(result.stdout), dtype=str)
    assert table["prediction"].tolist() == table["y"].tolist()


def test_canonical_integer_labels_are_still_integers(tmp_path):
    from rulelearn.data import read_csv_dataset

    (tmp_path / "l.csv").write_text(labelled(("-3", "12")))
    dataset = read_csv_dataset(tmp_path / "l.csv")
    assert dataset.y.dtype == np.int64 and sorted(set(dataset.y.tolist())) == [-3, 12]


# ------------------------------------------------------------- 42.20: near-constant columns

def test_a_near_constant_column_gives_its_split_with_tree_cut_points(tmp_path, monkeypatch):
    (tmp_path / "n.csv").write_text("a,b,y\n" + "1,2,0\n" * 9_999 + "3,4,1\n")
    result = ok(run(tmp_path, monkeypatch, "fit", "n.csv", *FAST, "--cut-points", "tree"))
    assert "constant" not in result.stderr
    assert "training accuracy: 100.0 %" in result.stdout
    assert "a > 1" in result.stdout or "b > 2" in result.stdout


# ---------------------- 42.5, 40.4: text per row, identifiers, row numbers, numbers as text

def test_an_identifier_column_is_left_out_by_fit_in_one_warning(tmp_path, monkeypatch):
    rng = np.random.default_rng(5)
    a = rng.normal(size=2_000).round(3)
    ids = rng.permutation(2_000)
    text = "a,id,y\n" + "".join(f"{x},u{k:05d},{int(x > 0.3)}\n" for x, k in zip(a, ids))
    (tmp_path / "i.csv").write_text(text)
    result = ok(run(tmp_path, monkeypatch, "fit", "i.csv", *FAST))
    assert result.stderr.splitlines() == [
        "warning: column 'id' has a different value in every row (an identifier?): left out "
        "(--keep id keeps it)"]
    assert "(2000 rows, 1 feature)" in result.stdout and "id" not in result.stdout.split(
        "feature")[1]
    kept = ok(run(tmp_path, monkeypatch, "fit", "i.csv", *FAST, "--keep", "id", "--json"))
    assert json.loads(kept.stdout)["columns"] == 2
    assert kept.stderr.splitlines() == [
        "warning: column(s) 'id': more than 100 categories; only the 100 most frequent give "
        "literals (an identifier? leave it out)"]


def test_a_row_number_sorted_with_the_label_is_left_out(tmp_path, monkeypatch):
    rng = np.random.default_rng(6)
    y = np.sort(rng.integers(0, 2, 200))  # the file sorted by the label
    noise = rng.normal(size=200).round(3)
    text = "rownames,x,y\n" + "".join(f"{i + 1},{v},{t}\n" for i, (v, t) in
                                      enumerate(zip(noise, y)))
    (tmp_path / "r.csv").write_text(text)
    result = ok(run(tmp_path, monkeypatch, "fit", "r.csv", *FAST))
    assert result.stderr.splitlines() == [
        "warning: column 'rownames' increases or decreases with the row order (a row "
        "number?): left out (--keep rownames keeps it)"]
    assert "rownames" not in result.stdout
    kept = ok(run(tmp_path, monkeypatch, "fit", "r.csv", *FAST, "--keep", "rownames"))
    assert kept.stderr == "" and "rownames <=" in kept.stdout


def test_keep_names_a_feature_column(tmp_path, monkeypatch):
    (tmp_path / "d.csv").write_text(D)
    one_error(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST, "--keep", "zz"),
              "--keep zz: no such feature column")


def test_the_estimator_warns_of_identifiers_and_row_order_and_keeps_them():
    from rulelearn import BooleanRuleClassifier
    from rulelearn._traps import DataTrapWarning

    rng = np.random.default_rng(7)
    X = pd.DataFrame({"row": np.arange(60), "id": [f"k{i}" for i in rng.permutation(60)],
                      "x": rng.normal(size=60)})
    y = (X["x"] > 0).astype(int).to_numpy()
    with pytest.warns(DataTrapWarning) as caught:
        model = BooleanRuleClassifier(theta=0.5, max_rules=1).fit(X, y)
    messages = sorted(str(w.message) for w in caught if w.category is DataTrapWarning)
    assert messages == [
        "column 'id' has a different value in every row (an identifier?): a rule on it does "
        "not carry over to new rows; leave it out of X",
        "column 'row' increases or decreases with the row order (a row number?): a rule on it "
        "does not carry over to new rows; leave it out of X"]
    assert model.n_features_in_ == 3


@pytest.mark.filterwarnings("ignore::rulelearn._traps.DataTrapWarning")  # the identifier
def test_a_distinct_text_per_row_column_gives_at_most_the_bounded_literals():
    from rulelearn import BooleanRuleClassifier
    from rulelearn.binarize import MAX_CATEGORIES

    rng = np.random.default_rng(8)
    n = 5_000
    X = pd.DataFrame({"id": [f"u{k}" for k in rng.permutation(n)], "x": rng.normal(size=n)})
    y = (X["x"] > 0.5).astype(int).to_numpy()
    with pytest.warns(UserWarning, match="more than 100 categories"):
        model = BooleanRuleClassifier(theta=0.5, max_rules=1).fit(X, y)
    literals = model.binarizer_.literals_
    assert sum(lit.feature == "id" for lit in literals) == 2 * MAX_CATEGORIES
    assert model.rule_.features == ["x"]


def test_numbers_stored_as_text_behind_an_imputer_are_read_as_numbers():
    """The pipeline of the trust issue: SimpleImputer(strategy="most_frequent") with pandas
    output makes every column object dtype; the rule must still read thresholds."""
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline

    from rulelearn import BooleanRuleClassifier
    from rulelearn._traps import DataTrapWarning

    rng = np.random.default_rng(9)
    n = 400
    X = pd.DataFrame({"age": rng.integers(20, 80, n).astype(float),
                      "bmi": rng.normal(27, 4, n).round(1),
                      "sex": rng.choice(["f", "m"], n)})
    y = ((X["age"] > 52) | (X["bmi"] > 33)).astype(int).to_numpy()
    X.loc[rng.random(n) < 0.1, "age"] = np.nan
    imputer = SimpleImputer(strategy="most_frequent").set_output(transform="pandas")
    assert imputer.fit_transform(X)["age"].dtype == object  # the trap: numbers as objects
    pipeline = make_pipeline(imputer, BooleanRuleClassifier(theta=0.5, max_rules=2))
    with pytest.warns(DataTrapWarning, match="'age', 'bmi' hold numbers stored as text"):
        pipeline.fit(X, y)
    rule = pipeline[-1].rule_
    assert not any(lit.op in ("==", "!=") and lit.feature in ("age", "bmi")
                   for clause in rule.clauses for lit in clause.literals), str(rule)
    as_numbers = imputer.fit_transform(X).astype({"age": float, "bmi": float})
    reference = BooleanRuleClassifier(theta=0.5, max_rules=2).fit(as_numbers, y)
    assert rule == reference.rule_
    assert pipeline.score(X, y) == reference.score(as_numbers, y) > 0.9


@pytest.mark.parametrize("where", ["fit", "predict"])
def test_a_frame_with_two_columns_of_one_name_is_one_error_naming_it(where):
    from rulelearn import BooleanRuleClassifier
    from rulelearn.errors import DataError

    rng = np.random.default_rng(10)
    X = pd.DataFrame(rng.normal(size=(40, 3)), columns=["a", "b", "a"])
    y = (X.iloc[:, 0] > 0).astype(int).to_numpy()
    model = BooleanRuleClassifier(theta=0.5, max_rules=1)
    if where == "predict":
        model.fit(X.set_axis(["a", "b", "c"], axis=1), y)
    with pytest.raises(DataError, match="X has 2 columns named 'a'; a rule names its columns"):
        model.fit(X, y) if where == "fit" else model.predict(X)


# --------------------------------------- 40.1: rows without a label, a rule list's confusion

def test_fit_leaves_out_rows_without_a_label_in_one_warning_line(tmp_path, monkeypatch):
    lines = labelled(("no", "yes"), n=30).splitlines()
    for row in (3, 8, 20):  # data rows 3, 8 and 20 lose their label
        lines[row] = lines[row].rsplit(",", 1)[0] + ","
    (tmp_path / "u.csv").write_text("\n".join(lines) + "\n")
    result = ok(run(tmp_path, monkeypatch, "fit", "u.csv", *TREE))
    assert result.stderr.splitlines() == [
        "warning: target 'y' is missing in 3 of 30 data rows (3, 8, 20): those rows are left "
        "out"]
    assert "(27 rows, 1 feature)" in result.stdout


def test_multi_class_predict_prints_a_confusion_matrix(tmp_path, monkeypatch):
    (tmp_path / "m.csv").write_text(labelled(("lo", "mid", "hi")))
    ok(run(tmp_path, monkeypatch, "fit", "m.csv", *TREE, "--save", "m.json"))
    (tmp_path / "t.csv").write_text(labelled(("lo", "mid", "hi")).replace(",mid\n", ",lo\n", 2))
    result = ok(run(tmp_path, monkeypatch, "predict", "m.json", "t.csv"))
    lines = result.stderr.splitlines()
    start = lines.index("confusion matrix (rows: actual, columns: predicted):")
    header = lines[start + 1].split()
    assert sorted(header) == ["hi", "lo", "mid"]
    rows = {line.split()[0]: dict(zip(header, map(int, line.split()[1:])))
            for line in lines[start + 2:start + 5]}
    assert rows["lo"] == {"lo": 10, "mid": 2, "hi": 0}  # two mid rows relabeled lo
    assert rows["mid"] == {"lo": 0, "mid": 8, "hi": 0}
    assert rows["hi"] == {"lo": 0, "mid": 0, "hi": 10}
    assert lines[start + 6].startswith("balanced accuracy")
    assert "accuracy 93.3 %" in result.stderr
    summary = json.loads(ok(run(tmp_path, monkeypatch, "predict", "m.json", "t.csv", "--json",
                                "-o", "p.csv")).stdout)
    labels = summary["confusion"]["labels"]
    matrix = {(a, p): summary["confusion"]["matrix"][i][j]
              for i, a in enumerate(labels) for j, p in enumerate(labels)}
    assert matrix[("lo", "mid")] == 2 and matrix[("mid", "mid")] == 8


def test_a_rule_list_read_with_decimal_commas_exports_as_it_predicts(tmp_path, monkeypatch):
    from rulelearn.export import export_rule
    from rulelearn.model_io import load_model

    text = labelled(("lo", "mid", "hi")).replace(",", ";")
    text = "".join(f"{line.split(';')[0]},5;{line.split(';')[1]}\n" if i else line + "\n"
                   for i, line in enumerate(text.splitlines()))  # a = 7,5 and so on
    assert text.splitlines()[1] == "0,5;lo"
    (tmp_path / "m.csv").write_text(text)
    ok(run(tmp_path, monkeypatch, "fit", "m.csv", *TREE, "--decimal", ",", "--save", "m.json"))
    predicted = ok(run(tmp_path, monkeypatch, "predict", "m.json", "m.csv"))
    assert "accuracy 100.0 %" in predicted.stderr
    expected = pd.read_csv(io.StringIO(predicted.stdout), dtype=str)["prediction"].tolist()
    namespace: dict = {}
    exec(compile(export_rule(load_model(tmp_path / "m.json"), "python"), "m.py", "exec"),
         namespace)
    rows = csv.DictReader(io.StringIO(text), delimiter=";")
    assert [namespace["predict"](row) for row in rows] == expected
