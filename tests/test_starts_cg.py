"""BCD and AM from the column-generation rule (start "cg"): never above CG's rule."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from test_certify import TOL, brute_force, oracle_objective, problems

from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners import am, bcd
from rulelearn.learners.cg import cg
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem, cnf_objective


def cnf_view(A, y, form="dnf", w=None):
    """The learners' CNF problem (a DNF by De Morgan, as the estimator maps it)."""
    return CNFProblem.from_data(A, y, w) if form == "cnf" else CNFProblem.from_data(1 - A, ~y, w)


def terms_of(W):
    return [tuple(np.flatnonzero(c[:-1])) for c in W if not c[-1]]


def fresh(problem):
    """A solver of its own (CG keeps a column path in its solver)."""
    return ClauseSolver(problem, warm_across_theta=False)


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_d=5))
def test_the_cg_start_is_never_above_cgs_rule_nor_below_the_optimum(problem):
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    R = R or 3
    view = cnf_view(A, y, form, w)
    rule = cg(fresh(view), theta, R)
    optimum = brute_force(A, y, theta, R, form, w)[0]
    for learn in (bcd, am):
        result = learn(fresh(view), theta, R, start="cg")
        assert result.history[0] == pytest.approx(rule.objective, abs=TOL)  # it starts there
        assert result.objective <= rule.objective + TOL
        assert result.objective == pytest.approx(cnf_objective(view, result.W, theta), abs=TOL)
        assert result.objective == pytest.approx(
            oracle_objective(A, y, terms_of(result.W), theta, R, form, w), abs=TOL)
        assert result.objective >= optimum - TOL
        assert all(b <= a + 1e-9 for a, b in zip(result.history, result.history[1:]))


def random_dnf_case(seed):
    """40 rows, 3 binary columns with their complements (6 literals), DNF at θ = 0.3, R = 2."""
    rng = np.random.default_rng(seed)
    B = rng.integers(0, 2, size=(40, 3))
    A = np.column_stack([c for j in range(3) for c in (B[:, j], 1 - B[:, j])]).astype(np.uint8)
    return A, rng.random(40) < 0.5


def test_the_descent_goes_below_cgs_rule_to_the_optimum():
    A, y = random_dnf_case(19)
    view = cnf_view(A, y)
    optimum = brute_force(A, y, 0.3, 2)[0]
    assert cg(fresh(view), 0.3, 2).objective == pytest.approx(15.9)
    assert optimum == pytest.approx(14.6)
    assert bcd(fresh(view), 0.3, 2, start="cg").objective == pytest.approx(optimum)


def test_the_cg_start_reaches_the_optimum_where_the_best_start_does_not():
    A, y = random_dnf_case(13)
    view = cnf_view(A, y)
    optimum = brute_force(A, y, 0.3, 2)[0]
    assert optimum == pytest.approx(15.2)
    assert bcd(fresh(view), 0.3, 2, start="best").objective == pytest.approx(16.3)
    assert bcd(fresh(view), 0.3, 2, start="cg").objective == pytest.approx(optimum)


def test_the_estimator_takes_the_cg_start():
    A, y = random_dnf_case(13)
    model = BooleanRuleClassifier(theta=0.3, max_rules=2, start="cg", binarize=True,
                                  pos_label=1).fit(A, y.astype(int))
    best = BooleanRuleClassifier(theta=0.3, max_rules=2, start="best", binarize=True,
                                 pos_label=1).fit(A, y.astype(int))
    assert model.fit_stats_["objective"] == pytest.approx(15.2)
    assert best.fit_stats_["objective"] == pytest.approx(16.3)


def test_a_clause_matrix_is_a_start_too():
    A, y = random_dnf_case(19)
    view = cnf_view(A, y)
    W = cg(fresh(view), 0.3, 2).W
    from_matrix = bcd(fresh(view), 0.3, 2, start=W)
    assert from_matrix.history[0] == pytest.approx(15.9)
    assert from_matrix.objective == pytest.approx(bcd(fresh(view), 0.3, 2, start="cg").objective)
    with pytest.raises(ParameterError, match=r"\(2, 7\) clause matrix"):
        bcd(fresh(view), 0.3, 2, start=W[:1])
