"""Choosing θ for a single fit: stratified K-fold CV over a log grid, then a refit on all data.

This is what ``rulelearn fit`` does without ``--theta``. The benchmark's nested protocol lives
in :mod:`rulelearn.selection`; both use the same folds
(:func:`~rulelearn.selection.stratified_folds`), the same θ path (one LP model per fold serves
the whole grid) and the same tie rule (equal mean validation errors go to the larger θ, the
sparser rule).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from rulelearn.errors import DataError
from rulelearn.selection import choose, error_rate, fit_candidates, stratified_folds

#: Default θ grid: 8 values, evenly spaced on a log scale over [1e-4, 50].
DEFAULT_THETAS = tuple(float(t) for t in np.geomspace(1e-4, 50, 8))


def n_folds(y, cv: int = 5) -> int:
    """Folds actually used: ``min(cv, size of the smallest class)``; at least 2.

    Raises :class:`DataError` when a class has fewer than 2 members (nothing to validate on).
    """
    if cv < 2:
        raise DataError(f"cross-validation needs at least 2 folds, got {cv}")
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    if len(labels) < 2:
        raise DataError("cannot choose theta by cross-validation: y has a single class")
    smallest = int(counts.min())
    if smallest < 2:
        label = labels[int(np.argmin(counts))]
        raise DataError(f"cannot choose theta by cross-validation: class {label!s} has only "
                        f"{smallest} row; give --theta instead")
    return min(cv, smallest)


def select_theta(estimator, X, y, thetas=DEFAULT_THETAS, cv: int = 5, seed: int = 0
                 ) -> tuple[float, list[float]]:
    """``(best θ, mean validation error per θ)`` by stratified K-fold CV on ``(X, y)``.

    K is :func:`n_folds` ``(y, cv)``; folds are ``StratifiedKFold(shuffle=True,
    random_state=seed)``. Each training part is fitted once for the whole grid
    (``estimator.fit_path``). The lowest mean error wins; ties go to the larger θ.
    """
    thetas = [float(t) for t in np.atleast_1d(thetas)]
    if not thetas:
        raise ValueError("thetas is empty")
    y = np.asarray(y)
    k = n_folds(y, cv)
    errors = np.zeros((k, len(thetas)))
    codes = np.unique(y, return_inverse=True)[1]  # the same folds; float labels allowed
    for fold, (train, valid) in enumerate(stratified_folds(codes, k, seed)):
        models = fit_candidates(estimator, _rows(X, train), y[train], "theta", thetas)
        errors[fold] = [error_rate(m, _rows(X, valid), y[valid]) for m in models]
    mean = [float(e) for e in errors.mean(axis=0)]
    return thetas[choose(mean, thetas, "larger")], mean


@dataclass(frozen=True)
class ThetaSelection:
    """How θ was chosen: the grid, the mean CV error per value, and the folds used."""

    theta: float
    thetas: tuple[float, ...]
    mean_errors: tuple[float, ...]
    n_folds: int

    @property
    def cv_error(self) -> float:
        """Mean validation error of the chosen θ."""
        return self.mean_errors[self.thetas.index(self.theta)]

    def describe(self) -> str:
        """E.g. ``chosen by 5-fold stratified CV over 8 values in [0.0001, 50]; CV error 9.1 %``."""
        return (f"chosen by {self.n_folds}-fold stratified CV over {len(self.thetas)} values in "
                f"[{min(self.thetas):g}, {max(self.thetas):g}]; CV error "
                f"{100 * self.cv_error:.1f} %")


def fit_select_theta(estimator, X, y, thetas=DEFAULT_THETAS, cv: int = 5, seed: int = 0):
    """Choose θ by :func:`select_theta`, then fit a clone on all of ``(X, y)`` with it.

    Returns ``(fitted estimator, ThetaSelection)``.
    """
    thetas = tuple(float(t) for t in np.atleast_1d(thetas))
    best, mean = select_theta(estimator, X, y, thetas, cv=cv, seed=seed)
    model = clone(estimator).set_params(theta=best).fit(X, y)
    return model, ThetaSelection(best, thetas, tuple(mean), n_folds(y, cv))


def _rows(X, index):
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]
