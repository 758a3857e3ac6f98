"""The HiGHS LP core: building from CSC, warm re-solves, status checks."""

import logging
import subprocess
import sys
import textwrap

import highspy
import numpy as np
import pytest

from rulelearn.errors import SolverError
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.formulation import ClauseLP, clause_model
from rulelearn.learners.problem import CNFProblem, clause_objective
from rulelearn.lp import INF, LinearProgram, MixedIntegerProgram


def small_lp(cost=(1.0, 2.0), row_lower=(1.0,)):
    # min c.x  s.t.  x0 + x1 >= 1,  0 <= x <= 1   (CSC: column 0 row 0, column 1 row 0)
    return LinearProgram(cost, [0, 0], [1, 1], row_lower, [INF], [0, 1, 2], [0, 0], [1.0, 1.0])


def test_solves_a_tiny_lp_and_follows_cost_changes():
    lp = small_lp()
    result = lp.solve()
    assert result.status == "optimal"
    assert result.x.tolist() == pytest.approx([1.0, 0.0])
    assert result.objective == pytest.approx(1.0)
    lp.set_costs([3.0, 2.0])
    assert lp.solve().x.tolist() == pytest.approx([0.0, 1.0])
    assert lp.n_solves == 2


def test_an_infeasible_lp_raises_a_solver_error_naming_its_size():
    lp = small_lp(row_lower=(3.0,))  # x0 + x1 <= 2 < 3
    with pytest.raises(SolverError, match="1 rows x 2 columns"):
        lp.solve()


def test_set_costs_checks_the_length():
    with pytest.raises(ValueError, match="expected 2 costs"):
        small_lp().set_costs([1.0])


def random_clause_problem(seed=0, n=300, d=60):
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < 0.3).astype(np.uint8)
    y = (A[:, :3].sum(axis=1) > 0) ^ (rng.random(n) < 0.1)
    return CNFProblem.from_data(A, y)


def test_a_warm_resolve_after_a_theta_change_needs_far_fewer_iterations():
    problem = random_clause_problem()
    solver = ClauseSolver(problem)
    model = clause_model(problem)
    tail = problem.w_pos
    model.set_costs(np.concatenate([solver.column_costs(problem.w_neg, 1.0), tail]))
    cold = model.solve(warm=False)
    model.set_costs(np.concatenate([solver.column_costs(problem.w_neg, 1.02), tail]))
    warm = model.solve(warm=True)
    assert cold.iterations > 50
    assert warm.iterations <= cold.iterations / 10
    # and the warm answer is optimal: the cold solve of the same costs agrees on the value
    again = model.solve(warm=False)
    assert warm.objective == pytest.approx(again.objective)


def test_cold_solves_do_not_depend_on_what_was_solved_before():
    problem = random_clause_problem(1)
    solver = ClauseSolver(problem)
    first = solver.fit(problem.w_neg, 0.5)
    other = ClauseSolver(problem)
    other.fit(problem.w_neg * 0.5, 3.0)  # something else first
    assert other.fit(problem.w_neg, 0.5).clause.tolist() == first.clause.tolist()


class _UnknownOnce:
    """A HiGHS stand-in whose first solve ends with model status 'Unknown'."""

    def __init__(self, highs):
        self._highs = highs
        self.calls = 0

    def run(self):
        self.calls += 1
        return self._highs.run()

    def getModelStatus(self):
        if self.calls == 1:
            return highspy.HighsModelStatus.kUnknown
        return self._highs.getModelStatus()

    def __getattr__(self, name):
        return getattr(self._highs, name)


def test_a_non_optimal_status_is_rescued_by_solving_again(caplog):
    lp = small_lp()
    lp._highs = _UnknownOnce(lp._highs)
    caplog.set_level(logging.INFO, logger="rulelearn.lp")
    result = lp.solve(warm=False)
    assert [r.getMessage() for r in caplog.records] == [
        "HiGHS ended an LP of 1 rows x 2 columns with model status 'Unknown'; solving it again "
        "with presolve=on"]
    assert result.x.tolist() == pytest.approx([1.0, 0.0])
    assert lp.n_fallbacks == 1
    assert lp._highs.getOptionValue("presolve")[1] == "off"  # the option is restored


def clause_lp_objective(problem, w, costs):
    """The clause LP's objective at ``w`` with the best slacks ``xi = max(0, 1 - A w)``."""
    uncovered = np.maximum(0.0, 1.0 - problem.A_pos.astype(float) @ w)
    return float(problem.w_pos @ uncovered + costs @ w)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("theta", [0.05, 1.0, 4.0])
def test_the_dual_formulation_reaches_the_primal_optimum_with_a_feasible_w(seed, theta):
    problem = random_clause_problem(seed, n=200, d=25)
    primal = ClauseLP(problem, "primal")
    dual = ClauseLP(problem, "dual")
    # half the negatives active, as in a BCD step
    weights = problem.w_neg * (np.arange(len(problem.w_neg)) % 2)
    costs = ClauseSolver(problem).column_costs(weights, theta)
    value_p = primal.solve(costs).value
    solution = dual.solve(costs)
    w_d, value_d = solution.w, solution.value
    assert value_d == pytest.approx(value_p, rel=1e-9, abs=1e-7)
    assert np.all((w_d >= 0) & (w_d <= 1))
    assert clause_lp_objective(problem, w_d, costs) == pytest.approx(value_p, rel=1e-9, abs=1e-7)


def test_auto_picks_the_dual_for_tall_problems_sifting_for_big_ones_never_for_the_mip():
    from rulelearn.learners.formulation import SIFT_MIN

    tall = random_clause_problem(0, n=400, d=10)
    wide = random_clause_problem(0, n=40, d=60)
    big = random_clause_problem(0, n=2 * SIFT_MIN + 200, d=SIFT_MIN)
    assert ClauseLP(tall).formulation == "dual"
    assert ClauseLP(wide).formulation == "primal"
    assert ClauseLP(big).formulation == "sifted"
    assert ClauseLP(tall, exact=True).formulation == "primal"
    for formulation in ("dual", "sifted"):
        with pytest.raises(ValueError, match="primal"):
            ClauseLP(tall, formulation, exact=True)


@pytest.mark.parametrize("seed", range(4))
def test_sifting_reaches_the_full_lp_optimum_with_a_subset_of_the_features(seed):
    problem = random_clause_problem(seed, n=200, d=300)
    weights = problem.w_neg * (np.arange(len(problem.w_neg)) % 3 > 0)
    for theta in (0.05, 1.0):
        costs = ClauseSolver(problem).column_costs(weights, theta)
        full = ClauseLP(problem, "primal").solve(costs)
        sifted_lp = ClauseLP(problem, "sifted")
        sifted = sifted_lp.solve(costs)
        assert sifted.value == pytest.approx(full.value, rel=1e-9, abs=1e-7)
        assert clause_lp_objective(problem, sifted.w, costs) == pytest.approx(full.value, abs=1e-7)
        _, rows, _ = sifted.basis  # the features of the restricted model
        assert len(rows) < problem.A_pos.shape[1] and np.all(sifted.w[np.setdiff1d(
            np.arange(problem.A_pos.shape[1]), rows)] == 0)
        # from the kept rows and basis, the same LP needs no iteration
        again = sifted_lp.solve(costs, start=sifted.basis)
        assert again.iterations == 0 and again.value == pytest.approx(full.value)


def test_row_bounds_are_checked_and_followed():
    lp = small_lp()
    with pytest.raises(ValueError, match="expected 1 row bounds"):
        lp.set_row_bounds([1.0, 1.0], [INF, INF])
    lp.set_row_bounds([0.5], [INF])
    assert lp.solve().objective == pytest.approx(0.5)


@pytest.mark.parametrize("formulation", ["primal", "dual"])
@pytest.mark.parametrize("seed", range(4))
def test_a_theta_path_warm_start_reaches_the_cold_optimum_in_fewer_iterations(formulation, seed):
    problem = random_clause_problem(seed, n=300, d=40)
    walked = ClauseSolver(problem, formulation=formulation)
    rng = np.random.default_rng(seed)
    weight_sets = [problem.w_neg, problem.w_neg * (rng.random(len(problem.w_neg)) < 0.5)]
    warm_iterations = cold_iterations = 0
    for theta in (8.0, 2.0, 0.5, 0.1, 0.01):
        for weights in weight_sets:  # interleaved, as BCD does: another LP comes in between
            fit = walked.fit(weights, theta)
            cold = ClauseSolver(problem, formulation=formulation).fit(weights, theta)
            assert fit.lp_value == pytest.approx(cold.lp_value, rel=1e-9, abs=1e-7)
            assert fit.objective == pytest.approx(clause_objective(problem, fit.clause, weights,
                                                                   theta, 0.0))
            warm_iterations += fit.iterations
            cold_iterations += cold.iterations
    assert walked.warm_starts == 8  # every weight set after its first θ
    assert warm_iterations < cold_iterations / 2


def test_without_warm_across_theta_every_lp_starts_from_scratch():
    problem = random_clause_problem(2, n=300, d=40)
    solver = ClauseSolver(problem, warm_across_theta=False)
    for theta in (2.0, 0.5):
        fit = solver.fit(problem.w_neg, theta)
        fresh = ClauseSolver(problem).fit(problem.w_neg, theta)
        assert fit.clause.tolist() == fresh.clause.tolist()
    assert solver.warm_starts == 0


@pytest.mark.parametrize("seed", range(6))
def test_the_tie_break_makes_the_clause_independent_of_the_solve_path(seed, degenerate_data):
    A, y = degenerate_data(seed)
    merged = CNFProblem.from_data(A, y)
    plain = CNFProblem.from_data(A, y, merge=False)
    active = merged.w_neg * (np.random.default_rng(seed).random(len(merged.w_neg)) < 0.6)
    walked = [ClauseSolver(merged, formulation=f) for f in ("primal", "dual", "sifted")]
    for theta in (4.0, 1.0, 0.3, 0.01):  # a θ path: warm starts from the second θ on
        clauses = {tuple(solver.fit(active, theta).clause) for solver in walked}
        cold = ClauseSolver(merged, warm_across_theta=False, formulation="primal")
        clauses.add(tuple(cold.fit(active, theta).clause))
        # the unmerged rows, solved with presolve on from scratch: another path to the optimum
        reference = ClauseSolver(plain, formulation="primal")
        reference._lp = ClauseLP(plain, "primal", presolve=True)
        clauses.add(tuple(reference.fit(_unmerged_weights(A, y, merged, active), theta).clause))
        assert len(clauses) == 1, theta


def _unmerged_weights(A, y, merged, active):
    """The merged negatives' weights ``active`` spread over the unmerged rows (0 or 1 each)."""
    negatives = np.asarray(A)[~np.asarray(y, bool)].astype(np.float32)
    keys = {row.tobytes(): i for i, row in enumerate(merged.A_neg[:, :-1])}
    on = active > 0
    return np.array([float(on[keys[row.tobytes()]]) for row in negatives])


def test_tie_break_costs_are_fixed_small_and_scaled_by_the_smallest_weight():
    from rulelearn.learners.clause import TIE_BREAK, tie_break_costs

    problem = random_clause_problem(0, n=100, d=12)
    costs = tie_break_costs(problem)
    assert costs.shape == (13,)
    assert np.all((costs >= TIE_BREAK) & (costs < 2 * TIE_BREAK))
    assert np.array_equal(costs, tie_break_costs(problem))
    assert len(np.unique(costs)) == 13  # no two features tie
    light = CNFProblem(problem.A_pos, problem.w_pos * 0.01, problem.A_neg, problem.w_neg)
    assert tie_break_costs(light) == pytest.approx(costs * 0.01)
    heavy = CNFProblem(problem.A_pos, problem.w_pos * 50, problem.A_neg, problem.w_neg * 50)
    assert np.array_equal(tie_break_costs(heavy), costs)  # ε never exceeds TIE_BREAK


@pytest.mark.parametrize("seed", range(4))
def test_the_tie_break_moves_the_lp_value_by_at_most_its_own_size(seed, degenerate_data):
    from rulelearn.learners.clause import TIE_BREAK

    A, y = degenerate_data(seed)
    problem = CNFProblem.from_data(A, y)
    for theta in (0.01, 1.0):
        solver = ClauseSolver(problem)
        fit = solver.fit(problem.w_neg, theta)
        plain = ClauseLP(problem).solve(solver.column_costs(problem.w_neg, theta))
        n_cols = problem.A_pos.shape[1]
        assert plain.value - 1e-7 <= fit.lp_value <= plain.value + 2 * TIE_BREAK * n_cols


def test_complement_partners_pairs_columns_that_are_complements_on_every_row():
    from rulelearn.learners.formulation import complement_partners, rows_via_total

    A = np.array([[1, 0, 1, 1, 0],
                  [0, 1, 1, 1, 0],
                  [1, 0, 1, 0, 1]])
    assert complement_partners(A).tolist() == [1, 0, -1, 4, 3]
    support, via_total = rows_via_total(A)
    # columns 0 and 3 (two ones each) are written through their complements (one one)
    assert via_total.tolist() == [True, False, False, True, False]
    assert support.tolist() == [1, 1, 2, 4, 4]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("formulation", ["dual", "sifted"])
def test_rows_through_the_total_give_the_primal_optimum(seed, formulation, degenerate_data):
    from rulelearn.learners.formulation import rows_via_total

    A, y = degenerate_data(seed)
    problem = CNFProblem.from_data(A, y)
    assert rows_via_total(problem.A_pos)[1].sum() > 50  # negations: the trick is in use
    weights = problem.w_neg * (np.random.default_rng(seed).random(len(problem.w_neg)) < 0.5)
    solver = ClauseSolver(problem)
    for theta in (0.02, 0.5, 3.0):
        costs = solver.column_costs(weights, theta) + solver.tie_break
        want = ClauseLP(problem, "primal").solve(costs)
        got = ClauseLP(problem, formulation).solve(costs)
        assert got.value == pytest.approx(want.value, rel=1e-9, abs=1e-7)
        assert np.round(got.w, 6).tolist() == np.round(want.w, 6).tolist()


def test_fits_after_another_highs_user_started_the_thread_scheduler():
    # HiGHS keeps one thread scheduler per process, started by the first solve with
    # the options of that solve; a later model asking for another thread count is refused.
    script = textwrap.dedent("""
        import highspy
        other = highspy.Highs()
        other.setOptionValue("output_flag", False)
        other.addVar(0, 1)
        other.run()
        from sklearn.datasets import load_breast_cancer
        from rulelearn.estimator import BooleanRuleClassifier
        X, y = load_breast_cancer(return_X_y=True)
        model = BooleanRuleClassifier(theta=1.0).fit(X, y)
        optimal = other.getModelStatus() == highspy.HighsModelStatus.kOptimal
        print(model.rule_.n_literals > 0, optimal)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1].split() == ["True", "True"]  # after HiGHS's banner


@pytest.mark.parametrize("seed", range(6))
def test_kept_negative_sums_give_the_fits_computed_afresh(seed):
    # one solver asked for a few weight vectors over many θ (the sums kept per weights)
    # against a new solver, with nothing kept, for every fit
    problem = random_clause_problem(seed, n=200, d=25)
    rng = np.random.default_rng(seed)
    weights = [problem.w_neg] + [np.where(rng.random(len(problem.w_neg)) < 0.5, 0.0,
                                          problem.w_neg) for _ in range(3)]
    kept = ClauseSolver(problem)
    for theta in (5.0, 1.0, 0.2, 0.01):
        for neg_weight in weights:
            fit = kept.fit(neg_weight, theta)
            fresh = ClauseSolver(problem, warm_across_theta=False).fit(neg_weight, theta)
            assert np.array_equal(fit.clause, fresh.clause)
            assert fit.objective == fresh.objective
            assert np.array_equal(kept.column_costs(neg_weight, theta, neg_weight.tobytes()),
                                  ClauseSolver(problem).column_costs(neg_weight, theta))
    assert len(kept._neg_sums) == len(weights)


@pytest.mark.parametrize("seed", range(8))
def test_a_kept_dual_basis_still_optimal_at_a_new_theta_gives_the_cold_w(seed, degenerate_data):
    # the full dual answers an LP from a kept basis when that basis stays primal feasible;
    # along a θ path (with the tie-break, so one optimum) every w must be the cold solve's
    A, y = degenerate_data(seed)
    problem = CNFProblem.from_data(A, ~np.asarray(y, bool))
    if problem.A_pos.shape[0] < 2 * problem.A_pos.shape[1]:
        problem = CNFProblem.from_data(A, y)
    from rulelearn.learners.clause import tie_break_costs

    rng = np.random.default_rng(seed)
    tie = tie_break_costs(problem)
    walked = ClauseLP(problem, "dual")
    answered = 0
    for weights in (problem.w_neg, problem.w_neg * (rng.random(len(problem.w_neg)) < 0.5)):
        kept = None
        for theta in (20.0, 5.0, 2.0, 1.0, 0.5, 0.2, 0.05, 0.01, 1e-3, 1e-4):
            costs = ClauseSolver(problem).column_costs(weights, theta) + tie
            before = walked.n_still_optimal
            got = walked.solve(costs, start=kept)
            answered += walked.n_still_optimal - before
            cold = ClauseLP(problem, "primal").solve(costs)
            assert np.array_equal(np.round(got.w, 6), np.round(cold.w, 6)), theta
            assert got.value == pytest.approx(cold.value, rel=1e-9, abs=1e-7)
            kept = got.basis
    assert answered > 0  # the kept basis answered some LPs without HiGHS


@pytest.mark.parametrize("seed", range(3))
def test_a_kept_dual_basis_is_not_used_where_the_optimum_moved(seed):
    problem = random_clause_problem(seed, n=400, d=20)
    solver = ClauseSolver(problem)
    moved = 0
    thetas = (50.0, 10.0, 3.0, 1.0, 0.3, 0.1, 0.01)
    for high, low in zip(thetas, thetas[1:]):
        lp = ClauseLP(problem, "dual")
        first = lp.solve(solver.column_costs(problem.w_neg, high) + solver.tie_break)
        assert lp._still_optimal(first.basis, first.basis.costs) is not None  # same costs
        costs = solver.column_costs(problem.w_neg, low) + solver.tie_break
        cold = ClauseLP(problem, "dual").solve(costs)
        if not np.array_equal(np.round(cold.w, 6), np.round(first.w, 6)):  # the optimum moved
            moved += 1
            assert lp._still_optimal(first.basis, costs) is None
            assert np.array_equal(np.round(lp.solve(costs, start=first.basis).w, 6),
                                  np.round(cold.w, 6))
    assert moved > 0


def thresholded_problem(seed, n=400, n_numeric=3, n_thresholds=5, levels=4):
    """A clause problem as the binarizer lays it out: per numeric column its thresholds
    ``x <= t`` then ``x > t``; per categorical column ``c == v`` then ``c != v``."""
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(n_numeric):
        x = rng.normal(size=n).round(1)
        cuts = np.quantile(x, np.linspace(0.1, 0.9, n_thresholds))
        below = x[:, None] <= cuts[None, :]
        blocks += [below, ~below]
    c = rng.integers(0, levels, n)
    equal = c[:, None] == np.arange(levels)[None, :]
    blocks += [equal, ~equal]
    A = np.concatenate(blocks, axis=1).astype(np.uint8)
    y = (A[:, 0] & A[:, 2 * n_thresholds + 3]).astype(bool) ^ (rng.random(n) < 0.1)
    return CNFProblem.from_data(A, ~y)


def test_feature_groups_follow_the_columns_of_the_binarizer():
    from rulelearn.learners.formulation import feature_groups

    x = np.array([0, 1, 2, 3, 0, 1, 2, 3, 0])
    below = x[:, None] <= np.array([0, 1, 2])[None, :]  # 3 thresholds: 4 patterns
    c = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1])  # every (x, c): 8 patterns with x's
    other = np.stack([c == 0, c == 1], axis=1)  # 2 features, 2 patterns
    A = np.concatenate([below, ~below, other, np.ones((9, 1), bool)], axis=1)
    groups = feature_groups(A)
    assert [g.tolist() for g, _ in groups] == [[0, 1, 2, 3, 4, 5], [6, 7]]
    ids = groups[0][1]
    assert len(set(ids.tolist())) == 4 and ids[0] == ids[4] == ids[8]  # x = 0: one bin
    assert len(set(groups[1][1].tolist())) == 2


def test_random_binary_features_keep_the_full_dual():
    from rulelearn.learners.formulation import binned_dual_clause_model

    assert binned_dual_clause_model(random_clause_problem(0, n=400, d=20)) is None
    assert binned_dual_clause_model(thresholded_problem(0)) is not None


@pytest.mark.parametrize("seed", range(6))
def test_the_binned_dual_gives_the_primal_w_cold_and_from_kept_bases(seed):
    # the positives summed per bin: the same LP, so the same (unique) w as the primal,
    # from the crash basis and along a θ path from kept bases
    from rulelearn.learners.clause import tie_break_costs

    problem = thresholded_problem(seed)
    rng = np.random.default_rng(seed)
    tie = tie_break_costs(problem)
    binned = ClauseLP(problem, "dual")
    assert binned._crash is not None  # the binned model
    assert binned.model.n_rows > problem.A_pos.shape[1] + 1
    for weights in (problem.w_neg, problem.w_neg * (rng.random(len(problem.w_neg)) < 0.5)):
        kept = None
        for theta in (20.0, 2.0, 0.5, 0.05, 1e-3):
            costs = ClauseSolver(problem).column_costs(weights, theta) + tie
            primal = ClauseLP(problem, "primal").solve(costs)
            for got in (ClauseLP(problem, "dual").solve(costs), binned.solve(costs, start=kept)):
                assert np.array_equal(np.round(got.w, 6), np.round(primal.w, 6)), theta
                assert got.value == pytest.approx(primal.value, rel=1e-9, abs=1e-7)
            kept = got.basis


def test_a_basis_needs_one_basic_variable_per_row():
    lp = small_lp()
    assert lp.solve(start=lp.basis_with(basic_columns=[1], basic_rows=[])).x.tolist() == \
        pytest.approx([1.0, 0.0])
    with pytest.raises(ValueError, match="needs 1 basic"):
        lp.basis_with(basic_columns=[0, 1], basic_rows=[])


def test_lp_answers_given_to_another_solver_are_not_solved_again():
    problem = random_clause_problem(3, n=300, d=40)
    answers: dict = {}
    first = ClauseSolver(problem, lp_answers=answers)
    half = problem.w_neg * (np.arange(len(problem.w_neg)) % 2)
    asked = [(problem.w_neg, 2.0), (half, 2.0), (problem.w_neg, 0.5)]
    found = [first.fit(weights, theta) for weights, theta in asked]
    assert first.n_solves == len(answers) == 3
    second = ClauseSolver(problem, lp_answers=answers)
    cap = np.ones(len(problem.w_neg))  # another cap: the same LP, rounded again
    again = [second.fit(weights, theta, cap) for weights, theta in asked]
    assert second.n_solves == 0 and all(fit.iterations == 0 for fit in again)
    for fit, before, (weights, theta) in zip(again, found, asked):
        alone = ClauseSolver(problem).fit(weights, theta, cap)
        assert fit.clause.tolist() == alone.clause.tolist()
        assert fit.objective == pytest.approx(alone.objective)
        assert fit.lp_value == before.lp_value
    second.fit(half, 0.5)  # a new LP is solved, and kept for the next solver
    assert second.n_solves == 1 and len(answers) == 4


def knapsack():
    # min −x − y  s.t.  2x + 2y <= 3,  x, y in {0, 1}: one of them (−1); the LP relaxation −1.5
    return MixedIntegerProgram([-1.0, -1.0], [0, 0], [1, 1], [-INF], [3.0], [0, 1, 2], [0, 0],
                               [2.0, 2.0], [True, True], what="knapsack")


def test_a_mip_reports_its_proven_bound_and_its_lp_relaxation():
    mip = knapsack()
    run = mip.run()
    assert (run.optimal, run.bounded, run.timed_out) == (True, True, False)
    assert run.dual_bound == pytest.approx(-1.0) and sorted(run.x.tolist()) == [0.0, 1.0]
    mip.set_integer([0, 1], False)
    relaxed = mip.run(clear=True)
    assert relaxed.optimal and relaxed.x.sum() == pytest.approx(1.5)
    mip.set_integer([0, 1], True)
    mip.add_rows([-INF], [0.0], [0, 1], [0], [1.0])  # x <= 0
    mip.set_costs([-1.0, -2.0])
    run = mip.run(clear=True)
    assert run.optimal and run.x.tolist() == pytest.approx([0.0, 1.0])
    assert run.dual_bound == pytest.approx(-2.0)
    mip.set_options(time_limit=5.0)
    assert mip.option("time_limit") == 5.0


def test_an_infeasible_mip_has_no_solution_and_no_bound():
    mip = knapsack()
    mip.add_rows([2.0], [INF], [0, 2], [0, 1], [1.0, 1.0])  # x + y >= 2, with 2x + 2y <= 3
    run = mip.run()
    assert (run.optimal, run.bounded, run.x, run.dual_bound) == (False, False, None, -np.inf)
    assert run.status == "Infeasible"


def test_a_mip_highs_refuses_is_a_solver_error():
    with pytest.raises(SolverError, match="HiGHS rejected the knapsack"):
        MixedIntegerProgram([1.0], [0], [1], [0.0], [1.0], [0, 1], [5], [1.0], [True],
                            what="knapsack")  # row 5 of a one-row model
