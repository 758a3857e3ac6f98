"""The benchmark's evaluation protocol (the paper's section 4), as pure functions (no I/O).

For each outer fold of a stratified K-fold split: the method sees the outer training part
only.  Its tuned parameter (θ for the rule learners) is chosen by an inner stratified CV on
that part -- the candidate with the lowest mean validation error, ties going to the simpler
model (the larger θ) --, the method is refitted on the whole training part with the chosen
value, and the rule is scored once on the outer test part.  Each fit gets raw rows only (the
estimator fits its binarizer inside ``fit``), so nothing from a test or validation part can
reach a fit.  The folds, the candidate fits and the tie rule are the core's
(:mod:`rulelearn.model_selection`), shared with ``rulelearn fit``.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone

from rulelearn._utils import error_rate
from rulelearn.errors import DataError
from rulelearn.model_selection import choose, cv_scores, stratified_folds, take_rows


def stable_seed(*parts) -> int:
    """A 32-bit seed from ``parts`` (ints and strings) that is stable across runs and machines.

    Unlike ``hash``, it does not depend on ``PYTHONHASHSEED``; adding a dataset to an
    experiment does not change the seed (so the splits) of another.
    """
    blob = json.dumps([str(p) for p in parts], separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:4], "big")


def check_stratifiable(y, n_splits: int, *, what: str) -> None:
    """Raise :class:`DataError` when a class has fewer members than ``n_splits``."""
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    labels = labels.tolist()
    if len(labels) < 2:
        raise DataError(f"{what} has a single class ({labels[0]!r}); cannot cross-validate.")
    i = int(np.argmin(counts))
    if counts[i] < n_splits:
        raise DataError(
            f"{what}: {n_splits} folds need at least {n_splits} members of every class, but "
            f"class {labels[i]!r} has {counts[i]}. Lower the number of folds.")


def outer_folds(y, n_splits: int, seed: int, dataset: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The outer folds of ``dataset``; the seed is derived from (seed, dataset name)."""
    return stratified_folds(y, n_splits, stable_seed(seed, dataset, "outer"))


def inner_seed(seed: int, dataset: str, fold: int) -> int:
    return stable_seed(seed, dataset, "inner", fold)


def check_protocol(y, *, outer: int, inner: int, seed: int, dataset: str) -> None:
    """Check up front that every outer and inner split of ``dataset`` is feasible."""
    check_stratifiable(y, outer, what=f"dataset '{dataset}' (outer CV)")
    y = np.asarray(y)
    for k, (train, _) in enumerate(outer_folds(y, outer, seed, dataset)):
        check_stratifiable(y[train], inner,
                           what=f"the training part of outer fold {k} of dataset '{dataset}' "
                                f"(inner_folds)")


@dataclass
class TuneResult:
    index: int
    value: object
    mean_errors: list = field(default_factory=list)


def tune(estimator, X, y, *, param, grid, prefer="larger", inner_folds=10, seed=0) -> TuneResult:
    """Choose ``param`` from ``grid`` by stratified inner CV on (X, y)."""
    grid = list(grid)
    if param is None or len(grid) <= 1:
        return TuneResult(0, grid[0] if grid else None, [])
    folds = stratified_folds(np.asarray(y), inner_folds, seed)
    mean = cv_scores(estimator, X, y, folds, param, grid).mean(axis=0)
    i = choose(mean, grid, prefer)
    return TuneResult(i, grid[i], [float(e) for e in mean])


@dataclass
class FoldResult:
    """What one outer fold produced: the refitted model and its scores."""

    model: object
    chosen: object
    inner_errors: list
    train_error: float
    test_error: float
    tune_seconds: float
    fit_seconds: float
    n_train: int
    n_test: int


def evaluate_fold(estimator, X, y, train, test, *, param=None, grid=(), prefer="larger",
                  inner_folds=10, seed=0) -> FoldResult:
    """Tune on ``X[train]`` by inner CV, refit on all of ``X[train]``, score on ``X[test]``.

    ``X[test]`` is used once, after the final fit, for the test error.
    """
    y = np.asarray(y)
    X_tr, y_tr = take_rows(X, train), y[train]
    t0 = time.perf_counter()
    result = tune(estimator, X_tr, y_tr, param=param, grid=grid, prefer=prefer,
                  inner_folds=inner_folds, seed=seed)
    t1 = time.perf_counter()
    final = clone(estimator)
    if param is not None and grid:
        final.set_params(**{param: result.value})
    final.fit(X_tr, y_tr)
    t2 = time.perf_counter()
    return FoldResult(
        model=final, chosen=result.value, inner_errors=result.mean_errors,
        train_error=error_rate(final, X_tr, y_tr),
        test_error=error_rate(final, take_rows(X, test), y[test]),
        tune_seconds=t1 - t0, fit_seconds=t2 - t1, n_train=len(train), n_test=len(test))
