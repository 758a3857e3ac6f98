"""The ladder master of rulelearn.certify: valid, at least as strong as G, and exact where the
relaxation is, against brute force over every rule and the ladder LP over every conjunction."""

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.optimize import linprog
from scipy.sparse import lil_matrix
from test_certify import TOL, _misses, brute_force, conjunctions, problems

from rulelearn import certify as cert
from rulelearn import colgen
from rulelearn.certify import lower_bound
from rulelearn.errors import ParameterError
from rulelearn.learners.cg import learn_cg

LADDER = settings(max_examples=40, deadline=None)


def ladder_lp(A, y, theta, R, levels, form="dnf", w=None, disabled=True):
    """The ladder LP over *every* conjunction, straight from its definition (scipy's HiGHS):
    per positive ``i`` and level ``t``: ξ_{i,t} + Σ_{k: d_k(i) < t} x_k (+ x_dis, t ≥ 2) ≥ 1;
    Σ x (+ x_dis) ≤ R; cost w_i per ξ, the covered negatives' weight + θ|S_k| per x_k, 0 per
    x_dis. ``disabled=False`` leaves x_dis out."""
    A, y = np.asarray(A, dtype=np.int64), np.asarray(y, dtype=bool)
    if form == "cnf":  # De Morgan
        A, y = 1 - A, ~y
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    P, wp, N, wn = A[y], w[y], A[~y], w[~y]
    conj = conjunctions(A.shape[1])
    cost = wn @ (_misses(N, conj) == 0) + theta * np.array([len(c) for c in conj], float)
    dist = _misses(P, conj)
    n, K = dist.shape
    xi = K + 1
    M = lil_matrix((n * levels + 1, xi + n * levels))
    for i in range(n):
        for t in range(1, levels + 1):
            r = i * levels + t - 1
            for k in np.flatnonzero(dist[i] < t):
                M[r, k] = -1
            if t >= 2 and disabled:
                M[r, K] = -1
            M[r, xi + r] = -1
    M[n * levels, :K + 1] = 1
    b = np.concatenate([-np.ones(n * levels), [R]])
    c = np.concatenate([cost, [0.0], np.repeat(wp, levels)])
    bounds = [(0, None)] * K + [(0, None if disabled else 0)] + [(0, None)] * (n * levels)
    res = linprog(c, A_ub=M.tocsr(), b_ub=b, bounds=bounds, method="highs")
    assert res.status == 0
    return float(res.fun)


# ---------------------------------------------------------------------------- validity
@LADDER
@given(problems())
def test_the_ladder_bound_is_below_the_optimum_and_above_g(problem):
    A, y, theta, R, form, w = problem
    optimum, _ = brute_force(A, y, theta, R, form, w)
    g = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, levels=1)
    ladder = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, levels=2)
    assert ladder.bound <= optimum + TOL
    assert ladder.levels == (1 if R is None or ladder.status == "trivial" else 2)
    if g.exact_pricing and ladder.exact_pricing:
        assert ladder.lp_value >= g.lp_value - TOL
        assert ladder.bound >= g.bound - TOL


@settings(max_examples=25, deadline=None)
@given(problems(max_d=4))
def test_column_generation_reaches_the_ladder_lp_over_every_conjunction(problem):
    """Exact pricing ends at the full LP's optimum, for 2 levels and for as many levels as
    literals (then every rule of R clauses is charged exactly its objective)."""
    A, y, theta, R, form, w = problem
    if R is None:
        R = 2
    for levels in (2, np.asarray(A).shape[1]):
        c = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, levels=levels)
        if c.status == "trivial":
            return
        assert c.exact_pricing
        assert c.lp_value == pytest.approx(ladder_lp(A, y, theta, R, levels, form, w), abs=TOL)


# ---------------------------------------------------------------------------- exact cases
# 6 rows, 3 literals, θ = 0.5, R = 1: every rule costs at least 2.5 (e.g. the term {0}:
# one covered negative, positive 0 misses one literal); G's LP stops at 2.0
CASE = (np.array([[0, 1, 1], [1, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 1], [0, 1, 0]]),
        np.array([1, 1, 0, 0, 1, 0], dtype=bool), 0.5, 1)


def test_the_ladder_certifies_the_optimum_where_g_cannot():
    A, y, theta, R = CASE
    assert brute_force(A, y, theta, R) == (2.5, 2.0)
    g = lower_bound(A, y, theta, max_rules=R, levels=1)
    ladder = lower_bound(A, y, theta, max_rules=R, levels=2)
    assert g.exact_pricing and g.lp_value == pytest.approx(2.0)
    assert ladder.exact_pricing and ladder.bound == pytest.approx(2.5)
    assert cert.rule_objective(A, y, [(0,)], theta, max_rules=R) == pytest.approx(2.5)


def test_without_the_disabled_clause_the_ladder_would_cut_off_rules_of_fewer_clauses():
    """Three positives lacking both literals, negatives with one each (weight 2): the best
    rule (R = 2) is the empty one at 3, every positive paying 1. Without x_dis the ladder's
    level-2 rows charge it 6 and its LP goes above 3: an invalid bound."""
    A = np.array([[0, 0]] * 3 + [[1, 0]] * 2 + [[0, 1]] * 2)
    y = np.array([1, 1, 1, 0, 0, 0, 0], dtype=bool)
    theta, R = 1.0, 2
    optimum, _ = brute_force(A, y, theta, R)
    assert optimum == pytest.approx(3.0)
    assert ladder_lp(A, y, theta, R, 2, disabled=False) > optimum + 0.5
    assert ladder_lp(A, y, theta, R, 2) == pytest.approx(optimum)
    c = lower_bound(A, y, theta, max_rules=R, levels=2)
    assert c.exact_pricing and c.bound == pytest.approx(optimum)


# ---------------------------------------------------------------------------- pricing
def _random_duals(data, levels, rng):
    mu = rng.random((levels, len(data.wp))) * data.wp * rng.choice([0.5, 2.0])
    return np.minimum(mu, data.wp), -float(rng.random()) * rng.choice([0.0, 1.0])


@settings(max_examples=25, deadline=None)
@given(problems(max_d=5))
def test_the_pricing_mip_with_levels_against_every_conjunction(problem):
    A, y, theta, _, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    if not len(data.wp) or not len(data.wn):
        return
    rng = np.random.default_rng(len(data.wp) * 31 + data.d)
    pricer = colgen._PricingMIP(data, levels=2)
    everything = conjunctions(data.d)
    for _ in range(3):
        mu, rho = _random_duals(data, 2, rng)
        rc = colgen.reduced_costs(data, everything, mu, rho)
        covering = [k for k, t in enumerate(everything) if data.covers(t, data.P).any()]
        result = pricer.price(mu, rho)
        # the MIP leaves out terms that cover no positive; the disabled column bounds them
        rc_disabled = 0.0 - float(mu[1:].sum()) - rho
        least = min(result.dual_bound, rc_disabled + min(theta, float(data.wn.sum())))
        assert min(0.0, least) <= rc.min() + TOL
        if result.optimal:
            assert rc.min() - TOL <= result.value <= rc[covering].min() + TOL
            assert result.value == pytest.approx(
                colgen.reduced_costs(data, [result.term], mu, rho)[0])


@settings(max_examples=25, deadline=None)
@given(problems(max_d=5))
def test_beam_and_master_reduced_costs_with_levels(problem):
    """Every column the beam proposes has a negative reduced cost, and the master's reduced
    costs are the function's (each counted from the ladder rows it covers)."""
    A, y, theta, R, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    if not len(data.wp) or not len(data.wn):
        return
    rng = np.random.default_rng(data.d)
    mu, rho = _random_duals(data, 3, rng)
    found = colgen.beam_columns(data, mu, rho)
    assert (colgen.reduced_costs(data, found, mu, rho) < 0).all()
    master = colgen._Master(data, 2, levels=3)
    master.add(conjunctions(data.d))
    assert np.allclose(master.reduced_costs(mu, rho),
                       colgen.reduced_costs(data, master.terms, mu, rho))
    best = colgen.reduced_costs(data, conjunctions(data.d), mu, rho).min()
    if best < -TOL and data.d <= 3:  # a beam of 20 holds every conjunction of 3 literals
        assert colgen.reduced_costs(data, found, mu, rho).min() == pytest.approx(best)


# ---------------------------------------------------------------------------- the fallback
@pytest.mark.parametrize("looser", [0.0, 3.0])
def test_an_early_stopped_ladder_pricing_keeps_the_bound_valid(monkeypatch, looser):
    """Pricing that stops at once with its (loosened) dual bound and no column: the bound is
    the Lagrangian/Farley one over every ladder row and the disabled column, and valid."""
    A, y, theta, R = CASE
    exact = colgen._PricingMIP(colgen._Data.build(A, y, theta, "dnf", None), levels=2)

    def stopped_early(mu, rho):
        result = exact.price(mu, rho)
        return colgen._PricingResult(None, np.inf, result.dual_bound - looser, False)

    monkeypatch.setattr(colgen, "beam_columns", lambda *args, **kwargs: [])
    c = lower_bound(A, y, theta, max_rules=R, levels=2, pricer=stopped_early)
    assert not c.exact_pricing and c.status == "pricing stalled"
    assert 0.0 < c.lp_bound <= 2.5 + TOL


def test_the_fallback_bound_with_the_disabled_column():
    # Lagrangian 10 − 1·3 − 0.5·2 beats Farley: α ≤ 0 / 0.5 = 0
    assert colgen._bound(10.0, -1.0, 3.0, 1.0, (0.0, -0.5, 2.0)) == pytest.approx(6.0)
    # Farley α = min(1/10, 1/3): 1 beats the Lagrangian 10 − 27 − 4
    assert colgen._bound(10.0, -9.0, 3.0, 1.0, (1.0, -2.0, 2.0)) == pytest.approx(1.0)
    assert colgen._bound(10.0, -9.0, 3.0, 1.0, (1.0, 0.0, 2.0)) == pytest.approx(1.0)
    assert colgen._bound(10.0, -9.0, 3.0, 1.0, (0.0, 1.0, 2.0)) == pytest.approx(1.0)
    assert colgen._bound(10.0, 0.5, 3.0, 1.0, (0.0, -0.5, 2.0)) == pytest.approx(9.0)
    assert colgen._bound(10.0, 0.5, 3.0, 1.0, (0.0, 0.5, 2.0)) == pytest.approx(10.0)


# ---------------------------------------------------------------------------- options
def test_levels_are_checked_and_the_learner_keeps_g():
    A, y, theta, R = CASE
    for bad in (0, 1.5, True):
        with pytest.raises(ParameterError, match="levels"):
            lower_bound(A, y, theta, max_rules=R, levels=bad)
    with pytest.raises(ParameterError, match="disable_cost"):
        lower_bound(A, y, theta, max_rules=R, disable_cost=-1.0)
    assert lower_bound(A, y, theta, max_rules=None).levels == 1  # no ladder without R
    assert learn_cg(A, y, theta, max_rules=R, exact_pricing=True).certificate.levels == 1


def test_the_disabled_column_pays_the_disable_cost():
    """With a cost per disabled clause the empty rule of the x_dis case costs 3 + 2·2 (two
    clauses left disabled) and the bound, still valid, rises with it."""
    A = np.array([[0, 0]] * 3 + [[1, 0]] * 2 + [[0, 1]] * 2)
    y = np.array([1, 1, 1, 0, 0, 0, 0], dtype=bool)
    free = lower_bound(A, y, 1.0, max_rules=2, levels=2)
    costly = lower_bound(A, y, 1.0, max_rules=2, levels=2, disable_cost=2.0)
    best = min(cert.rule_objective(A, y, terms, 1.0, max_rules=2, disable_cost=2.0)
               for terms in [(), ((0,),), ((0,), (1,)), ((),), ((0, 1),)])
    assert free.bound == pytest.approx(3.0)
    assert 3.0 < costly.bound <= best + TOL


@settings(max_examples=15, deadline=None)
@given(problems(max_d=5))
def test_the_ladder_is_never_below_g_under_the_same_limits(problem):
    """G's column generation runs first and its bound is the ladder's floor: with one node
    per pricing MIP and few master solves the ladder's pricing may stall, the bound not."""
    A, y, theta, R, form, w = problem
    limits = {"max_iterations": 4, "pricing_nodes": 1, "cut_rounds": 0}
    g = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, levels=1, **limits)
    ladder = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, **limits)
    assert g.lp_bound - TOL <= ladder.lp_bound
    assert ladder.iterations <= 4
