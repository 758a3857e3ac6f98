"""Model selection for the core: stratified folds, fitting a grid, the tie rule, and choosing the
setting of a single fit by stratified K-fold CV, then a refit on all data.

:func:`fit_select` is what ``rulelearn fit`` does: it chooses θ (8 log-spaced values per
training row, :data:`FIT_THETAS`), the number of clauses R (1, 3, 5, 10) and the form (DNF,
CNF) together, on the same folds for every setting, with one θ path per (form, R) and fold
(``fit_path``: one LP model serves the whole θ grid); per form, R grows only while the fits
use all R clauses; every (form, R) runs on one fold first and only the best two on all folds
(successive halving). Given several numbers of
quantile thresholds (not by default, nor in ``rulelearn fit``), the grid runs with the first,
and the others are tried at the chosen (form, R) over the same θ and folds
(:func:`refine_thresholds`). The benchmark's nested
protocol (:mod:`rulelearn.bench.protocol`) tunes θ only; it uses the folds
(:func:`stratified_folds`), the CV loop (:func:`cv_scores`, the one loop behind every selection
here) and the tie rule (:func:`choose`: equal mean validation errors go to the simpler rule) of
this module.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
import uuid
import warnings
from collections import Counter
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from rulelearn._defaults import (
    DEFAULT_FORMS,
    DEFAULT_RULES,
    DEFAULT_SELECT,
    DEFAULT_THETAS,
    FIT_MORE_CUT_POINTS,
    FIT_THETAS,
    LITERAL_COSTS,
    SELECT_RULES,
    THETA_SCALES,
    TIE_ORDERS,
    WITHIN_ONE_SEM,
    log_grid,
)
from rulelearn._params import check_value
from rulelearn._rule_params import RULE_PARAMETERS
from rulelearn._utils import error_rate
from rulelearn.errors import DataError, ParameterError

__all__ = ["DEFAULT_FORMS", "DEFAULT_RULES", "DEFAULT_THETAS", "FIT_THETAS", "SELECT_RULES",
           "THETA_SCALES", "TIE_ORDERS", "log_grid", "scaled",
           "stratified_folds",
           "take_rows", "choose", "fit_candidates", "cv_folds", "resolve_folds", "cv_scores",
           "error_rate",
           "select_setting", "fit_select", "walk_unused",
           "refine_thresholds", "try_cut_points", "try_methods", "cv_sample"]

#: Two mean errors closer than this are a tie (they are ratios of small integers).
TIE_TOLERANCE = 1e-12


def stratified_folds(y, n_splits: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``StratifiedKFold(n_splits, shuffle=True, random_state=seed)`` as a list of index pairs."""
    y = np.asarray(y)
    skf = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    return [(tr, te) for tr, te in skf.split(np.zeros((len(y), 1)), y)]


def take_rows(X, index):
    """Rows ``index`` of ``X``: a DataFrame's by position, anything else as an array."""
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]


def simplicity_order(grid, prefer: str) -> list[int]:
    """Indices of ``grid`` from the simplest model to the most complex one.

    ``prefer="larger"``: a larger value is simpler (θ, the sparsity weight).
    ``prefer="smaller"``: a smaller value is simpler (tree depth; ``None`` = unbounded).
    """
    key = [math.inf if v is None else float(v) for v in grid]
    order = sorted(range(len(grid)), key=lambda i: key[i])
    return order[::-1] if prefer == "larger" else order


def lowest(errors, index, simpler) -> int:
    """The tie rule, once: among ``index``, the one of lowest ``errors[i]``; errors within
    :data:`TIE_TOLERANCE` of it are ties, won by the least ``simpler(i)``."""
    index = list(index)
    best = min(errors[i] for i in index)
    return min((i for i in index if errors[i] <= best + TIE_TOLERANCE), key=simpler)


def choose(mean_errors, grid, prefer: str) -> int:
    """Index of the candidate with the lowest mean error; ties go to the simplest."""
    errors = [float(e) for e in mean_errors]
    rank = {i: position for position, i in enumerate(simplicity_order(grid, prefer))}
    return lowest(errors, range(len(errors)), rank.__getitem__)


def fit_candidates(estimator, X, y, param: str | None, grid, workspace=None) -> list:
    """One fitted copy of ``estimator`` per value of ``param`` in ``grid`` (in grid order).

    Uses the estimator's θ path (``fit_path``: one LP model serves the whole grid) when it has
    one; otherwise clones and refits per value. ``workspace``: passed on to ``fit_path``
    (paths on the same data share their binarization and clause solver), if given.
    """
    if param is None or not grid:
        return [clone(estimator).fit(X, y)]
    if param == "theta" and hasattr(estimator, "fit_path"):
        shared = {} if workspace is None else {"workspace": workspace}
        models = clone(estimator).fit_path(X, y, list(grid), **shared)
        if len(models) != len(grid):
            raise RuntimeError(f"fit_path returned {len(models)} models for {len(grid)} thetas")
        return list(models)
    return [clone(estimator).set_params(**{param: v}).fit(X, y) for v in grid]


def n_folds(y, cv: int = 5) -> int:
    """Folds actually used: ``min(cv, size of the smallest class)``; at least 2.

    Raises :class:`DataError` when a class has fewer than 2 members (nothing to validate on).
    """
    if cv < 2:
        raise DataError(f"cross-validation needs at least 2 folds, got {cv}")
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    if len(labels) < 2:
        raise DataError("cannot cross-validate: y has a single class")
    smallest = int(counts.min())
    if smallest < 2:
        label = labels[int(np.argmin(counts))]
        raise DataError(f"cannot cross-validate: class {label!s} has only {smallest} row; "
                        f"give --theta, --rules and --form instead")
    return min(cv, smallest)


def cv_folds(y, cv: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The :func:`n_folds` ``(y, cv)`` stratified folds of ``y`` (any labels, floats too)."""
    codes = np.unique(np.asarray(y), return_inverse=True)[1]
    return stratified_folds(codes, n_folds(y, cv), seed)


def resolve_folds(y, cv, seed: int, groups=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The folds of ``cv``, as index pairs: an int is :func:`cv_folds` ``(y, cv, seed)``
    (stratified, shuffled by ``seed``); a splitter (an object with ``split(X, y, groups)``, e.g.
    ``GroupKFold`` with ``groups``) or an iterable of ``(train, test)`` index pairs gives its own
    folds, in its order (``seed`` unused). :class:`ParameterError` for anything else, or for a
    fold with an empty part or an index out of range; :class:`DataError` for a fold whose
    training part has a single class."""
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        return cv_folds(y, int(cv), seed)
    from sklearn.model_selection import check_cv

    n = len(np.asarray(y))
    try:
        splitter = check_cv(cv, np.asarray(y), classifier=True)
        pairs = list(splitter.split(np.zeros((n, 1)), np.asarray(y), groups))
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"cv must be an int >= 2, a CV splitter or an iterable of (train, "
                             f"test) index pairs; got {cv!r} ({str(exc).splitlines()[0]})"
                             ) from None
    if not pairs:
        raise ParameterError(f"cv {cv!r} gives no fold")
    folds = []
    for k, pair in enumerate(pairs):
        try:
            train, test = (_fold_indices(part, n) for part in pair)
        except (TypeError, ValueError):
            raise ParameterError(f"fold {k} of cv is not a (train, test) pair of index arrays "
                                 f"within the {n} rows") from None
        if not len(train) or not len(test):
            raise ParameterError(f"fold {k} of cv has an empty "
                                 f"{'training' if not len(train) else 'test'} part")
        if len(np.unique(np.asarray(y)[train])) < 2:
            raise DataError(f"fold {k} of cv has a single class in its training part")
        folds.append((train, test))
    return folds


def _fold_indices(part, n: int) -> np.ndarray:
    """Row indices of one part of a fold (a boolean mask of ``n`` rows, or integer indices)."""
    part = np.asarray(part)
    if part.dtype == bool:
        if part.shape != (n,):
            raise ValueError("mask of the wrong length")
        return np.flatnonzero(part)
    if part.ndim != 1 or (part.size and not np.issubdtype(part.dtype, np.integer)):
        raise ValueError("not integer indices")
    if part.size and (part.min() < 0 or part.max() >= n):
        raise ValueError("index out of range")
    return part.astype(np.intp)


def cv_scores(estimator, X, y, folds, param: str | None, grid, score=error_rate,
              on_fold=None, per_row: bool = False) -> np.ndarray:
    """``score(model, X_valid, y_valid)`` per fold (rows) and value of ``param`` (columns).

    The one CV loop of fit and bench: each fold's training part is fitted once for the whole
    grid by :func:`fit_candidates` (a θ path when ``param`` is θ). A ``score`` that returns a
    tuple adds a last axis. ``on_fold(done, total)``, if given, is called after each fold.
    ``per_row``: the grid's values are per training row (each fold fits with value x its
    training rows; θ on :data:`THETA_SCALES`' "rows" scale).
    """
    y = np.asarray(y)
    rows = []
    for train, valid in folds:
        values = scaled(grid, len(train)) if per_row else grid
        models = fit_candidates(estimator, take_rows(X, train), y[train], param, values)
        X_valid, y_valid = take_rows(X, valid), y[valid]
        rows.append([score(model, X_valid, y_valid) for model in models])
        if on_fold is not None:
            on_fold(len(rows), len(folds))
    return np.array(rows, dtype=float)


def scaled(thetas, n_rows: int) -> list[float]:
    """θ per row to the estimator's θ (errors) for ``n_rows`` training rows: θ x n_rows."""
    return [float(t) * n_rows for t in thetas]


@dataclass(frozen=True)
class CVRow:
    """One grid point: its setting and what the fold models did on their validation parts."""

    form: str
    max_rules: int
    theta: float
    mean_error: float
    sem: float  #: standard error of the mean over folds (0 for one fold)
    mean_literals: float  #: mean size of the fold models
    fold_errors: tuple[float, ...]
    max_clauses: int = 0  #: most clauses any fold model used
    n_thresholds: int | None = None  #: quantile thresholds per numeric column (None: not set)
    cut_points: str | None = None  #: where numeric columns are cut (None: the estimator's)
    #: the start the later folds ran from ("": the estimator's own; see ``pick_start``)
    start: str = ""
    #: the learner of the fold models ("": the estimator's own; see :func:`try_methods`)
    method: str = ""

    @property
    def setting(self) -> dict:
        """The estimator parameters of this row."""
        setting = {"form": self.form, "max_rules": self.max_rules, "theta": self.theta}
        if self.method:
            setting["method"] = self.method
        if self.n_thresholds is not None:
            setting["n_thresholds"] = self.n_thresholds
        if self.cut_points is not None:
            setting["cut_points"] = self.cut_points
        return setting


@dataclass(frozen=True)
class Selection:
    """What :func:`select_setting` tried and what it chose.

    ``rows`` holds every (form, R, θ) tried, in grid order (forms, then R, then θ), with the
    first number of thresholds, then the rows of the other numbers of ``thresholds`` (tried at
    the (form, R) chosen with the first); ``chosen`` is the index of the chosen row;
    ``skipped`` the (form, R) not tried because a smaller R already left clauses unused.
    """

    rows: tuple[CVRow, ...]
    chosen: int
    n_folds: int
    seed: int
    forms: tuple[str, ...]
    rules: tuple[int, ...]
    thetas: tuple[float, ...]
    skipped: tuple[tuple[str, int], ...] = ()
    thresholds: tuple[int, ...] = ()  #: numbers of thresholds tried (the grid's first)
    cv_rows: int | None = None  #: rows of the stratified sample the CV ran on (None: all)
    select: str = "min"  #: the rule that chose (:data:`SELECT_RULES`)
    theta_scale: str = "errors"  #: how ``thetas`` are read (:data:`THETA_SCALES`)
    pruned: tuple[tuple[str, int], ...] = ()  #: (form, R) left after the first folds
    first_folds: int = 0  #: folds every (form, R) ran on (successive halving; 0: all)
    #: the class of the CV splitter that made the folds ("": an int ``cv``, stratified K-fold)
    splitter: str = ""
    ties: str = "literals"  #: the order ties are broken in (:data:`TIE_ORDERS`)
    #: θ grid points either side of the first folds' choices the later folds ran (None: all)
    theta_span: int | None = None
    #: the learners whose CV made the rows, the estimator's own first (): its own only)
    methods: tuple[str, ...] = ()

    @property
    def best(self) -> CVRow:
        """The chosen row."""
        return self.rows[self.chosen]

    @property
    def cv_error(self) -> float:
        return self.best.mean_error

    def estimator_setting(self, n_rows: int) -> dict:
        """The chosen row's estimator parameters for a fit on ``n_rows`` rows: its θ is the
        estimator's own (θ x ``n_rows`` when the grid is per row), and its start the one
        that won on the first folds, if the CV picked one (``pick_start``)."""
        setting = dict(self.best.setting)
        if self.theta_scale == "rows":
            setting["theta"] = scaled([setting["theta"]], n_rows)[0]
        if self.best.start:
            setting["start"] = self.best.start
        return setting

    def best_per_setting(self) -> list[int]:
        """Per (form, R), in grid order, the index of its row the tie rule prefers."""
        return [_choose_row(self.rows, index, self.select, self.ties)
                for index in _groups(self.rows).values()]

    def chosen_by(self, select: str) -> "Selection":
        """The same rows, the choice made by rule ``select`` (:data:`SELECT_RULES`)."""
        _check_select("select", select)
        return dataclasses.replace(self, select=select,
                                   chosen=_choose_row(self.rows, range(len(self.rows)), select,
                                                      self.ties))

    def describe(self) -> str:
        """How the choice was made.

        E.g. ``by 5-fold stratified CV over 2 forms x 4 R x 8 theta; CV error 4.0 % (SEM 1.1)``.
        """
        size = " x ".join(f"{len(values)} {name}" for name, values in
                          (("forms", self.forms), ("R", self.rules), ("theta", self.thetas))
                          if len(values) > 1) or "1 setting"
        if len(self.thresholds) > 1:
            others = ", ".join(map(str, self.thresholds[1:]))
            size += (f" with {self.thresholds[0]} thresholds, then {others} thresholds at the "
                     f"best form and R")
        kinds = list(dict.fromkeys(r.cut_points for r in self.rows if r.cut_points))
        if kinds:
            size += f", then {' and '.join(kinds)} cut points at the best form and R"
        if len(self.methods) > 1:
            size += f", for each of {', '.join(self.methods)} (the same folds)"
        sample = "" if self.cv_rows is None else f" on a stratified sample of {self.cv_rows:,} rows"
        rule = _RULE_WORDS.get(self.select, "")
        own = [r for r in self.rows if not r.method]  # the other learners halve alike
        halving = "" if not self.first_folds else (
            f"; every (form, R) on {self.first_folds} fold{'s' if self.first_folds > 1 else ''}"
            f" first, the {len({(r.form, r.max_rules) for r in own})} best on all"
            + (" (per learner)" if len(self.methods) > 1 else ""))
        later = []
        if self.first_folds and self.theta_span is not None:
            later.append(f"at θ within {self.theta_span} grid points of the first folds' "
                         f"choices")
        if self.first_folds and self.best.start:
            later.append("from the start that won there")
        if later:
            halving += f" ({', '.join(later)})"
        how = f"CV ({self.splitter})" if self.splitter else "stratified CV"
        return (f"by {self.n_folds}-fold {how}{sample} over {size}{rule}; CV error "
                f"{100 * self.best.mean_error:.1f} % (SEM {100 * self.best.sem:.1f}){halving}")

    def table(self, full: bool = False) -> str:
        """The CV table as text: every row (``full``) or the preferred θ per (form, R).

        The chosen row is marked with ``*``; settings skipped are named on a last line.
        """
        index = range(len(self.rows)) if full else self.best_per_setting()
        several = len(self.thresholds) > 1  # then a column for the number of thresholds
        cuts = any(row.cut_points for row in self.rows)  # then a column for the cut points
        learners = len(self.methods) > 1  # then a column for the learner
        lines = ["  form   R" + (" thresholds" if several else "") + ("     cuts" if cuts else "")
                 + (" learner" if learners else "") + "      theta  literals  CV error %"]
        for i in index:
            row = self.rows[i]
            lines.append(f"{'*' if i == self.chosen else ' '} {row.form.upper():4} "
                         f"{row.max_rules:3d}" + (f" {row.n_thresholds:10d}" if several else "")
                         + (f" {row.cut_points or 'quantile':>8}" if cuts else "")
                         + (f" {row.method or self.methods[0]:>7}" if learners else "")
                         + f" {row.theta:10.4g} {row.mean_literals:9.1f}  "
                         f"{100 * row.mean_error:5.1f} ± {100 * row.sem:.1f}")
        by = f" ({self.methods[0]})" if learners else ""  # the others' walks are not kept
        if self.skipped:
            by_form: dict[str, list[str]] = {}
            for form, r in self.skipped:
                by_form.setdefault(form, []).append(str(r))
            names = "; ".join(f"{form.upper()} R = {', '.join(rs)}" for form, rs in by_form.items())
            lines.append(f"  not tried{by}: {names} (a smaller R already left a clause unused)")
        if self.pruned:
            names = ", ".join(f"{form.upper()} R = {r}" for form, r in self.pruned)
            lines.append(f"  dropped{by} after {self.first_folds} of {self.n_folds} folds: "
                         f"{names} (their CV error there was not among the lowest)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Plain JSON-able record (for a saved model)."""
        return {"n_folds": self.n_folds, "seed": self.seed, "chosen": self.chosen,
                "cv_rows": self.cv_rows, "select": self.select,
                "theta_scale": self.theta_scale, "first_folds": self.first_folds,
                "pruned": [list(p) for p in self.pruned],
                "skipped": [list(s) for s in self.skipped],
                "thresholds": list(self.thresholds),
                **({"theta_span": self.theta_span} if self.theta_span is not None else {}),
                **({"splitter": self.splitter} if self.splitter else {}),
                **({"ties": self.ties} if self.ties != "literals" else {}),
                **({"methods": list(self.methods)} if self.methods else {}),
                "rows": [{"form": r.form, "max_rules": r.max_rules, "theta": r.theta,
                          "n_thresholds": r.n_thresholds,
                          **({"cut_points": r.cut_points} if r.cut_points else {}),
                          "mean_error": r.mean_error,
                          "sem": r.sem, "mean_literals": r.mean_literals,
                          **({"start": r.start} if r.start else {}),
                          **({"method": r.method} if r.method else {})} for r in self.rows]}


_RULE_WORDS = {"1se": " (the simplest within one SEM of the lowest CV error)",
               "0.1pt": " (the lowest CV error plus 0.1 point per literal)",
               "0.1pt1se": " (the lowest CV error plus 0.1 point per literal, within one SEM "
                           "of the lowest)"}


def _groups(rows) -> dict[tuple, list[int]]:
    """Row indices per (form, R, number of thresholds, cut points, learner), in the order first
    met."""
    groups: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault((row.form, row.max_rules, row.n_thresholds, row.cut_points,
                           row.method), []).append(i)
    return groups


def _simplicity(row: CVRow, ties: str = "literals") -> tuple:
    """Sort key, simplest first (:data:`TIE_ORDERS`): fewer literals, larger θ, smaller R, DNF
    before CNF, fewer thresholds, the estimator's own cut points, then its own learner; with
    ``ties="theta"`` the larger θ before fewer literals."""
    key = (row.mean_literals, -row.theta, row.max_rules, DEFAULT_FORMS.index(row.form)
           if row.form in DEFAULT_FORMS else len(DEFAULT_FORMS),
           row.n_thresholds if row.n_thresholds is not None else 0, row.cut_points is not None,
           row.method != "")
    return (key[1], key[0]) + key[2:] if ties == "theta" else key


def _choose_row(rows, index, select: str = "min", ties: str = "literals") -> int:
    """Among ``rows[i] for i in index``: the lowest mean error, ties going to the simplest
    (:func:`lowest`, in the order ``ties``); with ``select="1se"`` the simplest whose mean
    error is at most that row's mean error plus its standard error; with a cost rule
    (``"0.1pt"``, :data:`LITERAL_COSTS`) the lowest mean error plus that cost per mean
    literal, ties going to the simplest; with ``"0.1pt1se"`` that among the rows within one
    standard error of the lowest mean error."""
    index = list(index)
    if select in WITHIN_ONE_SEM:
        low = _choose_row(rows, index, "min", ties)
        bound = rows[low].mean_error + rows[low].sem + TIE_TOLERANCE
        index = [i for i in index if rows[i].mean_error <= bound]
    cost = LITERAL_COSTS.get(select, 0.0)
    errors = {i: rows[i].mean_error + cost * rows[i].mean_literals for i in index}
    chosen = lowest(errors, index, lambda i: _simplicity(rows[i], ties))
    if select != "1se":
        return chosen
    bound = rows[chosen].mean_error + rows[chosen].sem + TIE_TOLERANCE
    return min((i for i in index if rows[i].mean_error <= bound),
               key=lambda i: _simplicity(rows[i], ties))


def _grid(name, values, check) -> tuple:
    values = tuple(dict.fromkeys(values))  # unique, in the given order
    if not values:
        raise ParameterError(f"the {name} grid is empty")
    for value in values:
        check(name, value)
    return values


def _check_select(name, value):
    if value not in SELECT_RULES:
        raise ParameterError(f"{name} must be one of {', '.join(SELECT_RULES)}; got {value!r}")


def _check_scale(name, value):
    if value not in THETA_SCALES:
        raise ParameterError(f"{name} must be one of {', '.join(THETA_SCALES)}; got {value!r}")


def _check_halving(halving, k: int) -> tuple[int, int]:
    """``(m, keep)``: first folds (at most ``k``) and cells kept, both ints >= 1."""
    try:
        m, keep = halving
    except (TypeError, ValueError):
        raise ParameterError(f"halving must be None or (folds, cells); got {halving!r}") from None
    for value in (m, keep):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ParameterError(f"halving must be None or two ints >= 1; got {halving!r}")
    return min(int(m), k), int(keep)


def _check_theta(name, value):
    check_value(RULE_PARAMETERS["theta"], value, f"every {name}")


def _check_rules(name, value):
    check_value(RULE_PARAMETERS["max_rules"], value, f"every {name}")


def _check_form(name, value):
    if value not in DEFAULT_FORMS:
        raise ParameterError(f"every {name} must be one of 'dnf', 'cnf'; got {value!r}")


def _check_thresholds(name, value):
    check_value(RULE_PARAMETERS["n_thresholds"], value, f"every {name}")


def select_setting(estimator, X, y, *, thetas=DEFAULT_THETAS, rules=DEFAULT_RULES,
                   forms=DEFAULT_FORMS, thresholds=None, cv=5, seed: int = 0,
                   skip_unused: bool = True, progress=None, n_jobs: int = 1,
                   theta_scale: str = "errors", halving=None, groups=None,
                   client=None, ties: str = "literals", pick_start: bool = False,
                   theta_span: int | None = None) -> Selection:
    """Choose (form, R, θ) for ``estimator`` by stratified K-fold CV on ``(X, y)``.

    K is :func:`n_folds` ``(y, cv)``; the folds are ``StratifiedKFold(shuffle=True,
    random_state=seed)``, the same for every setting. For each fold and each (form, R), one
    ``fit_path`` over ``thetas`` fits the training part. The lowest mean validation error wins;
    ties (equal means) go to the simplest: fewer mean literals, then the larger θ, the smaller
    R, DNF, fewer thresholds. A grid of one value fixes that axis. Other parameters (method,
    positive class, ...) are the estimator's. ``cv`` may also be a splitter or a list of
    ``(train, test)`` index pairs (with ``groups`` for a group splitter; :func:`resolve_folds`):
    then its folds are used as given.

    R is walked upwards per form. With ``skip_unused``, the walk stops at the first R (from the
    second on) at which no fold model, at any θ, uses all R clauses: a larger R would add
    clauses that the fits disable. The second R is always tried: a clause may be worth
    nothing alone and much with another (one OR of a CNF often admits too many rows).
    ``skip_unused=False`` tries every R.

    ``thresholds`` (numbers of quantile thresholds per numeric column; None: the estimator's
    ``n_thresholds`` only): the grid runs with the first, then :func:`refine_thresholds` tries
    the others at the chosen (form, R).

    ``progress(form, R, done, total)``, if given, is called after each fold of each (form, R)
    (``rulelearn fit`` shows it on stderr), with ``thresholds=n`` as well for the folds of a
    further number of thresholds.

    ``n_jobs``: processes for the folds, this one and ``n_jobs`` - 1 workers (loky's; HiGHS
    keeps one thread scheduler per process, so processes rather than threads). With more
    than one, the walk goes R by R for every form at once and the folds of all its (form,
    R) run in parallel: the same fits (each fold's θ path is deterministic), the same rows
    and the same choice as ``n_jobs=1``. -1: every core. ``client`` (a
    ``dask.distributed.Client``; the caller connects and closes it, e.g.
    :func:`rulelearn.cluster.dask_client`): the folds run on its cluster instead, walked as
    with ``n_jobs`` > 1, with the same result; ``n_jobs`` is unused.

    ``theta_scale`` (:data:`THETA_SCALES`): "errors", ``thetas`` are the estimator's θ;
    "rows", they are per training row (each fold fits with θ x its training rows, and
    :meth:`Selection.estimator_setting` converts the chosen θ for a refit), so that the grid
    means the same trade-off at any number of rows.

    ``halving`` (successive halving over the (form, R) cells): None, every cell the walk
    tries runs on every fold; ``(m, keep)``, the walk runs on the first ``m`` folds only,
    then the ``keep`` cells of lowest best mean error there (over θ; ties kept) run on the
    other folds too and only they can be chosen (the others are listed as pruned).

    ``ties`` (:data:`TIE_ORDERS`): "literals", the order above; "theta", the larger θ first,
    then the same (the benchmark's θ tuning).

    Two more cuts of the later folds' work, with ``halving`` only: ``pick_start``, when the
    estimator starts BCD or AM from "best", the first folds run the set-covering and the
    tree start as separate paths (per θ the lower objective is kept, the set cover on ties:
    what "best" fits), and the later folds run each θ from the start that won there on
    most of the first folds (the set cover on ties); the rows keep that start
    (:attr:`CVRow.start`), and :meth:`Selection.estimator_setting` refits from it.
    ``theta_span`` (an int >= 0): the kept cells run on the later folds only at the θ
    within that many grid points of the θ each selection rule (:data:`SELECT_RULES`) picks
    in the cell on the first folds; only those θ get rows.
    """
    thetas = _grid("theta", (float(t) for t in np.atleast_1d(thetas)), _check_theta)
    rules = tuple(sorted(_grid("R", (int(r) if isinstance(r, np.integer) else r for r in rules),
                               _check_rules)))
    forms = _grid("form", forms, _check_form)
    _check_scale("theta_scale", theta_scale)
    if ties not in TIE_ORDERS:
        raise ParameterError(f"ties must be one of {', '.join(TIE_ORDERS)}; got {ties!r}")
    counts = _threshold_grid(estimator, thresholds)
    folds = resolve_folds(y, cv, seed, groups)
    k = len(folds)
    first = k if halving is None else _check_halving(halving, k)[0]
    if halving is not None and len(forms) * len(rules) <= halving[1]:
        first = k  # every cell would be kept
    if theta_span is not None and (isinstance(theta_span, bool) or not isinstance(
            theta_span, (int, np.integer)) or theta_span < 0):
        raise ParameterError(f"theta_span must be None or an int >= 0; got {theta_span!r}")
    workers = _workers(n_jobs)
    try:
        score = _scorer(estimator, X, y, folds, thetas, progress, theta_scale == "rows", workers,
                        client)
        found: dict = {}  # (form, R) -> scores on the first folds
        winners: dict = {}  # (form, R) -> per θ, the start that won on the first folds
        split = pick_start and first < k and _starts_both(estimator)
        every = tuple(range(len(thetas)))

        def many(cells):
            keys = [(form, r, counts[0]) for form, r in cells]
            if split:
                got = score(keys, range(first), plan=dict.fromkeys(
                    keys, (("sc", every), ("tree", every))))
                for form, r, n in keys:
                    found[(form, r)], winners[(form, r)] = _best_start(got[((form, r, n), "sc")],
                                                                       got[((form, r, n), "tree")])
            else:
                got = score(keys, range(first))
                found.update({(form, r): got[(form, r, counts[0])] for form, r in cells})
            return [_cv_rows(form, r, counts[0], thetas, found[(form, r)], first)
                    for form, r in cells]

        selection = _walk(lambda form, r: many([(form, r)])[0], forms, rules, thetas, first, seed,
                          skip_unused, counts[:1],
                          many=many if workers > 1 or client is not None else None, ties=ties)
        selection = dataclasses.replace(selection, theta_scale=theta_scale,
                                        splitter=_splitter_name(cv))
        if first < k:
            selection = _halve(selection, score, found, range(first, k), halving[1], counts[0],
                               winners, theta_span)

        def evaluate(form, r, n):
            return _cv_rows(form, r, n, thetas, score([(form, r, n)], range(k), True)[(form, r, n)],
                            k)

        return _refine(selection, evaluate, counts[1:], _binarizes(estimator, X, counts))
    finally:
        _forget_folds()  # this process's fold workspaces: not kept past the CV


def _splitter_name(cv) -> str:
    """"" for an int ``cv``; else the splitter's class name ("list" for a list of folds)."""
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        return ""
    return type(cv).__name__


def _halve(selection: Selection, score, found, rest, keep: int, n, winners=None,
           theta_span: int | None = None) -> Selection:
    """The second stage of successive halving: the ``keep`` best cells of ``selection`` (its
    rows on the first folds, their scores in ``found``) on the ``rest`` of the folds too;
    per cell and θ from the start in ``winners`` (if any), at the θ within ``theta_span``
    grid points of the first folds' choices (None: every θ)."""
    best = {cell: min(row.mean_error for row in selection.rows
                      if (row.form, row.max_rules) == cell) for cell in found}
    bound = sorted(best.values())[min(keep, len(best)) - 1] + TIE_TOLERANCE
    kept = [cell for cell in best if best[cell] <= bound]
    thetas = selection.thetas
    index = {cell: _near(selection, cell, theta_span) for cell in kept}
    winners = winners or {}
    plan = {}
    for form, r in kept:
        won = winners.get((form, r))
        starts = ("",) if won is None else ("sc", "tree")
        plan[(form, r, n)] = tuple((start, tuple(t for t in index[(form, r)]
                                                 if won is None or won[t] == start))
                                   for start in starts)
    more = score(list(plan), rest, plan=plan)
    k = selection.n_folds + len(rest)
    blocks = {}
    for form, r in kept:
        later = np.full((len(rest), len(thetas), 4), np.nan)
        for start, part in plan[(form, r, n)]:
            later[:, list(part)] = more[((form, r, n), start)][:, list(part)]
        at = list(index[(form, r)])
        scores = np.concatenate([found[(form, r)], later])[:, at]
        block = _cv_rows(form, r, n, [thetas[t] for t in at], scores, k)
        won = winners.get((form, r))
        blocks[(form, r)] = block if won is None else [
            dataclasses.replace(row, start=won[t]) for row, t in zip(block, at)]
    rows = tuple(row for form in selection.forms for r in selection.rules
                 for row in blocks.get((form, r), ()))
    pruned = tuple((form, r) for form in selection.forms for r in selection.rules
                   if (form, r) in found and (form, r) not in blocks)
    return dataclasses.replace(selection, rows=rows,
                               chosen=_choose_row(rows, range(len(rows)), ties=selection.ties),
                               n_folds=k, pruned=pruned, first_folds=selection.n_folds,
                               theta_span=theta_span)


def _near(selection: Selection, cell, span: int | None) -> tuple[int, ...]:
    """Indices of the θ grid within ``span`` points of the θ that each rule of
    :data:`SELECT_RULES` picks among ``cell``'s rows of ``selection`` (every θ for None)."""
    thetas = selection.thetas
    if span is None:
        return tuple(range(len(thetas)))
    index = [i for i, row in enumerate(selection.rows) if (row.form, row.max_rules) == cell]
    picked = {thetas.index(selection.rows[_choose_row(selection.rows, index, rule,
                                                      selection.ties)].theta)
              for rule in SELECT_RULES}
    return tuple(t for t in range(len(thetas)) if any(abs(t - p) <= span for p in picked))


def _starts_both(estimator) -> bool:
    """Whether ``estimator`` descends from both the set cover and the tree ("best")."""
    from rulelearn.learners import LEARNER_OPTIONS

    params = estimator.get_params()
    return params.get("start") == "best" and "start" in LEARNER_OPTIONS.get(
        params.get("method"), ())


def _best_start(sc: np.ndarray, tree: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    """From the scores (folds x θ x (error, literals, clauses, objective)) of the set-cover
    and the tree start: per fold and θ those of the lower objective (the set cover on ties,
    as start "best" keeps), and per θ the start that won on most folds (the set cover on
    ties)."""
    tree_won = tree[..., 3] < sc[..., 3] - 1e-9
    scores = np.where(tree_won[..., None], tree, sc)
    wins = tree_won.sum(axis=0)
    return scores, tuple("tree" if 2 * w > len(sc) else "sc" for w in wins)


def _threshold_grid(estimator, thresholds) -> tuple[int, ...]:
    if thresholds is None:
        return (int(estimator.get_params()["n_thresholds"]),)
    return _grid("thresholds", (int(n) if isinstance(n, np.integer) else n
                                for n in np.atleast_1d(thresholds)), _check_thresholds)


def _scorer(estimator, X, y, folds, thetas, progress, per_row: bool, workers: int,
            client=None):
    """``score(cells, folds, refining=False, plan=None)``: per (form, R, thresholds) cell,
    the scores (folds x θ x (error, literals, clauses, objective)) of one θ path per fold of
    ``folds`` (indices), on the dask cluster of ``client`` if given (:func:`_on_cluster`),
    else in worker processes when ``workers`` > 1 (joblib's loky; HiGHS keeps one thread
    scheduler per process). ``plan`` ({cell: ((start, θ indices), ...)}) splits a cell's
    path into parts, each from its own start ("": the estimator's) over some θ: the result
    is then keyed by (cell, start), NaN where a part did not run a θ. ``progress`` is told
    after each fold of each cell (all its parts).

    The paths of one call on one fold, form and start (its cells' numbers of clauses) run
    as one job (``_fold_scores``), in one process, on one binarization and clause
    solver; a later job on the same fold, form and start (the walk's next R) is given the
    clause LPs' optima of the earlier ones. The jobs are the same whatever ``workers``, so
    the scores are too; in parallel the largest start first (:func:`_job_size`)."""
    y = np.asarray(y)
    done: dict = {}
    scattered: list = []  # X and y on the cluster, sent once for every call
    every = tuple(range(len(thetas)))
    answers: dict = {}  # (fold, form, thresholds, start) -> the LP optima of its jobs so far
    cv_id = uuid.uuid4().hex  # names this CV's folds for the workspaces a process keeps

    def path(cell, fold, start, index):
        params = {"form": cell[0], "max_rules": cell[1], "n_thresholds": cell[2]}
        template = clone(estimator).set_params(**params, **({"start": start} if start else {}))
        grid = [thetas[i] for i in index]
        return template, scaled(grid, len(folds[fold][0])) if per_row else grid

    def score(cells, fold_ids, refining=False, plan=None):
        parts = {cell: (plan or {}).get(cell, (("", every),)) for cell in cells}
        grouped = _fold_jobs(cells, fold_ids, parts)
        if client is not None or workers > 1:  # the longest first: no straggler at the end
            grouped = dict(sorted(grouped.items(), key=lambda job: -_job_size(job[1])))
        jobs = ((*folds[key[0]], [path(*task) for task in tasks], answers.get(key),
                 (cv_id, key[0]))
                for key, tasks in grouped.items())
        if client is not None:
            results = _on_cluster(client, X, y, jobs, scattered)
        elif workers > 1 and len(grouped) > 1:
            results = _here_and_in_workers(X, y, list(jobs), workers - 1)
        else:  # here: warnings go straight to the caller
            results = (_fold_scores(X, y, train, valid, paths, known, fold, record=False)
                       for train, valid, paths, known, fold in jobs)
        position = {fold: i for i, fold in enumerate(fold_ids)}
        scores = {(cell, start): np.full((len(position), len(thetas), 4), np.nan)
                  for cell in cells for start, _ in parts[cell]}
        left = Counter(task[:2] for tasks in grouped.values() for task in tasks)
        for (key, tasks), (found, raised, optima) in zip(grouped.items(), results):
            answers[key] = optima
            for message, category in raised:  # as if the fold had run here
                warnings.warn(message, category, stacklevel=2)
            for (cell, fold, start, index), result in zip(tasks, found):
                scores[(cell, start)][position[fold], list(index)] = result
                left[(cell, fold)] -= 1
                if left[(cell, fold)]:
                    continue  # another start's part of this fold is still to come
                done[cell] = done.get(cell, 0) + 1
                if progress is not None:
                    extra = {"thresholds": cell[2]} if refining else {}
                    progress(cell[0], cell[1], done[cell], len(folds), **extra)
        if plan is None:
            return {cell: scores[(cell, "")] for cell in cells}
        return scores

    return score


def _fold_jobs(cells, fold_ids, parts) -> dict:
    """The θ paths (cell, fold, start, θ indices) of ``cells`` on ``fold_ids``, each cell in
    its ``parts`` ((start, θ indices), ...), grouped per (fold, form, thresholds, start): one
    job each, its paths in the order of ``cells``."""
    grouped: dict = {}
    for cell in cells:
        for fold in fold_ids:
            for start, index in parts[cell]:
                if len(index):
                    grouped.setdefault((fold, cell[0], cell[2], start), []).append(
                        (cell, fold, start, tuple(index)))
    return grouped


# How the fold jobs are scheduled, measured, and what was tried and not kept: see the docs,
# performance.
def _here_and_in_workers(X, y, jobs: list, workers: int):
    """The results of ``_fold_scores`` for ``jobs``, in their order: this process runs
    them too, and the loky executor of ``workers`` processes (:func:`rulelearn._workers.
    executor`: the same for every call, so that workers started early, or by the call
    before, are reused) from when they are up (started and imported: meanwhile this
    process, its imports done, runs the jobs), at most one fewer than the jobs, each taking
    the next job when free. One HiGHS per process, as with loky alone. If a job fails or
    the caller stops early, no further job starts."""
    import threading

    from rulelearn._workers import executor as reusable
    from rulelearn._workers import ready as worker_ready

    executor = reusable(workers)
    results: list = [None] * len(jobs)  # per job: ("here", result) or ("there", future)
    ready = [threading.Event() for _ in jobs]
    lock = threading.Lock()
    order = iter(range(len(jobs)))

    def take():
        with lock:
            return next(order, None)

    def send(_=None):
        i = take()
        if i is not None:
            future = executor.submit(_fold_scores, X, y, *jobs[i])
            results[i] = ("there", future)
            future.add_done_callback(lambda done, i=i: back(i))

    def back(i):
        ready[i].set()
        send()

    try:
        for _ in range(min(workers, len(jobs) - 1)):  # a job once a worker is up: till
            executor.submit(worker_ready).add_done_callback(send)  # then, this process's
        given = 0
        while (i := take()) is not None:
            results[i] = ("here", _fold_scores(X, y, *jobs[i]))
            ready[i].set()
            while given < len(jobs) and ready[given].is_set():  # progress as it comes
                yield _result(results[given])
                given += 1
        for i in range(given, len(jobs)):
            ready[i].wait()
            yield _result(results[i])
    finally:
        with lock:
            order = iter(())  # nothing more is sent


def _result(entry):
    where, value = entry
    return value.result() if where == "there" else value


def _job_size(tasks) -> int:
    """A fold job's expected cost, to start the longest first: clause LPs per θ path (R)
    times its θ values, summed over its paths (``tasks``, as :func:`_fold_jobs` gives)."""
    return sum(cell[1] * len(index) for cell, _, _, index in tasks)


def _on_cluster(client, X, y, jobs, scattered: list):
    """The results of ``_fold_scores`` for ``jobs`` run on ``client``'s cluster, in the
    order of ``jobs`` (as loky's). ``X`` and ``y`` are sent once (kept in ``scattered``); the
    futures are cancelled if the caller stops early. A fold's own error is raised as it is;
    workers that run other code (:func:`~rulelearn.cluster.check_workers`, checked with the
    first call) or a cluster that loses the folds (workers killed, scheduler gone) are a
    one-line :class:`~rulelearn.cluster.ClusterError`."""
    if not scattered:
        from rulelearn.cluster import check_workers

        check_workers(client)
        scattered.extend(client.scatter([X, y]))
    data, labels = scattered
    futures = [client.submit(_fold_scores, data, labels, train, valid, paths, known, fold,
                             pure=False)
               for train, valid, paths, known, fold in jobs]
    try:
        for future in futures:
            yield future.result()
    except Exception as exc:
        from concurrent.futures import CancelledError  # dask's FutureCancelledError is one

        from rulelearn.cluster import ClusterError

        if not isinstance(exc, CancelledError):
            from distributed import KilledWorker

            if not isinstance(exc, KilledWorker):
                raise
        reason = " ".join(str(exc).split())
        raise ClusterError(f"the dask cluster stopped running the CV's folds "
                           f"({type(exc).__name__}: {reason})") from None
    finally:
        client.cancel(futures)


def _cv_rows(form, r, n, thetas, scores, k) -> list[CVRow]:
    """The CV rows of one (form, R, thresholds) from its scores (folds x θ x 3)."""
    errors, sizes, clauses = scores[..., 0], scores[..., 1], scores[..., 2]
    mean = errors.mean(axis=0)
    sem = errors.std(axis=0, ddof=1) / np.sqrt(k) if k > 1 else np.zeros_like(mean)
    return [CVRow(form, r, theta, float(mean[t]), float(sem[t]), float(sizes[:, t].mean()),
                  tuple(float(e) for e in errors[:, t]), int(clauses[:, t].max()), n)
            for t, theta in enumerate(thetas)]


def _workers(n_jobs) -> int:
    from rulelearn._workers import n_processes

    if n_jobs is None or n_jobs == 1:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0 \
            or n_jobs < -1:
        raise ParameterError(f"n_jobs must be an int >= 1 or -1; got {n_jobs!r}")
    return n_processes(n_jobs)


#: A process keeps the workspace of its latest fold job (``_fold_scores``) while the
#: training part has at most this many rows (every CV of ``fit``'s default: above
#: :data:`CV_SAMPLE_ABOVE` rows it runs on a sample), so that no large binarized matrix
#: outlives its job in an idle worker.
KEEP_FOLDS_UP_TO = 20_000
_kept_folds = threading.local()  # per thread: CV id, {fold index: (its parts, workspace)}


def _fold_scores(X, y, train, valid, paths, answers=None, fold=None, record: bool = True
                 ) -> tuple[list, list, dict]:
    """One fold's job: per ``(template, θ grid)`` of ``paths``, in order, the scores of its θ
    path on ``train`` (:func:`fit_candidates`) on ``valid``; the paths share one
    binarization and clause solver where their templates allow (``fit_path``'s
    ``workspace``), and the clause LPs' optima ``answers`` (from earlier jobs on the same
    training rows; None: none). ``fold`` ((CV id, fold index); None: none): the process
    keeps the fold's workspace (:data:`KEEP_FOLDS_UP_TO`; one fold at a time) for its next
    job on the same fold, which then binarizes and builds its clause LPs no more (exact: the
    same data give the same problem, and a solver's kept bases and answers the same optima).
    Most hits are the first folds' jobs of the walk (all on one fold).
    In a worker (``record``), with the warnings raised (message, category), for the parent to
    raise again; and the LP optima known after the job."""
    from rulelearn.estimator import LP_ANSWERS

    y = np.asarray(y)
    X_train, y_train, X_valid, y_valid, workspace = _fold_workspace(X, y, train, valid, fold)
    if answers is not None:
        _merge(workspace.setdefault(LP_ANSWERS, {}), answers)
    found = []
    with warnings.catch_warnings(record=True) if record else contextlib.nullcontext() as caught:
        if record:
            warnings.simplefilter("always")
        for template, thetas in paths:
            models = fit_candidates(template, X_train, y_train, "theta", thetas,
                                    workspace=workspace)
            found.append([(*_error_and_size(model, X_valid, y_valid),
                           float(getattr(model, "fit_stats_", {}).get("objective", np.nan)))
                          for model in models])
    return found, [(str(w.message), w.category) for w in caught or ()], \
        {key: dict(known) for key, known in workspace.get(LP_ANSWERS, {}).items()}


def _fold_workspace(X, y, train, valid, fold) -> tuple:
    """``(X_train, y_train, X_valid, y_valid, workspace)`` of a fold job: those this thread
    kept for ``fold`` (same CV id and fold index), else new ones, which replace the kept
    ones (dropped first: one fold's at a time) if ``fold`` is given and the training part is
    small (:data:`KEEP_FOLDS_UP_TO`)."""
    if fold is not None:
        kept = getattr(_kept_folds, "folds", {})
        if getattr(_kept_folds, "cv", None) == fold[0] and fold[1] in kept:
            return kept[fold[1]]
        _forget_folds()
    parts: tuple = (take_rows(X, train), y[train], take_rows(X, valid), y[valid], {})
    if fold is not None and len(train) <= KEEP_FOLDS_UP_TO:
        _kept_folds.cv, _kept_folds.folds = fold[0], {fold[1]: parts}
    return parts


def _forget_folds() -> None:
    """Drop the fold workspaces this thread keeps (:func:`_fold_workspace`)."""
    _kept_folds.cv, _kept_folds.folds = None, {}


def _merge(answers: dict, optima: dict) -> None:
    """Add LP optima (per θ path key, per LP) to ``answers``."""
    for key, known in optima.items():
        answers.setdefault(key, {}).update(known)


def _binarizes(estimator, X, counts) -> dict[int, bool]:
    """Per number of thresholds after the first: whether it changes the literals of ``X``.

    It does not where the estimator takes the columns as 0/1 features, nor where the quantile
    binarizer of the whole ``X`` gives the same literals as with the first number (categorical
    or few-valued columns only); those counts are not tried.
    """
    from rulelearn.binarize import QuantileBinarizer, as_frame
    from rulelearn.estimator import is_binary

    if len(counts) < 2:
        return {}
    frame = as_frame(X)
    binarize = estimator.get_params()["binarize"]
    if binarize is True or (binarize == "auto" and is_binary(frame)):
        return dict.fromkeys(counts[1:], False)
    if estimator.get_params().get("cut_points", "quantile") != "quantile":
        return dict.fromkeys(counts[1:], True)  # tree cuts depend on the fold's labels: try
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dropped columns: the fits warn about them
        first = QuantileBinarizer(n_thresholds=counts[0]).fit(frame).literals_
        return {n: QuantileBinarizer(n_thresholds=n).fit(frame).literals_ != first
                for n in counts[1:]}


def _refine(selection: Selection, evaluate, counts, changes) -> Selection:
    """``selection`` plus the rows of each of ``counts`` at its chosen (form, R), rechosen;
    counts that ``changes`` says leave the literals as they are are not tried (nor listed)."""
    best = selection.best
    found = list(selection.rows)
    tried = tuple(n for n in counts if changes.get(n, True))
    for n in tried:
        found.extend(evaluate(best.form, best.max_rules, n))
    rows = tuple(found)
    return dataclasses.replace(selection, rows=rows,
                               chosen=_choose_row(rows, range(len(rows)), ties=selection.ties),
                               thresholds=selection.thresholds + tried)


def refine_thresholds(estimator, X, y, selection: Selection, thresholds, *, cv=5,
                      progress=None, groups=None) -> Selection:
    """``selection`` with other numbers of thresholds tried at its chosen (form, R).

    For each number in ``thresholds``, one θ path per fold (the selection's θ grid, its folds:
    the same ``cv`` and seed) at the chosen form and R; the rows are added and the choice made
    again over all rows (the tie rule prefers fewer thresholds last). What
    :func:`select_setting` does after its grid when given several ``thresholds``.
    """
    counts = _grid("thresholds", (int(n) if isinstance(n, np.integer) else n
                                  for n in np.atleast_1d(thresholds)), _check_thresholds)
    folds = resolve_folds(y, cv, selection.seed, groups)
    if len(folds) != selection.n_folds:
        raise ParameterError(f"cv={cv} gives {len(folds)} folds; the selection has "
                             f"{selection.n_folds}")
    first = selection.thresholds[:1] or (int(estimator.get_params()["n_thresholds"]),)
    score = _scorer(estimator, X, y, folds, selection.thetas, progress,
                    selection.theta_scale == "rows", 1)

    def evaluate(form, r, n):
        return _cv_rows(form, r, n, selection.thetas,
                        score([(form, r, n)], range(len(folds)), True)[(form, r, n)],
                        len(folds))

    changes = _binarizes(estimator, X, first + counts)
    try:
        return _refine(dataclasses.replace(selection, thresholds=first), evaluate, counts,
                       changes)
    finally:
        _forget_folds()  # this process's fold workspaces: not kept past the CV


def try_cut_points(estimator, X, y, selection: Selection, kinds, *, cv=5, groups=None,
                   progress=None, n_jobs: int = 1, client=None) -> Selection:
    """``selection`` with the rows of each cut points of ``kinds`` (the binarizer's
    ``cut_points``) at its chosen (form, R), on its folds (the same ``cv`` and seed) and θ
    grid, and the choice made again over every row. Kinds equal to the estimator's own are not
    tried, nor any where the estimator takes the columns as 0/1 features or none is numeric
    (the literals would be the same)."""
    from rulelearn.binarize import CUT_POINTS, as_frame
    from rulelearn.estimator import is_binary

    own = estimator.get_params().get("cut_points", "quantile")
    kinds = tuple(k for k in dict.fromkeys(kinds) if k != own)
    for kind in kinds:
        if kind not in CUT_POINTS:
            raise ParameterError(f"every cut points kind must be one of "
                                 f"{', '.join(CUT_POINTS)}; got {kind!r}")
    frame = as_frame(X)
    binarize = estimator.get_params()["binarize"]
    numeric = any(_cut_at_thresholds(frame[c]) for c in frame.columns)
    if not kinds or not numeric or binarize is True or (binarize == "auto" and is_binary(frame)):
        return selection
    best = selection.best
    template = clone(estimator)
    if best.n_thresholds is not None:
        template.set_params(n_thresholds=best.n_thresholds)
    if best.method:  # the learner the CV chose (try_methods)
        template.set_params(method=best.method)
    rows = list(selection.rows)
    for kind in kinds:
        extra = select_setting(template.set_params(cut_points=kind), X, y,
                               thetas=selection.thetas, rules=(best.max_rules,),
                               forms=(best.form,), cv=cv, seed=selection.seed,
                               progress=progress, n_jobs=n_jobs,
                               theta_scale=selection.theta_scale, groups=groups,
                               client=client, ties=selection.ties)
        rows += [dataclasses.replace(row, cut_points=kind, method=best.method)
                 for row in extra.rows]
    found = tuple(rows)
    return dataclasses.replace(selection, rows=found,
                               chosen=_choose_row(found, range(len(found)), ties=selection.ties))


def try_methods(estimator, X, y, selection: Selection, methods, **search) -> Selection:
    """``selection`` (made with ``estimator``'s own learner) with the rows of each other
    learner of ``methods`` (e.g. ``("cg",)``): that learner's whole search, by
    :func:`select_setting` with the same folds (``search``: its keyword arguments, the
    same as ``selection``'s; the seed is ``selection``'s), the same grids and halving; the
    choice is then made again over every row (on ties, the estimator's own learner).
    Methods equal to the estimator's own are not tried again."""
    _check_methods(methods)
    own = estimator.get_params()["method"]
    others = tuple(m for m in dict.fromkeys(methods) if m != own)
    if not others:
        return selection
    rows = list(selection.rows)
    for method in others:
        extra = select_setting(clone(estimator).set_params(method=method), X, y,
                               thetas=selection.thetas, rules=selection.rules,
                               forms=selection.forms, seed=selection.seed,
                               theta_scale=selection.theta_scale, ties=selection.ties,
                               **search)
        rows += [dataclasses.replace(row, method=method) for row in extra.rows]
    found = tuple(rows)
    return dataclasses.replace(selection, rows=found, methods=(own,) + others,
                               chosen=_choose_row(found, range(len(found)), ties=selection.ties))


def _check_methods(methods) -> None:
    """A one-line error for a learner name that is not one (before any search runs)."""
    from rulelearn.learners import LEARNERS

    for method in methods:
        if method not in LEARNERS:
            raise ParameterError(f"every method must be one of {', '.join(LEARNERS)}; "
                                 f"got {method!r}")


def _cut_at_thresholds(column) -> bool:
    """Whether a column is cut at thresholds (numeric, and not only 0 and 1)."""
    import pandas as pd

    if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        return False
    return not set(pd.unique(column.dropna())) <= {0, 1}


def _error_and_size(model, X, y) -> tuple[float, int, int]:
    """Validation error (weighted by the model's ``class_weight``: with "balanced", the mean
    of the two classes' error rates), literals and clauses of a fold model."""
    from rulelearn.estimator import class_sample_weight

    weight = class_sample_weight(getattr(model, "class_weight", None), y)
    return error_rate(model, X, y, weight), model.rule_.n_literals, model.rule_.n_clauses


def _walk(evaluate, forms, rules, thetas, k, seed, skip_unused, thresholds=(),
          many=None, ties: str = "literals") -> Selection:
    """Walk R upwards per form (see :func:`select_setting`), form by form. ``many([(form,
    R), ...])``, if given, evaluates several cells at once: then R goes up for every form
    together (the same cells are tried), and the rows are put in the order form by form."""
    blocks: dict[tuple[str, int], list[CVRow]] = {}
    skipped: dict[str, list[tuple[str, int]]] = {form: [] for form in forms}

    def used_up(form, position, r) -> bool:
        block = blocks[(form, r)]
        if skip_unused and position >= 1 and max(row.max_clauses for row in block) < r:
            skipped[form].extend((form, q) for q in rules[position + 1:])
            return False
        return True

    if many is None:
        for form in forms:
            for position, r in enumerate(rules):
                blocks[(form, r)] = evaluate(form, r)
                if not used_up(form, position, r):
                    break
    else:
        active = list(forms)
        for position, r in enumerate(rules):
            cells = [(form, r) for form in active]
            if not cells:
                break
            blocks.update(zip(cells, many(cells)))
            active = [form for form in active if used_up(form, position, r)]
    rows = tuple(row for form in forms for r in rules for row in blocks.get((form, r), ()))
    return Selection(rows, _choose_row(rows, range(len(rows)), ties=ties), k, seed, forms,
                     rules, thetas, tuple(cell for form in forms for cell in skipped[form]),
                     tuple(thresholds), ties=ties)


def walk_unused(selection: Selection) -> Selection:
    """What ``skip_unused=True`` would have tried and chosen, from a full grid's selection
    (its rows of the first number of thresholds)."""
    first = selection.thresholds[0] if selection.thresholds else selection.rows[0].n_thresholds
    table = {(form, r): [selection.rows[i] for i in index]
             for (form, r, n, cuts, method), index in _groups(selection.rows).items()
             if n == first and cuts is None and not method}
    return _walk(lambda form, r: table[(form, r)], selection.forms, selection.rules,
                 selection.thetas, selection.n_folds, selection.seed, True,
                 selection.thresholds[:1], ties=selection.ties)


#: ``fit_select``'s "auto": above this many rows the CV runs on a stratified sample of
#: ``CV_ROWS`` rows, its clause LPs on samples from ``CV_LP_ROWS`` rows (measured: see
#: the docs, performance).
CV_SAMPLE_ABOVE = 20_000
CV_ROWS = 5_000
CV_LP_ROWS = 1_000
#: ``fit_select``'s "auto" successive halving: every (form, R) the walk tries runs on the
#: first fold, the 2 best there on every fold (:func:`select_setting`'s ``halving``; measured:
#: see the docs, performance).
HALVING = (1, 2)
#: ``fit_select``'s "auto" for :func:`select_setting`'s ``pick_start`` and ``theta_span``
#: (measured: see the docs, performance).
PICK_START = True
THETA_SPAN: int | None = 2
# Other CV shortcuts were measured and not kept: see the docs, performance.


@contextlib.contextmanager
def _each_warning_once():
    """Collect the warnings raised inside (the CV's fits, in this process or re-raised from
    workers); on leaving, raise each distinct (message, category) once, in the order first
    seen. Without it, every fold's fits warn again (e.g. about the same dropped column), as
    the fits' own ``catch_warnings`` reset Python's once-per-place registry."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            raised = dict.fromkeys((str(w.message), w.category) for w in caught)
    for message, category in raised:
        warnings.warn(message, category, stacklevel=4)


def cv_sample(y, n_rows: int | None, seed: int = 0) -> np.ndarray | None:
    """Sorted row indices of a stratified random sample of ``n_rows`` rows of ``y`` (each
    class in proportion; ``seed``), or None when ``n_rows`` is None or not below ``len(y)``."""
    y = np.asarray(y)
    if n_rows is None or n_rows >= len(y):
        return None
    from sklearn.model_selection import train_test_split

    codes = np.unique(y, return_inverse=True)[1]
    rows, _ = train_test_split(np.arange(len(y)), train_size=int(n_rows), stratify=codes,
                               random_state=seed)
    return np.sort(rows)


def fit_select(estimator, X, y, *, thetas=FIT_THETAS, rules=DEFAULT_RULES,
               forms=DEFAULT_FORMS, thresholds=None, cv=5, seed: int = 0,
               skip_unused: bool = True, progress=None, n_jobs: int = 1,
               cv_rows="auto", cv_params="auto", select: str = DEFAULT_SELECT,
               theta_scale: str = "rows", halving="auto", groups=None, client=None,
               prune: bool = True, ties: str = "literals", pick_start="auto",
               theta_span="auto", more_cut_points=FIT_MORE_CUT_POINTS, more_methods=()):
    """Choose (form, R, θ) by :func:`select_setting`, then fit a clone on all of ``(X, y)``.

    Returns ``(fitted estimator, Selection)``; ``estimator`` itself is left alone.
    ``thresholds``, ``progress``, ``n_jobs``, ``cv`` (an int, a splitter or a list of folds),
    ``groups``, ``client`` (a dask cluster for the CV's folds) and ``ties``: see
    :func:`select_setting`.

    ``cv_rows``: when ``(X, y)`` has more rows, the CV runs on a stratified random sample of
    that many (:func:`cv_sample`, from ``seed``) and only the final fit sees every row (for
    large tables: the CV's cost no longer grows with the rows). ``cv_params``: estimator
    parameters for the CV's fits only (e.g. ``{"lp_rows": 1000}``); the final fit keeps the
    estimator's. "auto" (both): above :data:`CV_SAMPLE_ABOVE` rows, the CV runs on
    ``CV_ROWS`` of them with the clause LP on samples from 1,000 rows
    (``lp_rows=1000``); at most :data:`CV_SAMPLE_ABOVE` rows (every dataset of the paper),
    on every row; there too an estimator that starts from "best" starts from the tree in
    the CV (the refit keeps "best"). At most that many rows the CV keeps "best": on the 14
    public tables under 5,000 rows the tree start alone in the CV cost 0.4 point of mean
    test error (20.18 -> 20.57 %) for 1.5x less CPU. None: never.

    ``thetas`` are read per training row (``theta_scale="rows"``, the default: each fold
    fits with θ x its rows, the refit with θ x ``len(y)``) or as the estimator's θ
    ("errors"); see :func:`select_setting`. ``halving``: "auto" is :data:`HALVING`; None
    runs every (form, R) the walk tries on every fold.

    ``select`` (:data:`SELECT_RULES`): ``"min"`` keeps the setting of lowest mean CV error;
    ``"0.1pt"`` (the default, :data:`DEFAULT_SELECT`) that of lowest mean CV error plus 0.1
    point per mean literal; ``"1se"`` the simplest (fewest literals, then the larger θ,
    smaller R, DNF) whose mean CV error is within one standard error of the lowest.

    ``prune``: the refit's rule then loses each literal or clause whose removal does not raise
    its training objective at its θ, or at :data:`~rulelearn._defaults.PRUNE_FLOOR` x rows
    if that is larger (errors + θ x literals: a literal must save 0.2 % of the rows in
    errors; :func:`rulelearn.prune.prune`; not with ``certify``, whose bound is about the
    rule the learner found).

    ``more_cut_points``: other cut points (``"tree"``, ``"both"``, ``"quantile"``) tried at
    the chosen (form, R) on the same folds and θ grid (:func:`try_cut_points`); the choice is
    then made over every row. Default :data:`FIT_MORE_CUT_POINTS`.

    ``more_methods``: other learners (e.g. ``("cg",)``) whose whole search runs too, on the
    same folds, grids and halving (:func:`try_methods`); the choice is then made over every
    row, and the refit uses the chosen row's learner (``model.method``).
    """
    _check_select("select", select)
    _check_methods(more_methods)
    large = len(np.asarray(y)) > CV_SAMPLE_ABOVE
    given_folds = _splitter_name(cv) != ""  # they index every row: no sample
    if cv_rows == "auto":
        cv_rows = CV_ROWS if large and not given_folds else None
    if cv_rows is not None and given_folds:
        raise ParameterError("cv_rows samples the rows, so cv must be an int; got a splitter")
    if cv_params == "auto":
        cv_params = {"lp_rows": CV_LP_ROWS} if large else {}
        if large and estimator.get_params().get("start") == "best":
            cv_params["start"] = "tree"
    if halving == "auto":
        halving = HALVING
    if pick_start == "auto":
        pick_start = PICK_START
    if theta_span == "auto":
        theta_span = THETA_SPAN
    rows = cv_sample(y, cv_rows, seed)
    cv_estimator = estimator if not cv_params else clone(estimator).set_params(**cv_params)
    X_cv, y_cv = (X, y) if rows is None else (take_rows(X, rows), np.asarray(y)[rows])
    with _each_warning_once():  # not once per fold and refit, wherever the folds ran
        search = dict(cv=cv, skip_unused=skip_unused, progress=progress, n_jobs=n_jobs,
                      halving=halving, groups=groups, client=client, pick_start=pick_start,
                      theta_span=theta_span, thresholds=thresholds)
        selection = select_setting(cv_estimator, X_cv, y_cv, thetas=thetas, rules=rules,
                                   forms=forms, seed=seed, theta_scale=theta_scale, ties=ties,
                                   **search)
        selection = try_methods(cv_estimator, X_cv, y_cv, selection, more_methods, **search)
        selection = try_cut_points(cv_estimator, X_cv, y_cv, selection, more_cut_points,
                                   cv=cv, groups=groups, progress=progress, n_jobs=n_jobs,
                                   client=client)
        if rows is not None:
            selection = dataclasses.replace(selection, cv_rows=len(rows))
        if select != "min":
            selection = selection.chosen_by(select)
        model = clone(estimator).set_params(**selection.estimator_setting(len(y))).fit(X, y)
        if prune and not estimator.get_params().get("certify"):  # a bound is about its rule
            from rulelearn._defaults import PRUNE_FLOOR
            from rulelearn.prune import prune_model

            prune_model(model, X, y, theta=max(float(model.theta), PRUNE_FLOOR * len(y)))
    return model, selection
