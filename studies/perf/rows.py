"""Rows benchmark (``make perf``'s rows section, ``python studies/perf/rows.py``): how fit's cost
grows with the number of rows, on a generated table (:mod:`rows_data`: 14 numeric and 6
categorical columns, a three-term DNF with 5 % of the labels flipped).

For each size (10k, 100k, 1M rows by default): the table is written to a CSV file, then each
measurement runs in a fresh process that reads the file and fits:

- ``one setting``: ``BooleanRuleClassifier(form="dnf", max_rules=5, theta=1, start="best")``,
  what ``rulelearn fit --form dnf -R 5 --theta 1`` fits;
- ``default fit``: :func:`rulelearn.model_selection.fit_select` with ``rulelearn fit``'s
  defaults (2 forms x R in 1, 3, 5, 10 x 8 θ, 5-fold CV, start "best", every core; the
  workers started once the CSV is read, before the fit's imports, as ``rulelearn fit``
  starts them);
- ``CART``: scikit-learn's ``DecisionTreeClassifier(max_depth=6)`` on the one-hot table, for a
  ratio.

- ``predict``: ``rulelearn predict model.json rows.csv -o out.csv`` on the largest table (the
  CSV read and the CSV written included), the model fitted with the one setting on 10,000 rows.

Per measurement: wall seconds, CPU seconds (user + system of the process and the worker
processes it waited for; with ``--default-only`` also the measured process's own, which on a
loaded machine tracks the idle wall time better than the wall does: this process runs fold
jobs whenever it is not waiting, then the refit), peak RSS of the largest process, LPs and
simplex iterations (the final fit's), training accuracy. The fitted growth exponent (time ~
rows^k) is given between consecutive sizes. Writes its section of ``results/perf/perf.md``.
Not a test: nothing here asserts a time. ``--quick``: 10k and 100k only, no default fit on 1M.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))

HEADING = "## Rows: fit's cost on a generated table"
CENSUS_HEADING = "## Rows: the default fit on a census-shaped table"
DEFAULT_HEADING = "## Rows: the default fit at 5,000, 32,561 (census shape) and 100,000 rows"
PREDICT_HEADING = "## Rows: predict on 1,000,000 rows"
DEFAULT_ONLY_SIZES = (5_000, "census", 100_000)
SIZES = (10_000, 100_000, 1_000_000)
DEFAULT_FIT_SIZES = (10_000, 100_000)  # the default fit on 1M: with --default-sizes
KINDS = ("one setting", "default fit", "CART")


def _measure(kind: str, path: str, methods: str = "bcd") -> dict:
    """In the measured process: read ``path``, fit, return the figures of the fit
    (``methods``: the learner, or several comma-separated for the default fit's CV to choose
    among, as ``rulelearn fit --method``)."""
    import pandas as pd

    start = time.perf_counter()
    frame = pd.read_csv(path)
    X, y = frame.drop(columns="label"), frame["label"]
    out: dict = {}
    if kind == "default fit":  # as rulelearn fit: once the data are read, before the imports
        from rulelearn._workers import start as start_workers

        start_workers(-1)
    if kind == "CART":
        from sklearn.tree import DecisionTreeClassifier

        onehot = pd.get_dummies(X, dtype=np.uint8)
        tree = DecisionTreeClassifier(max_depth=6, random_state=0).fit(onehot, y)
        out["accuracy"] = float(tree.score(onehot, y))
    else:
        from rulelearn.estimator import BooleanRuleClassifier

        own, *more = methods.split(",")
        estimator = BooleanRuleClassifier(method=own, start="best", pos_label="yes")
        if kind == "one setting":
            model = estimator.set_params(form="dnf", max_rules=5, theta=1.0).fit(X, y)
        else:
            from rulelearn._workers import stop as stop_workers
            from rulelearn.model_selection import fit_select

            model, selection = fit_select(estimator, X, y, n_jobs=-1, more_methods=tuple(more))
            stop_workers()  # workers reaped: their CPU counted
            per_row = " per row" if selection.theta_scale == "rows" else ""
            out["setting"] = f"{selection.best.form} R={selection.best.max_rules} " \
                             f"θ={selection.best.theta:.3g}{per_row}" \
                             + (f" {model.method}" if more else "")
        stats = model.fit_stats_
        out.update(accuracy=float(model.score(X, y)), LPs=stats["n_lp"],
                   iterations=stats["simplex_iterations"], objective=stats["objective"],
                   lp_rows=stats["lp_rows"], literals=model.rule_.n_literals)
    out["wall"] = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF)
    out["own cpu"] = own.ru_utime + own.ru_stime  # this process's: the CV's critical path
    return out


def measure(kind: str, path: str, methods: str = "bcd") -> dict:
    """One measurement in a fresh process: its figures plus CPU seconds and peak RSS."""
    process = subprocess.Popen([sys.executable, __file__, "--measure", kind, path,
                                "--method", methods],
                               stdout=subprocess.PIPE, env=os.environ.copy())
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise RuntimeError(f"{kind} on {path} failed (status {status})")
    figures = json.loads(output.decode().strip().splitlines()[-1])
    figures["cpu"] = usage.ru_utime + usage.ru_stime
    figures["peak MiB"] = usage.ru_maxrss / 1024  # the largest process of the tree
    return figures


def measure_command(command: list[str]) -> dict:
    """Wall and CPU seconds (user + system) and peak RSS of ``command`` in a fresh process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=os.environ.copy())
    assert process.stderr is not None
    error = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {error.decode()[-500:]}")
    return {"wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
            "peak MiB": usage.ru_maxrss / 1024}


def predict_row(folder: str, path: str, n_rows: int) -> dict:
    """``rulelearn predict`` on ``path`` (``n_rows`` rows) with the one setting's model of the
    10,000-row table (fitted first, not timed)."""
    from rows_data import write_table

    small = os.path.join(folder, "rows10000.csv")
    if not os.path.exists(small):
        write_table(small, 10_000)
    model = os.path.join(folder, "model.json")
    cli = [sys.executable, "-m", "rulelearn.cli"]
    subprocess.run(cli + ["fit", small, "--form", "dnf", "-R", "5", "--theta", "1", "-p", "yes",
                          "-q", "-s", model], check=True, stdout=subprocess.DEVNULL)
    figures = measure_command(cli + ["predict", model, path, "-o",
                                     os.path.join(folder, "predicted.csv")])
    return {"rows": n_rows, "what": "predict", "wall s": round(figures["wall"], 1),
            "CPU s": round(figures["cpu"], 1), "peak MiB": round(figures["peak MiB"])}


def exponents(rows, kind: str, key: str) -> list[str]:
    """``a→b: k`` for consecutive sizes of ``kind``: time ~ rows^k."""
    points = [(r["rows"], r[key]) for r in rows if r["what"] == kind]
    return [f"{a:,}→{b:,}: {np.log(tb / ta) / np.log(b / a):.2f}"
            for (a, ta), (b, tb) in zip(points, points[1:]) if ta > 0 and tb > 0]


def run(sizes, default_sizes, folder) -> list[dict]:
    from rows_data import write_table

    rows = []
    for n in sizes:
        path = os.path.join(folder, f"rows{n}.csv")
        if not os.path.exists(path):
            write_table(path, n)
        for kind in KINDS:
            if kind == "default fit" and n not in default_sizes:
                continue
            figures = measure(kind, path)
            row = {"rows": n, "what": kind, "wall s": round(figures["wall"], 1),
                   "CPU s": round(figures["cpu"], 1), "peak MiB": round(figures["peak MiB"]),
                   "LPs": figures.get("LPs", ""), "iterations": figures.get("iterations", ""),
                   "training %": round(100 * figures["accuracy"], 2),
                   "literals": figures.get("literals", ""),
                   "LP rows": ",".join(map(str, figures.get("lp_rows", []))),
                   "setting": figures.get("setting", "")}
            rows.append(row)
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        if n == max(sizes):
            rows.append(predict_row(folder, path, n))
            print(rows[-1], flush=True)
    return rows


def render(rows, seconds: float) -> str:
    lines = [HEADING, "",
             f"`python studies/perf/rows.py` ({seconds:.0f} s wall in all; CPU seconds are user + "
             f"system of the measured process and its worker processes; peak RSS is the "
             f"largest process's). Table: `studies/perf/rows_data.py` (seed 0). One setting: "
             f"BCD, start best, DNF, R = 5, θ = 1; default fit: `rulelearn fit`'s CV grid on "
             f"every core; CART: depth 6 on the one-hot table; predict: `rulelearn predict` of "
             f"the one setting's model (fitted on 10,000 rows) on the largest table, the CSV "
             f"read and written.", "",
             tabulate(rows, headers="keys", tablefmt="github"), ""]
    for kind in ("one setting", "CART"):
        for key in ("CPU s", "wall s"):
            growth = exponents(rows, kind, key)
            if growth:
                lines.append(f"- {kind}, {key} ~ rows^k: " + "; ".join(growth))
    by = {(r["rows"], r["what"]): r for r in rows}
    ratios = [f"{n:,}: {by[(n, 'one setting')]['CPU s'] / max(by[(n, 'CART')]['CPU s'], 1e-9):.1f}x"
              for n in sorted({r["rows"] for r in rows})
              if (n, "one setting") in by and (n, "CART") in by]
    if ratios:
        lines.append("- one setting / CART, CPU s: " + "; ".join(ratios))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None,
                        help="rows of the tables, comma-separated (default: 10000,100000,"
                             "1000000; with --default-only: 5000,census,100000, where "
                             "'census' is the census-shaped table)")
    parser.add_argument("--default-sizes", default=",".join(map(str, DEFAULT_FIT_SIZES)),
                        help="the sizes at which the default fit (CV) is measured too")
    parser.add_argument("--quick", action="store_true", help="10k and 100k rows only")
    parser.add_argument("--census", action="store_true",
                        help="only the default fit and CART on a generated table of the census "
                             "(Adult) shape, 32,561 rows (its own section)")
    parser.add_argument("--default-only", action="store_true",
                        help="only the default fit, on the 5,000- and 100,000-row tables and "
                             "the census-shaped one, or on --sizes (its own section)")
    parser.add_argument("--predict-only", action="store_true",
                        help="only `rulelearn predict` on the largest of --sizes (its own "
                             "section)")
    parser.add_argument("--data", default=None, help="folder for the CSV files (kept)")
    parser.add_argument("--output", default="results/perf/perf.md")
    parser.add_argument("--method", default="bcd",
                        help="with --default-only: the learner, or several comma-separated "
                             "for the CV to choose among (bcd,cg), as rulelearn fit --method")
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "CSV"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.default_only:
        try:
            args.default_sizes_only = _default_only_sizes(args.sizes)
        except ValueError:
            parser.error(f"--sizes must be row counts or 'census', comma-separated; "
                         f"got {args.sizes!r}")
    args.sizes = args.sizes or ",".join(map(str, SIZES))
    if args.measure:
        print(json.dumps(_measure(*args.measure, methods=args.method)))
        return
    if args.census:
        _census(args)
        return
    if args.default_only:
        _default_only(args)
        return
    if args.predict_only:
        _predict_only(args)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.quick:
        sizes = [n for n in sizes if n <= 100_000]
    default_sizes = {int(s) for s in args.default_sizes.split(",") if s}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        rows = run(sizes, default_sizes, args.data or scratch)
    from perf import _write_section

    _write_section(args.output, HEADING, render(rows, time.perf_counter() - start))


def _census(args) -> None:
    from perf import _write_section
    from rows_data import CENSUS_ROWS, make_census

    start = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(args.data or scratch, "census.csv")
        if not os.path.exists(path):
            make_census().to_csv(path, index=False)
        for kind in ("default fit", "CART"):
            figures = measure(kind, path)
            rows.append({"rows": CENSUS_ROWS, "what": kind, "wall s": round(figures["wall"], 1),
                         "CPU s": round(figures["cpu"], 1),
                         "peak MiB": round(figures["peak MiB"]),
                         "training %": round(100 * figures["accuracy"], 2),
                         "literals": figures.get("literals", ""),
                         "setting": figures.get("setting", "")})
            print(rows[-1], flush=True)
    text = "\n".join([CENSUS_HEADING, "", f"`python studies/perf/rows.py --census` "
                      f"({time.perf_counter() - start:.0f} s wall): `rows_data.make_census` "
                      f"(6 integer, 8 categorical columns of 2-42 levels), figures as above.", "",
                      tabulate(rows, headers="keys", tablefmt="github"), ""])
    _write_section(args.output, CENSUS_HEADING, text + "\n")


def _predict_only(args) -> None:
    from perf import _write_section
    from rows_data import write_table

    n = max(int(size) for size in args.sizes.split(","))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.data or scratch
        path = os.path.join(folder, f"rows{n}.csv")
        if not os.path.exists(path):
            write_table(path, n)
        row = predict_row(folder, path, n)
    print(row, flush=True)
    text = "\n".join([PREDICT_HEADING, "", f"`python studies/perf/rows.py --predict-only` "
                      f"({time.perf_counter() - start:.0f} s wall): `rulelearn predict model.json "
                      f"rows.csv -o out.csv`, the one setting's model fitted on 10,000 rows "
                      f"(not timed), the CSV read and written.", "",
                      tabulate([row], headers="keys", tablefmt="github"), ""])
    _write_section(args.output, PREDICT_HEADING, text + "\n")


def _default_only_sizes(sizes: str | None) -> tuple:
    """The tables of ``--default-only``: :data:`DEFAULT_ONLY_SIZES`, or those of ``--sizes``
    (row counts, or "census"); ValueError for anything else."""
    if sizes is None:
        return DEFAULT_ONLY_SIZES
    tables = tuple(s.strip() if s.strip() == "census" else int(s) for s in sizes.split(","))
    if not tables or any(isinstance(t, int) and t < 10 for t in tables):
        raise ValueError(sizes)
    return tables


def _default_only(args) -> None:
    from perf import _write_section
    from rows_data import make_census, write_table

    start = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for size in args.default_sizes_only:
            path = os.path.join(args.data or scratch, f"rows{size}.csv")
            if not os.path.exists(path):
                if size == "census":
                    make_census().to_csv(path, index=False)
                else:
                    write_table(path, int(size))
            figures = measure("default fit", path, args.method)
            rows.append({"table": "census shape, 32,561" if size == "census" else f"{size:,}",
                         **({"method": args.method} if args.method != "bcd" else {}),
                         "wall s": round(figures["wall"], 1), "CPU s": round(figures["cpu"], 1),
                         "of which this process": round(figures["own cpu"], 1),
                         "peak MiB": round(figures["peak MiB"]),
                         "training %": round(100 * figures["accuracy"], 2),
                         "literals": figures.get("literals", ""),
                         "setting": figures.get("setting", "")})
            print(rows[-1], flush=True)
    text = "\n".join([DEFAULT_HEADING, "", f"`python studies/perf/rows.py --default-only` "
                      f"({time.perf_counter() - start:.0f} s wall): `rulelearn fit`'s default "
                      f"CV (θ per row; every (form, R) on one fold from both starts, the best "
                      f"two on all five from the start that won there, at the θ near the "
                      f"first fold's choices; above 20,000 rows on a 5,000-row sample from "
                      f"the tree start) and the refit on every row, on every core; figures "
                      f"as above.",
                      "", tabulate(rows, headers="keys", tablefmt="github"), ""])
    _write_section(args.output, DEFAULT_HEADING, text + "\n")


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
