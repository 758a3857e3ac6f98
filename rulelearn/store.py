"""Append-only run records (one JSON line per unit), run keys and resume.

``records.jsonl`` is written by one process only (the parent of the workers).  Each record is
one line, appended then flushed and fsynced, so a killed run leaves at most one partial last
line; readers ignore it and the next append cuts it off.  The latest record of a key wins:
a key whose latest record is ``ok`` is done, anything else (``failed``, absent) is run again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

RECORDS = "records.jsonl"


def run_key(*, dataset: str, label: str, params: dict, fold: int, seed: int, n_outer: int) -> str:
    """A stable key for one unit; any change to what determines the result changes it."""
    blob = json.dumps({"dataset": dataset, "label": label, "params": params, "fold": fold,
                       "seed": seed, "n_outer": n_outer}, sort_keys=True, default=str,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def atomic_write_text(path, text: str, *, make_parents: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``.

    A reader sees the old file or the new one, never half of one. The file is
    readable by all (0644), as a plain ``open(path, "w")`` would leave it.
    """
    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def read_records(path) -> list[dict]:
    """All complete records of a ``records.jsonl`` (a partial or garbled line is skipped)."""
    path = Path(path)
    if path.is_dir():
        path = path / RECORDS
    if not path.exists():
        return []
    out = []
    with open(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # a line cut by a kill: not a record
            try:
                rec = json.loads(raw)
            except ValueError:
                continue
            if isinstance(rec, dict) and "key" in rec:
                out.append(rec)
    return out


def latest(records) -> dict:
    """The latest record of each key, in order of first appearance."""
    out: dict = {}
    for rec in records:
        out[rec["key"]] = rec
    return out


def done_keys(records) -> set:
    return {k for k, r in latest(records).items() if r.get("status") == "ok"}


class RecordStore:
    """The records of one experiment folder."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.path = self.folder / RECORDS

    def read(self) -> list[dict]:
        return read_records(self.path)

    def latest(self) -> dict:
        return latest(self.read())

    def done(self) -> set:
        return done_keys(self.read())

    def _cut_partial_line(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb+") as f:
            f.seek(-1, os.SEEK_END)
            if f.read(1) == b"\n":
                return
            f.seek(0)
            data = f.read()
            f.truncate(data.rfind(b"\n") + 1)

    def append(self, record: dict) -> None:
        """Append one record durably (flush + fsync)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self._cut_partial_line()
        line = json.dumps(record, sort_keys=True, default=_jsonable) + "\n"
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())


def _jsonable(obj):
    """numpy scalars and arrays as plain JSON values; anything else as its str."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return str(obj)
