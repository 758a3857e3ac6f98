"""Row generation on the positives in the sifted dual: the same ``w`` and rules as the full LP.

The sifted dual (:class:`~rulelearn.learners.formulation.SiftedDualLP`) keeps
only some positives (clause-LP rows) in its restricted model and adds the ones
the restricted ``w`` violates. On seeded random instances (duplicated rows,
complementary columns, sample weights, small batches so that rows enter over
several rounds) it must give the full LP's ``w``, from scratch, from a kept
basis and with working sets carried from LP to LP, and whole BCD / AM / SC fits
along a θ path must give the same rules as without it.
"""

import numpy as np
import pytest

from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver, tie_break_costs
from rulelearn.learners.formulation import ClauseLP, SiftedDualLP
from rulelearn.learners.problem import CNFProblem

THETAS = (50.0, 1.18, 0.0277, 1e-4)


def rowgen_problem(seed, n=240, d=60, merge=True):
    """Random 0/1 data with complementary columns (a threshold and its negation), duplicated
    rows of either class and sample weights."""
    rng = np.random.default_rng(seed)
    half = (rng.random((n, d // 2)) < rng.uniform(0.1, 0.9, d // 2)).astype(int)
    A = np.concatenate([half, 1 - half], axis=1)
    A[n // 2:n // 2 + 10] = A[:10]  # duplicates
    y = (half[:, :4].sum(axis=1) >= 2) ^ (rng.random(n) < 0.15)
    weight = rng.choice([0.5, 1.0, 2.0, 3.0], size=n)
    return CNFProblem.from_data(A, y, weight, merge=merge)


def negative_weights(problem, rng):
    if rng.random() < 0.4:
        return problem.w_neg.copy()
    return np.where(rng.random(len(problem.w_neg)) < 0.6, problem.w_neg, 0.0)


def sifted(problem, *, rows=True, carry=True, row_batch=7, batch=5):
    lp = ClauseLP(problem, "sifted", carry=carry, row_generation=rows)
    assert isinstance(lp.sifted, SiftedDualLP)
    lp.sifted.row_batch, lp.sifted.batch = row_batch, batch
    return lp


@pytest.mark.parametrize("seed", range(6))
def test_row_generation_gives_the_full_lp_w(seed):
    problem = rowgen_problem(seed, merge=seed % 2 == 0)
    n_pos = len(problem.w_pos)
    rng = np.random.default_rng(seed)
    solver = ClauseSolver(problem, screen=False)
    tie = tie_break_costs(problem)
    rowgen, plain = sifted(problem, carry=False), sifted(problem, rows=False, carry=False)
    full = ClauseLP(problem, "primal")
    left_out = 0
    for theta in THETAS:
        costs = solver.column_costs(negative_weights(problem, rng), theta) + tie
        rounds, added = rowgen.sifted.n_rounds, rowgen.sifted.n_positives_added
        a, b, c = rowgen.solve(costs), plain.solve(costs), full.solve(costs)
        np.testing.assert_allclose(a.w, c.w, atol=1e-9)
        np.testing.assert_allclose(b.w, c.w, atol=1e-9)
        assert a.value == pytest.approx(c.value, rel=1e-9, abs=1e-7)
        positives, features, _ = a.basis
        assert len(np.unique(positives)) == len(positives) <= n_pos
        left_out += n_pos - len(positives)
        # rows enter over several rounds, beyond the first batch
        assert rowgen.sifted.n_rounds - rounds >= 2
        assert rowgen.sifted.n_positives_added - added > rowgen.sifted.row_batch
        # every positive left out is satisfied by w (its clause-LP row holds with xi_i = 0)
        out = np.setdiff1d(np.arange(n_pos), positives)
        assert np.all(problem.A_pos[out] @ a.w >= 1 - 1e-9)
        # from the kept positives, features and basis: the same w at once
        again = rowgen.solve(costs, start=a.basis)
        assert again.iterations == 0
        np.testing.assert_allclose(again.w, a.w, atol=1e-12)
    assert left_out > 0  # the restricted models did leave positives out


def test_the_violated_rows_are_needed():
    """Without adding the violated positives the restricted optimum is another ``w``: the check
    above can fail."""
    problem = rowgen_problem(0)
    solver = ClauseSolver(problem, screen=False)
    costs = solver.column_costs(problem.w_neg, 0.0277) + tie_break_costs(problem)
    want = ClauseLP(problem, "primal").solve(costs)
    lazy = sifted(problem, carry=False)
    lazy.sifted._most_violated = lambda w, in_model: np.zeros(0, dtype=np.int64)
    got = lazy.solve(costs)
    assert np.abs(got.w - want.w).max() > 1e-3
    assert got.value < want.value - 1e-6  # the relaxation: a lower value


@pytest.mark.parametrize("seed", range(3))
def test_carried_positives_keep_each_lp_optimum(seed):
    problem = rowgen_problem(10 + seed, n=300, d=80)
    rng = np.random.default_rng(seed)
    solver = ClauseSolver(problem, screen=False)
    tie = tie_break_costs(problem)
    carry, cold = sifted(problem), sifted(problem, carry=False)
    full = ClauseLP(problem, "primal")
    for theta in THETAS * 3:
        costs = solver.column_costs(negative_weights(problem, rng), theta) + tie
        a, b, c = carry.solve(costs), cold.solve(costs), full.solve(costs)
        np.testing.assert_allclose(a.w, c.w, atol=1e-9)
        np.testing.assert_allclose(b.w, c.w, atol=1e-9)
    # the carried positives did change the restricted models
    assert carry.sifted.n_positives_added != cold.sifted.n_positives_added


@pytest.mark.parametrize("method", ["bcd", "am", "sc"])
def test_theta_path_gives_the_same_rules(method):
    left_out = 0
    for seed in range(3):
        problem = rowgen_problem(20 + seed, n=200, d=60, merge=seed != 1)
        on = ClauseSolver(problem, formulation="sifted")
        off = ClauseSolver(problem, formulation="sifted", row_generation=False)
        primal = ClauseSolver(problem, formulation="primal")
        on._lp.sifted.row_batch = 9
        for theta in THETAS:
            a = run_learner(method, on, theta, max_rules=3, max_iter=20)
            b = run_learner(method, off, theta, max_rules=3, max_iter=20)
            c = run_learner(method, primal, theta, max_rules=3, max_iter=20)
            np.testing.assert_array_equal(a.W, b.W)
            np.testing.assert_array_equal(a.W, c.W)
            assert a.objective == pytest.approx(c.objective, abs=1e-9)
        sifted_on = on._lp.sifted
        left_out += sifted_on.n_rounds > on.n_solves  # extra rounds: rows were generated
        assert off._lp.sifted.n_positives_added == len(problem.w_pos) * off.n_solves
    assert left_out > 0
