"""θ selection for one fit: folds, grid, tie rule, refit."""

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from rulelearn.errors import DataError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.tuning import DEFAULT_THETAS, ThetaSelection, fit_select_theta, n_folds, select_theta


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


def test_select_theta_matches_a_plain_cv_loop():
    X, y = planted()
    est = BooleanRuleClassifier(max_rules=3)
    thetas = [0.01, 0.5, 5.0]
    best, errors = select_theta(est, X, y, thetas, cv=4, seed=3)
    expected = np.zeros((4, 3))
    folds = StratifiedKFold(4, shuffle=True, random_state=3).split(np.zeros((len(y), 1)), y)
    for f, (tr, va) in enumerate(folds):
        # one theta path per fold (a warm-started path may differ from single fits at
        # degenerate LP optima, so the reference is the path too)
        for j, m in enumerate(BooleanRuleClassifier(max_rules=3).fit_path(X.iloc[tr], y[tr],
                                                                          thetas)):
            expected[f, j] = np.mean(m.predict(X.iloc[va]) != y[va])
    assert np.allclose(errors, expected.mean(axis=0))
    assert best in thetas
    assert errors[thetas.index(best)] == pytest.approx(min(errors))


def test_ties_go_to_the_larger_theta():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=40)})
    y = (X.a > 0).astype(int).to_numpy()  # one literal separates the classes exactly
    best, errors = select_theta(BooleanRuleClassifier(max_rules=2), X, y, [1e-3, 1e-2, 0.1])
    assert errors[0] == errors[1] == errors[2]  # same rule for every theta
    assert best == 0.1


def test_fit_select_theta_refits_on_all_data():
    X, y = planted()
    est = BooleanRuleClassifier(max_rules=3)
    model, sel = fit_select_theta(est, X, y, cv=5, seed=0)
    assert isinstance(sel, ThetaSelection) and sel.n_folds == 5
    assert model.theta == sel.theta and est.theta == 1.0  # the template is left alone
    ref = BooleanRuleClassifier(max_rules=3, theta=sel.theta).fit(X, y)
    assert model.rule_ == ref.rule_
    assert sel.cv_error == min(sel.mean_errors)
    text = sel.describe()
    assert text.startswith("chosen by 5-fold stratified CV over 8 values in [0.0001, 50]")
    assert text.endswith(f"CV error {100 * sel.cv_error:.1f} %")


def test_selection_is_deterministic_given_the_seed():
    X, y = planted(seed=4, noise=0.2)
    est = BooleanRuleClassifier(max_rules=2)
    assert select_theta(est, X, y, seed=7) == select_theta(est, X, y, seed=7)
