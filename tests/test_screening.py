"""Safe screening: features left out of a clause LP change neither its ``w`` nor any rule.

On seeded random instances (duplicated rows, constant columns, sample weights,
negatives heavy enough that screening fires) every formulation gives the same
``w`` with and without screening, and whole BCD / AM / SC fits along a θ path
(largest θ first, as the inner CV runs it) give the same rules.
"""

import numpy as np
import pytest

from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver, tie_break_costs
from rulelearn.learners.formulation import ClauseLP, positive_cover, screened_features
from rulelearn.learners.problem import CNFProblem

THETAS = (50.0, 1.18, 0.0277, 1e-4)
FORMULATIONS = ("primal", "dual", "sifted")


def screening_problem(seed, n=40, d=10, merge=True):
    """Random 0/1 data with duplicated rows, an all-zero and an all-one column, weights."""
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < rng.uniform(0.2, 0.8, d)).astype(int)
    A[:, 0] = 0
    A[:, 1] = 1
    A[n // 2:n // 2 + 5] = A[:5]  # duplicated rows (of either class)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    weight = rng.choice([0.5, 1.0, 2.0, 3.0], size=n) * np.where(y, 1.0, rng.uniform(1, 4))
    return CNFProblem.from_data(A, y, weight, merge=merge)


def negative_weights(problem, rng):
    """The full weights, or a random subset as BCD/AM/SC pass them."""
    if rng.random() < 0.5:
        return problem.w_neg.copy()
    return np.where(rng.random(len(problem.w_neg)) < 0.6, problem.w_neg, 0.0)


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_screened_lp_has_the_same_w(formulation):
    screened_total = 0
    for seed in range(15):
        problem = screening_problem(seed, merge=seed % 2 == 0)
        rng = np.random.default_rng(100 + seed)
        solver = ClauseSolver(problem, screen=False)
        cover, ones = positive_cover(problem)
        tie = tie_break_costs(problem)
        with_screen = ClauseLP(problem, formulation)
        without = ClauseLP(problem, formulation)
        for theta in THETAS:
            costs = solver.column_costs(negative_weights(problem, rng), theta) + tie
            screened = screened_features(costs, cover, ones)
            screened_total += int(screened.sum())
            a = with_screen.solve(costs, screened=screened)
            b = without.solve(costs)
            np.testing.assert_allclose(a.w, b.w, atol=1e-9)
            assert a.value == pytest.approx(b.value, abs=1e-7)
            assert np.all(b.w[screened] <= 1e-9)  # the claim: zero at the optimum
    assert screened_total > 0


def test_zero_cover_features_are_always_screened_and_ties_never():
    problem = screening_problem(0)
    cover, ones = positive_cover(problem)
    costs = cover.copy()  # a tie: cost equals the covered weight
    assert not screened_features(costs, cover, ones).any()
    costs = cover + 1e-4
    screened = screened_features(costs, cover, ones)
    assert screened[0] and screened.all()  # column 0 covers nothing


@pytest.mark.parametrize("method", ["bcd", "am", "sc"])
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_theta_path_gives_the_same_rules(method, formulation):
    screened = 0
    for seed in range(6):
        problem = screening_problem(seed, n=60, d=12, merge=seed % 3 != 0)
        on = ClauseSolver(problem, formulation=formulation)
        off = ClauseSolver(problem, formulation=formulation, screen=False)
        for theta in THETAS:
            a = run_learner(method, on, theta, max_rules=3, max_iter=20)
            b = run_learner(method, off, theta, max_rules=3, max_iter=20)
            np.testing.assert_array_equal(a.W, b.W)
            assert a.objective == pytest.approx(b.objective, abs=1e-9)
        screened += on.n_screened
        assert off.n_screened == 0
    assert screened > 0


def test_the_mip_is_not_screened():
    problem = screening_problem(1)
    solver = ClauseSolver(problem, exact=True)
    solver.fit(problem.w_neg, 1.0)
    assert not solver.screen and solver.n_screened == 0


@pytest.mark.parametrize("method", ["bcd", "am", "sc"])
def test_carried_working_set_gives_the_same_rules(method):
    """The sifted dual started from the last optimum's active features: same rules, as cold."""
    carried = 0
    for seed in range(4):  # more features than the sifted dual's batch (50)
        problem = screening_problem(seed, n=60, d=120, merge=seed % 3 != 0)
        new = ClauseSolver(problem, formulation="sifted")
        old = ClauseSolver(problem, formulation="sifted", screen=False, carry_working_set=False)
        for theta in THETAS:
            a = run_learner(method, new, theta, max_rules=3, max_iter=20)
            b = run_learner(method, old, theta, max_rules=3, max_iter=20)
            np.testing.assert_array_equal(a.W, b.W)
            assert a.objective == pytest.approx(b.objective, abs=1e-9)
        carried += new.n_rows_added != old.n_rows_added
    assert carried > 0  # the carried working sets did change the restricted models


def test_carried_working_set_keeps_each_lp_optimum():
    problem = screening_problem(3, n=80, d=120)
    rng = np.random.default_rng(7)
    solver = ClauseSolver(problem, screen=False)
    tie = tie_break_costs(problem)
    carry = ClauseLP(problem, "sifted")
    cold = ClauseLP(problem, "sifted", carry=False)
    full = ClauseLP(problem, "primal")
    for theta in THETAS * 3:
        costs = solver.column_costs(negative_weights(problem, rng), theta) + tie
        a, b, c = carry.solve(costs), cold.solve(costs), full.solve(costs)
        np.testing.assert_allclose(a.w, b.w, atol=1e-9)
        np.testing.assert_allclose(a.w, c.w, atol=1e-9)
