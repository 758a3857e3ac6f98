"""``rulelearn fit --scheduler`` and ``BooleanRuleClassifierCV(scheduler=...)``: the CV's folds
on a dask cluster (a ``dask scheduler`` and two single-threaded ``dask worker`` processes that
the tests start), with the result of a local run; and the errors without a cluster or dask."""

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn import cluster, model_selection
from rulelearn.cli import main
from rulelearn.cv_estimator import BooleanRuleClassifierCV

ROOT = Path(__file__).resolve().parents[1]


def planted(n=60, seed=0, classes=2):
    """a > 0.3 OR (b < -0.5 AND c == red) -> 1 (with three classes: b > 1 -> 2 first); a
    constant column k, about which every fold's binarizer warns."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    c = rng.choice(["red", "blue", "green"], n)
    y = np.where((a > 0.3) | ((b < -0.5) & (c == "red")), 1, 0)
    if classes == 3:
        y = np.where(b > 1, 2, y)
    return pd.DataFrame({"a": a, "b": b, "c": c, "k": 1, "y": y})


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a dask scheduler with two single-threaded worker processes (started
    here with this checkout on their path, stopped after the module)."""
    distributed = pytest.importorskip("dask.distributed")
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    common = dict(env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file)], **common)]
    try:
        processes += [subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
             str(address_file), "--nthreads", "1", "--no-nanny", "--no-dashboard",
             "--memory-limit", "0"], **common) for _ in range(2)]
        with distributed.Client(scheduler_file=str(address_file), timeout=30,
                                set_as_default=False) as client:
            client.wait_for_workers(2, timeout=30)
            yield client.scheduler.address
    finally:
        for process in processes:  # nothing of theirs to keep: no graceful close needed
            process.kill()
            process.wait()


def tasks_run(address) -> int:
    """How many tasks the workers of ``address`` have run so far."""
    from dask.distributed import Client

    with Client(address, timeout=10, set_as_default=False) as client:
        return sum(client.run(lambda dask_worker: dask_worker.state.executed_count).values())


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args):
        return CliRunner().invoke(main, [str(a) for a in args])
    return invoke


def one_line_error(result, *words, code=1):
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0], (word, errors[0])


# ------------------------------------------------------------------------- on a cluster

def test_fit_on_a_cluster_prints_what_a_local_fit_prints(run, tmp_path, scheduler):
    planted().to_csv(tmp_path / "d.csv", index=False)
    options = ["d.csv", "--form", "dnf", "--theta", "0.5", "--json", "-q"]  # R by CV
    local = run("fit", *options, "--jobs", "1")
    before = tasks_run(scheduler)
    remote = run("fit", *options, "--scheduler", scheduler)
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout  # the CV table (every row), the rule, the accuracy
    assert len(json.loads(remote.stdout)["cv"]["grid"]) > 1  # more than one R was tried
    # the workers' warnings reach the user once, as a local fit's do
    assert remote.stderr == local.stderr
    assert remote.stderr.count("constant or empty column(s): k") == 1
    assert tasks_run(scheduler) > before  # the folds ran on the cluster


def test_the_estimator_on_a_cluster_chooses_what_it_chooses_here(scheduler, monkeypatch):
    data = planted(n=80, seed=1)
    X, y = data.drop(columns="y"), data["y"].to_numpy()
    grid = dict(forms=("dnf", "cnf"), rules=(1, 3), thetas=(0.02, 0.2), cv=3)
    folds: list = []

    def fit(**params):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = BooleanRuleClassifierCV(**grid, **params).fit(
                X, y, progress=lambda *args: folds.append(args))
        return model, sorted(str(w.message) for w in caught)

    before = tasks_run(scheduler)
    remote, raised = fit(scheduler=scheduler)
    on_cluster = len(folds)
    remote_tasks = tasks_run(scheduler) - before
    assert on_cluster > 0
    ran_here = []  # the local fit's fold tasks (a fold of a cell, or one start's part of it)
    score_fold = model_selection._fold_scores
    monkeypatch.setattr(model_selection, "_fold_scores",
                        lambda *args, **kw: ran_here.append(1) or score_fold(*args, **kw))
    local, raised_here = fit()
    assert len(folds) == 2 * on_cluster  # the local fit scored as many folds
    assert remote_tasks == len(ran_here) > 0  # every task of the local fit ran on the workers
    assert tasks_run(scheduler) - before == remote_tasks  # and the local fit none there
    # each fold's warning (its binarizer drops k) is raised here, as by a local fit
    assert raised == raised_here and "constant or empty column(s): k" in raised[0]
    assert remote.selection_ == local.selection_
    assert str(remote.rule_) == str(local.rule_)
    assert remote.get_params()["scheduler"] == scheduler


def test_a_rule_list_on_a_cluster(run, tmp_path, scheduler):
    planted(n=90, classes=3).to_csv(tmp_path / "d3.csv", index=False)
    options = ["d3.csv", "--form", "dnf", "--rules", "1", "--json", "-q"]
    local = run("fit", *options, "--jobs", "1")
    remote = run("fit", *options, "--scheduler", scheduler)
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert len(json.loads(remote.stdout)["steps"]) == 2
    assert remote.stdout == local.stdout


# ------------------------------------------------------------------------------ errors

@pytest.mark.parametrize("address, reason", [
    ("tcp://127.0.0.1:1", "Timed out trying to connect"),  # nothing listens on port 1
    ("no-port", "missing port number"),
    ("http://127.0.0.1:8786", "unknown address scheme"),
], ids=["timeout", "no-port", "scheme"])
def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(run, tmp_path, monkeypatch,
                                                                 address, reason):
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(cluster, "DASK_CONNECT_SECONDS", 0.5)
    planted().to_csv(tmp_path / "d.csv", index=False)
    r = run("fit", "d.csv", "--executor", "dask", "--scheduler", address, "--save", "m.json",
            "-q")  # bench's spelling; --scheduler alone means the same
    one_line_error(r, f"cannot reach the dask scheduler {address}", reason)
    assert "within 0.5 s" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]


def without_dask(monkeypatch):
    for name in ("dask", "dask.distributed", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError


def test_without_dask_a_scheduler_names_the_extra_and_a_local_fit_runs(run, tmp_path,
                                                                       monkeypatch):
    without_dask(monkeypatch)
    planted().to_csv(tmp_path / "d.csv", index=False)
    r = run("fit", "d.csv", "--scheduler", "tcp://127.0.0.1:8786", "--save", "m.json")
    one_line_error(r, "--scheduler needs dask.distributed: pip install 'rulelearn[dask]'")
    assert not (tmp_path / "m.json").exists()
    with pytest.raises(cluster.ClusterError, match=r"pip install 'rulelearn\[dask\]'"):
        BooleanRuleClassifierCV(scheduler="tcp://127.0.0.1:8786").fit(
            planted().drop(columns=["y", "k"]), planted()["y"])
    r = run("fit", "d.csv", "--form", "dnf", "--rules", "1", "--jobs", "1", "-q")
    assert r.exit_code == 0 and "rule (DNF" in r.stdout


@pytest.mark.parametrize("options, words", [
    (["--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"], "leave out --jobs"),
    (["--executor", "local", "--scheduler", "tcp://127.0.0.1:8786"], "give one of them"),
    (["--executor", "dask"], "--executor dask needs a scheduler address"),
    (["--scheduler", "tcp://127.0.0.1:8786", "--form", "dnf", "--rules", "1", "--theta", "1"],
     "there is none"),
])
def test_options_that_contradict_each_other_are_refused_before_any_work(run, tmp_path,
                                                                       options, words):
    planted().to_csv(tmp_path / "d.csv", index=False)
    one_line_error(run("fit", "d.csv", *options), words, code=2)


def test_the_scheduler_parameter_is_an_address():
    from rulelearn.errors import ParameterError

    with pytest.raises(ParameterError, match="'scheduler' parameter .* must be None or a str"):
        BooleanRuleClassifierCV(scheduler=8786).fit(planted()[["a"]], planted()["y"])


# ------------------------------------------------- the dispatch, with a client that runs here

class InlineClient:
    """A ``distributed.Client`` stand-in that runs each task here when its result is read
    (``fail``: the exception every result raises instead)."""

    def __init__(self, fail=None, worker_code=None):
        self.scattered, self.submitted, self.cancelled, self.fail = 0, 0, 0, fail
        self.worker_code = worker_code  # what a worker's code_digest gives (None: ours)

    def run(self, fn):
        if isinstance(self.worker_code, Exception):
            raise self.worker_code
        return {"tcp://127.0.0.1:4": self.worker_code or fn()}

    def scatter(self, values):
        self.scattered += 1
        return list(values)

    def submit(self, fn, *args, pure=True):
        assert pure is False  # a fold's task is never shared with another client's
        self.submitted += 1
        return self if self.fail else InlineFuture(fn, args)

    def result(self):  # as a future: the cluster lost it
        raise self.fail

    def cancel(self, futures):
        self.cancelled += len(futures)


class InlineFuture:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def result(self):
        return self.fn(*self.args)


def test_the_folds_go_out_once_each_with_the_data_sent_once():
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_selection import select_setting

    data = planted(n=40, seed=3).drop(columns="k")
    X, y = data.drop(columns="y"), data["y"].to_numpy()
    grid = dict(thetas=(0.5,), rules=(1, 3), cv=3)
    client = InlineClient()
    remote = select_setting(BooleanRuleClassifier(pos_label=1), X, y, client=client, **grid)
    assert remote == select_setting(BooleanRuleClassifier(pos_label=1), X, y, **grid)
    assert client.scattered == 1  # X and y, once for the whole walk
    assert client.submitted == client.cancelled == 3 * len(remote.rows)  # folds x cells


def lost_connection():
    from concurrent.futures import CancelledError  # dask's FutureCancelledError is one

    return CancelledError("lost connection to scheduler")


def killed_worker():
    from types import SimpleNamespace

    from distributed import KilledWorker

    return KilledWorker("_fold_scores-1", SimpleNamespace(address="tcp://127.0.0.1:4"), 3)


@pytest.mark.parametrize("lost", [lost_connection, killed_worker])
def test_a_cluster_that_loses_the_folds_is_one_line(lost):
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_selection import select_setting

    if lost is killed_worker:
        pytest.importorskip("dask.distributed")
    data = planted(n=30, seed=3).drop(columns="k")
    client = InlineClient(fail=lost())
    with pytest.raises(cluster.ClusterError, match=r"^the dask cluster stopped running the "
                                                   rf"CV's folds \({type(lost()).__name__}: "):
        select_setting(BooleanRuleClassifier(pos_label=1), data.drop(columns="y"),
                       data["y"].to_numpy(), thetas=(1.0,), rules=(1,), cv=2, client=client)
    assert client.cancelled == client.submitted > 0


@pytest.mark.parametrize("worker_code, words", [
    ("0" * 64, "1 of 1 dask workers (tcp://127.0.0.1:4) run other code than this process"),
    (ModuleNotFoundError("No module named 'rulelearn'"),
     "the dask workers cannot run rulelearn (ModuleNotFoundError: No module named"),
], ids=["other-code", "no-rulelearn"])
def test_workers_that_run_other_code_are_refused_before_any_fold(worker_code, words):
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_selection import select_setting

    data = planted(n=30, seed=3).drop(columns="k")
    client = InlineClient(worker_code=worker_code)
    with pytest.raises(cluster.ClusterError, match=re.escape(words)):
        select_setting(BooleanRuleClassifier(pos_label=1), data.drop(columns="y"),
                       data["y"].to_numpy(), thetas=(1.0,), rules=(1,), cv=2, client=client)
    assert client.submitted == client.scattered == 0


def test_the_code_digest_follows_the_sources_a_fold_runs(tmp_path, monkeypatch):
    here = cluster.code_digest()
    assert here == cluster.code_digest() and len(here) == 64
    copy = tmp_path / "rulelearn"
    for path in Path(cluster.__file__).parent.rglob("*.py"):
        target = copy / path.relative_to(Path(cluster.__file__).parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(cluster, "__file__", str(copy / "cluster.py"))
    assert cluster.code_digest() == here  # the same sources elsewhere
    (copy / "cli" / "fit.py").write_text("# the CLI: no fold runs it\n")
    assert cluster.code_digest() == here
    (copy / "lp.py").write_text((copy / "lp.py").read_text() + "\n# changed\n")
    assert cluster.code_digest() != here
