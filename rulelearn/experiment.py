"""Run an experiment: datasets x methods x outer folds -> records.

Each *unit* (one dataset, one method variant, one outer fold) is independent and fully
determined by the configuration (its splits and random state come from the config seed and
the names), so the records do not depend on the executor or the number of jobs.  Workers
return records; only this process appends them to ``records.jsonl`` (see :mod:`.store`).
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from rulelearn import baselines, selection
from rulelearn.config import RULE_METHODS, DatasetConfig, ExperimentConfig, MethodConfig
from rulelearn.errors import ConfigError
from rulelearn.store import RecordStore, atomic_write_text, run_key

#: Fields that change between two runs of the same unit (timings, dates); not part of a result.
VOLATILE = ("fit_seconds", "tune_seconds", "total_seconds", "finished_at", "host", "versions")


@dataclass(frozen=True)
class Unit:
    """One piece of work: a method variant on one outer fold of one dataset."""

    key: str
    dataset: str
    method: MethodConfig
    fold: int
    n_outer: int
    inner_folds: int
    seed: int
    experiment: str
    key_params: dict = field(compare=False)


@dataclass
class PreparedData:
    """A loaded dataset (after an optional stratified subsample)."""

    name: str
    X: object
    y: np.ndarray
    positive: object
    source: str = ""


@dataclass
class RunSummary:
    folder: Path
    total: int
    skipped: int
    ok: int
    failed: int
    wall_seconds: float
    failures: list = field(default_factory=list)

    def __str__(self) -> str:
        text = (f"{self.total} units: {self.skipped} already done, {self.ok} ok, "
                f"{self.failed} failed in {self.wall_seconds:.1f}s -> {self.folder}")
        for label, reason in self.failures[:10]:
            text += f"\n  failed: {label}: {reason}"
        return text


# ----------------------------------------------------------------------------------------------
# planning


def plan(config: ExperimentConfig, *, only_datasets=None) -> list[Unit]:
    """Every unit of ``config`` in a deterministic order."""
    datasets = config.datasets
    if only_datasets:
        names = [d.name for d in datasets]
        for n in only_datasets:
            if n not in names:
                from rulelearn.config import did_you_mean
                raise ConfigError(f"--only-dataset {n!r} is not in the config.{did_you_mean(n, names)}"
                                  f" Datasets: {', '.join(names)}.")
        datasets = [d for d in datasets if d.name in only_datasets]
    units = []
    for d in datasets:
        for m in config.methods:
            params = {"method": m.to_dict(), "dataset": d.to_dict(),
                      "positive": _planned_positive(d), "inner_folds": config.inner_folds}
            for k in range(config.outer_folds):
                key = run_key(dataset=d.name, label=m.label, params=params, fold=k,
                              seed=config.seed, n_outer=config.outer_folds)
                units.append(Unit(key=key, dataset=d.name, method=m, fold=k,
                                  n_outer=config.outer_folds, inner_folds=config.inner_folds,
                                  seed=config.seed, experiment=config.name, key_params=params))
    return units


def _planned_positive(d: DatasetConfig):
    """The positive class a unit will use, so that records of another choice are not reused."""
    if d.positive is not None or d.path is not None:
        return d.positive
    from rulelearn.data import REGISTRY

    spec = REGISTRY.get(d.name)
    return None if spec is None else spec.positive


def load_data(d: DatasetConfig, *, seed: int = 0, mirror=None) -> PreparedData:
    """Load a registry or CSV dataset (through :mod:`rulelearn.data`) and subsample it."""
    from rulelearn import data as data_layer

    if d.path is not None:
        ds = data_layer.read_csv_dataset(d.path, target=d.target, positive=d.positive,
                                         name=d.name)
    else:
        ds = data_layer.load_dataset(d.name, mirror=mirror)
    X, y = ds.X, np.asarray(ds.y)
    positive = d.positive if (d.positive is not None and d.path is None) else ds.positive
    if d.subsample and d.subsample < len(y):
        from sklearn.model_selection import train_test_split
        keep, _ = train_test_split(np.arange(len(y)), train_size=d.subsample, stratify=y,
                                   random_state=selection.stable_seed(seed, d.name, "subsample"))
        keep = np.sort(keep)
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
    return PreparedData(name=d.name, X=X, y=y, positive=positive,
                        source=str(getattr(ds, "source", "")))


# ----------------------------------------------------------------------------------------------
# one unit


def make_estimator(method: MethodConfig, *, pos_label, random_state):
    """An unfitted estimator for ``method`` (its tuned parameter set by the caller)."""
    p = method.params
    if method.name in RULE_METHODS:
        from rulelearn.estimator import BooleanRuleClassifier

        kwargs = dict(method=method.name, form=p["form"], max_rules=p["R"],
                      max_iter=p["max_iter"], n_thresholds=p["n_thresholds"],
                      theta=max(method.grid) if method.grid else 1.0, pos_label=pos_label)
        if "clause_solver" in p:
            kwargs["clause_solver"] = p["clause_solver"]
        est = BooleanRuleClassifier(**kwargs)
        if "random_state" in est.get_params():  # the LP learners are deterministic today
            est.set_params(random_state=random_state)
        return est
    if method.name == "cart":
        return baselines.CartClassifier(pos_label=pos_label, random_state=random_state,
                                        **{k: v for k, v in p.items() if k != "max_depth"})
    if method.name == "ripper":
        # like Cohen's RIPPER, learn rules for the minority class (the majority is the default)
        return baselines.RipperClassifier(pos_label=None, random_state=random_state, **p)
    raise ConfigError(f"unknown method {method.name!r}")


def base_record(unit: Unit) -> dict:
    m = unit.method
    return {"key": unit.key, "experiment": unit.experiment, "dataset": unit.dataset,
            "method": m.name, "label": m.label, "params": m.params, "fold": unit.fold,
            "n_outer": unit.n_outer, "inner_folds": unit.inner_folds, "seed": unit.seed,
            "tuned_param": m.tuned, "grid": list(m.grid)}


def failed_record(unit: Unit, reason: str) -> dict:
    rec = base_record(unit)
    rec.update(status="failed", error=reason, finished_at=_now(), versions=versions())
    return rec


def run_unit(unit: Unit, data: PreparedData) -> dict:
    """Run one unit and return its record (``status`` ``ok`` or ``failed``); never raises."""
    t0 = time.perf_counter()
    try:
        folds = selection.outer_folds(data.y, unit.n_outer, unit.seed, unit.dataset)
        train, test = folds[unit.fold]
        m = unit.method
        est = make_estimator(
            m, pos_label=data.positive,
            random_state=selection.stable_seed(unit.seed, unit.dataset, "estimator", unit.fold))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = selection.evaluate_fold(
                est, data.X, data.y, train, test, param=m.tuned, grid=m.grid, prefer=m.prefer,
                inner_folds=unit.inner_folds,
                seed=selection.inner_seed(unit.seed, unit.dataset, unit.fold))
        rec = base_record(unit)
        rec["warnings"] = sorted({str(w.message) for w in caught})
        rec.update(baselines.describe(res.model))
        rec.update(
            status="ok", error=None, chosen=res.chosen,
            theta=res.chosen if m.tuned == "theta" else None, inner_errors=res.inner_errors,
            test_error=res.test_error, train_error=res.train_error,
            n_train=res.n_train, n_test=res.n_test, positive=data.positive,
            fit_seconds=res.fit_seconds, tune_seconds=res.tune_seconds,
            total_seconds=time.perf_counter() - t0, finished_at=_now(),
            host=platform.node(), versions=versions(m.name))
        return rec
    except Exception as exc:  # noqa: BLE001 - a failed unit is a record, not a crash
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return failed_record(unit, f"{type(exc).__name__}: {msg}")


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def versions(method: str | None = None) -> dict:
    """Versions of the packages a result depends on."""
    from importlib import metadata

    from rulelearn import __version__

    out = {"python": platform.python_version(), "rulelearn": __version__}
    names = ["numpy", "highspy", "scikit-learn", "pandas"]
    if method == "ripper":
        names.append("wittgenstein")
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


# ----------------------------------------------------------------------------------------------
# executors

_WORKER_DATA: dict = {}


def _init_worker(datasets):
    _WORKER_DATA.clear()
    _WORKER_DATA.update(datasets)


def _run_in_worker(unit: Unit) -> dict:
    return run_unit(unit, _WORKER_DATA[unit.dataset])


def _execute_local(units, datasets, jobs):
    if jobs == 1:
        for u in units:
            yield run_unit(u, datasets[u.dataset])
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(datasets,))
    try:
        futures = {pool.submit(_run_in_worker, u): u for u in units}
        for fut in as_completed(futures):
            try:
                yield fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OS
                yield failed_record(futures[fut], f"{type(exc).__name__}: {exc}")
    finally:
        # on Ctrl-C, drop the queued units at once (the records so far are on disk)
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_dask(units, datasets, scheduler):
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise ConfigError("executor 'dask' needs dask.distributed: "
                          "pip install 'rulelearn[dask]'") from None
    if not scheduler:
        raise ConfigError("executor 'dask' needs a scheduler address (--scheduler ADDRESS).")
    client = Client(scheduler)
    try:
        scattered = {name: client.scatter(d, broadcast=True) for name, d in datasets.items()}
        futures = {client.submit(run_unit, u, scattered[u.dataset], pure=False, key=f"unit-{u.key}"): u
                   for u in units}
        for fut in as_completed(list(futures)):
            try:
                yield fut.result()
            except Exception as exc:  # noqa: BLE001
                yield failed_record(futures[fut], f"{type(exc).__name__}: {exc}")
    finally:
        client.close()


class Progress:
    """``[bench] 12/60 units  (1 failed)  elapsed 0:31  ETA 2:05`` on stderr, updated in place."""

    def __init__(self, total, *, enabled=True, stream=None):
        self.total, self.done, self.failed = total, 0, 0
        self.enabled = enabled and total > 0
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = self.last = time.perf_counter()
        self.show()

    def update(self, ok: bool):
        self.done += 1
        self.failed += (not ok)
        self.show()

    def show(self):
        if not self.enabled:
            return
        now = time.perf_counter()
        if not self.tty and self.done < self.total and now - self.last < 10 and self.done:
            return  # a log file gets a line every 10 s, not one per unit
        self.last = now
        elapsed = now - self.t0
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        failed = f"  ({self.failed} failed)" if self.failed else ""
        line = (f"[bench] {self.done}/{self.total} units{failed}  elapsed {_hms(elapsed)}"
                f"  ETA {_hms(eta) if eta is not None else '?'}   ")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if self.done == self.total else ""))
        else:
            self.stream.write(line.rstrip() + "\n")
        self.stream.flush()


def _hms(seconds: float) -> str:
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# ----------------------------------------------------------------------------------------------
# the experiment


def run(config: ExperimentConfig, *, jobs=None, executor=None, scheduler=None, output=None,
        force=False, mirror=None, only_datasets=None, progress=True) -> RunSummary:
    """Run every unit of ``config`` not already done; append their records; return a summary.

    ``output`` is the experiment folder (default ``<config.output>/<config.name>``).  Units
    whose latest record is ``ok`` are skipped unless ``force``; failed ones are retried.
    """
    t0 = time.perf_counter()
    folder = Path(output) if output else config.results_dir
    executor = executor or config.executor
    scheduler = scheduler or config.scheduler
    jobs = jobs or config.jobs or os.cpu_count() or 1
    if executor not in ("local", "dask"):
        raise ConfigError(f"executor must be 'local' or 'dask'. Got {executor!r}.")
    store = RecordStore(folder)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / "config.yaml",
                      yaml.safe_dump(config.to_dict(), sort_keys=False, allow_unicode=True))

    units = plan(config, only_datasets=only_datasets)
    done = set() if force else store.done()
    todo = [u for u in units if u.key not in done]
    skipped = len(units) - len(todo)

    prog = Progress(len(todo), enabled=progress)
    ok = failed = 0
    failures = []

    def record(rec):
        nonlocal ok, failed
        store.append(rec)
        good = rec["status"] == "ok"
        ok += good
        failed += not good
        if not good:
            failures.append((f"{rec['dataset']} / {rec['label']} / fold {rec['fold']}", rec["error"]))
        prog.update(good)

    # load each dataset once; a dataset that cannot be loaded fails its units with the reason
    datasets, runnable = {}, []
    by_name = {d.name: d for d in config.datasets}
    for name in dict.fromkeys(u.dataset for u in todo):
        try:
            data = load_data(by_name[name], seed=config.seed, mirror=mirror)
            selection.check_protocol(data.y, outer=config.outer_folds, inner=config.inner_folds,
                                     seed=config.seed, dataset=name)
            datasets[name] = data
        except Exception as exc:  # noqa: BLE001 - recorded per unit
            reason = f"{type(exc).__name__}: {exc}"
            for u in todo:
                if u.dataset == name:
                    record(failed_record(u, reason))
            continue
        runnable.extend(u for u in todo if u.dataset == name)

    if runnable:
        if executor == "dask":
            stream = _execute_dask(runnable, datasets, scheduler)
        else:
            stream = _execute_local(runnable, datasets, min(jobs, len(runnable)))
        for rec in stream:
            record(rec)

    wall = time.perf_counter() - t0
    import json
    previous = 0.0
    if (folder / "meta.json").exists():
        try:
            previous = float(json.loads((folder / "meta.json").read_text())["wall_seconds_all_runs"])
        except (ValueError, KeyError, TypeError):
            previous = 0.0
    meta = {"experiment": config.name, "wall_seconds": wall,
            "wall_seconds_all_runs": previous + wall, "finished_at": _now(),
            "executor": executor, "jobs": jobs, "cores": os.cpu_count(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
            "units": len(units), "ran": len(todo), "versions": versions(),
            "deviations": config.protocol_deviations()}
    atomic_write_text(folder / "meta.json", json.dumps(meta, indent=2, default=str) + "\n")
    return RunSummary(folder=folder, total=len(units), skipped=skipped, ok=ok, failed=failed,
                      wall_seconds=wall, failures=failures)


def comparable(record: dict) -> dict:
    """A record without its volatile fields (timings, dates, host, versions)."""
    return {k: v for k, v in record.items() if k not in VOLATILE}


__all__ = ["Unit", "PreparedData", "RunSummary", "plan", "load_data", "run_unit", "run",
           "make_estimator", "comparable", "versions"]
