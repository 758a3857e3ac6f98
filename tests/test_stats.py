"""Statistical comparisons over datasets, against exact oracles (brute-force sign flips, hand
ranks, Demšar's table of critical values)."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from rulelearn.bench import stats


def summary(values: dict, *, incomplete=()) -> pd.DataFrame:
    """A summary frame of ``{method: [error per dataset]}`` (cells in ``incomplete`` are not
    complete)."""
    rows = []
    for m, errors in values.items():
        for i, e in enumerate(errors):
            done = (f"d{i}", m) not in incomplete
            rows.append({"dataset": f"d{i}", "method": m, "method_name": m, "complete": done,
                         "error_mean": e if done else math.nan,
                         "literals_mean": 10.0 - e if done else math.nan})
    return pd.DataFrame(rows)


def brute_wilcoxon(diffs) -> float:
    """The exact two-sided p-value of the signed-rank statistic: every sign assignment."""
    d = np.asarray([x for x in diffs if x != 0], dtype=float)
    ranks = pd.Series(np.abs(d)).rank().to_numpy()
    observed = ranks[d > 0].sum()
    sums = [sum(r for r, s in zip(ranks, signs) if s)
            for signs in itertools.product([0, 1], repeat=len(d))]
    low = np.mean([s <= observed + 1e-9 for s in sums])
    high = np.mean([s >= observed - 1e-9 for s in sums])
    return min(1.0, 2 * min(low, high))


def test_wilcoxon_matches_the_exact_sign_flip_distribution():
    a = [10.1, 12.3, 8.8, 15.0, 20.2, 7.7, 9.9]
    b = [11.0, 12.0, 9.9, 16.6, 22.5, 8.1, 12.7]  # distinct |differences|, no zero
    out = stats.wilcoxon_pairs(summary({"x": a, "y": b}))
    row = out.iloc[0]
    assert (row.wins, row.losses, row.ties, row.n_datasets) == (6, 1, 0, 7)
    expected = brute_wilcoxon(np.round(a, 1) - np.round(b, 1))
    assert row.p_value == pytest.approx(expected, abs=1e-12)
    assert row.p_holm == pytest.approx(expected)  # one pair: nothing to adjust


def test_wilcoxon_pairs_say_why_they_have_no_p_value():
    out = stats.wilcoxon_pairs(summary({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 3.5]}))
    assert math.isnan(out.iloc[0].p_value) and out.iloc[0].verdict == ""
    assert out.iloc[0].reason == "1 dataset with a difference (the test needs 2 or more)"
    assert out.iloc[0].ties == 2


def test_wilcoxon_uses_only_datasets_both_methods_complete():
    s = summary({"x": [1, 2, 3, 4], "y": [2, 3, 4, 5], "z": [9, 9, 9, 9]},
                incomplete=[("d0", "y")])
    out = stats.wilcoxon_pairs(s).set_index(["label", "versus_label"])
    assert out.loc[("x", "y"), "n_datasets"] == 3
    assert out.loc[("x", "z"), "n_datasets"] == 4


def test_holm_by_hand():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([0.5, math.nan, 0.01]) == pytest.approx([0.5, math.nan, 0.02],
                                                              nan_ok=True)
    assert stats.holm([0.02, 0.03]) == pytest.approx([0.04, 0.04])  # never below a smaller p's
    assert stats.holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])  # capped at 1


def test_friedman_on_perfectly_consistent_ranks():
    # 4 datasets, 3 methods always ranked 1, 2, 3: chi2 = 12N/(k(k+1)) sum R^2 - 3N(k+1) = 8
    f = stats.friedman(summary({"a": [1, 2, 3, 4], "b": [5, 6, 7, 8], "c": [9, 9.5, 10, 11]}))
    assert f.ranks == {"A": 1.0, "B": 2.0, "C": 3.0}
    assert f.statistic == pytest.approx(8.0)
    assert f.p_value == pytest.approx(math.exp(-4.0))  # chi2 with 2 dof: exp(-x/2)
    assert f.cd == pytest.approx(2.343 * math.sqrt(3 * 4 / (6 * 4)), abs=1e-3)
    assert f.reason is None and f.n_datasets == 4


def test_friedman_ranks_compare_values_as_printed_and_skip_incomplete_datasets():
    s = summary({"a": [1.04, 2, 3], "b": [1.01, 1, 4], "c": [5, 5, 5]},
                incomplete=[("d2", "c")])
    f = stats.friedman(s)
    assert f.n_datasets == 2 and f.datasets == ["d0", "d1"]
    assert f.ranks == {"A": 1.75, "B": 1.25, "C": 3.0}  # 1.04 and 1.01 both print 1.0: a tie


def test_friedman_says_why_it_cannot_be_computed():
    assert "needs 3 or more" in stats.friedman(summary({"a": [1, 2], "b": [2, 3]})).reason
    one = stats.friedman(summary({"a": [1], "b": [2], "c": [3]}))
    assert one.reason.startswith("1 dataset where every method is complete")
    assert one.ranks == {"A": 1.0, "B": 2.0, "C": 3.0} and math.isnan(one.cd)


@pytest.mark.parametrize("k, q", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (6, 2.850),
                                  (7, 2.949), (8, 3.031), (9, 3.102), (10, 3.164)])
def test_nemenyi_critical_difference_matches_demsar_table(k, q):
    assert stats.nemenyi_cd(k, 6) == pytest.approx(q * math.sqrt(k * (k + 1) / 36), abs=2e-3)


def test_cliques_are_maximal_groups_within_the_critical_difference():
    ranks = {"a": 1.0, "b": 1.5, "c": 2.4, "d": 3.6}
    assert stats.cliques(ranks, 1.0) == [("a", "b"), ("b", "c")]
    assert stats.cliques(ranks, 3.0) == [("a", "b", "c", "d")]
    assert stats.cliques(ranks, 0.1) == []
