"""Typed records, the results frame, code fingerprints and stale units."""

import json
import shutil
from pathlib import Path

import pytest
from test_hostile_bench import base_config, check, invoke, write_toy

from rulelearn.bench import fingerprint, records
from rulelearn.bench.records import (
    PathPoint,
    Record,
    RecordError,
    load_results,
    parse,
    scan_records,
)
from rulelearn.bench.store import dumps_record, read_records

ROOT = Path(__file__).resolve().parents[1]
#: Every committed results folder with records, and the ``table`` options its tables were
#: rendered with.
COMMITTED = {p.parent.name: (["--seeds", "0,1,2,3"] if p.parent.name == "brcg-seeds" else [])
             for p in sorted((ROOT / "results").glob("*/records.jsonl"))}


def good(key="a", **kw):
    return {"key": key, "status": "ok", "dataset": "d", "label": "bcd", "method": "bcd",
            "fold": 0, "seed": 0, "n_outer": 1, "test_error": 0.25, "train_error": 0.125,
            "n_features": 3, "n_clauses": 2, "chosen": 0.5,
            "path": [{"param": 0.5, "cv_error": 0.2, "cv_sem": 0.01, "literals": 3,
                      "clauses": 2, "train_error": 0.125, "test_error": 0.25}], **kw}


# ----------------------------------------------------------------------------------------------
# the type


def test_a_record_round_trips_and_speaks_one_vocabulary():
    raw = good(rule_json={"form": "dnf", "clauses": [
        [{"feature": "x", "op": ">", "value": 1}, {"feature": "x", "op": "<=", "value": 2}],
        [{"feature": "y", "op": ">", "value": 0}]]})
    rec = parse(json.dumps(raw))
    assert rec.to_dict() == raw  # the on-disk names stay as they are
    assert Record.from_dict(rec.to_dict()) == rec
    assert (rec.literals, rec.clauses, rec.distinct_features) == (3, 2, 2)
    assert rec.path == (PathPoint(0.5, 0.2, 0.01, 3, 2, 0.125, 0.25),)
    assert rec.path[0].to_dict() == raw["path"][0]
    assert rec.code_version == records.UNRECORDED and rec.damage == ()
    made = Record(key="k", status="ok", dataset="d", label="cart", fold=1, literals=4,
                  clauses=2, test_error=0.5, train_error=0.25, code_fingerprint="code-1")
    assert made.to_dict()["n_features"] == 4 and Record.from_dict(made.to_dict()) == made


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_every_committed_record_loads_and_round_trips(name):
    path = ROOT / "results" / name / "records.jsonl"
    loaded, damaged = scan_records(path)
    assert damaged == [] and loaded
    assert [r.to_dict() for r in loaded] == read_records(path)
    for rec in loaded:
        assert Record.from_dict(rec.to_dict()) == rec and rec.damage == ()
        if rec.ok:
            assert rec.literals == rec.raw["n_features"]


def test_a_unit_record_is_written_in_the_disk_names(tmp_path):
    from test_experiment import make_config

    from rulelearn.bench import experiment, units

    cfg = make_config(tmp_path)
    unit = experiment.plan(cfg)[0]
    raw = units.run_unit(unit, units.load_data(cfg.datasets[0]))
    assert raw["status"] == "ok" and "literals" not in raw and "clauses" not in raw
    rec = Record.from_dict(json.loads(dumps_record(raw)))
    assert rec.literals == raw["n_features"] and rec.clauses == raw["n_clauses"]
    assert rec.code_fingerprint == unit.code_fingerprint == fingerprint.code_fingerprint("cart")
    assert rec.path and rec.path[[p.param for p in rec.path].index(rec.chosen)].literals \
        == rec.literals


@pytest.mark.parametrize("damage, message", [
    ({"status": 3}, "no valid 'status'"),
    ({"fold": "one"}, "no valid 'fold'"),
    ({"seed": "zero"}, "no valid 'seed'"),
    ({"n_features": None}, "without a valid 'n_features'"),
    ({"n_literals": -1}, "without a valid 'n_literals'"),
    ({"test_error": 2}, "without a valid 'test_error'"),
    ({"n_features": 10 ** 400}, "without a valid 'n_features' \\(got 1000"),  # no float
    ({"n_features": float("inf")}, "without a valid 'n_features'"),
])
def test_a_damaged_record_is_a_one_line_reason(damage, message):
    with pytest.raises(RecordError, match=message):
        Record.from_dict(good(**damage))
    with pytest.raises(RecordError, match="not a JSON record"):
        parse(b'{"key": "a", "test_error": NaN}')
    with pytest.raises(RecordError, match="no 'key'"):
        parse(b"[1, 2]")


def test_damaged_path_entries_are_left_out_with_a_reason():
    rec = Record.from_dict(good(path=[3, "text", [1, 2], {"param": 1, "literals": "x",
                                                         "test_error": 0.1},
                                      {"literals": 1, "test_error": 0.5, "cv_error": "?"},
                                      good()["path"][0]]))
    assert rec.path == (PathPoint(0.5, 0.2, 0.01, 3, 2, 0.125, 0.25),)
    assert len(rec.damage) == 1  # one line a record: the first damaged entry and the count
    assert "path entry 0 is not an object" in rec.damage[0] and "(and 4 more)" in rec.damage[0]
    assert "left out of the figures" in rec.damage[0]
    assert "path entry 0 is not an object (got int)" in rec.damage[0]
    assert Record.from_dict(good(path="all")).path is None
    assert "its path is not a list" in Record.from_dict(good(path="all")).damage[0]
    assert Record.from_dict(good(path=None)).damage == ()


@pytest.mark.parametrize("param", ["0.5", [0.5], {"theta": 0.5}, True, 10 ** 400,
                                   float("nan")])
def test_a_path_parameter_is_a_number_or_null(param):
    """A θ or depth that is text, a list, a truth value or too large for a float is a damaged
    entry (the figures' float() of it was a traceback); a null is CART's unbounded depth."""
    entry = {"literals": 1, "test_error": 0.5}
    rec = Record.from_dict(good(path=[{**entry, "param": param}, {**entry, "param": None},
                                      {**entry, "param": 3}]))
    assert [p.param for p in rec.path] == [None, 3]
    assert len(rec.damage) == 1 and "path entry 0 has no valid 'param'" in rec.damage[0]
    assert len(rec.damage[0]) < 250  # a long value is cut in the line


def damaged_folder(tmp_path):
    """A finished run whose θ paths and method fields were damaged by hand."""
    write_toy(tmp_path)
    (tmp_path / "c.yaml").write_text(base_config(tmp_path, methods="[bcd]",
                                                 theta="[0.5, 5.0]", R="2", max_iter="3"))
    check(invoke("bench", tmp_path / "c.yaml", "-o", tmp_path / "out", "-q"), 0)
    path = tmp_path / "out" / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    recs[0]["path"] = [1, "two", [3], {"literals": "many"}] + recs[0]["path"]
    del recs[1]["method"]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return tmp_path / "out"


def test_a_folder_with_damaged_paths_still_tabulates_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    out = damaged_folder(tmp_path)
    results = load_results(out)
    assert all(r.ok for r in results.records) and results.summary["complete"].all()
    assert [n for n in results.notes if "left out of the figures" in n] == [
        f"record {results.records[0].key!r}: path entry 0 is not an object (got int) "
        "(and 3 more); the damaged entries are left out of the figures"]
    r = invoke("table", out)
    check(r, 0)
    assert "path entry 0 is not an object" in r.stderr
    r = invoke("plot", out)
    check(r, 0)
    assert "warning: record" in r.stderr and (out / "figures" / "paths.png").exists()


def test_a_damaged_line_is_one_error_line_not_a_traceback(tmp_path):
    out = damaged_folder(tmp_path)
    with open(out / "records.jsonl", "a") as f:
        f.write(json.dumps(good(key="zz", test_error="high")) + "\n")
    for command in ("table", "plot"):
        check(invoke(command, out), 1, "damaged line")


# ----------------------------------------------------------------------------------------------
# the results frame: what the tables print, byte for byte


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_committed_tables_rerender_byte_identical(name, tmp_path):
    folder = ROOT / "results" / name
    r = invoke("table", folder, "-o", tmp_path, *COMMITTED[name])
    check(r, 0)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written
    for file in written:
        assert (tmp_path / file).read_bytes() == (folder / file).read_bytes(), file


def test_one_sem_rule():
    assert records.sem([1.0]) != records.sem([1.0])  # NaN below two values
    assert records.sem([1.0, 3.0]) == pytest.approx(1.0)


# ----------------------------------------------------------------------------------------------
# code fingerprints and stale units


@pytest.fixture
def ws(tmp_path):
    write_toy(tmp_path)
    return tmp_path


@pytest.fixture
def learner(tmp_path, monkeypatch):
    """The hashed file set replaced by one file, ``learner.py``, that a test can edit."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "learner.py").write_text("VERSION = 1\n")
    monkeypatch.setattr(fingerprint, "ROOT", src)
    monkeypatch.setattr(fingerprint, "CODE_FILES", ("learner.py",))
    return src / "learner.py"


def test_the_code_fingerprint_follows_the_sources_and_the_adapter(learner):
    before = fingerprint.code_fingerprint("bcd")
    assert before == fingerprint.code_fingerprint("bcd")
    learner.write_text("VERSION = 2\n")
    after = fingerprint.code_fingerprint("bcd")
    assert after != before and after.startswith("code-")
    # CART's adapter (baselines.py) is hashed for CART only
    assert fingerprint.code_fingerprint("cart") != after
    assert any(p.name == "baselines.py" for p in fingerprint.code_files("cart"))
    assert not any(p.name == "baselines.py" for p in fingerprint.code_files("bcd"))


def test_the_real_file_set_covers_the_learners():
    names = {p.relative_to(fingerprint.ROOT).as_posix() for p in fingerprint.code_files("bcd")}
    assert {"lp.py", "binarize.py", "estimator.py", "rules.py"} <= names
    assert any(n.startswith("learners/") for n in names)


def test_fit_and_cg_also_hash_the_code_their_results_depend_on():
    """The public benchmark's fit runs model_selection's CV; cg runs colgen's master and
    pricing: a change there makes their records stale, not BCD's."""
    def names(method):
        return {p.relative_to(fingerprint.ROOT).as_posix() for p in fingerprint.code_files(method)}

    assert {"model_selection.py", "_defaults.py", "cv_estimator.py", "prune.py"} <= names("fit")
    assert {"colgen.py", "learners/cg.py"} <= names("cg") and "certify.py" not in names("cg")
    assert not {"model_selection.py", "colgen.py", "prune.py", "learners/cg.py"} & names("bcd")
    assert "learners/cg.py" not in names("fit") and "learners/bcd.py" in names("cg")


def run(ws, *flags):
    return invoke("bench", ws / "c.yaml", "-o", ws / "out", *flags)


def test_a_stale_unit_is_rerun_and_reuse_stale_keeps_it(ws, learner):
    (ws / "c.yaml").write_text(base_config(ws))
    check(run(ws, "-q"), 0)
    first = read_records(ws / "out")
    assert len({r["code_fingerprint"] for r in first}) == 1

    learner.write_text("VERSION = 2\n")  # a learner changed
    r = run(ws, "-q", "--reuse-stale")
    check(r, 0)
    assert "2 already done, 0 ok" in r.stderr
    assert "2 units of toy kept from other code versions by --reuse-stale" in r.stderr
    assert len(read_records(ws / "out")) == 2
    md = (ws / "out" / "table1.md").read_text()
    assert "code: 2 units of other code versions kept by 'bench --reuse-stale'" in md

    r = run(ws, "-q")  # by default: rerun
    check(r, 0)
    assert "0 already done, 2 ok" in r.stderr and "the code changed" in r.stderr
    recs = read_records(ws / "out")
    assert len(recs) == 4 and recs[2]["code_fingerprint"] != recs[0]["code_fingerprint"]
    assert "kept by" not in (ws / "out" / "table1.md").read_text()
    r = run(ws, "-q")
    check(r, 0)
    assert "2 already done, 0 ok" in r.stderr and "changed" not in r.stderr


def _strip_code(folder):
    path = folder / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "code_fingerprint"})
                            + "\n" for r in recs))
    return path.read_bytes()


def test_records_of_unrecorded_code_stop_bench_until_told(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    check(run(ws, "-q"), 0)
    before = _strip_code(ws / "out")
    r = run(ws, "-q")
    check(r, 1, "2 records from an unrecorded code version")
    assert "--force" in r.stderr and "--reuse-stale" in r.stderr
    assert (ws / "out" / "records.jsonl").read_bytes() == before  # nothing was run
    check(invoke("table", ws / "out"), 0)  # tables never rerun anything

    r = run(ws, "-q", "--reuse-stale")
    check(r, 0)
    assert "2 already done" in r.stderr and "unrecorded: 2" in r.stderr
    assert (ws / "out" / "records.jsonl").read_bytes() == before
    r = run(ws, "-q", "--force")
    check(r, 0)
    assert "2 ok" in r.stderr and len(read_records(ws / "out")) == 4
    check(run(ws, "-q", "--force", "--reuse-stale"), 2)


def test_a_cell_mixing_code_versions_is_marked(ws):
    (ws / "c.yaml").write_text(base_config(ws))
    check(run(ws, "-q"), 0)
    path = ws / "out" / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    recs[0]["code_fingerprint"] = "code-0000000000000000"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    r = invoke("table", ws / "out", "--show", "1", "--show", "2")
    check(r, 0)
    assert "code versions: 2 (code-0000000000000000: 1 record, code-" in r.stdout
    assert "1 cell mixing them marked †" in r.stdout
    cells = [line for line in r.stdout.splitlines() if line.split("|")[1:2] == ["          toy "]]
    assert len(cells) == 2 and all(line.rstrip(" |").endswith("†") for line in cells)
    assert r"$^\dagger$" in (ws / "out" / "table1.tex").read_text()
    rows = json.loads(invoke("table", ws / "out", "--json").stdout)["rows"]
    assert len(rows[0]["code_versions"]) == 2


def test_committed_folders_have_one_code_version_per_method():
    """One code version per method of a committed folder (so no cell mixes code, and none is
    marked): 'unrecorded' for records that predate code fingerprints, the fingerprint of the
    code that ran for newer ones (results/gaps; results/public's fit, rerun alone)."""
    for name in COMMITTED:
        results = load_results(ROOT / "results" / name)
        by_method: dict = {}
        for row in results.summary.itertuples():
            by_method.setdefault(row.method, set()).update(row.code_versions)
        assert all(len(versions) == 1 for versions in by_method.values()), (name, by_method)


def test_the_committed_paper_folder_holds_every_unit_and_bench_reruns_none(tmp_path):
    """``bench configs/paper.yaml --reuse-stale`` on (a copy of) results/paper finds all 600
    units done and computes nothing (whatever code wrote them: the unrecorded-code path is
    tested above on a small folder; a learner change since the last rerun must not make this
    test run the 50-minute protocol)."""
    folder = tmp_path / "paper"
    shutil.copytree(ROOT / "results" / "paper", folder)
    r = invoke("bench", ROOT / "configs" / "paper.yaml", "-o", folder, "-q", "--reuse-stale",
               "--no-tables")
    check(r, 0)
    assert "600 units: 600 already done, 0 ok, 0 failed" in r.stderr
    assert (folder / "records.jsonl").read_bytes() == \
        (ROOT / "results" / "paper" / "records.jsonl").read_bytes()


def test_the_modules_import_each_other_without_a_cycle():
    """Module-level and function-level imports between rulelearn's modules form no cycle
    (experiment <-> report, records <-> store, cli.fit <-> cli.rule_list, data.registry <->
    data.packaged were cycles). A package importing its own submodules is not one."""
    import ast

    package = ROOT / "rulelearn"
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
        graph[name] = {m for m in found if m in modules and m != name
                       and not m.startswith(name + ".")}
    assert "rulelearn.data.packaged" in graph["rulelearn.data.registry"]  # the walk sees imports

    def reach(start, node, seen):
        for nxt in graph.get(node, ()):
            assert nxt != start, f"import cycle through {start} and {node}"
            if nxt not in seen:
                seen.add(nxt)
                reach(start, nxt, seen)

    for module in graph:
        reach(module, module, set())


def test_two_methods_of_their_own_code_are_not_called_mixed(ws):
    """Each method's module is in its fingerprint, so BCD's and CART's differ by design: no
    header line about code versions while each method's records share one."""
    (ws / "c.yaml").write_text(base_config(
        ws, methods="[{cart: {max_depth: [1, 2]}}, bcd]", theta="[0.5]", R="1", max_iter="2"))
    check(run(ws, "-q"), 0)
    recs = read_records(ws / "out")
    assert len({r["code_fingerprint"] for r in recs}) == 2  # one per method
    r = invoke("table", ws / "out", "--show", "1")
    check(r, 0)
    assert "code versions" not in r.stdout and "†" not in r.stdout
