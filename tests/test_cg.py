"""The column-generation learner's path: a re-costed master, the master MIP over a pool and
its incumbent, the reduced-cost filter, and cg along a θ path, against brute force."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_certify import TOL, brute_force, conjunctions, oracle_objective, problems

from rulelearn import colgen
from rulelearn.errors import ParameterError
from rulelearn.learners.cg import ColumnPath, cg, learn_cg
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem
from rulelearn.learners.sc import set_cover

SOME = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def best_over(data, pool, R):
    """The least relaxed objective G of a rule of at most R columns of ``pool`` (none: the
    empty rule), by enumeration."""
    best = colgen.relaxed_objective(data, ())
    for k in range(1, (len(pool) if R is None else R) + 1):
        for rule in itertools.combinations(pool, k):
            best = min(best, colgen.relaxed_objective(data, rule))
    return best


def two_sided(problem):
    A, y, theta, R, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    assume(len(data.wp) and len(data.wn))
    return data


@SOME
@given(problems(max_d=5), st.floats(0.05, 3.0), st.integers(0, 2**31 - 1))
def test_a_recosted_master_solves_as_a_fresh_one_at_its_theta(problem, other, seed):
    A, y, theta, R, form, w = problem
    data = two_sided(problem)
    rng = np.random.default_rng(seed)
    conj = conjunctions(data.d)
    columns = [conj[k] for k in rng.choice(len(conj), size=min(6, len(conj)), replace=False)]
    kept = colgen._Master(data, R)
    kept.add([()] + columns)
    kept.solve()
    kept.set_theta(other)
    value, _, mu, rho = kept.solve()
    fresh = colgen._Master(colgen._Data.build(A, y, other, form, w), R)
    fresh.add([()] + columns)
    assert value == pytest.approx(fresh.solve()[0], abs=1e-7)
    assert np.allclose(kept.reduced_costs(mu, rho),
                       colgen.reduced_costs(fresh.data, kept.terms, mu, rho), atol=1e-9)


@SOME
@given(problems(max_d=4), st.integers(0, 2**31 - 1), st.sampled_from([1, 100]))
def test_the_master_mip_is_the_best_rule_of_its_columns_never_worse_than_its_incumbent(
        problem, seed, nodes):
    A, y, theta, R, form, w = problem
    data = two_sided(problem)
    rng = np.random.default_rng(seed)
    conj = conjunctions(data.d)
    pool = [conj[k] for k in rng.choice(len(conj), size=min(7, len(conj)), replace=False)]
    incumbent = tuple(pool[: 1 if R is None else min(R, 2)])
    chosen = colgen.master_mip(A, y, theta, pool, form=form, max_rules=R, sample_weight=w,
                             node_limit=nodes, incumbent=incumbent)
    assert set(chosen) <= set(pool) and (R is None or len(chosen) <= R)
    value = colgen.relaxed_objective(data, chosen)
    assert value <= colgen.relaxed_objective(data, incumbent) + TOL
    if nodes == 100:  # these MIPs finish: the optimum over the pool
        assert value == pytest.approx(best_over(data, pool, R), abs=1e-6)


@SOME
@given(problems(max_d=4), st.integers(0, 2**31 - 1))
def test_the_reduced_cost_filter_keeps_every_column_a_better_rule_needs(problem, seed):
    """Columns whose reduced cost exceeds the incumbent's G less the LP value are in no rule
    better than the incumbent: the best rule over the kept columns and the incumbent is the
    best over all columns."""
    A, y, theta, R, form, w = problem
    two_sided(problem)
    R = R or 2
    rng = np.random.default_rng(seed)
    certificate, master, reduced = colgen._generate(A, y, theta, form=form, max_rules=R,
                                                  sample_weight=w, exact_pricing=False)
    pool = master.terms
    assume(1 <= len(pool) <= 14)
    incumbent = tuple(pool[k] for k in rng.choice(len(pool), size=min(R, 2, len(pool)),
                                                  replace=False))
    slack = colgen.relaxed_objective(master.data, incumbent) - certificate.lp_value
    kept = [t for t, rc in zip(pool, reduced) if rc <= slack + 1e-9]
    assert best_over(master.data, list(dict.fromkeys(kept + list(incumbent))), R) \
        == pytest.approx(best_over(master.data, pool, R), abs=1e-6)
    # why: every rule over the columns that uses column k has G >= the LP value + rc_k
    for k, column in enumerate(pool):
        others = [t for t in pool if t != column]
        with_k = min(colgen.relaxed_objective(master.data, (column,) + rest)
                     for size in range(R) for rest in itertools.combinations(others, size))
        assert with_k >= certificate.lp_value + reduced[k] - 1e-6


def cnf_view(problem):
    A, y, theta, R, form, w = problem
    return CNFProblem.from_data(A, y, w) if form == "cnf" else CNFProblem.from_data(1 - A, ~y, w)


@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_d=5))
def test_cg_along_a_theta_path_keeps_its_columns_and_every_rule_is_valid(problem):
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    R = R or 3
    thetas = [3.0, theta, 0.05]
    solver = ClauseSolver(cnf_view(problem))
    sizes = []
    for t in thetas:
        result = cg(solver, t, R)
        terms = [tuple(np.flatnonzero(c[:-1])) for c in result.W if not c[-1]]
        assert result.objective == pytest.approx(oracle_objective(A, y, terms, t, R, form, w),
                                                 abs=TOL)
        assert brute_force(A, y, t, R, form, w)[0] <= result.objective + TOL
        assert result.objective <= set_cover(solver, t, R).objective + TOL
        path = solver.starts[("cg columns", R)]
        sizes.append(0 if path.master is None else len(path.master.terms))
    assert sizes == sorted(sizes)  # no column is dropped along the path
    cold = ClauseSolver(cnf_view(problem), warm_across_theta=False)
    for t in thetas:  # off the path, each θ is learned from scratch
        assert np.array_equal(cg(cold, t, R).W, cg(ClauseSolver(cnf_view(problem)), t, R).W)
    assert ("cg columns", R) not in cold.starts


def test_a_path_serves_one_problem():
    A = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]], dtype=np.uint8)
    y = np.array([True, False, True, False])
    path = ColumnPath()
    learn_cg(A, y, 0.5, max_rules=2, path=path)
    assert path.master is not None and path.fits == 1
    with pytest.raises(ParameterError, match="one data set"):
        learn_cg(A, y, 0.5, max_rules=3, path=path)
