"""The evaluation protocol: folds, seeds, θ choice, and no leak from test parts into fits."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

from rulelearn import model_selection
from rulelearn.bench import protocol
from rulelearn.errors import DataError


def toy(n=60, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    X = pd.DataFrame({"id": np.arange(n), "x": x, "z": rng.normal(size=n)})
    y = np.where(x + 0.3 * rng.normal(size=n) > 0.2, "pos", "neg")
    return X, y


class Recorder(ClassifierMixin, BaseEstimator):
    """Predicts ``pos`` when x > theta; logs the row ids of every fit and every predict."""

    log: list = []

    def __init__(self, theta=1.0):
        self.theta = theta

    def fit(self, X, y):
        Recorder.log.append(("fit", self.theta, frozenset(X["id"])))
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        Recorder.log.append(("predict", self.theta, frozenset(X["id"])))
        return np.where(X["x"].to_numpy() > self.theta, "pos", "neg")


class PathRecorder(Recorder):
    """Same, with a θ path (one call fits every θ)."""

    def fit_path(self, X, y, thetas):
        Recorder.log.append(("path", tuple(thetas), frozenset(X["id"])))
        return [Recorder(theta=t).fit(X, y) for t in thetas]


def test_stable_seed_is_fixed_and_name_dependent():
    assert protocol.stable_seed(0, "wdbc", "outer") == protocol.stable_seed(0, "wdbc", "outer")
    assert protocol.stable_seed(0, "wdbc") != protocol.stable_seed(0, "pima")
    assert protocol.stable_seed(0, "wdbc") != protocol.stable_seed(1, "wdbc")
    # pinned: not Python's salted hash, the same on every machine and run
    assert protocol.stable_seed(0, "wdbc") == 2357846132


def test_outer_folds_partition_and_stratify():
    X, y = toy(90)
    folds = protocol.outer_folds(y, 3, seed=0, dataset="toy")
    tests = np.concatenate([te for _, te in folds])
    assert sorted(tests) == list(range(90))
    for tr, te in folds:
        assert not set(tr) & set(te)
        assert abs(np.mean(y[te] == "pos") - np.mean(y == "pos")) < 0.05
    # same seed and name -> same folds; another name -> other folds
    again = protocol.outer_folds(y, 3, seed=0, dataset="toy")
    assert all((a[1] == b[1]).all() for a, b in zip(folds, again))
    other = protocol.outer_folds(y, 3, seed=0, dataset="other")
    assert any((a[1] != b[1]).any() for a, b in zip(folds, other))


def test_choose_prefers_larger_theta_and_smaller_depth_on_ties():
    assert model_selection.choose([0.2, 0.1, 0.1, 0.3], [0.01, 0.1, 1.0, 10.0], "larger") == 2
    assert model_selection.choose([0.2, 0.1, 0.1, 0.3], [1, 2, 3, 4], "smaller") == 1
    assert model_selection.choose([0.1, 0.1], [2, None], "smaller") == 0  # None = unbounded depth
    # grid order does not matter
    assert model_selection.choose([0.3, 0.1], [5.0, 0.5], "larger") == 1
    # float noise is a tie
    assert model_selection.choose([0.1 + 1e-15, 0.1], [5.0, 0.5], "larger") == 0


@pytest.mark.parametrize("cls", [Recorder, PathRecorder])
def test_nothing_from_the_test_part_reaches_fitting(cls):
    X, y = toy(60)
    folds = protocol.outer_folds(y, 3, seed=0, dataset="toy")
    for k, (train, test) in enumerate(folds):
        Recorder.log = []
        res = protocol.evaluate_fold(cls(), X, y, train, test, param="theta",
                                      grid=[-0.5, 0.2, 1.0], inner_folds=2, seed=k)
        test_ids, train_ids = set(test), set(train)
        fits = [ids for kind, _, ids in Recorder.log if kind in ("fit", "path")]
        assert len(fits) >= 3
        for ids in fits:
            assert not ids & test_ids
            assert ids <= train_ids
        # the refits are on the whole outer training part, one per θ; the chosen one is kept
        final = [e for e in Recorder.log if e[0] == "fit" and e[2] == frozenset(train_ids)]
        assert sorted(e[1] for e in final) == [-0.5, 0.2, 1.0]
        assert res.model.theta == res.chosen
        # test rows are only predicted by those refits, once per θ, after every fit
        test_predicts = [i for i, e in enumerate(Recorder.log)
                         if e[0] == "predict" and e[2] & test_ids]
        assert len(test_predicts) == 3
        assert all(Recorder.log[i][2] == frozenset(test_ids) for i in test_predicts)
        last_fit = max(i for i, e in enumerate(Recorder.log) if e[0] in ("fit", "path"))
        assert min(test_predicts) > last_fit
        assert res.n_train == len(train) and res.n_test == len(test)


def test_inner_cv_fits_never_see_their_validation_rows():
    X, y = toy(60)
    train = np.arange(40)
    Recorder.log = []
    protocol.tune(Recorder(), X.iloc[train], y[train], param="theta", grid=[0.0, 1.0],
                   inner_folds=2, seed=3)
    fits = [e for e in Recorder.log if e[0] == "fit"]
    predicts = [e for e in Recorder.log if e[0] == "predict"]
    assert len(fits) == 4 and len(predicts) == 4
    for f, p in zip(fits, predicts):
        assert not f[2] & p[2]


def test_fit_path_is_used_for_theta():
    X, y = toy(60)
    Recorder.log = []
    res = protocol.tune(PathRecorder(), X, y, param="theta", grid=[0.0, 0.2, 5.0],
                         inner_folds=3, seed=0)
    assert [e[0] for e in Recorder.log].count("path") == 3
    assert len(res.mean_errors) == 3
    assert res.mean_errors[[0.0, 0.2, 5.0].index(res.value)] == min(res.mean_errors)


def test_tie_goes_to_the_larger_theta():
    X, y = toy(60)
    # all x are below 100 and 1000: both predict "neg" everywhere, identical errors
    res = protocol.tune(Recorder(), X, y, param="theta", grid=[1000.0, 100.0],
                         inner_folds=2, seed=0)
    assert res.mean_errors[0] == res.mean_errors[1]
    assert res.value == 1000.0


def test_protocol_with_a_decision_tree():
    X, y = toy(90)
    Xn = X[["x", "z"]]
    train, test = protocol.outer_folds(y, 3, seed=0, dataset="toy")[0]
    res = protocol.evaluate_fold(DecisionTreeClassifier(random_state=0), Xn, y, train, test,
                                  param="max_depth", grid=[1, 2, 4], prefer="smaller",
                                  inner_folds=3, seed=1)
    assert res.chosen in (1, 2, 4)
    assert res.model.get_params()["max_depth"] == res.chosen
    assert 0 <= res.test_error <= 0.5 and res.train_error <= res.test_error + 0.2


def test_single_value_grid_skips_inner_cv():
    X, y = toy(60)
    Recorder.log = []
    res = protocol.evaluate_fold(Recorder(), X, y, np.arange(40), np.arange(40, 60),
                                  param="theta", grid=[0.2], inner_folds=5, seed=0)
    assert res.chosen == 0.2 and res.inner_errors == []
    assert [e[0] for e in Recorder.log].count("fit") == 1


def test_too_many_inner_folds_for_the_minority_class():
    y = np.array(["a"] * 40 + ["b"] * 8)
    protocol.check_protocol(y, outer=2, inner=4, seed=0, dataset="d")
    with pytest.raises(DataError, match="inner_folds.*class 'b' has"):
        protocol.check_protocol(y, outer=2, inner=5, seed=0, dataset="d")
    with pytest.raises(DataError, match="outer CV"):
        protocol.check_protocol(y, outer=9, inner=2, seed=0, dataset="d")


def test_the_path_covers_the_grid_and_holds_the_chosen_fit():
    X, y = toy(90)
    Xn = X[["x", "z"]]
    train, test = protocol.outer_folds(y, 3, seed=0, dataset="toy")[0]
    res = protocol.evaluate_fold(DecisionTreeClassifier(random_state=0), Xn, y, train, test,
                                  param="max_depth", grid=[1, 2, None], prefer="smaller",
                                  inner_folds=3, seed=1)
    assert [e["param"] for e in res.path] == [1, 2, None]
    assert [e["cv_error"] for e in res.path] == res.inner_errors
    assert all(e["cv_sem"] >= 0 for e in res.path)
    chosen = res.path[[1, 2, None].index(res.chosen)]
    assert (chosen["test_error"], chosen["train_error"]) == (res.test_error, res.train_error)
    # nothing tuned: one entry, no inner CV
    res = protocol.evaluate_fold(DecisionTreeClassifier(random_state=0), Xn, y, train, test)
    assert len(res.path) == 1 and res.path[0]["param"] is None
    assert res.path[0]["cv_error"] is None and res.path[0]["test_error"] == res.test_error


def test_a_rule_learners_theta_is_tuned_by_the_cv_estimator_as_by_the_plain_loop():
    from rulelearn.estimator import BooleanRuleClassifier

    X, y = toy(60)
    X = X.drop(columns="id")
    rule = BooleanRuleClassifier(method="sc", form="dnf", max_rules=2, n_thresholds=3)
    grid = [0.01, 0.5, 2.0, 20.0]
    assert protocol.is_rule_theta(rule, "theta", grid, "larger")
    res = protocol.tune(rule, X, y, param="theta", grid=grid, inner_folds=3, seed=1)
    # the oracle: the generic loop and the grid-order tie rule (larger θ first)
    errors = model_selection.cv_scores(rule, X, y, model_selection.stratified_folds(y, 3, 1),
                                       "theta", grid)
    assert res.mean_errors == [float(e) for e in errors.mean(axis=0)]
    assert res.sem_errors == [float(e) for e in errors.std(axis=0, ddof=1) / np.sqrt(3)]
    assert res.index == model_selection.choose(errors.mean(axis=0), grid, "larger")
    assert res.value == grid[res.index]


def test_only_a_plain_rule_learners_distinct_theta_grid_goes_through_the_cv_estimator():
    from rulelearn.cv_estimator import BooleanRuleClassifierCV
    from rulelearn.estimator import BooleanRuleClassifier

    rule = BooleanRuleClassifier()
    assert not protocol.is_rule_theta(rule, "theta", [1.0, 1.0], "larger")  # duplicates
    assert not protocol.is_rule_theta(rule, "theta", [1.0, 2.0], "smaller")
    assert not protocol.is_rule_theta(rule, "max_rules", [1, 2], "larger")
    assert not protocol.is_rule_theta(BooleanRuleClassifierCV(), "theta", [1.0, 2.0], "larger")
    assert not protocol.is_rule_theta(Recorder(), "theta", [1.0, 2.0], "larger")
