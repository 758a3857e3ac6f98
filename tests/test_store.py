"""Records: keys, durable appends, partial lines, latest-wins, resume bookkeeping."""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from rulelearn.bench import store
from rulelearn.bench.records import latest, scan_records


def done(s) -> set:
    """The keys whose latest record is ``ok``."""
    return {k for k, r in latest(s.read()).items() if r["status"] == "ok"}


def rec(key, status="ok", **kw):
    return {"key": key, "status": status, **kw}


def test_run_key_is_stable_and_sensitive():
    base = dict(dataset="wdbc", label="bcd[form=dnf,R=5]", params={"a": 1, "b": [1, 2]},
                fold=0, seed=0, n_outer=10)
    k = store.run_key(**base)
    assert k == store.run_key(**{**base, "params": {"b": [1, 2], "a": 1}})  # key order
    assert len(k) == 16
    for change in ({"fold": 1}, {"seed": 1}, {"n_outer": 5}, {"dataset": "pima"},
                   {"label": "am[form=dnf,R=5]"}, {"params": {"a": 2, "b": [1, 2]}}):
        assert store.run_key(**{**base, **change}) != k


def test_append_and_read_round_trip(tmp_path):
    s = store.RecordStore(tmp_path / "exp")
    s.append(rec("a", value=np.float64(0.5), n=np.int64(3)))
    s.append(rec("b", "failed", error="boom"))
    s.append(rec("b"))
    records = s.read()
    assert [r["key"] for r in records] == ["a", "b", "b"]
    assert records[0]["value"] == 0.5 and records[0]["n"] == 3
    assert {k: r["status"] for k, r in latest(records).items()} == {"a": "ok", "b": "ok"}


def test_failed_is_not_done(tmp_path):
    s = store.RecordStore(tmp_path)
    s.append(rec("a"))
    s.append(rec("b", "failed"))
    assert done(s) == {"a"}
    s.append(rec("a", "failed"))  # the latest record wins
    assert done(s) == set()


def test_partial_last_line_is_ignored_then_cut(tmp_path):
    s = store.RecordStore(tmp_path)
    s.append(rec("a"))
    with open(s.path, "ab") as f:
        f.write(b'{"key": "b", "status": "o')  # a kill in the middle of a write
    assert [r["key"] for r in s.read()] == ["a"]
    s.append(rec("c"))
    lines = s.path.read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["a", "c"]


def test_garbled_line_is_skipped(tmp_path):
    s = store.RecordStore(tmp_path)
    s.append(rec("a"))
    with open(s.path, "a") as f:
        f.write("not json\n")
    s.append(rec("b"))
    assert [r["key"] for r in store.read_records(tmp_path)] == ["a", "b"]


def test_read_missing_file(tmp_path):
    assert store.read_records(tmp_path / "nothing") == []
    assert done(store.RecordStore(tmp_path / "nothing")) == set()


def test_atomic_write_text(tmp_path):
    p = tmp_path / "sub" / "t.md"
    store.atomic_write_text(p, "one")
    store.atomic_write_text(p, "two")
    assert p.read_text() == "two"
    assert [x.name for x in p.parent.iterdir()] == ["t.md"]  # no temp file left


def test_records_are_strict_json(tmp_path):
    s = store.RecordStore(tmp_path)
    for bad in (float("nan"), float("inf"), np.float64("-inf")):
        with pytest.raises(ValueError, match="non-finite value in field 'metrics.test_error'"):
            s.append(rec("a", metrics={"test_error": bad}))
    with pytest.raises(ValueError, match=r"inner_errors\[1\]"):
        s.append(rec("a", inner_errors=[0.1, float("nan")]))
    assert not s.path.exists() or s.path.read_bytes() == b""


def test_scan_names_damaged_lines(tmp_path):
    good = {"key": "a", "status": "ok", "dataset": "d", "label": "cart", "fold": 0,
            "test_error": 0.1, "train_error": 0.0, "n_features": 3}
    lines = [json.dumps(good), "\x00\xff garbage", "[1, 2]",
             json.dumps({"key": "b", "status": "failed", "label": "x", "fold": 0}),
             json.dumps({**good, "key": "c", "test_error": None}),
             '{"key": "d", "status": "ok", "dataset": "d", "label": "cart", "fold": 0, '
             '"test_error": NaN, "train_error": 0, "n_features": 1}', ""]
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n" + '{"key": "torn"')
    records, bad = scan_records(tmp_path)
    assert [r.key for r in records] == ["a"]
    assert [b.split(":")[0] for b in bad] == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    assert "no valid 'dataset'" in bad[2] and "test_error" in bad[3] and "JSON" in bad[4]


def test_a_second_process_is_refused_while_the_lock_is_held(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        s = store.RecordStore(tmp_path)
        with pytest.raises(store.ResultsError, match=rf"{tmp_path} is in use .*pid {holder.pid}"):
            s.append(rec("a"))
        with pytest.raises(store.ResultsError, match="in use"):
            with s.locked():
                pass
    finally:
        holder.kill()
        holder.wait(timeout=10)
    s.append(rec("a"))  # the lock went with the killed holder
    assert done(s) == {"a"}


def test_the_lock_file_exists_only_while_held_and_is_never_truncated(tmp_path):
    lock_path = tmp_path / store.LOCK
    lock_path.write_text("x" * 30 + "\nleft by a killed holder\n")  # its flock went with it
    size = lock_path.stat().st_size
    lock = store.FolderLock(tmp_path).acquire()
    assert lock_path.stat().st_size == size
    assert lock_path.read_text().split("\n")[0].strip() == str(os.getpid())
    lock.release()
    assert not lock_path.exists()
    with store.RecordStore(tmp_path).locked():
        assert lock_path.exists()
    assert not lock_path.exists()


def test_a_lock_taken_on_a_file_its_holder_removed_is_taken_again(tmp_path, monkeypatch):
    """B opens the lock file, A releases (removes it), B locks the removed file: B must lock
    the file now at that name, so that a third process C cannot hold the folder too."""
    a = store.FolderLock(tmp_path).acquire()
    b = store.FolderLock(tmp_path)
    opened = []
    real_open = store.open_in_place

    def open_then_a_releases(path, flags, mode=0o644):
        fd = real_open(path, flags, mode)
        if not opened:  # B's first open: A releases between B's open and B's flock
            a.release()
        opened.append(os.fstat(fd).st_ino)
        return fd

    monkeypatch.setattr(store, "open_in_place", open_then_a_releases)
    b.acquire()
    assert len(opened) == 2  # the first file was gone: B took a new one
    assert os.fstat(b.fd).st_ino == os.stat(tmp_path / store.LOCK).st_ino
    monkeypatch.setattr(store, "open_in_place", real_open)
    with pytest.raises(store.ResultsError, match="in use"):
        store.FolderLock(tmp_path).acquire()  # C
    b.release()
    assert not (tmp_path / store.LOCK).exists()


HOLD_LOCK = """
import sys, time
from rulelearn.bench.store import FolderLock
lock = FolderLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(60)
"""


def test_appends_under_the_lock_never_cut_a_complete_record(tmp_path):
    s = store.RecordStore(tmp_path)
    with s.locked():
        s.append(rec("a"))
        with open(s.path, "ab") as f:
            f.write(b'{"key": "b", "sta')  # torn by a kill
        s.append(rec("c"))
        s.append(rec("d"))
    assert [r["key"] for r in s.read()] == ["a", "c", "d"]
    assert s.path.read_bytes().endswith(b"\n") and s.path.read_bytes().count(b"\n") == 3


def test_run_log_counts_runs_that_never_ended(tmp_path):
    log = store.RunLog(tmp_path, interval=0.05, earlier=2.0)
    with log:
        time.sleep(0.3)
    runs = store.read_runs(tmp_path)
    assert runs[0]["seconds"] == 2.0 and runs[1]["ended"] and runs[1]["seconds"] >= 0.3
    killed = store.RunLog(tmp_path, interval=0.05)
    killed.__enter__()
    time.sleep(0.3)
    killed._stop.set()  # as if killed: no final write, only heartbeats
    killed._thread.join()
    total = store.total_wall_seconds(tmp_path)
    assert total >= 2.0 + 0.3 + 0.2
    (tmp_path / "runs.json").write_text("{trunc")
    assert store.total_wall_seconds(tmp_path) is None
