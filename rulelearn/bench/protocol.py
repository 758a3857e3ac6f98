"""The benchmark's evaluation protocol (the paper's section 4), as pure functions (no I/O).

For each outer fold of a stratified K-fold split: the method sees the outer training part
only.  Its tuned parameter (θ for the rule learners) is chosen by an inner stratified CV on
that part -- the candidate with the lowest mean validation error, ties going to the simpler
model (the larger θ) --, for the rule learners by
:meth:`~rulelearn.cv_estimator.BooleanRuleClassifierCV.select_setting` (one form and R, the
θ grid as the estimator's θ, ``ties="theta"``), for the other methods by the same tie rule
over their grid (:func:`~rulelearn.model_selection.choose`); the method is refitted on the
whole training part at every value of the grid (one warm-started θ path for the rule
learners), and the refit at the chosen value is the fold's rule.  Every refit is scored on
the outer test part after the choice (the record's
``path``: what each value would have given), so the test part cannot steer the choice.  Each
fit gets raw rows only (the estimator fits its binarizer inside ``fit``), so nothing from a
test or validation part can reach a fit.  The folds, the candidate fits and the tie rule are
the core's (:mod:`rulelearn.model_selection`), shared with ``rulelearn fit``, whose CV breaks
ties by fewest literals first instead (:data:`~rulelearn.model_selection.TIE_ORDERS`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

import numpy as np

from rulelearn._utils import error_rate
from rulelearn.bench.baselines import describe
from rulelearn.errors import DataError
from rulelearn.model_selection import choose, cv_scores, fit_candidates, stratified_folds, take_rows


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
    sem_errors: list = field(default_factory=list)  #: standard error of each mean over folds


def tune(estimator, X, y, *, param, grid, prefer="larger", inner_folds=10, seed=0) -> TuneResult:
    """Choose ``param`` from ``grid`` by stratified inner CV on (X, y)."""
    grid = list(grid)
    if param is None or len(grid) <= 1:
        return TuneResult(0, grid[0] if grid else None, [])
    folds = stratified_folds(np.asarray(y), inner_folds, seed)
    if is_rule_theta(estimator, param, grid, prefer):
        return tune_rule(estimator, X, y, grid, folds)
    errors = cv_scores(estimator, X, y, folds, param, grid)
    mean = errors.mean(axis=0)
    sem = errors.std(axis=0, ddof=1) / np.sqrt(len(errors))
    i = choose(mean, grid, prefer)
    return TuneResult(i, grid[i], [float(e) for e in mean], [float(e) for e in sem])


def is_rule_theta(estimator, param, grid, prefer) -> bool:
    """Whether ``tune`` runs through :class:`~rulelearn.cv_estimator.BooleanRuleClassifierCV`:
    θ of a plain ``BooleanRuleClassifier``, larger simpler, over distinct values."""
    from rulelearn.cv_estimator import BooleanRuleClassifierCV
    from rulelearn.estimator import BooleanRuleClassifier

    return (param == "theta" and prefer == "larger" and len(set(grid)) == len(grid)
            and isinstance(estimator, BooleanRuleClassifier)
            and not isinstance(estimator, BooleanRuleClassifierCV))


def tune_rule(estimator, X, y, grid, folds) -> TuneResult:
    """θ of a rule learner by ``BooleanRuleClassifierCV.select_setting``: ``estimator``'s
    form and R, ``grid`` as the estimator's θ, the given ``folds``, ties to the larger θ."""
    from rulelearn.cv_estimator import PASSED, BooleanRuleClassifierCV

    params = estimator.get_params()
    search = BooleanRuleClassifierCV(
        forms=(params["form"],), rules=(params["max_rules"],), thetas=list(grid),
        theta_scale="errors", cv=folds, select="min", ties="theta", halving=None,
        **{name: params[name] for name in PASSED})
    selection = search.select_setting(X, y)
    rows = selection.rows
    return TuneResult(selection.chosen, grid[selection.chosen],
                      [row.mean_error for row in rows], [row.sem for row in rows])


@dataclass
class FoldResult:
    """What one outer fold produced: the refitted model, its scores and the whole path."""

    model: object
    chosen: object
    inner_errors: list
    train_error: float
    test_error: float
    tune_seconds: float
    fit_seconds: float
    n_train: int
    n_test: int
    #: per grid value, in grid order: ``param``, ``cv_error`` and ``cv_sem`` (inner CV; None
    #: without one), ``literals`` and ``clauses`` of the refit, its ``train_error`` and
    #: ``test_error``
    path: list = field(default_factory=list)


def evaluate_fold(estimator, X, y, train, test, *, param=None, grid=(), prefer="larger",
                  inner_folds=10, seed=0) -> FoldResult:
    """Tune on ``X[train]`` by inner CV, refit on all of ``X[train]``, score on ``X[test]``.

    The refit covers the whole grid (one warm-started θ path for the rule learners, a fit per
    value otherwise); the model of the chosen value is the fold's result, the others make the
    record's path.  ``X[test]`` is only predicted, after the choice, by these refits.
    """
    y = np.asarray(y)
    grid = list(grid)
    values = grid if param is not None else []
    X_tr, y_tr = take_rows(X, train), y[train]
    X_te, y_te = take_rows(X, test), y[test]
    t0 = time.perf_counter()
    result = tune(estimator, X_tr, y_tr, param=param, grid=grid, prefer=prefer,
                  inner_folds=inner_folds, seed=seed)
    t1 = time.perf_counter()
    models = fit_candidates(estimator, X_tr, y_tr, param if values else None, values)
    t2 = time.perf_counter()
    cv = bool(result.mean_errors)
    path = []
    for i, model in enumerate(models):
        size = describe(model)
        path.append({"param": values[i] if values else None,
                     "cv_error": result.mean_errors[i] if cv else None,
                     "cv_sem": result.sem_errors[i] if cv else None,
                     "literals": size["literals"], "clauses": size["clauses"],
                     "train_error": error_rate(model, X_tr, y_tr),
                     "test_error": error_rate(model, X_te, y_te)})
    chosen = path[result.index]
    return FoldResult(
        model=models[result.index], chosen=result.value, inner_errors=result.mean_errors,
        train_error=chosen["train_error"], test_error=chosen["test_error"],
        tune_seconds=t1 - t0, fit_seconds=t2 - t1, n_train=len(train), n_test=len(test),
        path=path)
