"""Does column generation make ``rulelearn fit``'s rules beat more peers? (issue 25, round 5)

    python studies/cg-as-learner/run.py --bench fit=results/public --bench fit-cg=DIR \\
        --bench bcd+cg=DIR [--cpu fit=DIR] [--raw-large FILE.json] [--out FILE.json]
    python studies/cg-as-learner/run.py --from-json studies/cg-as-learner/levers5.json

Three variants of ``fit`` on the outer folds of configs/public.yaml: ``fit`` (its defaults,
BCD), ``fit-cg`` (``method: cg``, all else default) and ``bcd+cg`` (both learners' searches
on the same inner folds, the CV choosing among all their rows: ``fit --method bcd,cg``).

``--bench NAME=DIR``: a ``rulelearn bench`` folder whose ``fit`` records are variant NAME
(a scratch copy of configs/public.yaml with one ``fit`` entry, run table by table under
``/usr/bin/time -f "TABLE %U %S %e" -a -o DIR/cpu.txt``, so that ``cpu.txt`` holds each
table's CPU seconds, children included: per unit, a fifth). ``--cpu NAME=DIR``: take NAME's
CPU from that folder's ``cpu.txt`` (a rerun of the same config). ``--raw-large``: a
``select_rule.py --variants base,cg --rules min,0.1pt --raw`` file, for the tables the bench
folders lack: its ``0.1pt+r`` is ``fit`` (the default rule and pruning floor), ``cg:0.1pt+r``
``fit-cg``, ``base|cg:0.1pt+r`` ``bcd+cg``; CPU per unit is its ``cpu`` (BCD's whole
``fit_select``, one process), ``cg:cpu``, and their sum.

Prints, per table, each variant's test error % / literals (means over the 5 outer folds) with
``**`` (on the peers' front, as ``public_front.py``: within 1 point of the most accurate
peer and at no more literals than the sparsest peer near it) or ``*`` (within 1 point only),
for ``bcd+cg`` on how many folds it chose CG's rule, and CPU seconds per unit; each
variant's score and mean error / literals; then each variant's test error minus ``fit``'s,
paired over the outer folds (mean (SEM)). The peers' cells are results/public's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
from pathlib import Path

import numpy as np

# the public-front study's scoring (its script is run.py, as here)
_spec = importlib.util.spec_from_file_location(
    "public_front", Path(__file__).resolve().parents[1] / "public-front" / "run.py")
_public_front = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_public_front)
front = _public_front.front

NAMES = ("fit", "fit-cg", "bcd+cg")


def bench_folds(folder: str) -> dict:
    """(table, fold) -> {"error": %, "literals", "rule"} of ``folder``'s ok ``fit`` records."""
    out = {}
    with open(os.path.join(folder, "records.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            if rec["method"] == "fit" and rec["status"] == "ok":
                out[(rec["dataset"], rec["fold"])] = {
                    "error": 100 * rec["test_error"], "literals": rec["n_features"],
                    "rule": rec["rule"]}
    return out


def bench_cpu(folder: str) -> dict[str, float]:
    """table -> CPU seconds (user + system) per unit, from ``folder/cpu.txt`` (5 units per
    table; a table's last complete line)."""
    path = os.path.join(folder, "cpu.txt")
    out: dict[str, float] = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 4:
                    out[parts[0]] = (float(parts[1]) + float(parts[2])) / 5
    return out


def raw_folds(path: str) -> tuple[dict, dict]:
    """Per variant, (table, fold) -> figures, and per variant, table -> CPU s per unit, from a
    ``select_rule.py --variants base,cg`` raw file (tables with all 5 folds only)."""
    with open(path) as f:
        rows = json.load(f)
    tags = {"fit": "0.1pt+r", "fit-cg": "cg:0.1pt+r", "bcd+cg": "base|cg:0.1pt+r"}
    folds: dict = {n: {} for n in NAMES}
    cpu: dict = {n: {} for n in NAMES}
    for name in dict.fromkeys(r["name"] for r in rows):
        part = [r for r in rows if r["name"] == name]
        if len(part) != 5:
            continue
        for n, tag in tags.items():
            for r in part:
                folds[n][(name, r["fold"])] = {
                    "error": r[f"{tag}_error"], "literals": r[f"{tag}_literals"],
                    "cg": r[f"{tag.removesuffix('+r')}_setting"][0] == "cg"}
        cpu["fit"][name] = float(np.mean([r["cpu"] for r in part]))
        cpu["fit-cg"][name] = float(np.mean([r["cg:cpu"] for r in part]))
        cpu["bcd+cg"][name] = cpu["fit"][name] + cpu["fit-cg"][name]
    return folds, cpu


def gather(benches: dict, cpus: dict, raw_large: str | None):
    """Per variant: (table, fold) -> figures (``cg``: whether bcd+cg's rule is CG's), and
    table -> CPU s per unit."""
    folds = {n: bench_folds(d) for n, d in benches.items()}
    cpu = {n: bench_cpu(cpus.get(n, d)) for n, d in benches.items()}
    if "bcd+cg" in folds:  # which learner's rule bcd+cg refitted: the one its rule equals
        for key, figures in folds["bcd+cg"].items():
            cg = folds.get("fit-cg", {}).get(key, {}).get("rule")
            bcd = folds.get("fit", {}).get(key, {}).get("rule")
            figures["cg"] = figures["rule"] == cg and figures["rule"] != bcd
    if raw_large:
        more, more_cpu = raw_folds(raw_large)
        for n in NAMES:
            have = set(cells(folds.get(n, {})))  # tables with all 5 folds
            folds.setdefault(n, {}).update({k: v for k, v in more[n].items()
                                            if k[0] not in have})
            cpu.setdefault(n, {}).update({t: c for t, c in more_cpu[n].items()
                                          if t not in have or t not in cpu[n]})
    return folds, cpu


def from_json(path: str) -> tuple[dict, dict]:
    """The per-variant figures and CPU of an ``--out`` file, as :func:`gather` returns them."""
    with open(path) as f:
        doc = json.load(f)
    folds = {n: {(r["table"], r["fold"]): {k: v for k, v in r.items() if k not in ("table", "fold")}
                 for r in rows}
             for n, rows in doc["folds"].items()}
    return folds, doc["cpu_per_unit"]


def cells(folds: dict) -> dict[str, tuple[float, float]]:
    """table -> (mean test error %, mean literals) over the outer folds, all 5 done."""
    tables = dict.fromkeys(t for t, _ in folds)
    return {t: (float(np.mean([folds[(t, k)]["error"] for k in range(5)])),
                float(np.mean([folds[(t, k)]["literals"] for k in range(5)])))
            for t in tables if all((t, k) in folds for k in range(5))}


def comparison(public: str, folds: dict, cpu: dict) -> str:
    names = [n for n in NAMES if n in folds]
    fronts = {n: {r[0]: r for r in front(public, cells(folds[n]))} for n in names}
    tables = [r[0] for r in front(public) if all(r[0] in fronts[n] for n in names)]
    lines = ["| table | best peer | sparsest near | " + " | ".join(names) + " | CPU s / unit: "
             + ", ".join(names) + " |", "|---" * (4 + len(names)) + "|"]
    for t in tables:
        _, _, _, best, best_err, sparse, size, _, _ = fronts[names[0]][t]
        row = []
        for n in names:
            r = fronts[n][t]
            chose = ""
            if n == "bcd+cg":
                chose = f" (cg {sum(bool(folds[n][(t, k)].get('cg')) for k in range(5))}/5)"
            row.append(f"{r[1]:.1f} / {r[2]:.1f}" + ("**" if r[8] else "*" if r[7] else "")
                       + chose)
        spent = ", ".join(f"{cpu[n][t]:.1f}" if t in cpu.get(n, {}) else "-" for n in names)
        lines.append(f"| {t} | {_short(best)} {best_err:.1f} | {_short(sparse)} {size:.1f} | "
                     + " | ".join(row) + f" | {spent} |")
    score = " | ".join(f"{sum(fronts[n][t][8] for t in tables)} of {len(tables)}" for n in names)
    mean = " | ".join(f"{np.mean([fronts[n][t][1] for t in tables]):.2f} / "
                      f"{np.mean([fronts[n][t][2] for t in tables]):.2f}" for n in names)
    total = ", ".join(f"{5 * sum(cpu[n].get(t, np.nan) for t in tables):.0f}" for n in names)
    lines.append(f"| **on the front** | | | {score} | |")
    lines.append(f"| **mean error / literals** | | | {mean} | CPU s, all units: {total} |")
    return "\n".join(lines) + "\n\n" + paired(tables, names, folds)


def _short(method: str) -> str:
    """``FIGS`` for ``imodels.FIGSClassifier``."""
    return method.removeprefix("imodels.").removesuffix("Classifier")


def paired(tables, names, folds) -> str:
    """Markdown: per table, each variant's test error minus the first's, paired over the 5
    outer folds: mean (SEM), then the mean over the tables."""
    lines = ["| table | " + " | ".join(f"{n} - {names[0]}" for n in names[1:]) + " |",
             "|---" * len(names) + "|"]
    means: dict = {n: [] for n in names[1:]}
    for t in tables:
        cells_ = []
        for n in names[1:]:
            d = np.array([folds[n][(t, k)]["error"] - folds[names[0]][(t, k)]["error"]
                          for k in range(5)])
            means[n].append(d.mean())
            cells_.append(f"{d.mean():+.1f} ({d.std(ddof=1) / np.sqrt(len(d)):.1f})")
        lines.append(f"| {t} | " + " | ".join(cells_) + " |")
    lines.append("| **mean** | " + " | ".join(f"**{np.mean(means[n]):+.2f}**"
                                             for n in names[1:]) + " |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", action="append", default=[], help="NAME=DIR")
    parser.add_argument("--cpu", action="append", default=[], help="NAME=DIR")
    parser.add_argument("--raw-large", help="a select_rule.py --variants base,cg --raw file")
    parser.add_argument("--public", default="results/public")
    parser.add_argument("--out", help="write the per-fold figures and CPU to this JSON file")
    parser.add_argument("--from-json", help="tabulate an --out file again (levers5.json)")
    args = parser.parse_args(argv)
    if args.from_json:
        folds, cpu = from_json(args.from_json)
    else:
        benches = dict(v.split("=", 1) for v in args.bench)
        folds, cpu = gather(benches, dict(v.split("=", 1) for v in args.cpu), args.raw_large)
    print(comparison(args.public, folds, cpu))
    if args.out:
        doc = {"cpu_per_unit": cpu,
               "folds": {n: [{"table": t, "fold": k, **{f: v for f, v in fig.items()
                                                         if f != "rule"}}
                             for (t, k), fig in sorted(part.items())]
                         for n, part in folds.items()}}
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
