"""Where rulelearn's fit defaults stand against the peers on the public benchmark.

    python studies/public-front/run.py [RESULTS_DIR]      (default: results/public)
    python studies/public-front/run.py --select-raw FILE.json --rule NAME [...]

    python studies/public-front/run.py --select-raw FILE.json --rule NAME --rule NAME2 --compare
    python studies/public-front/run.py --select-raw FILE.json --rule NAME --rule NAME2 --paired
    python studies/public-front/run.py --why [RESULTS_DIR]

``--select-raw`` (the ``--raw`` file of ``studies/selection-rule/run.py``, run on the
benchmark's own outer folds) replaces ``fit``'s cells by what selection rule NAME (e.g.
``min``, ``1se+p``) did on those folds, for the tables it covers; the peers' cells stay the
records'. ``--compare``
prints one table for all the rules given instead: per table, each rule's error / literals and
whether it is on the front (``**``: within 1 point of the most accurate peer and at no more
literals than the sparsest peer near it; ``*``: within 1 point only), then each rule's score
(and the first rule's on the same tables). ``--paired`` prints, per table, each rule's test error
minus the first rule's, paired over the outer folds (mean and its standard error): whether a
rule's move is larger than the folds' noise. ``--why`` explains each table off the front: fit's
test error minus the most accurate peer's, paired over the outer folds (mean and its standard
error), and the best BCD (DNF, R = 5) could have done at one θ for all folds chosen with
hindsight on the test folds (its records' paths), an optimistic reach of that learner.

Per table, from the records (test error %, mean over the outer folds; size as Table 2 counts it):
the most accurate peer rule learner, the sparsest peer within 1 point of it, and whether ``fit``
is (a) within 1 point of the most accurate peer and (b) also at no more literals than that
sparsest peer (the rules issue's goal: both, on >= 90 % of the tables). Peers are the methods that
are not rulelearn's own (CART, RIPPER, BRCG, a classifier named by import path); a peer counts on a
table only where its cell is complete.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from rulelearn.bench.records import load_results

OWN = ("fit", "bcd", "am", "ocrl", "sc", "cg")


def _md(name: str) -> str:
    """``name`` for a Markdown table cell: ``FIGS`` for ``imodels.FIGSClassifier``, ``\\|`` for
    the ``|`` of a rule such as ``base|tree:0.1pt+p``."""
    if name.startswith("imodels."):
        name = name.removeprefix("imodels.").removesuffix("Classifier")
    return name.replace("|", "\\|")


def select_cells(raw_file: str, rule: str) -> dict[str, tuple[float, float]]:
    """Per table of a ``select_rule.py --raw`` file: rule ``rule``'s mean test error % and mean
    literals over the folds (tables with all 5 folds of that rule only)."""
    with open(raw_file) as f:
        rows = json.load(f)
    cells = {}
    for name in dict.fromkeys(r["name"] for r in rows):
        part = [r for r in rows if r["name"] == name]
        if len(part) == 5 and all(f"{rule}_error" in r for r in part):
            cells[name] = (float(np.mean([r[f"{rule}_error"] for r in part])),
                           float(np.mean([r[f"{rule}_literals"] for r in part])))
    return cells


def front(folder: str, fit_cells: dict | None = None):
    """One row per table where fit's cell is complete: (table, fit error, fit literals, best peer,
    its error, sparsest near peer, its size, within 1 point, and no more literals too).
    ``fit_cells`` (table -> (error %, literals)): fit's numbers instead of the records', and
    only those tables."""
    summary = load_results(folder).summary
    rows = []
    for dataset, cells in summary.groupby("dataset", sort=False):
        fit = cells[(cells.method_name == "fit") & cells.complete]
        peers = cells[~cells.method_name.isin(OWN) & cells.complete]
        if fit_cells is not None:
            if dataset not in fit_cells or peers.empty:
                continue
            err, lits = fit_cells[dataset]
        elif fit.empty or peers.empty:
            continue
        else:
            err, lits = float(fit.error_mean.iloc[0]), float(fit.literals_mean.iloc[0])
        best = peers.loc[peers.error_mean.idxmin()]
        near = peers[peers.error_mean <= best.error_mean + 1.0]
        sparse = near.loc[near.literals_mean.idxmin()]
        close = err <= best.error_mean + 1.0
        rows.append((dataset, err, lits, best.method_name, float(best.error_mean),
                     sparse.method_name, float(sparse.literals_mean), close,
                     close and lits <= sparse.literals_mean))
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="results/public")
    parser.add_argument("--select-raw", help="a studies/selection-rule/run.py --raw file")
    parser.add_argument("--rule", action="append",
                        help="a selection rule of that file (repeat for several)")
    parser.add_argument("--compare", action="store_true",
                        help="one table of every --rule side by side")
    parser.add_argument("--why", action="store_true",
                        help="explain each table off the front (paired gap, BCD's reach)")
    parser.add_argument("--paired", action="store_true",
                        help="each --rule's error minus the first's, paired over the folds")
    args = parser.parse_args(argv)
    if args.why:
        print(why(args.folder))
        return
    if args.select_raw is None:
        show(front(args.folder))
        return
    if args.paired:
        print(paired(args.select_raw, args.rule or ["min"]))
        return
    if args.compare:
        print(compare(args.folder, args.select_raw, args.rule or ["min"]))
        return
    for rule in args.rule or ["min"]:
        print(f"\n### fit's cells: rule {rule} of {args.select_raw}\n")
        show(front(args.folder, select_cells(args.select_raw, rule)))


def compare(folder: str, raw_file: str, rules) -> str:
    """Markdown: per table, each rule's error % / literals with ``**`` (on the front) or ``*``
    (within 1 point only), then per rule the tables on the front and the mean error / literals
    over the tables it has, with the first rule's on the same tables in brackets."""
    fronts = {rule: {r[0]: r for r in front(folder, select_cells(raw_file, rule))}
              for rule in rules}
    names = list(dict.fromkeys(t for rows in fronts.values() for t in rows))
    lines = ["| table | best peer | sparsest near | " + " | ".join(map(_md, rules)) + " |",
             "|---" * (len(rules) + 3) + "|"]
    for name in names:
        _, _, _, best, best_err, sparse, size, _, _ = next(
            rows[name] for rows in fronts.values() if name in rows)
        cells = []
        for rule in rules:
            row = fronts[rule].get(name)
            cells.append("" if row is None else f"{row[1]:.1f} / {row[2]:.1f}"
                         + ("**" if row[8] else "*" if row[7] else ""))
        lines.append(f"| {name} | {_md(best)} {best_err:.1f} | {_md(sparse)} {size:.1f} | "
                     + " | ".join(cells) + " |")
    ref = fronts[rules[0]]
    score, mean = [], []
    for rule in rules:  # and the first rule's, on the same tables
        rows = fronts[rule]
        both = [t for t in rows if t in ref]
        score.append(f"{sum(r[8] for r in rows.values())} of {len(rows)}"
                     + (f" ({_md(rules[0])}: {sum(ref[t][8] for t in both)})" if rule != rules[0]
                        else ""))
        mean.append(f"{np.mean([r[1] for r in rows.values()]):.2f} / "
                    f"{np.mean([r[2] for r in rows.values()]):.1f}"
                    + (f" ({np.mean([ref[t][1] for t in both]):.2f} / "
                       f"{np.mean([ref[t][2] for t in both]):.1f})" if rule != rules[0] else ""))
    lines.append("| **on the front** | | | " + " | ".join(score) + " |")
    lines.append("| **mean error / literals** | | | " + " | ".join(mean) + " |")
    return "\n".join(lines)


def paired(raw_file: str, rules) -> str:
    """Markdown: per table (all 5 folds of every rule), each rule's test error minus the first
    rule's, mean over the folds (standard error of that mean), then the mean over the tables."""
    with open(raw_file) as f:
        rows = json.load(f)
    lines = ["| table | " + " | ".join(f"{_md(r)} - {_md(rules[0])}" for r in rules[1:]) + " |",
             "|---" * len(rules) + "|"]
    means: dict = {rule: [] for rule in rules[1:]}
    for name in dict.fromkeys(r["name"] for r in rows):
        part = [r for r in rows if r["name"] == name]
        if len(part) != 5 or not all(f"{rule}_error" in r for r in part for rule in rules):
            continue
        cells = []
        for rule in rules[1:]:
            d = np.array([r[f"{rule}_error"] - r[f"{rules[0]}_error"] for r in part])
            means[rule].append(d.mean())
            cells.append(f"{d.mean():+.1f} ({d.std(ddof=1) / np.sqrt(len(d)):.1f})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| **mean** | " + " | ".join(f"**{np.mean(means[r]):+.2f}**" if means[r] else ""
                                             for r in rules[1:]) + " |")
    return "\n".join(lines)


def hindsight_theta(records, dataset: str, method: str = "bcd"):
    """(mean test error %, mean literals, θ) of ``method``'s single best θ over all its outer
    folds on ``dataset``, read from its records' paths (chosen on the test folds: optimistic);
    None without a complete path."""
    last = {(r.seed, r.fold): r.path for r in records
            if r.dataset == dataset and r.method == method and r.path}  # a rerun's last
    paths = list(last.values())
    if not paths:
        return None
    best = None
    for theta in {p.param for p in paths[0]}:
        cells = [next((p for p in path if p.param == theta), None) for path in paths]
        if any(c is None or c.test_error is None for c in cells):
            continue
        cell = (100 * float(np.mean([c.test_error for c in cells])),
                float(np.mean([c.literals for c in cells])), theta)
        best = cell if best is None or cell[:2] < best[:2] else best
    return best


def why(folder: str) -> str:
    """Markdown: each table off the front, with fit minus the most accurate peer paired over
    the outer folds and BCD's hindsight-best θ (:func:`hindsight_theta`)."""
    results = load_results(folder)
    summary = results.summary
    lines = ["| table | fit % / literals | needs % (literals ≤) | most accurate peer | "
             "fit − peer, paired (SEM) | BCD's best θ in hindsight: % / literals |",
             "|---|---|---|---|---|---|"]
    for t, err, lits, best, best_err, _sparse, size, _close, both in front(folder):
        if both:
            continue
        cells = summary[summary.dataset == t].set_index("method_name")
        units = cells.loc["fit", "error_by_unit"]
        peer = cells.loc[best, "error_by_unit"]
        d = np.array([units[u] - peer[u] for u in units if u in peer])
        sem = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
        reach = hindsight_theta(results.records, t)
        lines.append(f"| {t} | {err:.1f} / {lits:.1f} | {best_err + 1:.1f} ({size:.1f}) | "
                     f"{_md(best)} {best_err:.1f} | {d.mean():+.1f} ({sem:.1f}) | "
                     + ("–" if reach is None else f"{reach[0]:.1f} / {reach[1]:.1f}") + " |")
    return "\n".join(lines)


def show(rows) -> None:
    print("| table | fit error % / literals | most accurate peer | sparsest peer within 1 pt "
          "| within 1 pt | and no more literals |")
    print("|---|---|---|---|---|---|")
    for t, err, lits, best, best_err, sparse, size, close, both in rows:
        print(f"| {t} | {err:.1f} / {lits:.1f} | {_md(best)} {best_err:.1f} | "
              f"{_md(sparse)} {size:.1f} "
              f"| {'yes' if close else 'no'} | {'yes' if both else 'no'} |")
    n = len(rows)
    print(f"\nwithin 1 point of the most accurate peer: {sum(r[7] for r in rows)} of {n}; "
          f"and at no more literals than the sparsest peer near it: {sum(r[8] for r in rows)} "
          f"of {n}")


if __name__ == "__main__":
    main()
