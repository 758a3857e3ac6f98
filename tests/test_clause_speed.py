"""Faster ways to the clause LP agree with the plain cold full LP (no timings here)."""

import numpy as np
import pytest

from rulelearn.learners.clause import ClauseSolver, clause_model
from rulelearn.learners.problem import CNFProblem


def grouped_problem(seed, n=400, features=4, bins=6):
    """Threshold literals of a few numeric features: many positives, few literals (MAGIC-like)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, bins, size=(n, features))
    literals = np.column_stack([X[:, f] <= t for f in range(features) for t in range(bins - 1)]
                               + [X[:, f] > t for f in range(features) for t in range(bins - 1)])
    y = (X[:, 0] + X[:, 1] > bins) ^ (rng.random(n) < 0.1)
    return CNFProblem.from_data(literals.astype(np.uint8), y)


def full_cold(problem, neg_weight, theta):
    model = clause_model(problem)
    costs = ClauseSolver(problem).column_costs(neg_weight, theta)
    model.set_costs(np.concatenate([costs, problem.w_pos]))
    return model.solve(warm=False)


TASKS = [(seed, theta, share) for seed in range(6) for theta in (0.1, 1.0, 3.0)
         for share in (1.0, 0.3)]


@pytest.mark.parametrize("seed,theta,share", TASKS)
def test_column_generation_reaches_the_full_lp_value(seed, theta, share):
    problem = grouped_problem(seed)
    rng = np.random.default_rng(seed + 100)
    neg_weight = np.where(rng.random(len(problem.w_neg)) < share, problem.w_neg, 0.0)
    reference = full_cold(problem, neg_weight, theta)
    solver = ClauseSolver(problem, columns="generate")
    fit = solver.fit(neg_weight, theta)
    assert fit.lp_value == pytest.approx(reference.objective, rel=1e-7, abs=1e-7)
    plain = ClauseSolver(problem).fit(neg_weight, theta)
    # the rounded clause is only as unique as the LP optimum: same value, and here the same rule
    assert fit.objective == pytest.approx(plain.objective, rel=1e-7, abs=1e-7)


def test_column_generation_rule_identity_rate_on_magic_like_problems():
    same = 0
    for seed, theta, share in TASKS:
        problem = grouped_problem(seed)
        rng = np.random.default_rng(seed + 100)
        neg_weight = np.where(rng.random(len(problem.w_neg)) < share, problem.w_neg, 0.0)
        a = ClauseSolver(problem, columns="generate").fit(neg_weight, theta)
        b = ClauseSolver(problem).fit(neg_weight, theta)
        same += np.array_equal(a.clause, b.clause)
    assert same >= 0.8 * len(TASKS)


def test_column_generation_does_not_depend_on_earlier_fits():
    problem = grouped_problem(7)
    first = ClauseSolver(problem, columns="generate").fit(problem.w_neg, 0.5)
    solver = ClauseSolver(problem, columns="generate")
    solver.fit(problem.w_neg * 0.3, 2.0)
    again = solver.fit(problem.w_neg, 0.5)
    assert again.clause.tolist() == first.clause.tolist()
    assert again.lp_value == first.lp_value
    assert solver.n_solves >= 2 and solver.total_iterations > 0


def test_an_unknown_column_mode_is_refused():
    with pytest.raises(ValueError, match="columns must be one of"):
        ClauseSolver(grouped_problem(0), columns="some")
