"""The exact certificates on the folds of lp_floor.py: exact pricing and the closure.

    python studies/certificate-floor/exact_bound.py run [--cases pima:0 ...] [--pricing auto]
        [--budget 300]
    python studies/certificate-floor/exact_bound.py table

Per outer fold of results/gaps at the θ BCD from its best start chose there (the cases and
rules of lp_floor.json, beside this script), ``run`` rebuilds the fold's training literals and runs
:func:`rulelearn.certify.lower_bound` with ``closure=True``: column generation of the ladder
(levels 2) priced by ``--pricing`` (counts as lp_floor's: 400 master LPs, 1000 nodes per
pricing MIP, 20 cut rounds, 4000 columns; the search's 200,000 nodes per call), then, where
pricing finished, the master MIP over every conjunction of reduced cost ≤ UB − LB with UB the
best rule known there (so one bound certifies every rule of the fold: it is ≤ UB ≤ each of
them). A CPU safety net of ``--budget`` seconds covers both (checked between HiGHS runs and
inside the search). Results go to exact_bound.json beside this script (one entry per case and
pricing, written atomically); ``table`` prints the Markdown table, with the gaps of BCD best
start, BCD from cg and the best rule known (the closure's own rule included) against the new
bound.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from lp_floor import OUT as FLOOR
from lp_floor import R, _order, save

from rulelearn import certify as cert
from rulelearn.estimator import BooleanRuleClassifier

OUT = Path(__file__).resolve().parent / "exact_bound.json"
LIMITS = {"max_iterations": 400, "pricing_nodes": 1000, "cut_rounds": 20,
          "max_columns": 4000, "levels": 2}


def fold_problem(entry: dict, mirror: str | None):
    """The fold's literal matrix and classes (checked against lp_floor's shape)."""
    from lp_floor import fold_data

    X, labels, positive = fold_data(entry["dataset"], entry["fold"], mirror)
    clf = BooleanRuleClassifier(method="sc", theta=1.0, max_rules=R, n_thresholds=10,
                                pos_label=positive).fit(X, labels)
    A, y, _ = cert.estimator_problem(clf, X, labels)
    if (A.shape[0], A.shape[1]) != (entry["rows"], entry["literals"]):
        raise SystemExit(f"{entry['dataset']} fold {entry['fold']}: other literals")
    return A, y


def run_case(entry: dict, pricing: str, budget: float, mirror: str | None) -> dict:
    A, y = fold_problem(entry, mirror)
    theta = entry["theta"]
    best = min(rule["objective"] for rule in entry["rules"].values())
    cpu = time.process_time()
    c = cert.lower_bound(A, y, theta, max_rules=R, pricing=pricing, closure=True,
                         upper_bound=best, cpu_safety=budget, **LIMITS)
    out = {"dataset": entry["dataset"], "fold": entry["fold"], "theta": theta,
           "pricing": pricing, "upper_bound": best, "bound": c.bound, "lp_bound": c.lp_bound,
           "lp_value": c.lp_value, "exact_pricing": c.exact_pricing, "status": c.status,
           "iterations": c.iterations, "pricing_calls": c.pricing_mips, "kind": c.kind,
           "closure_status": c.closure_status, "closure_columns": c.closure_columns,
           "cpu_seconds": time.process_time() - cpu, "limits": {**LIMITS, "cpu_safety": budget},
           "rules": {name: rule["objective"] for name, rule in entry["rules"].items()
                     if not name.startswith("record ")}}
    if c.closure_terms:
        out["rules"]["closure MIP"] = cert.rule_objective(A, y, c.closure_terms, theta,
                                                          max_rules=R)
        out["closure_terms"] = [list(t) for t in c.closure_terms]
    return out


def table(path: Path = OUT) -> str:
    data = json.loads(path.read_text())
    lines = ["| dataset | fold | θ | pricing | pricing finished | closure (columns) | bound "
             "| was (lp_floor) | BCD best | BCD from cg | best known | gap % BCD best "
             "| gap % BCD from cg | gap % best known | CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    floor = json.loads(FLOOR.read_text())
    for e in sorted(data.values(), key=lambda e: (_order(e["dataset"]), e["fold"],
                                                   e["pricing"])):
        rules = e["rules"]
        best = min(rules.values())
        name = next(k for k, v in rules.items() if v <= best + 1e-9)
        was = floor[f"{e['dataset']}:{e['fold']}"]["bound"]["bound"]
        closure = e["closure_status"] or "–"
        if closure == "optimal" and not e["closure_columns"]:  # the name before 86f7610
            closure = "upper bound met"
        if e["closure_columns"]:
            closure += f" ({e['closure_columns']})"

        def gap(value, bound=e["bound"]):
            return f"{100 * cert.gap(value, bound):.1f}"
        lines.append(
            f"| {e['dataset']} | {e['fold']} | {e['theta']:g} | {e['pricing']} "
            f"| {'yes' if e['exact_pricing'] else 'no: ' + e['status']} | {closure} "
            f"| {e['bound']:.2f} ({e['kind']}) | {was:.2f} | {rules['bcd best']:.2f} "
            f"| {rules['bcd from cg']:.2f} | {best:.2f} ({name}) | {gap(rules['bcd best'])} "
            f"| {gap(rules['bcd from cg'])} | {gap(best)} | {e['cpu_seconds']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run", "table"])
    parser.add_argument("--cases", nargs="*", help="DATASET:FOLD (default: all)")
    parser.add_argument("--pricing", default="auto", choices=cert.PRICINGS)
    parser.add_argument("--budget", type=float, default=300.0,
                        help="CPU safety net per bound, seconds")
    parser.add_argument("--mirror", default=os.environ.get("RULELEARN_MIRROR"))
    parser.add_argument("--force", action="store_true", help="recompute cases already done")
    args = parser.parse_args()
    if args.command == "table":
        print(table())
        return
    done = json.loads(OUT.read_text()) if OUT.exists() else {}
    floor = json.loads(FLOOR.read_text())
    keys = args.cases or sorted(floor, key=lambda k: (_order(floor[k]["dataset"]),
                                                      floor[k]["fold"]))
    for key in keys:
        name = f"{key}:{args.pricing}"
        if name in done and not args.force:
            continue
        entry = run_case(floor[key], args.pricing, args.budget, args.mirror)
        save(name, entry, OUT)
        print(f"{name}: bound {entry['bound']:.3f} ({entry['kind']}; pricing "
              f"{entry['status']}, closure {entry['closure_status'] or '-'} over "
              f"{entry['closure_columns']} columns), {entry['cpu_seconds']:.0f} CPU s; "
              + ", ".join(f"{k} {v:.2f}" for k, v in entry["rules"].items()), flush=True)


if __name__ == "__main__":
    main()
