"""Where rulelearn's fit defaults stand against the peers on the public benchmark.

    python benchmarks/public_front.py [RESULTS_DIR]      (default: results/public)

Per table, from the records (test error %, mean over the outer folds; size as Table 2 counts it):
the most accurate peer rule learner, the sparsest peer within 1 point of it, and whether ``fit``
is (a) within 1 point of the most accurate peer and (b) also at no more literals than that
sparsest peer (the rules issue's goal: both, on >= 90 % of the tables). Peers are the methods that
are not rulelearn's own (CART, RIPPER, BRCG, a classifier named by import path); a peer counts on a
table only where its cell is complete.
"""

from __future__ import annotations

import sys

from rulelearn.bench.records import load_results

OWN = ("fit", "bcd", "am", "ocrl", "sc", "cg")


def front(folder: str):
    """One row per table where fit's cell is complete: (table, fit error, fit literals, best peer,
    its error, sparsest near peer, its size, within 1 point, and no more literals too)."""
    summary = load_results(folder).summary
    rows = []
    for dataset, cells in summary.groupby("dataset", sort=False):
        fit = cells[(cells.method_name == "fit") & cells.complete]
        peers = cells[~cells.method_name.isin(OWN) & cells.complete]
        if fit.empty or peers.empty:
            continue
        err, lits = float(fit.error_mean.iloc[0]), float(fit.literals_mean.iloc[0])
        best = peers.loc[peers.error_mean.idxmin()]
        near = peers[peers.error_mean <= best.error_mean + 1.0]
        sparse = near.loc[near.literals_mean.idxmin()]
        close = err <= best.error_mean + 1.0
        rows.append((dataset, err, lits, best.method_name, float(best.error_mean),
                     sparse.method_name, float(sparse.literals_mean), close,
                     close and lits <= sparse.literals_mean))
    return rows


def main(folder: str = "results/public") -> None:
    rows = front(folder)
    print("| table | fit error % / literals | most accurate peer | sparsest peer within 1 pt "
          "| within 1 pt | and no more literals |")
    print("|---|---|---|---|---|---|")
    for t, err, lits, best, best_err, sparse, size, close, both in rows:
        print(f"| {t} | {err:.1f} / {lits:.1f} | {best} {best_err:.1f} | {sparse} {size:.1f} "
              f"| {'yes' if close else 'no'} | {'yes' if both else 'no'} |")
    n = len(rows)
    print(f"\nwithin 1 point of the most accurate peer: {sum(r[7] for r in rows)} of {n}; "
          f"and at no more literals than the sparsest peer near it: {sum(r[8] for r in rows)} "
          f"of {n}")


if __name__ == "__main__":
    main(*sys.argv[1:])
