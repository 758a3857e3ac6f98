"""``rulelearn bench`` and ``rulelearn table`` through Click's test runner."""

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main
from rulelearn.store import read_records

ROOT = Path(__file__).resolve().parents[1]


def toy_config(tmp_path, methods="[cart]"):
    rng = np.random.default_rng(1)
    a = rng.normal(size=60)
    pd.DataFrame({"a": a, "y": np.where(a > 0.2, "p", "n")}).to_csv(tmp_path / "toy.csv",
                                                                    index=False)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(textwrap.dedent(f"""\
        name: c
        datasets: [{{name: toy, path: {tmp_path / 'toy.csv'}, target: y}}]
        methods: {methods}
        outer_folds: 2
        inner_folds: 2
        theta: [1.0]
        jobs: 1
        output: {tmp_path / 'results'}
        """))
    return cfg


def test_bench_then_table(tmp_path):
    cfg = toy_config(tmp_path)
    out = tmp_path / "exp"
    r = CliRunner().invoke(main, ["bench", str(cfg), "--output", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert "2 units: 0 already done, 2 ok" in r.output
    for name in ("table1.md", "table1.tex", "table1.csv", "table2.md", "table2.csv",
                 "ranks.csv", "vs_paper.md", "config.yaml", "records.jsonl"):
        assert (out / name).exists(), name
    (out / "table1.md").unlink()
    r = CliRunner().invoke(main, ["table", str(out), "--show", "1"])
    assert r.exit_code == 0, r.output
    assert "Average rank" in r.output and (out / "table1.md").exists()
    assert len(read_records(out)) == 2  # nothing recomputed
    other = tmp_path / "elsewhere"
    r = CliRunner().invoke(main, ["table", str(out), "--output", str(other)])
    assert r.exit_code == 0 and (other / "table2.csv").exists()
    r = CliRunner().invoke(main, ["bench", str(cfg), "--output", str(out), "-q", "--no-tables"])
    assert "2 already done" in r.output


def test_default_output_is_results_name(tmp_path):
    cfg = toy_config(tmp_path)
    r = CliRunner().invoke(main, ["bench", str(cfg), "-q"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "results" / "c" / "table1.csv").exists()


@pytest.mark.parametrize("text, message", [
    ("datasets: [wdbc]\nmethods: [bcd\n", "malformed YAML"),
    ("datasets: [wdbcc]\nmethods: [bcd]\n", "did you mean 'wdbc'"),
    ("datasets: [wdbc]\nmethods: [carts]\n", "Did you mean 'cart'"),
    ("datasets: [wdbc]\nmethods: [bcd]\ntheta: []\n", "theta grid is empty"),
])
def test_bad_configs_are_one_line_errors(tmp_path, text, message):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(text)
    r = CliRunner().invoke(main, ["bench", str(cfg)])
    assert r.exit_code == 1
    assert r.output.startswith("Error: ") and message in r.output
    assert "Traceback" not in r.output


def test_only_dataset_must_be_in_the_config(tmp_path):
    cfg = toy_config(tmp_path)
    r = CliRunner().invoke(main, ["bench", str(cfg), "--only-dataset", "tyo"])
    assert r.exit_code == 1 and "Did you mean 'toy'" in r.output


def test_dask_without_scheduler(tmp_path):
    pytest.importorskip("dask.distributed")
    cfg = toy_config(tmp_path)
    r = CliRunner().invoke(main, ["bench", str(cfg), "--executor", "dask", "-q"])
    assert r.exit_code == 1 and "--scheduler" in r.output


def test_smoke_config_runs(tmp_path):
    pytest.importorskip("rulelearn.estimator")
    r = CliRunner().invoke(main, ["bench", str(ROOT / "configs" / "smoke.yaml"),
                                  "--output", str(tmp_path / "smoke"), "-q"])
    assert r.exit_code == 0, r.output
    t1 = pd.read_csv(tmp_path / "smoke" / "table1.csv")
    assert t1["error_mean"].notna().all()
    assert set(t1["method"]) == {"bcd[form=dnf,R=2]", "cart"}
