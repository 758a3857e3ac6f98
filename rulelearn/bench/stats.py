"""Statistical comparisons of methods over datasets (pure: a summary frame in, numbers out).

The tests Demšar (2006, JMLR 7, "Statistical comparisons of classifiers over multiple data
sets") recommends, on the per-dataset means of the tables (:func:`~.records.summarize`):

* :func:`wilcoxon_pairs`: the Wilcoxon signed-rank test per pair of methods over the datasets
  both complete, with Holm's correction for the number of pairs (:func:`holm`).
* :func:`friedman`: the Friedman test over the datasets every method completes, the average
  ranks, and the Nemenyi critical difference (:func:`nemenyi_cd`) that a critical-difference
  diagram draws.

The values are compared **as the tables print them** (rounded to one decimal, as the average
ranks of :func:`~.report.average_ranks`), so the ranks here are the tables' last row and two
methods shown as 28.6 tie.  A test that cannot be computed (too few datasets or methods) says
why in ``reason`` instead of returning a number.  scipy comes with scikit-learn.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from rulelearn.bench.records import display_names
from rulelearn.bench.report import DECIMALS

ALPHA = 0.05


def complete_wide(summary: pd.DataFrame, column: str, *, decimals: int = DECIMALS):
    """``datasets × labels`` of ``column`` over the complete cells, rounded as printed (a row
    per dataset with at least one complete cell; NaN where a cell is not complete)."""
    labels = list(dict.fromkeys(summary["method"]))
    done = summary[summary["complete"]]
    wide = done.pivot(index="dataset", columns="method", values=column)
    datasets = [d for d in dict.fromkeys(summary["dataset"]) if d in wide.index]
    return wide.reindex(index=datasets, columns=labels).astype(float).round(decimals)


def holm(pvalues) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` (NaN stays NaN and does not count)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(len(p), np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = len(valid)
    running = 0.0
    for rank, i in enumerate(valid[np.argsort(p[valid], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out.tolist()


def wilcoxon_pairs(summary: pd.DataFrame, column: str = "error_mean") -> pd.DataFrame:
    """One row per pair of methods: the Wilcoxon signed-rank test of ``column`` over the
    datasets both complete (two-sided; zero differences dropped, as Wilcoxon's own rule).

    ``wins``: datasets where the first method is lower, ``losses`` higher, ``ties`` equal (as
    printed); ``p_holm`` is ``p_value`` adjusted over all pairs (:func:`holm`); ``verdict``
    names the lower method where ``p_holm`` < ``ALPHA``.  ``reason`` says why a pair has
    no p-value (fewer than two datasets with a difference).
    """
    from scipy.stats import wilcoxon

    wide = complete_wide(summary, column)
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    labels = list(wide.columns)
    rows = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            both = wide[[a, b]].dropna()
            diff = (both[a] - both[b]).to_numpy()
            nonzero = diff[diff != 0]
            row = {"method": names[a], "versus": names[b], "label": a, "versus_label": b,
                   "n_datasets": len(both), "wins": int((diff < 0).sum()),
                   "losses": int((diff > 0).sum()), "ties": int((diff == 0).sum()),
                   "statistic": math.nan, "p_value": math.nan, "reason": None}
            if len(nonzero) < 2:
                row["reason"] = (f"{len(nonzero)} dataset{'s' if len(nonzero) != 1 else ''} "
                                 f"with a difference (the test needs 2 or more)")
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # scipy's note on ties / small samples
                    res = wilcoxon(both[a], both[b])
                row["statistic"], row["p_value"] = float(res.statistic), float(res.pvalue)
            rows.append(row)
    out = pd.DataFrame(rows, columns=["method", "versus", "label", "versus_label", "n_datasets",
                                      "wins", "losses", "ties", "statistic", "p_value",
                                      "reason"])
    out["p_holm"] = holm(out["p_value"]) if len(out) else []
    out["verdict"] = [
        "" if not (p < ALPHA) else (r.method if r.wins > r.losses else r.versus)
        for r, p in zip(out.itertuples(), out["p_holm"])]
    return out


def nemenyi_cd(k: int, n: int, alpha: float = ALPHA) -> float:
    """The Nemenyi critical difference of average ranks for ``k`` methods over ``n`` datasets:
    ``q_alpha * sqrt(k (k + 1) / (6 n))``, ``q_alpha`` the studentized range quantile over
    sqrt(2) (Demšar 2006, Table 5a: 1.960 for k = 2, 2.343 for 3, 3.164 for 10)."""
    from scipy.stats import studentized_range

    if k < 2 or n < 1:
        raise ValueError(f"the critical difference needs 2 or more methods and 1 or more "
                         f"datasets (got {k} and {n})")
    q = float(studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)
    return q * math.sqrt(k * (k + 1) / (6.0 * n))


@dataclass
class Friedman:
    """The Friedman test over the datasets every method completes."""

    column: str
    n_datasets: int
    n_methods: int
    #: display name -> average rank (1 = lowest value), over the same datasets
    ranks: dict = field(default_factory=dict)
    statistic: float = math.nan
    p_value: float = math.nan
    #: the Nemenyi critical difference at ``ALPHA`` (NaN without a test)
    cd: float = math.nan
    #: why there is no test (None when there is one)
    reason: str | None = None
    datasets: list = field(default_factory=list)


def friedman(summary: pd.DataFrame, column: str = "error_mean") -> Friedman:
    """The Friedman test of ``column`` over the datasets where every method is complete, its
    average ranks (ties share the average rank) and the Nemenyi critical difference; a
    ``reason`` instead of numbers with fewer than 3 methods or 2 such datasets."""
    from scipy.stats import friedmanchisquare, rankdata

    wide = complete_wide(summary, column).dropna(axis=0, how="any")
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    k, n = wide.shape[1], wide.shape[0]
    out = Friedman(column=column, n_datasets=n, n_methods=k, datasets=list(wide.index))
    if n:
        ranks = rankdata(wide.to_numpy(), axis=1).mean(axis=0)
        out.ranks = {names[lab]: float(r) for lab, r in zip(wide.columns, ranks)}
    if k < 3:
        out.reason = f"{k} method{'s' if k != 1 else ''} (the Friedman test needs 3 or more)"
    elif n < 2:
        out.reason = (f"{n} dataset{'s' if n != 1 else ''} where every method is complete "
                      f"(the Friedman test needs 2 or more)")
    elif np.all(wide.to_numpy() == wide.to_numpy()[:, :1]):
        out.reason = "every method has the same value on every dataset (no ranks to compare)"
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = friedmanchisquare(*wide.to_numpy().T)
        out.statistic, out.p_value = float(res.statistic), float(res.pvalue)
        out.cd = nemenyi_cd(k, n)
    return out


def cliques(ranks: dict, cd: float) -> list[tuple[str, ...]]:
    """The maximal groups of methods (sorted by rank) whose average ranks lie within ``cd`` of
    each other: what a critical-difference diagram joins by a bar (groups of one left out)."""
    order = sorted(ranks, key=lambda m: ranks[m])
    groups: list[tuple[str, ...]] = []
    for i, m in enumerate(order):
        group = tuple(x for x in order[i:] if ranks[x] - ranks[m] <= cd + 1e-12)
        if len(group) > 1 and not any(set(group) <= set(g) for g in groups):
            groups.append(group)
    return groups
