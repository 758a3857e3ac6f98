"""``rulelearn predict --explain`` and the confusion matrix, precision and recall."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn import MODEL_FORMAT_VERSION
from rulelearn.cli import main
from rulelearn.errors import DataError
from rulelearn.model_io import load_model
from rulelearn.rules import Rule

FAST = ["--theta", "0.5", "--rules", "3", "--positive", "yes"]


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def data(tmp_path):
    """y = a > 0.5 OR b == 'red', with noise-free labels; some cells missing."""
    frame = pd.DataFrame({"a": [0.1, 0.9, 0.7, 0.2, 0.3, 0.8, None, 0.4] * 4,
                          "b": ["red", "blue", "blue", "green", "red", "green", "blue", None] * 4})
    frame["y"] = ((frame["a"] > 0.5) | (frame["b"] == "red")).map({True: "yes", False: "no"})
    frame.to_csv(tmp_path / "d.csv", index=False)
    return tmp_path / "d.csv"


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_explain_names_the_deciding_literals(run, data, form):
    assert run("fit", data, "--form", form, *FAST, "--save", "m.json").exit_code == 0
    r = run("predict", "m.json", data, "--explain")
    assert r.exit_code == 0, r.output
    table = pd.read_csv(io.StringIO(r.stdout), keep_default_na=False)
    assert list(table.columns) == ["a", "b", "y", "prediction", "explanation"]
    # the library's explanation (tested exactly in test_rules), chunked through the CSV
    assert table["explanation"].tolist() == load_model("m.json").explain(pd.read_csv(data))
    # DNF: "true: ..." names a clause that holds, so the row is positive; CNF: "true: ..."
    # names a literal of every clause, so the row is positive as well
    positive = table["explanation"].str.startswith("true: ")
    assert ((table["prediction"] == "yes") == positive).all()
    assert positive.any() and (~positive).any()


def test_explain_exact_on_a_hand_written_model(run, tmp_path):
    doc = {"format": "rulelearn-model", "format_version": MODEL_FORMAT_VERSION,
           "rule": Rule.parse("(a > 3 AND b == 'x') OR (b == 'y')", "dnf").to_dict(),
           "target": "t", "positive": "yes", "negative": "no"}
    (tmp_path / "h.json").write_text(json.dumps(doc))
    pd.DataFrame({"a": [5, 1, 5, None], "b": ["x", "x", "y", "z"]}).to_csv(tmp_path / "h.csv",
                                                                         index=False)
    r = run("predict", "h.json", "h.csv", "--explain")
    assert r.exit_code == 0, r.output
    table = pd.read_csv(io.StringIO(r.stdout), keep_default_na=False)
    assert table["explanation"].tolist() == [
        "true: a > 3; b == 'x'", "false: a > 3; b == 'y'", "true: b == 'y'",
        "false: a > 3; b == 'y'"]


def test_explain_column_must_be_new(run, tmp_path, data):
    run("fit", data, "--form", "dnf", *FAST, "--save", "m.json")
    pd.read_csv(data).assign(explanation=1).to_csv(tmp_path / "e.csv", index=False)
    r = run("predict", "m.json", "e.csv", "--explain")
    assert r.exit_code == 1 and "already has a column 'explanation'" in r.stderr
    assert "Traceback" not in r.output


def test_confusion_matrix_precision_recall(run, tmp_path, data):
    run("fit", data, "--form", "dnf", "--theta", "50", "--rules", "1", "--positive", "yes",
        "--save", "m.json")
    frame = pd.read_csv(data)
    frame["y"] = ["yes", "no", "no", "no", "yes", "yes", "maybe", None] * 4
    frame.to_csv(tmp_path / "t.csv", index=False)
    r = run("predict", "m.json", "t.csv")
    assert r.exit_code == 0, r.output
    predicted = pd.read_csv(io.StringIO(r.stdout))["prediction"]
    actual = frame["y"]
    tp = int(((actual == "yes") & (predicted == "yes")).sum())
    fp = int(((actual == "no") & (predicted == "yes")).sum())
    fn = int(((actual == "yes") & (predicted == "no")).sum())
    tn = int(((actual == "no") & (predicted == "no")).sum())
    lines = r.stderr.splitlines()
    at = lines.index("confusion matrix (rows: actual, columns: predicted):")
    assert lines[at + 1].split() == ["yes", "no"]
    assert lines[at + 2].split() == ["yes", str(tp), str(fn)]
    assert lines[at + 3].split() == ["no", str(fp), str(tn)]
    assert lines[at + 4].startswith("precision ") and "recall " in lines[at + 4]
    assert f"({tp} of {tp + fn} actual yes)" in lines[at + 4]
    balanced = 100 * (tp / (tp + fn) + tn / (tn + fp)) / 2
    assert lines[at + 5] == (f"balanced accuracy {balanced:.1f} % (the mean of the two "
                             "classes' recalls)")
    r = run("predict", "m.json", "t.csv", "--json", "-o", "p.csv")
    assert json.loads(r.stdout)["balanced_accuracy_percent"] == pytest.approx(balanced)


def test_no_confusion_matrix_without_the_target(run, tmp_path, data):
    run("fit", data, "--form", "dnf", *FAST, "--save", "m.json")
    pd.read_csv(data).drop(columns="y").to_csv(tmp_path / "n.csv", index=False)
    r = run("predict", "m.json", "n.csv")
    assert r.exit_code == 0 and "confusion" not in r.stderr


def test_predict_json_summary_on_stdout(run, tmp_path, data):
    import json

    assert run("fit", data, "--theta", "0.5", "-R", "3", "--form", "dnf", "-s",
               "m.json").exit_code == 0
    r = run("predict", "m.json", data, "--json", "-o", "p.csv")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    c = doc["confusion"]
    n = doc["scored_rows"]
    assert doc["rows"] == 32 and doc["has_target"] and c["tp"] + c["fp"] + c["fn"] + c["tn"] == n
    assert doc["accuracy_percent"] == pytest.approx(100 * (c["tp"] + c["tn"]) / n)
    assert doc["output"] == "p.csv" and "written: p.csv" in r.stderr
    predicted = pd.read_csv(tmp_path / "p.csv")["prediction"]
    assert len(predicted) == 32 and (predicted == "yes").sum() >= c["tp"] + c["fp"]
    pd.read_csv(data).drop(columns="y").to_csv(tmp_path / "x.csv", index=False)
    doc = json.loads(run("predict", "m.json", "x.csv", "--json", "-o", "q.csv").stdout)
    assert doc["has_target"] is False and doc["accuracy_percent"] is None
    assert doc["confusion"] is None


def test_predict_json_needs_an_output_file(run, data):
    assert run("fit", data, "--theta", "0.5", "-R", "3", "--form", "dnf", "-s",
               "m.json").exit_code == 0
    r = run("predict", "m.json", data, "--json")
    assert r.exit_code == 2 and "-o FILE" in r.output


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_proba_column_equals_the_estimator_and_follows_the_prediction(run, data, form):
    from rulelearn.model_io import load_model

    assert run("fit", data, "--form", form, *FAST, "--save", "m.json").exit_code == 0
    r = run("predict", "m.json", data, "--proba", "--explain")
    assert r.exit_code == 0, r.output
    table = pd.read_csv(io.StringIO(r.stdout), keep_default_na=False)
    assert list(table.columns) == ["a", "b", "y", "prediction", "explanation", "probability"]
    cells = pd.read_csv(data)
    model = load_model("m.json")
    expected = model.predict_proba(cells)[:, model.classes.index("yes")]
    assert table["probability"].to_numpy() == pytest.approx(expected, abs=1e-12)
    # probabilities agree with the rule's prediction: >= 0.5 exactly where it says "yes"
    assert ((table["probability"] >= 0.5) == (table["prediction"] == "yes")).all()


def test_proba_column_must_be_new(run, tmp_path, data):
    run("fit", data, "--form", "dnf", *FAST, "--save", "m.json")
    pd.read_csv(data).assign(probability=1).to_csv(tmp_path / "p.csv", index=False)
    r = run("predict", "m.json", "p.csv", "--proba")
    assert r.exit_code == 1 and "already has a column 'probability'" in r.stderr
    assert "--proba" in r.stderr and "Traceback" not in r.output


# ------------------------------------------------------------------ large files, read in chunks

def _model_file(folder):
    """A DNF model: a > 0.2 OR (c == 'red' AND b <= 0.1), labels 1 / 0, with precisions."""
    rule = {"form": "dnf", "clauses": [[{"feature": "a", "op": ">", "value": 0.2}],
                                       [{"feature": "c", "op": "==", "value": "red"},
                                        {"feature": "b", "op": "<=", "value": 0.1}]]}
    doc = {"format": "rulelearn-model", "format_version": MODEL_FORMAT_VERSION, "rule": rule,
           "target": "y", "positive": 1, "negative": 0, "theta": 0.5,
           "proba": {"clause_precision": [0.9, 0.7], "default_precision": 0.2}}
    (folder / "m.json").write_text(json.dumps(doc))
    return folder / "m.json"


def _chunked_cases():
    """Files whose chunked reading must give exactly the table's CSV: quotes with line breaks,
    a stray quote, spaces around cells, blank lines, short rows, CRLF, semicolons, UTF-16."""
    rng = np.random.default_rng(3)
    n = 120
    df = pd.DataFrame({"a": rng.normal(size=n).round(3), "b": rng.normal(size=n).round(3),
                       "c": rng.choice(["red", "blue", "gr,een", 'q"uote', "two\nlines"], n),
                       "y": rng.integers(0, 2, n)})
    plain = df.assign(c=rng.choice(["red", "blue"], n)).to_csv(index=False)
    lines = plain.splitlines()
    return {
        "plain": plain,
        "quoted": df.to_csv(index=False),
        "stray-quote": plain.replace("red", '5"red', 7),
        "spaces": plain.replace(",", " , ", 40),
        "blank-lines": "\n".join(line + ("\n" if i % 9 == 4 else "")
                                 for i, line in enumerate(lines)) + "\n",
        "short-rows": "\n".join(line.rsplit(",", 1)[0] if i % 11 == 5 else line
                                for i, line in enumerate(lines)) + "\n",
        "crlf": plain.replace("\n", "\r\n"),
        "semicolons": df.to_csv(index=False, sep=";"),
        "utf16": plain.encode("utf-16"),
        "missing-cells": plain.replace(",red,", ",NA,", 5).replace(",0.", ",?", 5),
        "no-final-newline": plain.rstrip("\n"),
        "non-ascii": plain.replace("blue", "bl\u00e5", 3).replace("red", "red\u00a0", 2),
        "tabs-and-spaces": plain.replace(",", "\t").replace("\tred", "\t red ", 9),
        "comma-in-semicolons": plain.replace(",", ";").replace("blue", "bl,ue", 4),
    }


@pytest.mark.parametrize("name", sorted(_chunked_cases()))
@pytest.mark.parametrize("options", [{}, {"explain": "explanation", "proba": "probability"}],
                         ids=["plain", "explain-proba"])
def test_predict_in_chunks_writes_what_the_whole_table_would(tmp_path, name, options):
    from rulelearn.csv_predict import predict_csv, predict_csv_to

    content = _chunked_cases()[name]
    path = tmp_path / "x.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    loaded = load_model(_model_file(tmp_path))
    whole = predict_csv(loaded, path, **options)
    # the same as the model's own methods on the table's cells
    from rulelearn.data.parse import DEFAULT_MISSING, read_table

    cells = read_table(path, missing=())
    cells = cells.mask(cells.isin(list(DEFAULT_MISSING)))
    assert list(whole.table["prediction"]) == list(loaded.predict(cells))
    if options:
        assert list(whole.table["explanation"]) == loaded.explain(cells)
        column = loaded.classes.index(loaded.positive)
        assert np.allclose(whole.table["probability"], loaded.predict_proba(cells)[:, column])
    for size in (50, 333, 1 << 22):
        pieces = []
        streamed = predict_csv_to(loaded, path, pieces.append, chunk_size=size, **options)
        assert "".join(pieces) == whole.table.to_csv(index=False, lineterminator="\n"), size
        for field in ("n_rows", "has_target", "accuracy", "n_scored", "n_unknown_labels",
                      "notes", "confusion"):
            assert getattr(streamed, field) == getattr(whole, field), (size, field)


def test_predict_in_chunks_refuses_rows_of_the_wrong_length_as_the_table_does(tmp_path):
    from rulelearn.csv_predict import predict_csv, predict_csv_to

    loaded = load_model(_model_file(tmp_path))
    rows = ["a,b,c,y"] + [f"{i / 100},0.5,red,1" for i in range(40)]
    rows[10] += ",1"  # one cell too many ...
    rows[20] = rows[20].rsplit(",", 1)[0]  # ... and one too few: the same count of commas
    (tmp_path / "r.csv").write_text("\n".join(rows) + "\n")
    with pytest.raises(DataError, match="Expected 4 fields in line 11"):
        predict_csv(loaded, tmp_path / "r.csv")
    for size in (50, 1 << 22):
        with pytest.raises(DataError, match="Expected 4 fields in line 11"):
            predict_csv_to(loaded, tmp_path / "r.csv", lambda text: None, chunk_size=size)


def test_predict_chunked_error_midway_leaves_the_output_as_it_was(tmp_path):
    from rulelearn.csv_predict import predict_csv_to

    loaded = load_model(_model_file(tmp_path))
    rows = ["a,b,c,y"] + [f"{i / 100},0.5,red,1" for i in range(300)]
    rows[250] += ",extra,cells"  # a ragged row far into the file
    (tmp_path / "r.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "out.csv").write_text("before\n")
    result = CliRunner().invoke(main, ["predict", str(tmp_path / "m.json"),
                                       str(tmp_path / "r.csv"), "-o", str(tmp_path / "out.csv")])
    assert result.exit_code == 1 and "Expected 4 fields in line 251" in result.stderr
    assert (tmp_path / "out.csv").read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "out.csv", "r.csv"]
    with pytest.raises(DataError, match="line 251,"):
        predict_csv_to(loaded, tmp_path / "r.csv", lambda text: None, chunk_size=100)
