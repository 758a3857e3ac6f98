"""Records: keys, durable appends, partial lines, latest-wins, resume bookkeeping."""

import json

import numpy as np

from rulelearn import store


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
    assert s.latest()["b"]["status"] == "ok"
    assert s.done() == {"a", "b"}


def test_failed_is_not_done(tmp_path):
    s = store.RecordStore(tmp_path)
    s.append(rec("a"))
    s.append(rec("b", "failed"))
    assert s.done() == {"a"}
    s.append(rec("a", "failed"))  # the latest record wins
    assert s.done() == set()


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
    assert store.RecordStore(tmp_path / "nothing").done() == set()


def test_atomic_write_text(tmp_path):
    p = tmp_path / "sub" / "t.md"
    store.atomic_write_text(p, "one")
    store.atomic_write_text(p, "two")
    assert p.read_text() == "two"
    assert [x.name for x in p.parent.iterdir()] == ["t.md"]  # no temp file left
