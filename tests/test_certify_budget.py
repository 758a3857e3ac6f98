"""The certificate's CPU budget: it stops the column generation, every HiGHS run of the
pricing, and the bound stays valid (brute force on tiny problems)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_certify import TOL, _needs_two_literals, brute_force, problems

from rulelearn import certify as cert
from rulelearn.bench.experiment import CERTIFY_LIMITS
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
    data = cert._Data.build(A, y, theta, "dnf", None)
    mip = cert._PricingMIP(data)
    mu, rho = data.wp * 0.5, -0.5

    def limit():
        return mip.highs.getOptionValue("time_limit")[1]

    now = cert.time.process_time()
    mip.price(mu, rho, deadline=now + 1e4)
    assert 9e3 < limit() <= 1e4
    mip.price(mu, rho, deadline=now - 5.0)
    assert limit() == pytest.approx(1e-3)
    assert mip.highs.getOptionValue("presolve")[1] == "off"  # it ignores the clock
    mip.price(mu, rho)
    assert limit() == np.inf and mip.highs.getOptionValue("presolve")[1] == "on"
    jumping_cpu_clock(monkeypatch, 100.0)  # every reading 100 s later: nothing left
    seen = []
    original = cert._PricingMIP.price
    monkeypatch.setattr(cert._PricingMIP, "price", lambda self, mu, rho, deadline=None: (
        seen.append(deadline) or original(self, mu, rho)))
    lower_bound(A, y, theta, max_rules=R, cpu_limit=30.0)
    assert len(seen) == 1 and seen[0] is not None
    # the deadline is 3 s (a tenth of 30) past the reading taken as the last MIP starts
    assert seen[0] % 100.0 == pytest.approx(3.0)


@pytest.mark.parametrize("bad", [0, -1.0, True, "10"])
def test_the_budget_must_be_positive_seconds(bad):
    A, y, theta, R = _needs_two_literals()
    with pytest.raises(ParameterError, match="cpu_limit"):
        lower_bound(A, y, theta, max_rules=R, cpu_limit=bad)


def test_the_bench_bounds_have_a_cpu_budget_and_more_master_solves():
    assert CERTIFY_LIMITS["cpu_limit"] > 0 and CERTIFY_LIMITS["max_iterations"] >= 40
