"""Certificates: the column-generation lower bound against brute force on tiny problems.

The oracle enumerates every conjunction over the literals and every rule of at most R of
them, and evaluates the objective straight from its definition (DNF and CNF each in its own
terms, no De Morgan); it is checked against the project's ``cnf_objective`` on random rules.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulelearn import certify as cert
from rulelearn import colgen
from rulelearn.certify import (
    Certificate,
    certify,
    gap,
    lower_bound,
    rule_objective,
)
from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners.cg import learn_cg

TOL = 1e-6


# ---------------------------------------------------------------------------- the oracle
def conjunctions(d):
    return [c for k in range(d + 1) for c in itertools.combinations(range(d), k)]


def _rows(A, y, w):
    A, y = np.asarray(A, dtype=np.int64), np.asarray(y, dtype=bool)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    return A[y], w[y], A[~y], w[~y]


def _misses(rows, terms):
    """(rows × terms): how many literals of each term a row lacks."""
    if not len(terms):
        return np.zeros((len(rows), 0), dtype=np.int64)
    mask = np.zeros((len(terms), rows.shape[1]), dtype=np.int64)
    for k, t in enumerate(terms):
        mask[k, list(t)] = 1
    return (1 - rows) @ mask.T


def _hits(rows, terms):
    """(rows × terms): how many literals of each clause a row has."""
    mask = np.zeros((len(terms), rows.shape[1]), dtype=np.int64)
    for k, t in enumerate(terms):
        mask[k, list(t)] = 1
    return rows @ mask.T


def brute_force(A, y, theta, R, form="dnf", w=None):
    """(least objective, least relaxed objective G) over rules of at most R clauses.

    DNF: a negative pays per term covering it, a positive the fewest literals it lacks in a
    term (at most 1 while a clause is left disabled), θ per literal. CNF: a positive pays per
    clause it fails, a negative the fewest selected literals it has in a clause (at most 1
    while a clause is left disabled). G: that "at most 1" always.
    """
    P, wp, N, wn = _rows(A, y, w)
    conj = conjunctions(np.asarray(A).shape[1])
    size = np.array([len(c) for c in conj], dtype=float)
    if form == "dnf":
        per_clause = wn @ (_misses(N, conj) == 0) + theta * size   # negatives: per covering term
        distance = _misses(P, conj)                                # positives: min over terms
        weights = wp
    else:
        per_clause = wp @ (_hits(P, conj) == 0) + theta * size     # positives: per failed clause
        distance = _hits(N, conj)                                  # negatives: min over clauses
        weights = wn
    best_f, best_g = float(weights.sum()), float(weights.sum())   # no clause: all pay 1
    sizes = range(1, len(conj) + 1) if R is None else range(1, R + 1)
    for k in sizes:
        combos = np.array(list(itertools.combinations(range(len(conj)), k)), dtype=np.int64)
        if not len(combos):
            break
        fixed = per_clause[combos].sum(axis=1)
        nearest = distance[:, combos].min(axis=2)                 # rows × combos
        g = fixed + weights @ np.minimum(nearest, 1)
        f = g if (R is None or k < R) else fixed + weights @ nearest
        best_f, best_g = min(best_f, float(f.min())), min(best_g, float(g.min()))
    return best_f, best_g


def oracle_objective(A, y, terms, theta, R, form="dnf", w=None):
    """The objective of one rule, by the oracle's definition."""
    P, wp, N, wn = _rows(A, y, w)
    terms = [tuple(t) for t in terms]
    cap = 1 if (R is None or len(terms) < R) else np.inf
    size = theta * sum(len(t) for t in terms)
    if not terms:
        return float((wp if form == "dnf" else wn).sum())
    if form == "dnf":
        return float(wn @ (_misses(N, terms) == 0).sum(axis=1)
                     + wp @ np.minimum(_misses(P, terms).min(axis=1), cap) + size)
    return float(wp @ (_hits(P, terms) == 0).sum(axis=1)
                 + wn @ np.minimum(_hits(N, terms).min(axis=1), cap) + size)


@st.composite
def problems(draw, max_d=6):
    R = draw(st.sampled_from([1, 2, 3, None]))
    d = draw(st.integers(2, 4 if R is None else (5 if R == 3 else max_d)))
    n = draw(st.integers(2, 40))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < draw(st.floats(0.2, 0.8))).astype(np.uint8)
    planted = rng.choice(d, size=min(2, d), replace=False)
    y = A[:, planted].all(axis=1) ^ (rng.random(n) < draw(st.floats(0.0, 0.4)))
    theta = draw(st.floats(0.05, 3.0))
    form = draw(st.sampled_from(["dnf", "cnf"]))
    w = rng.integers(1, 4, n).astype(float) if draw(st.booleans()) else None
    return A, y, theta, R, form, w


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------- the oracle itself
@settings(max_examples=40, deadline=None)
@given(problems(), st.data())
def test_the_oracle_agrees_with_the_projects_objective(problem, data):
    A, y, theta, R, form, w = problem
    conj = conjunctions(A.shape[1])
    k = data.draw(st.integers(0, 3 if R is None else R))
    terms = [conj[data.draw(st.integers(0, len(conj) - 1))] for _ in range(k)]
    ours = rule_objective(A, y, terms, theta, form=form, max_rules=R, sample_weight=w)
    assert ours == pytest.approx(oracle_objective(A, y, terms, theta, R, form, w), abs=TOL)


# ---------------------------------------------------------------------------- the bound
@FAST
@given(problems())
def test_bound_is_below_the_brute_force_optimum_and_tight_when_integral(problem):
    A, y, theta, R, form, w = problem
    best_f, best_g = brute_force(A, y, theta, R, form, w)
    c = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w)
    assert c.exact_pricing and c.status in ("optimal", "trivial")
    assert 0 <= c.bound <= best_g + TOL <= best_f + 2 * TOL
    assert c.lp_bound <= c.bound and c.lp_bound <= c.lp_value + TOL
    if c.status != "trivial" and c.integral:
        # the LP optimum is a rule: the bound is the least relaxed objective, and the least
        # objective unless that rule uses every clause (where a positive may pay more than 1)
        assert c.bound == pytest.approx(best_g, abs=TOL)
        rule = oracle_objective(A, y, c.terms, theta, R, form, w)
        assert rule >= best_f - TOL
        if R is None or len(c.terms) < R:
            assert c.bound == pytest.approx(best_f, abs=TOL)
            assert rule == pytest.approx(best_f, abs=TOL)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_d=5))
def test_every_method_is_above_the_optimum_which_is_above_the_bound(problem):
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    R_fit = R or 3
    best_f, _ = brute_force(A, y, theta, R_fit, form, w)
    best_1, _ = brute_force(A, y, theta, 1, form, w)
    bound = lower_bound(A, y, theta, form=form, max_rules=R_fit, sample_weight=w).bound
    assert bound <= best_f + TOL
    frame = pd.DataFrame(A, columns=[f"c{j}" for j in range(A.shape[1])])
    for method in ("bcd", "am", "sc", "ocrl"):
        model = BooleanRuleClassifier(method=method, form=form, max_rules=R_fit, theta=theta,
                                      binarize=True, pos_label=1, max_iter=20)
        model.fit(frame, y.astype(int), sample_weight=w)
        terms = [tuple(int(lit.feature[1:]) for lit in clause.literals)
                 for clause in model.rule_.clauses]
        rules = 1 if method == "ocrl" else R_fit
        value = oracle_objective(A, y, terms, theta, rules, form, w)
        assert value == pytest.approx(model.fit_stats_["objective"], abs=TOL)
        assert value >= (best_1 if method == "ocrl" else best_f) - TOL


def test_a_known_gap_case_bcd_above_the_optimum_is_certified():
    """A 40-row case of the issue's kind (4 columns, θ = 0.3, R = 2): the bound is below the
    exhaustive optimum and the optimum below BCD's objective."""
    rng = np.random.default_rng(3)
    A = rng.integers(0, 2, (40, 4)).astype(np.uint8)
    y = (A[:, 0] & A[:, 1]).astype(bool) | (rng.random(40) < 0.3)
    best_f, best_g = brute_force(A, y, 0.3, 2)
    c = lower_bound(A, y, 0.3, max_rules=2)
    assert c.exact_pricing and c.bound == pytest.approx(best_g) and c.bound <= best_f
    model = BooleanRuleClassifier(max_rules=2, theta=0.3, binarize=True, pos_label=1)
    model.fit(pd.DataFrame(A, columns=list("abcd")), y.astype(int))
    assert model.fit_stats_["objective"] >= best_f - TOL


# ---------------------------------------------------------------------------- early stops
def _needs_two_literals():
    """Positives are exactly the rows with literals 0 and 1: the optimum needs the term
    {0, 1}, which neither the empty term nor a single literal can replace."""
    rng = np.random.default_rng(7)
    A = rng.integers(0, 2, (40, 5)).astype(np.uint8)
    y = (A[:, 0] & A[:, 1]).astype(bool)
    return A, y, 0.2, 2


@pytest.mark.parametrize("looser", [0.0, 3.0, 100.0])
def test_an_early_stopped_pricing_keeps_the_bound_valid(monkeypatch, looser):
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    exact = colgen._PricingMIP(colgen._Data.build(A, y, theta, "dnf", None))
    calls = []

    def stopped_early(mu, rho):
        # what a MIP stopped by its node limit reports: no column, a (looser) dual bound
        result = exact.price(mu, rho)
        calls.append(result)
        assert result.value < -1e-6  # an improving column exists
        return colgen._PricingResult(None, np.inf, result.dual_bound - looser, False)

    monkeypatch.setattr(colgen, "beam_columns", lambda *args, **kwargs: [])
    c = lower_bound(A, y, theta, max_rules=R, pricer=stopped_early)
    assert len(calls) == 1 and not c.exact_pricing and c.status == "pricing stalled"
    # the restricted master (empty term and single literals) is no bound ...
    assert c.lp_value > best_f + 0.1
    # ... but the Lagrangian / Farley bound from the pricing's dual bound is
    assert 0 < c.bound <= best_f + TOL
    full = lower_bound(A, y, theta, max_rules=R)
    assert full.exact_pricing and c.bound <= full.bound + TOL


def test_a_non_optimal_column_with_a_loose_dual_bound(monkeypatch):
    """The pricer returns an improving but not the best column, and a dual bound below the
    true least reduced cost, once; then it is exact. The bound is valid at every step."""
    A, y, theta, R = _needs_two_literals()
    best_f, best_g = brute_force(A, y, theta, R)
    exact = colgen._PricingMIP(colgen._Data.build(A, y, theta, "dnf", None))
    seen = []

    def pricer(mu, rho):
        result = exact.price(mu, rho)
        if not seen:
            seen.append(result)
            return colgen._PricingResult((0, 1, 2), float(colgen.reduced_costs(
                exact.data, [(0, 1, 2)], mu, rho)[0]), result.dual_bound - 10, False)
        return result

    monkeypatch.setattr(colgen, "beam_columns", lambda *args, **kwargs: [])
    c = lower_bound(A, y, theta, max_rules=R, pricer=pricer)
    assert c.exact_pricing and c.bound == pytest.approx(best_g, abs=TOL) and c.bound <= best_f


def test_a_tiny_time_limit_still_gives_a_valid_bound():
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    c = lower_bound(A, y, theta, max_rules=R, time_limit=0.0)
    assert c.status == "time limit" and c.iterations == 1
    assert 0 <= c.bound <= best_f + TOL


@pytest.mark.parametrize("limits", [{"max_iterations": 1}, {"pricing_nodes": 1},
                                    {"max_iterations": 1, "pricing_nodes": 1}])
def test_count_limits_stop_with_a_valid_bound(limits):
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    c = lower_bound(A, y, theta, max_rules=R, **limits)
    assert 0 <= c.bound <= best_f + TOL
    if limits.get("max_iterations") == 1:
        assert c.iterations == 1 and c.status in ("iteration limit", "optimal")


def test_limits_must_be_positive_counts():
    A, y, theta, R = _needs_two_literals()
    for bad in ({"max_iterations": 0}, {"pricing_nodes": 1.5}, {"max_columns": True}):
        with pytest.raises(ParameterError, match=next(iter(bad))):
            lower_bound(A, y, theta, max_rules=R, **bad)


def test_the_result_does_not_depend_on_the_clock(monkeypatch):
    """No wall-clock limit by default: a clock that jumps an hour per reading changes
    neither the bound nor the learned rule."""
    rng = np.random.default_rng(5)
    A = rng.integers(0, 2, (60, 8)).astype(np.uint8)
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & A[:, 3])).astype(bool) ^ (rng.random(60) < 0.15)
    before = (lower_bound(A, y, 0.5, max_rules=3), learn_cg(A, y, 0.5, max_rules=3))
    ticks = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(cert.time, "perf_counter", lambda: float(next(ticks)))
    after = (lower_bound(A, y, 0.5, max_rules=3), learn_cg(A, y, 0.5, max_rules=3))
    assert after[0].bound == before[0].bound and after[0].columns == before[0].columns
    assert after[1].terms == before[1].terms and after[1].objective == before[1].objective


def test_the_column_limit_stops_with_a_valid_bound():
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    c = lower_bound(A, y, theta, max_rules=R, max_columns=3)
    assert 0 <= c.bound <= best_f + TOL


# ---------------------------------------------------------------------------- API
def test_the_bound_from_duals_and_a_reduced_cost_bound():
    assert colgen._bound(10.0, 0.5, 3.0, 1.0) == 10.0  # dual feasible
    assert colgen._bound(10.0, -1.0, 3.0, 1.0) == 7.0  # Lagrangian 10 - 3 > Farley 10 / 2
    assert colgen._bound(10.0, -9.0, 3.0, 1.0) == pytest.approx(1.0)  # Farley 10 / 10
    assert colgen._bound(10.0, -np.inf, 3.0, 1.0) == 0.0


def _lattice_by_enumeration(bound, theta, wp, wn):
    """The least of every a + θ b (a, b ≥ 0 integers, b ≥ 1), W+ and k W- (k ≥ 1) that is
    not below ``bound`` less the tolerance."""
    target = bound - 1e-6 * max(1.0, bound)
    values = [wp] + [k * wn for k in range(1, int(target / wn) + 3)]
    values += [a + theta * b for b in range(1, int(target / theta) + 3)
               for a in range(0, int(target) + 2)]
    return max(bound, min(v for v in values if v >= target))


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 30.0), st.floats(0.05, 10.0), st.integers(1, 40), st.integers(1, 40))
def test_rounding_up_to_an_objective_value_matches_enumeration(bound, theta, wp, wn):
    assume(bound > 0)
    rounded = colgen.round_up_to_objective(bound, theta, wp, wn)
    assert rounded == pytest.approx(_lattice_by_enumeration(bound, theta, wp, wn), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(problems(), st.data())
def test_every_rules_objective_is_a_value_the_rounding_keeps(problem, data):
    """With integer weights a rule's objective is a value the rounding leaves as it is, so
    rounding a bound up never passes the optimum (the rounding is monotone)."""
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    conj = conjunctions(A.shape[1])
    k = data.draw(st.integers(0, 3 if R is None else R))
    terms = [conj[data.draw(st.integers(0, len(conj) - 1))] for _ in range(k)]
    value = oracle_objective(A, y, terms, theta, R, form, w)
    d = colgen._Data.build(A, y, theta, form, w)
    wp, wn = float(d.wp.sum()), float(d.wn.sum())
    assert colgen.round_up_to_objective(value, theta, wp, wn) == pytest.approx(value, abs=1e-9)
    below = data.draw(st.floats(0.0, value))
    assert colgen.round_up_to_objective(below, theta, wp, wn) <= value + 1e-9


def test_rounding_examples():
    # Pima's bench bound at θ = 7.67064: 84.46 -> 7.67064 + 77 (b = 1)
    assert colgen.round_up_to_objective(84.46, 7.67064, 178, 334) == pytest.approx(84.67064)
    # θ = 50: below 50 only the empty rules: W+ = 30 (no term) or k W- (k = 1: 40)
    assert colgen.round_up_to_objective(31.0, 50.0, 30, 40) == 40.0
    assert colgen.round_up_to_objective(29.0, 50.0, 30, 40) == 30.0
    assert colgen.round_up_to_objective(41.0, 50.0, 30, 40) == 50.0  # one literal, no loss
    # within the tolerance, a value on the lattice stays
    assert colgen.round_up_to_objective(3.0000000001, 0.5, 10, 10) == pytest.approx(3.0)
    # θ tiny: too many literal counts to try, the bound is kept
    assert colgen.round_up_to_objective(300.5, 1e-5, 1000, 1000) == 300.5


def test_the_bound_is_not_rounded_with_fractional_weights():
    A, y, theta, R = _needs_two_literals()
    w = np.full(len(y), 1.5)
    c = lower_bound(A, y, 7.0, max_rules=R, sample_weight=w)
    assert c.bound == c.lp_bound
    whole = lower_bound(A, y, 7.0, max_rules=R, sample_weight=np.full(len(y), 2.0))
    assert whole.bound >= whole.lp_bound


def test_gap_and_trivial_cases():
    assert gap(10.0, 8.0) == pytest.approx(0.2)
    assert gap(0.0, 0.0) == 0.0 and gap(5.0, 6.0) == 0.0
    A = np.array([[1, 0], [0, 1]])
    c = lower_bound(A, [True, True], 1.0)
    assert isinstance(c, Certificate) and c.bound == 0.0 and c.status == "trivial"
    with pytest.raises(ParameterError):
        lower_bound(A, [True, False], 1.0, form="xnf")
    with pytest.raises(ParameterError):
        lower_bound(A, [True, False], 0.0)
    with pytest.raises(ParameterError):
        lower_bound(A * 2, [True, False], 1.0)


def test_identical_rows_merge_into_weights():
    rng = np.random.default_rng(1)
    A = rng.integers(0, 2, (12, 4)).astype(np.uint8)
    y = rng.random(12) < 0.5
    twice = lower_bound(np.vstack([A, A]), np.concatenate([y, y]), 0.5, max_rules=2).bound
    weighted = lower_bound(A, y, 0.5, max_rules=2, sample_weight=np.full(12, 2.0)).bound
    assert twice == pytest.approx(weighted, abs=TOL)


@pytest.mark.parametrize("form, method, weighted", [("dnf", "bcd", False), ("cnf", "bcd", False),
                                                    ("dnf", "ocrl", True), ("cnf", "am", True)])
def test_certify_a_fitted_classifier_on_binarized_data(form, method, weighted):
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60),
                      "c": rng.choice(["x", "y", "z"], 60)})
    y = np.where((X["a"] > 0.2) & (X["c"] != "z") | (rng.random(60) < 0.1), "yes", "no")
    w = rng.integers(0, 3, 60).astype(float) if weighted else None
    model = BooleanRuleClassifier(method=method, form=form, max_rules=3, theta=1.0,
                                  n_thresholds=3, pos_label="yes").fit(X, y, sample_weight=w)
    result = certify(model, X, y, sample_weight=w)
    assert result.objective == pytest.approx(result.fit_objective, abs=TOL)
    assert result.certificate.exact_pricing
    assert 0 <= result.bound <= result.objective + TOL
    assert result.gap == pytest.approx(gap(result.objective, result.bound))


# ---------------------------------------------------------------------------- the CG learner
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_d=5))
def test_the_cg_learner_is_between_the_bound_and_set_covering(problem):
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    R = R or 3
    frame = pd.DataFrame(A, columns=[f"c{j}" for j in range(A.shape[1])])
    sc = BooleanRuleClassifier(method="sc", form=form, max_rules=R, theta=theta, binarize=True,
                               pos_label=1).fit(frame, y.astype(int), sample_weight=w)
    seed = [tuple(int(lit.feature[1:]) for lit in c.literals) for c in sc.rule_.clauses]
    learned = learn_cg(A, y, theta, form=form, max_rules=R, sample_weight=w, seed_terms=seed,
                       exact_pricing=True)
    best_f, _ = brute_force(A, y, theta, R, form, w)
    assert len(learned.terms) <= R
    assert learned.objective == pytest.approx(
        oracle_objective(A, y, learned.terms, theta, R, form, w), abs=TOL)
    assert learned.certificate.bound - TOL <= best_f <= learned.objective + TOL
    assert learned.objective <= sc.fit_stats_["objective"] + TOL
    rule = learned.rule(sc.literals_, form)
    assert rule.n_clauses == len(learned.terms)


# ---------------------------------------------------------------------------- the pricing MIP
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 2**31 - 1))
def test_the_pricing_mip_finds_the_least_reduced_cost(problem, seed):
    """Against every conjunction, for several random duals on one model: the cuts it keeps
    from one call to the next never cut off a better conjunction."""
    A, y, theta, R, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    assume(len(data.wp) and len(data.wn))
    rng = np.random.default_rng(seed)
    pricer = colgen._PricingMIP(data)
    everything = conjunctions(data.d)
    for _ in range(3):
        mu = data.wp * rng.random(len(data.wp)) * rng.choice([0.5, 1.0, 3.0])
        mu = np.minimum(mu, data.wp)
        rho = -rng.random() if R else 0.0
        least = colgen.reduced_costs(data, everything, mu, rho).min()
        result = pricer.price(mu, rho)
        assert result.optimal
        # conjunctions with a redundant literal or covering no positive are left out of the
        # MIP: they never have the least reduced cost when that is negative
        assert min(0.0, result.dual_bound) <= least + TOL
        if least < -1e-5:
            assert result.value == pytest.approx(least, abs=1e-5)
        else:
            assert result.value >= -1e-5


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_d=5))
def test_the_cg_learner_on_the_learners_interface(problem):
    """What the estimator would run for method="cg": the CNF view, at most R clause rows."""
    from rulelearn.learners.cg import cg
    from rulelearn.learners.clause import ClauseSolver
    from rulelearn.learners.problem import CNFProblem
    from rulelearn.learners.sc import set_cover

    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    R = R or 3
    view = CNFProblem.from_data(A, y, w) if form == "cnf" else CNFProblem.from_data(1 - A, ~y, w)
    solver = ClauseSolver(view)
    result = cg(solver, theta, R)
    assert result.W.shape == (R, A.shape[1] + 1)
    terms = [tuple(np.flatnonzero(c[:-1])) for c in result.W if not c[-1]]
    assert result.objective == pytest.approx(oracle_objective(A, y, terms, theta, R, form, w),
                                             abs=TOL)
    best_f, _ = brute_force(A, y, theta, R, form, w)
    assert best_f <= result.objective + TOL
    assert result.objective <= set_cover(solver, theta, R).objective + TOL


def test_conflicting_literals_on_a_threshold_chain():
    x = np.arange(8)
    A = np.column_stack([x <= 2, x <= 5, x > 2, x > 5, x <= 5]).astype(np.uint8)
    y = np.array([0, 1, 1, 1, 0, 0, 1, 0], dtype=bool)
    data = colgen._Data.build(A, y, 1.0, "dnf", None)
    pairs = set(colgen.literal_conflicts(data))
    # x <= 2 implies x <= 5 (twice); x > 5 implies x > 2; the duplicate columns 1 and 4;
    # x <= 2 and x > 2 (also x <= 5 and x > 5) share no row, so no positive
    assert {(0, 1), (0, 4), (2, 3), (1, 4), (0, 2), (1, 3), (3, 4), (0, 3)} <= pairs
    assert (1, 2) not in pairs and (2, 4) not in pairs  # 2 < x <= 5 holds on rows 3, 4, 5
    assert any(set(c) >= {0, 1, 4} for c in colgen.conflict_cliques(data))


def test_cut_computations_in_small_blocks_give_the_same_bound(monkeypatch):
    rng = np.random.default_rng(11)
    A = rng.integers(0, 2, (40, 5)).astype(np.uint8)
    y = (A[:, 0] & A[:, 1]).astype(bool) ^ (rng.random(40) < 0.2)
    whole = lower_bound(A, y, 0.4, max_rules=3)
    monkeypatch.setattr(colgen, "_BLOCK_CELLS", 1)  # one negative per block
    blocks = lower_bound(A, y, 0.4, max_rules=3)
    assert blocks.exact_pricing and blocks.bound == pytest.approx(whole.bound, abs=TOL)


# ---------------------------------------------------------------------------- the beam search
def _beam_every_child(data, mu, rho, width=20, depth=8, keep=20, bound_weights=(0.0, 0.5)):
    """The beam search as specified, each child computed on its own: the ``keep`` children
    of least reduced cost of all levels; each level grows from the ``width`` distinct
    children of least score, for each weight, that an extension could still bring below 0
    (ties: parent, then literal order)."""
    P, N = data.P.astype(bool), data.N.astype(bool)
    beam = [()]
    found = {}
    empty_rc = float(data.wn.sum()) - float(mu.sum()) - rho
    if empty_rc < -1e-9:
        found[()] = empty_rc
    for size in range(1, min(depth, data.d) + 1):
        children = []  # (child, rc, below) in parent, then literal order
        for term in beam:
            for j in range(data.d):
                if j in term:
                    continue
                child = tuple(sorted(term + (j,)))
                cov_p, cov_n = P[:, list(child)].all(axis=1), N[:, list(child)].all(axis=1)
                children.append((child, data.theta * size + data.wn @ cov_n - mu @ cov_p - rho,
                                 data.theta * (size + 1) - mu @ cov_p - rho))
        level = {}
        for child, rc, _ in sorted((c for c in children if c[1] < -1e-9), key=lambda c: c[1]):
            level.setdefault(child, rc)
        found.update(list(level.items())[:keep])
        grow = {}
        for b in bound_weights:
            ranked = sorted((c for c in children if c[2] < -1e-9),
                            key=lambda c: (1 - b) * c[1] + b * c[2])
            for child in list(dict.fromkeys(c[0] for c in ranked))[:width]:
                grow.setdefault(child)
        beam = list(grow)
        if not beam:
            break
    return [t for t, _ in sorted(found.items(), key=lambda item: item[1])[:keep]]


def _duals(data, R, rng):
    """Duals in multiples of 1/8: every sum is exact, so equal reduced costs are equal however
    they are summed, and ties break by the order alone."""
    mu = np.minimum(data.wp * rng.random(len(data.wp)) * rng.choice([0.3, 1.0, 3.0]), data.wp)
    return np.floor(mu * 8) / 8, (-np.ceil(rng.random() * 8) / 8 if R else 0.0)


@settings(max_examples=40, deadline=None)
@given(problems(), st.integers(0, 2**31 - 1), st.sampled_from([(2, 1), (3, 4), (4, 6), (20, 20)]))
def test_the_beam_looks_at_fewer_children_without_changing_its_columns(problem, seed, sizes):
    A, y, theta, R, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    assume(len(data.wp) and len(data.wn))
    mu, rho = _duals(data, R, np.random.default_rng(seed))
    width, keep = sizes
    assert colgen.beam_columns(data, mu, rho, width=width, keep=keep) == \
        _beam_every_child(data, mu, rho, width=width, keep=keep)


@pytest.mark.parametrize("seed", range(6))
def test_the_beam_looks_at_fewer_children_without_changing_its_columns_on_wider_data(seed):
    rng = np.random.default_rng(seed)
    A = (rng.random((80, 30)) < 0.6).astype(np.uint8)
    y = A[:, :3].all(axis=1) ^ (rng.random(80) < 0.2)
    data = colgen._Data.build(A, y, 1.0, "dnf", None)
    mu = np.floor(np.minimum(data.wp * rng.random(len(data.wp)) * 2, data.wp) * 8) / 8
    for width, keep in ((3, 5), (5, 12), (20, 20)):
        assert colgen.beam_columns(data, mu, 0.0, width=width, keep=keep) == \
            _beam_every_child(data, mu, 0.0, width=width, keep=keep)


@FAST
@given(problems(max_d=5), st.integers(0, 2**31 - 1))
def test_a_beam_as_wide_as_every_level_finds_the_least_reduced_cost(problem, seed):
    """Brute force over every conjunction: each column the beam returns has the reduced cost
    it was ranked by, below 0; with room for every term of a level the first is the least."""
    A, y, theta, R, form, w = problem
    data = colgen._Data.build(A, y, theta, form, w)
    assume(len(data.wp) and len(data.wn))
    mu, rho = _duals(data, R, np.random.default_rng(seed))
    conj = conjunctions(data.d)
    every = colgen.reduced_costs(data, conj, mu, rho)
    found = colgen.beam_columns(data, mu, rho, width=len(conj), keep=len(conj))
    rc = colgen.reduced_costs(data, found, mu, rho) if found else np.zeros(0)
    assert (rc < 0).all() and (np.diff(rc) >= -1e-12).all()
    assert sorted(found) == sorted(c for c, v in zip(conj, every) if v < -1e-9)
    if every.min() < -1e-9:
        assert rc[0] == pytest.approx(every.min(), abs=1e-9)


def _decoys():
    """DNF, θ = 0.5, every positive's dual its weight: literals 0 and 1 each cover the four
    positives p and three negatives (reduced cost −0.5), together only the p (−3, the least
    of all); the decoys 2, 3, 4 each cover two other positives (−1.5); four negatives have no
    literal (the empty term: 0)."""
    p = [[1, 1, 0, 0, 0]] * 4
    q = [[0, 0, 1, 0, 0]] * 2 + [[0, 0, 0, 1, 0]] * 2 + [[0, 0, 0, 0, 1]] * 2
    n = [[1, 0, 0, 0, 0]] * 3 + [[0, 1, 0, 0, 0]] * 3 + [[0, 0, 0, 0, 0]] * 4
    A = np.array(p + q + n, dtype=np.uint8)
    y = np.array([True] * 10 + [False] * 10)
    data = colgen._Data.build(A, y, 0.5, "dnf", None)  # equal rows merge into one, weighted
    return A, y, data, data.wp.copy()


def test_the_beam_grows_a_term_whose_literals_each_cover_many_negatives():
    """Ranked by reduced cost alone, a beam of 2 grows two decoys and never prices {0, 1}
    (as a beam of 20 never priced Transfusion's optimal three-literal column); ranked also by
    the mean of the reduced cost and its extensions' bound, it grows 0 and 1."""
    A, y, data, mu = _decoys()
    conj = conjunctions(data.d)
    every = colgen.reduced_costs(data, conj, mu, 0.0)
    assert conj[int(np.argmin(every))] == (0, 1) and every.min() == pytest.approx(-3.0)
    assert colgen.beam_columns(data, mu, 0.0, width=2)[0] == (0, 1)
    assert (0, 1) not in colgen.beam_columns(data, mu, 0.0, width=2, bound_weights=(0.0,))


# ---------------------------------------------------------------------------- the exact search
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_pricing_by_the_search_reaches_the_mip_pricings_lp_bound(problem):
    A, y, theta, R, form, w = problem
    assume(R is not None)
    by_mip = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w)
    by_search = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w,
                            pricing="search")
    assert by_search.exact_pricing and by_search.pricing == "search"
    if by_mip.exact_pricing:
        assert by_search.lp_bound == pytest.approx(by_mip.lp_bound, abs=1e-6)
    best_f, _ = brute_force(A, y, theta, R, form, w)
    assert by_search.bound <= best_f + TOL


def _lp_gap_case():
    """A 30-row case (6 literals, R = 2, θ 0.2495) whose ladder LP (levels 2) is below the
    brute-force optimum (found by a scan of seeds)."""
    rng = np.random.default_rng(42)
    A = (rng.random((30, 6)) < 0.5).astype(np.uint8)
    y = rng.random(30) < 0.5
    return A, y, 0.2495, 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([None, "exact"]), st.sampled_from(["mip", "search"]))
def test_the_closure_is_between_the_lp_bound_and_the_optimum(problem, levels, pricing):
    A, y, theta, R, form, w = problem
    assume(R is not None)
    best_f, _ = brute_force(A, y, theta, R, form, w)
    lp = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, pricing=pricing)
    closed = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w,
                         pricing=pricing, closure=True, closure_levels=levels)
    assert lp.bound - TOL <= closed.bound <= best_f + TOL
    assert closed.kind == ("closure" if closed.bound > lp.bound else "lp")
    if closed.closure_status == "optimal" and closed.closure_terms:
        rule = rule_objective(A, y, closed.closure_terms, theta, form=form, max_rules=R,
                              sample_weight=w)
        # a finished MIP with every literal a term misses charged: the optimum, unless
        # the upper bound (a known rule's objective) is lower, as it then is the optimum
        if levels == "exact" or len(closed.closure_terms) < R:
            assert closed.bound == pytest.approx(min(best_f, closed.upper_bound), abs=TOL)
        assert rule >= closed.bound - TOL


def test_the_closure_lifts_the_lp_bound_to_the_optimum():
    A, y, theta, R = _lp_gap_case()
    best_f, _ = brute_force(A, y, theta, R)
    lp = lower_bound(A, y, theta, max_rules=R)
    assert lp.exact_pricing and lp.bound < best_f - 0.1
    for pricing in ("mip", "search", "auto"):
        closed = lower_bound(A, y, theta, max_rules=R, closure=True, pricing=pricing)
        assert closed.kind == "closure" and closed.closure_status == "optimal"
        assert closed.bound == pytest.approx(best_f, abs=TOL)
        assert rule_objective(A, y, closed.closure_terms, theta,
                              max_rules=R) == pytest.approx(best_f)
    # an upper bound below the optimum caps the bound there (then rounded up to the least
    # objective value not below it; still valid)
    capped = lower_bound(A, y, theta, max_rules=R, closure=True, upper_bound=best_f - 0.05)
    assert best_f - 0.05 - TOL <= capped.bound < best_f - TOL
    # an upper bound the LP bound reaches leaves nothing to close
    met = lower_bound(A, y, theta, max_rules=R, closure=True, upper_bound=lp.lp_bound - 0.5)
    assert met.closure_status == "upper bound met" and met.kind == "lp"
    assert met.bound == lp.bound


def test_the_closure_keeps_the_lp_bound_beyond_its_column_cap():
    A, y, theta, R = _lp_gap_case()
    lp = lower_bound(A, y, theta, max_rules=R)
    capped = lower_bound(A, y, theta, max_rules=R, closure=True, closure_columns=1)
    assert capped.closure_status == "column cap" and capped.kind == "lp"
    assert capped.bound == lp.bound


def test_certify_with_the_closure_says_which_bound_it_is():
    A, y, theta, R = _lp_gap_case()
    X = pd.DataFrame(A, columns=list("abcdef"))
    model = BooleanRuleClassifier(max_rules=R, theta=theta, pos_label=1).fit(X, y.astype(int))
    plain = cert.certify(model, X, y.astype(int))
    certified = cert.certify_fitted(model, X, y.astype(int), closure=True)
    assert model.fit_stats_["bound_kind"] == certified.certificate.kind
    # certified up to the rule's own objective
    assert certified.certificate.upper_bound == pytest.approx(certified.objective)
    assert plain.bound - TOL <= certified.bound <= certified.objective + TOL
    assert plain.certificate.kind == "lp" and plain.certificate.closure_status == ""


def test_unknown_pricing_is_refused():
    A, y, theta, R = _lp_gap_case()
    with pytest.raises(ParameterError, match="pricing must be one of"):
        lower_bound(A, y, theta, max_rules=R, pricing="beam")


def test_auto_pricing_turns_to_the_mip_when_the_search_gives_up():
    """A search of one node neither finishes nor (past the first calls) finds a column:
    "auto" then prices by the MIP and reaches the exact LP bound; "search" alone stops
    with a bound that is still valid."""
    A, y, theta, R = _lp_gap_case()
    best_f, _ = brute_force(A, y, theta, R)
    exact = lower_bound(A, y, theta, max_rules=R)
    auto = lower_bound(A, y, theta, max_rules=R, pricing="auto", search_nodes=1)
    assert auto.exact_pricing and auto.lp_bound == pytest.approx(exact.lp_bound, abs=1e-6)
    alone = lower_bound(A, y, theta, max_rules=R, pricing="search", search_nodes=1)
    assert not alone.exact_pricing and 0 <= alone.bound <= best_f + TOL


def test_an_integral_lp_rule_is_the_closures_upper_bound():
    """The LP's optimum is the rule {0, 1} (one term, fewer than R): its objective is the
    upper bound, which the LP bound meets, so there is nothing to list."""
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    closed = lower_bound(A, y, theta, max_rules=R, closure=True)
    assert closed.integral and closed.terms == ((0, 1),)
    assert closed.closure_status == "upper bound met" and closed.closure_columns == 0
    assert closed.upper_bound == pytest.approx(best_f) and closed.bound == pytest.approx(best_f)
