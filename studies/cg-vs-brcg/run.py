"""cg against AIX360's BRCG on the same outer folds: results/cg-brcg against results/brcg.

    python studies/cg-vs-brcg/run.py [CG_RESULTS] [BRCG_RESULTS] > studies/cg-vs-brcg/README.md

Test error of cg minus BRCG's, paired over the outer folds both finished (mean and its standard
error), and the mean literals of each; then the CPU seconds per unit measured apart
(studies/cg-vs-brcg/cg_unit_cpu.json: the records' wall seconds depend on the machine's load; its
"cg_before" holds the previous cg's or the previous θ grid's, measured in the same session).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from rulelearn.bench.records import scan_records


def ok_records(folder: str, method: str) -> dict:
    """(dataset, fold) -> the last ok record of ``method`` in ``folder``."""
    loaded, _ = scan_records(f"{folder}/records.jsonl")
    out = {}
    for rec in loaded:
        if rec.ok and rec.raw.get("method") == method:
            out[(rec.dataset, rec.fold)] = rec
    return out


def main(cg_folder: str = "results/cg-brcg", brcg_folder: str = "results/brcg") -> None:
    cg, brcg = ok_records(cg_folder, "cg"), ok_records(brcg_folder, "brcg")
    print("| Dataset | folds | cg error % | BRCG error % | cg − BRCG (SEM) | literals cg / BRCG |")
    print("|---|---|---|---|---|---|")
    for dataset in dict.fromkeys(d for d, _ in cg):
        folds = sorted(k for d, k in cg if d == dataset and (d, k) in brcg)
        if not folds:
            continue
        a = np.array([cg[dataset, k].test_error for k in folds]) * 100
        b = np.array([brcg[dataset, k].test_error for k in folds]) * 100
        diff = a - b
        sem = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
        lits = [np.mean([r[dataset, k].literals for k in folds]) for r in (cg, brcg)]
        print(f"| {dataset} | {len(folds)} | {a.mean():.1f} | {b.mean():.1f} | "
              f"{diff.mean():+.1f} ({sem:.1f}) | {lits[0]:.1f} / {lits[1]:.1f} |")
    cpu = json.loads((Path(__file__).parent / "cg_unit_cpu.json").read_text())
    before = cpu.get("cg_before", {})  # the previous cg, measured beside it
    print(f"\nCPU seconds per unit ({cpu['what']}):\n")
    print("| Dataset | cg | cg before | BRCG | BRCG / cg |")
    print("|---|---|---|---|---|")
    for dataset, seconds in cpu["cg"].items():
        other = cpu["brcg"].get(dataset)
        ratio = f"{other / seconds:.1f}x" if other else "not measured"
        earlier = f"{before[dataset]:.1f}" if dataset in before else "-"
        print(f"| {dataset} | {seconds:.1f} | {earlier} | {other if other else '-'} | {ratio} |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
