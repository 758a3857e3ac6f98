"""``rulelearn datasets export``: a registered dataset written as the CSV ``fit`` reads."""

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main
from rulelearn.data import load_dataset, read_csv_dataset


def _export(*args):
    return CliRunner().invoke(main, ["datasets", "export", *args])


def test_export_writes_the_bundled_wdbc_exactly_with_its_label_last(tmp_path):
    out = tmp_path / "wdbc.csv"
    r = _export("wdbc_bundled", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert r.output.strip() == (f"written: {out} (569 rows, 30 features and the label column "
                                "'class'; positive class malignant)")
    ds = load_dataset("wdbc_bundled")
    frame = pd.read_csv(out)
    assert list(frame.columns) == [*ds.X.columns, "class"]
    np.testing.assert_array_equal(frame[ds.X.columns].to_numpy(), ds.X.to_numpy())  # bit for bit
    assert frame["class"].tolist() == list(ds.y)
    # fit's reader: the label is the last column and malignant the minority (positive) class
    read = read_csv_dataset(out)
    assert read.target == "class" and read.positive == "malignant"
    assert read.X.shape == (569, 30) and int(read.is_positive.sum()) == 212


def test_export_without_output_writes_the_same_csv_to_stdout(tmp_path):
    out = tmp_path / "w.csv"
    assert _export("wdbc_bundled", "-o", str(out)).exit_code == 0
    r = _export("wdbc_bundled")
    assert r.exit_code == 0
    assert r.stdout == out.read_text(encoding="utf-8")


def test_export_names_the_label_column_as_asked(tmp_path):
    out = tmp_path / "w.csv"
    assert _export("wdbc_bundled", "--target", "diagnosis", "-o", str(out)).exit_code == 0
    assert pd.read_csv(out).columns[-1] == "diagnosis"


@pytest.mark.parametrize("args, code, message", [
    (["wdbc_bundled", "--target", "mean radius"], 2,
     "--target 'mean radius' is already a feature column of wdbc_bundled"),
    (["wdbc_bundled", "--target", " "], 2, "an empty column name"),
    (["wdbc_bundled", "-o", ""], 2, "an empty file name"),
    (["wdbcc", "-o", "x.csv"], 1, "Error: unknown dataset 'wdbcc'; did you mean 'wdbc'?"),
])
def test_export_refuses_bad_input_in_one_line(tmp_path, monkeypatch, args, code, message):
    monkeypatch.chdir(tmp_path)
    r = _export(*args)
    assert r.exit_code == code and message in r.output
    assert "Traceback" not in r.output and list(tmp_path.iterdir()) == []


def test_export_of_a_uci_dataset_uses_its_files_label_column(mirror_dir, data_env, tmp_path):
    out = tmp_path / "liver.csv"
    r = _export("liver", "--mirror", str(mirror_dir), "-o", str(out))
    assert r.exit_code == 0, r.output
    frame = pd.read_csv(out)
    assert frame.shape == (345, 6 + 1) and frame.columns[-1] == "selector"
