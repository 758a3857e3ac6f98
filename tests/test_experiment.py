"""The experiment runner: resume, retries, failures per dataset, executors, kill and resume."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulelearn import experiment
from rulelearn.config import parse_config
from rulelearn.store import read_records

ROOT = Path(__file__).resolve().parents[1]


def write_csv(path, n=80, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    y = np.where((a > 0.3) | (b > 1.0), "yes", "no")
    flip = rng.random(n) < 0.05
    y[flip] = np.where(y[flip] == "yes", "no", "yes")
    pd.DataFrame({"a": a.round(3), "b": b.round(3), "c": rng.choice(["u", "v"], n),
                  "label": y}).to_csv(path, index=False)
    return path


def make_config(tmp_path, *, methods="[cart]", extra="", datasets=None):
    csv = write_csv(tmp_path / "toy.csv")
    datasets = datasets or f"[{{name: toy, path: {csv}, target: label, positive: 'yes'}}]"
    text = textwrap.dedent(f"""\
        name: t
        datasets: {datasets}
        methods: {methods}
        R: 2
        max_iter: 5
        theta: [0.5, 5.0]
        binarization: {{n_thresholds: 3}}
        outer_folds: 3
        inner_folds: 2
        seed: 0
        jobs: 1
        output: {tmp_path / 'results'}
        """) + extra
    (tmp_path / "t.yaml").write_text(text)
    return parse_config(text, source=str(tmp_path / "t.yaml"))


def comparable(folder):
    recs = read_records(folder)
    return sorted((experiment.comparable(r) for r in recs), key=lambda r: r["key"])


def test_run_writes_one_record_per_unit_and_resumes(tmp_path):
    cfg = make_config(tmp_path, methods="[cart, {cart: {min_samples_leaf: 5}}]")
    s = experiment.run(cfg, progress=False)
    assert (s.total, s.ok, s.failed, s.skipped) == (6, 6, 0, 0)
    recs = read_records(cfg.results_dir)
    assert len(recs) == 6 and {r["status"] for r in recs} == {"ok"}
    r = recs[0]
    for field in ("chosen", "test_error", "train_error", "n_features", "n_clauses", "rule",
                  "fit_seconds", "versions", "inner_errors", "key", "label"):
        assert field in r
    assert (cfg.results_dir / "config.yaml").exists() and (cfg.results_dir / "meta.json").exists()
    again = experiment.run(cfg, progress=False)
    assert (again.skipped, again.ok) == (6, 0)
    assert len(read_records(cfg.results_dir)) == 6
    forced = experiment.run(cfg, progress=False, force=True)
    assert forced.ok == 6 and len(read_records(cfg.results_dir)) == 12


def test_failed_units_are_recorded_and_retried(tmp_path, monkeypatch):
    cfg = make_config(tmp_path)
    real = experiment.make_estimator

    def flaky(method, **kw):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(experiment, "make_estimator", flaky)
    s = experiment.run(cfg, progress=False)
    assert s.failed == 3
    recs = read_records(cfg.results_dir)
    assert all(r["status"] == "failed" and "solver exploded" in r["error"] for r in recs)
    monkeypatch.setattr(experiment, "make_estimator", real)
    s = experiment.run(cfg, progress=False)
    assert (s.ok, s.skipped) == (3, 0)
    s = experiment.run(cfg, progress=False)
    assert s.skipped == 3


def test_a_dataset_that_cannot_be_loaded_fails_alone(tmp_path):
    csv = write_csv(tmp_path / "toy.csv")
    cfg = make_config(tmp_path, datasets=(
        f"[{{name: toy, path: {csv}, target: label}}, "
        f"{{name: gone, path: {tmp_path / 'missing.csv'}, target: label}}]"))
    s = experiment.run(cfg, progress=False)
    assert (s.ok, s.failed) == (3, 3)
    bad = [r for r in read_records(cfg.results_dir) if r["dataset"] == "gone"]
    assert len(bad) == 3 and all(r["status"] == "failed" and r["error"] for r in bad)
    from rulelearn import report
    report.write_tables(cfg.results_dir)
    md = (cfg.results_dir / "table1.md").read_text()
    assert "missing: gone / cart:" in md


def test_inner_folds_larger_than_the_minority_class(tmp_path):
    cfg = make_config(tmp_path, extra="")
    cfg = type(cfg)(**{**cfg.__dict__, "inner_folds": 40})
    s = experiment.run(cfg, progress=False)
    assert s.failed == 3
    err = read_records(cfg.results_dir)[0]["error"]
    assert "inner_folds" in err and "Lower the number of folds" in err


def test_results_do_not_depend_on_the_number_of_jobs(tmp_path):
    cfg = make_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")
    experiment.run(cfg, progress=False, jobs=1, output=tmp_path / "one")
    experiment.run(cfg, progress=False, jobs=2, output=tmp_path / "two")
    assert comparable(tmp_path / "one") == comparable(tmp_path / "two")


def test_dask_executor_gives_the_same_records(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    cfg = make_config(tmp_path)
    experiment.run(cfg, progress=False, jobs=1, output=tmp_path / "local")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        s = experiment.run(cfg, progress=False, executor="dask",
                           scheduler=cluster.scheduler_address, output=tmp_path / "dask")
    assert s.ok == 3
    assert comparable(tmp_path / "local") == comparable(tmp_path / "dask")


def test_rule_learner_end_to_end(tmp_path):
    pytest.importorskip("rulelearn.estimator")
    cfg = make_config(tmp_path, methods="[bcd, ocrl]")
    s = experiment.run(cfg, progress=False)
    assert s.failed == 0, s.failures
    recs = read_records(cfg.results_dir)
    bcd = [r for r in recs if r["method"] == "bcd"]
    assert all(r["theta"] in (0.5, 5.0) and r["n_lp"] >= 1 for r in bcd)
    assert all(r["n_clauses"] <= 2 and isinstance(r["rule"], str) for r in bcd)
    assert all(r["n_clauses"] <= 1 for r in recs if r["method"] == "ocrl")


SLOW_RUN = """
import sys, time
from rulelearn import experiment
from rulelearn.config import load_config
real = experiment.run_unit
def slow(unit, data):
    record = real(unit, data)
    time.sleep(0.4)
    return record
experiment.run_unit = slow
experiment.run(load_config(sys.argv[1]), output=sys.argv[2], jobs=1, progress=False)
"""


def test_kill_half_way_then_resume(tmp_path, monkeypatch):
    cfg = make_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")  # 6 units
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_RUN, str(tmp_path / "t.yaml"),
                             str(killed)], env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        if len(read_records(killed)) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = read_records(killed)
    assert 2 <= len(done_before) < 6, "the run should be killed half-way"
    with open(killed / "records.jsonl", "ab") as f:  # as if killed in the middle of a write
        f.write(b'{"key": "x", "status": "o')

    ran = []
    real = experiment.run_unit

    def counting(unit, data):
        ran.append(unit.key)
        return real(unit, data)

    monkeypatch.setattr(experiment, "run_unit", counting)
    s = experiment.run(cfg, output=killed, progress=False)
    assert s.skipped == len(done_before)
    assert not set(ran) & {r["key"] for r in done_before}  # completed units not recomputed
    assert len(ran) == 6 - len(done_before)
    for line in (killed / "records.jsonl").read_text().splitlines():
        json.loads(line)  # the torn line is gone
    experiment.run(cfg, output=tmp_path / "whole", progress=False)
    assert comparable(killed) == comparable(tmp_path / "whole")


def test_unit_keys_change_with_the_registry_positive_class(tmp_path, monkeypatch):
    import dataclasses

    from rulelearn.data import REGISTRY

    config = make_config(tmp_path, datasets="[sonar]")
    before = [u.key for u in experiment.plan(config)]
    flipped = dataclasses.replace(REGISTRY["sonar"], positive="M")
    monkeypatch.setitem(REGISTRY, "sonar", flipped)
    after = [u.key for u in experiment.plan(config)]
    assert len(before) == len(after) and not set(before) & set(after)
