"""The certificate's CPU budget: it stops the column generation, every HiGHS run of the
pricing, and the bound stays valid (brute force on tiny problems). The safety net
(``cpu_safety``): checked between HiGHS runs only, so the counts decide the bound."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_certify import TOL, _needs_two_literals, brute_force, problems

from rulelearn import certify as cert
from rulelearn import colgen
from rulelearn.bench.certificates import CERTIFY_LIMITS
from rulelearn.certify import lower_bound
from rulelearn.errors import ParameterError


def jumping_cpu_clock(monkeypatch, step):
    """This process's CPU clock, as the certificate reads it, advancing ``step`` seconds per
    reading."""
    ticks = iter(np.arange(0.0, 1e9, step))
    monkeypatch.setattr(cert.time, "process_time", lambda: float(next(ticks)))


def test_the_budget_stops_after_the_first_master_with_a_valid_bound(monkeypatch):
    """With the clock past the budget at the first check, one master LP and one pricing MIP
    run; ignoring the budget would generate columns until pricing is exact."""
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    full = lower_bound(A, y, theta, max_rules=R)
    assert full.iterations > 1 and full.exact_pricing
    jumping_cpu_clock(monkeypatch, 100.0)
    c = lower_bound(A, y, theta, max_rules=R, cpu_limit=50.0)
    assert c.status == "cpu limit" and c.iterations == 1 and c.pricing_mips == 1
    assert 0 <= c.bound <= full.bound + TOL and c.bound <= best_f + TOL


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([1e-9, 1e-3, 10.0]))
def test_any_budget_gives_a_bound_below_the_optimum(problem, budget):
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    best_f, _ = brute_force(A, y, theta, R, form, w)
    c = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, cpu_limit=budget)
    assert 0 <= c.bound <= best_f + TOL
    assert c.status in ("cpu limit", "optimal", "iteration limit", "pricing stalled")


def test_highs_gets_the_cpu_seconds_left_and_the_last_mip_a_tenth_of_the_budget(monkeypatch):
    """Each pricing run is told the budget's remainder (at least 1 ms); the final one, which
    gives the bound, gets a tenth of the budget when nothing is left."""
    A, y, theta, R = _needs_two_literals()
    data = colgen._Data.build(A, y, theta, "dnf", None)
    mip = colgen._PricingMIP(data)
    mu, rho = data.wp * 0.5, -0.5

    def limit():
        return mip.model.option("time_limit")

    now = cert.time.process_time()
    mip.price(mu, rho, deadline=now + 1e4)
    assert 9e3 < limit() <= 1e4
    mip.price(mu, rho, deadline=now - 5.0)
    assert limit() == pytest.approx(1e-3)
    assert mip.model.option("presolve") == "off"  # it ignores the clock
    mip.price(mu, rho)
    assert limit() == np.inf and mip.model.option("presolve") == "on"
    jumping_cpu_clock(monkeypatch, 100.0)  # every reading 100 s later: nothing left
    seen = []
    original = colgen._PricingMIP.price
    monkeypatch.setattr(colgen._PricingMIP, "price", lambda self, mu, rho, deadline=None: (
        seen.append(deadline) or original(self, mu, rho)))
    lower_bound(A, y, theta, max_rules=R, cpu_limit=30.0)
    assert len(seen) == 1 and seen[0] is not None
    # the deadline is 3 s (a tenth of 30) past the reading taken as the last MIP starts
    assert seen[0] % 100.0 == pytest.approx(3.0)


@pytest.mark.parametrize("name", ["cpu_limit", "cpu_safety"])
@pytest.mark.parametrize("bad", [0, -1.0, True, "10"])
def test_the_budget_must_be_positive_seconds(name, bad):
    A, y, theta, R = _needs_two_literals()
    with pytest.raises(ParameterError, match=name):
        lower_bound(A, y, theta, max_rules=R, **{name: bad})


def test_a_budget_and_a_safety_net_are_not_given_together():
    A, y, theta, R = _needs_two_literals()
    with pytest.raises(ParameterError, match="not both"):
        lower_bound(A, y, theta, max_rules=R, cpu_limit=10.0, cpu_safety=10.0)


def _noisy(seed=5, n=60, d=8):
    """Noisy two-term data on which the bench's counts stop the bound before it is exact."""
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (n, d)).astype(np.uint8)
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & A[:, 3])).astype(bool) ^ (rng.random(n) < 0.15)
    return A, y


def _figures(c):
    return (c.bound, c.lp_bound, c.lp_value, c.status, c.iterations, c.columns,
            c.pricing_mips, c.terms, c.weights)


@pytest.mark.parametrize("limits", [{"pricing_nodes": 1, "cut_rounds": 0},
                                    {"max_iterations": 3}, {}])
def test_the_safety_net_leaves_the_bound_to_the_counts(monkeypatch, limits):
    """The same bound twice, and again with a CPU clock that jumps a second per reading (a
    loaded machine): the net, 1000 CPU s, is never reached, and it cuts no HiGHS run."""
    A, y = _noisy()
    options = dict(max_rules=3, cpu_safety=1000.0, **limits)
    first = lower_bound(A, y, 0.5, **options)
    assert first.status != "cpu limit" and first.cpu_seconds > 0
    assert _figures(lower_bound(A, y, 0.5, **options)) == _figures(first)
    ticks = itertools.count(0.0, 1.0)
    monkeypatch.setattr(cert.time, "process_time", lambda: float(next(ticks)))
    assert _figures(lower_bound(A, y, 0.5, **options)) == _figures(first)


def test_the_safety_net_is_checked_between_highs_runs(monkeypatch):
    """With the clock past the net at the first check, one master LP and the pricing MIP
    for the final duals run, not cut by the clock; the status says the net stopped it."""
    A, y, theta, R = _needs_two_literals()
    best_f, _ = brute_force(A, y, theta, R)
    jumping_cpu_clock(monkeypatch, 100.0)
    c = lower_bound(A, y, theta, max_rules=R, cpu_safety=50.0)
    assert c.status == "cpu limit" and c.iterations == 1 and c.pricing_mips == 1
    assert 0 <= c.bound <= best_f + TOL


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_a_tiny_wall_budget_says_so_and_stays_below_the_optimum(problem):
    """HiGHS's runs stop at once (1 µs each): the status is "cpu limit" whenever the bound
    is not proven optimal by then, never "pricing stalled", and it is a valid bound."""
    A, y, theta, R, form, w = problem
    assume(0 < y.sum() < len(y))
    best_f, _ = brute_force(A, y, theta, R, form, w)
    c = lower_bound(A, y, theta, form=form, max_rules=R, sample_weight=w, cpu_safety=1e-6)
    assert 0 <= c.bound <= best_f + TOL
    assert c.status in ("cpu limit", "optimal")


def test_a_pricing_run_stopped_by_the_clock_is_a_cpu_limit_not_a_stall(monkeypatch):
    """A pricer that ran out of time without an improving column: before, the status read
    "pricing stalled", which a count would explain; the clock stopped it."""
    A, y, theta, R = _needs_two_literals()
    exact = colgen._PricingMIP(colgen._Data.build(A, y, theta, "dnf", None))

    def out_of_time(mu, rho):
        result = exact.price(mu, rho)
        return colgen._PricingResult(None, np.inf, result.dual_bound - 1.0, False, clock=True)

    monkeypatch.setattr(colgen, "beam_columns", lambda *args, **kwargs: [])
    c = lower_bound(A, y, theta, max_rules=R, pricer=out_of_time)
    assert c.status == "cpu limit" and c.iterations == 1


def test_the_bench_bounds_are_set_by_counts_with_a_cpu_safety_net():
    assert "cpu_limit" not in CERTIFY_LIMITS and CERTIFY_LIMITS["cpu_safety"] > 0
    for count in ("max_iterations", "pricing_nodes", "cut_rounds"):
        assert isinstance(CERTIFY_LIMITS[count], int) and CERTIFY_LIMITS[count] >= 1


def test_limits_name_lower_bound_keywords_and_pass_only_what_they_set():
    import inspect
    from dataclasses import fields

    from rulelearn.certify import Limits

    keywords = inspect.signature(lower_bound).parameters
    assert [f.name for f in fields(Limits) if f.name not in keywords] == []
    assert Limits().options() == {}
    assert Limits(pricing_nodes=5, closure=False).options() == {"pricing_nodes": 5,
                                                               "closure": False}
    assert CERTIFY_LIMITS == Limits.bench().options()
    A, y, theta, R = _needs_two_literals()
    limited = lower_bound(A, y, theta, max_rules=R, **Limits(max_iterations=1).options())
    assert limited.iterations == 1 and limited.status == "iteration limit"
