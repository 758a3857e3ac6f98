"""Hostile input for ``rulelearn bench`` and ``rulelearn table``, as a careless user or script
would give it.

Each case checks the exit code, that no traceback or unhandled exception escapes, that a
failure is exactly one ``Error:`` line, and that no file changed that should not have (a
refused ``bench`` creates no results folder and leaves an existing one as it was; a refused
``table`` writes nothing).  Everything runs offline on a tiny CSV dataset (CART, 2 x 2
folds), through Click's test runner.
"""

import errno
import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main

# ---------------------------------------------------------------------------------------- helpers

def write_toy(folder: Path) -> Path:
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=60).round(3), rng.normal(size=60).round(3)
    y = np.where(a > 0.2, "p", "n")
    y[rng.random(60) < 0.1] = "p"
    path = folder / "toy.csv"
    pd.DataFrame({"a": a, "b": b, "y": y}).to_csv(path, index=False)
    return path


def base_config(folder: Path, **override) -> str:
    """A valid config as YAML text; ``override`` replaces (value text) or drops (None) keys."""
    keys = {
        "name": "h",
        "datasets": f"[{{name: toy, path: {folder / 'toy.csv'}, target: y}}]",
        "methods": "[{cart: {max_depth: [1, 2]}}]",
        "outer_folds": "2",
        "inner_folds": "2",
        "seed": "0",
        "jobs": "1",
        "output": str(folder / "results"),
    }
    for k, v in override.items():
        if v is None:
            keys.pop(k, None)
        else:
            keys[k] = v
    return "".join(f"{k}: {v}\n" for k, v in keys.items())


def snapshot(*roots) -> dict:
    """``path -> (bytes, mtime_ns)`` of every file under ``roots``."""
    out = {}
    for root in roots:
        root = Path(root)
        if root.is_file():
            out[root] = (root.read_bytes(), root.stat().st_mtime_ns)
        elif root.is_dir():
            for p in sorted(root.rglob("*")):
                if p.is_file():
                    out[p] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def check(r, code: int, message: str | None = None):
    """Exit ``code``; no traceback; on failure exactly one ``Error:`` line (with ``message``)."""
    text = r.stdout + r.stderr
    assert r.exit_code == code, text
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in text
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")]
    if code:
        assert len(errors) == 1, r.stderr
        if message:
            assert message in errors[0], errors[0]
    else:
        assert errors == [], r.stderr


@pytest.fixture
def ws(tmp_path):
    write_toy(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A results folder of a completed run of the base config (copied by each table case)."""
    folder = tmp_path_factory.mktemp("finished")
    write_toy(folder)
    (folder / "c.yaml").write_text(base_config(folder))
    r = invoke("bench", folder / "c.yaml", "-o", folder / "exp", "-q")
    check(r, 0)
    return folder / "exp"


@pytest.fixture
def done(finished, tmp_path):
    exp = tmp_path / "exp"
    shutil.copytree(finished, exp)
    return exp


# ------------------------------------------------------------------------------- bench: config

BAD_CONFIGS = [
    # (id, overrides or raw text, message in the Error line)
    ("malformed-yaml", "methods: [cart\n", "malformed YAML"),
    ("tab-indent", "datasets:\n\t- wdbc\n", "malformed YAML"),
    ("top-level-list", "- a\n- b\n", "top level must be a mapping"),
    ("top-level-scalar", "hello\n", "top level must be a mapping"),
    ("empty-file", "", "at least one dataset"),
    ("unknown-key", {"outer_fold": "2"}, "Did you mean 'outer_folds'"),
    ("datasets-number", {"datasets": "5"}, "must be a registry name or a mapping"),
    ("datasets-empty", {"datasets": "[]"}, "at least one dataset"),
    ("dataset-unknown-key", {"datasets": "[{path: x.csv, target: y, colour: red}]"},
     "unknown key 'colour'"),
    ("dataset-registry-typo", {"datasets": "[wdbcc]"}, "did you mean 'wdbc'"),
    ("dataset-duplicate", {"datasets": "[wdbc, wdbc]"}, "unique"),
    ("dataset-path-list", {"datasets": "[{name: t, path: [a, b]}]"}, "must be a string"),
    ("dataset-target-list", {"datasets": "[{name: t, path: a.csv, target: [y]}]"},
     "must be a string"),
    ("dataset-positive-map", {"datasets": "[{name: t, path: a.csv, positive: {a: 1}}]"},
     "one class label"),
    ("dataset-subsample-tiny", {"datasets": "[{name: wdbc_bundled, subsample: 2}]"}, ">= 4"),
    ("methods-missing", {"methods": None}, "at least one method"),
    ("methods-empty", {"methods": "[]"}, "at least one method"),
    ("method-unknown", {"methods": "[carts]"}, "Did you mean 'cart'"),
    ("method-params-scalar", {"methods": "[{cart: 5}]"}, "must be a mapping"),
    ("method-two-keys", {"methods": "[{cart: {}, bcd: {}}]"}, "a method is a name"),
    ("method-unknown-param", {"methods": "[{cart: {depth: 3}}]"}, "unknown key 'depth'"),
    ("cart-depth-empty", {"methods": "[{cart: {max_depth: []}}]"}, "grid is empty"),
    ("cart-depth-zero", {"methods": "[{cart: {max_depth: [0]}}]"}, ">= 1"),
    ("cart-depth-text", {"methods": "[{cart: {max_depth: [a]}}]"}, "must be an integer"),
    ("cart-criterion", {"methods": "[{cart: {criterion: gni}}]"}, "Did you mean 'gini'"),
    ("cart-leaf-zero", {"methods": "[{cart: {min_samples_leaf: 0}}]"}, ">= 1"),
    ("ripper-prune", {"methods": "[{ripper: {prune_size: 5}}]"}, "fraction in (0, 1)"),
    ("bcd-R-negative", {"methods": "[{bcd: {R: -1}}]"}, ">= 1"),
    ("bcd-form", {"methods": "[{bcd: {form: xnf}}]"}, "must be one of"),
    ("bcd-solver", {"methods": "[{bcd: {clause_solver: simplex}}]"}, "must be one of"),
    ("duplicate-label", {"methods": "[cart, cart]"}, "same run label"),
    ("theta-inf", {"theta": "[.inf]"}, "theta must be a finite number"),
    ("theta-nan", {"theta": "[1, .nan]"}, "theta must be a finite number"),
    ("theta-log-inf", {"theta": "{log: [1, .inf]}"}, "(theta.log.1)"),
    ("theta-method-inf", {"methods": "[{bcd: {theta: [.inf]}}]"}, "finite"),
    ("theta-log-zero", {"theta": "{log: [0, 1]}"}, "0 < low <= high"),
    ("theta-log-reversed", {"theta": "{log: [2, 1]}"}, "0 < low <= high"),
    ("theta-empty", {"theta": "[]"}, "theta grid is empty"),
    ("theta-negative", {"theta": "[-1]"}, ">= 0"),
    ("theta-text", {"theta": "abc"}, "list of numbers"),
    ("theta-num-zero", {"theta": "{log: [1, 2], num: 0}"}, ">= 1"),
    ("theta-num-huge", {"theta": "{log: [1, 2], num: 1000000000}"}, "<= 1000"),
    ("outer-negative", {"outer_folds": "-3"}, ">= 2"),
    ("outer-one", {"outer_folds": "1"}, ">= 2"),
    ("outer-huge", {"outer_folds": "1000000"}, "<= 1000"),
    ("outer-float", {"outer_folds": "2.5"}, "must be an integer"),
    ("outer-text", {"outer_folds": "ten"}, "must be an integer"),
    ("outer-bool", {"outer_folds": "true"}, "must be an integer"),
    ("inner-zero", {"inner_folds": "0"}, ">= 2"),
    ("seed-negative", {"seed": "-1"}, ">= 0"),
    ("jobs-zero", {"jobs": "0"}, ">= 1"),
    ("executor-unknown", {"executor": "threads"}, "must be one of"),
    ("form-unknown", {"form": "xnf"}, "must be one of"),
    ("R-zero", {"R": "0"}, ">= 1"),
    ("binarization-scalar", {"binarization": "5"}, "must be a mapping"),
    ("thresholds-zero", {"binarization": "{n_thresholds: 0}"}, ">= 1"),
    ("deviations-number", {"deviations": "5"}, "list of sentences"),
    ("name-path", {"name": "../evil"}, "plain folder name"),
    ("name-hidden", {"name": ".hidden"}, "plain folder name"),
    ("output-list", {"output": "[1]"}, "folder path"),
]


@pytest.mark.parametrize("case, change, message", BAD_CONFIGS, ids=[c[0] for c in BAD_CONFIGS])
def test_bad_config(ws, case, change, message):
    text = change if isinstance(change, str) else base_config(ws, **change)
    cfg = ws / "bad.yaml"
    cfg.write_text(text)
    before = snapshot(ws)
    r = invoke("bench", cfg, "-o", ws / "out", "-q")
    check(r, 1, message)
    assert not (ws / "out").exists() and not (ws / "results").exists()
    assert snapshot(ws) == before


# ------------------------------------------------------------------- bench: doomed before any unit

def _one_class(ws):
    pd.DataFrame({"a": [1, 2, 3, 4], "y": ["p"] * 4}).to_csv(ws / "one.csv", index=False)
    return {"datasets": f"[{{name: one, path: {ws / 'one.csv'}, target: y}}]"}


def _garbage_csv(ws):
    (ws / "junk.csv").write_bytes(os.urandom(2000))
    return {"datasets": f"[{{name: junk, path: {ws / 'junk.csv'}, target: y}}]"}


def _empty_csv(ws):
    (ws / "empty.csv").write_text("")
    return {"datasets": f"[{{name: empty, path: {ws / 'empty.csv'}, target: y}}]"}


def _ripper_missing(ws, monkeypatch):
    monkeypatch.setitem(sys.modules, "wittgenstein", None)
    return {"methods": "[cart, ripper]"}


DOOMED = [
    ("csv-missing", lambda ws: {"datasets": f"[{{name: t, path: {ws / 'nope.csv'}, target: y}}]"},
     "dataset 't'"),
    ("target-missing", lambda ws: {"datasets": f"[{{name: t, path: {ws / 'toy.csv'}, target: z}}]"},
     "'z'"),
    ("one-class", _one_class, "dataset 'one'"),
    ("garbage-csv", _garbage_csv, "dataset 'junk'"),
    ("empty-csv", _empty_csv, "dataset 'empty'"),
    ("positive-not-a-class",
     lambda ws: {"datasets": f"[{{name: t, path: {ws / 'toy.csv'}, target: y, positive: q}}]"},
     "dataset 't'"),
    ("outer-larger-than-minority", lambda ws: {"outer_folds": "40"}, "Lower the number of folds"),
    ("inner-larger-than-minority", lambda ws: {"inner_folds": "30"}, "Lower the number of folds"),
    ("bundled-outer-too-many", lambda ws: {"datasets": "[wdbc_bundled]", "outer_folds": "500"},
     "Lower the number of folds"),
    ("ripper-not-installed", _ripper_missing, "needs the optional 'wittgenstein'"),
]


@pytest.mark.parametrize("case, change, message", DOOMED, ids=[c[0] for c in DOOMED])
def test_doomed_before_any_unit(ws, monkeypatch, case, change, message):
    from rulelearn.bench import executors

    kwargs = {"monkeypatch": monkeypatch} if case == "ripper-not-installed" else {}
    cfg = ws / "c.yaml"
    cfg.write_text(base_config(ws, **change(ws, **kwargs)))
    ran = []
    monkeypatch.setattr(executors, "run_unit", lambda unit, data: ran.append(unit))
    before = snapshot(ws)
    r = invoke("bench", cfg, "-o", ws / "out", "-q")
    check(r, 1, "nothing was run")
    assert message in r.stderr and ran == []
    assert not (ws / "out").exists() and snapshot(ws) == before


# ---------------------------------------------------------------------- bench: command line, disk

def test_config_file_missing(ws):
    check(invoke("bench", ws / "nope.yaml"), 2, "does not exist")


def test_config_is_a_folder(ws):
    check(invoke("bench", ws), 2, "is a directory")


@pytest.mark.parametrize("data", [b"\xff\xfe\x00garbage", "datasets: [wdbc]\n".encode("utf-16")],
                         ids=["binary", "utf16"])
def test_config_not_text(ws, data):
    (ws / "c.yaml").write_bytes(data)
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out"), 1, "not UTF-8 text")
    assert not (ws / "out").exists()


def test_jobs_zero_on_the_command_line(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    check(invoke("bench", ws / "c.yaml", "--jobs", "0"), 2, "--jobs")


def test_only_dataset_unknown(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    check(invoke("bench", ws / "c.yaml", "--only-dataset", "tyo"), 1, "Did you mean 'toy'")
    assert not (ws / "results").exists()


def test_dask_without_scheduler(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    r = invoke("bench", ws / "c.yaml", "--executor", "dask", "-o", ws / "out", "-q")
    check(r, 1, "nothing was run")
    assert "scheduler" in r.stderr or "dask.distributed" in r.stderr


def test_output_under_a_regular_file(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "file").write_text("x")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "file" / "out", "-q"), 1,
          "cannot create the results folder")
    assert (ws / "file").read_text() == "x"


def test_output_is_a_regular_file(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "file").write_text("x")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "file", "-q"), 2, "is a file")


def _read_only(monkeypatch, root: Path):
    """Refuse writes under ``root`` as a read-only folder would (the tests may run as root)."""
    real_open, real_mkdir = os.open, os.mkdir

    def guarded_open(path, flags, *args, **kw):
        if str(path).startswith(str(root)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kw)

    def guarded_mkdir(path, *args, **kw):
        if str(path).startswith(str(root)):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_mkdir(path, *args, **kw)

    monkeypatch.setattr(os, "open", guarded_open)
    monkeypatch.setattr(os, "mkdir", guarded_mkdir)


def test_output_in_a_read_only_folder(ws, monkeypatch):
    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "ro").mkdir()
    _read_only(monkeypatch, ws / "ro")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "ro" / "out", "-q"), 1, "Permission denied")


def test_output_folder_locked_by_another_run(ws):
    from rulelearn.bench.store import FolderLock

    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "out").mkdir()
    with FolderLock(ws / "out"):
        before = snapshot(ws / "out")
        r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
        check(r, 1, f"is in use by another rulelearn process (pid {os.getpid()})")
        assert snapshot(ws / "out") == before


@pytest.mark.parametrize("content", [os.urandom(500) + b"\n", b"[1, 2, 3]\n", b'{"key": "k"}\n',
                                     b'{"key": "k", "status": "ok", "dataset": "toy", "label": '
                                     b'"cart", "fold": 0, "test_error": NaN, "train_error": 0, '
                                     b'"n_features": 1}\n'],
                         ids=["bytes", "array", "no-dataset", "nan"])
def test_bench_into_a_folder_with_damaged_records(ws, content):
    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "out").mkdir()
    (ws / "out" / "records.jsonl").write_bytes(content)
    before = snapshot(ws / "out")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 1, "damaged line")
    after = snapshot(ws / "out")
    after.pop(ws / "out" / "records.jsonl.lock", None)
    assert after == before


def test_bench_runs_then_resumes_without_touching_the_records(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "2 units: 0 already done, 2 ok, 0 failed" in r.stderr
    records = (ws / "out" / "records.jsonl").read_bytes()
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "2 already done" in r.stderr
    assert (ws / "out" / "records.jsonl").read_bytes() == records
    assert b"NaN" not in records and b"Infinity" not in records


def test_bench_with_a_damaged_meta_and_config_in_the_folder(done, finished):
    (done / "meta.json").write_text('{"wall_seconds_all_runs": ')
    (done / "config.yaml").write_text("name: [")
    records = (done / "records.jsonl").read_bytes()
    r = invoke("bench", finished.parent / "c.yaml", "-o", done, "-q")
    check(r, 0)  # both are rewritten, nothing is recomputed
    assert "2 already done" in r.stderr
    assert (done / "records.jsonl").read_bytes() == records
    json.loads((done / "meta.json").read_text())


# ------------------------------------------------------------------------------------------ table

def _write(name, data):
    def damage(folder):
        path = folder / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data(path) if callable(data) else data)
    return damage


def _record(**change):
    rec = {"key": "k1", "status": "ok", "dataset": "toy", "label": "cart", "fold": 0,
           "test_error": 0.1, "train_error": 0.1, "n_features": 1}
    rec.update(change)
    return (json.dumps({k: v for k, v in rec.items() if v is not None}) + "\n").encode()


BAD_FOLDERS = [
    ("records-deleted", lambda f: (f / "records.jsonl").unlink(), "no records in"),
    ("records-empty", _write("records.jsonl", b""), "no records in"),
    ("records-blank-lines", _write("records.jsonl", b"\n\n\n"), "no records in"),
    ("records-random-bytes", _write("records.jsonl", bytes(range(256)) * 8 + b"\n"),
     "damaged line"),
    ("records-utf16", _write("records.jsonl", '{"key": "a"}\n'.encode("utf-16")), "damaged line"),
    ("records-json-arrays", _write("records.jsonl", b"[1]\n[2]\n"), "not a record"),
    ("records-json-strings", _write("records.jsonl", b'"a"\n'), "not a record"),
    ("record-without-dataset", _write("records.jsonl", _record(dataset=None)),
     "no valid 'dataset'"),
    ("record-without-fold", _write("records.jsonl", _record(fold=None)), "no valid 'fold'"),
    ("record-fold-text", _write("records.jsonl", _record(fold="0")), "no valid 'fold'"),
    ("record-nan-error", _write("records.jsonl", _record().replace(b"0.1,", b"NaN,", 1)),
     "not a JSON record"),
    ("record-infinite-error", _write("records.jsonl", _record().replace(b"0.1,", b"Infinity,", 1)),
     "not a JSON record"),
    ("record-error-out-of-range", _write("records.jsonl", _record(test_error=5)),
     "'test_error'"),
    ("record-ok-without-error", _write("records.jsonl", _record(test_error=None)),
     "'test_error'"),
    ("garbage-appended", lambda f: f.joinpath("records.jsonl").open("ab").write(b"oops\n"),
     "line 3: not a JSON record"),
    ("config-deleted", lambda f: (f / "config.yaml").unlink(), "has no config.yaml"),
    ("config-bad-yaml", _write("config.yaml", "name: [h\n"), "config.yaml is damaged"),
    ("config-binary", _write("config.yaml", b"\xff\xfe\x00\x01"), "config.yaml is damaged"),
    ("config-truncated", _write("config.yaml", lambda p: p.read_text().split("\nform:")[0]),
     "no valid 'outer_folds'"),
    ("config-half-line", _write("config.yaml", lambda p: p.read_text()[:40]), "config.yaml"),
    ("config-list", _write("config.yaml", "- a\n- b\n"), "not a mapping"),
    ("config-empty", _write("config.yaml", ""), "not a mapping"),
    ("config-methods-mangled",
     _write("config.yaml", lambda p: p.read_text().replace("label: cart", "lable: cart")),
     "no valid 'methods'"),
]


@pytest.mark.parametrize("case, damage, message", BAD_FOLDERS, ids=[c[0] for c in BAD_FOLDERS])
def test_table_on_a_damaged_folder(done, case, damage, message):
    for name in ("table1.md", "table1.csv", "table2.md", "ranks.csv"):
        (done / name).unlink()
    damage(done)
    before = snapshot(done)
    check(invoke("table", done), 1, message)
    assert snapshot(done) == before  # no table written, nothing repaired behind the user's back


def test_table_on_an_empty_folder(tmp_path):
    check(invoke("table", tmp_path), 1, "no records in")
    assert list(tmp_path.iterdir()) == []


def test_table_on_a_folder_of_unrelated_files(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    check(invoke("table", tmp_path), 1, "no records in")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_table_records_is_a_folder(tmp_path):
    (tmp_path / "records.jsonl").mkdir()
    check(invoke("table", tmp_path), 1, "no records in")


def test_table_on_a_missing_folder(tmp_path):
    check(invoke("table", tmp_path / "nope"), 2, "does not exist")


def test_table_on_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    check(invoke("table", tmp_path / "f"), 2, "is a file")


def test_table_show_unknown(done):
    check(invoke("table", done, "--show", "3"), 2, "--show")


@pytest.mark.parametrize("meta", ['{"wall_seconds": 3.', "[1, 2]", "\xff\xfe", ""],
                         ids=["truncated", "list", "binary", "empty"])
def test_table_with_an_unreadable_meta_warns_and_goes_on(done, meta):
    csv = (done / "table1.csv").read_bytes()
    (done / "meta.json").write_text(meta, encoding="latin-1")
    r = invoke("table", done)
    check(r, 0)
    assert r.stderr.count("Warning:") == 1 and "meta.json is unreadable" in r.stderr
    assert (done / "table1.csv").read_bytes() == csv
    assert "wall time: unknown" in (done / "table1.md").read_text()


def test_table_with_a_torn_last_line(done):
    csv = (done / "table1.csv").read_bytes()
    with open(done / "records.jsonl", "ab") as f:
        f.write(b'{"key": "x", "status": "o')  # a kill in the middle of a write
    check(invoke("table", done), 0)
    assert (done / "table1.csv").read_bytes() == csv


def test_table_ignores_records_of_another_configuration(done, ws):
    csv = (done / "table1.csv").read_bytes()
    config = (done / "config.yaml").read_bytes()
    (ws / "b.yaml").write_text(base_config(ws, seed="7"))
    check(invoke("bench", ws / "b.yaml", "-o", done, "-q", "--no-tables"), 0)
    (done / "config.yaml").write_bytes(config)  # the folder's configuration is A's again
    r = invoke("table", done)
    check(r, 0)
    assert "Warning: 2 records of another configuration are ignored" in r.stderr
    assert (done / "table1.csv").read_bytes() == csv


def test_table_to_a_path_under_a_file(done, tmp_path):
    (tmp_path / "file").write_text("x")
    before = snapshot(done)
    check(invoke("table", done, "-o", tmp_path / "file" / "t"), 1, "cannot write tables to")
    assert snapshot(done) == before and (tmp_path / "file").read_text() == "x"


def test_table_to_a_read_only_folder(done, tmp_path, monkeypatch):
    (tmp_path / "ro").mkdir()
    _read_only(monkeypatch, tmp_path / "ro")
    before = snapshot(done)
    check(invoke("table", done, "-o", tmp_path / "ro" / "t"), 1, "Permission denied")
    assert snapshot(done) == before


def test_table_to_another_folder_leaves_the_results_alone(done, tmp_path):
    before = snapshot(done)
    check(invoke("table", done, "-o", tmp_path / "elsewhere", "--show", "1"), 0)
    assert snapshot(done) == before and (tmp_path / "elsewhere" / "table1.md").exists()


# ------------------------------------------------------------- second battery: links, bombs, data

BOMB = "".join(
    [f"l0: &l0 [{', '.join(['x'] * 9)}]\n"]
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 5)])


@pytest.mark.parametrize("text", [BOMB, "datasets: &d [*d]\n",
                                  "name: &n h\ndatasets: [wdbc_bundled]\nmethods: [cart]\n"],
                         ids=["alias-bomb", "recursive-alias", "anchor"])
def test_config_with_anchors_or_aliases_is_refused(ws, text):
    (ws / "c.yaml").write_text(text)
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 1, "anchors and aliases")
    assert "line 1" in r.stderr and not (ws / "out").exists()


def test_config_nested_too_deeply(ws):
    (ws / "c.yaml").write_text("datasets: " + "[" * 1200 + "]" * 1200 + "\n")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 1, "c.yaml")


@pytest.mark.parametrize("change", [{"name": '"a\\0b"', "output": None},
                                    {"output": '"res\\0ults"'}], ids=["name", "output"])
def test_nul_in_name_or_output(ws, monkeypatch, change):
    monkeypatch.chdir(ws)
    (ws / "c.yaml").write_text(base_config(ws, **change))
    r = invoke("bench", ws / "c.yaml", "-q")
    check(r, 1, "NUL")
    assert sorted(p.name for p in ws.iterdir()) == ["c.yaml", "toy.csv"]


def test_huge_method_grid_is_refused_at_once(ws):
    import time
    leaves = ", ".join(str(i) for i in range(1, 1201))
    depths = ", ".join(str(i) for i in range(1, 91))
    methods = (f"[{{cart: {{min_samples_leaf: [{leaves}], criterion: [gini, entropy], "
               f"max_depth: [{depths}]}}}}]")
    (ws / "c.yaml").write_text(base_config(ws, methods=methods))
    t0 = time.perf_counter()
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 1, "variants")
    assert time.perf_counter() - t0 < 5 and not (ws / "out").exists()


def test_too_many_units_are_refused(ws):
    leaves = ", ".join(str(i) for i in range(1, 501))
    (ws / "c.yaml").write_text(base_config(ws, methods=f"[{{cart: {{min_samples_leaf: "
                                                        f"[{leaves}]}}}}]",
                                           outer_folds="1000", seeds="[0, 1]", seed=None))
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 1, "units")


def test_duplicate_labels_among_many_variants():
    import time

    from rulelearn.bench.config import parse_config
    leaves = ", ".join(str(i) for i in range(1, 501))
    text = (f"datasets: [wdbc_bundled]\nmethods: [{{cart: {{min_samples_leaf: [{leaves}]}}}}, "
            f"{{cart: {{min_samples_leaf: [{leaves}]}}}}]\n")
    t0 = time.perf_counter()
    with pytest.raises(Exception, match="same run label"):
        parse_config(text)
    assert time.perf_counter() - t0 < 2


def test_refused_run_leaves_no_new_folders(ws):
    (ws / "c.yaml").write_text(base_config(ws, **_one_class(ws)))
    before = snapshot(ws)
    check(invoke("bench", ws / "c.yaml", "-o", ws / "new" / "deep" / "out", "-q"), 1,
          "nothing was run")
    assert not (ws / "new").exists() and snapshot(ws) == before


def test_sigterm_while_loading_data_leaves_nothing(ws, monkeypatch):
    import signal

    from rulelearn.bench import experiment

    class Killed(Exception):
        pass

    def old_default(signum, frame):  # stands for the default action, without killing pytest
        raise Killed()

    real = experiment.read_data

    def slow_read(*args, **kw):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kw)

    previous = signal.signal(signal.SIGTERM, old_default)
    try:
        monkeypatch.setattr(experiment, "read_data", slow_read)
        (ws / "c.yaml").write_text(base_config(ws))
        r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert r.exit_code == 143, r.stderr
    assert "Terminated" in r.stderr and not (ws / "out").exists()


def test_sigterm_while_loading_data_releases_the_lock(done, finished, monkeypatch):
    import signal

    from rulelearn.bench import experiment
    from rulelearn.bench.store import FolderLock

    def slow_read(*args, **kw):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(experiment, "read_data", slow_read)
    previous = signal.signal(signal.SIGTERM, lambda *a: (_ for _ in ()).throw(KeyError()))
    try:
        r = invoke("bench", finished.parent / "c.yaml", "-o", done, "-q", "--force")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert r.exit_code == 143, r.stderr
    with FolderLock(done):  # free again
        pass


def test_table_against_empty(done):
    before = snapshot(done)
    check(invoke("table", done, "--against", ""), 2, "--against")
    assert snapshot(done) == before


def test_table_against_on_a_one_method_folder(done):
    before = snapshot(done)
    check(invoke("table", done, "--against", "cart"), 1, "single method")
    assert snapshot(done) == before


def test_dask_scheduler_unreachable_fails_fast_and_leaves_nothing(ws, monkeypatch):
    import time

    pytest.importorskip("dask.distributed")
    from rulelearn.bench import experiment
    monkeypatch.setattr(experiment, "DASK_CONNECT_SECONDS", 1.0, raising=False)
    (ws / "c.yaml").write_text(base_config(ws))
    t0 = time.perf_counter()
    r = invoke("bench", ws / "c.yaml", "--executor", "dask", "--scheduler",
               "tcp://127.0.0.1:1", "-o", ws / "out", "-q")
    check(r, 1, "tcp://127.0.0.1:1")
    assert time.perf_counter() - t0 < 15 and not (ws / "out").exists()


# links: "we never write through a symbolic link we did not make"

@pytest.mark.parametrize("name", ["records.jsonl.lock", "records.jsonl"])
def test_bench_does_not_write_through_a_link_in_the_folder(done, finished, tmp_path, name):
    (done / "records.jsonl.lock").touch()  # as a killed run leaves it
    victim = tmp_path / "victim.txt"
    victim.write_bytes((done / name).read_bytes() + b'{"partial')
    (done / name).unlink()
    (done / name).symlink_to(victim)
    before = victim.read_bytes()
    r = invoke("bench", finished.parent / "c.yaml", "-o", done, "-q", "--force")
    check(r, 1, "symbolic link")
    assert name in r.stderr and victim.read_bytes() == before


@pytest.mark.parametrize("name", ["records.jsonl.lock", "records.jsonl"])
def test_bench_does_not_write_into_a_hard_link(done, finished, tmp_path, name):
    (done / "records.jsonl.lock").touch()  # as a killed run leaves it
    victim = tmp_path / "victim.txt"
    os.link(done / name, victim)
    before = victim.read_bytes()
    r = invoke("bench", finished.parent / "c.yaml", "-o", done, "-q", "--force")
    check(r, 1, "hard link")
    assert victim.read_bytes() == before


@pytest.mark.parametrize("name", ["config.yaml", "meta.json", "runs.json", "table1.md",
                                  "paired.md", "table1.csv"])
def test_bench_replaces_a_link_rather_than_writing_through_it(done, finished, tmp_path, name):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (done / name).unlink(missing_ok=True)
    (done / name).symlink_to(victim)
    check(invoke("bench", finished.parent / "c.yaml", "-o", done, "-q"), 0)
    assert victim.read_text() == "keep me\n"


def test_bench_into_a_linked_output_folder_is_refused(ws, tmp_path):
    (ws / "c.yaml").write_text(base_config(ws))
    (ws / "real").mkdir()
    (ws / "link").symlink_to(ws / "real")
    check(invoke("bench", ws / "c.yaml", "-o", ws / "link", "-q"), 1, "symbolic link")
    assert list((ws / "real").iterdir()) == []


def test_plot_into_a_linked_folder_is_refused(done, tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    check(invoke("plot", done, "-o", tmp_path / "link"), 1, "symbolic link")
    assert list((tmp_path / "real").iterdir()) == []


def test_a_lock_file_left_behind_is_taken_over_and_removed(done, finished):
    lock = done / "records.jsonl.lock"  # never truncated while held: test_store
    lock.write_text("x" * 30 + "\nsomething else\n")
    check(invoke("bench", finished.parent / "c.yaml", "-o", done, "-q"), 0)
    assert not lock.exists()


def test_table_into_a_linked_output_folder_is_refused(done, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    check(invoke("table", done, "-o", tmp_path / "link"), 1, "symbolic link")
    assert list((tmp_path / "real").iterdir()) == []


# the data of a unit changed between two runs on the same folder

def _flip_labels(csv: Path):
    frame = pd.read_csv(csv)
    frame["y"] = frame["y"].map({"p": "n", "n": "p"}).where(frame.index % 3 == 0, frame["y"])
    frame.to_csv(csv, index=False)


def test_resume_reruns_the_units_whose_data_changed(ws, tmp_path_factory):
    (ws / "c.yaml").write_text(base_config(ws))
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 0)
    _flip_labels(ws / "toy.csv")
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "0 already done, 2 ok" in r.stderr and "data changed" in r.stderr
    fresh = invoke("bench", ws / "c.yaml", "-o", ws / "fresh", "-q")
    check(fresh, 0)
    assert (ws / "out" / "table1.csv").read_bytes() == (ws / "fresh" / "table1.csv").read_bytes()
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "2 already done" in r.stderr and "data changed" not in r.stderr


def _strip_fingerprints(folder: Path):
    lines = (folder / "records.jsonl").read_text().splitlines()
    recs = [json.loads(line) for line in lines]
    assert all("data_fingerprint" in rec for rec in recs)
    (folder / "records.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in rec.items() if k != "data_fingerprint"}) + "\n"
                for rec in recs))


def test_old_registry_records_without_a_fingerprint_stay_done(ws):
    (ws / "c.yaml").write_text(base_config(ws, datasets="[{name: wdbc_bundled, subsample: 80}]"))
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 0)
    _strip_fingerprints(ws / "out")
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "2 already done" in r.stderr


def test_old_csv_records_without_a_fingerprint_are_run_again(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    check(invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q"), 0)
    _strip_fingerprints(ws / "out")
    r = invoke("bench", ws / "c.yaml", "-o", ws / "out", "-q")
    check(r, 0)
    assert "0 already done, 2 ok" in r.stderr and "no fingerprint" in r.stderr


def test_the_battery_is_large_enough():
    n = len(BAD_CONFIGS) + len(DOOMED) + len(BAD_FOLDERS)
    assert n >= 60, n


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


# ------------------------------------------------------------------- bench: what a config imports

def _marker_package(folder: Path, name: str) -> Path:
    """A package ``name`` in ``folder`` whose import writes a marker file; returns the marker."""
    marker = folder / f"{name}.imported"
    (folder / name).mkdir()
    (folder / name / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "class Model:\n"
        "    def __init__(self, depth=1):\n"
        "        self.depth = depth\n"
        "    def fit(self, X, y):\n"
        "        return self\n"
        "    def predict(self, X):\n"
        "        return [0] * len(X)\n")
    return marker


def _run_bench(folder: Path, config: str, *extra, env=None):
    """``rulelearn bench`` in a fresh interpreter started in ``folder`` (``python -m``: the
    working directory comes first on the import path, as it does for a user who runs it so)."""
    import subprocess

    (folder / "c.yaml").write_text(config)
    return subprocess.run([sys.executable, "-m", "rulelearn.cli", "bench", "c.yaml", "-q",
                           "--no-tables", *extra], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


def _one_error(proc, message):
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], lines


@pytest.mark.parametrize("name", ["this.X", "antigravity.X", "os.system", "subprocess.Popen"])
def test_a_config_cannot_import_a_module_outside_the_allowed_packages(ws, name):
    # 'this' prints the Zen of Python on import, 'antigravity' opens a web browser: refused
    # before the import, in one line that names the way to allow it
    proc = _run_bench(ws, base_config(ws, methods=f"[{name}]"), env={"BROWSER": "false"})
    _one_error(proc, f"refused to import '{name}'")
    assert f"--allow-import {name.partition('.')[0]}" in proc.stderr
    assert "Beautiful is better than ugly" not in proc.stdout + proc.stderr
    assert not (ws / "results").exists()


def test_a_package_on_the_path_runs_no_code_unless_allowed(ws, tmp_path_factory):
    lib = tmp_path_factory.mktemp("lib")
    marker = _marker_package(lib, "mymodels")
    config = base_config(ws, methods="[{mymodels.Model: {depth: [1, 2]}}]")
    proc = _run_bench(ws, config, env={"PYTHONPATH": str(lib)})
    _one_error(proc, "refused to import 'mymodels.Model'")
    assert not marker.exists()
    # a prefix covers its dotted children only: 'mymodel' does not allow 'mymodels'
    proc = _run_bench(ws, config, "--allow-import", "mymodel", env={"PYTHONPATH": str(lib)})
    _one_error(proc, "refused to import 'mymodels.Model'")
    assert not marker.exists()
    # allowed by the person who runs the config: imported, and the config is accepted
    from rulelearn.bench.config import parse_config

    sys.path.insert(0, str(lib))
    try:
        parsed = parse_config(config, allow_import=("mymodels",))
    finally:
        sys.path.remove(str(lib))
        sys.modules.pop("mymodels", None)
    assert marker.exists() and parsed.methods[0].grid == (1, 2)


@pytest.mark.parametrize("package", ["imodels", "wittgenstein"])
def test_a_trusted_name_shadowed_by_a_folder_in_the_working_directory_is_refused(ws, package):
    marker = _marker_package(ws, package)
    proc = _run_bench(ws, base_config(ws, methods=f"[{package}.Model]"))
    _one_error(proc, "is not the installed package")
    assert not marker.exists()


def test_an_import_prefix_must_be_dotted_identifiers(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    r = invoke("bench", ws / "c.yaml", "--allow-import", "os; rm")
    assert r.exit_code == 2 and "is not an import prefix" in r.stderr
    assert not (ws / "results").exists()
