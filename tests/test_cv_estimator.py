"""BooleanRuleClassifierCV: fit_select's choice as an estimator, any CV splitter, cv_results_,
and the scikit-learn contract (Pipeline, cross_validate, GridSearchCV, clone, the checks)."""

import dataclasses
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    PredefinedSplit,
    StratifiedKFold,
    cross_validate,
)
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

import rulelearn
from rulelearn.cv_estimator import BooleanRuleClassifierCV
from rulelearn.errors import DataError, ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import fit_select, resolve_folds

# a 0/1 truth table over three features and its target y = (x0 AND x1) OR x2
TABLE = np.array([(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 3)
TARGET = ((TABLE[:, 0] & TABLE[:, 1]) | TABLE[:, 2]).astype(int)
THETAS = (0.01, 0.1, 1.0, 5.0)  # on the "errors" scale below


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    rows = np.random.default_rng(0).choice(len(X), 90, replace=False)
    return X.iloc[rows, :5].reset_index(drop=True), y.iloc[rows].reset_index(drop=True)


def small(**params):
    """A quick CV: one form unless given, R in (1, 2), few θ, 3 folds, 5 iterations."""
    settings = dict(forms=("dnf",), rules=(1, 2), thetas=THETAS, theta_scale="errors", cv=3,
                    max_iter=5)
    return BooleanRuleClassifierCV(**{**settings, **params})


# ------------------------------------------------------------------------ the same choice

@pytest.mark.parametrize("select", ["min", "1se"])
def test_the_choice_is_fit_selects_on_the_same_folds(cancer, select):
    X, y = cancer
    grid = dict(forms=("dnf", "cnf"), rules=(1, 3), thetas=(1e-3, 1e-2, 5e-2), cv=3)
    model = BooleanRuleClassifierCV(**grid, max_iter=10, random_state=7, select=select).fit(X, y)
    theirs, selection = fit_select(BooleanRuleClassifier(max_iter=10), X, y, **grid, seed=7,
                                   select=select)
    assert model.selection_ == selection  # every row, fold error and the chosen index
    assert model.best_index_ == selection.chosen
    assert model.best_params_ == {**selection.best.setting}
    assert (model.form_, model.max_rules_, model.theta_) == \
        (theirs.form, theirs.max_rules, theirs.theta)
    assert model.theta_ == selection.best.theta * len(y)  # θ per row x rows in the refit
    assert model.rule_ == theirs.rule_ and model.best_estimator_.rule_ == theirs.rule_
    assert model.predict(X).tolist() == theirs.predict(X).tolist()
    assert np.array_equal(model.predict_proba(X), theirs.predict_proba(X))
    assert model.score(X, y) == theirs.score(X, y)
    assert model.best_score_ == 1 - selection.best.mean_error


def test_the_truth_table_rule_is_found():
    model = small(forms=("dnf", "cnf"), pos_label=1).fit(TABLE, TARGET)
    assert model.score(TABLE, TARGET) == 1.0 and model.best_score_ == 1.0
    assert model.rule_.n_literals == 3 and model.form_ == "dnf"
    assert model.classes_.tolist() == [0, 1] and model.n_features_in_ == 3


# ------------------------------------------------------------------------ custom splitters

def _by_hand(X, y, folds, thetas):
    """Per θ (DNF, R = 1): mean validation error over ``folds`` and mean literals; the choice:
    the lowest error, then the fewest literals, then the larger θ. Both start from the
    set-covering rule (fit_select may change a "best" start in its CV)."""
    errors, sizes = [], []
    for theta in thetas:
        fold_errors, fold_sizes = [], []
        for train, test in folds:
            fitted = BooleanRuleClassifier(max_rules=1, max_iter=5, theta=theta,
                                           start="sc").fit(
                X.iloc[train], y.iloc[train])
            fold_errors.append(np.mean(fitted.predict(X.iloc[test]) != y.iloc[test].to_numpy()))
            fold_sizes.append(fitted.rule_.n_literals)
        errors.append(np.mean(fold_errors))
        sizes.append(np.mean(fold_sizes))
    best = min(range(len(thetas)), key=lambda i: (errors[i], sizes[i], -thetas[i]))
    return errors, thetas[best]


def test_a_predefined_split_gives_the_choice_computed_by_hand(cancer):
    X, y = cancer
    test_fold = np.arange(len(y)) % 2  # rows 0, 2, 4, ... test in fold 0; the others in fold 1
    folds = [(np.flatnonzero(test_fold != k), np.flatnonzero(test_fold == k)) for k in (0, 1)]
    errors, theta = _by_hand(X, y, folds, THETAS)
    model = small(rules=(1,), cv=PredefinedSplit(test_fold), start="sc").fit(X, y)
    assert model.best_params_["theta"] == theta
    assert model.cv_results_["mean_test_error"].tolist() == pytest.approx(errors, abs=1e-12)
    assert model.n_splits_ == 2 and "split2_test_score" not in model.cv_results_
    assert model.selection_.describe().startswith("by 2-fold CV (PredefinedSplit) over")
    as_list = small(rules=(1,), cv=folds, start="sc").fit(X, y)  # the same folds as a list of pairs
    assert as_list.cv_results_["mean_test_error"].tolist() == \
        model.cv_results_["mean_test_error"].tolist()


def test_a_stratified_k_fold_object_is_the_int_cv_with_its_seed(cancer):
    X, y = cancer
    as_int = small(cv=3, random_state=4).fit(X, y)
    as_splitter = small(cv=StratifiedKFold(3, shuffle=True, random_state=4)).fit(X, y)
    assert as_splitter.selection_.rows == as_int.selection_.rows


def test_a_group_splitter_gets_the_groups():
    y = np.array([0, 1] * 12)
    groups = np.repeat(np.arange(6), 4)
    folds = resolve_folds(y, GroupKFold(3), seed=0, groups=groups)
    assert len(folds) == 3
    for train, test in folds:  # no group on both sides
        assert not set(groups[train]) & set(groups[test])
    X = np.column_stack([y ^ (np.arange(24) % 5 == 0), np.arange(24) % 3])
    model = small(cv=GroupKFold(3)).fit(X, y, groups=groups)
    assert model.n_splits_ == 3
    with pytest.raises(ParameterError, match="groups"):
        small(cv=GroupKFold(3)).fit(X, y)


@pytest.mark.parametrize("cv, message", [
    ("five", "The 'cv' parameter of BooleanRuleClassifierCV must be an int >= 2 or a CV"),
    (object(), "cv must be an int >= 2, a CV splitter or an iterable"),
    ([(np.arange(10), np.arange(10, 30))], "fold 0 of cv is not a .* within the 24 rows"),
    ([(np.arange(12), np.array([], dtype=int))], "fold 0 of cv has an empty test part"),
    ([], "gives no fold"),
    (1, "The 'cv' parameter of BooleanRuleClassifierCV must be an int >= 2"),
])
def test_a_bad_cv_is_one_clear_error(cv, message):
    with pytest.raises(ParameterError, match=message):
        small(cv=cv).fit(TABLE, TARGET)


def test_a_fold_without_both_classes_to_train_on_is_named():
    odd_rows = np.arange(24) % 2  # every odd row of the table has x2 = 1, so y = 1
    with pytest.raises(DataError, match="fold 0 of cv has a single class in its training part"):
        small(cv=PredefinedSplit(odd_rows)).fit(TABLE, TARGET)  # fold 0 trains on them


def test_bad_grids_and_seed_are_refused():
    with pytest.raises(ParameterError, match="every form must be one of"):
        small(forms=("DNF",)).fit(TABLE, TARGET)
    with pytest.raises(ParameterError, match="every R must be an int >= 1"):
        small(rules=(0,)).fit(TABLE, TARGET)
    with pytest.raises(ParameterError, match="random_state"):
        small(random_state=-1).fit(TABLE, TARGET)
    with pytest.raises(ParameterError, match="cv_rows samples the rows"):
        fit_select(BooleanRuleClassifier(), TABLE, TARGET, cv=[(np.arange(12),
                                                                np.arange(12, 24))], cv_rows=10)


# ------------------------------------------------------------------------ cv_results_

def test_cv_results_has_one_entry_per_row_tried(cancer):
    X, y = cancer
    model = small(forms=("dnf", "cnf"), halving=None).fit(X, y)
    results, rows = model.cv_results_, model.selection_.rows
    assert set(results) == {"params", "param_form", "param_max_rules", "param_theta",
                            "param_n_thresholds", "split0_test_score", "split1_test_score",
                            "split2_test_score", "mean_test_score", "std_test_score",
                            "rank_test_score", "mean_test_error", "sem_test_error",
                            "mean_literals", "max_clauses"}
    n = len(rows)
    assert n == 2 * 2 * len(THETAS) or model.selection_.skipped  # the walk may stop early
    assert all(len(value) == n for value in results.values())
    assert results["params"][model.best_index_] == model.best_params_
    assert results["params"][0] == {"form": "dnf", "max_rules": 1, "theta": THETAS[0],
                                    "n_thresholds": 10}
    scores = np.column_stack([results[f"split{k}_test_score"] for k in range(3)])
    assert np.allclose(scores.mean(axis=1), results["mean_test_score"])
    assert np.allclose(scores.std(axis=1), results["std_test_score"])
    assert np.allclose(results["mean_test_score"], 1 - results["mean_test_error"])
    assert results["rank_test_score"][model.best_index_] == 1  # select="min"
    assert results["rank_test_score"].min() == 1
    best = results["mean_test_error"].min()
    assert ((results["rank_test_score"] == 1) == (results["mean_test_error"] == best)).all()
    assert results["mean_literals"].tolist() == [row.mean_literals for row in rows]


# ------------------------------------------------------------------------ scikit-learn

def test_get_params_and_clone_round_trip():
    splitter = PredefinedSplit(np.arange(24) // 8)  # the table's 3 copies
    model = small(cv=splitter, class_weight="balanced", method="sc")
    params = model.get_params()
    assert {"forms", "rules", "thetas", "theta_scale", "thresholds", "cv", "select", "halving",
            "n_jobs", "random_state", "method", "class_weight"} <= set(params)
    assert not {"form", "max_rules", "theta"} & set(params)  # chosen by the CV
    copy = clone(model)
    assert copy.get_params().keys() == params.keys()
    assert copy.cv is not splitter and copy.cv.test_fold.tolist() == splitter.test_fold.tolist()
    assert {k: v for k, v in copy.get_params().items() if k != "cv"} == \
        {k: v for k, v in params.items() if k != "cv"}
    assert model.set_params(select="1se") is model and model.select == "1se"
    fitted = clone(model).fit(TABLE, TARGET)
    assert not hasattr(clone(fitted), "rule_")
    with pytest.raises(TypeError):
        BooleanRuleClassifierCV(5)  # keyword-only
    with pytest.raises(TypeError, match="chooses theta by CV"):
        fitted.fit_path(TABLE, TARGET, [1.0])


def test_in_a_pipeline_cross_validate_and_grid_search():
    pipe = Pipeline([("identity", FunctionTransformer()), ("rule", small(pos_label=1))])
    pipe.fit(TABLE, TARGET)
    assert pipe.score(TABLE, TARGET) == 1.0
    assert pipe.named_steps["rule"].rule_.n_literals == 3
    scores = cross_validate(small(pos_label=1), TABLE, TARGET, cv=3)["test_score"]
    assert len(scores) == 3 and all(0 <= s <= 1 for s in scores)
    search = GridSearchCV(small(pos_label=1), {"method": ["bcd", "sc"]}, cv=2).fit(TABLE, TARGET)
    assert search.best_params_["method"] in ("bcd", "sc")
    assert isinstance(search.best_estimator_, BooleanRuleClassifierCV)
    assert search.best_estimator_.score(TABLE, TARGET) == 1.0


def test_exported_from_the_package():
    assert rulelearn.BooleanRuleClassifierCV is BooleanRuleClassifierCV
    assert "BooleanRuleClassifierCV" in rulelearn.__all__
    assert "BooleanRuleClassifierCV" in dir(rulelearn)


def _expected_failed_checks(estimator):
    return {}  # every check applies, as for BooleanRuleClassifier


@parametrize_with_checks([BooleanRuleClassifierCV(forms=("dnf",), rules=(2,), thetas=(0.01,),
                                                  cv=2, max_iter=5)],
                         expected_failed_checks=_expected_failed_checks)
def test_sklearn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dropped constant columns
        check(estimator)


# ------------------------------------------------------------------------ the tie orders

def test_the_two_tie_orders_break_the_same_tie_differently():
    from rulelearn.model_selection import CVRow, Selection

    def row(theta, error, literals):
        return CVRow("dnf", 5, theta, error, 0.01, literals, (error,))

    # θ 0.1 and 1.0 tie on the lowest error; 0.1 has fewer mean literals, 1.0 the larger θ
    rows = (row(0.1, 0.2, 3.0), row(1.0, 0.2, 5.0), row(10.0, 0.3, 0.0))
    made = Selection(rows, 0, 3, 0, ("dnf",), (5,), (0.1, 1.0, 10.0))
    assert made.chosen_by("min").chosen == 0  # "literals", fit's
    assert dataclasses.replace(made, ties="theta").chosen_by("min").chosen == 1
    # equal literals: both orders go to the larger θ
    even = (row(0.1, 0.2, 4.0), row(1.0, 0.2, 4.0))
    for ties in ("literals", "theta"):
        chosen = Selection(even, 0, 3, 0, ("dnf",), (5,), (0.1, 1.0), ties=ties)
        assert chosen.chosen_by("min").chosen == 1


@pytest.mark.parametrize("ties, halving", [("literals", None), ("theta", None),
                                           ("literals", "auto")])
def test_select_setting_is_fits_cv_without_the_refit(ties, halving):
    grid = dict(ties=ties, halving=halving, forms=("dnf", "cnf"))  # 4 cells: halving halves
    search = small(**grid)
    selection = search.select_setting(TABLE, TARGET)
    assert selection.ties == ties and not hasattr(search, "rule_")
    assert selection.first_folds == (1 if halving else 0)
    fitted = small(**grid).fit(TABLE, TARGET)
    assert fitted.selection_.rows == selection.rows
    assert fitted.selection_.chosen == selection.chosen
    # the choice is the tie rule's over the rows, in that order
    assert selection.chosen_by("min").chosen == selection.chosen


def test_ties_is_checked_by_name():
    with pytest.raises(ParameterError, match="'ties' parameter.*'literals'.*Got 'fewest'"):
        small(ties="fewest").fit(TABLE, TARGET)
