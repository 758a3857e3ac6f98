"""Append-only run records (one JSON line per unit), run keys, resume, and the folder lock.

``records.jsonl`` is written by one process only: ``bench`` holds an exclusive lock on
``records.jsonl.lock`` while it runs (a second ``bench`` on the same folder is refused), and
only that process -- the parent of the workers -- appends.  Each record is one complete line
written in a single ``write`` call, then fsynced, so a killed run leaves at most one partial
last line; readers ignore it and the next append (under the lock) cuts it off.  Records never
hold NaN or infinity (strict JSON).  The latest record of a key wins: a key whose latest
record is ``ok`` is done, anything else (``failed``, absent) is run again.

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

from rulelearn._io import atomic_write_text, make_folder, open_in_place, to_native
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
#: Fields every record has (what a table needs to place it).
RECORD_FIELDS = {"key": str, "status": str, "dataset": str, "label": str, "fold": int}


class ResultsError(RuleLearnError):
    """A results folder that cannot be read, written or used (damaged, locked, read-only)."""


def os_error(exc: OSError, what: str, path=None) -> ResultsError:
    """A one-line :class:`ResultsError` for an ``OSError`` met while doing ``what``."""
    where = path if path is not None else (exc.filename or "")
    reason = exc.strerror or str(exc) or type(exc).__name__
    return ResultsError(f"cannot {what} {where}: {reason}".replace("  ", " "))


def run_key(*, dataset: str, label: str, params: dict, fold: int, seed: int, n_outer: int) -> str:
    """A stable key for one unit; any change to what determines the result changes it."""
    blob = json.dumps({"dataset": dataset, "label": label, "params": params, "fold": fold,
                       "seed": seed, "n_outer": n_outer}, sort_keys=True, default=str,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _reject_constant(name):
    raise ValueError(f"{name} is not a number in a record")


def _load_line(raw: bytes):
    return json.loads(raw, parse_constant=_reject_constant)


def _parse_lines(path):
    """``(line number, record or None, problem or None)`` for each complete line of a file."""
    path = Path(path)
    if path.is_dir():
        path = path / RECORDS
    if not path.exists():
        return
    with open(path, "rb") as f:
        for n, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                return  # a line cut by a kill: not a record
            if not raw.strip():
                continue
            try:
                rec = _load_line(raw)
            except ValueError as exc:
                yield n, None, f"not a JSON record ({str(exc).splitlines()[0][:80]})"
                continue
            if not isinstance(rec, dict) or not isinstance(rec.get("key"), str):
                yield n, None, "not a record (no 'key')"
                continue
            yield n, rec, None


def read_records(path) -> list[dict]:
    """All complete records of a ``records.jsonl`` (a partial or garbled line is skipped)."""
    return [rec for _, rec, _ in _parse_lines(path) if rec is not None]


def scan_records(path) -> tuple[list[dict], list[str]]:
    """The records of a ``records.jsonl`` a table can use, and its damaged lines.

    A line is *damaged* when it is not strict JSON (NaN and infinity included), not an object
    with a ``key``, lacks a field a table needs (:data:`RECORD_FIELDS`), or is ``ok`` without
    valid error rates; each is described as ``"line 3: ..."``.  A last line without its
    newline is a write cut by a kill: skipped, and not counted as damage.
    """
    out, bad = [], []
    for n, rec, problem in _parse_lines(path):
        problem = problem or record_problem(rec)
        if problem:
            bad.append(f"line {n}: {problem}")
        else:
            out.append(rec)
    return out, bad


def record_problem(rec: dict) -> str | None:
    """Why ``rec`` cannot be used in a table, or None."""
    for name, kind in RECORD_FIELDS.items():
        value = rec.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"record {rec.get('key')!r} has no valid '{name}'"
    if rec["status"] == "ok":
        for name in ("test_error", "train_error"):
            value = rec.get(name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 0 <= value <= 1):
                return f"record {rec['key']!r} is 'ok' without a valid '{name}' (got {value!r})"
        value = rec.get("n_features")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
            return f"record {rec['key']!r} is 'ok' without a valid 'n_features' (got {value!r})"
    return None


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


def latest(records) -> dict:
    """The latest record of each key, in order of first appearance."""
    out: dict = {}
    for rec in records:
        out[rec["key"]] = rec
    return out


def done_keys(records) -> set:
    return {k for k, r in latest(records).items() if r.get("status") == "ok"}


class FolderLock:
    """An exclusive, non-blocking ``flock`` on ``<folder>/records.jsonl.lock``.

    The holder's pid is written over the start of the file (which is never truncated, never
    opened through a symbolic link and must have no other hard link) so that a refused process
    can name it.  The lock goes with the process: a killed holder releases it at once (the
    kernel closes its files).
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
        try:
            fd = open_in_place(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise os_error(exc, "lock the results folder", self.folder) from None
        if fcntl is not None:
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
        try:  # a fixed width over the start: an older, longer pid leaves no digits behind
            os.pwrite(fd, f"{os.getpid():<{PID_WIDTH}}\n".encode(), 0)
        except OSError:
            pass  # the pid is a courtesy; the lock is what matters
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


class RecordStore:
    """The records of one experiment folder."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.path = self.folder / RECORDS
        self._lock = FolderLock(self.folder)

    def read(self) -> list[dict]:
        return read_records(self.path)

    def scan(self) -> tuple[list[dict], list[str]]:
        return scan_records(self.path)

    def latest(self) -> dict:
        return latest(self.read())

    def done(self) -> set:
        return done_keys(self.read())

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
        data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_constant)
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
        self._thread = None

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
        self._thread = threading.Thread(target=self._beat, name="rulelearn-heartbeat",
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.write(ended=True)
