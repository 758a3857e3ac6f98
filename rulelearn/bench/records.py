"""Benchmark records, typed: what a unit wrote, read back in one vocabulary.

A unit's record is one JSON object in ``records.jsonl`` (see :mod:`.store`).  The harness
reads records only as :class:`Record` (and its θ path as :class:`PathPoint`), through
:func:`parse` for one line and :func:`load_results` for a results folder, so every table and
figure uses the same words:

* **literals**: the size of the rule (a disabled clause counts 0; CART: split nodes of the
  tree; RIPPER: conditions of its rules).  On disk a record says ``n_features`` (the older
  name, kept so that the records already written stay valid) or ``n_literals``; a path
  entry says ``literals``.
* **distinct features**: the distinct original features of each clause, summed over the
  clauses, read off the record's ``rule_json`` (rule learners only); ``t1 < x <= t2`` is
  two literals on one feature.
* **clauses**: ``n_clauses`` on disk (rules of RIPPER, leaves of CART).

New records are written by :func:`unit_record` only, which maps these words to the on-disk
names; old files load unchanged and are never rewritten.  A line that is not a usable record
is *damaged* (:func:`record_problem` says why, in one line); a damaged θ path (an entry that
is not an object, or lacks a number) leaves the record usable in the tables and is said in a
note (:attr:`Record.damage`), never as a traceback.

This module also holds the one standard-error rule (:func:`sem`: NaN below two values) and
the one *complete cell* rule (:func:`summarize`); the JSON rules (strict JSON, no NaN or
infinity on disk; NaN -> ``null`` for JSON output) are :mod:`.store`'s.
"""

from __future__ import annotations

import json
import math
import reprlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from rulelearn.bench.store import (
    RECORDS,
    ResultsError,
    loads_strict,
    os_error,
    planned_keys,
    resolved_seeds,
    total_wall_seconds,
)
from rulelearn.errors import RuleLearnError

#: Fields every record has (what a table needs to place it), with their JSON types.
RECORD_FIELDS = {"key": str, "status": str, "dataset": str, "label": str, "fold": int}
#: Canonical size words -> their names on disk (in a record; a path entry uses the words).
DISK_NAMES = {"literals": "n_features", "clauses": "n_clauses"}
#: What a code fingerprint is called in tables when a record has none (written before
#: rulelearn kept one).
UNRECORDED = "unrecorded"


class RecordError(RuleLearnError, ValueError):
    """A record that cannot be used (said in one line)."""


# ----------------------------------------------------------------------------------------------
# the types


def _number(value) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def _short(value, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a damaged entry may hold a long list)."""
    text = reprlib.repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass(frozen=True)
class PathPoint:
    """One value of a unit's tuned parameter, refitted on the outer training part.

    ``cv_error`` / ``cv_sem``: the inner CV's mean error and its SEM (None without an inner
    CV); ``literals`` / ``clauses``: the refit's size; ``train_error`` / ``test_error``:
    its error rates on the outer parts.
    """

    param: Any
    cv_error: float | None
    cv_sem: float | None
    literals: float
    clauses: float | None
    train_error: float | None
    test_error: float

    FIELDS = ("param", "cv_error", "cv_sem", "literals", "clauses", "train_error", "test_error")

    @classmethod
    def from_dict(cls, entry) -> PathPoint:
        """The point of a path entry; :class:`RecordError` saying what is wrong with it."""
        if not isinstance(entry, dict):
            raise RecordError(f"is not an object (got {type(entry).__name__})")
        for name in ("literals", "test_error"):
            if not _number(entry.get(name)):
                raise RecordError(f"has no valid '{name}' (got {_short(entry.get(name))})")
        for name in ("param", "cv_error", "cv_sem", "clauses", "train_error"):
            value = entry.get(name)  # a parameter is a number or null (CART's unbounded depth)
            if value is not None and not _number(value):
                raise RecordError(f"has no valid '{name}' (got {_short(value)})")
        return cls(param=entry.get("param"), cv_error=entry.get("cv_error"),
                   cv_sem=entry.get("cv_sem"), literals=entry["literals"],
                   clauses=entry.get("clauses"), train_error=entry.get("train_error"),
                   test_error=entry["test_error"])

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.FIELDS}


@dataclass(frozen=True)
class Record:
    """One unit's record.  ``raw`` is the object as written (its on-disk names)."""

    key: str
    status: str
    dataset: str
    label: str
    fold: int
    seed: int = 0
    method: str | None = None
    n_outer: int = 0
    test_error: float | None = None
    train_error: float | None = None
    literals: float | None = None
    clauses: float | None = None
    distinct_features: int | None = None
    chosen: Any = None
    path: tuple[PathPoint, ...] | None = None
    error: Any = None
    total_seconds: float | None = None
    versions: dict | None = None
    data_fingerprint: str | None = None
    code_fingerprint: str | None = None
    #: ``objective``, ``lower_bound`` and relative ``gap`` of the chosen rule on its training
    #: part (a config's ``certify: true``; LP methods only), else None
    certificate: dict | None = None
    #: what is wrong with the record's θ path (entries left out), one line each
    damage: tuple[str, ...] = ()
    raw: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def code_version(self) -> str:
        """The code fingerprint, or :data:`UNRECORDED`."""
        return self.code_fingerprint or UNRECORDED

    @classmethod
    def from_dict(cls, rec) -> Record:
        """The record of a JSON object; :class:`RecordError` if it is damaged
        (:func:`record_problem`)."""
        problem = record_problem(rec)
        if problem:
            raise RecordError(problem)
        ok = rec["status"] == "ok"
        literals = rec.get("n_literals")
        if literals is None:
            literals = rec.get("n_features")
        path, damage = _path_of(rec)

        def num(name):
            value = rec.get(name)
            return value if _number(value) else None

        def text(name):
            value = rec.get(name)
            return value if isinstance(value, str) else None

        n_outer = rec.get("n_outer")
        versions = rec.get("versions")
        return cls(key=rec["key"], status=rec["status"], dataset=rec["dataset"],
                   label=rec["label"], fold=rec["fold"], seed=rec.get("seed", 0),
                   method=text("method"),
                   n_outer=n_outer if isinstance(n_outer, int) and not isinstance(
                       n_outer, bool) else 0,
                   test_error=num("test_error"), train_error=num("train_error"),
                   literals=literals if ok else (literals if _number(literals) else None),
                   clauses=num("n_clauses"), distinct_features=distinct_features(rec),
                   chosen=rec.get("chosen"), path=path, error=rec.get("error"),
                   total_seconds=num("total_seconds"),
                   versions=versions if isinstance(versions, dict) else None,
                   data_fingerprint=text("data_fingerprint"),
                   code_fingerprint=text("code_fingerprint"),
                   certificate=_certificate_of(rec), damage=damage, raw=rec)

    def to_dict(self) -> dict:
        """The record as written (on-disk names): ``raw`` when it was read, else its fields
        under their on-disk names (:data:`DISK_NAMES`; ``distinct_features`` is not stored,
        it is read off ``rule_json``)."""
        if self.raw:
            return dict(self.raw)
        out = {name: getattr(self, name) for name in (
            "key", "status", "dataset", "label", "fold", "seed", "method", "n_outer",
            "test_error", "train_error", "chosen", "error", "total_seconds", "versions",
            "data_fingerprint", "code_fingerprint")}
        out[DISK_NAMES["literals"]] = self.literals
        out[DISK_NAMES["clauses"]] = self.clauses
        out["path"] = None if self.path is None else [p.to_dict() for p in self.path]
        return out


CERTIFICATE_FIELDS = ("objective", "lower_bound", "gap")


def _certificate_of(rec: dict) -> dict | None:
    """A record's ``certificate`` when it holds the three numbers, else None."""
    value = rec.get("certificate")
    if not isinstance(value, dict) or not all(_number(value.get(k)) for k in CERTIFICATE_FIELDS):
        return None
    return {k: float(value[k]) for k in CERTIFICATE_FIELDS}


def _path_of(rec: dict) -> tuple[tuple[PathPoint, ...] | None, tuple[str, ...]]:
    """The usable points of a record's ``path`` and a line per damaged part."""
    raw = rec.get("path")
    if raw is None or rec.get("status") != "ok":
        return None, ()
    if not isinstance(raw, list):
        return None, (f"record {rec['key']!r}: its path is not a list "
                      f"(got {type(raw).__name__}); left out of the figures",)
    points, damage = [], []
    for i, entry in enumerate(raw):
        try:
            points.append(PathPoint.from_dict(entry))
        except RecordError as exc:
            damage.append(f"path entry {i} {exc}")
    if not damage:
        return tuple(points), ()
    more = f" (and {len(damage) - 1} more)" if len(damage) > 1 else ""
    return tuple(points), (f"record {rec['key']!r}: {damage[0]}{more}; the damaged entries are "
                           "left out of the figures",)


def record_problem(rec) -> str | None:
    """Why ``rec`` (a parsed JSON value) cannot be used in a table, or None."""
    if not isinstance(rec, dict) or not isinstance(rec.get("key"), str):
        return "not a record (no 'key')"
    for name, kind in RECORD_FIELDS.items():
        value = rec.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"record {rec.get('key')!r} has no valid '{name}'"
    seed = rec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        return f"record {rec['key']!r} has no valid 'seed'"
    if rec["status"] == "ok":
        for name in ("test_error", "train_error"):
            value = rec.get(name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 0 <= value <= 1):
                return f"record {rec['key']!r} is 'ok' without a valid '{name}' (got {value!r})"
        value = rec.get("n_literals")
        name = "n_literals" if value is not None else "n_features"
        value = rec.get(name)
        if not (isinstance(value, (int, float)) and _number(value) and value >= 0):
            return (f"record {rec['key']!r} is 'ok' without a valid '{name}' (got "
                    f"{_short(value)})")
    return None


def parse(line: bytes | str) -> Record:
    """The record of one line of ``records.jsonl``; :class:`RecordError` if it is damaged."""
    try:
        rec = loads_strict(line)
    except ValueError as exc:
        raise RecordError(f"not a JSON record ({str(exc).splitlines()[0][:80]})") from None
    return Record.from_dict(rec)


def _parse_lines(path):
    """``(line number, Record or None, problem or None)`` for each complete line of a file."""
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
                yield n, parse(raw), None
            except RecordError as exc:
                yield n, None, str(exc)


def scan_records(path) -> tuple[list[Record], list[str]]:
    """The records of a ``records.jsonl`` a table can use, and its damaged lines.

    A line is *damaged* when it is not strict JSON (NaN and infinity included), not an object
    with a ``key``, lacks a field a table needs (:data:`~.records.RECORD_FIELDS`), or is
    ``ok`` without valid error rates and size (:func:`~.records.record_problem`); each is
    described as ``"line 3: ..."``.  A last line without its newline is a write cut by a
    kill: skipped, and not counted as damage.
    """
    out, bad = [], []
    for n, rec, problem in _parse_lines(path):
        if problem:
            bad.append(f"line {n}: {problem}")
        else:
            out.append(rec)
    return out, bad


def load_folder(folder: Path):
    """Records (:class:`~.records.Record`), resolved config and meta of a results folder;
    :class:`ResultsError` if the tables cannot be built honestly from it.  Also returns notes
    on what was left out."""
    hint = f"run 'rulelearn bench CONFIG -o {folder}' first"
    path = folder / RECORDS
    if not path.is_file():
        raise ResultsError(f"no records in {folder}: it has no {RECORDS} ({hint}).")
    try:
        records, damaged = scan_records(path)
    except OSError as exc:
        raise os_error(exc, "read", path) from None
    if damaged:
        raise ResultsError(f"{path} has {len(damaged)} damaged line(s) ({damaged[0]}); move the "
                           f"file away or delete those lines.")
    if not records:
        raise ResultsError(f"no records in {path} ({hint}).")
    cpath = folder / "config.yaml"
    rebuild = (f"rerun 'rulelearn bench CONFIG -o {folder}' to rewrite it (units already done "
               f"are not recomputed)")
    try:
        config = yaml.safe_load(cpath.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{folder} has no config.yaml, so which records belong to its "
                           f"configuration is unknown; {rebuild}.") from None
    except OSError as exc:
        raise os_error(exc, "read", cpath) from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ResultsError(f"{cpath} is damaged ({problem}); {rebuild}.") from None
    notes = []
    meta = {}
    mpath = folder / "meta.json"
    if mpath.exists():
        try:
            meta = json.loads(mpath.read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            # only the header's run details come from meta.json; the numbers do not
            meta = {}
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            notes.append(f"{mpath} is unreadable ({reason}); wall time, machine and "
                         f"date are unknown")
    return records, config, meta, notes


def as_records(records) -> list[Record]:
    """``records`` (records or their JSON objects) as :class:`Record` objects."""
    return [r if isinstance(r, Record) else Record.from_dict(r) for r in records]


def distinct_features(rec: dict) -> int | None:
    """The distinct original features of each clause of a record's rule, summed over clauses.

    ``fLength > 29.2 AND fLength <= 110 AND fAlpha > 21`` counts 2 where it has 3 literals.
    None when the record has no ``rule_json`` (CART, RIPPER) or it is not a rule.
    """
    rule = rec.get("rule_json")
    if not isinstance(rule, dict) or not isinstance(rule.get("clauses"), list):
        return None
    total = 0
    for clause in rule["clauses"]:
        if not isinstance(clause, list):
            return None
        total += len({lit.get("feature") for lit in clause if isinstance(lit, dict)
                      and isinstance(lit.get("feature"), (str, int, float))})
    return total


def latest(records) -> dict:
    """The latest record of each key, in order of first appearance."""
    out: dict = {}
    for rec in records:
        out[rec.key if isinstance(rec, Record) else rec["key"]] = rec
    return out


# ----------------------------------------------------------------------------------------------
# writing: the one place a record is made


def unit_record(unit, *, status: str, **fields) -> dict:
    """The JSON object of ``unit``'s record, ready for :func:`dumps_record`.

    ``fields`` use the canonical words (``literals``, ``clauses``); they are written under
    their on-disk names (:data:`DISK_NAMES`).  ``unit`` is an
    :class:`~rulelearn.bench.units.Unit`.
    """
    m = unit.method
    rec = {"key": unit.key, "experiment": unit.experiment, "dataset": unit.dataset,
           "method": m.name, "label": m.label, "params": m.params, "fold": unit.fold,
           "n_outer": unit.n_outer, "inner_folds": unit.inner_folds, "seed": unit.seed,
           "tuned_param": m.tuned, "grid": list(m.grid),
           "data_fingerprint": unit.data_fingerprint,
           "code_fingerprint": unit.code_fingerprint, "status": status}
    for name, value in fields.items():
        if name == "path" and value is not None:
            value = [p.to_dict() if isinstance(p, PathPoint) else p for p in value]
        rec[DISK_NAMES.get(name, name)] = value
    return rec


# ----------------------------------------------------------------------------------------------
# records -> cells (pure)


def sem(values) -> float:
    """The standard error of the mean (``ddof=1``); NaN for fewer than two values."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float("nan")
    return float(np.std(values, ddof=1) / math.sqrt(len(values)))


def display_names(method_names: dict) -> dict:
    """``BCD`` for a method that appears once, its full label otherwise; a classifier named by
    import path (``imodels.FIGSClassifier``) by its class name, as written.

    ``method_names`` maps each label to its method's name.
    """
    names = list(method_names.values())

    def short(name: str) -> str:
        return name.rsplit(".", 1)[-1] if "." in name else name.upper()

    return {lab: (short(name) if names.count(name) == 1 else lab)
            for lab, name in method_names.items()}


SUMMARY_COLUMNS = [
    "dataset", "method", "method_name", "n_folds", "n_needed", "complete", "error_mean",
    "error_sem", "literals_mean", "literals_sem", "distinct_mean", "train_error_mean",
    "fit_seconds", "reason", "n_seeds", "error_by_seed", "literals_by_seed", "error_by_unit",
    "code_versions"]


def summarize(records, *, datasets=None, labels=None, n_outer=None,
              method_names=None, seeds=None) -> pd.DataFrame:
    """One row per (dataset, label) -- a *cell* -- with its means and SEMs.

    A cell is **complete** when it has an ``ok`` record for each of the ``n_outer`` outer
    folds of each seed; only a complete cell has numbers.  ``literals_mean`` /
    ``literals_sem`` are the literals, ``distinct_mean`` the distinct features summed over
    clauses (NaN for CART and RIPPER).  ``code_versions`` are the distinct code fingerprints
    of the cell's ``ok`` records (:attr:`Record.code_version`).

    ``datasets`` / ``labels`` fix the row set and order (default: as first seen);
    ``n_outer`` is the number of folds a complete cell needs per seed (default: the records'
    own); ``method_names`` maps a label to its method's name (default: the records'
    ``method``); ``seeds`` are the seeds a complete cell needs (default: the records' own).
    Means and SEMs (:func:`sem`) are over all (seed, fold) records; ``error_by_seed`` and
    ``literals_by_seed`` map each seed to its mean over its folds, ``error_by_unit`` each
    (seed, fold) to its test error %.
    """
    records = as_records(records)
    if datasets is None:
        datasets = list(dict.fromkeys(r.dataset for r in records))
    if labels is None:
        labels = list(dict.fromkeys(r.label for r in records))
    if seeds is None:
        seeds = sorted({r.seed for r in records}) or [0]
    method_names = {**{r.label: r.method for r in records if r.method is not None},
                    **(method_names or {})}
    by_cell: dict = {}
    for r in records:
        by_cell.setdefault((r.dataset, r.label), []).append(r)
    rows = []
    nan = float("nan")
    for d in datasets:
        for lab in labels:
            recs = by_cell.get((d, lab), [])
            ok = sorted((r for r in recs if r.ok),
                        key=lambda r: (seeds.index(r.seed) if r.seed in seeds else len(seeds),
                                       r.fold))
            bad = [r for r in recs if not r.ok]
            need = (n_outer or max([r.n_outer for r in recs], default=0)) * len(seeds)
            units = {(r.seed, r.fold) for r in ok}
            complete = bool(ok) and len(units) >= need
            err = [100.0 * r.test_error for r in ok]
            lits = [r.literals for r in ok]
            distinct = [r.distinct_features for r in ok]
            has_distinct = complete and all(v is not None for v in distinct)
            done = (f"{len(ok)}/{need} folds done" if len(seeds) == 1 else
                    f"{len(ok)}/{need} (seed, fold) units done, {len(seeds)} seeds")
            reason = bad[0].error if bad else ("no records" if not recs else done)
            by_seed = {s: [r for r in ok if r.seed == s] for s in seeds}
            rows.append({
                "dataset": d, "method": lab, "method_name": method_names.get(lab, lab),
                "n_folds": len(ok), "n_needed": need, "complete": complete,
                "error_mean": float(np.mean(err)) if complete else nan,
                "error_sem": sem(err) if complete else nan,
                "literals_mean": float(np.mean(lits)) if complete else nan,
                "literals_sem": sem(lits) if complete else nan,
                "distinct_mean": (float(np.mean([v or 0 for v in distinct])) if has_distinct
                                  else nan),
                "train_error_mean": float(np.mean([100 * r.train_error for r in ok]))
                if complete else nan,
                "fit_seconds": float(sum(r.total_seconds or 0 for r in ok)),
                "reason": None if complete else reason,
                "n_seeds": len(seeds),
                "error_by_seed": {s: float(np.mean([100.0 * r.test_error for r in rs]))
                                  for s, rs in by_seed.items() if rs} if complete else {},
                "literals_by_seed": {s: float(np.mean([r.literals for r in rs]))
                                     for s, rs in by_seed.items() if rs} if complete else {},
                "error_by_unit": {(r.seed, r.fold): 100.0 * r.test_error
                                  for r in ok} if complete else {},
                "code_versions": tuple(dict.fromkeys(r.code_version for r in ok)),
            })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


# ----------------------------------------------------------------------------------------------
# a results folder -> its results frame


@dataclass
class Results:
    """What a results folder holds, read once: the latest :class:`Record` of each unit its
    ``config.yaml`` plans (``records``), their cells (``summary``, see :func:`summarize`),
    the resolved configuration, ``meta.json`` and the header information of its tables
    (``info``: experiment, run details, seeds, ``notes`` on what was left out)."""

    folder: Path
    config: dict
    records: list[Record]
    summary: pd.DataFrame
    info: dict
    datasets: list
    labels: list
    method_names: dict
    seeds: list

    @property
    def notes(self) -> list:
        return self.info["notes"]

    @property
    def complete(self) -> set:
        """The complete (dataset, label) cells."""
        done = self.summary[self.summary["complete"]]
        return set(zip(done["dataset"], done["method"]))

    @property
    def names(self) -> dict:
        """Each label's display name (:func:`display_names`)."""
        return display_names(self.method_names)


def is_paper_config(config: dict) -> bool:
    """Whether a resolved configuration declares itself a reproduction of the paper.

    ``paper: true`` in the config.  A ``config.yaml`` written before that key existed counts
    as one when it states ``deviations`` (every configuration that did then was one).  Only
    such a configuration gets ``vs_paper.md``, "Table 1/2" headings and the "deviations from
    the paper's protocol" line.
    """
    if "paper" in config:
        return config.get("paper") is True
    return bool(config.get("deviations"))


def load_results(folder, seeds=None) -> Results:
    """The :class:`Results` of an experiment folder; :class:`~.store.ResultsError` (one
    line) if its tables cannot be built honestly from it.

    ``seeds`` keeps only those of the configuration's seeds (default: all of them), e.g. the
    seeds a run still in progress has finished.  ``info["notes"]`` says what was left out
    (records of another configuration, an unreadable ``meta.json``, damaged θ paths);
    ``info["paper"]`` whether the configuration reproduces the paper.
    """
    folder = Path(folder)
    records, config, meta, notes = load_folder(folder)
    keys = planned_keys(config, source=str(folder / "config.yaml"))
    datasets = [d["name"] for d in config["datasets"]]
    labels = [m["label"] for m in config["methods"]]
    method_names = {m["label"]: m["name"] for m in config["methods"]}
    planned = resolved_seeds(config) or []
    chosen = select(records, keys)
    if seeds is None:
        seeds = planned
    else:
        seeds = list(dict.fromkeys(seeds))
        unknown = [s for s in seeds if s not in planned]
        if not seeds:
            raise ResultsError("no seeds given: name some of the configuration's seeds.")
        if unknown:
            raise ResultsError(
                f"seed{'s' if len(unknown) > 1 else ''} {', '.join(map(str, unknown))} "
                f"{'are' if len(unknown) > 1 else 'is'} not among the seeds of "
                f"{folder / 'config.yaml'} ({', '.join(map(str, planned))}).")
        chosen = [r for r in chosen if r.seed in seeds]
    other = len(set(latest(records)) - set(keys))
    if other:
        notes.append(f"{other} record{'s' if other > 1 else ''} of another configuration "
                     f"{'are' if other > 1 else 'is'} ignored (this folder's config.yaml does "
                     f"not plan {'them' if other > 1 else 'it'})")
    for r in chosen:
        notes.extend(r.damage)
    info = {"experiment": config.get("name", folder.name), **meta,
            "paper": is_paper_config(config)}
    all_runs = total_wall_seconds(folder)
    if all_runs is not None and "wall_seconds" in info:
        info["wall_seconds_all_runs"] = all_runs
    if "deviations" not in meta or not info["paper"]:
        devs = config.get("deviations", [])
        info["deviations"] = devs if isinstance(devs, list) else []
    if "versions" not in info:
        with_versions = [r for r in chosen if r.versions]
        info["versions"] = with_versions[-1].versions if with_versions else {}
    info["notes"] = notes
    info["seeds"] = seeds
    info["planned_seeds"] = planned
    info["compare_to"] = config.get("compare_to")
    info["code_versions"] = code_versions(r for r in chosen if r.ok)
    summary = summarize(chosen, datasets=datasets, labels=labels,
                        n_outer=config["outer_folds"], method_names=method_names, seeds=seeds)
    return Results(folder=folder, config=config, records=chosen, summary=summary, info=info,
                   datasets=datasets, labels=labels, method_names=method_names, seeds=seeds)


def select(records, keys: dict) -> list[Record]:
    """The latest record of each unit planned in ``keys`` (``key -> (dataset, label, fold)``).

    Records of any other key -- another configuration -- are left out whatever their dataset,
    label and fold.
    """
    out = []
    for key, rec in latest(as_records(records)).items():
        if key not in keys:
            continue
        if (rec.dataset, rec.label, rec.fold) != keys[key]:
            raise ResultsError(f"record {key!r} is for {rec.dataset} / {rec.label} / "
                               f"fold {rec.fold} but its key is that of "
                               f"{' / '.join(map(str, keys[key]))}: the records were edited")
        out.append(rec)
    return out


def code_versions(records) -> dict:
    """``code version -> number of records`` (:attr:`Record.code_version`), as first seen."""
    out: dict = {}
    for r in records:
        out[r.code_version] = out.get(r.code_version, 0) + 1
    return out
