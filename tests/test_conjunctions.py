"""The exact search over conjunctions against brute force: every conjunction of tiny random
problems, at random duals (levels 1 to 3, ρ < 0, row weights)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelearn import colgen
from rulelearn.conjunctions import ConjunctionSearch


@st.composite
def priced(draw):
    """A tiny problem and duals: (merged data, μ, ρ)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    n, d = draw(st.integers(2, 30)), draw(st.integers(1, 6))
    A = (rng.random((n, d)) < draw(st.floats(0.2, 0.8))).astype(np.uint8)
    y = rng.random(n) < 0.5
    y[:2] = [True, False]
    w = rng.integers(1, 4, n).astype(float) if draw(st.booleans()) else None
    data = colgen._Data.build(A, y, draw(st.floats(0.0, 2.0)), "dnf", w)
    levels = draw(st.integers(1, 3))
    scale = draw(st.floats(0.1, 2.0))
    mu = np.minimum(rng.random((levels, len(data.wp))) * data.wp * scale, data.wp)
    rho = -draw(st.floats(0.0, 3.0))
    return data, (mu[0] if levels == 1 else mu), rho


def everything(data, mu, rho):
    terms = [t for k in range(data.d + 1) for t in itertools.combinations(range(data.d), k)]
    return terms, colgen.reduced_costs(data, terms, mu, rho)


def search(data):
    return ConjunctionSearch(data.P, data.wp, data.N, data.wn, data.theta)


def same_rows(data, term, other):
    return all(np.array_equal(data.covers(term, rows), data.covers(other, rows))
               for rows in (data.P, data.N))


@settings(max_examples=150, deadline=None)
@given(priced())
def test_the_least_reduced_cost_is_the_brute_force_one(case):
    data, mu, rho = case
    _, values = everything(data, mu, rho)
    found = search(data).least(mu, rho)
    least = float(values.min())
    assert found.optimal
    assert found.dual_bound <= least + 1e-9
    assert min(found.dual_bound, 0.0) == pytest.approx(min(least, 0.0), abs=1e-9)
    if least < -1e-9:
        assert found.value == pytest.approx(least, abs=1e-9)
        assert colgen.reduced_costs(data, [found.term], mu, rho)[0] == pytest.approx(least)
    # every term returned has the reduced cost it reports, all negative
    assert np.allclose(colgen.reduced_costs(data, found.terms, mu, rho), found.values)
    assert all(v < 0 for v in found.values)


@settings(max_examples=150, deadline=None)
@given(priced(), st.integers(1, 4))
def test_a_search_stopped_at_its_node_limit_still_bounds_the_least(case, nodes):
    data, mu, rho = case
    _, values = everything(data, mu, rho)
    found = search(data).least(mu, rho, node_limit=nodes)
    assert found.dual_bound <= float(values.min()) + 1e-9
    assert found.nodes <= nodes


def test_the_early_bound_is_the_open_nodes_least_estimate_not_the_best_found():
    """Positives are exactly the rows with literals 0, 1 and 2: the term {0, 1, 2} is the
    least (it covers every positive and no negative), three nodes down. Stopped after one
    node, the best found is a single literal, far above it: only the open nodes' estimate
    is a bound."""
    rng = np.random.default_rng(5)
    A = rng.integers(0, 2, (60, 5)).astype(np.uint8)
    y = A[:, :3].all(axis=1)
    data = colgen._Data.build(A, y, 0.1, "dnf", None)
    mu, rho = data.wp.copy(), -0.5
    _, values = everything(data, mu, rho)
    least = float(values.min())
    found = search(data).least(mu, rho, node_limit=1)
    assert not found.optimal and found.nodes == 1
    assert found.value > least + 1.0  # the best found so far is no bound ...
    assert found.dual_bound <= least  # ... the open subtrees' least estimate is
    assert search(data).least(mu, rho).value == pytest.approx(least)


@settings(max_examples=150, deadline=None)
@given(priced(), st.floats(-2.0, 4.0))
def test_every_conjunction_below_a_threshold_is_listed_or_reducible(case, threshold):
    data, mu, rho = case
    terms, values = everything(data, mu, rho)
    found = search(data).below(mu, rho, threshold)
    assert found.optimal
    listed = set(found.terms)
    assert len(listed) == len(found.terms)
    assert all(values[terms.index(t)] <= threshold + 1e-9 for t in listed)
    assert np.allclose(colgen.reduced_costs(data, found.terms, mu, rho), found.values)
    for term, value in zip(terms, values):
        if value <= threshold and term not in listed:
            # left out: a literal can go without changing the rows it covers
            assert any(same_rows(data, term, tuple(k for k in term if k != j)) for j in term)


def test_the_listing_stops_at_its_cap():
    rng = np.random.default_rng(1)
    A = rng.integers(0, 2, (20, 6)).astype(np.uint8)
    data = colgen._Data.build(A, rng.random(20) < 0.5, 0.1, "dnf", None)
    mu = data.wp.copy()
    every = search(data).below(mu, 0.0, 100.0)
    assert every.optimal and len(every.terms) > 5
    capped = search(data).below(mu, 0.0, 100.0, max_terms=5)
    assert not capped.optimal


def test_a_deadline_in_the_past_stops_with_a_valid_bound():
    rng = np.random.default_rng(2)
    A = rng.integers(0, 2, (30, 6)).astype(np.uint8)
    data = colgen._Data.build(A, rng.random(30) < 0.5, 0.1, "dnf", None)
    mu = data.wp.copy()
    _, values = everything(data, mu, -0.2)
    found = search(data).least(mu, -0.2, deadline=0.0)
    assert found.clock and not found.optimal and found.nodes == 0
    assert found.dual_bound <= values.min()
