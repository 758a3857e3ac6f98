"""``--decimal ,``: ``fit`` and ``predict`` read numbers written with a decimal comma (``1,5``)."""

import io

import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main
from rulelearn.data.parse import with_decimal_point
from rulelearn.errors import DataError

FAST = ["--form", "dnf", "--theta", "0.5", "--rules", "2", "--positive", "yes", "--json"]


def test_with_decimal_point_rewrites_only_numbers_with_that_mark():
    cells = pd.DataFrame({"a": ["1,5", "-0,25", ",5", "1,5e3", "+2,", "3", None],
                          "b": ["12,500,000", "x,y", "1.5", "1,5 kg", "a", "", "1,5"]},
                         dtype=object)
    out = with_decimal_point(cells, ",")
    assert out["a"].tolist() == ["1.5", "-0.25", ".5", "1.5e3", "+2.", "3", None]
    assert out["b"].tolist() == ["12,500,000", "x,y", "1.5", "1,5 kg", "a", "", "1.5"]
    assert with_decimal_point(cells, ".") is cells
    with pytest.raises(DataError, match="decimal mark must be one of '.', ','. Got ';'"):
        with_decimal_point(cells, ";")


@pytest.fixture
def files(tmp_path, monkeypatch):
    """The same table twice: with decimal points and commas, and with decimal commas and
    semicolons (as a European spreadsheet writes it)."""
    monkeypatch.chdir(tmp_path)
    a = [0.15, 0.95, 0.75, 0.25, 0.35, 0.85, 0.45, 0.55] * 4
    frame = pd.DataFrame({"a": a, "b": [x * 10 for x in reversed(a)]})
    frame["y"] = (frame["a"] > 0.5).map({True: "yes", False: "no"})
    frame.to_csv("point.csv", index=False)
    frame.to_csv("comma.csv", index=False, sep=";", decimal=",")
    assert "0,15;" in (tmp_path / "comma.csv").read_text()
    return tmp_path / "point.csv", tmp_path / "comma.csv"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.slow  # three fits and two predictions through the CLI: 1.4 s CPU
def test_fit_and_predict_read_decimal_commas_as_the_same_numbers(files):
    point, comma = files
    refused = run("fit", comma, *FAST)
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1
    assert "holds numbers written with a comma, e.g. '0,15'" in refused.stderr
    assert "--decimal ," in refused.stderr
    with_points = run("fit", point, *FAST, "--save", "point.json")
    with_commas = run("fit", comma, *FAST, "--decimal", ",", "--save", "comma.json")
    assert with_commas.exit_code == 0, with_commas.output
    # the same rule, thresholds and errors; only the file names differ
    assert with_commas.stdout.replace("comma", "point") == with_points.stdout
    assert '"0.5"' not in with_points.stdout and '"rule_json"' in with_points.stdout
    expected = run("predict", "point.json", point)
    got = run("predict", "comma.json", comma, "--decimal", ",", "--proba")
    assert got.exit_code == 0, got.output
    table = pd.read_csv(io.StringIO(got.stdout), dtype=str)  # written with commas, quoted
    assert table["a"].iloc[0] == "0,15"  # the rows written keep the file's cells
    assert table["prediction"].tolist() == \
        pd.read_csv(io.StringIO(expected.stdout))["prediction"].tolist()
    assert (table["prediction"] == table["y"]).mean() > 0.9


def test_decimal_takes_a_point_or_a_comma(files):
    r = run("fit", files[0], "--decimal", ";")
    assert r.exit_code == 2 and "'--decimal'" in r.output
