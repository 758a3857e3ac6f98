"""θ selection for one fit: folds, grid, tie rule, refit."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from rulelearn._defaults import PRUNE_FLOOR
from rulelearn.errors import DataError, ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import (
    DEFAULT_THETAS,
    FIT_THETAS,
    CVRow,
    Selection,
    _choose_row,
    choose,
    cv_folds,
    cv_scores,
    fit_select,
    n_folds,
    refine_thresholds,
    resolve_folds,
    select_setting,
    walk_unused,
)
from rulelearn.prune import prune_model


def planted(n=60, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "c": rng.choice(["red", "blue", "green"], n)})
    y = np.where((X.a > 0.3) | ((X.b < -0.5) & (X.c == "red")), 1, 0)
    flip = rng.random(n) < noise
    return X, np.where(flip, 1 - y, y)


def test_default_grid_is_8_log_spaced_values_over_1e4_50():
    assert len(DEFAULT_THETAS) == 8
    assert DEFAULT_THETAS[0] == pytest.approx(1e-4) and DEFAULT_THETAS[-1] == pytest.approx(50)
    assert np.allclose(np.diff(np.log(DEFAULT_THETAS)), np.log(50 / 1e-4) / 7)


def test_n_folds_is_capped_by_the_minority_class():
    assert n_folds([0] * 50 + [1] * 10, 5) == 5
    assert n_folds([0] * 50 + [1] * 3, 5) == 3
    with pytest.raises(DataError, match="only 1 row"):
        n_folds([0] * 50 + [1], 5)
    with pytest.raises(DataError, match="single class"):
        n_folds([0] * 5, 5)
    with pytest.raises(DataError, match="at least 2 folds"):
        n_folds([0, 1] * 5, 1)


def test_cv_scores_match_a_plain_cv_loop():
    X, y = planted()
    est = BooleanRuleClassifier(max_rules=3)
    thetas = [0.01, 0.5, 5.0]
    errors = cv_scores(est, X, y, cv_folds(y, 4, 3), "theta", thetas).mean(axis=0)
    expected = np.zeros((4, 3))
    folds = StratifiedKFold(4, shuffle=True, random_state=3).split(np.zeros((len(y), 1)), y)
    for f, (tr, va) in enumerate(folds):
        # one theta path per fold (a warm-started path may differ from single fits at
        # degenerate LP optima, so the reference is the path too)
        for j, m in enumerate(BooleanRuleClassifier(max_rules=3).fit_path(X.iloc[tr], y[tr],
                                                                          thetas)):
            expected[f, j] = np.mean(m.predict(X.iloc[va]) != y[va])
    assert np.allclose(errors, expected.mean(axis=0))


def test_cv_scores_is_the_loop_behind_select_setting():
    X, y = planted()
    est = BooleanRuleClassifier(max_rules=3)
    thetas = [0.01, 0.5, 5.0]
    folds = cv_folds(y, 4, 3)
    errors = cv_scores(est, X, y, folds, "theta", thetas)
    assert errors.shape == (4, 3)
    sizes = cv_scores(est, X, y, folds, "theta", thetas,
                      score=lambda m, X_valid, y_valid: (m.rule_.n_literals, len(y_valid)))
    assert sizes.shape == (4, 3, 2)
    assert sizes[..., 1].sum(axis=0).tolist() == [len(y)] * 3
    selection = select_setting(est, X, y, thetas=thetas, rules=(3,), forms=("dnf",), cv=4, seed=3)
    assert [row.fold_errors for row in selection.rows] == [tuple(c) for c in errors.T]
    assert [row.mean_literals for row in selection.rows] == list(sizes[..., 0].mean(axis=0))


def test_ties_go_to_the_larger_theta():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=40)})
    y = (X.a > 0).astype(int).to_numpy()  # one literal separates the classes exactly
    thetas = [1e-3, 1e-2, 0.1]
    errors = cv_scores(BooleanRuleClassifier(max_rules=2), X, y, cv_folds(y, 5, 0), "theta",
                       thetas).mean(axis=0).tolist()
    assert errors[0] == errors[1] == errors[2]  # same rule for every theta
    assert thetas[choose(errors, thetas, "larger")] == 0.1


def test_cv_scores_are_deterministic_given_the_seed():
    X, y = planted(seed=4, noise=0.2)
    est = BooleanRuleClassifier(max_rules=2)
    first, again = (cv_scores(est, X, y, cv_folds(y, 5, 7), "theta", DEFAULT_THETAS)
                    for _ in range(2))
    assert np.array_equal(first, again)


# ------------------------------------------------------------------- (form, R, θ) together

def binary_cnf(n=300, seed=0):
    """y = (a | b | c) & (d | e | f) & (g | h) over 10 fair coins: 3 CNF clauses, 18 DNF terms."""
    rng = np.random.default_rng(seed)
    B = pd.DataFrame((rng.random((n, 10)) < 0.5).astype(int), columns=list("abcdefghij"))
    return B, ((B.a | B.b | B.c) & (B.d | B.e | B.f) & (B.g | B.h)).to_numpy()


def binary_dnf(n=300, seed=1):
    """y = OR of 8 disjoint two-literal terms over 20 coins with P(1) = 0.25."""
    rng = np.random.default_rng(seed)
    B = pd.DataFrame((rng.random((n, 20)) < 0.25).astype(int),
                     columns=[f"x{j}" for j in range(20)])
    y = np.zeros(n, dtype=int)
    for t in range(8):
        y |= B[f"x{2 * t}"].to_numpy() & B[f"x{2 * t + 1}"].to_numpy()
    return B, y


def row(selection, form, rules, theta):
    return next(r for r in selection.rows
                if (r.form, r.max_rules, r.theta) == (form, rules, theta))


def test_the_grid_finds_a_planted_cnf():
    X, y = binary_cnf()
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.01, 0.5, 5))
    assert (sel.best.form, sel.best.max_rules) == ("cnf", 3)  # R = 5, 10: same rule, tie
    assert sel.best.mean_error == 0 and sel.best.theta == 0.5  # θ = 0.01: same rule, tie
    assert min(r.mean_error for r in sel.rows if r.form == "dnf") > 0.05


def test_the_grid_finds_that_8_terms_need_r_10():
    X, y = binary_dnf()
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.01,),
                         rules=(5, 10))
    assert (sel.best.form, sel.best.max_rules) == ("dnf", 10)
    assert row(sel, "dnf", 10, 0.01).mean_error < row(sel, "dnf", 5, 0.01).mean_error - 0.05


def test_the_table_has_one_row_per_setting_in_grid_order():
    X, y = planted()
    est = BooleanRuleClassifier(max_rules=3)
    sel = select_setting(est, X, y, thetas=(0.01, 1.0), rules=(2, 1), cv=3, seed=2,
                         skip_unused=False)
    assert isinstance(sel, Selection) and sel.n_folds == 3 and sel.seed == 2
    assert [(r.form, r.max_rules, r.theta) for r in sel.rows] == [
        (f, n, t) for f in ("dnf", "cnf") for n in (1, 2) for t in (0.01, 1.0)]
    # each (form, R) is the θ path of a plain CV loop on the same folds
    folds = list(StratifiedKFold(3, shuffle=True, random_state=2).split(np.zeros((len(y), 1)), y))
    for form, rules in [("dnf", 2), ("cnf", 1)]:
        errors, sizes = [], []
        for tr, va in folds:
            models = BooleanRuleClassifier(form=form, max_rules=rules).fit_path(
                X.iloc[tr], y[tr], [0.01, 1.0])
            errors.append([np.mean(m.predict(X.iloc[va]) != y[va]) for m in models])
            sizes.append([m.rule_.n_literals for m in models])
        for j, theta in enumerate((0.01, 1.0)):
            r = row(sel, form, rules, theta)
            assert r.fold_errors == pytest.approx([e[j] for e in errors])
            assert r.mean_error == pytest.approx(np.mean([e[j] for e in errors]))
            assert r.sem == pytest.approx(np.std([e[j] for e in errors], ddof=1) / np.sqrt(3))
            assert r.mean_literals == pytest.approx(np.mean([s[j] for s in sizes]))
    assert sel.best.mean_error == min(r.mean_error for r in sel.rows)
    short, full = sel.table().splitlines(), sel.table(full=True).splitlines()
    assert len(short) == 1 + 4 and len(full) == 1 + 8
    assert sum(line.startswith("*") for line in short) == 1
    assert sum(line.startswith("*") for line in full) == 1
    assert sel.describe().startswith("by 3-fold stratified CV over 2 forms x 2 R x 2 theta;")


def test_ties_go_to_fewer_literals_then_larger_theta_smaller_r_and_dnf():
    rng = np.random.default_rng(1)
    X = pd.DataFrame((rng.random((40, 2)) < 0.5).astype(int), columns=["a", "b"])
    y = X.a.to_numpy()  # one literal is the concept, in both forms and every R
    sel = select_setting(BooleanRuleClassifier(), X, y, thetas=(1e-3, 0.1), rules=(1, 3))
    assert all(r.mean_error == 0 for r in sel.rows)
    assert (sel.best.form, sel.best.max_rules, sel.best.theta) == ("dnf", 1, 0.1)
    # the order itself, on made-up rows with equal errors
    rows = [CVRow("cnf", 1, 1.0, 0.1, 0, 2.0, ()), CVRow("dnf", 3, 1.0, 0.1, 0, 2.0, ()),
            CVRow("dnf", 1, 0.5, 0.1, 0, 2.0, ()), CVRow("cnf", 10, 0.1, 0.1, 0, 1.0, ()),
            CVRow("dnf", 1, 1.0, 0.1, 0, 2.0, ()), CVRow("dnf", 1, 9.0, 0.2, 0, 0.0, ())]
    order = []
    while len(order) < 5:
        order.append(_choose_row(rows, [i for i in range(5) if i not in order]))
    # fewer literals (3), then the larger θ (4, 0, 1 before 2), the smaller R (4, 0 before 1),
    # DNF (4 before 0)
    assert order == [3, 4, 0, 1, 2]
    assert _choose_row(rows, range(6)) == 3  # a lower error beats a simpler rule


def test_fixed_axes_and_the_refit():
    X, y = planted()
    est = BooleanRuleClassifier(method="sc")
    model, sel = fit_select(est, X, y, forms=("cnf",), rules=(2,), thetas=(0.5, 2.0),
                            theta_scale="errors")
    assert {(r.form, r.max_rules) for r in sel.rows} == {("cnf", 2)} and len(sel.rows) == 2
    assert (model.form, model.max_rules, model.theta) == ("cnf", 2, sel.best.theta)
    assert model.method == "sc" and est.form == "dnf"  # the template is left alone
    ref = BooleanRuleClassifier(method="sc", form="cnf", max_rules=2, theta=sel.best.theta)
    assert model.rule_ == ref.fit(X, y).rule_
    with pytest.raises(ParameterError, match="R grid is empty"):
        select_setting(est, X, y, rules=())
    with pytest.raises(ParameterError, match="form"):
        select_setting(est, X, y, forms=("DNF",))
    with pytest.raises(ParameterError, match="finite"):
        select_setting(est, X, y, thetas=(float("inf"),))


def test_r_grows_only_while_the_clauses_are_used():
    X, y = binary_cnf()  # 3 CNF clauses; a DNF needs 18 terms
    est = BooleanRuleClassifier(pos_label=1)
    full = select_setting(est, X, y, thetas=(0.01, 0.5, 5), skip_unused=False)
    assert len(full.rows) == 2 * 4 * 3 and full.skipped == ()
    walked = select_setting(est, X, y, thetas=(0.01, 0.5, 5))
    assert walked == walk_unused(full)  # the same fits: a subset of the full table
    # CNF R = 3 uses 3 clauses, R = 5 leaves 2 unused: R = 10 is not tried
    assert ("cnf", 10) in walked.skipped and ("cnf", 5) not in walked.skipped
    assert row(full, "cnf", 5, 0.5).max_clauses == 3
    assert {(r.form, r.max_rules) for r in walked.rows}.isdisjoint(walked.skipped)
    assert walked.best == full.best
    assert "not tried: CNF R = 10" in walked.table()


# ------------------------------------------------------------------- numbers of thresholds

def halves(n=120, seed=0):
    """y = (a > 0.5), half the rows with a in [0, 0.4], half in [0.6, 1]; b is noise. The median
    (1 or 3 quantile thresholds) falls in the gap; the terciles (2) do not, and a > tercile
    misclassifies a sixth of the rows."""
    rng = np.random.default_rng(seed)
    a = np.concatenate([0.4 * rng.random(n // 2), 0.6 + 0.4 * rng.random(n - n // 2)])
    X = pd.DataFrame({"a": a, "b": rng.random(n)})
    return X, (X.a > 0.5).astype(int).to_numpy()


def test_a_finer_count_is_tried_at_the_chosen_form_and_r_and_wins_if_it_fits_better():
    X, y = halves()
    est = BooleanRuleClassifier(pos_label=1)
    thetas = (0.01, 1.0)
    sel = select_setting(est, X, y, thetas=thetas, rules=(1, 3), thresholds=(2, 3), cv=3)
    first = [r for r in sel.rows if r.n_thresholds == 2]
    finer = [r for r in sel.rows if r.n_thresholds == 3]
    assert sel.thresholds == (2, 3) and len(finer) == len(thetas)
    assert sel.rows[:len(first)] == tuple(first)  # the grid first, then the finer rows
    chosen_first = _choose_row(first, range(len(first)))
    assert {(r.form, r.max_rules) for r in finer} == {
        (first[chosen_first].form, first[chosen_first].max_rules)}
    assert min(r.mean_error for r in first) > 0.1  # terciles cannot say a > 0.5
    assert sel.best.n_thresholds == 3 and sel.best.mean_error == 0
    assert sel.best.setting == {"form": sel.best.form, "max_rules": sel.best.max_rules,
                                "theta": sel.best.theta, "n_thresholds": 3}
    model, again = fit_select(est, X, y, thetas=thetas, rules=(1, 3), thresholds=(2, 3), cv=3,
                              theta_scale="errors", halving=None, select="min")
    assert again == sel and model.n_thresholds == 3 and est.n_thresholds == 10
    assert model.rule_.n_literals == 1 and model.score(X, y) == 1
    # refine_thresholds does the same from the grid of the first count
    grid = select_setting(est, X, y, thetas=thetas, rules=(1, 3), thresholds=(2,), cv=3)
    assert grid.thresholds == (2,)
    assert refine_thresholds(est, X, y, grid, (3,), cv=3) == sel
    assert walk_unused(sel) == grid  # the walk replays the first count's rows only
    with pytest.raises(ParameterError, match="folds"):
        refine_thresholds(est, X, y, grid, (3,), cv=4)


def test_the_table_shows_the_thresholds_when_several_were_tried():
    X, y = halves()
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.01, 1.0),
                         rules=(1,), forms=("dnf",), thresholds=(2, 3), cv=3)
    lines = sel.table().splitlines()
    assert lines[0].split() == ["form", "R", "thresholds", "theta", "literals", "CV", "error",
                                "%"]
    assert [line.split()[-6] for line in lines[1:]] == ["2", "3"]
    assert lines[2].startswith("*")
    assert "with 2 thresholds, then 3 thresholds at the best form and R;" in sel.describe()
    record = sel.to_dict()
    assert record["thresholds"] == [2, 3]
    assert [r["n_thresholds"] for r in record["rows"]] == [2, 2, 3, 3]
    plain = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.01, 1.0),
                           rules=(1,), forms=("dnf",), cv=3)
    assert "thresholds" not in plain.table() and "thresholds" not in plain.describe()
    assert plain.thresholds == (10,) and plain.best.n_thresholds == 10


def test_equal_errors_keep_the_fewer_thresholds():
    X, y = halves()
    # 1 threshold (the median) and 3 (the quartiles) both give the one literal a > median
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(1.0,), rules=(1,),
                         forms=("dnf",), thresholds=(1, 3), cv=3)
    assert [r.mean_error for r in sel.rows] == [0, 0]
    assert [r.mean_literals for r in sel.rows] == [1, 1]
    assert sel.best.n_thresholds == 1
    rows = [CVRow("dnf", 1, 1.0, 0.1, 0, 1.0, (), 1, 30), CVRow("dnf", 1, 1.0, 0.1, 0, 1.0, (), 1,
                                                                 10)]
    assert _choose_row(rows, range(2)) == 1


def test_counts_that_leave_the_literals_alone_are_not_tried():
    X, y = binary_cnf()  # 0/1 columns: no thresholds at all
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.5,), rules=(3,),
                         forms=("cnf",), thresholds=(10, 30))
    assert sel.thresholds == (10,) and len(sel.rows) == 1
    X, y = planted()
    categorical = X[["c"]]  # one categorical column: the same literals for every count
    sel = select_setting(BooleanRuleClassifier(pos_label=1), categorical, y, thetas=(0.5,),
                         rules=(1,), forms=("dnf",), thresholds=(10, 30))
    assert sel.thresholds == (10,) and len(sel.rows) == 1
    sel = select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(0.5,), rules=(1,),
                         forms=("dnf",), thresholds=(10, 30))
    assert sel.thresholds == (10, 30) and len(sel.rows) == 2
    with pytest.raises(ParameterError, match="thresholds"):
        select_setting(BooleanRuleClassifier(), X, y, thresholds=(0,))


def test_progress_names_the_finer_count_for_its_folds():
    X, y = halves()
    calls = []
    select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(1.0,), rules=(1,),
                   forms=("dnf",), thresholds=(2, 3), cv=3,
                   progress=lambda *args, **kwargs: calls.append((args, kwargs)))
    assert calls == ([(("dnf", 1, k, 3), {}) for k in (1, 2, 3)]
                     + [(("dnf", 1, k, 3), {"thresholds": 3}) for k in (1, 2, 3)])


# ------------------------------------------------------------------- worker processes

def test_two_worker_processes_give_the_selection_of_one():
    X, y = binary_cnf()
    est = BooleanRuleClassifier(pos_label=1)
    calls = []
    one = select_setting(est, X, y, thetas=(0.01, 0.5, 5), cv=3)
    two = select_setting(est, X, y, thetas=(0.01, 0.5, 5), cv=3, n_jobs=2,
                         progress=lambda form, r, done, total: calls.append((form, r, done)))
    assert two == one and two.skipped == one.skipped
    # each (form, R) tried reports its 3 folds
    assert sorted(calls) == sorted((r.form, r.max_rules, d) for r in one.rows[::3]
                                   for d in (1, 2, 3))
    model, _ = fit_select(est, X, y, thetas=(0.01,), rules=(3,), cv=3, n_jobs=2)
    assert str(model.rule_) == str(fit_select(est, X, y, thetas=(0.01,), rules=(3,),
                                              cv=3)[0].rule_)
    with pytest.raises(ParameterError):
        select_setting(est, X, y, n_jobs=0)


def test_the_cv_runs_on_the_workers_started_early():
    from rulelearn import _workers

    assert not _workers.start(None) and not _workers.start(1)  # one process: no worker
    assert _workers.start(2)
    pool = _workers._pools[0]
    worker = set(pool._processes)  # its process, started now
    X, y = planted(n=60, seed=1)
    est = BooleanRuleClassifier(pos_label=1)
    alone = select_setting(est, X, y, thetas=(0.5, 2.0), rules=(1, 3), cv=3)
    assert select_setting(est, X, y, thetas=(0.5, 2.0), rules=(1, 3), cv=3, n_jobs=2) == alone
    # the same executor and worker (loky makes new ones when its arguments change)
    assert _workers._pools == [pool] and set(pool._processes) == worker


def test_fold_jobs_run_here_and_in_a_worker_give_the_results_in_job_order():
    from rulelearn.model_selection import _fold_scores, _here_and_in_workers, _job_size

    X, y = planted(n=60, seed=1)
    folds = cv_folds(y, 3, seed=0)
    est = BooleanRuleClassifier(pos_label=1)
    jobs = [(*folds[f], [(clone(est).set_params(max_rules=r), [0.5, 2.0])], None)
            for f, r in ((0, 3), (1, 1), (2, 2), (0, 1))]
    alone = [_fold_scores(X, y, *job)[0] for job in jobs]
    assert [found for found, _, _ in _here_and_in_workers(X, y, jobs, 1)] == alone
    # a job's size: R x its θ values, over its paths (cell, fold, start, θ indices)
    assert _job_size([(("dnf", 5, 10), 1, "sc", (0, 1, 2)), (("dnf", 3, 10), 1, "sc", (4,))]) \
        == 18


def test_a_cv_on_a_stratified_sample_then_the_refit_on_every_row():
    from rulelearn.model_selection import cv_sample

    X, y = planted(n=120, seed=3)
    rows = cv_sample(y, 60, seed=0)
    assert len(rows) == 60 and np.all(np.diff(rows) > 0)
    assert abs(y[rows].mean() - y.mean()) <= 1 / 60  # stratified
    assert cv_sample(y, 120) is None and cv_sample(y, None) is None
    est = BooleanRuleClassifier(pos_label=1)
    grid = dict(thetas=(0.1, 2.0), rules=(1, 3), cv=3, theta_scale="errors")
    model, selection = fit_select(est, X, y, cv_rows=60, cv_params={"max_iter": 5},
                                  pick_start=False, theta_span=None, **grid)
    alone = select_setting(est.set_params(max_iter=5), X.iloc[rows], y[rows], **grid)
    assert selection.rows == alone.rows and selection.chosen == alone.chosen
    assert selection.cv_rows == 60 and "sample of 60 rows" in selection.describe()
    assert model.max_iter == 100  # the final fit: the estimator's own parameters, every row
    refit = BooleanRuleClassifier(pos_label=1).set_params(**selection.best.setting).fit(X, y)
    assert str(model.rule_) == str(refit.rule_)
    everything = fit_select(BooleanRuleClassifier(pos_label=1), X, y, halving=None,
                            **grid)[1]  # auto: all rows; no halving, so no start is picked
    assert everything.cv_rows is None
    assert everything == select_setting(BooleanRuleClassifier(pos_label=1), X, y,
                                        **grid).chosen_by(everything.select)
    assert everything.estimator_setting(120) == everything.best.setting  # θ in errors


def test_the_automatic_cv_sample_starts_above_every_dataset_of_the_paper():
    from rulelearn.model_selection import CV_ROWS, CV_SAMPLE_ABOVE

    assert CV_SAMPLE_ABOVE >= 19_020  # MAGIC, all of it
    y = np.arange(CV_SAMPLE_ABOVE + 1) % 3 == 0
    X = pd.DataFrame({"a": y.astype(int)})
    model, selection = fit_select(BooleanRuleClassifier(pos_label=True), X, y, thetas=(1e-4,),
                                  rules=(1,), forms=("dnf",), cv=2)
    assert selection.cv_rows == CV_ROWS and str(model.rule_) == "a == 1"
    assert model.lp_rows == "auto"  # the final fit: the estimator's own LP


def test_warnings_of_worker_processes_are_raised_in_the_caller():
    X, y = planted(n=60, seed=2)
    X = X.assign(k=1)  # a constant column: every fold's binarizer warns
    with pytest.warns(UserWarning, match="constant or empty column"):
        select_setting(BooleanRuleClassifier(pos_label=1), X, y, thetas=(1.0,), rules=(1,),
                       forms=("dnf",), cv=2, n_jobs=2)


def test_1se_takes_the_simplest_row_within_one_sem_of_the_lowest_error():
    # (form, R, θ, mean error, SEM, literals, fold errors)
    rows = [CVRow("dnf", 3, 0.1, 0.100, 0.020, 9.0, ()),   # the lowest error: min's choice
            CVRow("dnf", 1, 1.0, 0.115, 0.010, 3.0, ()),   # within 0.100 + 0.020: fewer literals
            CVRow("dnf", 1, 9.0, 0.125, 0.010, 1.0, ()),   # 0.125 > 0.120: outside
            CVRow("cnf", 1, 1.0, 0.120, 0.030, 2.0, ())]   # exactly on the bound: inside
    assert _choose_row(rows, range(4)) == 0
    assert _choose_row(rows, range(4), "1se") == 3
    assert _choose_row(rows, range(3), "1se") == 1
    # the bound is the SEM of the row min chooses, not of the candidate
    assert _choose_row([rows[0], CVRow("dnf", 1, 9.0, 0.125, 0.5, 1.0, ())], range(2), "1se") == 0


def test_fit_select_1se_is_within_one_sem_and_never_larger_than_min():
    X, y = planted(n=120, seed=3, noise=0.15)
    grid = dict(thetas=(1e-3, 1.0, 10.0), rules=(1, 3), cv=3, theta_scale="errors")
    model_min, sel_min = fit_select(BooleanRuleClassifier(), X, y, **grid)
    model_1se, sel_1se = fit_select(BooleanRuleClassifier(), X, y, select="1se", **grid)
    assert sel_1se.rows == sel_min.rows  # the same CV; only the choice differs
    assert sel_1se.select == "1se" and sel_1se.to_dict()["select"] == "1se"
    best = sel_min.best
    assert sel_1se.best.mean_error <= best.mean_error + best.sem + 1e-12
    assert sel_1se.best.mean_literals <= best.mean_literals
    assert sel_1se.chosen == sel_min.chosen_by("1se").chosen
    assert model_1se.get_params()["theta"] == sel_1se.best.theta
    assert "within one SEM" in sel_1se.describe()
    with pytest.raises(ParameterError, match="select must be one of min, 0.1pt, 1se"):
        fit_select(BooleanRuleClassifier(), X, y, select="lse")


# ------------------------------------------------------------------- θ per row, halving

def test_fit_grid_is_8_log_spaced_values_per_row_over_1e5_01():
    assert len(FIT_THETAS) == 8
    assert FIT_THETAS[0] == pytest.approx(1e-5) and FIT_THETAS[-1] == pytest.approx(0.1)
    assert np.allclose(np.diff(np.log(FIT_THETAS)), np.log(0.1 / 1e-5) / 7, rtol=1e-4)


def test_a_per_row_grid_is_the_errors_grid_times_each_folds_training_rows():
    import dataclasses

    X, y = planted(n=60, seed=1)  # 3 folds of 20: every training part has 40 rows
    est = BooleanRuleClassifier(pos_label=1)
    grid = dict(rules=(1, 3), cv=3)
    per_row = select_setting(est, X, y, thetas=(0.0125, 0.05), theta_scale="rows", **grid)
    errors = select_setting(est, X, y, thetas=(0.5, 2.0), **grid)  # x 40
    assert per_row.theta_scale == "rows" and errors.theta_scale == "errors"
    assert [dataclasses.replace(r, theta=r.theta * 40) for r in per_row.rows] == list(errors.rows)
    assert per_row.chosen == errors.chosen
    model, selection = fit_select(est, X, y, thetas=(0.0125, 0.05), halving=None,
                                  **grid)  # per row: the default
    assert selection.select == "0.1pt" and selection == per_row.chosen_by("0.1pt")
    assert model.theta == pytest.approx(selection.best.theta * 60)  # the refit: all 60 rows
    assert selection.estimator_setting(60)["theta"] == model.theta
    with pytest.raises(ParameterError, match="theta_scale must be one of rows, errors"):
        select_setting(est, X, y, theta_scale="row")


def test_halving_finishes_only_the_best_cells_of_the_first_folds():
    X, y = binary_cnf()
    est = BooleanRuleClassifier(pos_label=1, start="sc")  # a walk both runs take alike
    grid = dict(thetas=(0.01, 0.5, 5), cv=3)
    full = select_setting(est, X, y, **grid)
    halved = select_setting(est, X, y, halving=(1, 2), **grid)
    cells = list(dict.fromkeys((r.form, r.max_rules) for r in full.rows))  # the walk's cells
    first = {cell: min(r.fold_errors[0] for r in full.rows if (r.form, r.max_rules) == cell)
             for cell in cells}
    bound = sorted(first.values())[1]
    kept = [cell for cell in cells if first[cell] <= bound + 1e-12]
    # the cells kept run on every fold: their rows are the full CV's, and only they compete
    assert halved.rows == tuple(r for r in full.rows if (r.form, r.max_rules) in kept)
    assert set(halved.pruned) == set(cells) - set(kept) and halved.pruned
    assert halved.first_folds == 1 and halved.n_folds == 3 and halved.skipped == full.skipped
    assert halved.best == _rows_best(halved.rows)
    assert "dropped after 1 of 3 folds" in halved.table()
    parallel = select_setting(est, X, y, halving=(1, 2), n_jobs=2, **grid)
    assert parallel == halved
    with pytest.raises(ParameterError, match="halving"):
        select_setting(est, X, y, halving=(0, 2), **grid)


def _rows_best(rows):
    return rows[_choose_row(rows, range(len(rows)))]


def test_r_grows_while_any_theta_of_the_path_uses_all_r_clauses():
    def block(r, used):  # one θ path of (DNF, R): the clauses its fold models used per θ
        return [CVRow("dnf", r, theta, 0.2, 0.0, 1.0, (0.2,), clauses)
                for theta, clauses in zip((0.01, 1.0), used)]

    rows = block(1, (1, 1)) + block(3, (1, 3)) + block(5, (4, 2)) + block(10, (5, 5))
    full = Selection(tuple(rows), 0, 1, 0, ("dnf",), (1, 3, 5, 10), (0.01, 1.0))
    walked = walk_unused(full)
    # R = 3: only θ = 1 used all 3 clauses, enough to try R = 5; there no θ used 5: stop
    assert {r.max_rules for r in walked.rows} == {1, 3, 5}
    assert walked.skipped == (("dnf", 10),)


def test_fit_selects_by_halving_from_its_own_start_then_refits():
    """At most CV_SAMPLE_ABOVE rows the CV keeps the estimator's start ("best") on the first
    fold, and refits from the start that won there."""
    from rulelearn.model_selection import HALVING, PICK_START, THETA_SPAN

    X, y = planted(n=90, seed=4)
    grid = dict(thetas=(0.002, 0.02), rules=(1, 3), cv=3)
    model, selection = fit_select(BooleanRuleClassifier(pos_label=1, start="best"), X, y, **grid)
    alone = select_setting(BooleanRuleClassifier(pos_label=1, start="best"), X, y,
                           theta_scale="rows", halving=HALVING, pick_start=PICK_START,
                           theta_span=THETA_SPAN, **grid)
    assert selection == alone.chosen_by(selection.select) and selection.first_folds == 1
    refit = BooleanRuleClassifier(pos_label=1, start="best").set_params(
        **selection.estimator_setting(90)).fit(X, y)
    prune_model(refit, X, y, theta=max(refit.theta, PRUNE_FLOOR * 90))  # as fit_select does
    assert selection.best.start in ("sc", "tree")  # the start that won on the first fold
    assert model.start == selection.best.start and str(model.rule_) == str(refit.rule_)


def _errors_saved(model, X, y):
    """Per literal of ``model``'s rule: the training errors its removal would add (weight 1)."""
    from rulelearn.estimator import input_frame

    frame = input_frame(model, X)
    positive = np.asarray(y) == model.pos_label_
    held = [[lit.evaluate(frame) for lit in c.literals] for c in model.rule_.clauses]
    dnf = model.rule_.form == "dnf"

    def predict(masks):
        values = [np.logical_and.reduce(m) if dnf else np.logical_or.reduce(m) for m in masks if m]
        if not values:
            return np.full(len(positive), not dnf)
        return np.logical_or.reduce(values) if dnf else np.logical_and.reduce(values)

    def added(masks):
        return int((predict(masks) != positive).sum()) - base

    base = int((predict(held) != positive).sum())
    literals = [added([h[:j] + h[j + 1:] if i == c else h for i, h in enumerate(held)])
                for c in range(len(held)) for j in range(len(held[c])) if len(held[c]) > 1]
    clauses = [added([h for i, h in enumerate(held) if i != c]) / len(held[c])
               for c in range(len(held))]  # per literal a whole clause's removal saves
    return literals + clauses


def test_fit_select_prunes_literals_that_save_less_than_the_floor(monkeypatch):
    """The refit keeps no literal that saves fewer than PRUNE_FLOOR x rows training errors, even
    at a θ that makes every literal pay; with the floor at 0 some such literal stays (so the
    floor is what removed them)."""
    import rulelearn._defaults as defaults

    assert defaults.PRUNE_FLOOR == 0.002  # the documented default (studies/selection-rule)
    X, y = planted(n=400, seed=7, noise=0.15)
    grid = dict(thetas=(1e-6,), rules=(5,), forms=("dnf",), cv=3)
    monkeypatch.setattr(defaults, "PRUNE_FLOOR", 0.01)  # 4 errors on 400 rows
    model, _ = fit_select(BooleanRuleClassifier(pos_label=1), X, y, **grid)
    assert model.rule_.n_literals and min(_errors_saved(model, X, y)) > 4
    monkeypatch.setattr(defaults, "PRUNE_FLOOR", 0.0)
    loose, _ = fit_select(BooleanRuleClassifier(pos_label=1), X, y, **grid)
    assert loose.rule_.n_literals > model.rule_.n_literals
    assert min(_errors_saved(loose, X, y)) <= 4


def test_fit_selects_large_tables_from_the_tree_start(monkeypatch):
    """Above CV_SAMPLE_ABOVE rows the CV (on its sample) starts "best" estimators from the tree."""
    import rulelearn.model_selection as ms

    X, y = planted(n=90, seed=4)
    monkeypatch.setattr(ms, "CV_SAMPLE_ABOVE", 50)
    grid = dict(thetas=(0.002, 0.02), rules=(1, 3), cv=3, cv_rows=None)
    seen = {}
    real = ms.select_setting

    def spy(estimator, *args, **kwargs):
        seen["start"] = estimator.start
        return real(estimator, *args, **kwargs)

    monkeypatch.setattr(ms, "select_setting", spy)
    fit_select(BooleanRuleClassifier(pos_label=1, start="best"), X, y, **grid)
    assert seen["start"] == "tree"
    monkeypatch.setattr(ms, "CV_SAMPLE_ABOVE", 10_000)
    fit_select(BooleanRuleClassifier(pos_label=1, start="best"), X, y, **grid)
    assert seen["start"] == "best"


# ------------------------------------------------------------------- the later folds' cuts

def _first_fold_winners(X, y, cell, thetas, cv=3):
    """Per θ, the start whose path on the first fold's training part has the lower objective
    (the set cover on ties): what start "best" keeps there."""
    train = resolve_folds(y, cv, 0)[0][0]
    objective = {start: [m.fit_stats_["objective"] for m in BooleanRuleClassifier(
        pos_label=1, form=cell[0], max_rules=cell[1], start=start).fit_path(
            X.iloc[train], y[train], thetas)] for start in ("sc", "tree")}
    return ["tree" if t < s - 1e-9 else "sc" for s, t in zip(objective["sc"], objective["tree"])]


def test_pick_start_runs_the_later_folds_from_the_start_that_won_the_first():
    X, y = planted(n=90, seed=0, noise=0.2)
    grid = dict(thetas=(0.01, 5.0), rules=(1, 3), cv=3)
    est = BooleanRuleClassifier(pos_label=1, start="best")
    both = select_setting(est, X, y, halving=(1, 2), **grid)
    picked = select_setting(est, X, y, halving=(1, 2), pick_start=True, **grid)
    alone = {start: {(r.form, r.max_rules, r.theta): r for r in select_setting(
        clone(est).set_params(start=start), X, y, **grid).rows} for start in ("sc", "tree")}
    assert picked.pruned == both.pruned  # the first fold is start "best"'s: the same cells
    starts = set()
    for row, same in zip(picked.rows, both.rows):
        key = (row.form, row.max_rules, row.theta)
        winners = _first_fold_winners(X, y, key[:2], grid["thetas"])
        assert row.start == winners[grid["thetas"].index(row.theta)]
        assert row.fold_errors[0] == same.fold_errors[0]
        assert row.fold_errors[1:] == alone[row.start][key].fold_errors[1:]
        starts.add(row.start)
    assert starts == {"sc", "tree"}  # both won somewhere: the test sees a per-θ choice
    assert picked.estimator_setting(90)["start"] == picked.best.start
    assert "from the start that won" in picked.describe()
    assert picked.to_dict()["rows"][0]["start"] == picked.rows[0].start
    # nothing to pick from: a fixed start, or no halving
    sc = select_setting(clone(est).set_params(start="sc"), X, y, halving=(1, 2),
                        pick_start=True, **grid)
    assert {r.start for r in sc.rows} == {""} and "start" not in sc.estimator_setting(90)
    assert select_setting(est, X, y, pick_start=True, **grid) == select_setting(est, X, y, **grid)


def test_theta_span_runs_the_later_folds_near_the_first_folds_choices():
    from rulelearn.model_selection import SELECT_RULES

    X, y = planted(n=90, seed=1, noise=0.2)
    thetas = (0.003, 0.03, 0.3, 3.0, 30.0)
    est = BooleanRuleClassifier(pos_label=1, start="sc")
    grid = dict(thetas=thetas, rules=(1, 3), cv=3, halving=(1, 2))
    full = select_setting(est, X, y, **grid)
    near = select_setting(est, X, y, theta_span=1, **grid)
    first = select_setting(est, X, y, thetas=thetas, rules=(1, 3),
                           cv=resolve_folds(y, 3, 0)[:1])  # the first fold alone
    assert near.pruned == full.pruned and near.theta_span == 1
    dropped = 0
    for cell in dict.fromkeys((r.form, r.max_rules) for r in full.rows):
        index = [i for i, r in enumerate(first.rows) if (r.form, r.max_rules) == cell]
        picks = {thetas.index(first.rows[_choose_row(first.rows, index, rule)].theta)
                 for rule in SELECT_RULES}
        kept = [t for t in thetas if min(abs(thetas.index(t) - p) for p in picks) <= 1]
        assert [r for r in near.rows if (r.form, r.max_rules) == cell] == \
            [r for r in full.rows if (r.form, r.max_rules) == cell and r.theta in kept]
        dropped += len(thetas) - len(kept)
    assert dropped  # the span cut some θ
    assert near.best == _rows_best(near.rows)
    assert "within 1 grid points" in near.describe()
    for bad in (-1, True, 1.5):
        with pytest.raises(ParameterError, match="theta_span must be None or an int >= 0"):
            select_setting(est, X, y, theta_span=bad, **grid)


def test_best_start_keeps_the_lower_objective_per_fold_and_the_majority_per_theta():
    from rulelearn.model_selection import _best_start

    def scores(errors, objectives):  # folds x θ x (error, literals, clauses, objective)
        e, o = np.array(errors, float), np.array(objectives, float)
        return np.stack([e, e * 10, np.ones_like(e), o], axis=-1)

    sc = scores([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], [[5, 5], [5, 5], [5, 5]])
    tree = scores([[0.7, 0.8], [0.9, 1.0], [1.1, 1.2]], [[4, 5], [4, 6], [6, 4]])
    best, winners = _best_start(sc, tree)
    assert best[..., 0].tolist() == [[0.7, 0.2], [0.9, 0.4], [0.5, 1.2]]  # a tie: the set cover
    assert winners == ("tree", "sc")  # θ 1: tree on 2 of 3 folds; θ 2: on 1 of 3
    assert _best_start(sc[1:], tree[1:])[1] == ("sc", "sc")  # won 1 of 2 folds: the set cover


def test_a_fold_job_shares_its_lp_optima_within_and_with_the_next_job(monkeypatch):
    from rulelearn import model_selection
    from rulelearn.lp import LinearProgram

    X, y = planted(n=90, seed=1, noise=0.2)
    train, valid = cv_folds(y, 3, 0)[0]
    est = BooleanRuleClassifier(pos_label=1)
    thetas = [0.01, 0.5, 5.0]
    paths = [(clone(est).set_params(max_rules=r, start=s), thetas) for r in (1, 3)
             for s in ("sc", "tree")]
    runs = []
    solve = LinearProgram.solve
    monkeypatch.setattr(LinearProgram, "solve",
                        lambda self, *a, **k: runs.append(1) or solve(self, *a, **k))
    found, _, answers = model_selection._fold_scores(X, y, train, valid, paths, record=False)
    together = len(runs)
    alone = [model_selection._fold_scores(X, y, train, valid, [p], record=False)[0][0]
             for p in paths]
    assert found == alone  # the scores of separate paths, each on its own solver
    assert together < len(runs) - together  # in fewer HiGHS runs
    runs.clear()
    again = model_selection._fold_scores(X, y, train, valid, paths, answers, record=False)
    assert again[0] == found and not runs  # given the optima, no LP is solved again


def test_a_process_keeps_a_folds_workspace_for_its_next_job_on_that_fold(monkeypatch):
    """A job on a fold already seen in this process (same CV id) binarizes and builds its
    clause LPs no more and scores as a job on its own; a new CV id, a large training part,
    or no fold key: nothing reused."""
    from rulelearn import model_selection

    X, y = planted(n=90, seed=1, noise=0.2)
    train, valid = cv_folds(y, 3, 0)[0]
    est = BooleanRuleClassifier(pos_label=1)
    thetas = [0.01, 5.0]
    first = [(clone(est).set_params(max_rules=1, start="sc"), thetas)]
    second = [(clone(est).set_params(max_rules=3, start=s), thetas) for s in ("sc", "tree")]
    prepared = []
    prepare = BooleanRuleClassifier._prepare
    monkeypatch.setattr(BooleanRuleClassifier, "_prepare",
                        lambda self, *a, **k: prepared.append(1) or prepare(self, *a, **k))

    def job(paths, fold):
        return model_selection._fold_scores(X, y, train, valid, paths, None, fold,
                                            record=False)[0]

    alone = job(second, None)
    assert len(prepared) == 1
    model_selection._forget_folds()
    try:
        prepared.clear()
        job(first, ("cv", 0))
        assert job(second, ("cv", 0)) == alone and len(prepared) == 1  # prepared once
        job(second, ("cv", 1))  # another fold index: its own workspace, which replaces
        assert len(prepared) == 2 and set(model_selection._kept_folds.folds) == {1}
        job(second, ("cv", 0))
        job(second, ("other cv", 0))  # another CV
        assert len(prepared) == 4 and model_selection._kept_folds.cv == "other cv"
        monkeypatch.setattr(model_selection, "KEEP_FOLDS_UP_TO", len(train) - 1)
        job(second, ("large", 0))
        job(second, ("large", 0))  # too many training rows to keep
        assert len(prepared) == 6 and not model_selection._kept_folds.folds
    finally:
        model_selection._forget_folds()


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_select_setting_with_kept_fold_workspaces_is_the_same_and_keeps_none_after(
        monkeypatch, n_jobs):
    """Kept fold workspaces change no score (the same rows and choice as with none kept),
    and none outlives the CV in this process."""
    from rulelearn import model_selection

    X, y = planted(n=90, seed=0, noise=0.2)
    est = BooleanRuleClassifier(pos_label=1, start="best")
    grid = dict(thetas=(0.01, 0.5, 5.0), rules=(1, 3), cv=3, halving=(1, 2), pick_start=True,
                theta_span=1, n_jobs=n_jobs)
    kept = select_setting(est, X, y, **grid)
    assert not getattr(model_selection._kept_folds, "folds", {})
    monkeypatch.setattr(model_selection, "KEEP_FOLDS_UP_TO", 0)
    assert select_setting(est, X, y, **grid) == kept


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_fit_select_raises_each_fold_warning_once(n_jobs):
    """Every fold's binarizer (and the refit's) drops the same constant column: the caller
    hears it once, whether the folds ran here or in workers (was once per fold and job)."""
    import warnings

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=120), "b": rng.normal(size=120), "k": 1.0})
    y = (X["a"] > 0.3).astype(int).to_numpy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit_select(BooleanRuleClassifier(), X, y, rules=(1, 3), thetas=(0.001, 0.01),
                   cv=3, n_jobs=n_jobs)
    dropped = [w for w in caught if "constant or empty column(s): k" in str(w.message)]
    assert len(dropped) == 1 and dropped[0].category is UserWarning
