"""Append-only run records (one JSON line per unit), run keys, resume, and the folder lock.

``records.jsonl`` is written by one process only: ``bench`` holds an exclusive lock on
``records.jsonl.lock`` while it runs (a second ``bench`` on the same folder is refused), and
only that process -- the parent of the workers -- appends.  Each record is one complete line
written in a single ``write`` call, then fsynced, so a killed run leaves at most one partial
last line; readers ignore it and the next append (under the lock) cuts it off.  Records never
hold NaN or infinity (strict JSON; the harness's JSON helpers are here).  The latest record
of a key wins: a key whose latest record is ``ok`` is done unless it is stale (its data or
code changed, :mod:`.fingerprint`), anything else (``failed``, absent) is run again.  Records
are read back as typed records by :mod:`.records`.

``runs.json`` keeps the start and the last heartbeat of every run in the folder, so the wall
time of all runs includes runs that were killed.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rulelearn._io import atomic_write_text, make_folder, open_in_place, to_native
from rulelearn.bench.config import DatasetConfig
from rulelearn.errors import RuleLearnError

fcntl: Any
try:  # POSIX; elsewhere the folder is not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

RECORDS = "records.jsonl"
LOCK = "records.jsonl.lock"
RUNS = "runs.json"
#: Characters of the pid written at the start of the lock file (padded with spaces).
PID_WIDTH = 20


class ResultsError(RuleLearnError):
    """A results folder that cannot be read, written or used (damaged, locked, read-only)."""


def os_error(exc: OSError, what: str, path=None) -> ResultsError:
    """A one-line :class:`ResultsError` for an ``OSError`` met while doing ``what``."""
    where = path if path is not None else (exc.filename or "")
    reason = exc.strerror or str(exc) or type(exc).__name__
    return ResultsError(f"cannot {what} {where}: {reason}".replace("  ", " "))


# ----------------------------------------------------------------------------------------------
# JSON: strict on disk (records, runs.json), NaN -> null for output


def _reject_constant(name):
    raise ValueError(f"{name} is not a number in a record")


def loads_strict(text):
    """``json.loads`` that refuses NaN and infinity (``ValueError``)."""
    return json.loads(text, parse_constant=_reject_constant)


def non_finite(obj, path="") -> str | None:
    """The path of the first NaN or infinite number in ``obj`` (nested dicts/lists), or None."""
    if isinstance(obj, (float, np.floating)):
        return None if math.isfinite(obj) else (path or "value")
    if isinstance(obj, np.ndarray):
        obj = obj.tolist()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found = non_finite(v, f"{path}.{k}" if path else str(k))
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            found = non_finite(v, f"{path}[{i}]")
            if found:
                return found
    return None


def dumps_record(record: dict) -> str:
    """One strict-JSON line (no NaN or infinity: ``ValueError`` naming the field)."""
    where = non_finite(record)
    if where:
        raise ValueError(f"non-finite value in field '{where}'")
    return json.dumps(record, sort_keys=True, default=to_native, allow_nan=False) + "\n"


def json_value(value):
    """``value`` for JSON output: NaN (a missing number) becomes None."""
    return None if isinstance(value, float) and value != value else value


def json_rows(frame: pd.DataFrame) -> list[dict]:
    """A frame's rows as JSON-ready dicts (NaN -> None)."""
    return [{k: json_value(v) for k, v in row.items()} for row in frame.to_dict("records")]


def run_key(*, dataset: str, label: str, params: dict, fold: int, seed: int, n_outer: int) -> str:
    """A stable key for one unit; any change to what determines the result changes it."""
    blob = json.dumps({"dataset": dataset, "label": label, "params": params, "fold": fold,
                       "seed": seed, "n_outer": n_outer}, sort_keys=True, default=str,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# ----------------------------------------------------------------------------------------------
# the run keys a resolved configuration plans


def unit_params(dataset: dict, method: dict, inner_folds: int) -> dict:
    """What, besides names, fold, seed and fold count, determines a unit's result (its key)."""
    return {"method": method, "dataset": dataset,
            "positive": _planned_positive(DatasetConfig(**dataset)), "inner_folds": inner_folds}


def planned_keys(resolved: dict, *, source="config.yaml") -> dict:
    """``key -> (dataset, label, fold)`` for every unit of a resolved configuration.

    ``resolved`` is what :meth:`ExperimentConfig.to_dict` wrote to a results folder's
    ``config.yaml``; the keys are those :func:`plan` gives, so a table can keep exactly the
    records of that configuration.  :class:`ResultsError` if ``resolved`` is not one.
    """
    return {key: (d, label, k) for key, d, label, k, _ in _resolved_units(resolved, source)}


def resolved_seeds(resolved: dict) -> list | None:
    """The seeds of a resolved configuration (``seeds``, else ``[seed]``); None if invalid."""
    seeds = resolved.get("seeds", [resolved.get("seed")]) if isinstance(resolved, dict) else None
    if not isinstance(seeds, list) or not seeds or len(set(map(str, seeds))) < len(seeds):
        return None
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds):
        return None
    return seeds


def _resolved_units(resolved: dict, source) -> list[tuple]:
    """``(key, dataset, label, fold, seed)`` for every unit of a resolved configuration."""
    def bad(what):
        return ResultsError(f"{source} is not a rulelearn results configuration ({what}); "
                            f"rerun 'rulelearn bench CONFIG -o FOLDER' to rewrite it "
                            f"(units already done are not recomputed).")

    if not isinstance(resolved, dict):
        raise bad("not a mapping")
    for name in ("outer_folds", "inner_folds"):
        value = resolved.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise bad(f"no valid '{name}'")
    seeds = resolved_seeds(resolved)
    if seeds is None or ("seed" in resolved and "seeds" in resolved):
        raise bad("no valid 'seed' or 'seeds'")
    datasets, methods = resolved.get("datasets"), resolved.get("methods")
    if not isinstance(datasets, list) or not datasets or not all(
            isinstance(d, dict) and isinstance(d.get("name"), str)
            and set(d) <= set(DatasetConfig.__dataclass_fields__) for d in datasets):
        raise bad("no valid 'datasets'")
    method_fields = {"name", "label", "params", "tuned", "grid", "prefer"}
    if not isinstance(methods, list) or not methods or not all(
            isinstance(m, dict) and set(m) == method_fields and isinstance(m["label"], str)
            and isinstance(m["params"], dict) and isinstance(m["grid"], list) for m in methods):
        raise bad("no valid 'methods'")
    n_outer = resolved["outer_folds"]
    units = []
    for seed in seeds:
        for d in datasets:
            for m in methods:
                params = unit_params(d, m, resolved["inner_folds"])
                for k in range(n_outer):
                    key = run_key(dataset=d["name"], label=m["label"], params=params, fold=k,
                                  seed=seed, n_outer=n_outer)
                    units.append((key, d["name"], m["label"], k, seed))
    return units


def _planned_positive(d: DatasetConfig):
    """The positive class a unit will use, so that records of another choice are not reused."""
    if d.positive is not None or d.path is not None:
        return d.positive
    from rulelearn.data import REGISTRY

    spec = REGISTRY.get(d.name)
    return None if spec is None else spec.positive


# ----------------------------------------------------------------------------------------------
# records.jsonl


def read_records(path) -> list[dict]:
    """The JSON objects with a ``key`` of a ``records.jsonl``, as written (a partial or
    garbled line is skipped; see :func:`~.records.scan_records` for the records a table can use)."""
    path = Path(path)
    if path.is_dir():
        path = path / RECORDS
    if not path.exists():
        return []
    out = []
    with open(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break
            try:
                rec = loads_strict(raw) if raw.strip() else None
            except ValueError:
                continue
            if isinstance(rec, dict) and isinstance(rec.get("key"), str):
                out.append(rec)
    return out


class FolderLock:
    """An exclusive, non-blocking ``flock`` on ``<folder>/records.jsonl.lock``, a file that
    exists only while the lock is held.

    The holder's pid is written over the start of the file (which is never truncated, never
    opened through a symbolic link and must have no other hard link) so that a refused process
    can name it.  The lock goes with the process: a killed holder releases it at once (the
    kernel closes its files), leaving the file for the next holder to take over and remove.
    The holder removes the file before it unlocks; a process that locked a file removed in the
    meantime (it opened the name just before) sees that the name is no longer its file and
    starts again, so two processes never both hold the lock of one folder.
    """

    def __init__(self, folder):
        self.folder = Path(folder)
        self.path = self.folder / LOCK
        self.fd = None

    @property
    def held(self) -> bool:
        return self.fd is not None

    def acquire(self) -> "FolderLock":
        if self.fd is not None:
            return self
        while True:
            fd = self._lock_once()
            if fd is None or self._names_it(fd):
                break
            _unlock(fd)  # the holder before us removed it: lock the new one
        try:  # a fixed width over the start: an older, longer pid leaves no digits behind
            os.pwrite(fd, f"{os.getpid():<{PID_WIDTH}}\n".encode(), 0)
        except OSError:
            pass  # the pid is a courtesy; the lock is what matters
        self.fd = fd
        return self

    def _lock_once(self):
        try:
            fd = open_in_place(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise os_error(exc, "lock the results folder", self.folder) from None
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                first = os.read(fd, 32).decode(errors="replace").split("\n")[0]
                pid = first.strip() or "unknown"
            finally:
                os.close(fd)
            raise ResultsError(
                f"{self.folder} is in use by another rulelearn process (pid {pid}); wait for "
                f"it to finish or give another --output folder.") from None
        return fd

    def _names_it(self, fd) -> bool:
        """Whether the lock file's name still leads to the file open as ``fd``."""
        try:
            here, there = os.fstat(fd), os.lstat(self.path)
        except OSError:
            return False
        return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)

    def release(self) -> None:
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        if fcntl is not None and self._names_it(fd):
            try:
                os.unlink(self.path)  # before unlocking: nobody can hold a removed name
            except OSError:
                pass  # a read-only folder: the file stays, harmless (the lock is the flock)
        _unlock(fd)

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def _unlock(fd) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


class RecordStore:
    """The records of one experiment folder."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.path = self.folder / RECORDS
        self._lock = FolderLock(self.folder)

    def read(self) -> list[dict]:
        return read_records(self.path)

    @contextmanager
    def locked(self):
        """Hold the folder's lock (creating the folder); refuse if another process holds it, or
        if the folder is a symbolic link."""
        try:
            make_folder(self.folder)
        except OSError as exc:
            raise os_error(exc, "create the results folder", self.folder) from None
        if self._lock.held:
            yield self
            return
        self._lock.acquire()
        try:
            yield self
        finally:
            self._lock.release()

    def _cut_partial_line(self) -> None:
        """Cut a last line without its newline (a write cut by a kill); only under the lock."""
        assert self._lock.held, "records are cut only under the folder lock"
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with os.fdopen(open_in_place(self.path, os.O_RDWR), "rb+") as f:
            f.seek(-1, os.SEEK_END)
            if f.read(1) == b"\n":
                return
            size = f.seek(0, os.SEEK_END)
            # look back for the last newline without reading the whole file
            pos, step = size, 1 << 16
            cut = 0
            while pos > 0:
                start = max(0, pos - step)
                f.seek(start)
                chunk = f.read(pos - start)
                i = chunk.rfind(b"\n")
                if i >= 0:
                    cut = start + i + 1
                    break
                pos = start
            f.truncate(cut)

    def append(self, record: dict) -> None:
        """Append one record durably: one complete line, one ``write``, then fsync.

        Takes the folder lock for the append unless this store already holds it (``bench``
        holds it for the whole run); raises :class:`ResultsError` if another process does, or
        ``ValueError`` for a record with a NaN or infinite number.
        """
        data = dumps_record(record).encode("utf-8")
        with self.locked():
            try:
                self._cut_partial_line()
                fd = open_in_place(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as exc:
                raise os_error(exc, "append a record to", self.path) from None


# ----------------------------------------------------------------------------------------------
# runs.json: the wall time of every run, killed ones included


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def read_runs(folder) -> list[dict] | None:
    """The runs of ``folder`` (``runs.json``), or None when there is no readable log."""
    path = Path(folder) / RUNS
    try:
        data = loads_strict(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    runs = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(runs, list) or not all(
            isinstance(r, dict) and isinstance(r.get("seconds"), (int, float))
            and not isinstance(r.get("seconds"), bool) and r["seconds"] >= 0 for r in runs):
        return None
    return runs


def total_wall_seconds(folder) -> float | None:
    runs = read_runs(folder)
    return None if runs is None else float(sum(r["seconds"] for r in runs))


class RunLog:
    """Adds this run to ``runs.json`` and keeps its elapsed time there while it runs.

    A heartbeat thread rewrites the file (atomically) every ``interval`` seconds, so a run
    killed with ``kill -9`` still counts up to its last heartbeat.  ``earlier`` seeds a folder
    that has no log yet (the all-runs time of an older ``meta.json``).
    """

    def __init__(self, folder, *, interval: float = 5.0, earlier: float = 0.0):
        self.path = Path(folder) / RUNS
        self.interval = interval
        runs = read_runs(folder)
        if runs is None:
            runs = [{"started_at": None, "seconds": float(earlier), "ended": True,
                     "note": "runs before this log"}] if earlier else []
        self.runs = runs
        self.entry = {"started_at": _now(), "pid": os.getpid(), "seconds": 0.0, "ended": False}
        self.runs.append(self.entry)
        self.t0 = time.monotonic()
        self._mutex = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def total(self) -> float:
        return float(sum(r["seconds"] for r in self.runs))

    def write(self, *, ended=False) -> None:
        with self._mutex:
            self.entry["seconds"] = round(time.monotonic() - self.t0, 3)
            self.entry["ended"] = ended
            atomic_write_text(self.path, json.dumps({"runs": self.runs}, indent=1) + "\n")

    def _beat(self):
        while not self._stop.wait(self.interval):
            try:
                self.write()
            except OSError:
                pass  # a full disk will show up in the records' own writes

    def __enter__(self):
        self.write()
        thread = threading.Thread(target=self._beat, name="rulelearn-heartbeat", daemon=True)
        thread.start()
        self._thread = thread
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.write(ended=True)
