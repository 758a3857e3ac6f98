"""Model selection for the core: stratified folds, fitting a grid, the tie rule, and choosing the
setting of a single fit by stratified K-fold CV, then a refit on all data.

:func:`fit_select` is what ``rulelearn fit`` does: it chooses θ (8 log-spaced values), the
number of clauses R (1, 3, 5, 10) and the form (DNF, CNF) together, on the same folds for every
setting, with one θ path per (form, R) and fold (``fit_path``: one LP model serves the whole θ
grid); per form, R grows only while the fits use all R clauses. Given several numbers of
quantile thresholds (not by default, nor in ``rulelearn fit``), the grid runs with the first,
and the others are tried at the chosen (form, R) over the same θ and folds
(:func:`refine_thresholds`). :func:`fit_select_theta`
chooses θ alone (R and form fixed). The benchmark's nested
protocol (:mod:`rulelearn.bench.protocol`) tunes θ only; it uses the folds
(:func:`stratified_folds`), the CV loop (:func:`cv_scores`, the one loop behind every selection
here) and the tie rule (:func:`choose`: equal mean validation errors go to the simpler rule) of
this module.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from rulelearn._defaults import (
    DEFAULT_FORMS,
    DEFAULT_RULES,
    DEFAULT_THETAS,
    SELECT_RULES,
    log_grid,
)
from rulelearn._utils import error_rate
from rulelearn.errors import DataError, ParameterError

__all__ = ["DEFAULT_FORMS", "DEFAULT_RULES", "DEFAULT_THETAS", "SELECT_RULES", "log_grid",
           "stratified_folds",
           "take_rows", "choose", "fit_candidates", "cv_folds", "cv_scores", "error_rate",
           "select_theta", "fit_select_theta", "select_setting", "fit_select", "walk_unused",
           "refine_thresholds", "cv_sample"]

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


def choose(mean_errors, grid, prefer: str) -> int:
    """Index of the candidate with the lowest mean error; ties go to the simplest."""
    errors = np.asarray(mean_errors, dtype=float)
    best = float(np.min(errors))
    for i in simplicity_order(grid, prefer):
        if errors[i] <= best + TIE_TOLERANCE:
            return i
    raise AssertionError("unreachable")


def fit_candidates(estimator, X, y, param: str | None, grid) -> list:
    """One fitted copy of ``estimator`` per value of ``param`` in ``grid`` (in grid order).

    Uses the estimator's θ path (``fit_path``: one LP model serves the whole grid) when it has
    one; otherwise clones and refits per value.
    """
    if param is None or not grid:
        return [clone(estimator).fit(X, y)]
    if param == "theta" and hasattr(estimator, "fit_path"):
        models = clone(estimator).fit_path(X, y, list(grid))
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


def cv_scores(estimator, X, y, folds, param: str | None, grid, score=error_rate,
              on_fold=None) -> np.ndarray:
    """``score(model, X_valid, y_valid)`` per fold (rows) and value of ``param`` (columns).

    The one CV loop of fit and bench: each fold's training part is fitted once for the whole
    grid by :func:`fit_candidates` (a θ path when ``param`` is θ). A ``score`` that returns a
    tuple adds a last axis. ``on_fold(done, total)``, if given, is called after each fold.
    """
    y = np.asarray(y)
    rows = []
    for train, valid in folds:
        models = fit_candidates(estimator, take_rows(X, train), y[train], param, grid)
        X_valid, y_valid = take_rows(X, valid), y[valid]
        rows.append([score(model, X_valid, y_valid) for model in models])
        if on_fold is not None:
            on_fold(len(rows), len(folds))
    return np.array(rows, dtype=float)


def select_theta(estimator, X, y, thetas=DEFAULT_THETAS, cv: int = 5, seed: int = 0
                 ) -> tuple[float, list[float]]:
    """``(best θ, mean validation error per θ)`` by stratified K-fold CV on ``(X, y)``.

    K is :func:`n_folds` ``(y, cv)``; folds are ``StratifiedKFold(shuffle=True,
    random_state=seed)``. Each training part is fitted once for the whole grid
    (``estimator.fit_path``). The lowest mean error wins; ties go to the larger θ.
    """
    thetas = [float(t) for t in np.atleast_1d(thetas)]
    if not thetas:
        raise ParameterError("thetas is empty")
    errors = cv_scores(estimator, X, y, cv_folds(y, cv, seed), "theta", thetas)
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

    @property
    def setting(self) -> dict:
        """The estimator parameters of this row."""
        setting = {"form": self.form, "max_rules": self.max_rules, "theta": self.theta}
        if self.n_thresholds is not None:
            setting["n_thresholds"] = self.n_thresholds
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

    @property
    def best(self) -> CVRow:
        """The chosen row."""
        return self.rows[self.chosen]

    @property
    def cv_error(self) -> float:
        return self.best.mean_error

    def best_per_setting(self) -> list[int]:
        """Per (form, R), in grid order, the index of its row the tie rule prefers."""
        return [_choose_row(self.rows, index, self.select)
                for index in _groups(self.rows).values()]

    def chosen_by(self, select: str) -> "Selection":
        """The same rows, the choice made by rule ``select`` (:data:`SELECT_RULES`)."""
        _check_select("select", select)
        return dataclasses.replace(self, select=select,
                                   chosen=_choose_row(self.rows, range(len(self.rows)), select))

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
        sample = "" if self.cv_rows is None else f" on a stratified sample of {self.cv_rows:,} rows"
        rule = ("" if self.select == "min" else
                " (the simplest within one SEM of the lowest CV error)")
        return (f"by {self.n_folds}-fold stratified CV{sample} over {size}{rule}; CV error "
                f"{100 * self.best.mean_error:.1f} % (SEM {100 * self.best.sem:.1f})")

    def table(self, full: bool = False) -> str:
        """The CV table as text: every row (``full``) or the preferred θ per (form, R).

        The chosen row is marked with ``*``; settings skipped are named on a last line.
        """
        index = range(len(self.rows)) if full else self.best_per_setting()
        several = len(self.thresholds) > 1  # then a column for the number of thresholds
        lines = ["  form   R" + (" thresholds" if several else "")
                 + "      theta  literals  CV error %"]
        for i in index:
            row = self.rows[i]
            lines.append(f"{'*' if i == self.chosen else ' '} {row.form.upper():4} "
                         f"{row.max_rules:3d}" + (f" {row.n_thresholds:10d}" if several else "")
                         + f" {row.theta:10.4g} {row.mean_literals:9.1f}  "
                         f"{100 * row.mean_error:5.1f} ± {100 * row.sem:.1f}")
        if self.skipped:
            by_form: dict[str, list[str]] = {}
            for form, r in self.skipped:
                by_form.setdefault(form, []).append(str(r))
            names = "; ".join(f"{form.upper()} R = {', '.join(rs)}" for form, rs in by_form.items())
            lines.append(f"  not tried: {names} (a smaller R already left a clause unused)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Plain JSON-able record (for a saved model)."""
        return {"n_folds": self.n_folds, "seed": self.seed, "chosen": self.chosen,
                "cv_rows": self.cv_rows, "select": self.select,
                "skipped": [list(s) for s in self.skipped],
                "thresholds": list(self.thresholds),
                "rows": [{"form": r.form, "max_rules": r.max_rules, "theta": r.theta,
                          "n_thresholds": r.n_thresholds, "mean_error": r.mean_error,
                          "sem": r.sem, "mean_literals": r.mean_literals} for r in self.rows]}


def _groups(rows) -> dict[tuple, list[int]]:
    """Row indices per (form, R, number of thresholds), in the order first met."""
    groups: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault((row.form, row.max_rules, row.n_thresholds), []).append(i)
    return groups


def _simplicity(row: CVRow) -> tuple:
    """Sort key, simplest first: fewer literals, larger θ, smaller R, DNF before CNF, fewer
    thresholds."""
    return (row.mean_literals, -row.theta, row.max_rules, DEFAULT_FORMS.index(row.form)
            if row.form in DEFAULT_FORMS else len(DEFAULT_FORMS),
            row.n_thresholds if row.n_thresholds is not None else 0)


def _choose_row(rows, index, select: str = "min") -> int:
    """Among ``rows[i] for i in index``: the lowest mean error, ties going to the simplest;
    with ``select="1se"`` the simplest whose mean error is at most that row's mean error plus
    its standard error."""
    index = list(index)
    best = min(rows[i].mean_error for i in index)
    tied = [i for i in index if rows[i].mean_error <= best + TIE_TOLERANCE]
    chosen = min(tied, key=lambda i: _simplicity(rows[i]))
    if select == "min":
        return chosen
    bound = rows[chosen].mean_error + rows[chosen].sem + TIE_TOLERANCE
    return min((i for i in index if rows[i].mean_error <= bound),
               key=lambda i: _simplicity(rows[i]))


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


def _check_theta(name, value):
    if not (isinstance(value, float) and np.isfinite(value) and value >= 0):
        raise ParameterError(f"every {name} must be a finite number >= 0; got {value!r}")


def _check_rules(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ParameterError(f"every {name} must be an int >= 1; got {value!r}")


def _check_form(name, value):
    if value not in DEFAULT_FORMS:
        raise ParameterError(f"every {name} must be one of 'dnf', 'cnf'; got {value!r}")


def _check_thresholds(name, value):
    _check_rules(name, value)


def select_setting(estimator, X, y, *, thetas=DEFAULT_THETAS, rules=DEFAULT_RULES,
                   forms=DEFAULT_FORMS, thresholds=None, cv: int = 5, seed: int = 0,
                   skip_unused: bool = True, progress=None, n_jobs: int = 1) -> Selection:
    """Choose (form, R, θ) for ``estimator`` by stratified K-fold CV on ``(X, y)``.

    K is :func:`n_folds` ``(y, cv)``; the folds are ``StratifiedKFold(shuffle=True,
    random_state=seed)``, the same for every setting. For each fold and each (form, R), one
    ``fit_path`` over ``thetas`` fits the training part. The lowest mean validation error wins;
    ties (equal means) go to the simplest: fewer mean literals, then the larger θ, the smaller
    R, DNF, fewer thresholds. A grid of one value fixes that axis. Other parameters (method,
    positive class, ...) are the estimator's.

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

    ``n_jobs``: worker processes for the folds (joblib's loky; HiGHS keeps one thread
    scheduler per process, so processes rather than threads). With more than one, the walk
    goes R by R for every form at once and the folds of all its (form, R) run in parallel:
    the same fits (each fold's θ path is deterministic), the same rows and the same choice
    as ``n_jobs=1``. -1: every core.
    """
    thetas = _grid("theta", (float(t) for t in np.atleast_1d(thetas)), _check_theta)
    rules = tuple(sorted(_grid("R", (int(r) if isinstance(r, np.integer) else r for r in rules),
                               _check_rules)))
    forms = _grid("form", forms, _check_form)
    counts = _threshold_grid(estimator, thresholds)
    folds = cv_folds(y, cv, seed)
    evaluate = _evaluator(estimator, X, y, folds, thetas, progress)
    many = None
    if _workers(n_jobs) > 1:
        many = _parallel_evaluator(estimator, X, y, folds, thetas, progress, counts[0],
                                   _workers(n_jobs))
    selection = _walk(lambda form, r: evaluate(form, r, counts[0]), forms, rules, thetas,
                      len(folds), seed, skip_unused, counts[:1], many=many)
    return _refine(selection, evaluate, counts[1:], _binarizes(estimator, X, counts))


def _threshold_grid(estimator, thresholds) -> tuple[int, ...]:
    if thresholds is None:
        return (int(estimator.get_params()["n_thresholds"]),)
    return _grid("thresholds", (int(n) if isinstance(n, np.integer) else n
                                for n in np.atleast_1d(thresholds)), _check_thresholds)


def _evaluator(estimator, X, y, folds, thetas, progress):
    """``evaluate(form, R, n_thresholds)``: the CV rows of one θ path per fold."""
    k = len(folds)

    def evaluate(form, r, n, refining=False):
        template = clone(estimator).set_params(form=form, max_rules=r, n_thresholds=n)

        def on_fold(done, total):
            if refining:
                progress(form, r, done, total, thresholds=n)
            else:
                progress(form, r, done, total)

        scores = cv_scores(template, X, y, folds, "theta", thetas, score=_error_and_size,
                           on_fold=None if progress is None else on_fold)
        return _cv_rows(form, r, n, thetas, scores, k)

    return evaluate


def _cv_rows(form, r, n, thetas, scores, k) -> list[CVRow]:
    """The CV rows of one (form, R, thresholds) from its scores (folds x θ x 3)."""
    errors, sizes, clauses = scores[..., 0], scores[..., 1], scores[..., 2]
    mean = errors.mean(axis=0)
    sem = errors.std(axis=0, ddof=1) / np.sqrt(k) if k > 1 else np.zeros_like(mean)
    return [CVRow(form, r, theta, float(mean[t]), float(sem[t]), float(sizes[:, t].mean()),
                  tuple(float(e) for e in errors[:, t]), int(clauses[:, t].max()), n)
            for t, theta in enumerate(thetas)]


def _workers(n_jobs) -> int:
    import os

    if n_jobs is None or n_jobs == 1:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0 \
            or n_jobs < -1:
        raise ParameterError(f"n_jobs must be an int >= 1 or -1; got {n_jobs!r}")
    return (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)


def _fold_scores(template, X, y, train, valid, thetas) -> tuple[list, list]:
    """One fold of :func:`cv_scores` (θ path on ``train``, scores on ``valid``), in a worker;
    with the warnings it raised (message, category), for the parent to raise again."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        models = fit_candidates(template, take_rows(X, train), y[train], "theta", thetas)
        X_valid, y_valid = take_rows(X, valid), y[valid]
        scores = [_error_and_size(model, X_valid, y_valid) for model in models]
    return scores, [(str(w.message), w.category) for w in caught]


def _parallel_evaluator(estimator, X, y, folds, thetas, progress, n, workers):
    """``many([(form, R), ...])``: the CV rows of each, every fold of every one in parallel."""
    from joblib import Parallel, delayed

    y = np.asarray(y)
    k = len(folds)

    def many(cells):
        templates = {cell: clone(estimator).set_params(form=cell[0], max_rules=cell[1],
                                                       n_thresholds=n) for cell in cells}
        tasks = [(cell, fold) for cell in cells for fold in range(k)]
        results = Parallel(n_jobs=min(workers, len(tasks)), backend="loky",
                           return_as="generator")(
            delayed(_fold_scores)(templates[cell], X, y, *folds[fold], thetas)
            for cell, fold in tasks)
        scores: dict = {cell: [] for cell in cells}
        for (cell, _), (result, raised) in zip(tasks, results):
            for message, category in raised:  # as if the fold had run here
                warnings.warn(message, category, stacklevel=2)
            scores[cell].append(result)
            if progress is not None:
                progress(cell[0], cell[1], len(scores[cell]), k)
        return [_cv_rows(cell[0], cell[1], n, thetas, np.array(scores[cell], dtype=float), k)
                for cell in cells]

    return many


def _binarizes(estimator, X, counts) -> dict[int, bool]:
    """Per number of thresholds after the first: whether it changes the literals of ``X``.

    It does not where the estimator takes the columns as 0/1 features, nor where the quantile
    binarizer of the whole ``X`` gives the same literals as with the first number (categorical
    or few-valued columns only); those counts are not tried.
    """
    from rulelearn.binarize import QuantileBinarizer, as_frame
    from rulelearn.estimator import _is_binary

    if len(counts) < 2:
        return {}
    frame = as_frame(X)
    binarize = estimator.get_params()["binarize"]
    if binarize is True or (binarize == "auto" and _is_binary(frame)):
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
        found.extend(evaluate(best.form, best.max_rules, n, refining=True))
    rows = tuple(found)
    return dataclasses.replace(selection, rows=rows, chosen=_choose_row(rows, range(len(rows))),
                               thresholds=selection.thresholds + tried)


def refine_thresholds(estimator, X, y, selection: Selection, thresholds, *, cv: int = 5,
                      progress=None) -> Selection:
    """``selection`` with other numbers of thresholds tried at its chosen (form, R).

    For each number in ``thresholds``, one θ path per fold (the selection's θ grid, its folds:
    the same ``cv`` and seed) at the chosen form and R; the rows are added and the choice made
    again over all rows (the tie rule prefers fewer thresholds last). What
    :func:`select_setting` does after its grid when given several ``thresholds``.
    """
    counts = _grid("thresholds", (int(n) if isinstance(n, np.integer) else n
                                  for n in np.atleast_1d(thresholds)), _check_thresholds)
    folds = cv_folds(y, cv, selection.seed)
    if len(folds) != selection.n_folds:
        raise ParameterError(f"cv={cv} gives {len(folds)} folds; the selection has "
                             f"{selection.n_folds}")
    first = selection.thresholds[:1] or (int(estimator.get_params()["n_thresholds"]),)
    evaluate = _evaluator(estimator, X, y, folds, selection.thetas, progress)
    changes = _binarizes(estimator, X, first + counts)
    return _refine(dataclasses.replace(selection, thresholds=first), evaluate, counts, changes)


def _error_and_size(model, X, y) -> tuple[float, int, int]:
    """Validation error (weighted by the model's ``class_weight``: with "balanced", the mean
    of the two classes' error rates), literals and clauses of a fold model."""
    from rulelearn.estimator import class_sample_weight

    weight = class_sample_weight(getattr(model, "class_weight", None), y)
    return error_rate(model, X, y, weight), model.rule_.n_literals, model.rule_.n_clauses


def _walk(evaluate, forms, rules, thetas, k, seed, skip_unused, thresholds=(),
          many=None) -> Selection:
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
    return Selection(rows, _choose_row(rows, range(len(rows))), k, seed, forms, rules, thetas,
                     tuple(cell for form in forms for cell in skipped[form]), tuple(thresholds))


def walk_unused(selection: Selection) -> Selection:
    """What ``skip_unused=True`` would have tried and chosen, from a full grid's selection
    (its rows of the first number of thresholds)."""
    first = selection.thresholds[0] if selection.thresholds else selection.rows[0].n_thresholds
    table = {(form, r): [selection.rows[i] for i in index]
             for (form, r, n), index in _groups(selection.rows).items() if n == first}
    return _walk(lambda form, r: table[(form, r)], selection.forms, selection.rules,
                 selection.thetas, selection.n_folds, selection.seed, True,
                 selection.thresholds[:1])


#: ``fit_select``'s "auto": above this many rows the CV runs on a stratified sample of
#: :data:`CV_ROWS` rows, its clause LPs on samples from :data:`CV_LP_ROWS` rows. Measured on
#: the generated 100,000-row table (benchmarks/rows.py): CV 243 CPU s in all (both worker
#: processes) with the refit, DNF R = 5 chosen, 91.1 % training accuracy.
CV_SAMPLE_ABOVE = 20_000
CV_ROWS = 10_000
CV_LP_ROWS = 1_000


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


def fit_select(estimator, X, y, *, thetas=DEFAULT_THETAS, rules=DEFAULT_RULES,
               forms=DEFAULT_FORMS, thresholds=None, cv: int = 5, seed: int = 0,
               skip_unused: bool = True, progress=None, n_jobs: int = 1,
               cv_rows="auto", cv_params="auto", select: str = "min"):
    """Choose (form, R, θ) by :func:`select_setting`, then fit a clone on all of ``(X, y)``.

    Returns ``(fitted estimator, Selection)``; ``estimator`` itself is left alone.
    ``thresholds``, ``progress``, ``n_jobs``: see :func:`select_setting`.

    ``cv_rows``: when ``(X, y)`` has more rows, the CV runs on a stratified random sample of
    that many (:func:`cv_sample`, from ``seed``) and only the final fit sees every row (for
    large tables: the CV's cost no longer grows with the rows). ``cv_params``: estimator
    parameters for the CV's fits only (e.g. ``{"lp_rows": 1000}``); the final fit keeps the
    estimator's. "auto" (both): above :data:`CV_SAMPLE_ABOVE` rows, the CV runs on
    :data:`CV_ROWS` of them with the clause LP on samples from 1,000 rows
    (``lp_rows=1000``); at most :data:`CV_SAMPLE_ABOVE` rows (every dataset of the paper),
    on every row with the estimator's parameters. None: never.

    ``select``: ``"min"`` keeps the setting of lowest mean CV error, ``"1se"`` the simplest
    (fewest literals, then the larger θ, smaller R, DNF) whose mean CV error is within one
    standard error of it (:data:`SELECT_RULES`).
    """
    _check_select("select", select)
    large = len(np.asarray(y)) > CV_SAMPLE_ABOVE
    if cv_rows == "auto":
        cv_rows = CV_ROWS if large else None
    if cv_params == "auto":
        cv_params = {"lp_rows": CV_LP_ROWS} if large else None
    rows = cv_sample(y, cv_rows, seed)
    cv_estimator = estimator if not cv_params else clone(estimator).set_params(**cv_params)
    X_cv, y_cv = (X, y) if rows is None else (take_rows(X, rows), np.asarray(y)[rows])
    selection = select_setting(cv_estimator, X_cv, y_cv, thetas=thetas, rules=rules,
                               forms=forms, thresholds=thresholds, cv=cv, seed=seed,
                               skip_unused=skip_unused, progress=progress, n_jobs=n_jobs)
    if rows is not None:
        selection = dataclasses.replace(selection, cv_rows=len(rows))
    if select != "min":
        selection = selection.chosen_by(select)
    model = clone(estimator).set_params(**selection.best.setting).fit(X, y)
    return model, selection
