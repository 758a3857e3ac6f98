"""Selection rules over a CV table (min, 0.1pt, 1se) and the pruned refit of fit_select."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from rulelearn._defaults import DEFAULT_SELECT, SELECT_RULES
from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import CVRow, Selection, _choose_row, fit_select


def row(form, r, theta, error, sem, literals):
    return CVRow(form, r, theta, error, sem, literals, ())


#: The lowest error is row 0 (0.100, SEM 0.020): 1se allows up to 0.120. With 0.1 point
#: (0.001) per literal the rows cost 0.109, 0.108, 0.109, 0.117, 0.126: row 1.
ROWS = [row("dnf", 3, 0.1, 0.100, 0.020, 9.0),   # min
        row("dnf", 3, 1.0, 0.102, 0.010, 6.0),   # the lowest error + 0.1 point per literal
        row("cnf", 1, 1.0, 0.105, 0.030, 4.0),
        row("dnf", 1, 9.0, 0.115, 0.010, 2.0),   # within 1 SEM: the simplest there
        row("dnf", 1, 20.0, 0.125, 0.010, 1.0)]  # outside 1 SEM


def test_each_rule_picks_its_known_row():
    assert _choose_row(ROWS, range(5), "min") == 0
    assert _choose_row(ROWS, range(5), "0.1pt") == 1
    assert _choose_row(ROWS, range(5), "1se") == 3
    assert _choose_row(ROWS, [0, 2, 3, 4], "0.1pt") == 2  # 0.109 ties row 0: the simpler
    # the 1se bound is the lowest row's SEM, not the candidate's: a wide SEM does not let it in
    wide = row("dnf", 1, 9.0, 0.121, 0.5, 1.0)
    assert _choose_row([ROWS[0], wide], range(2), "1se") == 0


def test_a_literal_must_buy_a_tenth_of_a_point_under_0_1pt():
    # one more literal for exactly 0.1 point less CV error: a tie, so the shorter rule
    rows = [row("dnf", 1, 1.0, 0.200, 0.0, 3.0), row("dnf", 1, 0.1, 0.199, 0.0, 4.0)]
    assert _choose_row(rows, range(2), "0.1pt") == 0
    # for 0.2 point less the longer one
    rows[1] = row("dnf", 1, 0.1, 0.198, 0.0, 4.0)
    assert _choose_row(rows, range(2), "0.1pt") == 1


def test_tied_lowest_errors_take_the_simplest_as_the_1se_anchor():
    rows = [row("dnf", 3, 0.1, 0.10, 0.00, 9.0), row("dnf", 1, 1.0, 0.10, 0.04, 3.0),
            row("dnf", 1, 9.0, 0.135, 0.0, 1.0)]
    # the anchor is row 1 (tied, simpler): its SEM 0.04 gives 1se the bound 0.14
    assert _choose_row(rows, range(3), "min") == 1
    assert _choose_row(rows, range(3), "1se") == 2


def test_chosen_by_and_describe_name_the_rule():
    selection = Selection(tuple(ROWS), 0, 5, 0, ("dnf", "cnf"), (1, 3), (0.1, 1.0, 9.0, 20.0))
    cost = selection.chosen_by("0.1pt")
    assert (cost.chosen, cost.select, cost.rows) == (1, "0.1pt", selection.rows)
    assert "plus 0.1 point per literal" in cost.describe()
    assert "within one SEM" in selection.chosen_by("1se").describe()
    assert "(the" not in selection.describe()
    assert selection.chosen_by("0.1pt").best_per_setting() == [1, 2, 3]


def test_the_default_rule_is_one_of_the_rules():
    assert DEFAULT_SELECT in SELECT_RULES and "min" in SELECT_RULES


def planted(n=100, seed=3, noise=0.15):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.normal(size=n),
                      "d": rng.normal(size=n), "e": rng.integers(0, 3, n)})
    y = np.where((X.a > 0.3) | (X.b < -0.8), 1, 0)
    return X, np.where(rng.random(n) < noise, 1 - y, y)


def objective(model, X, y):
    return float(np.sum(model.predict(X) != y)) + model.theta * model.rule_.n_literals


def test_fit_select_prunes_its_refit_and_the_objective_does_not_rise():
    X, y = planted()  # at θ = 0.5 the refit has 9 literals, 3 of them worth < 0.5 error each
    grid = dict(thetas=(0.5,), rules=(3,), forms=("dnf",), cv=2, theta_scale="errors")
    raw, selection = fit_select(BooleanRuleClassifier(pos_label=1), X, y, prune=False, **grid)
    pruned, again = fit_select(BooleanRuleClassifier(pos_label=1), X, y, **grid)  # prunes
    assert again == selection and pruned.theta == raw.theta == 0.5
    assert (raw.rule_.n_literals, pruned.rule_.n_literals) == (9, 6)
    assert pruned.fit_stats_["pruned_literals"] == 3
    assert objective(pruned, X, y) <= objective(raw, X, y)
    assert np.array_equal(pruned.predict(X) == 1, pruned.rule_.evaluate(X))


def test_a_certified_fit_is_not_pruned(monkeypatch):
    import rulelearn.prune

    def refuse(*args, **kwargs):
        raise AssertionError("pruned")

    monkeypatch.setattr(rulelearn.prune, "prune_model", refuse)
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=24)})
    y = np.where(X.a > 0, 1, 0)
    grid = dict(thetas=(0.5,), rules=(1,), forms=("dnf",), cv=2, theta_scale="errors")
    model, _ = fit_select(BooleanRuleClassifier(pos_label=1, certify=True, n_thresholds=3),
                          X, y, **grid)
    assert "gap" in model.fit_stats_  # certified, and not pruned (refuse was not called)
    with pytest.raises(AssertionError, match="pruned"):  # the same fit uncertified is
        fit_select(BooleanRuleClassifier(pos_label=1, n_thresholds=3), X, y, **grid)


def test_the_cv_estimator_prunes_unless_told_not_to():
    from rulelearn.cv_estimator import BooleanRuleClassifierCV

    X, y = planted()  # as above: 9 literals at θ = 0.5, 3 of them pruned
    grid = dict(thetas=(0.5,), rules=(3,), forms=("dnf",), cv=2, theta_scale="errors",
                pos_label=1)
    assert BooleanRuleClassifierCV(**grid).fit(X, y).rule_.n_literals == 6
    kept = BooleanRuleClassifierCV(**grid, prune=False).fit(X, y)
    assert kept.rule_.n_literals == 9 and kept.get_params()["prune"] is False


def tail(n=400):
    """The positive class in the top 3 % of x: no quantile cut lies there, a tree's does."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=n)
    X = pd.DataFrame({"x": x.round(4), "noise": rng.normal(size=n).round(4)})
    return X, np.where(x > np.quantile(x, 0.97), 1, 0)


def test_more_cut_points_are_tried_at_the_chosen_form_and_r_and_can_win():
    X, y = tail()
    grid = dict(rules=(1, 3), cv=3, halving=None)
    plain, before = fit_select(BooleanRuleClassifier(pos_label=1), X, y,
                               more_cut_points=(), **grid)
    model, selection = fit_select(BooleanRuleClassifier(pos_label=1), X, y,
                                  more_cut_points=("tree",), **grid)
    assert plain.rule_.n_literals == 0 and before.best.cut_points is None
    extra = selection.rows[len(before.rows):]
    assert selection.rows[:len(before.rows)] == before.rows
    assert len(extra) == len(before.thetas)  # one θ path at one (form, R)
    assert {(r.form, r.max_rules, r.cut_points) for r in extra} == \
        {(before.best.form, before.best.max_rules, "tree")}
    assert selection.best.cut_points == "tree" and model.cut_points == "tree"
    assert np.mean(model.predict(X) == y) > np.mean(plain.predict(X) == y)
    assert "then tree cut points at the best form and R" in selection.describe()
    assert selection.to_dict()["rows"][selection.chosen]["cut_points"] == "tree"


def test_more_cut_points_skips_the_estimators_own_and_01_columns():
    X, y = tail()
    grid = dict(rules=(1,), forms=("dnf",), cv=3)
    tree = BooleanRuleClassifier(pos_label=1, cut_points="tree")
    _, own = fit_select(tree, X, y, more_cut_points=("tree",), **grid)
    assert all(r.cut_points is None for r in own.rows)
    B = pd.DataFrame({"a": (X.x > 1).astype(int), "b": (X.noise > 0).astype(int)})
    _, binary = fit_select(BooleanRuleClassifier(pos_label=1), B, y,
                           more_cut_points=("tree",), **grid)
    assert all(r.cut_points is None for r in binary.rows)
    with pytest.raises(ParameterError, match="cut points"):
        fit_select(BooleanRuleClassifier(pos_label=1), X, y, more_cut_points=("trees",),
                   **grid)


def test_0_1pt1se_is_0_1pt_within_one_sem_of_the_lowest():
    # a narrow SEM (many rows): 0.1pt takes 2 literals at 1.5 points more error (costs 0.125,
    # 0.121, 0.117); the rows within one SEM (0.100 + 0.002) are 0 and 1: 0.1pt there, row 1
    rows = [row("dnf", 3, 0.1, 0.100, 0.002, 25.0), row("dnf", 3, 1.0, 0.101, 0.002, 20.0),
            row("dnf", 1, 9.0, 0.115, 0.002, 2.0)]
    assert _choose_row(rows, range(3), "0.1pt") == 2
    assert _choose_row(rows, range(3), "0.1pt1se") == 1
    # a wide SEM lets every row in: the same choice as 0.1pt (ROWS above: 1se bound 0.120)
    assert _choose_row(ROWS, range(5), "0.1pt1se") == _choose_row(ROWS, range(5), "0.1pt") == 1
    assert "within one SEM" in Selection(tuple(rows), 0, 3, 0, ("dnf",), (1, 3), (0.1,)
                                         ).chosen_by("0.1pt1se").describe()


def two_terms(n=160, seed=0):
    """y = (a AND b) OR (c AND d) on 0/1 columns, 5 % of labels flipped: one clause (OCRL)
    cannot say it, two (BCD, R >= 2) can."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 6)), columns=list("abcdef"))
    y = ((X.a & X.b) | (X.c & X.d)).to_numpy()
    return X, np.where(rng.random(n) < 0.05, 1 - y, y)


def test_more_methods_run_each_learners_whole_search_on_the_same_folds_and_can_win():
    X, y = two_terms()
    grid = dict(rules=(1, 3), forms=("dnf",), cv=3, thetas=(1e-3, 1e-2))
    _, own = fit_select(BooleanRuleClassifier(method="ocrl", pos_label=1), X, y, **grid)
    bcd_model, bcd = fit_select(BooleanRuleClassifier(method="bcd", pos_label=1), X, y, **grid)
    model, both = fit_select(BooleanRuleClassifier(method="ocrl", pos_label=1), X, y,
                             more_methods=("bcd",), **grid)
    # the rows: OCRL's own search, then BCD's, tagged, on the same folds (same errors)
    assert both.rows == own.rows + tuple(dataclasses.replace(r, method="bcd") for r in bcd.rows)
    assert both.methods == ("ocrl", "bcd") and both.best.method == "bcd"
    assert model.method == "bcd" and model.rule_ == bcd_model.rule_  # BCD's refit
    assert both.best.mean_error < own.best.mean_error
    assert "for each of ocrl, bcd" in both.describe() and " learner " in both.table()
    saved = both.to_dict()
    assert saved["methods"] == ["ocrl", "bcd"] and saved["rows"][both.chosen]["method"] == "bcd"
    # the estimator's own learner is not run twice; a name not a learner is refused
    _, same = fit_select(BooleanRuleClassifier(method="ocrl", pos_label=1), X, y,
                         more_methods=("ocrl",), **grid)
    assert same == own
    with pytest.raises(ParameterError, match="every method must be one of"):
        fit_select(BooleanRuleClassifier(pos_label=1), X, y, more_methods=("cgg",), **grid)


def test_more_methods_cg_rows_are_cgs_own_search():
    X, y = two_terms(100, seed=1)
    grid = dict(rules=(1, 3), forms=("dnf",), cv=3, thetas=(1e-3, 1e-2))
    _, cg = fit_select(BooleanRuleClassifier(method="cg", pos_label=1), X, y, **grid)
    model, both = fit_select(BooleanRuleClassifier(pos_label=1), X, y, more_methods=("cg",),
                             **grid)
    assert both.rows[-len(cg.rows):] == tuple(dataclasses.replace(r, method="cg")
                                               for r in cg.rows)
    assert model.method == (both.best.method or "bcd")


def test_on_a_tie_the_estimators_own_learner_wins():
    bcd, cg = row("dnf", 3, 1.0, 0.1, 0.0, 4.0), row("dnf", 3, 1.0, 0.1, 0.0, 4.0)
    cg = dataclasses.replace(cg, method="cg")
    for select in SELECT_RULES:
        assert _choose_row([cg, bcd], range(2), select) == 1
    assert cg.setting["method"] == "cg" and "method" not in bcd.setting


def test_more_methods_are_checked_before_any_search(monkeypatch):
    import rulelearn.model_selection as ms

    def searched(*args, **kwargs):
        raise AssertionError("a search ran before the learner names were checked")
    monkeypatch.setattr(ms, "select_setting", searched)
    X, y = two_terms()
    with pytest.raises(ParameterError, match="every method must be one of"):
        fit_select(BooleanRuleClassifier(pos_label=1), X, y, more_methods=("cgg",), cv=3)


def test_more_methods_search_the_same_thresholds_grid():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(160, 3)), columns=list("abc"))
    y = ((X.a > 0.3) | (X.b < -0.5)).to_numpy().astype(int)
    grid = dict(rules=(1, 3), forms=("dnf",), cv=3, thetas=(1e-3, 1e-2), thresholds=(4, 8))
    _, own = fit_select(BooleanRuleClassifier(method="ocrl", pos_label=1), X, y, **grid)
    _, bcd = fit_select(BooleanRuleClassifier(method="bcd", pos_label=1), X, y, **grid)
    _, both = fit_select(BooleanRuleClassifier(method="ocrl", pos_label=1), X, y,
                         more_methods=("bcd",), **grid)
    assert {r.n_thresholds for r in bcd.rows} == {4, 8}  # the refinement ran
    assert both.rows[len(own.rows):] == tuple(dataclasses.replace(r, method="bcd")
                                               for r in bcd.rows)
