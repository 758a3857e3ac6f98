"""Experiment configuration: a YAML file validated into frozen dataclasses.

A configuration names the datasets, the methods (each parameter given as a list expands into
a grid of variants, as in benchopt, except the tuned parameter -- ``theta`` for the rule
learners, ``max_depth`` for CART -- whose list is the grid searched by the inner CV), the
protocol (outer / inner folds, seed or seeds) and where results go.  Every problem is a
:class:`~rulelearn.errors.ConfigError` naming the file, the line and, for a misspelt key or
name, the closest valid one.  See ``configs/paper.yaml`` for an annotated example.
"""

from __future__ import annotations

import collections
import itertools
import math
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml

from rulelearn._defaults import N_THETAS, THETA_RANGE, log_grid
from rulelearn._params import accepts, allowed, interval, options
from rulelearn._rule_params import CV_FOLDS, RULE_PARAMETERS
from rulelearn._utils import did_you_mean
from rulelearn.bench import EXECUTORS
from rulelearn.bench.methods import METHODS as METHOD_TABLE
from rulelearn.errors import ConfigError, DataError, ParameterError

#: Upper bounds that catch a typo (``outer_folds: 100000``) before it plans millions of units.
MAX_FOLDS = 1000
MAX_GRID = 1000
MAX_SEEDS = 100
MAX_SEED = 2**32 - 1
#: Method variants (after the grids of all method entries are expanded) and units (seeds x
#: datasets x variants x outer folds) of one configuration: a larger one is almost surely a
#: typo, and would take minutes only to plan.
MAX_VARIANTS = 1000
MAX_UNITS = 100_000

TOP_KEYS = ("name", "description", "datasets", "methods", "form", "R", "max_iter", "theta",
            "binarization", "outer_folds", "inner_folds", "seed", "seeds", "jobs", "executor",
            "scheduler", "output", "deviations",
            "paper",  # paper: true -> tables framed against the paper (report.is_paper_config)
            "compare_to",  # the reference method of paired.md (default: the first method)
            "unit_timeout",  # seconds a unit may run (local executor); None: no limit
            "certify")  # certify: true -> each LP method's record has its rule's lower bound
DATASET_KEYS = ("name", "path", "target", "positive", "subsample")
BINARIZATION_KEYS = ("n_thresholds",)

#: The paper's section 4 protocol; a config that departs from it says so in every table.
PAPER_PROTOCOL: dict[str, Any] = {"form": "dnf", "R": 5, "max_iter": 100, "n_thresholds": 10,
                                  "outer_folds": 10, "theta_range": THETA_RANGE}


@dataclass(frozen=True)
class DatasetConfig:
    """A registry dataset (``path`` is None) or a CSV file with its target column."""

    name: str
    path: str | None = None
    target: str | None = None
    positive: Any = None
    subsample: int | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class MethodConfig:
    """One method variant: fixed parameters plus the grid its tuned parameter is chosen from."""

    name: str
    params: dict
    tuned: str | None = None
    grid: tuple = ()
    prefer: str = "larger"
    shown: tuple = ()

    @property
    def label(self) -> str:
        """A deterministic run label such as ``bcd[form=dnf,R=5]`` (benchopt style)."""
        keys = [k for k in ("form", "R") if k in self.params and k in _config_keys(self.name)]
        keys += [k for k in self.shown if k not in keys]
        if not keys:
            return self.name
        return f"{self.name}[{','.join(f'{k}={_fmt(self.params[k])}' for k in keys)}]"

    def to_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "params": dict(self.params),
                "tuned": self.tuned, "grid": list(self.grid), "prefer": self.prefer}


def _is_import_path(name) -> bool:
    from rulelearn.bench.peers import is_import_path

    return is_import_path(name)


def valid_unit_timeout(value) -> bool:
    """A unit timeout is a finite number of seconds > 0."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


def _config_keys(name: str) -> tuple:
    """The config keys of method ``name`` (none for a name the table does not know)."""
    method = METHOD_TABLE.get(name)
    return method.config_keys if method else ()


@dataclass(frozen=True)
class ExperimentConfig:
    name: str
    datasets: tuple[DatasetConfig, ...]
    methods: tuple[MethodConfig, ...]
    form: str = "dnf"
    R: int = 5
    max_iter: int = 100
    theta: tuple[float, ...] = ()
    n_thresholds: int = 10
    outer_folds: int = 10
    inner_folds: int = 10
    #: the whole nested CV is repeated for each seed (``seed: 0`` in YAML is ``seeds: [0]``)
    seeds: tuple[int, ...] = (0,)
    jobs: int | None = None
    executor: str = "local"
    scheduler: str | None = None
    output: str = "results"
    description: str = ""
    deviations: tuple[str, ...] = ()
    source: str | None = field(default=None, compare=False)
    paper: bool = False
    #: the reference method of the paired differences (a method name or label; None: the first)
    compare_to: str | None = None
    #: wall seconds a unit may run before it is stopped and recorded as timed out (None: no
    #: limit); how the run, not the results, is done, so it is not part of the run keys
    unit_timeout: float | None = None
    #: each LP method's record carries the objective, lower bound and gap of its chosen rule
    certify: bool = False

    @property
    def results_dir(self) -> Path:
        return Path(self.output) / self.name

    def protocol_deviations(self) -> list[str]:
        """The stated deviations plus every departure from the paper's protocol."""
        out = list(self.deviations)
        p = PAPER_PROTOCOL
        if self.form != p["form"]:
            out.append(f"form {self.form} (paper: {p['form']})")
        if self.R != p["R"]:
            out.append(f"R = {self.R} (paper: {p['R']})")
        if self.max_iter != p["max_iter"]:
            out.append(f"max_iter = {self.max_iter} (paper: {p['max_iter']})")
        if self.n_thresholds != p["n_thresholds"]:
            out.append(f"{self.n_thresholds} quantile thresholds (paper: {p['n_thresholds']})")
        if self.outer_folds != p["outer_folds"]:
            out.append(f"{self.outer_folds}-fold outer CV (paper: {p['outer_folds']})")
        lo, hi = p["theta_range"]
        if self.theta and (min(self.theta) < lo or max(self.theta) > hi):
            out.append(f"theta grid [{min(self.theta):g}, {max(self.theta):g}] "
                       f"(paper: [{lo:g}, {hi:g}])")
        for d in self.datasets:
            if d.subsample:
                out.append(f"{d.name}: stratified subsample of {d.subsample} rows")
        return out

    def to_dict(self) -> dict:
        """The resolved configuration (written next to the records as ``config.yaml``)."""
        return {
            "name": self.name, "description": self.description,
            "datasets": [d.to_dict() for d in self.datasets],
            "methods": [m.to_dict() for m in self.methods],
            "form": self.form, "R": self.R, "max_iter": self.max_iter, "theta": list(self.theta),
            "binarization": {"n_thresholds": self.n_thresholds},
            "outer_folds": self.outer_folds, "inner_folds": self.inner_folds,
            **({"seed": self.seeds[0]} if len(self.seeds) == 1 else {"seeds": list(self.seeds)}),
            "jobs": self.jobs, "executor": self.executor, "scheduler": self.scheduler,
            "output": self.output, "deviations": list(self.deviations),
            "paper": self.paper,
            **({"compare_to": self.compare_to} if self.compare_to else {}),
            **({"unit_timeout": self.unit_timeout} if self.unit_timeout is not None else {}),
            **({"certify": True} if self.certify else {}),
        }


# ----------------------------------------------------------------------------------------------
# loading


def load_config(path: str | os.PathLike, *, allow_import=()) -> ExperimentConfig:
    """Read and validate a YAML experiment file (``allow_import``: see :func:`parse_config`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"Cannot read config file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"Cannot read config file {path}: not UTF-8 text ({exc.reason} at "
                          f"byte {exc.start}).") from None
    return parse_config(text, source=str(path), allow_import=allow_import)


class _NoAliasLoader(yaml.SafeLoader):
    """A safe loader that refuses anchors and aliases (``&a`` / ``*a``): a config does not need
    them, and nested aliases expand a few hundred bytes into gigabytes (or, recursive, into a
    structure without end)."""

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            mark = event.start_mark
            raise ConfigError(f"{self.source} line {mark.line + 1}, column {mark.column + 1}: "
                              f"YAML anchors and aliases (&name, *name) are not allowed in a "
                              f"config; write the values out.")
        return super().compose_node(parent, index)


def _compose(text: str, source: str):
    """``(node, data)`` of YAML ``text``: its node tree (for line numbers) and its values."""
    loader = _NoAliasLoader(text)
    loader.source = source
    try:
        node = loader.get_single_node()
        return node, (None if node is None else loader.construct_document(node))
    finally:
        loader.dispose()


def parse_config(text: str, *, source: str = "<config>", allow_import=()) -> ExperimentConfig:
    """Validate YAML text into an :class:`ExperimentConfig`.

    ``allow_import``: import prefixes (``mypackage``, ``mypackage.models``) whose classes a method
    may name, beyond :data:`~rulelearn.bench.peers.TRUSTED_PACKAGES`. A config is data: a name
    outside them is refused before anything is imported.
    """
    try:
        node, data = _compose(text, source)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{source}{where}: malformed YAML: {problem}") from None
    except RecursionError:
        raise ConfigError(f"{source}: the YAML is nested too deeply to be a config.") from None
    lines: dict = {}
    if node is not None:
        _collect_lines(node, (), lines)
    return _Validator(source, lines, tuple(allow_import)).config(data)


def _collect_lines(node, path, lines):
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value
            lines[path + (k,)] = key.start_mark.line + 1
            _collect_lines(value, path + (k,), lines)
            lines[path + (k,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _collect_lines(item, path + (i,), lines)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


class _Validator:
    def __init__(self, source, lines, allow_import=()):
        self.allow_import = allow_import
        self.source = source
        self.lines = lines

    def fail(self, path, message) -> NoReturn:
        line = None
        p = tuple(path)
        while p and line is None:
            line = self.lines.get(p)
            p = p[:-1]
        where = f" line {line}" if line else ""
        dotted = ".".join(str(x) for x in path)
        key = f" ({dotted})" if dotted else ""
        raise ConfigError(f"{self.source}{where}{key}: {message}")

    def entries(self, value, path, empty: str) -> list:
        """A list of entries (a single entry becomes a list of one); none is an error."""
        if not value:
            self.fail(path, empty)
        return value if isinstance(value, list) else [value]

    def check_keys(self, mapping, allowed, path):
        for key in mapping:
            if key not in allowed:
                self.fail(tuple(path) + (key,),
                          f"unknown key '{key}'.{did_you_mean(key, allowed)} "
                          f"Allowed: {', '.join(allowed)}.")

    def int_(self, value, path, *, minimum=None, maximum=None, allow_none=False):
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be an integer. Got {value!r}.")
        if minimum is not None and value < minimum:
            self.fail(path, f"must be >= {minimum}. Got {value}.")
        if maximum is not None and value > maximum:
            self.fail(path, f"must be <= {maximum}. Got {value}.")
        return value

    def declared(self, constraints, value, path):
        """``value``, if its declaration allows it (:mod:`rulelearn._rule_params`, what the
        estimators and ``rulelearn fit`` allow too); "must be an integer" for another value
        where integers are declared."""
        if interval(constraints).kind is numbers.Integral:
            self.int_(value, path)
        if not accepts(constraints, value):
            self.fail(path, f"must be {allowed(constraints)}. Got {value!r}.")
        return value

    def str_(self, value, path, *, allow_none=True):
        if value is None and allow_none:
            return None
        if not isinstance(value, str):
            self.fail(path, f"must be a string. Got {value!r}.")
        self.no_nul(value, path)
        return value

    def no_nul(self, value, path):
        """A text that names a file or folder cannot hold a NUL character."""
        if isinstance(value, str) and "\0" in value:
            self.fail(path, f"must not contain a NUL character (\\0). Got {value!r}.")

    def config(self, data) -> ExperimentConfig:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            self.fail((), f"the top level must be a mapping of keys. Got {type(data).__name__}.")
        self.check_keys(data, TOP_KEYS, ())
        name = data.get("name") or Path(self.source).stem
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            self.fail(("name",), f"must be a plain folder name. Got {name!r}.")
        self.no_nul(name, ("name",))
        form = data.get("form", "dnf")
        forms = options(RULE_PARAMETERS, "form")
        if form not in forms:
            allowed = ", ".join(repr(f) for f in sorted(forms))
            self.fail(("form",), f"must be one of {{{allowed}}}. Got {form!r}.")
        R = self.declared(RULE_PARAMETERS["max_rules"], data.get("R", 5), ("R",))
        max_iter = self.declared(RULE_PARAMETERS["max_iter"], data.get("max_iter", 100),
                                 ("max_iter",))
        theta = self.theta(data.get("theta", {"log": list(THETA_RANGE), "num": N_THETAS}),
                           ("theta",))
        binar = data.get("binarization", {}) or {}
        if not isinstance(binar, dict):
            self.fail(("binarization",), "must be a mapping such as {n_thresholds: 10}.")
        self.check_keys(binar, BINARIZATION_KEYS, ("binarization",))
        n_thr = self.declared(RULE_PARAMETERS["n_thresholds"], binar.get("n_thresholds", 10),
                              ("binarization", "n_thresholds"))
        outer = self.declared(CV_FOLDS, data.get("outer_folds", 10), ("outer_folds",))
        inner = self.declared(CV_FOLDS, data.get("inner_folds", 10), ("inner_folds",))
        for folds, key in ((outer, "outer_folds"), (inner, "inner_folds")):
            self.int_(folds, (key,), maximum=MAX_FOLDS)
        seeds = self.seeds(data)
        jobs = self.int_(data.get("jobs"), ("jobs",), minimum=1, allow_none=True)
        unit_timeout = self.unit_timeout(data.get("unit_timeout"))
        executor = data.get("executor", "local")
        if executor not in EXECUTORS:
            self.fail(("executor",), f"must be one of {EXECUTORS}. Got {executor!r}."
                      f"{did_you_mean(executor, EXECUTORS)}")
        scheduler = self.str_(data.get("scheduler"), ("scheduler",))
        output = data.get("output", "results")
        if not isinstance(output, str) or not output.strip():
            self.fail(("output",), f"must be a folder path. Got {output!r}.")
        self.no_nul(output, ("output",))
        description = self.str_(data.get("description"), ("description",)) or ""
        deviations = data.get("deviations") or []
        if isinstance(deviations, str):
            deviations = [deviations]
        if not isinstance(deviations, list) or not all(isinstance(d, str) for d in deviations):
            self.fail(("deviations",), f"must be a list of sentences. Got {deviations!r}.")
        paper = self.flag(data, "paper", "a reproduction of the paper")
        certify = self.flag(data, "certify", "a lower bound in each LP method's record")
        defaults = {"form": form, "R": R, "max_iter": max_iter, "n_thresholds": n_thr,
                    "theta": theta, "certify": certify}
        datasets = self.datasets(data.get("datasets"))
        methods = self.methods(data.get("methods"), defaults)
        compare_to = self.compare_to(data.get("compare_to"), methods)
        units = len(seeds) * len(datasets) * len(methods) * outer
        if units > MAX_UNITS:
            self.fail(("methods",), f"{len(seeds)} seed(s) x {len(datasets)} dataset(s) x "
                                    f"{len(methods)} method variant(s) x {outer} outer folds "
                                    f"make {units:,} units; at most {MAX_UNITS:,}.")
        return ExperimentConfig(
            name=name, datasets=datasets, methods=methods, form=form, R=R, max_iter=max_iter,
            theta=theta, n_thresholds=n_thr, outer_folds=outer, inner_folds=inner, seeds=seeds,
            jobs=jobs, executor=executor, scheduler=scheduler, output=output,
            description=description,
            deviations=tuple(str(d) for d in deviations), source=self.source, paper=paper,
            compare_to=compare_to, unit_timeout=unit_timeout, certify=certify)

    def unit_timeout(self, value) -> float | None:
        """``unit_timeout: 600``: seconds > 0, or absent (no limit)."""
        if value is None:
            return None
        if not valid_unit_timeout(value):
            self.fail(("unit_timeout",), f"must be a number of seconds > 0. Got {value!r}.")
        return float(value)

    def flag(self, data, key: str, meaning: str) -> bool:
        """The true/false value of top-level ``key`` (false when absent)."""
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.fail((key,), f"must be true ({meaning}) or false. Got {value!r}.")
        return value

    def compare_to(self, value, methods) -> str | None:
        """The method ``compare_to`` names: a run label, or a method name met once (either
        case-insensitive, as ``table --against`` reads it)."""
        if value is None:
            return None
        labels = [m.label for m in methods]
        names = [m.name for m in methods]
        key = value.lower() if isinstance(value, str) else None
        if key in [lab.lower() for lab in labels] or names.count(key) == 1:
            return value
        if names.count(key) > 1:
            same = ", ".join(lab for lab, n in zip(labels, names) if n == key)
            self.fail(("compare_to",), f"'{value}' names {names.count(key)} method entries; "
                                       f"give one of their labels: {same}.")
        self.fail(("compare_to",), f"must name one of the methods ({', '.join(labels)}). "
                                   f"Got {value!r}.{did_you_mean(str(value), names)}")

    def seeds(self, data: dict) -> tuple:
        """``seeds: [0, 1, 2]`` (distinct integers >= 0), or ``seed: 0`` meaning ``[0]``."""
        if "seed" in data and "seeds" in data:
            self.fail(("seeds",), "give either 'seed' (one seed) or 'seeds' (a list), not both.")
        if "seeds" not in data:
            return (self.int_(data.get("seed", 0), ("seed",), minimum=0, maximum=MAX_SEED),)
        value = data["seeds"]
        if not isinstance(value, list):
            self.fail(("seeds",), f"must be a list of integers such as [0, 1, 2]. Got {value!r}.")
        if not value:
            self.fail(("seeds",), "the list is empty; give at least one seed.")
        if len(value) > MAX_SEEDS:
            self.fail(("seeds",), f"has {len(value)} seeds; at most {MAX_SEEDS}.")
        out = tuple(self.int_(v, ("seeds", i), minimum=0, maximum=MAX_SEED)
                    for i, v in enumerate(value))
        dup = sorted({s for s in out if out.count(s) > 1})
        if dup:
            self.fail(("seeds",), f"seeds must be distinct. Repeated: "
                                  f"{', '.join(map(str, dup))}.")
        return out

    def theta(self, value, path, what="theta", constraints=RULE_PARAMETERS["theta"]) -> tuple:
        """A grid of numbers ``constraints`` allows (θ's: finite, >= 0): a list, one number or
        ``{log: [low, high], num: N}``."""
        if isinstance(value, dict):
            return self.log_theta(value, path, what)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            self.fail(path, "must be a list of numbers or {log: [low, high], num: N}. "
                            f"Got {value!r}.")
        if not value:
            self.fail(path, f"the {what} grid is empty; give at least one value.")
        if len(value) > MAX_GRID:
            self.fail(path, f"the {what} grid has {len(value)} values; at most {MAX_GRID}.")
        out = []
        for i, v in enumerate(value):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.fail(tuple(path) + (i,), f"{what} must be a number. Got {v!r}.")
            if not math.isfinite(v):
                self.fail(tuple(path) + (i,), f"{what} must be a finite number. Got {v!r}.")
            if not accepts(constraints, float(v)):
                self.fail(tuple(path) + (i,), f"{what} must be {allowed(constraints)}. Got {v}.")
            out.append(float(v))
        return tuple(sorted(set(out)))

    def log_theta(self, value: dict, path, what="theta") -> tuple:
        """``{log: [low, high], num: N}``: N log-spaced values (:func:`log_grid`)."""
        self.check_keys(value, ("log", "num"), path)
        rng, num = value.get("log"), value.get("num", N_THETAS)
        if (not isinstance(rng, list) or len(rng) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in rng)):
            self.fail(tuple(path) + ("log",), f"must be [low, high]. Got {rng!r}.")
        self.int_(num, tuple(path) + ("num",), minimum=1)
        if num > MAX_GRID:
            self.fail(tuple(path) + ("num",), f"must be <= {MAX_GRID}. Got {num}.")
        lo, hi = float(rng[0]), float(rng[1])
        for j, v in enumerate((lo, hi)):
            if not math.isfinite(v):
                self.fail(tuple(path) + ("log", j), f"{what} must be a finite number. Got {v!r}.")
        if lo <= 0 or hi < lo:
            self.fail(tuple(path) + ("log",), f"needs 0 < low <= high. Got [{lo:g}, {hi:g}].")
        return log_grid(lo, hi, num)

    def datasets(self, value) -> tuple:
        path = ("datasets",)
        value = self.entries(value, path,
                             "give at least one dataset (a registry name or {name, path, target}).")
        out = []
        for i, item in enumerate(value):
            p = path + (i,)
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, dict):
                self.fail(p, f"must be a registry name or a mapping. Got {item!r}.")
            self.check_keys(item, DATASET_KEYS, p)
            name = item.get("name")
            csv = item.get("path")
            if csv is None:
                if not isinstance(name, str):
                    self.fail(p, "a dataset needs a registry 'name' or a CSV 'path'.")
                self.registry_name(name, p + ("name",))
            else:
                csv = self.str_(csv, p + ("path",))
                if name is not None and not isinstance(name, str):
                    self.fail(p + ("name",), f"must be a string. Got {name!r}.")
                self.no_nul(name, p + ("name",))
                name = name or Path(csv).stem
            self.str_(item.get("target"), p + ("target",))
            positive = item.get("positive")
            if positive is not None and not isinstance(positive, (str, int, float)):
                self.fail(p + ("positive",), f"must be one class label. Got {positive!r}.")
            sub = self.int_(item.get("subsample"), p + ("subsample",), minimum=4, allow_none=True)
            out.append(DatasetConfig(name=name, path=csv, target=item.get("target"),
                                     positive=item.get("positive"), subsample=sub))
        names = [d.name for d in out]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            self.fail(path, f"dataset names must be unique. Repeated: {', '.join(sorted(dup))}.")
        return tuple(out)

    def param(self, method, key, value, path):
        """Check one value of a method parameter (what the estimator would refuse at fit time)."""
        choices = method.choices(key)
        if choices:
            if value not in choices:
                names = ", ".join(repr(c) for c in sorted(choices))
                self.fail(path, f"must be one of {{{names}}}. Got {value!r}."
                          f"{did_you_mean(value, choices)}")
        elif key in ("k", "n_discretize_bins"):
            self.int_(value, path, minimum=1)
        elif key in ("max_rules", "max_rule_conds"):
            self.int_(value, path, minimum=1, allow_none=True)
        elif key == "min_samples_leaf":
            if isinstance(value, float) and 0 < value < 1:
                return
            if isinstance(value, float):
                self.fail(path, f"must be an integer >= 1 or a fraction in (0, 1). Got {value!r}.")
            self.int_(value, path, minimum=1)
        elif key == "prune_size":
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 0 < value < 1):
                self.fail(path, f"must be a fraction in (0, 1). Got {value!r}.")
        elif method.declared(key) is not None:
            try:
                method.check(key, value)
            except ParameterError as exc:
                self.fail(path, f"{exc}")

    def registry_name(self, name, path):
        from rulelearn.data import get_spec

        try:
            get_spec(name)
        except DataError as exc:  # with its own "did you mean"
            self.fail(path, str(exc))

    def methods(self, value, defaults) -> tuple:
        path = ("methods",)
        known = list(METHOD_TABLE)
        value = self.entries(value, path, f"give at least one method among {', '.join(known)}.")
        out: list[MethodConfig] = []
        for i, item in enumerate(value):
            p: tuple = path + (i,)
            params: dict
            if isinstance(item, str):
                name, params = item, {}
            elif isinstance(item, dict) and len(item) == 1:
                (name, params), = item.items()
                params = params or {}
                p = p + (name,)
            else:
                self.fail(p, f"a method is a name or {{name: {{param: value}}}}. Got {item!r}.")
            if _is_import_path(name):  # a classifier named by import path (bench/peers.py)
                out.extend(self.import_path(name, params, p, room=MAX_VARIANTS - len(out)))
                continue
            if name not in METHOD_TABLE:
                self.fail(p, f"unknown method '{name}'.{did_you_mean(name, known)} "
                          f"Known: {', '.join(known)}.")
            if not isinstance(params, dict):
                self.fail(p, f"the parameters of '{name}' must be a mapping. Got {params!r}.")
            self.check_keys(params, METHOD_TABLE[name].config_keys, p)
            out.extend(self.expand(name, params, defaults, p, room=MAX_VARIANTS - len(out)))
        counts = collections.Counter(m.label for m in out)
        dup = {lab for lab, n in counts.items() if n > 1}
        if dup:
            self.fail(path, "two method entries give the same run label: "
                            f"{', '.join(sorted(dup))}.")
        return tuple(out)

    def import_path(self, name, params, path, room=MAX_VARIANTS) -> list:
        """``- imodels.FIGSClassifier: {max_rules: [5, 10]}``: the class must import; its first
        parameter given as a list is the inner CV's grid (numbers or null; the smaller is the
        simpler), further lists expand into variants; every key must be a parameter of the
        class."""
        import inspect

        from rulelearn.bench.peers import resolve
        from rulelearn.errors import RuleLearnError

        try:
            cls = resolve(name, allow=self.allow_import)
        except RuleLearnError as exc:
            self.fail(path, str(exc))
        if not isinstance(params, dict):
            self.fail(path, f"the parameters of '{name}' must be a mapping. Got {params!r}.")
        accepted = inspect.signature(cls).parameters
        if not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
            self.check_keys(params, [k for k in accepted if k != "self"], path)
        lists = [k for k, v in params.items() if isinstance(v, list)]
        tuned = lists[0] if lists else None
        grid: tuple = ()
        if tuned is not None:
            values = params[tuned]
            if not values:
                self.fail(path + (tuned,), f"the {tuned} grid is empty.")
            for j, v in enumerate(values):
                if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                    self.fail(path + (tuned, j), f"a tuned value must be a number or null. "
                                                 f"Got {v!r}.")
            grid = tuple(sorted(set(values), key=lambda v: math.inf if v is None else v))
        varying = {k: (v if isinstance(v, list) else [v]) for k, v in params.items()
                   if k != tuned}
        if any(not v for v in varying.values()):
            self.fail(path, "a parameter list is empty.")
        n = math.prod(len(v) for v in varying.values())
        if n > room:
            self.fail(path, f"the parameter lists of '{name}' make {n:,} method variants; at "
                            f"most {MAX_VARIANTS:,} in all the methods of a config.")
        return [MethodConfig(name=name, params=dict(zip(varying, combo)), tuned=tuned,
                             grid=grid, prefer="smaller", shown=tuple(varying))
                for combo in itertools.product(*varying.values())]

    def expand(self, name, params, defaults, path, room=MAX_VARIANTS):
        method = METHOD_TABLE[name]
        tuned, prefer = method.tuned, method.simpler
        explicit = [k for k in params if k != tuned and k not in ("form", "R")]
        grid = self.tuned_grid(method, params, defaults, path)
        if method.paper_rule:
            base = {k: defaults[k] for k in ("form", "R", "max_iter", "n_thresholds")}
            if defaults.get("certify"):  # in the run key only when asked for
                base["certify"] = True
        else:  # another rule learner (BRCG): the experiment's form and binarization
            base = {k: defaults[k] for k in ("form", "n_thresholds") if k in method.config_keys}
        base.update(method.fixed)
        varying = {k: v for k, v in params.items() if k != tuned}
        keys = list(varying)
        for k in keys:
            vals = varying[k] if isinstance(varying[k], list) else [varying[k]]
            for v in vals:
                self.param(method, k, v, path + (k,))
        lists = [varying[k] if isinstance(varying[k], list) else [varying[k]] for k in keys]
        if any(len(v) == 0 for v in lists):
            self.fail(path, "a parameter list is empty.")
        n = math.prod(len(v) for v in lists)
        if n > room:
            before = MAX_VARIANTS - room
            also = f" (and the entries above {before:,})" if before else ""
            self.fail(path, f"the parameter lists of '{name}' make {n:,} method variants"
                            f"{also}; at most {MAX_VARIANTS:,} in all the methods of a config.")
        out = []
        for combo in itertools.product(*lists):
            p = dict(base)
            p.update(zip(keys, combo))
            out.append(MethodConfig(name=name, params=p, tuned=tuned, grid=tuple(grid),
                                    prefer=prefer, shown=tuple(explicit)))
        return out

    def tuned_grid(self, method, params, defaults, path) -> tuple:
        """The grid of the tuned parameter: θ values, other numbers >= 0 (BRCG's lambda1), or
        integers >= 1 and None (CART depths)."""
        tuned = method.tuned
        if tuned is None:
            return ()
        if tuned == "theta":
            return (self.theta(params["theta"], path + ("theta",)) if "theta" in params
                    else defaults["theta"])
        if any(isinstance(v, float) for v in method.default_grid):  # a real grid (BRCG's lambda1)
            declared = method.estimator._parameter_constraints[tuned]
            return (self.theta(params[tuned], path + (tuned,), what=tuned, constraints=declared)
                    if tuned in params else tuple(method.default_grid))
        values = params.get(tuned, list(method.default_grid))
        values = values if isinstance(values, list) else [values]
        if not values:
            self.fail(path + (tuned,), f"the {tuned} grid is empty.")
        for j, v in enumerate(values):
            if v is not None:
                self.int_(v, path + (tuned, j), minimum=1)
        return tuple(sorted(set(values), key=lambda v: math.inf if v is None else v))
