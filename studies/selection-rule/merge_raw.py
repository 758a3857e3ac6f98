"""Merge ``select_rule.py --raw`` files fold by fold, for ``public_front.py --select-raw``.

    python studies/selection-rule/merge_raw.py OUT.json IN.json [IN.json ...]
        [--base-from FILE.json] [--as-base VARIANT ...]

``--base-from``: base's columns (and CPU) only, from an earlier run (e.g. round 2's
``levers_cuts.json``, whose base is results/public's fit), for the tables not run again.
Rows are matched by (table, fold); a column two files both hold must agree (base's columns
are deterministic: the same folds, seeds and CV), else the merge stops naming it.
``--as-base VARIANT`` copies base's columns as VARIANT's on the folds that lack them: only
for a variant that is base by construction there (``autosum`` on a table with no two numeric
columns sharing a name suffix, ``sum`` on a table with no ``TABLE_SUMS`` entry), so that the
front is scored over every table.
"""

from __future__ import annotations

import argparse
import json
import os


def _base_keys(row: dict) -> list[str]:
    return [k for k in row if ":" not in k and "|" not in k
            and k.endswith(("_error", "_literals", "_setting"))]


def is_base(variant: str, name: str) -> bool:
    """Whether ``variant`` is base by construction on table ``name`` (no derived columns)."""
    from run import TABLE_SUMS, suffix_sums

    from rulelearn.data import load_dataset

    if variant == "sum":
        return name not in TABLE_SUMS
    if variant == "autosum":
        return not suffix_sums(load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR")).X)
    raise SystemExit(f"--as-base: {variant} is not base by construction anywhere")


def merge(paths: list[str], as_base: list[str], base_from: str | None = None) -> list[dict]:
    merged: dict[tuple, dict] = {}
    for path in ([base_from] if base_from else []) + paths:
        with open(path) as f:
            rows = json.load(f)
        if path == base_from:
            rows = [{k: v for k, v in r.items() if k in ("name", "fold", "cpu")
                     or k in _base_keys(r)} for r in rows]
        for row in rows:
            key = (row["name"], row["fold"])
            into = merged.setdefault(key, {})
            for k, v in row.items():
                if k in into and k.endswith(("_error", "_literals")) and into[k] != v:
                    raise SystemExit(f"{path}: {key} {k} is {v}, another file has {into[k]}")
                into.setdefault(k, v)
    for row in merged.values():
        for variant in as_base:
            if not is_base(variant, row["name"]):
                continue
            for k in _base_keys(row):
                row.setdefault(f"{variant}:{k}", row[k])
                row.setdefault(f"base|{variant}:{k}", row[k])
    return list(merged.values())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--as-base", nargs="*", default=[])
    parser.add_argument("--base-from")
    args = parser.parse_args(argv)
    rows = merge(args.inputs, args.as_base, args.base_from)
    with open(args.out + ".tmp", "w") as f:
        json.dump(rows, f, indent=1)
    os.replace(args.out + ".tmp", args.out)
    print(f"{args.out}: {len(rows)} folds of {len({r['name'] for r in rows})} tables")


if __name__ == "__main__":
    main()
