"""The learners against exact oracles on tiny instances.

Brute force enumerates every clause (and every pair of clauses) of a tiny
random problem, so the paper's objective has a known exact optimum.
"""

import importlib
import itertools
import logging

import numpy as np
import pytest

from rulelearn.learners import (
    LEARNER_OPTIONS,
    LEARNERS,
    am,
    bcd,
    ocrl,
    run_learner,
    set_cover,
)
from rulelearn.learners.am import assign_negatives
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import (
    CNFProblem,
    clause_counts,
    clause_objective,
    cnf_objective,
    disabled_clause,
    predict_cnf,
)
from rulelearn.learners.rounding import round_best_threshold

SEEDS = range(12)


def random_problem(seed, n=12, d=6, merge=True):
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, size=(n, d))
    y = rng.random(n) < 0.5
    y[:2] = [True, False]  # both classes present
    return A, y, CNFProblem.from_data(A, y, merge=merge)


def all_clauses(d):
    """Every clause over d features plus the always-true one, as bool rows."""
    return np.array(list(itertools.product([False, True], repeat=d + 1)), dtype=bool)


def direct_objective(A, y, W, theta, disable_cost=0.0):
    """The paper's objective (3), written out sample by sample with explicit ideal outputs v."""
    A_ext = np.hstack([A, np.ones((len(A), 1), dtype=int)])
    total = 0.0
    for a, label in zip(A_ext, y):
        per_clause = [int(a[np.flatnonzero(clause)].sum()) for clause in W]
        if label:  # v_ir = 1 for every clause
            total += sum(max(0, 1 - s) for s in per_clause)
        else:  # v_{i,r0} = 0 for the best clause, don't care elsewhere
            total += min(per_clause)
    for clause in W:
        total += theta * clause[:-1].sum() + disable_cost * clause[-1]
    return total


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("theta", [0.0, 0.3, 2.0])
def test_cnf_objective_matches_direct_evaluation(seed, theta):
    A, y, problem = random_problem(seed)
    rng = np.random.default_rng(100 + seed)
    W = rng.random((3, A.shape[1] + 1)) < 0.3
    want = direct_objective(A, y, W, theta, 0.5)
    assert cnf_objective(problem, W, theta, 0.5) == pytest.approx(want)


@pytest.mark.parametrize("seed", SEEDS)
def test_merging_duplicates_changes_nothing(seed):
    A, y, merged = random_problem(seed, n=20, d=3)  # 20 rows, 16 patterns: duplicates
    _, _, plain = random_problem(seed, n=20, d=3, merge=False)
    assert len(merged.w_pos) + len(merged.w_neg) < 20
    for W in all_clauses(3)[::7, None, :]:
        assert cnf_objective(merged, W, 0.4) == pytest.approx(cnf_objective(plain, W, 0.4))


def clause_optimum(problem, neg_weight, theta, disable_cost=0.0):
    values = [clause_objective(problem, c, neg_weight, theta, disable_cost)
              for c in all_clauses(problem.n_features)]
    return min(values)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("theta", [0.01, 0.5, 1.5])
@pytest.mark.parametrize("formulation", ["primal", "dual"])
def test_lp_bounds_the_clause_optimum_and_mip_reaches_it(seed, theta, formulation):
    _, _, problem = random_problem(seed)
    optimum = clause_optimum(problem, problem.w_neg, theta)
    lp = ClauseSolver(problem, formulation=formulation).fit(problem.w_neg, theta)
    assert lp.lp_value <= optimum + 1e-7
    assert lp.objective >= optimum - 1e-9  # rounding gives a feasible integer clause
    assert lp.objective == pytest.approx(
        clause_objective(problem, lp.clause, problem.w_neg, theta, 0.0))
    mip = ClauseSolver(problem, exact=True).fit(problem.w_neg, theta)
    assert mip.objective == pytest.approx(optimum)


def test_best_threshold_rounding_then_pruning():
    # Three positives, each holding two of three features; one negative with none.
    A = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1], [0, 0, 0]])
    y = np.array([True, True, True, False])
    problem = CNFProblem.from_data(A, y)
    # w = (.9, .2, .6): level .9 gives {0} (one positive uncovered: 1.1), level .6
    # gives {0, 2} (all covered: 0.2), level .2 gives {0, 1, 2} (0.3): {0, 2} wins.
    clause, value = round_best_threshold(problem, np.array([0.9, 0.2, 0.6, 0.0]),
                                         problem.w_neg, 0.1, 0.0)
    assert clause.tolist() == [True, False, True, False]
    assert value == pytest.approx(0.2)
    # w = (.5, .5, .5): the only level gives {0, 1, 2}; pruning drops feature 0,
    # which every positive can do without, and keeps 1 and 2.
    clause, value = round_best_threshold(problem, np.array([0.5, 0.5, 0.5, 0.0]),
                                         problem.w_neg, 0.1, 0.0)
    assert clause.tolist() == [False, True, True, False]
    assert value == pytest.approx(0.2)


def test_rounding_prefers_the_empty_clause_when_nothing_pays():
    A = np.array([[1, 0], [0, 1], [1, 1]])
    y = np.array([True, False, False])
    problem = CNFProblem.from_data(A, y)
    clause, value = round_best_threshold(problem, np.array([0.4, 0.0, 0.0]), problem.w_neg, 5.0,
                                         1.0)
    assert not clause.any() and value == pytest.approx(1.0)


def two_clause_optimum(problem, theta, disable_cost=0.0):
    clauses = all_clauses(problem.n_features)
    return min(cnf_objective(problem, np.array([a, b]), theta, disable_cost)
               for i, a in enumerate(clauses) for b in clauses[i:])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("theta", [0.2, 1.0])
@pytest.mark.parametrize("formulation", ["primal", "dual"])
def test_two_level_learners_against_brute_force(seed, theta, formulation):
    _, _, problem = random_problem(seed, n=10, d=4)
    optimum = two_clause_optimum(problem, theta)
    start = set_cover(ClauseSolver(problem, formulation=formulation), theta, max_rules=2)
    for learn in (bcd, am):
        result = learn(ClauseSolver(problem, formulation=formulation), theta, max_rules=2,
                       max_iter=100)
        assert result.objective >= optimum - 1e-9
        assert result.objective <= start.objective + 1e-9
        assert result.objective == pytest.approx(cnf_objective(problem, result.W, theta))
        assert all(b <= a + 1e-9 for a, b in zip(result.history, result.history[1:]))
        assert result.history[0] == pytest.approx(start.objective)


@pytest.mark.parametrize("seed", range(6))
def test_exact_clause_solver_inside_bcd_reaches_a_clausewise_optimum(seed):
    _, _, problem = random_problem(seed, n=10, d=4)
    result = bcd(ClauseSolver(problem, exact=True), 0.5, max_rules=2)
    # at a BCD fixed point no single clause can be changed to lower the objective
    for r in range(2):
        for clause in all_clauses(problem.n_features):
            trial = result.W.copy()
            trial[r] = clause
            assert cnf_objective(problem, trial, 0.5) >= result.objective - 1e-9


def test_one_clause_learner_is_optimal_on_a_separable_clause():
    A = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [0, 0, 0]])
    y = np.array([True, True, True, False, False])  # y = x0 OR x1
    result = ocrl(ClauseSolver(CNFProblem.from_data(A, y)), 0.1)
    assert result.W.tolist() == [[True, True, False, False]]
    assert predict_cnf(np.hstack([A, np.ones((5, 1))]), result.W).tolist() == y.tolist()


def test_set_cover_stops_when_every_negative_is_rejected():
    # y = x0 AND x2: two one-literal clauses, each rejecting a different negative
    # (x3 covers one positive only, so no clause ties with x0 or x2 at θ = 0.1)
    A = np.array([[1, 0, 1, 0], [1, 1, 1, 1], [1, 0, 1, 0],
                  [0, 1, 1, 0], [1, 1, 0, 0]])
    y = np.array([True, True, True, False, False])
    result = set_cover(ClauseSolver(CNFProblem.from_data(A, y)), 0.1, max_rules=5)
    enabled = result.W[~result.W[:, -1]]
    assert sorted(map(tuple, enabled[:, :-1].astype(int))) == [(0, 0, 1, 0), (1, 0, 0, 0)]
    assert result.n_iter == 2
    assert result.objective == pytest.approx(0.2)
    assert predict_cnf(np.hstack([A, np.ones((5, 1))]), result.W).tolist() == y.tolist()


def test_a_disabled_clause_is_cheaper_than_one_each_negative_hits_twice():
    # Hamming loss: a negative with two selected active features pays 2, so
    # (x0 OR x1) costs 2.2 at θ = 0.1 while disabling the clause costs 2.
    A = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 1, 1], [1, 1, 0, 0]])
    y = np.array([True, True, True, False, False])
    result = set_cover(ClauseSolver(CNFProblem.from_data(A, y)), 0.1, max_rules=5)
    assert result.W[:, -1].all() and result.objective == pytest.approx(2.0)


def test_am_assignment_breaks_ties_by_the_nearest_cluster_centre():
    # Clause 0 selects feature 0, clause 1 feature 1.
    W = np.array([[True, False, False, False], [False, True, False, False]])
    A_neg = np.array([[1, 0, 1, 1],   # count (1, 0): clause 1
                      [0, 1, 0, 1],   # count (0, 1): clause 0
                      [0, 0, 1, 1],   # tie (0, 0): centre of clause 0 is (0, .5, .5, 1)... nearest
                      [0, 0, 0, 1]], dtype=np.float32)
    w = np.ones(4)
    assignment = assign_negatives(A_neg, w, W)
    assert assignment[:2].tolist() == [1, 0]
    # centres: clause 0 over rows {1,2,3} = (0, 1/3, 1/3, 1);
    # clause 1 over {0,2,3} = (1/3, 0, 2/3, 1)
    # row 2 = (0,0,1,1): l1 to c0 = 0+1/3+2/3 = 1, to c1 = 1/3+0+1/3 = 2/3 -> clause 1
    # row 3 = (0,0,0,1): l1 to c0 = 2/3, to c1 = 1/3 + 2/3 = 1 -> clause 0
    assert assignment[2:].tolist() == [1, 0]


def _assign_one_by_one(A_neg, w_neg, W):
    """The v-step written plainly: each tied negative's distances computed on their own."""
    counts = np.column_stack([A_neg[:, np.flatnonzero(clause)].sum(axis=1) for clause in W])
    minimal = counts == counts.min(axis=1, keepdims=True)
    assignment = np.argmax(minimal, axis=1)
    weights = minimal * w_neg[:, None]
    centres = (weights.T @ A_neg) / np.maximum(weights.sum(axis=0), 1e-300)[:, None]
    for i in np.flatnonzero(minimal.sum(axis=1) > 1):
        options = np.flatnonzero(minimal[i])
        distances = np.abs(A_neg[i][None, :] - centres[options]).sum(axis=1)
        assignment[i] = options[np.argmin(distances)]
    return assignment


@pytest.mark.parametrize("seed", range(20))
def test_am_assignment_equals_the_one_by_one_tie_break(seed, monkeypatch):
    # blocks of a few negatives (several blocks per call), many ties, repeated clauses
    # (equal centres: the first clause wins) and fractional weights
    monkeypatch.setattr(importlib.import_module("rulelearn.learners.am"), "_TIE_BLOCK", 64)
    rng = np.random.default_rng(seed)
    n, d, R = int(rng.integers(5, 80)), int(rng.integers(2, 9)), int(rng.integers(2, 6))
    A_neg = np.ones((n, d + 1), dtype=np.float32)
    A_neg[:, :-1] = rng.random((n, d)) < rng.uniform(0.1, 0.9)
    W = rng.random((R, d + 1)) < 0.3
    W[-1] = W[0]
    w = rng.choice([1.0, 2.0, 0.5, 1 / 3], size=n)
    expected = _assign_one_by_one(A_neg, w, W)
    assert np.array_equal(assign_negatives(A_neg, w, W), expected)
    counts = np.column_stack([A_neg[:, np.flatnonzero(c)].sum(axis=1) for c in W])
    assert (counts.min(axis=1, keepdims=True) == counts).sum(axis=1).max() > 1  # ties met


@pytest.mark.parametrize("method", sorted(LEARNERS))
def test_disable_cost_is_paid_by_disabled_clauses(method):
    _, _, problem = random_problem(3, n=12, d=5)
    result = run_learner(method, ClauseSolver(problem, disable_cost=0.7), 0.3, max_rules=3)
    assert result.objective == pytest.approx(cnf_objective(problem, result.W, 0.3, 0.7))


@pytest.mark.parametrize("method", sorted(LEARNERS))
def test_a_misspelt_option_is_an_error_not_ignored(method):
    _, _, problem = random_problem(3, n=12, d=5)
    with pytest.raises(TypeError, match="max_ruels"):
        LEARNERS[method](ClauseSolver(problem), 0.3, max_ruels=3)
    with pytest.raises(TypeError, match="max_ruels"):
        run_learner(method, ClauseSolver(problem), 0.3, max_rules=3, max_ruels=3)


def test_each_learner_is_given_only_the_options_it_takes():
    assert LEARNER_OPTIONS == {"bcd": ("max_rules", "max_iter", "start", "polish", "perturb"),
                               "am": ("max_rules", "max_iter", "start", "polish", "perturb"),
                               "sc": ("max_rules",), "ocrl": (), "cg": ("max_rules",)}


class _NoCache(dict):
    def __setitem__(self, key, value):
        pass


@pytest.mark.parametrize("learn", [bcd, am])
@pytest.mark.parametrize("seed", range(4))
def test_answer_cache_changes_nothing_but_the_lp_count(learn, seed):
    _, _, problem = random_problem(seed, n=12, d=6)
    cached = ClauseSolver(problem)
    plain = ClauseSolver(problem)
    plain._cache = _NoCache()
    a = learn(cached, 0.2, max_rules=3)
    b = learn(plain, 0.2, max_rules=3)
    assert a.W.tolist() == b.W.tolist() and a.objective == b.objective
    assert cached.n_solves + cached.cache_hits == plain.n_solves


def one_hot_problem(seed, n=60, blocks=(3, 3, 4), complement=True):
    """One-hot blocks (every row has the same count of active features); complemented, as a
    DNF sees them."""
    rng = np.random.default_rng(seed)
    columns = [np.eye(k, dtype=int)[rng.integers(0, k, n)] for k in blocks]
    A = np.hstack(columns)
    A = 1 - A if complement else A
    y = rng.random(n) < 0.5
    y[:2] = [True, False]
    return CNFProblem.from_data(A, y)


def test_rounding_tries_the_disabled_clause_even_when_the_lp_never_touches_it():
    # Every negative holds two of the four features: a clause of them costs 2 per
    # negative, more than the 1 per negative of the disabled clause.
    A = np.array([[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0], [0, 1, 0, 1],
                  [1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 1]])
    y = np.array([True, True, True, True, False, False, False])
    problem = CNFProblem.from_data(A, y)
    w = np.array([0.5, 0.5, 0.5, 0.5, 0.0])  # an even fractional optimum; always-true at 0
    clause, value = round_best_threshold(problem, w, problem.w_neg, 0.01, 0.0)
    assert clause.tolist() == [False] * 4 + [True]
    assert value == pytest.approx(3.0)


def test_rounding_tries_the_best_single_feature(caplog):
    # Feature 2 alone covers every positive and no negative; the LP's w points elsewhere.
    A = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 1, 0]])
    y = np.array([True, True, False, False])
    problem = CNFProblem.from_data(A, y)
    caplog.set_level(logging.DEBUG, logger="rulelearn")
    clause, value = round_best_threshold(problem, np.array([0.9, 0.9, 0.0, 0.0]),
                                         problem.w_neg, 0.1, 0.0)
    assert clause.tolist() == [False, False, True, False]
    assert value == pytest.approx(0.1)
    assert caplog.records[-1].getMessage() == (
        "the single-feature clause (objective 0.1) beats the clause so far (2)")


@pytest.mark.parametrize("seed", [1, 11, 18, 24, 0])
@pytest.mark.parametrize("method", sorted(LEARNERS))
@pytest.mark.parametrize("theta", [0.0, 0.05, 1.0])
def test_no_learner_ends_above_the_trivial_rules_on_one_hot_data(seed, method, theta):
    problem = one_hot_problem(seed)
    R = 3
    disabled = np.array([disabled_clause(problem.n_features)] * R)
    empty = disabled.copy()
    empty[0] = False  # one clause that accepts nothing: the CNF is always false
    trivial = min(cnf_objective(problem, disabled, theta), cnf_objective(problem, empty, theta))
    result = run_learner(method, ClauseSolver(problem), theta, max_rules=R, max_iter=50)
    assert result.objective <= trivial + 1e-9
    assert result.objective == pytest.approx(cnf_objective(problem, result.W, theta))


@pytest.mark.parametrize("seed", range(8))
def test_capped_clause_objective_is_the_cnf_objective_up_to_a_constant(seed):
    _, _, problem = random_problem(seed, n=14, d=4)
    rng = np.random.default_rng(seed)
    W = rng.random((3, problem.n_features + 1)) < 0.4
    W[:, -1] = False
    others = np.column_stack([clause_counts(problem.A_neg, c) for c in W[1:]])
    cap = others.min(axis=1)
    weights = np.where(cap == 0, 0.0, problem.w_neg)
    gaps = []
    for clause in all_clauses(problem.n_features):
        trial = W.copy()
        trial[0] = clause
        gaps.append(cnf_objective(problem, trial, 0.3)
                    - clause_objective(problem, clause, weights, 0.3, 0.0, cap))
    assert np.ptp(gaps) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_set_cover_keeps_its_best_prefix(seed):
    problem = one_hot_problem(seed, n=40)
    solver = ClauseSolver(problem)
    result = set_cover(solver, 0.01, max_rules=4)
    # the clauses SC learned, in order, from a fresh solver
    remaining, clauses = problem.w_neg.copy(), []
    probe = ClauseSolver(problem)
    while len(clauses) < 4 and remaining.sum() > 0:
        fit = probe.fit(remaining, 0.01)
        rejects = clause_counts(problem.A_neg, fit.clause) == 0
        if fit.clause[-1] or not np.any(rejects & (remaining > 0)):
            break
        clauses.append(fit.clause)
        remaining = np.where(rejects, 0.0, remaining)
    for k in range(len(clauses) + 1):
        rows = clauses[:k] + [disabled_clause(problem.n_features)] * (4 - k)
        assert result.objective <= cnf_objective(problem, np.array(rows), 0.01) + 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_feature_major_counts_equal_the_column_sums(seed):
    """Counts over :attr:`CNFProblem.by_feature` (uint8 rows) equal the column sums of the
    sample-major matrices, also past 255 selected features (no uint8 overflow)."""
    rng = np.random.default_rng(seed)
    A = (rng.random((120, 400)) < 0.7).astype(int)
    problem = CNFProblem.from_data(A, rng.random(120) < 0.5)
    pos_by_feature, neg_by_feature = problem.by_feature
    assert pos_by_feature.dtype == np.uint8 and pos_by_feature.shape == problem.A_pos.T.shape
    for size in (0, 1, 7, 300, 401):
        clause = np.zeros(401, dtype=bool)
        clause[rng.choice(401, size, replace=False)] = True
        for A_side, by_feature in ((problem.A_pos, pos_by_feature),
                                   (problem.A_neg, neg_by_feature)):
            want = A_side[:, clause].sum(axis=1, dtype=np.float64)
            got = clause_counts(A_side, clause, by_feature)
            assert got.dtype == np.float64 and np.array_equal(got, want)
    assert clause_counts(problem.A_pos, clause, pos_by_feature).max() > 255


def test_learners_run_with_single_threaded_blas(monkeypatch):
    from threadpoolctl import threadpool_info

    seen = []

    def spy(solver, theta):
        seen.extend(pool["num_threads"] for pool in threadpool_info()
                    if pool["user_api"] == "blas")
        return ocrl(solver, theta)

    monkeypatch.setitem(LEARNERS, "spy", spy)
    monkeypatch.setitem(LEARNER_OPTIONS, "spy", ())
    _, _, problem = random_problem(0)
    run_learner("spy", ClauseSolver(problem), 0.5, max_rules=2)
    assert seen and set(seen) == {1}


# ------------------------------------------------------------- a clause LP on sampled rows

def test_sample_sizes_end_at_every_row():
    from rulelearn.learners.clause import sample_sizes

    assert sample_sizes(100, None) == (None,)
    assert sample_sizes(100, 40) == (40,)
    assert sample_sizes(100, (10, 20, 40, 80, 160)) == (10, 20, 40, 80, None)
    assert sample_sizes(100, (100, 200)) == (None,)
    with pytest.raises(ValueError):
        sample_sizes(100, (0,))


def test_sampled_positives_keep_the_total_weight_and_draw_rows_of_the_problem():
    from rulelearn.learners.clause import sampled_positives

    _, _, problem = random_problem(3, n=80, d=5, merge=False)
    sample = sampled_positives(problem, 7, seed=1)
    assert len(sample.w_pos) == 7
    assert sample.w_pos.sum() == pytest.approx(problem.w_pos.sum(), rel=1e-12)
    rows = {row.tobytes() for row in problem.A_pos}
    assert all(row.tobytes() in rows for row in sample.A_pos)
    assert sampled_positives(problem, len(problem.w_pos), seed=1) is problem


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("seed", range(4))
def test_a_sample_of_every_row_is_the_full_lp(method, seed):
    _, _, problem = random_problem(seed, n=40, d=6)
    n_pos = len(problem.w_pos)
    full = run_learner(method, ClauseSolver(problem), 0.3, max_rules=3, start="best")
    for lp_rows in (n_pos, (n_pos, 2 * n_pos), 10 * n_pos):
        solver = ClauseSolver(problem, lp_rows=lp_rows)
        assert solver.n_stages == 1 and solver.lp_problem is problem
        sampled = run_learner(method, solver, 0.3, max_rules=3, start="best")
        assert np.array_equal(sampled.W, full.W) and sampled.objective == full.objective


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("start", ["sc", "tree", "best"])
@pytest.mark.parametrize("seed", range(6))
def test_a_sampled_lp_never_ends_above_its_start_nor_the_trivial_rules(method, start, seed):
    A, y, problem = random_problem(seed, n=60, d=6, merge=False)
    solver = ClauseSolver(problem, lp_rows=(3, 6, 12))
    assert solver.n_stages == 3
    solver.start_rows = 20  # the tree start on a sample as well
    result = run_learner(method, solver, 0.2, max_rules=3, start=start)
    assert result.objective == pytest.approx(cnf_objective(problem, result.W, 0.2), abs=1e-9)
    assert result.objective == pytest.approx(direct_objective(A, y, result.W, 0.2), abs=1e-9)
    assert all(b <= a + 1e-9 for a, b in zip(result.history, result.history[1:]))
    if start == "sc":  # the SC rule of the same (first) sample
        first = ClauseSolver(problem, lp_rows=3)
        assert result.objective <= set_cover(first, 0.2, 3).objective + 1e-9
    if start != "tree":  # from SC (also in "best"): no higher than always true / false
        assert result.objective <= min(problem.w_neg.sum(), problem.w_pos.sum()) + 1e-9
    assert solver.stage == 0


@pytest.mark.parametrize("seed", range(6))
def test_unique_rows_equal_numpys_on_zero_one_and_other_values(seed):
    from rulelearn.learners.problem import unique_rows

    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 2, size=(200, 1 + seed * 3), dtype=np.uint8)
    rows = np.vstack([rows, rows[::3]])
    for matrix in (rows, rows * np.uint8(3)):  # packed bits, and np.unique for other values
        unique, inverse = unique_rows(matrix)
        expected, expected_inverse = np.unique(matrix, axis=0, return_inverse=True)
        assert np.array_equal(unique, expected)
        assert np.array_equal(inverse, expected_inverse.ravel())


def test_blocked_column_sums_equal_the_whole_product(monkeypatch):
    import rulelearn.learners.problem as problem_module
    from rulelearn.learners.rounding import single_feature_sums

    _, _, problem = random_problem(5, n=300, d=7, merge=False)
    weights = np.random.default_rng(0).integers(0, 4, len(problem.w_neg)).astype(float)
    whole = single_feature_sums(problem, weights)
    monkeypatch.setattr(problem_module, "_BLOCK_ROWS", 16)
    monkeypatch.setattr(problem_module, "BLOCK_ABOVE", 10)
    import rulelearn.learners.rounding as rounding_module
    monkeypatch.setattr(rounding_module, "BLOCK_ABOVE", 10)
    assert np.array_equal(single_feature_sums(problem, weights), whole)  # integer weights: exact
    assert np.array_equal(problem_module.weighted_column_sums(weights, problem.A_neg[:, :-1]),
                          whole)


def test_the_single_precision_sums_of_integer_weights_are_the_double_ones(monkeypatch):
    import rulelearn.learners.clause as clause_module
    from rulelearn.learners.rounding import single_feature_sums

    _, _, problem = random_problem(7, n=400, d=8, merge=False)
    weights = np.random.default_rng(1).integers(0, 5, len(problem.w_neg)).astype(float)
    expected = single_feature_sums(problem, weights)
    monkeypatch.setattr(clause_module, "BLOCK_ABOVE", 10)  # take the large-problem path
    solver = ClauseSolver(problem)
    assert np.array_equal(solver._negative_sums(weights)[1], expected)
    halves = weights + 0.5  # not integers: the double-precision sums
    assert np.array_equal(solver._negative_sums(halves)[1], single_feature_sums(problem, halves))
