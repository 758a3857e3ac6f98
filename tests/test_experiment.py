"""The experiment runner: resume, retries, failures per dataset, executors, kill and resume."""

import io
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

from rulelearn.bench import executors, experiment, units
from rulelearn.bench.config import parse_config
from rulelearn.bench.store import read_records
from rulelearn.errors import ConfigError

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


#: Fields that change between two runs of the same unit (timings, dates); not part of a result.
VOLATILE = ("fit_seconds", "tune_seconds", "total_seconds", "finished_at", "host", "versions")


def without_volatile(record: dict) -> dict:
    """A record without its volatile fields (:data:`VOLATILE`)."""
    return {k: v for k, v in record.items() if k not in VOLATILE}


def comparable(folder):
    recs = read_records(folder)
    return sorted((without_volatile(r) for r in recs), key=lambda r: r["key"])


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
    real = units.make_estimator

    def flaky(method, **kw):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(units, "make_estimator", flaky)
    s = experiment.run(cfg, progress=False)
    assert s.failed == 3
    recs = read_records(cfg.results_dir)
    assert all(r["status"] == "failed" and "solver exploded" in r["error"] for r in recs)
    monkeypatch.setattr(units, "make_estimator", real)
    s = experiment.run(cfg, progress=False)
    assert (s.ok, s.skipped) == (3, 0)
    s = experiment.run(cfg, progress=False)
    assert s.skipped == 3


def test_a_dataset_that_cannot_be_loaded_stops_the_run_before_any_unit(tmp_path, monkeypatch):
    csv = write_csv(tmp_path / "toy.csv")
    cfg = make_config(tmp_path, datasets=(
        f"[{{name: toy, path: {csv}, target: label}}, "
        f"{{name: gone, path: {tmp_path / 'missing.csv'}, target: label}}, "
        f"{{name: badtarget, path: {csv}, target: lable}}]"))
    ran = []
    monkeypatch.setattr(executors, "run_unit", lambda unit, data: ran.append(unit))
    with pytest.raises(ConfigError, match=r"nothing was run: dataset 'gone': .*missing.csv.*; "
                                          r"dataset 'badtarget': .*lable"):
        experiment.run(cfg, progress=False)
    assert ran == [] and not cfg.results_dir.exists()  # no unit, no empty folder
    monkeypatch.undo()
    s = experiment.run(cfg, progress=False, only_datasets=["toy"])
    assert (s.ok, s.failed) == (3, 0)


def test_folds_larger_than_the_minority_class_stop_the_run(tmp_path):
    cfg = make_config(tmp_path, extra="")
    for change in ({"inner_folds": 40}, {"outer_folds": 60}):
        bad = type(cfg)(**{**cfg.__dict__, **change})
        with pytest.raises(ConfigError, match="Lower the number of folds"):
            experiment.run(bad, progress=False)
        assert not cfg.results_dir.exists()


def test_a_missing_optional_package_stops_the_run_before_any_unit(tmp_path, monkeypatch):
    cfg = make_config(tmp_path, methods="[cart, ripper]")
    monkeypatch.setitem(sys.modules, "wittgenstein", None)  # import wittgenstein -> ImportError
    ran = []
    monkeypatch.setattr(executors, "run_unit", lambda unit, data: ran.append(unit))
    with pytest.raises(ConfigError, match="method 'ripper' needs the optional 'wittgenstein'"):
        experiment.run(cfg, progress=False)
    assert ran == []


def test_a_non_finite_metric_is_a_failed_unit(tmp_path, monkeypatch):
    cfg = make_config(tmp_path)
    real = experiment.protocol.evaluate_fold

    def nan_error(*args, **kwargs):
        res = real(*args, **kwargs)
        res.test_error = float("nan")
        return res

    monkeypatch.setattr(experiment.protocol, "evaluate_fold", nan_error)
    s = experiment.run(cfg, progress=False)
    assert (s.ok, s.failed) == (0, 3)
    assert "3 units failed" in str(s)
    assert str(s).count("non-finite value in field 'test_error'") == 1
    text = (cfg.results_dir / "records.jsonl").read_text()
    assert "NaN" not in text and "Infinity" not in text
    assert all(r["status"] == "failed" for r in read_records(cfg.results_dir))


def test_the_summary_gives_each_failure_reason_once_with_its_count(tmp_path, monkeypatch):
    cfg = make_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")

    def flaky(method, **kw):
        raise RuntimeError(f"solver exploded on {method.params.get('criterion', 'gini')}")

    monkeypatch.setattr(units, "make_estimator", flaky)
    text = str(experiment.run(cfg, progress=False))
    assert text.count("solver exploded on gini") == 1 and text.count("on entropy") == 1
    assert ("3 units failed (toy / cart / fold 0, ...): RuntimeError: solver exploded on gini"
            in text)


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
from rulelearn.bench import executors, experiment
from rulelearn.bench.config import load_config
real = executors.run_unit
def slow(unit, data):
    record = real(unit, data)
    time.sleep(0.4)
    return record
executors.run_unit = slow
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
    real = executors.run_unit

    def counting(unit, data):
        ran.append(unit.key)
        return real(unit, data)

    monkeypatch.setattr(executors, "run_unit", counting)
    s = experiment.run(cfg, output=killed, progress=False)
    assert s.skipped == len(done_before)
    assert not set(ran) & {r["key"] for r in done_before}  # completed units not recomputed
    assert len(ran) == 6 - len(done_before)
    for line in (killed / "records.jsonl").read_text().splitlines():
        json.loads(line)  # the torn line is gone
    experiment.run(cfg, output=tmp_path / "whole", progress=False)
    assert comparable(killed) == comparable(tmp_path / "whole")
    from rulelearn.bench import report
    report.write_tables(killed)
    report.write_tables(tmp_path / "whole")
    for name in ("table1.csv", "table2.csv", "ranks.csv"):
        assert (killed / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


def test_unit_keys_change_with_the_registry_positive_class(tmp_path, monkeypatch):
    import dataclasses

    from rulelearn.data import REGISTRY

    config = make_config(tmp_path, datasets="[sonar]")
    before = [u.key for u in experiment.plan(config)]
    flipped = dataclasses.replace(REGISTRY["sonar"], positive="M")
    monkeypatch.setitem(REGISTRY, "sonar", flipped)
    after = [u.key for u in experiment.plan(config)]
    assert len(before) == len(after) and not set(before) & set(after)


# ----------------------------------------------------------------------------------------------
# real processes: workers die with the parent, the folder lock, killed runs count in wall time

SLEEPY_RUN = """
import sys, time
from rulelearn.bench import executors, experiment
from rulelearn.bench.config import load_config
experiment.HEARTBEAT_SECONDS = 0.2
real = executors.run_unit
def slow(unit, data):
    record = real(unit, data)
    time.sleep(float(sys.argv[4]))
    return record
executors.run_unit = slow
print("started", flush=True)
experiment.run(load_config(sys.argv[1]), output=sys.argv[2], jobs=int(sys.argv[3]), progress=True)
"""


def start_run(tmp_path, out, *, jobs=1, sleep=0.4):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", SLEEPY_RUN, str(tmp_path / "t.yaml"), str(out),
                             str(jobs), str(sleep)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def children(pid) -> set:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def alive(pid) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def wait_for(condition, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and PR_SET_PDEATHSIG")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_their_parent(tmp_path, sig):
    make_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")  # 6 units
    proc = start_run(tmp_path, tmp_path / "out", jobs=2, sleep=30)
    workers = set()
    try:
        assert wait_for(lambda: len(children(proc.pid)) >= 2), "no workers started"
        assert wait_for(lambda: len(read_records(tmp_path / "out")) == 0
                        and (tmp_path / "out" / "runs.json").exists())
        workers = children(proc.pid)
        time.sleep(0.3)
        proc.send_signal(sig)
        # the pipes reach EOF: no worker keeps the parent's stdout/stderr open
        proc.communicate(timeout=15)
        assert wait_for(lambda: not any(alive(p) for p in workers), timeout=5), \
            f"workers {workers} outlived their parent"
        if sig == signal.SIGTERM:
            assert proc.returncode == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in workers:  # a failed test leaves no orphan behind
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.communicate(timeout=15)


def test_a_second_run_on_the_same_folder_is_refused(tmp_path):
    from click.testing import CliRunner

    from rulelearn.bench.store import ResultsError
    from rulelearn.cli import main

    cfg = make_config(tmp_path)
    out = tmp_path / "out"
    proc = start_run(tmp_path, out, jobs=1, sleep=1.0)
    try:
        assert wait_for(lambda: (out / "runs.json").exists())
        records = out / "records.jsonl"
        before = records.read_bytes() if records.exists() else b""
        with pytest.raises(ResultsError, match=rf"{out} is in use by another rulelearn process "
                                               rf"\(pid {proc.pid}\)"):
            experiment.run(cfg, output=out, progress=False)
        r = CliRunner().invoke(main, ["bench", str(tmp_path / "t.yaml"), "-o", str(out), "-q"])
        assert r.exit_code == 1 and f"(pid {proc.pid})" in r.output
        assert r.output.count("Error:") == 1 and "Traceback" not in r.output
        assert not records.exists() or records.read_bytes()[:len(before)] == before
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=15)
    assert proc.returncode == 0
    s = experiment.run(cfg, output=out, progress=False)  # the lock is free again
    assert (s.skipped, s.ok) == (3, 0)


def test_wall_time_of_all_runs_includes_killed_runs(tmp_path):
    cfg = make_config(tmp_path, methods="[cart, {cart: {criterion: entropy}}]")  # 6 units
    out = tmp_path / "out"
    proc = start_run(tmp_path, out, jobs=1, sleep=0.5)
    assert wait_for(lambda: (out / "runs.json").exists())
    t0 = time.time()  # the run's clock starts once the folder is locked and the data loaded
    assert wait_for(lambda: len(read_records(out)) >= 3)
    time.sleep(0.5)
    proc.kill()
    proc.communicate(timeout=15)
    killed_for = time.time() - t0
    s = experiment.run(cfg, output=out, progress=False)
    assert s.skipped >= 3
    meta = json.loads((out / "meta.json").read_text())
    # the killed run counts up to its last heartbeat (0.2 s apart) and the import time is not in it
    assert meta["wall_seconds_all_runs"] >= meta["wall_seconds"] + killed_for - 0.5
    assert meta["wall_seconds_all_runs"] >= 1.5 + meta["wall_seconds"]
    from rulelearn.bench import report
    report.write_tables(out)
    wall = [ln for ln in (out / "table1.md").read_text().splitlines() if "wall time" in ln][0]
    assert f"{meta['wall_seconds_all_runs']:.1f} s (all runs)" in wall


def _unit(dataset, label, fold):
    from rulelearn.bench.config import MethodConfig
    from rulelearn.bench.units import Unit

    method = MethodConfig(name=label, params={}, tuned=None, grid=(), prefer="larger")
    return Unit(key=f"{dataset}-{label}-{fold}", dataset=dataset, method=method, fold=fold,
                n_outer=2, inner_folds=2, seed=0, experiment="e")


def test_unit_costs_weigh_datasets_by_size_and_learn_from_finished_units():
    from rulelearn.bench.progress import UnitCosts

    costs = UnitCosts({"wdbc": 10.0, "magic": 1000.0})
    assert costs.estimate("magic", "bcd") is None  # nothing measured yet
    costs.observe("wdbc", "bcd", 2.0)
    assert costs.estimate("wdbc", "bcd") == 2.0
    assert costs.estimate("magic", "bcd") == pytest.approx(200.0)  # 100x the weight
    costs.observe("magic", "bcd", 50.0)
    assert costs.estimate("magic", "bcd") == 50.0  # measured beats the proxy
    assert costs.estimate("wdbc", "cart") == pytest.approx((2 + 50) / 1010 * 10)
    costs.observe("wdbc", "cart", float("nan"))  # ignored
    assert ("wdbc", "cart") not in costs.seconds


class Tty(io.StringIO):
    """A stream that says it is a terminal of ``columns`` columns."""

    def __init__(self, columns=80):
        super().__init__()
        self.columns = columns

    def isatty(self):
        return True


def updates(stream) -> list[str]:
    """Each rewrite of the status line: the text between a carriage return and ESC [K."""
    return [part.split("\x1b[K")[0] for part in stream.getvalue().split("\r")[1:]]


def test_progress_names_units_and_weights_the_eta(monkeypatch):
    from rulelearn.bench import progress
    from rulelearn.bench.progress import Progress, UnitCosts

    monkeypatch.setattr(progress, "_columns", lambda stream: 1000)
    units = [_unit("wdbc", "bcd", 0), _unit("wdbc", "bcd", 1), _unit("magic", "bcd", 0)]
    stream = Tty()
    p = Progress(units, stream=stream, costs=UnitCosts({"wdbc": 1.0, "magic": 100.0}),
                 names={"bcd": "BCD"})
    p.update(True, {"key": units[0].key, "total_seconds": 1.0})
    lines = updates(stream)
    assert lines[0].startswith("[bench] 0/3 units") and "ETA ?" in lines[0]
    assert "running wdbc / BCD / fold 0 (+2 queued)" in lines[0]
    assert "1/3 units" in lines[1] and "running wdbc / BCD / fold 1 (+1 queued)" in lines[1]
    # left: 1 s (wdbc) + 100 s (magic), at the rate this run has shown: about 101 s x elapsed
    elapsed = time.perf_counter() - p.t0
    assert p.eta(elapsed) == pytest.approx(101 * elapsed, rel=1e-6)
    p.update(False, {"key": units[1].key, "status": "failed"})
    assert "2/3 units (1 failed)" in updates(stream)[-1]


def test_progress_on_a_terminal_rewrites_one_line():
    from rulelearn.bench.progress import Progress

    stream = Tty()
    units = [_unit("wdbc", "cart", 0)]
    p = Progress(units, stream=stream)
    p.update(True, {"key": units[0].key, "total_seconds": 0.5})
    out = stream.getvalue()
    assert out.count("\r") == 2 and out.endswith("\n") and out.count("\n") == 1
    assert "running wdbc / cart / fold 0" in out


@pytest.mark.parametrize("columns", [80, 40, 12])
def test_progress_never_wraps_on_a_narrow_terminal(monkeypatch, columns):
    """Each update fits in the terminal (one column to spare), so \\r rewrites it in place."""
    from rulelearn.bench import progress
    from rulelearn.bench.progress import Progress, clip

    monkeypatch.setattr(progress, "_columns", lambda stream: stream.columns)
    units = [_unit("a-dataset-with-a-long-name", "bcd", k) for k in range(5)]
    stream = Tty(columns)
    p = Progress(units, stream=stream, jobs=3)
    for u in units:
        p.update(True, {"key": u.key, "total_seconds": 1.0})
    lines = updates(stream)
    assert len(lines) == 6 and all(len(line) == columns - 1 for line in lines[:-1])
    assert all(line.endswith("...") for line in lines[:-1])
    assert lines[0].startswith("[bench] 0/5 units"[:columns - 4])
    assert stream.getvalue().count("\n") == 1  # only after the last unit
    # wide characters take two columns
    assert clip("数据集 / BCD", 7) == "数据..." and clip("数据集 / BCD", 6) == "数..."
    assert clip("数据集", 6) == "数据集" and clip("ab", 1) == "."


def test_progress_is_quiet_when_not_a_terminal_and_logs_each_unit(caplog):
    import logging

    from rulelearn.bench.progress import Progress

    stream = io.StringIO()
    units = [_unit("wdbc", "cart", 0), _unit("wdbc\x1b[2J", "cart", 1)]
    p = Progress(units, stream=stream, names={"cart": "CART"})
    with caplog.at_level(logging.INFO, logger="rulelearn"):
        p.update(True, {"key": units[0].key, "total_seconds": 0.5})
        p.update(False, {"key": units[1].key, "status": "failed"})
    assert stream.getvalue() == ""
    assert [r.getMessage() for r in caplog.records] == [
        "[bench] 1/2 done wdbc / CART / fold 0 (0.5 s)",
        "[bench] 2/2 done wdbc\\x1b[2J / CART / fold 1 (failed)"]


# a unit timeout: the unit (and what it started) is stopped, recorded, and the run goes on



@pytest.mark.slow  # waits for a 1.5 s timeout; 0.6 s CPU
def test_a_unit_past_its_timeout_is_stopped_with_what_it_started_and_recorded(tmp_path,
                                                                              monkeypatch):
    cfg = make_config(tmp_path)  # cart, 3 outer folds: 3 units
    real = executors.run_unit
    pids = tmp_path / "pids"

    def stuck_on_fold_1(unit, data):
        if unit.fold == 1:  # a stuck solver that started a helper process
            helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            pids.write_text(f"{os.getpid()} {helper.pid}")
            time.sleep(60)
        return real(unit, data)

    monkeypatch.setattr(executors, "run_unit", stuck_on_fold_1)
    out = tmp_path / "out"
    s = experiment.run(cfg, output=out, progress=False, jobs=2, unit_timeout=1.5)
    assert (s.ok, s.failed, s.timed_out) == (2, 0, 1)
    assert "1 unit timed out (toy / cart / fold 1): timed out after 1.5 s (unit_timeout)" in str(s)
    unit_pid, helper_pid = map(int, pids.read_text().split())
    assert wait_for(lambda: not alive(unit_pid) and not alive(helper_pid), timeout=5)
    timed = [r for r in read_records(out) if r["status"] == "timeout"]
    assert [(r["fold"], r["timeout"]) for r in timed] == [(1, 1.5)]
    from rulelearn.bench import report
    report.write_tables(out)
    assert "- missing: toy / CART: timed out after 1.5 s (unit_timeout)" in \
        (out / "table1.md").read_text()
    # the same limit or a shorter one: not run again (it would time out again) ...
    s = experiment.run(cfg, output=out, progress=False, jobs=2, unit_timeout=1.0)
    assert (s.skipped, s.ok, s.timed_out) == (3, 0, 0)
    # ... a longer one (or none, or force) runs it
    monkeypatch.setattr(executors, "run_unit", real)
    s = experiment.run(cfg, output=out, progress=False, jobs=1, unit_timeout=60)
    assert (s.skipped, s.ok) == (2, 1)
    assert not list(out.glob("*.lock"))
