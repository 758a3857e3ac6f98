"""``rulelearn bench`` and ``rulelearn table`` through Click's test runner."""

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.bench.store import read_records
from rulelearn.cli import main

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
    assert "Average rank" in r.stdout and "|CART|" in r.stdout.replace(" ", "")
    assert r.stdout.rstrip().splitlines()[-1].startswith(f"results in {out}/: table1.md")
    for name in ("table1.md", "table1.tex", "table1.csv", "table2.md", "table2.csv",
                 "ranks.csv", "config.yaml", "records.jsonl"):
        assert (out / name).exists(), name
    assert not (out / "vs_paper.md").exists()  # not a reproduction of the paper
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


def test_only_method_runs_those_methods_and_refuses_unknown_names(tmp_path):
    cfg = toy_config(tmp_path, methods="[cart, {bcd: {form: dnf}}, {bcd: {form: cnf}}]")
    out = tmp_path / "exp"
    r = run_cli("bench", cfg, "-o", out, "-q", "--no-tables", "--only-method", "CART",
                "--only-method", "bcd[form=cnf,R=5]")
    assert r.exit_code == 0, r.output + r.stderr
    labels = [rec["label"] for rec in read_records(out / "records.jsonl")]
    assert sorted(labels) == ["bcd[form=cnf,R=5]"] * 2 + ["cart"] * 2
    r = run_cli("bench", cfg, "-o", out, "-q", "--no-tables", "--only-method", "bcd")
    assert r.exit_code == 0 and r.stderr.startswith("4 units: 2 already done, 2 ok")
    r = run_cli("bench", cfg, "-o", out, "-q", "--only-method", "crat")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("Error: --only-method 'crat' is not a method of the config. "
                               "Did you mean 'cart'? Methods: cart, bcd[form=dnf,R=5], "
                               "bcd[form=cnf,R=5].")


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
    assert set(t1["label"]) == {"bcd[form=dnf,R=2]", "cart"}
    assert set(t1["method"]) == {"BCD", "CART"}


def run_cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_table_never_mixes_configurations(tmp_path):
    """A, then B (same name, other parameters) into the same folder, then A: A's numbers."""
    a = toy_config(tmp_path, methods="[cart]")
    noisy = pd.read_csv(tmp_path / "toy.csv")
    noisy["y"] = np.random.default_rng(5).permutation(noisy["y"].to_numpy())
    noisy.to_csv(tmp_path / "noisy.csv", index=False)
    b = tmp_path / "b.yaml"  # same name, dataset, label, folds and seed: other data and grid
    b.write_text(a.read_text().replace("toy.csv", "noisy.csv")
                 .replace("methods: [cart]", "methods: [{cart: {max_depth: [1]}}]"))
    out = tmp_path / "exp"
    alone = tmp_path / "alone"
    assert run_cli("bench", a, "-o", alone, "-q").exit_code == 0
    for cfg in (a, b, a):
        r = run_cli("bench", cfg, "-o", out, "-q")
        assert r.exit_code == 0, r.output + r.stderr
    assert "2 already done" in r.stderr
    assert (out / "table1.csv").read_text() == (alone / "table1.csv").read_text()
    assert "2 records of another configuration are ignored" in r.stderr
    assert "note: 2 records of another configuration are ignored" in (out / "table1.md").read_text()
    r = run_cli("table", out)
    assert r.exit_code == 0 and r.stderr.count("Warning: 2 records of another") == 1
    assert (out / "table1.csv").read_text() == (alone / "table1.csv").read_text()


def test_bench_exits_non_zero_when_a_unit_failed(tmp_path, monkeypatch):
    from rulelearn.bench import units

    cfg = toy_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")

    def broken(method, **kw):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(units, "make_estimator", broken)
    r = run_cli("bench", cfg, "-o", tmp_path / "exp", "-q")
    assert r.exit_code == 1
    assert r.stderr.count("RuntimeError: solver exploded") == 1
    assert "4 units failed (toy / cart / fold 0, ...): RuntimeError: solver exploded" in r.stderr
    assert [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")] == [
        "Error: 4 of 4 units failed (reasons above); their cells are missing. "
        "Run the same command to retry them."]
    assert "Traceback" not in r.stderr + r.stdout


@pytest.mark.parametrize("case", ["missing csv", "bad target", "outer folds", "ripper"])
def test_problems_that_doom_every_unit_are_found_before_any_unit(tmp_path, monkeypatch, case):
    import sys

    from rulelearn.bench import executors

    cfg = toy_config(tmp_path)
    text = cfg.read_text()
    if case == "missing csv":
        text = text.replace("toy.csv", "nothere.csv")
    elif case == "bad target":
        text = text.replace("target: y", "target: why")
    elif case == "outer folds":
        text = text.replace("outer_folds: 2", "outer_folds: 500")
    else:
        text = text.replace("methods: [cart]", "methods: [cart, ripper]")
        monkeypatch.setitem(sys.modules, "wittgenstein", None)
    cfg.write_text(text)
    ran = []
    monkeypatch.setattr(executors, "run_unit", lambda unit, data: ran.append(unit))
    r = run_cli("bench", cfg, "-o", tmp_path / "exp", "-q")
    assert r.exit_code == 1 and ran == []
    assert r.stderr.startswith("Error: nothing was run: ") and r.stderr.count("\n") == 1
    assert not (tmp_path / "exp").exists()


def test_unwritable_output_is_a_one_line_error(tmp_path, monkeypatch):
    cfg = toy_config(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = run_cli("bench", cfg, "-o", blocker / "out", "-q")
    assert r.exit_code == 1 and r.stderr.startswith("Error: cannot create the results folder")
    assert str(blocker / "out") in r.stderr and r.stderr.count("\n") == 1
    # a read-only folder (simulated: the tests may run as root, who writes anyway)
    import errno
    import os as _os

    real_open = _os.open

    def read_only(path, flags, *args, **kw):
        if str(path).startswith(str(tmp_path / "ro")) and flags & (_os.O_WRONLY | _os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kw)

    (tmp_path / "ro").mkdir()
    monkeypatch.setattr(_os, "open", read_only)
    r = run_cli("bench", cfg, "-o", tmp_path / "ro", "-q")
    assert r.exit_code == 1 and "Permission denied" in r.stderr and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"Error: cannot lock the results folder {tmp_path / 'ro'}")


def test_table_on_a_folder_that_is_not_a_results_folder(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_cli("table", empty)
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: no records in {empty}")
    (empty / "records.jsonl").write_bytes(bytes(range(256)) * 4 + b"\n")
    r = run_cli("table", empty)
    assert r.exit_code == 1 and "damaged line(s) (line 1: not a JSON record" in r.stderr
    assert list(p.name for p in empty.iterdir()) == ["records.jsonl"]  # no table written


def test_table_to_an_unwritable_folder(tmp_path):
    cfg = toy_config(tmp_path)
    out = tmp_path / "exp"
    assert run_cli("bench", cfg, "-o", out, "-q", "--no-tables").exit_code == 0
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run_cli("table", out, "-o", blocker / "t")
    assert r.exit_code == 1 and r.stderr.startswith("Error: cannot write tables to")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_table_prints_table1_by_default_and_every_show_in_order(tmp_path):
    cfg = toy_config(tmp_path)
    cfg.write_text(cfg.read_text() + "paper: true\n")
    out = tmp_path / "exp"
    assert CliRunner().invoke(main, ["bench", str(cfg), "-o", str(out), "-q"]).exit_code == 0
    r = CliRunner().invoke(main, ["table", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# Table 1: mean test error") and "Table 2" not in r.stdout
    assert "results in" in r.stderr and "table2.md" in r.stderr and "results in" not in r.stdout
    r = CliRunner().invoke(main, ["table", str(out), "--show", "2", "--show", "paper",
                                  "--show", "1"])
    assert r.exit_code == 0, r.output
    starts = [r.stdout.index(h) for h in ("# Table 2:", "# Side by side", "# Table 1:")]
    assert starts == sorted(starts) and starts[0] == 0


def test_table_show_paper_on_a_config_that_is_not_the_papers(tmp_path):
    cfg = toy_config(tmp_path)
    out = tmp_path / "exp"
    assert CliRunner().invoke(main, ["bench", str(cfg), "-o", str(out), "-q"]).exit_code == 0
    r = CliRunner().invoke(main, ["table", str(out), "--show", "paper"])
    assert r.exit_code == 1 and "not a reproduction of the paper" in r.output
    r = CliRunner().invoke(main, ["table", str(out)])
    assert r.stdout.startswith("# Mean test error %")


def test_table_json(tmp_path):
    import json

    cfg = toy_config(tmp_path, methods="[cart, bcd]")
    out = tmp_path / "exp"
    assert CliRunner().invoke(main, ["bench", str(cfg), "-o", str(out), "-q"]).exit_code == 0
    r = CliRunner().invoke(main, ["table", str(out), "--json", "--show", "2"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)  # stdout is only JSON
    assert doc["experiment"] == "c" and doc["paper"] is False
    rows = {row["method"]: row for row in doc["rows"]}
    assert set(rows) == {"CART", "BCD"} and rows["BCD"]["label"].startswith("bcd[")
    assert rows["CART"]["features_mean"] is None and rows["CART"]["literals_mean"] >= 0
    assert rows["BCD"]["features_mean"] <= rows["BCD"]["literals_mean"]
    assert 0 <= rows["CART"]["error_mean"] <= 100 and rows["CART"]["complete"] is True
    assert {row["method"] for row in doc["ranks"]} == {"CART", "BCD"}
    assert any(f.endswith("table1.md") for f in doc["files"])


def test_bench_progress_is_quiet_off_a_terminal_and_logged_with_v(tmp_path):
    cfg = toy_config(tmp_path)
    r = CliRunner().invoke(main, ["bench", str(cfg), "-o", str(tmp_path / "exp")])
    assert r.exit_code == 0, r.output
    assert "[bench]" not in r.output  # stderr is not a terminal here
    r = CliRunner().invoke(main, ["-v", "bench", str(cfg), "-o", str(tmp_path / "v")])
    assert r.exit_code == 0, r.output
    assert "[bench] 1/2 done toy / CART / fold 0 (" in r.stderr
    assert "[bench] 2/2 done toy / CART / fold 1 (" in r.stderr and "[bench]" not in r.stdout
    r = CliRunner().invoke(main, ["-v", "bench", str(cfg), "-o", str(tmp_path / "q"), "-q"])
    assert "[bench]" not in r.output


def test_table_paired_against_a_chosen_method(tmp_path):
    import json

    cfg = toy_config(tmp_path, methods="[cart, bcd]")
    out = tmp_path / "exp"
    r = CliRunner().invoke(main, ["bench", str(cfg), "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert (out / "paired.md").read_text().startswith(
        "# Paired differences in test error against CART")  # the first method
    r = CliRunner().invoke(main, ["table", str(out), "--against", "bcd", "--show", "paired"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# Paired differences in test error against BCD")
    assert "CART − BCD" in r.stdout
    r = CliRunner().invoke(main, ["table", str(out), "--json", "--against", "BCD"])
    doc = json.loads(r.stdout)
    assert [(p["method"], p["against"], p["n_units"]) for p in doc["paired"]] == [
        ("CART", "BCD", 2)]
    r = run_cli("table", out, "--against", "sc")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("Error: 'sc' is not a method of this experiment; give one of "
                               "CART, BCD.")


def test_table_show_paired_with_a_single_method(tmp_path):
    cfg = toy_config(tmp_path)
    out = tmp_path / "exp"
    assert CliRunner().invoke(main, ["bench", str(cfg), "-o", str(out), "-q"]).exit_code == 0
    assert not (out / "paired.md").exists()
    r = run_cli("table", out, "--show", "paired")
    assert r.exit_code == 1 and "a single method, so there are no paired differences" in r.stderr


def folder_files(folder) -> dict:
    """``name -> bytes`` of every file in ``folder`` (hidden temporary files included)."""
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


@pytest.mark.slow  # imports dask.distributed: about 2 s
def test_an_unreachable_dask_scheduler_leaves_an_existing_folder_as_it_was(tmp_path,
                                                                           monkeypatch):
    pytest.importorskip("dask.distributed")
    from rulelearn.bench import experiment

    monkeypatch.setattr(experiment, "DASK_CONNECT_SECONDS", 0.5)
    cfg = toy_config(tmp_path, methods="[cart, ripper]")
    out = tmp_path / "exp"
    assert run_cli("bench", cfg, "-o", out, "-q", "--only-method", "cart").exit_code == 0
    before = folder_files(out)
    assert "records.jsonl.lock" not in before  # a run leaves no lock behind
    r = run_cli("bench", cfg, "-o", out, "-q", "--executor", "dask", "--scheduler",
                "tcp://127.0.0.1:1")
    assert r.exit_code == 1 and "cannot reach the dask scheduler tcp://127.0.0.1:1" in r.stderr
    assert folder_files(out) == before  # no config.yaml, runs.json or lock written


SLOW_BENCH = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal, even if the suite
# itself was started in the background (which leaves SIGINT ignored in every child)
from rulelearn.bench import executors
real = executors.run_unit
def slow(unit, data):
    record = real(unit, data)
    time.sleep(0.4)
    return record
executors.run_unit = slow  # the workers are forked: they run it too
from rulelearn.cli import main
main(sys.argv[1:], prog_name="rulelearn")
"""


@pytest.mark.slow  # a real process interrupted half-way: about 2 s CPU
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_says_how_to_resume_and_exits_130_leaving_no_lock_nor_partial_file(tmp_path,
                                                                                   jobs):
    import os
    import shlex
    import signal
    import subprocess
    import sys
    import time

    cfg = toy_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")  # 4 units
    out = tmp_path / "my exp"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_BENCH, "bench", str(cfg), "-o", str(out),
                             "-j", jobs, "--only-method", "cart"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # Ctrl-C signals the whole process group
    try:
        deadline = time.monotonic() + 60
        while not read_records(out) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    command = (f"rulelearn bench {cfg} --jobs {jobs} --output '{out}' --only-method cart")
    assert err.strip().splitlines()[-1] == (
        "Interrupted: the units finished are saved; resume the run (only the units left are "
        f"computed) with: {command}")
    files = folder_files(out)
    assert sorted(files) == ["config.yaml", "records.jsonl", "runs.json"]  # no lock, no .tmp
    saved = len(read_records(out))
    assert files["records.jsonl"].endswith(b"\n") and 1 <= saved < 4
    r = run_cli(*shlex.split(command)[1:])
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith(f"4 units: {saved} already done, {4 - saved} ok")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_unit_timeout_is_a_positive_number_of_seconds(tmp_path, value):
    r = run_cli("bench", toy_config(tmp_path), "--unit-timeout", value)
    assert r.exit_code == 2 and "'--unit-timeout'" in r.output


def test_unit_timeout_in_the_config_and_its_limits(tmp_path):
    cfg = toy_config(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text(cfg.read_text() + "unit_timeout: -5\n")
    r = run_cli("bench", bad)
    assert r.exit_code == 1 and "unit_timeout" in r.stderr
    assert "must be a number of seconds > 0. Got -5." in r.stderr
    r = run_cli("bench", cfg, "-o", tmp_path / "d", "--executor", "dask", "--scheduler",
                "tcp://127.0.0.1:1", "--unit-timeout", "5")
    assert r.exit_code == 1 and "a unit timeout needs the local executor" in r.stderr
    assert not (tmp_path / "d").exists()


def test_the_resume_command_repeats_the_options_but_force():
    from rulelearn.cli.bench import _resumable

    params = {"config": "my c.yaml", "jobs": 2, "executor": None, "scheduler": None,
              "output": "out", "mirror": None, "unit_timeout": 90.0, "force": True,
              "only_datasets": ("a b",), "only_methods": ("bcd[form=dnf,R=5]",),
              "reuse_stale": False, "no_tables": True, "quiet": False}
    text = _resumable(params)
    assert text.startswith("the units finished are saved; resume the run (only the units left "
                           "are computed) with: rulelearn bench 'my c.yaml' --jobs 2 --output "
                           "out --unit-timeout 90 --only-dataset 'a b' --only-method "
                           "'bcd[form=dnf,R=5]' --no-tables (this run had --force")


@pytest.mark.slow  # waits for a 1 s timeout
def test_bench_with_a_timed_out_unit_exits_1_and_says_how_to_run_it_again(tmp_path,
                                                                         monkeypatch):
    import time

    from rulelearn.bench import executors

    real = executors.run_unit

    def stuck_on_fold_0(unit, data):
        if unit.fold == 0:
            time.sleep(60)
        return real(unit, data)

    monkeypatch.setattr(executors, "run_unit", stuck_on_fold_0)  # the unit processes fork
    r = run_cli("bench", toy_config(tmp_path), "-o", tmp_path / "exp", "-q",
                "--unit-timeout", "1")
    assert r.exit_code == 1
    assert "2 units: 0 already done, 1 ok, 0 failed, 1 timed out" in r.stderr
    assert "1 unit timed out (toy / cart / fold 0): timed out after 1 s (unit_timeout)" in r.stderr
    assert r.stderr.rstrip().endswith(
        "Error: 1 of 2 units timed out; their cells are missing. They run again with a longer "
        "--unit-timeout (or none), or with --force.")
    assert "- missing: toy / CART: timed out after 1 s (unit_timeout)" in r.stdout  # table1.md
