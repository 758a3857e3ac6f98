"""Run an experiment: seeds x datasets x methods x outer folds -> records.

Each *unit* (one seed, one dataset, one method variant, one outer fold) is independent and
fully determined by the configuration (its splits and random state come from its seed and the
names), so the records do not depend on the executor or the number of jobs.  Each seed repeats
the whole nested CV: the units of seed ``s`` are those of the same config with ``seed: s``
(same keys), so adding seeds reuses the records already done.  Workers
return records; only this process appends them to ``records.jsonl`` (see :mod:`.store`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import datetime as _dt
import importlib
import json
import logging
import math
import os
import platform
import shutil
import signal
import sys
import threading
import time
import unicodedata
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from rulelearn import cluster
from rulelearn._io import atomic_write_text, make_folder, refuse_link, remove_folders
from rulelearn.bench import EXECUTORS, baselines, protocol
from rulelearn.bench.config import DatasetConfig, ExperimentConfig, MethodConfig
from rulelearn.bench.fingerprint import (
    CODE_REASONS,
    CODE_UNRECORDED,
    code_fingerprint,
    data_fingerprint,
    kept_line,
    kept_versions,
    stale_line,
    staleness,
    unrecorded_message,
)
from rulelearn.bench.methods import METHODS
from rulelearn.bench.records import display_names, latest, scan_records, unit_record
from rulelearn.bench.store import (
    RecordStore,
    ResultsError,
    RunLog,
    dumps_record,
    non_finite,
    os_error,
    run_key,
    unit_params,
)
from rulelearn.errors import ConfigError
from rulelearn.model_selection import take_rows

log = logging.getLogger(__name__)

#: Seconds between two heartbeats of a run in ``runs.json`` (what a killed run may leave out).
HEARTBEAT_SECONDS = 5.0
#: Seconds to wait for a dask scheduler to answer before giving up (nothing is run or written).
DASK_CONNECT_SECONDS = cluster.DASK_CONNECT_SECONDS


@dataclass(frozen=True)
class Unit:
    """One piece of work: a method variant on one outer fold of one dataset, for one seed."""

    key: str
    dataset: str
    method: MethodConfig
    fold: int
    n_outer: int
    inner_folds: int
    seed: int
    experiment: str
    #: what the unit's data was when planned (:func:`~.fingerprint.data_fingerprint`); kept
    #: in its record
    data_fingerprint: str | None = None
    #: the code its method's results depend on (:func:`~.fingerprint.code_fingerprint`);
    #: kept in its record
    code_fingerprint: str | None = None


@dataclass
class PreparedData:
    """A loaded dataset (after an optional stratified subsample)."""

    name: str
    X: object
    y: np.ndarray
    positive: object
    source: str = ""
    #: certificates of earlier records by bound key (:func:`known_bounds`): a bound that
    #: another method's record holds for the same problem is reused, not recomputed
    bounds: dict = field(default_factory=dict)


@dataclass
class RunSummary:
    folder: Path
    total: int
    skipped: int
    ok: int
    failed: int
    wall_seconds: float
    failures: list = field(default_factory=list)
    #: dataset -> (units run again because their data changed, why); said by a warning as the
    #: run starts
    stale: dict = field(default_factory=dict)
    #: dataset -> (done units of other code kept by ``reuse_stale``, {code version: count})
    kept: dict = field(default_factory=dict)
    #: units stopped at the unit timeout (their reasons are in ``failures`` too)
    timed_out: int = 0

    def __str__(self) -> str:
        timed_out = f", {self.timed_out} timed out" if self.timed_out else ""
        text = (f"{self.total} units: {self.skipped} already done, {self.ok} ok, "
                f"{self.failed} failed{timed_out} in {self.wall_seconds:.1f}s -> {self.folder}")
        for reason, count, example in self.failure_reasons():
            verb = "timed out" if reason.startswith(TIMED_OUT) else "failed"
            units = f"{count} unit {verb}" if count == 1 else f"{count} units {verb}"
            text += f"\n  {units} ({example}{', ...' if count > 1 else ''}): {reason}"
        return text

    def failure_reasons(self) -> list[tuple[str, int, str]]:
        """Each distinct failure reason once: ``(reason, count, first unit)``, most frequent
        first."""
        seen: dict = {}
        for label, reason in self.failures:
            count, example = seen.get(reason, (0, label))
            seen[reason] = (count + 1, example)
        return sorted(((r, c, e) for r, (c, e) in seen.items()), key=lambda t: -t[1])


# ----------------------------------------------------------------------------------------------
# planning


def plan(config: ExperimentConfig, *, only_datasets=None, only_methods=None) -> list[Unit]:
    """Every unit of ``config`` in a deterministic order (only those of ``only_datasets``, by
    name, and of ``only_methods``, by method name or run label, when given)."""
    datasets = list(config.datasets)
    if only_datasets:
        names = [d.name for d in datasets]
        for n in only_datasets:
            if n not in names:
                from rulelearn._utils import did_you_mean
                raise ConfigError(f"--only-dataset {n!r} is not in the config."
                                  f"{did_you_mean(n, names)} Datasets: {', '.join(names)}.")
        datasets = [d for d in datasets if d.name in only_datasets]
    methods = _only_methods(config.methods, only_methods) if only_methods else config.methods
    units = []
    prints = {d.name: data_fingerprint(d) for d in datasets}
    code = {name: code_fingerprint(name) for name in dict.fromkeys(m.name for m in methods)}
    for seed in config.seeds:
        for d in datasets:
            for m in methods:
                params = unit_params(d.to_dict(), m.to_dict(), config.inner_folds)
                for k in range(config.outer_folds):
                    key = run_key(dataset=d.name, label=m.label, params=params, fold=k,
                                  seed=seed, n_outer=config.outer_folds)
                    units.append(Unit(key=key, dataset=d.name, method=m, fold=k,
                                      n_outer=config.outer_folds,
                                      inner_folds=config.inner_folds, seed=seed,
                                      experiment=config.name, data_fingerprint=prints[d.name],
                                      code_fingerprint=code[m.name]))
    return units


def _only_methods(methods, wanted) -> list:
    """The method entries ``wanted`` names: each a method name (all of its entries) or a run
    label, case-insensitive; a name that matches none is a :class:`ConfigError`."""
    keep = set()
    for value in wanted:
        key = value.strip().lower()
        found = {m.label for m in methods if key in (m.name.lower(), m.label.lower())}
        if not found:
            from rulelearn._utils import did_you_mean
            names = list(dict.fromkeys([m.name for m in methods] + [m.label for m in methods]))
            raise ConfigError(f"--only-method {value!r} is not a method of the config."
                              f"{did_you_mean(value, names)} Methods: "
                              f"{', '.join(m.label for m in methods)}.")
        keep |= found
    return [m for m in methods if m.label in keep]


def load_data(d: DatasetConfig, *, seed: int = 0, mirror=None) -> PreparedData:
    """Load a registry or CSV dataset (through :mod:`rulelearn.data`) and subsample it."""
    return subsample(read_data(d, mirror=mirror), d, seed=seed)


def read_data(d: DatasetConfig, *, mirror=None) -> PreparedData:
    """Load a registry or CSV dataset (through :mod:`rulelearn.data`), all of its rows."""
    from rulelearn import data as data_layer

    if d.path is not None:
        ds = data_layer.read_csv_dataset(d.path, target=d.target, positive=d.positive,
                                         name=d.name)
    else:
        ds = data_layer.load_dataset(d.name, mirror=mirror)
    positive = d.positive if (d.positive is not None and d.path is None) else ds.positive
    return PreparedData(name=d.name, X=ds.X, y=np.asarray(ds.y), positive=positive,
                        source=str(getattr(ds, "source", "")))


def subsample(data: PreparedData, d: DatasetConfig, *, seed: int) -> PreparedData:
    """The stratified subsample ``d`` asks for, drawn with ``seed`` (``data`` itself if none)."""
    if not d.subsample or d.subsample >= len(data.y):
        return data
    from sklearn.model_selection import train_test_split
    keep, _ = train_test_split(np.arange(len(data.y)), train_size=d.subsample, stratify=data.y,
                               random_state=protocol.stable_seed(seed, d.name, "subsample"))
    keep = np.sort(keep)
    X: Any = data.X  # a DataFrame
    return PreparedData(name=d.name, X=X.iloc[keep].reset_index(drop=True),
                        y=data.y[keep], positive=data.positive, source=data.source)


# ----------------------------------------------------------------------------------------------
# one unit


def make_estimator(method: MethodConfig, *, pos_label, random_state):
    """An unfitted estimator for ``method`` (its tuned parameter set by the caller)."""
    entry = METHODS.get(method.name)
    if entry is None:
        raise ConfigError(f"unknown method {method.name!r}")
    return entry.build(method.params, method.grid, pos_label, random_state)


def failed_record(unit: Unit, reason: str) -> dict:
    return unit_record(unit, status="failed", error=reason, finished_at=_now(),
                       versions=versions())


#: The start of a timed-out record's ``error``.
TIMED_OUT = "timed out"


def timeout_record(unit: Unit, seconds: float) -> dict:
    """The record of a unit stopped after ``seconds`` (status ``timeout``): its cell is
    missing, with this reason, and the unit runs again only with a longer limit (or force)."""
    return unit_record(unit, status="timeout", error=f"{TIMED_OUT} after {seconds:g} s "
                       "(unit_timeout)", timeout=seconds, finished_at=_now(),
                       versions=versions())


def run_unit(unit: Unit, data: PreparedData) -> dict:
    """Run one unit and return its record (``status`` ``ok`` or ``failed``); never raises."""
    t0 = time.perf_counter()
    try:
        folds = protocol.outer_folds(data.y, unit.n_outer, unit.seed, unit.dataset)
        train, test = folds[unit.fold]
        m = unit.method
        est = make_estimator(
            m, pos_label=data.positive,
            random_state=protocol.stable_seed(unit.seed, unit.dataset, "estimator", unit.fold))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = protocol.evaluate_fold(
                est, data.X, data.y, train, test, param=m.tuned, grid=m.grid, prefer=m.prefer,
                inner_folds=unit.inner_folds,
                seed=protocol.inner_seed(unit.seed, unit.dataset, unit.fold))
        extra = {}
        if m.params.get("certify"):
            extra["certificate"] = certificate_of(res.model, take_rows(data.X, train),
                                                  data.y[train], data.bounds)
        rec = unit_record(
            unit, status="ok", warnings=sorted({str(w.message) for w in caught}), **extra,
            **baselines.describe(res.model), error=None, chosen=res.chosen,
            theta=res.chosen if m.tuned == "theta" else None, inner_errors=res.inner_errors,
            test_error=res.test_error, train_error=res.train_error, path=res.path,
            n_train=res.n_train, n_test=res.n_test, positive=data.positive,
            fit_seconds=res.fit_seconds, tune_seconds=res.tune_seconds,
            total_seconds=time.perf_counter() - t0, finished_at=_now(),
            host=platform.node(), versions=versions(m.name))
        where = non_finite(rec)
        if where:  # e.g. an LP objective that overflowed: not a result
            return failed_record(unit, f"non-finite value in field '{where}'")
        return rec
    except Exception as exc:  # noqa: BLE001 - a failed unit is a record, not a crash
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return failed_record(unit, f"{type(exc).__name__}: {msg}")


#: Limits of a record's certificate (:func:`rulelearn.certify.lower_bound`), all counts so
#: that a record's bound is the same on any machine at any load: 40 master LP solves
#: (Parkinsons' fold 0 needs them to finish pricing), 20 nodes per pricing MIP after 2 cut
#: rounds. ``cpu_safety`` is a safety net, checked between HiGHS runs only (each run also stops
#: after that many wall seconds, against a runaway one): where it stops a bound, the record's
#: status is "cpu limit" and ``reproducible`` false. The costliest bound measured under the
#: counts, Pima's fold 0 at θ 1.18 (38 master LPs, 8 pricing MIPs), took 250 CPU s, Parkinsons'
#: 151: the net is 600, well above both. ``levels``: the master's ladder rows per positive
#: (rulelearn.certify; 1 was the older G). ``pricing`` "auto" (the exact search of
#: rulelearn.conjunctions until it fails once, then the MIP) and ``closure`` (the master MIP over
#: every conjunction of small enough reduced cost, up to the master MIP's own rule; the bound is
#: the optimum where it finishes): on Transfusion's folds 0 and 2 the bound became the optimum,
#: 90.89 and 89.35, in 29.1 and 8.3 CPU s (88.40 and 88.07 in 29.8 and 34.6 without them).
CERTIFY_LIMITS = {"max_iterations": 40, "pricing_nodes": 20, "cut_rounds": 2,
                  "cpu_safety": 600.0, "levels": 2, "pricing": "auto", "closure": True}


def certificate_of(model, X, y, known=None) -> dict:
    """Objective, lower bound and gap of a fitted rule learner on its training part
    (:func:`rulelearn.certify.certify` within :data:`CERTIFY_LIMITS`). The bound is not seeded
    with the rule, so it depends on the fold, θ, R and form only: every method choosing the
    same θ on a fold is measured against the same bound, computed once per process, or
    taken from ``known`` (:func:`known_bounds` of earlier records; ``reused`` then) when its
    ``bound_key`` (:func:`rulelearn.certify.bound_key`: the literals, classes, weights, θ,
    R, form, limits and the bound's code) is there.
    ``limits`` and ``status`` say what produced it (``reproducible``: the counts, not the
    CPU safety net, stopped it); ``cpu_seconds`` is the bound's own (0 when reused)."""
    from rulelearn.certify import certify

    t0, cpu0 = time.perf_counter(), time.process_time()
    c = certify(model, X, y, seed_rule=False, cache=True, known=known, **CERTIFY_LIMITS)
    return {"objective": c.objective, "lower_bound": c.bound, "gap": c.gap,
            "theta": float(model.theta), "status": c.certificate.status,
            "reproducible": c.certificate.status != "cpu limit",
            "exact_pricing": c.certificate.exact_pricing, "columns": c.certificate.columns,
            "iterations": c.certificate.iterations,
            "pricing_mips": c.certificate.pricing_mips, "limits": dict(CERTIFY_LIMITS),
            "lp_value": c.certificate.lp_value, "lp_bound": c.certificate.lp_bound,
            "levels": c.certificate.levels, "bound_key": c.bound_key,
            "kind": c.certificate.kind, "closure_status": c.certificate.closure_status,
            "upper_bound": c.certificate.upper_bound,
            "reused": bool(known) and c.bound_key in known,
            "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - cpu0}


def known_bounds(records) -> dict:
    """The reproducible certificates of ``records`` (the latest per unit, ok) by bound key,
    as :class:`rulelearn.certify.Certificate` (for :func:`certificate_of`'s ``known``)."""
    from rulelearn.certify import Certificate

    known = {}
    for rec in latest(records).values():
        c = (rec.raw or {}).get("certificate") if rec.ok else None
        if not isinstance(c, dict) or not c.get("bound_key") or not c.get("reproducible") \
                or c.get("limits") != CERTIFY_LIMITS:
            continue
        try:
            known[c["bound_key"]] = Certificate(
                float(c["lower_bound"]), float(c["lp_value"]), bool(c["exact_pricing"]),
                int(c["iterations"]), int(c["columns"]), 0.0, str(c["status"]),
                pricing_mips=int(c["pricing_mips"]), lp_bound=float(c["lp_bound"]),
                levels=int(c["levels"]), kind=str(c.get("kind", "lp")),
                closure_status=str(c.get("closure_status", "")),
                upper_bound=c.get("upper_bound"))
        except (KeyError, TypeError, ValueError):  # a damaged record: computed again
            continue
    return known


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def versions(method: str | None = None) -> dict:
    """Versions of the packages a result depends on."""
    from importlib import metadata

    from rulelearn import __version__

    out: dict[str, str | None] = {"python": platform.python_version(), "rulelearn": __version__}
    names = ["numpy", "highspy", "scikit-learn", "pandas"]
    requires = METHODS[method].requires if method in METHODS else None
    if requires:
        names.append(requires[0])
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


# ----------------------------------------------------------------------------------------------
# executors

_WORKER_DATA: dict = {}
PR_SET_PDEATHSIG = 1


def _die_with_parent(parent_pid: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux); exit if it already has.

    Without it, workers of a ``bench`` killed with SIGKILL live on, computing for nobody and
    holding the parent's stdout/stderr open (``rulelearn bench ... | tee`` never ends).
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - an unusual libc
            pass
    try:
        os.kill(parent_pid, 0)  # the parent may have died before prctl
    except ProcessLookupError:
        os._exit(1)
    except PermissionError:  # pragma: no cover - alive, another user
        pass


def _init_worker(datasets, parent_pid=None):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler
    # Ctrl-C reaches the whole process group: the parent stops the workers (no traceback each)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    _WORKER_DATA.clear()
    _WORKER_DATA.update(datasets)


def _run_in_worker(unit: Unit) -> dict:
    return run_unit(unit, _WORKER_DATA[data_key(unit)])


def data_key(unit: Unit) -> tuple:
    """Where a unit's data is in the datasets :func:`preflight` loads: (dataset, seed)."""
    return unit.dataset, unit.seed


def _kill_workers(pool) -> None:
    """Stop the pool's worker processes now (they may be in the middle of a unit)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.kill()
        except (OSError, ValueError):
            pass


def _execute_local(units, datasets, jobs):
    if jobs == 1:
        for u in units:
            yield run_unit(u, datasets[data_key(u)])
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                               initargs=(datasets, os.getpid()))
    finished = False
    try:
        futures = {pool.submit(_run_in_worker, u): u for u in units}
        for fut in as_completed(futures):
            try:
                rec = fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OS
                rec = failed_record(futures[fut], f"{type(exc).__name__}: {exc}")
            yield rec
        finished = True
    finally:
        # on Ctrl-C or SIGTERM, drop the queued units and stop the running ones at once
        # (the records so far are on disk)
        if not finished:
            _kill_workers(pool)  # before shutdown, which forgets the processes
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_with_timeout(units, datasets, jobs, timeout):
    """The records of ``units``, each run in a process of its own (forked: the data is shared,
    not copied), ``jobs`` at a time.  A unit still running ``timeout`` wall seconds after it
    started is stopped with SIGKILL -- its process group, so that processes it started go too
    -- and gets a :func:`timeout_record`; the others run on.  On the way out (Ctrl-C, SIGTERM)
    every unit still running is stopped the same way."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    fork = multiprocessing.get_context("fork")
    waiting = list(units)
    running: dict = {}  # connection -> (process, unit, deadline)
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                unit = waiting.pop(0)
                receive, send = fork.Pipe(duplex=False)
                process = fork.Process(target=_unit_process, daemon=True,
                                       args=(unit, datasets[data_key(unit)], send, os.getpid()))
                process.start()
                send.close()
                running[receive] = (process, unit, time.monotonic() + timeout)
            first_deadline = min(deadline for _, _, deadline in running.values())
            ready = wait(list(running), timeout=max(0.0, first_deadline - time.monotonic()))
            for conn in ready:
                assert isinstance(conn, Connection)  # wait() returns what it was given
                process, unit, _ = running.pop(conn)
                try:
                    rec = conn.recv()
                except (EOFError, OSError):  # it ended without a record (e.g. the OS killed it)
                    rec = None
                conn.close()
                _stop_unit_process(process)  # what it started goes too, even if it lingers
                yield rec if rec is not None else failed_record(
                    unit, f"its process ended without a record (exit status {process.exitcode})")
            now = time.monotonic()
            for conn, (process, unit, deadline) in list(running.items()):
                if now >= deadline:
                    del running[conn]
                    _stop_unit_process(process)
                    conn.close()
                    yield timeout_record(unit, timeout)
    finally:
        for conn, (process, _, _) in running.items():
            _stop_unit_process(process)
            conn.close()


def _unit_process(unit, data, send, parent_pid):
    """The body of a unit's own process: a process group of its own, the signals of a pool
    worker, then its record sent to the parent."""
    try:
        os.setpgid(0, 0)
    except OSError:  # pragma: no cover - not allowed here: only this process is stopped
        pass
    _init_worker({}, parent_pid)  # SIGTERM as by default, SIGINT ignored, dies with the parent
    send.send(run_unit(unit, data))
    send.close()


def _stop_unit_process(process) -> None:
    """SIGKILL to the unit's process group (the unit and what it started), then reap it (in
    this order: until it is reaped, its pid, the group's id, cannot name another group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:  # not a group yet (killed before its setpgid) or already gone
        process.kill()
    process.join()


def _execute_dask(units, datasets, client):
    """The records of ``units`` run on a dask cluster (``client``, closed by the caller)."""
    from dask.distributed import as_completed

    by_id: dict = {}  # the seeds of a dataset that is not subsampled share its data
    for d in datasets.values():
        if id(d) not in by_id:
            by_id[id(d)] = client.scatter(d, broadcast=True)
    futures = {client.submit(run_unit, u, by_id[id(datasets[data_key(u)])], pure=False,
                             key=f"unit-{u.key}"): u
               for u in units}
    for fut in as_completed(list(futures)):
        try:
            yield fut.result()
        except Exception as exc:  # noqa: BLE001
            yield failed_record(futures[fut], f"{type(exc).__name__}: {exc}")


def binary_features(X, n_thresholds: int = 10) -> int:
    """About how many binary features the quantile binarization makes of ``X``: two per
    threshold of a numeric column, two per value of a categorical one (a cost proxy only)."""
    import pandas as pd

    total = 0
    for column in getattr(X, "columns", []):
        values = X[column]
        if pd.api.types.is_numeric_dtype(values):
            total += 2 * max(1, min(n_thresholds, int(values.nunique()) - 1))
        else:
            total += 2 * max(1, int(values.nunique()))
    return max(total, 1)


class UnitCosts:
    """The estimated seconds of each unit, for the progress line's ETA.

    A unit's cost is the mean measured ``total_seconds`` of the finished units of the same
    dataset and method -- this run's and those already in the folder's records.  A (dataset,
    method) with none yet is estimated from the dataset's *weight*, rows x binary features
    (:func:`binary_features`), at the seconds per weight the same method has shown on other
    datasets, else that of every unit measured so far.  Nothing measured: unknown (None).
    MAGIC's and Musk's units cost 100-1000 times a WDBC unit, so a mean unit time misleads.
    """

    def __init__(self, weights: dict, measured=()):
        self.weights = {d: float(w) for d, w in weights.items()}
        self.seconds: dict = {}
        for dataset, label, seconds in measured:
            self.observe(dataset, label, seconds)

    def observe(self, dataset: str, label: str, seconds) -> None:
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) \
                and math.isfinite(seconds) and seconds >= 0:
            self.seconds.setdefault((dataset, label), []).append(float(seconds))

    def _rate(self, pairs) -> float | None:
        secs = sum(sum(v) for _, v in pairs)
        weight = sum(self.weights.get(d, 1.0) * len(v) for (d, _), v in pairs)
        return secs / weight if weight > 0 and pairs else None

    def estimate(self, dataset: str, label: str) -> float | None:
        own = self.seconds.get((dataset, label))
        if own:
            return sum(own) / len(own)
        items = list(self.seconds.items())
        rate = (self._rate([(k, v) for k, v in items if k[1] == label])
                or self._rate(items))
        return None if rate is None else rate * self.weights.get(dataset, 1.0)


def unit_name(unit: Unit, names: dict | None = None) -> str:
    """``magic / BCD / fold 3``: the dataset, the method's display name and the outer fold."""
    label = unit.method.label
    return f"{unit.dataset} / {(names or {}).get(label, label)} / fold {unit.fold}"


class Progress:
    """One status line on stderr, rewritten in place after each finished unit, on a terminal::

        [bench] 12/60 units (1 failed)  elapsed 0:31  ETA ~2:05  running magic / BCD / fold 3

    The line is cut to the terminal's width (read at each update, so a resized terminal is
    followed; wide characters count two columns), so that it never wraps: a wrapped line
    cannot be rewritten and leaves one truncated copy per update.  Not on a terminal, nothing
    is written; each finished unit is logged instead (``rulelearn -v bench`` shows them).

    ``units`` are the units to run, in the order they are handed out; the ones shown as
    running are the first ``jobs`` not finished (exact with one job).  The ETA is the
    estimated seconds of the units left (:class:`UnitCosts`) over the rate at which this run
    has got through unit seconds so far (``jobs`` per second before the first unit ends).
    """

    def __init__(self, units, *, enabled=True, stream=None, costs=None, jobs=1, names=None):
        self.units = list(units)
        self.total, self.done, self.failed = len(self.units), 0, 0
        self.pending = {u.key: u for u in self.units}
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled and self.total > 0
        self.costs = costs or UnitCosts({})
        self.jobs = max(1, int(jobs))
        self.names = names or {}
        self.spent = 0.0  # unit seconds measured in this run
        self.t0 = time.perf_counter()
        self.show()

    def update(self, ok: bool, record: dict | None = None):
        self.done += 1
        self.failed += (not ok)
        if record is not None:
            unit = self.pending.pop(record.get("key"), None)
            seconds = record.get("total_seconds")
            if unit is not None:
                if ok and isinstance(seconds, (int, float)):
                    self.costs.observe(unit.dataset, unit.method.label, seconds)
                    self.spent += float(seconds)
                if self.enabled:
                    took = f"{seconds:.1f} s" if ok and isinstance(seconds, (int, float)) \
                        else record.get("status", "failed")
                    log.info("[bench] %d/%d done %s (%s)", self.done, self.total,
                             _escaped(unit_name(unit, self.names)), took)
        self.show()

    def eta(self, elapsed: float) -> float | None:
        """Wall seconds left, or None while the units left cannot be estimated."""
        if not self.pending:
            return 0.0
        left = [self.costs.estimate(u.dataset, u.method.label) for u in self.pending.values()]
        if any(c is None for c in left):
            return None
        rate = self.spent / elapsed if self.spent > 0 and elapsed > 0 else float(self.jobs)
        return sum(c for c in left if c is not None) / max(rate, 1e-9)

    def line(self) -> str:
        """The status line, whole (``show`` cuts it to the terminal)."""
        elapsed = time.perf_counter() - self.t0
        eta = self.eta(elapsed)
        failed = f" ({self.failed} failed)" if self.failed else ""
        line = (f"[bench] {self.done}/{self.total} units{failed}  elapsed {_hms(elapsed)}"
                f"  ETA {'~' + _hms(eta) if eta is not None else '?'}")
        running = list(self.pending.values())[:self.jobs]
        if running:
            more = len(self.pending) - len(running)
            line += ("  running " + ", ".join(unit_name(u, self.names) for u in running)
                     + (f" (+{more} queued)" if more else ""))
        return _escaped(line)

    def show(self):
        if not (self.enabled and self.tty):
            return
        # \r: back to the start of the line; ESC [K: erase what the last line left after it
        end = "\n" if not self.pending else ""
        self.stream.write("\r" + clip(self.line(), _columns(self.stream) - 1) + "\x1b[K" + end)
        self.stream.flush()


def _escaped(text: str) -> str:
    """Names from a config shown on a terminal: control characters written escaped."""
    from rulelearn._utils import terminal_text

    return terminal_text(text, keep="")


def _columns(stream) -> int:
    """The width of the terminal ``stream`` is (80 if it cannot be told)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((80, 24)).columns


def clip(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` terminal columns (East Asian wide characters take
    two, combining marks none), ending in ``...`` when cut (ASCII: any terminal shows it in
    three columns)."""
    columns = max(columns, 1)

    def width(ch: str) -> int:
        if unicodedata.combining(ch):
            return 0
        return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1

    if sum(map(width, text)) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        w = width(ch)
        if used + w > columns - 3:  # keep three columns for the dots
            break
        out.append(ch)
        used += w
    return "".join(out) + "..."[:columns]


def _hms(seconds: float) -> str:
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# ----------------------------------------------------------------------------------------------
# the experiment


class Terminated(SystemExit):
    """Raised in the main thread when the run gets SIGTERM (exit status 143)."""

    def __init__(self):
        super().__init__(128 + signal.SIGTERM)


@contextmanager
def _sigterm_stops_the_run():
    """Turn SIGTERM into :class:`Terminated`, so that the pool is shut down and its workers
    stopped on the way out (only the main thread can install a handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _missing_requirement(name: str) -> str | None:
    """Why method ``name`` cannot run here (its optional package is not installed), or None."""
    requires = METHODS[name].requires if name in METHODS else None
    if requires is None:
        return None
    module, extra = requires
    try:
        importlib.import_module(module)
    except ImportError:
        return (f"method '{name}' needs the optional '{module}' package: "
                f"pip install 'rulelearn[{extra}]'")
    return None


def preflight(config: ExperimentConfig, units, *, executor, scheduler, mirror=None) -> dict:
    """Find what would doom every unit of a dataset or method, before any unit runs.

    Loads each dataset of ``units`` once, checks that its outer and inner splits are
    stratifiable for each seed, and that each method's optional package (and the dask
    executor) is importable.  Returns the data of each (dataset, seed) (:func:`data_key`; one
    object for all seeds of a dataset without ``subsample``); raises one
    :class:`ConfigError` naming every problem found.
    """
    problems = []
    if executor == "dask":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            problems.append("executor 'dask' needs dask.distributed: pip install 'rulelearn[dask]'")
        if not scheduler:
            problems.append("executor 'dask' needs a scheduler address (--scheduler ADDRESS)")
    for name in sorted({u.method.name for u in units}):
        problem = _missing_requirement(name)
        if problem:
            problems.append(problem)
    datasets = {}
    by_name = {d.name: d for d in config.datasets}
    seeds: dict = {}
    for u in units:
        seeds.setdefault(u.dataset, {})[u.seed] = None
    for name, its_seeds in seeds.items():
        seed = None
        try:
            whole = read_data(by_name[name], mirror=mirror)
            planned = next(u.data_fingerprint for u in units if u.dataset == name)
            if by_name[name].path is not None and data_fingerprint(by_name[name]) != planned:
                raise ConfigError("its file changed while bench was starting; run again.")
            for seed in its_seeds:
                data = subsample(whole, by_name[name], seed=seed)
                protocol.check_protocol(data.y, outer=config.outer_folds,
                                         inner=config.inner_folds, seed=seed, dataset=name)
                datasets[name, seed] = data
        except Exception as exc:  # noqa: BLE001 - reported with the dataset's name
            text = " ".join(str(exc).split()) or type(exc).__name__
            where = f" (seed {seed})" if seed is not None and len(config.seeds) > 1 else ""
            problems.append(f"dataset '{name}'{where}: {text}")
    if problems:
        text = "; ".join(problems)
        raise ConfigError(f"nothing was run: {text}{'' if text.endswith('.') else '.'}")
    return datasets


def run(config: ExperimentConfig, *, jobs=None, executor=None, scheduler=None, output=None,
        force=False, reuse_stale=False, mirror=None, only_datasets=None, only_methods=None,
        progress=True, unit_timeout=None) -> RunSummary:
    """Run every unit of ``config`` not already done; append their records; return a summary.

    ``output`` is the experiment folder (default ``<config.output>/<config.name>``).  Units
    whose latest record is ``ok`` are skipped unless ``force``, or unless they are stale
    (:func:`~.fingerprint.staleness`: run again, or kept if ``reuse_stale`` and only the code
    changed; records of unrecorded code are a :class:`ConfigError` unless ``force`` or
    ``reuse_stale``); failed ones are retried.  The
    folder is locked for the run (a second run on it is refused); a problem that would doom
    every unit of a dataset or method is a :class:`ConfigError` before any unit runs; any
    ``OSError`` met writing results is a one-line :class:`ResultsError` naming the path.

    ``unit_timeout`` (default: the config's): the wall seconds a unit may run; one that runs
    longer is stopped and recorded as timed out (``_execute_with_timeout``), and runs
    again only with a longer limit, no limit, or ``force``.  Local executor only.
    """
    folder = Path(output) if output else config.results_dir
    executor, scheduler, jobs = _where_to_run(config, executor, scheduler, jobs)
    unit_timeout = _unit_timeout(config, unit_timeout, executor)
    units = plan(config, only_datasets=only_datasets, only_methods=only_methods)
    refuse_link(folder)  # never write through a link we did not make
    store = RecordStore(folder)
    created: list = []
    started = False
    client = None
    try:
        with _sigterm_stops_the_run():  # from here on: a SIGTERM cleans up as a refusal does
            try:
                created = make_folder(folder)
            except OSError as exc:
                raise os_error(exc, "create the results folder", folder) from None
            with store.locked():
                todo, stale, kept = _units_to_run(store, units, force=force, config=config,
                                                  reuse_stale=reuse_stale,
                                                  unit_timeout=unit_timeout)
                datasets = preflight(config, todo, executor=executor, scheduler=scheduler,
                                     mirror=mirror)
                if executor == "dask" and todo:
                    client = _connect_dask(scheduler)
                for name, (count, why) in stale.items():
                    warnings.warn(stale_line(name, count, why), UserWarning, stacklevel=2)
                if kept:
                    warnings.warn(kept_line(kept), UserWarning, stacklevel=2)
                started = True
                summary = _run_locked(config, folder, store, units, todo, datasets, kept, jobs=jobs,
                                      executor=executor, client=client, progress=progress,
                                      unit_timeout=unit_timeout)
                summary.stale, summary.kept = stale, kept
                return summary
    except OSError as exc:
        raise os_error(exc, "write results to", exc.filename or folder) from None
    finally:
        if client is not None:
            client.close()
        if created and not started:  # leave no new folder behind a refused run
            _remove_new_folders(folder, created)


def _connect_dask(scheduler):
    """A dask client of ``scheduler``, or a one-line :class:`ConfigError` within
    :data:`DASK_CONNECT_SECONDS` if it does not answer (before anything is written)."""
    try:
        return cluster.connect(scheduler, DASK_CONNECT_SECONDS, default=True)  # for as_completed
    except cluster.ClusterError as exc:
        raise ConfigError(f"nothing was run: {exc}") from None


def _unit_timeout(config: ExperimentConfig, unit_timeout, executor) -> float | None:
    """The unit timeout given, else the config's; a :class:`ConfigError` for a bad one or
    with the dask executor (dask cannot stop a task that is running)."""
    from rulelearn.bench.config import valid_unit_timeout

    if unit_timeout is None:
        unit_timeout = config.unit_timeout
    if unit_timeout is None:
        return None
    if not valid_unit_timeout(unit_timeout):
        raise ConfigError(f"the unit timeout must be a number of seconds > 0. "
                          f"Got {unit_timeout!r}.")
    if executor == "dask":
        raise ConfigError("a unit timeout needs the local executor: dask cannot stop a task "
                          "that is running (drop unit_timeout / --unit-timeout, or run locally)")
    return float(unit_timeout)


def _where_to_run(config: ExperimentConfig, executor, scheduler, jobs) -> tuple:
    """``(executor, scheduler, jobs)``: the arguments given, else the config's, else local
    on every core."""
    executor = executor or config.executor
    if executor not in EXECUTORS:
        raise ConfigError(f"executor must be {' or '.join(map(repr, EXECUTORS))}. "
                          f"Got {executor!r}.")
    return executor, scheduler or config.scheduler, jobs or config.jobs or os.cpu_count() or 1


def _units_to_run(store: RecordStore, units, *, force: bool, config=None,
                  reuse_stale: bool = False, unit_timeout=None) -> tuple:
    """``(todo, stale, kept)``: the units to run, ``dataset -> (count, why)`` for the done
    units that run again because they are stale (:func:`~.fingerprint.staleness`), and
    ``dataset -> (count, {code version: count})`` for those of other code kept by
    ``reuse_stale``.  All units run with ``force``; :class:`ConfigError` (nothing run) when
    done units are of unrecorded code and neither ``force`` nor ``reuse_stale`` is given."""
    records, damaged = scan_records(store.path)
    if damaged:
        raise ResultsError(
            f"{store.path} has {len(damaged)} damaged line(s) ({damaged[0]}); move the "
            f"file away or delete those lines, then rerun.")
    if force:
        return list(units), {}, {}
    done = {k: r for k, r in latest(records).items() if r.ok}
    hopeless = _timed_out_within(store, unit_timeout)
    csv = {d.name for d in config.datasets if d.path is not None} if config else set()
    todo: list[Unit] = []
    stale: dict = {}
    kept: dict = {}
    unrecorded = 0
    for u in units:
        rec = done.get(u.key)
        why = None if rec is None else staleness(rec, u, registry=u.dataset not in csv)
        if rec is not None and why in CODE_REASONS and reuse_stale:
            count, by_version = kept.get(u.dataset, (0, {}))
            by_version[rec.code_version] = by_version.get(rec.code_version, 0) + 1
            kept[u.dataset] = (count + 1, by_version)
            continue
        if why == CODE_UNRECORDED:
            unrecorded += 1
            continue
        if rec is None and u.key in hopeless:  # it would time out again
            continue
        if rec is None or why:
            todo.append(u)
        if why:
            count, first = stale.get(u.dataset, (0, why))
            stale[u.dataset] = (count + 1, first)
    if unrecorded:
        raise ConfigError(unrecorded_message(unrecorded))
    return todo, stale, kept


def _timed_out_within(store: RecordStore, unit_timeout) -> set:
    """The keys whose latest record timed out at a limit of ``unit_timeout`` or more (with a
    limit: without one, every unit runs)."""
    if unit_timeout is None:
        return set()
    last: dict = {}
    for rec in store.read():
        last[rec["key"]] = rec
    return {key for key, rec in last.items() if rec.get("status") == "timeout"
            and isinstance(rec.get("timeout"), (int, float)) and rec["timeout"] >= unit_timeout}


def _remove_new_folders(folder: Path, created) -> None:
    """Remove what a refused run made: the lock file and the folders it created."""
    try:
        (folder / "records.jsonl.lock").unlink()
    except OSError:
        pass
    remove_folders(created)


def _run_locked(config, folder, store, units, todo, datasets, kept, *, jobs, executor, client,
                progress, unit_timeout=None) -> RunSummary:
    t0 = time.perf_counter()
    atomic_write_text(folder / "config.yaml",
                      yaml.safe_dump(config.to_dict(), sort_keys=False, allow_unicode=True))
    progress_line = Progress(todo, enabled=progress, costs=_unit_costs(store, datasets, todo),
                             jobs=jobs,
                             names=_display_names(config))
    tally = _Tally(store, {u.key: u for u in todo}, progress_line,
                   seeded=len(config.seeds) > 1)
    runlog = RunLog(folder, interval=HEARTBEAT_SECONDS, earlier=_previous_wall_seconds(folder))
    if any(u.method.params.get("certify") for u in todo):
        bounds = known_bounds(scan_records(store.path)[0])
        datasets = {k: dataclasses.replace(d, bounds=bounds) for k, d in datasets.items()}
    with runlog:
        if todo:
            for rec in _execute(todo, datasets, executor=executor, client=client, jobs=jobs,
                                unit_timeout=unit_timeout):
                tally.record(rec)
    wall = time.perf_counter() - t0
    _write_meta(folder, config, wall=wall, all_runs=runlog.total(), executor=executor,
                jobs=jobs, units=len(units), ran=len(todo), kept=kept)
    return RunSummary(folder=folder, total=len(units), skipped=len(units) - len(todo),
                      ok=tally.ok, failed=tally.failed - tally.timed_out, wall_seconds=wall,
                      failures=tally.failures, timed_out=tally.timed_out)


def _unit_costs(store, datasets, todo) -> UnitCosts:
    """A :class:`UnitCosts` with each dataset's weight and the folder's measured unit times."""
    weights = {}
    for name, data in datasets.items():
        thresholds = [u.method.params.get("n_thresholds", 10) for u in todo
                      if u.dataset == name]
        weights[name] = len(data.y) * binary_features(data.X, max(thresholds, default=10))
    records, _ = scan_records(store.path)
    measured = [(r.dataset, r.label, r.total_seconds) for r in latest(records).values() if r.ok]
    return UnitCosts(weights, measured)


def _display_names(config) -> dict:
    return display_names({m.label: m.name for m in config.methods})


def _execute(todo, datasets, *, executor, client, jobs, unit_timeout=None):
    """The records of ``todo``, as they finish."""
    if executor == "dask":
        return _execute_dask(todo, datasets, client)
    if unit_timeout is not None:
        return _execute_with_timeout(todo, datasets, min(jobs, len(todo)), unit_timeout)
    return _execute_local(todo, datasets, min(jobs, len(todo)))


class _Tally:
    """Appends each record to the store and counts the ok and failed ones."""

    def __init__(self, store, units_by_key, progress, *, seeded=False) -> None:
        self.store, self.units_by_key, self.progress = store, units_by_key, progress
        self.seeded = seeded  # several seeds: a failure names its seed
        self.ok = self.failed = self.timed_out = 0
        self.failures: list = []

    def record(self, rec: dict) -> None:
        try:
            dumps_record(rec)
        except ValueError as exc:  # never NaN or infinity in records.jsonl
            rec = failed_record(self.units_by_key[rec["key"]], str(exc))
        self.store.append(rec)
        good = rec["status"] == "ok"
        self.ok += good
        self.failed += not good
        self.timed_out += rec["status"] == "timeout"
        if not good:
            where = f"{rec['dataset']} / {rec['label']} / fold {rec['fold']}"
            where += f" / seed {rec['seed']}" if self.seeded else ""
            self.failures.append((where, rec["error"]))
        self.progress.update(good, rec)


def _previous_wall_seconds(folder) -> float:
    """The wall time of the earlier runs on ``folder`` (0 if ``meta.json`` says nothing valid)."""
    previous = _read_meta(folder).get("wall_seconds_all_runs", 0.0)
    if isinstance(previous, bool) or not isinstance(previous, (int, float)) \
            or not math.isfinite(previous) or previous < 0:
        return 0.0
    return previous


def _write_meta(folder, config, *, wall, all_runs, executor, jobs, units, ran,
                kept=None) -> None:
    meta = {"experiment": config.name, "wall_seconds": wall,
            "wall_seconds_all_runs": all_runs, "finished_at": _now(),
            "executor": executor, "jobs": jobs, "cores": os.cpu_count(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
            "units": units, "ran": ran, "versions": versions(),
            "deviations": config.protocol_deviations()}
    if kept:  # said in the tables' header
        meta["reused_stale"] = kept_versions(kept)
    atomic_write_text(folder / "meta.json", json.dumps(meta, indent=2, default=str) + "\n")


def _read_meta(folder) -> dict:
    try:
        meta = json.loads((Path(folder) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


__all__ = ["Unit", "PreparedData", "RunSummary", "Terminated", "plan", "preflight",
           "load_data", "read_data", "subsample", "run_unit", "run", "make_estimator",
           "versions"]
