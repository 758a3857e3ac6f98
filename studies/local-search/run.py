"""How far iterated local search brings BCD toward the best rules known, and the gaps it leaves.

    python studies/local-search/run.py run [--cases pima:0 ...] [--rounds 30 100 300]
        [--mirror DIR]
    python studies/local-search/run.py table

On the 24 outer folds of the paper's eight small datasets in results/gaps and
results/gaps-large (3 outer folds, seed 0, 10 thresholds, DNF, R = 5, at the θ BCD from its
best start chose there), ``run`` fits on the fold's training part: BCD from its best start
(the better of the SC and tree starts), the same polished, the same polished then ``--rounds``
rounds of the iterated local search (``perturb``, :mod:`rulelearn.learners.perturb`), BCD
from the column-generation start, and that polished then searched for the most rounds, with
the CPU seconds of each fit. ``table`` compares each objective with the best rule known on
the fold (every rule here, the records' at the same θ, and on results/gaps' folds the
certificate-floor study's lp_floor.json's: column generation with exact pricing, its master
MIP and BCD from that, 100 to 350 CPU s a fold) and with the best lower bound known (the
records', lp_floor.json's and exact_bound.json's): ``(objective − bound) / objective`` is
the gap a certificate could show at best today, ``(objective − best known) / objective`` the
part of it that is the rule's own for certain (no bound can go above the best rule known).
Results go to local_search.json beside this script (one entry per case, written atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "certificate-floor"))
from lp_floor import BEST, R, fold_data, save  # noqa: E402

from rulelearn import certify as cert  # noqa: E402
from rulelearn.estimator import BooleanRuleClassifier  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE / "local_search.json"
FLOOR = HERE.parent / "certificate-floor" / "lp_floor.json"
EXACT = HERE.parent / "certificate-floor" / "exact_bound.json"
RESULTS = HERE.parents[1] / "results"
ORDER = ["transfusion", "parkinsons", "liver", "ilpd", "pima", "wdbc", "ionosphere", "sonar"]


def variants(rounds: list[int]) -> dict[str, dict]:
    out = {"bcd best": {"start": "best"}, "polished": {"start": "best", "polish": True}}
    for n in rounds:
        out[f"perturb {n}"] = {"start": "best", "polish": True, "perturb": n}
    out["bcd from cg"] = {"start": "cg"}
    if rounds:
        out[f"from cg, perturb {max(rounds)}"] = {"start": "cg", "polish": True,
                                                  "perturb": max(rounds)}
    return out


def cases() -> dict[str, dict]:
    """``dataset:fold`` -> its θ, and the best rule (``known``) and bound at that θ elsewhere."""
    out: dict[str, dict] = {}
    for folder in ("gaps", "gaps-large"):
        records = [json.loads(line) for line in
                   (RESULTS / folder / "records.jsonl").read_text().splitlines()]
        last = {(r["dataset"], r["label"], r["fold"]): r for r in records
                if r.get("status") == "ok"}
        for (dataset, label, fold), r in last.items():
            if label == BEST:
                out[f"{dataset}:{fold}"] = {"dataset": dataset, "fold": fold,
                                            "theta": float(r["theta"]),
                                            "known": float(r["objective"]), "bound": 0.0}
        for (dataset, label, fold), r in last.items():
            case = out.get(f"{dataset}:{fold}")
            if case and abs(float(r["theta"]) - case["theta"]) <= 1e-12 * case["theta"]:
                case["known"] = min(case["known"], float(r["objective"]))
                if r.get("certificate") and f"R={R}" in label:  # OCRL's bounds one clause
                    case["bound"] = max(case["bound"],
                                        float(r["certificate"]["lower_bound"]))
    for key, e in json.loads(FLOOR.read_text()).items():
        out[key]["known"] = min([out[key]["known"]]
                                + [r["objective"] for r in e["rules"].values()])
        out[key]["bound"] = max(out[key]["bound"], float(e["bound"]["bound"]))
    if EXACT.exists():
        for e in json.loads(EXACT.read_text()).values():
            key = f"{e['dataset']}:{e['fold']}"
            out[key]["bound"] = max(out[key]["bound"], float(e["bound"]))
    return out


def run_case(entry: dict, rounds: list[int], mirror: str | None) -> dict:
    """The objective and fit CPU seconds of each variant on the fold of ``entry``."""
    X, labels, positive = fold_data(entry["dataset"], entry["fold"], mirror)
    theta = float(entry["theta"])
    out: dict = {**entry, "rules": {}}
    for name, params in variants(rounds).items():
        cpu = time.process_time()
        clf = BooleanRuleClassifier(method="bcd", theta=theta, max_rules=R, n_thresholds=10,
                                    form="dnf", pos_label=positive, **params).fit(X, labels)
        seconds = time.process_time() - cpu
        A, y, terms = cert.estimator_problem(clf, X, labels)
        out["rules"][name] = {"objective": cert.rule_objective(A, y, terms, theta, max_rules=R),
                              "literals": int(sum(len(t) for t in terms)),
                              "fit_cpu_seconds": round(seconds, 2)}
    return out


def table(path: Path = OUT) -> str:
    data = json.loads(path.read_text())
    names = list(next(iter(data.values()))["rules"])
    names.sort(key=lambda n: (n.startswith("bcd from") + 2 * n.startswith("from"),
                              n != "bcd best", n != "polished",
                              int(n.split()[-1]) if n.split()[-1].isdigit() else 0))
    head = " | ".join(names)
    lines = [f"| dataset | fold | θ | best known | bound | {head} |",
             "|---" * (5 + len(names)) + "|"]
    sums = {name: [0.0, 0.0, 0.0] for name in names}  # gap to known, gap to bound, CPU s
    per_dataset: dict = {}  # dataset -> name -> [gaps to known], [gaps to the bound]
    for e in sorted(data.values(), key=lambda e: (ORDER.index(e["dataset"]), e["fold"])):
        known = min([e["known"]] + [r["objective"] for r in e["rules"].values()])
        bound = min(e["bound"], known)
        cells = []
        for name in names:
            r = e["rules"][name]
            to_known, to_bound = cert.gap(r["objective"], known), cert.gap(r["objective"], bound)
            sums[name][0] += to_known
            sums[name][1] += to_bound
            sums[name][2] += r["fit_cpu_seconds"]
            mine = per_dataset.setdefault(e["dataset"], {}).setdefault(name, ([], []))
            mine[0].append(to_known)
            mine[1].append(to_bound)
            cells.append(f"{r['objective']:.4g} ({100 * to_known:.1f} / {100 * to_bound:.1f}; "
                         f"{r['fit_cpu_seconds']:.1f} s)")
        lines.append(f"| {e['dataset']} | {e['fold']} | {e['theta']:g} | {known:.4g} "
                     f"| {bound:.4g} | " + " | ".join(cells) + " |")
    n = len(data)
    lines.append("| **mean** | | | | | " + " | ".join(
        f"**{100 * s[0] / n:.1f} / {100 * s[1] / n:.1f}; {s[2] / n:.1f} s**"
        for s in sums.values()) + " |")
    lines += ["", "Mean gap % per dataset, to the best rule known / to the best bound known:", "",
              f"| dataset | {head} |", "|---" * (1 + len(names)) + "|"]
    for dataset, by_name in per_dataset.items():
        lines.append(f"| {dataset} | " + " | ".join(
            f"{100 * sum(k) / len(k):.1f} / {100 * sum(b) / len(b):.1f}"
            for k, b in (by_name[name] for name in names)) + " |")
    return "\n".join(lines)



def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run", "table"])
    parser.add_argument("--cases", nargs="*", help="DATASET:FOLD (default: all)")
    parser.add_argument("--rounds", nargs="*", type=int, default=[30, 100, 300])
    parser.add_argument("--mirror", default=os.environ.get("RULELEARN_MIRROR"))
    args = parser.parse_args()
    if args.command == "table":
        print(table())
        return
    for key, entry in cases().items():
        if args.cases and key not in args.cases:
            continue
        result = run_case(entry, args.rounds, args.mirror)
        save(key, result, OUT)
        print(key, {name: (round(r["objective"], 2), r["fit_cpu_seconds"])
                    for name, r in result["rules"].items()}, flush=True)


if __name__ == "__main__":
    main()
