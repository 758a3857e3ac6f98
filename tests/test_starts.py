"""Where BCD and AM start: the set-covering rule, a tree's rule, or the better of both."""

import numpy as np
import pytest

from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners import am, bcd, set_cover
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem, cnf_objective, predict_cnf
from rulelearn.learners.starts import tree_start


def with_complements(B):
    """Each 0/1 column followed by its complement (as the binarizer writes x <= t, x > t)."""
    return np.column_stack([c for j in range(B.shape[1]) for c in (B[:, j], 1 - B[:, j])])


def planted_cnf(seed, n=200):
    rng = np.random.default_rng(seed)
    B = rng.integers(0, 2, size=(n, 5))
    y = (B[:, 0] | B[:, 1]).astype(bool) & B[:, 2].astype(bool)  # (b0 OR b1) AND b2
    return with_complements(B), y


@pytest.mark.parametrize("seed", range(4))
def test_a_tree_start_recovers_a_planted_cnf(seed):
    A, y = planted_cnf(seed)
    problem = CNFProblem.from_data(A, y)
    W = tree_start(problem, max_rules=3, theta=0.01, disable_cost=0.0)
    ext = np.hstack([A, np.ones((len(A), 1))])
    assert predict_cnf(ext, W).tolist() == y.tolist()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("learn", [bcd, am])
def test_the_best_start_is_the_lower_of_both_descents(seed, learn):
    rng = np.random.default_rng(seed)
    A = with_complements(rng.integers(0, 2, size=(60, 4)))
    y = rng.random(60) < 0.4
    problem = CNFProblem.from_data(A, y)
    results = {s: learn(ClauseSolver(problem), 0.2, max_rules=3, start=s)
               for s in ("sc", "tree", "best")}
    assert results["best"].objective == pytest.approx(
        min(results["sc"].objective, results["tree"].objective))
    assert results["best"].objective <= set_cover(ClauseSolver(problem), 0.2, 3).objective + 1e-9
    for result in results.values():
        assert result.objective == pytest.approx(cnf_objective(problem, result.W, 0.2))
        assert all(b <= a + 1e-9 for a, b in zip(result.history, result.history[1:]))


def test_the_estimator_checks_and_passes_its_start():
    X = np.random.default_rng(0).random((40, 3))
    y = X[:, 0] > 0.5
    with pytest.raises(ParameterError, match="'start' parameter"):
        BooleanRuleClassifier(start="random").fit(X, y)
    sc = BooleanRuleClassifier(theta=0.1).fit(X, y)
    best = BooleanRuleClassifier(theta=0.1, start="best").fit(X, y)
    assert best.fit_stats_["objective"] <= sc.fit_stats_["objective"] + 1e-9
