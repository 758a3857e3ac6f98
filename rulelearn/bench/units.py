"""One unit of an experiment: its data, its estimator, and the record it gives.

A *unit* is one seed, one dataset, one method variant and one outer fold
(:func:`rulelearn.bench.experiment.plan` lists them); :func:`run_unit` runs it wherever an
executor (:mod:`.executors`) puts it and returns its record, never raising.
"""

from __future__ import annotations

import datetime as _dt
import platform
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulelearn.bench import baselines, protocol
from rulelearn.bench.certificates import certificate_of
from rulelearn.bench.config import DatasetConfig, MethodConfig
from rulelearn.bench.methods import METHODS
from rulelearn.bench.records import unit_record
from rulelearn.bench.store import non_finite
from rulelearn.errors import ConfigError
from rulelearn.model_selection import take_rows


@dataclass(frozen=True)
class Unit:
    """One piece of work: a method variant on one outer fold of one dataset, for one seed."""

    key: str
    dataset: str
    method: MethodConfig
    fold: int
    n_outer: int
    inner_folds: int
    seed: int
    experiment: str
    #: what the unit's data was when planned (:func:`~.fingerprint.data_fingerprint`); kept
    #: in its record
    data_fingerprint: str | None = None
    #: the code its method's results depend on (:func:`~.fingerprint.code_fingerprint`);
    #: kept in its record
    code_fingerprint: str | None = None


@dataclass
class PreparedData:
    """A loaded dataset (after an optional stratified subsample)."""

    name: str
    X: object
    y: np.ndarray
    positive: object
    source: str = ""
    #: certificates of earlier records by bound key (:func:`known_bounds`): a bound that
    #: another method's record holds for the same problem is reused, not recomputed
    bounds: dict = field(default_factory=dict)


def load_data(d: DatasetConfig, *, seed: int = 0, mirror=None) -> PreparedData:
    """Load a registry or CSV dataset (through :mod:`rulelearn.data`) and subsample it."""
    return subsample(read_data(d, mirror=mirror), d, seed=seed)


def read_data(d: DatasetConfig, *, mirror=None) -> PreparedData:
    """Load a registry or CSV dataset (through :mod:`rulelearn.data`), all of its rows."""
    from rulelearn import data as data_layer

    if d.path is not None:
        ds = data_layer.read_csv_dataset(d.path, target=d.target, positive=d.positive,
                                         name=d.name)
    else:
        ds = data_layer.load_dataset(d.name, mirror=mirror)
    positive = d.positive if (d.positive is not None and d.path is None) else ds.positive
    return PreparedData(name=d.name, X=ds.X, y=np.asarray(ds.y), positive=positive,
                        source=str(getattr(ds, "source", "")))


def subsample(data: PreparedData, d: DatasetConfig, *, seed: int) -> PreparedData:
    """The stratified subsample ``d`` asks for, drawn with ``seed`` (``data`` itself if none)."""
    if not d.subsample or d.subsample >= len(data.y):
        return data
    from sklearn.model_selection import train_test_split
    keep, _ = train_test_split(np.arange(len(data.y)), train_size=d.subsample, stratify=data.y,
                               random_state=protocol.stable_seed(seed, d.name, "subsample"))
    keep = np.sort(keep)
    X: Any = data.X  # a DataFrame
    return PreparedData(name=d.name, X=X.iloc[keep].reset_index(drop=True),
                        y=data.y[keep], positive=data.positive, source=data.source)


def make_estimator(method: MethodConfig, *, pos_label, random_state):
    """An unfitted estimator for ``method`` (its tuned parameter set by the caller)."""
    entry = METHODS.get(method.name)
    if entry is None:
        raise ConfigError(f"unknown method {method.name!r}")
    return entry.build(method.params, method.grid, pos_label, random_state)


def failed_record(unit: Unit, reason: str) -> dict:
    return unit_record(unit, status="failed", error=reason, finished_at=_now(),
                       versions=versions())


#: The start of a timed-out record's ``error``.
TIMED_OUT = "timed out"


def timeout_record(unit: Unit, seconds: float) -> dict:
    """The record of a unit stopped after ``seconds`` (status ``timeout``): its cell is
    missing, with this reason, and the unit runs again only with a longer limit (or force)."""
    return unit_record(unit, status="timeout", error=f"{TIMED_OUT} after {seconds:g} s "
                       "(unit_timeout)", timeout=seconds, finished_at=_now(),
                       versions=versions())


def run_unit(unit: Unit, data: PreparedData) -> dict:
    """Run one unit and return its record (``status`` ``ok`` or ``failed``); never raises."""
    t0 = time.perf_counter()
    try:
        folds = protocol.outer_folds(data.y, unit.n_outer, unit.seed, unit.dataset)
        train, test = folds[unit.fold]
        m = unit.method
        est = make_estimator(
            m, pos_label=data.positive,
            random_state=protocol.stable_seed(unit.seed, unit.dataset, "estimator", unit.fold))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = protocol.evaluate_fold(
                est, data.X, data.y, train, test, param=m.tuned, grid=m.grid, prefer=m.prefer,
                inner_folds=unit.inner_folds,
                seed=protocol.inner_seed(unit.seed, unit.dataset, unit.fold))
        extra = {}
        if m.params.get("certify"):
            extra["certificate"] = certificate_of(res.model, take_rows(data.X, train),
                                                  data.y[train], data.bounds)
        rec = unit_record(
            unit, status="ok", warnings=sorted({str(w.message) for w in caught}), **extra,
            **baselines.describe(res.model), error=None, chosen=res.chosen,
            theta=res.chosen if m.tuned == "theta" else None, inner_errors=res.inner_errors,
            test_error=res.test_error, train_error=res.train_error, path=res.path,
            n_train=res.n_train, n_test=res.n_test, positive=data.positive,
            fit_seconds=res.fit_seconds, tune_seconds=res.tune_seconds,
            total_seconds=time.perf_counter() - t0, finished_at=_now(),
            host=platform.node(), versions=versions(m.name))
        where = non_finite(rec)
        if where:  # e.g. an LP objective that overflowed: not a result
            return failed_record(unit, f"non-finite value in field '{where}'")
        return rec
    except Exception as exc:  # noqa: BLE001 - a failed unit is a record, not a crash
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return failed_record(unit, f"{type(exc).__name__}: {msg}")


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def versions(method: str | None = None) -> dict:
    """Versions of the packages a result depends on."""
    from importlib import metadata

    from rulelearn import __version__

    out: dict[str, str | None] = {"python": platform.python_version(), "rulelearn": __version__}
    names = ["numpy", "highspy", "scikit-learn", "pandas"]
    requires = METHODS[method].requires if method in METHODS else None
    if requires:
        names.append(requires[0])
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out
