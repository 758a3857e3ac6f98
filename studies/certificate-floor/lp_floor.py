"""The LP floor of the certificates: the least gap any column-generation bound can certify.

    python studies/certificate-floor/lp_floor.py run [--cases pima:0 ...] [--budget 600]
        [--mirror DIR]
    python studies/certificate-floor/lp_floor.py table

Per outer fold of results/gaps (3 outer folds, seed 0, 10 thresholds, DNF, R = 5), at the θ
that BCD from its best start chose there (results/gaps/records.jsonl), ``run``:

* fits BCD from its best start, CG and BCD from the CG start at that θ on the fold's
  training part (one θ, no path) and reads every record of results/gaps at that fold and θ;
* runs the column generation of :mod:`rulelearn.certify` (the ladder after G, levels 2) with
  pricing to the end: counts far above the bench's (400 master LPs, 1000 nodes per pricing
  MIP, 20 cut rounds, 4000 columns), and a CPU safety net of ``--budget`` seconds checked
  between HiGHS runs (a bound it stops reads "cpu limit": valid, but not the LP optimum);
* solves the master MIP over the 200 generated columns of least reduced cost (as the CG
  learner does; 1000 nodes) for one more rule, and descends with BCD from it.

Where the bench's own bound (its record for BCD best start) finished pricing, that bound is
the LP optimum already and is taken as it is.

The floor ``(best rule − LP bound) / best rule`` is, where pricing finished, the least gap
any bound from this LP can certify for the best rule known. Where it did not, the LP optimum
lies between the bound reached and the last restricted master's value (a restriction of the
LP), so the floor lies between the gaps these two (rounded up to an objective value)
leave. Results go to lp_floor.json beside this script (one entry per case, written atomically);
``table`` prints the Markdown table from it. Everything but the CPU
seconds is determined by the counts where the status is not "cpu limit".
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from rulelearn import certify as cert
from rulelearn import colgen
from rulelearn.bench import protocol
from rulelearn.binarize import as_frame
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners import bcd
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "results" / "gaps" / "records.jsonl"
OUT = Path(__file__).resolve().parent / "lp_floor.json"
BEST = "bcd[form=dnf,R=5,start=best]"
R = 5
LIMITS = {"max_iterations": 400, "pricing_nodes": 1000, "cut_rounds": 20,
          "max_columns": 4000, "levels": 2}
FITS = {"bcd best": {"method": "bcd", "start": "best"}, "cg": {"method": "cg"},
        "bcd from cg": {"method": "bcd", "start": "cg"}}


def gap_records() -> dict:
    """The last record per (dataset, label, fold) of results/gaps."""
    last = {}
    with open(RECORDS, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("status") == "ok":
                last[(r["dataset"], r["label"], r["fold"])] = r
    return last


def cases(records: dict) -> list[tuple[str, int, float]]:
    """(dataset, fold, θ BCD best start chose), in the records' dataset order."""
    seen = []
    for (dataset, label, fold), r in records.items():
        if label == BEST:
            seen.append((dataset, fold, float(r["theta"])))
    order = list(dict.fromkeys(d for d, _, _ in seen))
    return sorted(seen, key=lambda c: (order.index(c[0]), c[1]))


def fold_data(name: str, fold: int, mirror: str | None):
    """The fold's training part as the bench builds it: X, labels, positive label."""
    ds = load_dataset(name, mirror=mirror)
    rows = protocol.outer_folds(np.asarray(ds.y), 3, 0, name)[fold][0]
    X = as_frame(ds.X).iloc[rows].reset_index(drop=True)
    return X, np.asarray(ds.y)[rows], ds.positive


def run_case(dataset: str, fold: int, theta: float, records: dict, budget: float,
             mirror: str | None) -> dict:
    X, labels, positive = fold_data(dataset, fold, mirror)
    out: dict = {"dataset": dataset, "fold": fold, "theta": theta, "rules": {}}
    A = y = None
    for name, params in FITS.items():
        cpu = time.process_time()
        clf = BooleanRuleClassifier(theta=theta, max_rules=R, n_thresholds=10, form="dnf",
                                    pos_label=positive, **params).fit(X, labels)
        fit_cpu = time.process_time() - cpu
        A_fit, y_fit, terms = cert.estimator_problem(clf, X, labels)
        if A is None:
            A, y = A_fit, y_fit
        elif not np.array_equal(A, A_fit):
            raise SystemExit(f"{dataset} fold {fold}: the literals differ between fits")
        value = cert.rule_objective(A, y, terms, theta, max_rules=R)
        out["rules"][name] = {"objective": value, "terms": [list(t) for t in terms],
                              "fit_cpu_seconds": fit_cpu}
    for (d, label, f), r in records.items():
        if d == dataset and f == fold and abs(float(r["theta"]) - theta) <= 1e-12 * theta:
            out["rules"][f"record {label}"] = {"objective": float(r["objective"])}
            if r.get("certificate"):
                out.setdefault("bench_bound", float(r["certificate"]["lower_bound"]))
    out["rows"], out["literals"] = A.shape
    out["class_weights"] = [float(y.sum()), float((~y).sum())]  # positives, negatives
    bench = records[(dataset, BEST, fold)].get("certificate") or {}
    if bench.get("status") == "optimal":  # pricing finished under the bench's limits
        out["bound"] = {"bound": bench["lower_bound"], "exact_pricing": True,
                        "status": "optimal", "source": "bench record", "lp_terms": 0,
                        "integral": False, "cpu_seconds": 0.0,
                        "limits": bench.get("limits")}
        return out
    c, master, reduced = colgen._generate(A, y, theta, max_rules=R, cpu_safety=budget, **LIMITS)
    out["bound"] = {"bound": c.bound, "lp_bound": c.lp_bound, "lp_value": c.lp_value,
                    "exact_pricing": c.exact_pricing, "status": c.status,
                    "iterations": c.iterations, "pricing_mips": c.pricing_mips,
                    "levels": c.levels,
                    "columns": c.columns, "integral": c.integral, "lp_terms": len(c.terms),
                    "lp_weight": float(sum(c.weights)), "cpu_seconds": c.cpu_seconds,
                    "limits": {**LIMITS, "cpu_safety": budget}}
    if c.exact_pricing and c.integral and c.terms:  # the LP's optimum is a rule
        out["rules"]["LP rule"] = {
            "objective": cert.rule_objective(A, y, c.terms, theta, max_rules=R),
            "terms": [list(t) for t in c.terms]}
    if master is not None:
        cpu = time.process_time()
        pool = [master.terms[k] for k in np.argsort(reduced, kind="stable")[:200]]
        chosen = colgen.master_mip(A, y, theta, pool, max_rules=R, node_limit=1000)
        terms, value = colgen._prune(A, y, chosen, theta, "dnf", R, None, 0.0)
        out["rules"]["master MIP"] = {"objective": value, "terms": [list(t) for t in terms],
                                      "fit_cpu_seconds": time.process_time() - cpu}
        cpu = time.process_time()
        out["rules"]["bcd from master MIP"] = {
            "objective": bcd_from(A, y, theta, terms),
            "fit_cpu_seconds": time.process_time() - cpu}
    return out


def bcd_from(A, y, theta: float, terms) -> float:
    """BCD's objective descending from the DNF rule ``terms`` (on the CNF view, as the
    estimator learns a DNF)."""
    problem = CNFProblem.from_data(1 - A, ~y)
    W = colgen.terms_matrix([tuple(t) for t in terms], A.shape[1], R)
    return bcd(ClauseSolver(problem), theta, R, start=W).objective


def descend_from_master(entry: dict, mirror: str | None) -> None:
    """Add "bcd from master MIP" to ``entry``: BCD from the master MIP's rule."""
    rule = entry["rules"].get("master MIP")
    if rule is None:
        return
    X, labels, positive = fold_data(entry["dataset"], entry["fold"], mirror)
    clf = BooleanRuleClassifier(method="sc", theta=1.0, max_rules=R, n_thresholds=10,
                                pos_label=positive).fit(X, labels)
    A, y, _ = cert.estimator_problem(clf, X, labels)
    if (A.shape[0], A.shape[1]) != (entry["rows"], entry["literals"]):
        raise SystemExit(f"{entry['dataset']} fold {entry['fold']}: other literals")
    cpu = time.process_time()
    value = bcd_from(A, y, entry["theta"], rule["terms"])
    entry["rules"]["bcd from master MIP"] = {"objective": value,
                                             "fit_cpu_seconds": time.process_time() - cpu}


def save(key: str, entry: dict, path: Path = OUT) -> None:
    """Put ``entry`` under ``key`` in the JSON file (its folder locked, written atomically)."""
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        data = json.loads(path.read_text()) if path.exists() else {}
        data[key] = entry
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(dict(sorted(data.items())), f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)
    finally:
        os.close(folder)  # and the lock with it


def table(path: Path = OUT) -> str:
    """The Markdown table of ``path``: objectives, bounds, the floor and the gaps (%)."""
    data = json.loads(path.read_text())
    lines = ["| dataset | fold | θ | BCD best | cg | BCD from cg | master MIP | best known "
             "| bench bound | bound, pricing to the end | floor % | gap % BCD best "
             "| gap % BCD from cg | CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for entry in sorted(data.values(), key=lambda e: (_order(e["dataset"]), e["fold"])):
        rules = entry["rules"]
        best = min(rule["objective"] for rule in rules.values())
        best_name = next(name for name, rule in rules.items()  # ties: the first
                         if rule["objective"] <= best + 1e-9)
        b = entry["bound"]
        # the bound met the last restricted master's value: that value is the LP optimum
        met = not b["exact_pricing"] and b.get("lp_bound") is not None and \
            b["lp_bound"] >= b["lp_value"] - 1e-7 * max(1.0, abs(b["lp_value"]))
        exact = b["exact_pricing"] or met
        status = "LP optimum" if exact else b["status"]
        if met:
            status += f" (the bound met the master's value; {b['status']})"
        if b.get("source") == "bench record":
            status += ", the bench's"
        if exact and b.get("source") != "bench record" and b["lp_terms"]:
            status += (f", integral: {b['lp_terms']} terms" if b["integral"] else
                       f", fractional: {b['lp_terms']} terms, Σx = {b['lp_weight']:.2f}")
        bench = entry.get("bench_bound")
        floor = f"{100 * cert.gap(best, b['bound']):.1f}"
        if not exact:  # LP* lies in [bound, the last restricted master's value]
            positives, negatives = entry.get("class_weights") or _class_weights(entry)
            top = colgen.round_up_to_objective(b["lp_value"], entry["theta"], positives,
                                             negatives)
            # a bound below the objective of G's LP means G's pricing never finished: the
            # stop came in G's phase (levels 1), so the value bounds G's LP from above
            status += f"; {'G' if b.get('levels', 1) == 1 else 'LP'} ≤ {b['lp_value']:.2f}"
            floor = f"{100 * cert.gap(best, top):.1f} to {floor}"

        def obj(name, rules=rules):
            return f"{rules[name]['objective']:.2f}" if name in rules else "–"

        def gaps(name, rules=rules, bench=bench, bound=b["bound"]):
            value = rules[name]["objective"]
            return (("–" if bench is None else f"{100 * cert.gap(value, bench):.1f}")
                    + f" → {100 * cert.gap(value, bound):.1f}")
        lines.append(
            f"| {entry['dataset']} | {entry['fold']} | {entry['theta']:g} | {obj('bcd best')} "
            f"| {obj('cg')} | {obj('bcd from cg')} | {obj('master MIP')} "
            f"| {best:.2f} ({best_name.removeprefix('record ')}) "
            f"| {'–' if bench is None else f'{bench:.2f}'} | {b['bound']:.2f} ({status}) "
            f"| {floor} "
            f"| {gaps('bcd best')} | {gaps('bcd from cg')} | {b['cpu_seconds']:.0f} |")
    return "\n".join(lines)


def _class_weights(entry: dict) -> list[float]:
    _, labels, positive = fold_data(entry["dataset"], entry["fold"],
                                    os.environ.get("RULELEARN_MIRROR"))
    y = labels == positive
    return [float(y.sum()), float((~y).sum())]


def _order(dataset: str) -> int:
    names = ["transfusion", "parkinsons", "liver", "ilpd", "pima"]
    return names.index(dataset) if dataset in names else len(names)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run", "descend", "table"],
                        help="descend: add BCD from the master MIP's rule to cases done")
    parser.add_argument("--cases", nargs="*", help="DATASET:FOLD (default: all)")
    parser.add_argument("--budget", type=float, default=600.0,
                        help="CPU safety net per bound, seconds")
    parser.add_argument("--mirror", default=os.environ.get("RULELEARN_MIRROR"))
    parser.add_argument("--force", action="store_true", help="recompute cases already done")
    args = parser.parse_args()
    if args.command == "table":
        print(table())
        return
    done = json.loads(OUT.read_text()) if OUT.exists() else {}
    if args.command == "descend":
        for key, entry in done.items():
            if (not args.cases or key in args.cases) and (
                    args.force or "bcd from master MIP" not in entry["rules"]):
                descend_from_master(entry, args.mirror)
                save(key, entry)
                print(key, {k: round(v["objective"], 2) for k, v in entry["rules"].items()})
        return
    records = gap_records()
    for dataset, fold, theta in cases(records):
        key = f"{dataset}:{fold}"
        if args.cases and key not in args.cases or key in done and not args.force:
            continue
        entry = run_case(dataset, fold, theta, records, args.budget, args.mirror)
        save(key, entry)
        b = entry["bound"]
        print(f"{key} θ {theta:g}: bound {b['bound']:.3f} ({b['status']}, "
              f"{b.get('pricing_mips', 0)} MIPs, {b['cpu_seconds']:.0f} CPU s); rules "
              + ", ".join(f"{k} {v['objective']:.2f}" for k, v in entry["rules"].items()),
              flush=True)


if __name__ == "__main__":
    main()
