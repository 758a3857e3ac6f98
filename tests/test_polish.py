"""Polish: exact move scores against a brute-force neighbourhood, never worse, planted rules."""

import numpy as np
import pytest

from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.polish import apply_move, move_values, polish
from rulelearn.learners.problem import CNFProblem, cnf_objective


def neighbours(W):
    """Every rule one move away, written out plainly: disable a clause; add a literal to a
    clause without the always-true column; swap one literal (the always-true one included)
    for one the clause lacks; drop one literal of a clause of two or more. Disabled clauses
    are all alike, so only the first is enabled."""
    R, width = W.shape
    d = width - 1
    first_disabled = next((r for r in range(R) if set(np.flatnonzero(W[r])) == {d}), None)
    for r in range(R):
        held = set(np.flatnonzero(W[r]).tolist())
        if held == {d} and r != first_disabled:
            continue
        if held != {d}:
            trial = W.copy()
            trial[r] = False
            trial[r, d] = True
            yield trial
        for j in set(range(d)) - held:
            if not W[r, d]:
                trial = W.copy()
                trial[r, j] = True
                yield trial
            for k in held:
                trial = W.copy()
                trial[r, k], trial[r, j] = False, True
                yield trial
        for k in held if len(held) > 1 else ():
            trial = W.copy()
            trial[r, k] = False
            yield trial


def random_case(rng):
    """A small random problem (integer weights), rule, θ and disable cost."""
    while True:
        n, d, R = rng.integers(3, 12), rng.integers(1, 5), rng.integers(1, 4)
        A = rng.integers(0, 2, (n, d))
        y = rng.integers(0, 2, n).astype(bool)
        if y.any() and not y.all():
            break
    problem = CNFProblem.from_data(A, y, rng.integers(1, 4, n).astype(float))
    W = rng.random((R, d + 1)) < 0.4
    return problem, W, float(rng.choice([0.0, 0.3, 1.0, 2.5])), float(rng.choice([0.0, 0.5]))


def test_every_move_is_scored_exactly_as_the_objective_of_its_rule():
    rng = np.random.default_rng(0)
    for _ in range(150):
        problem, W, theta, disable_cost = random_case(rng)
        values, moves = move_values(problem, W, theta, disable_cost)
        rules = [apply_move(W, move) for move in moves]
        exact = [cnf_objective(problem, t, theta, disable_cost) for t in rules]
        np.testing.assert_allclose(values, exact, rtol=0, atol=1e-9)
        brute = sorted(cnf_objective(problem, t, theta, disable_cost) for t in neighbours(W))
        np.testing.assert_allclose(sorted(exact), brute, rtol=0, atol=1e-9)  # the same moves


def test_polish_ends_at_a_local_optimum_never_above_its_input():
    rng = np.random.default_rng(1)
    for _ in range(100):
        problem, W, theta, disable_cost = random_case(rng)
        start = cnf_objective(problem, W, theta, disable_cost)
        result = polish(problem, W, theta, disable_cost)
        assert result.objective == pytest.approx(
            cnf_objective(problem, result.W, theta, disable_cost), abs=1e-12)
        assert result.objective <= start + 1e-12
        assert all(cnf_objective(problem, t, theta, disable_cost) >= result.objective - 1e-9
                   for t in neighbours(result.W))
        assert result.history[0] == pytest.approx(start)
        assert np.all(np.diff(result.history) < -1e-9) and result.n_iter == len(result.history) - 1


def test_each_move_is_the_best_of_the_brute_force_neighbourhood():
    rng = np.random.default_rng(2)
    for _ in range(60):
        problem, W, theta, disable_cost = random_case(rng)
        best = min(cnf_objective(problem, t, theta, disable_cost) for t in neighbours(W))
        result = polish(problem, W, theta, disable_cost)
        if best < result.history[0] - 1e-9:
            assert result.history[1] == pytest.approx(best, abs=1e-9)
        else:
            assert result.n_iter == 0 and np.array_equal(result.W, W)  # ties keep the input


def planted():
    """Every 0/1 row of a, b, c, d; positive where (a OR b) AND c (a CNF)."""
    A = (np.arange(16)[:, None] >> np.arange(4)) & 1
    y = ((A[:, 0] | A[:, 1]) & A[:, 2]).astype(bool)
    return CNFProblem.from_data(A, y), A, y


def test_a_planted_rule_missing_one_literal_gets_it_back():
    problem, _, _ = planted()
    W = np.zeros((2, 5), dtype=bool)
    W[0, 0] = W[1, 2] = True  # a AND c: b is missing from the first clause
    result = polish(problem, W, theta=0.5)
    expected = W.copy()
    expected[0, 1] = True
    assert np.array_equal(result.W, expected) and result.n_iter == 1
    assert result.objective == pytest.approx(1.5)  # no errors, three literals


def test_a_wrong_literal_is_swapped_and_a_useless_clause_disabled():
    problem, _, _ = planted()
    W = np.zeros((3, 5), dtype=bool)
    W[0, [0, 1]] = True  # a OR b
    W[1, 3] = True  # d instead of c
    W[2, [0, 1, 2]] = True  # a OR b OR c: implied by the others, costs 3 literals
    result = polish(problem, W, theta=0.5)
    assert {tuple(np.flatnonzero(c)) for c in result.W} == {(0, 1), (2,), (4,)}
    assert result.objective == pytest.approx(1.5)


def test_an_optimal_rule_is_returned_unchanged():
    problem, _, _ = planted()
    W = np.zeros((2, 5), dtype=bool)
    W[0, [0, 1]] = True
    W[1, 2] = True
    result = polish(problem, W, theta=0.5)
    assert np.array_equal(result.W, W) and result.n_iter == 0 and result.history == [1.5]


def test_bcd_with_polish_is_never_above_bcd_without():
    rng = np.random.default_rng(3)
    for _ in range(4):
        A = rng.integers(0, 2, (60, 8))
        y = (A[:, 0] & A[:, 1]) | (A[:, 2] & ~A[:, 3] & 1) | (rng.random(60) < 0.1)
        problem = CNFProblem.from_data(A, y.astype(bool))
        for theta in (0.5, 2.0):
            plain = run_learner("bcd", ClauseSolver(problem), theta, max_rules=3)
            polished = run_learner("bcd", ClauseSolver(problem), theta, max_rules=3,
                                   polish=True)
            assert polished.objective <= plain.objective + 1e-9
            assert polished.objective == pytest.approx(
                cnf_objective(problem, polished.W, theta), abs=1e-9)


def test_the_estimator_polishes_dnf_rules_through_de_morgan():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, (80, 6))
    y = ((X[:, 0] & X[:, 1]) | X[:, 2]).astype(int)
    y[rng.random(80) < 0.1] ^= 1
    for form in ("dnf", "cnf"):
        plain = BooleanRuleClassifier(form=form, max_rules=3, theta=1.0, binarize=True,
                                      pos_label=1).fit(X, y)
        polished = BooleanRuleClassifier(form=form, max_rules=3, theta=1.0, binarize=True,
                                         pos_label=1, polish=True).fit(X, y)
        assert polished.fit_stats_["objective"] <= plain.fit_stats_["objective"] + 1e-9
        assert polished.fit_stats_["objective_history"][-1] == polished.fit_stats_["objective"]


def test_polish_must_be_a_bool():
    with pytest.raises(ParameterError, match="'polish' parameter .* must be one of "
                                             r"\{True, False\}. Got 'yes' instead"):
        BooleanRuleClassifier(polish="yes").fit([[0], [1]], [0, 1])
