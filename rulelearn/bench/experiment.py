"""Run an experiment: seeds x datasets x methods x outer folds -> records.

Each *unit* (one seed, one dataset, one method variant, one outer fold) is independent and
fully determined by the configuration (its splits and random state come from its seed and the
names), so the records do not depend on the executor or the number of jobs.  Each seed repeats
the whole nested CV: the units of seed ``s`` are those of the same config with ``seed: s``
(same keys), so adding seeds reuses the records already done.  Workers
return records; only this process appends them to ``records.jsonl`` (see :mod:`.store`).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import os
import platform
import signal
import threading
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulelearn import cluster
from rulelearn._io import atomic_write_text, make_folder, refuse_link, remove_folders
from rulelearn.bench import EXECUTORS, protocol
from rulelearn.bench.certificates import known_bounds
from rulelearn.bench.config import ExperimentConfig
from rulelearn.bench.executors import _execute
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
from rulelearn.bench.progress import Progress, UnitCosts, binary_features
from rulelearn.bench.records import display_names, latest, scan_records
from rulelearn.bench.store import (
    RecordStore,
    ResultsError,
    RunLog,
    dumps_record,
    os_error,
    run_key,
    unit_params,
)
from rulelearn.bench.units import (
    TIMED_OUT,
    Unit,
    _now,
    failed_record,
    read_data,
    subsample,
    versions,
)
from rulelearn.errors import ConfigError

#: Seconds between two heartbeats of a run in ``runs.json`` (what a killed run may leave out).
HEARTBEAT_SECONDS = 5.0
#: Seconds to wait for a dask scheduler to answer before giving up (nothing is run or written).
DASK_CONNECT_SECONDS = cluster.DASK_CONNECT_SECONDS


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


__all__ = ["RunSummary", "Terminated", "plan", "preflight", "run"]
