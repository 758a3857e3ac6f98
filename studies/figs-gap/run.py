"""What FIGS's models use that ``fit``'s rules do not, on the tables where FIGS leads.

On the outer folds of ``configs/public.yaml`` (:func:`rulelearn.bench.protocol.outer_folds`),
per training part, the peer as the benchmark runs it (:class:`rulelearn.bench.peers.
ImportedClassifier`: medians for missing numbers, one-hot categories) at the ``max_rules`` its
inner CV chose on most folds (20 on these tables):

* ``figs``: FIGS, max_rules 20 (a sum of trees; its score is their sum);
* ``one tree``: the same with ``max_trees=1``: 20 splits in one tree (no sum), which is a DNF
  of the positive leaves (what a rule of fit can write);
* ``figs 40``: twice the splits;
* per numeric split of ``figs``: whether ``fit``'s quantile cut points (10 per column) or the
  tree cut points (``cut_points="tree"``) split the training values the same way (``same
  cut``), and the number of trees;
* ``fit + sum``: with ``--sum NAME:A+B+...``, fit's default (``fit_select``, 3 inner folds,
  the benchmark's seed, 0.1pt, pruned) with the sum of those columns as one more column (a
  score that is a sum, which no literal reads); fit without it is ``select_rule.py``'s base
  ``0.1pt+p`` on the same folds.

Run: ``python studies/figs-gap/run.py [NAME ...] [--sum NAME:A+B+C]``; prints a markdown table
(test error %, mean over the 5 folds).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from rulelearn.bench.peers import ImportedClassifier
from rulelearn.bench.protocol import outer_folds, stable_seed
from rulelearn.binarize import numeric_thresholds, tree_thresholds
from rulelearn.data import load_dataset
from rulelearn.model_selection import fit_select, take_rows

TABLES = ("credit_data", "spam7", "mlc_churn", "wa_churn")


def figs(X, y, positive, seed, **params):
    model = ImportedClassifier(path="imodels.FIGSClassifier", pos_label=positive,
                               random_state=seed, params={"max_rules": 20, **params})
    return model.fit(X, y)


def splits(model):
    """(encoded column index, threshold) of every split of every tree of a fitted FIGS."""
    out, stack = [], list(model.model_.trees_)
    while stack:
        node = stack.pop()
        if node is None or getattr(node, "left", None) is None:
            continue
        out.append((int(node.feature), float(node.threshold)))
        stack.extend([node.left, node.right])
    return out


def same_cut(values, threshold, cuts) -> bool:
    """Whether one of ``cuts`` splits the (finite) training ``values`` as ``x <= threshold``."""
    distinct = np.unique(values[~np.isnan(values)])
    side = np.searchsorted(distinct, threshold, side="right")
    return bool(np.any(np.searchsorted(distinct, cuts, side="right") == side))


def one_fold(name, fold, train, test, sums):
    data = load_dataset(name)
    y = np.asarray(data.y)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    seed = stable_seed(0, name, "estimator", fold)
    out = {}

    def error(model, X=X_te):
        return 100 * float(np.mean(model.predict(X) != y[test]))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main = figs(X_tr, y[train], data.positive, seed)
        out["figs"] = error(main)
        out["train"] = 100 * float(np.mean(main.predict(X_tr) != y[train]))
        out["trees"] = len(main.model_.trees_)
        out["one tree"] = error(figs(X_tr, y[train], data.positive, seed, max_trees=1))
        out["figs 40"] = error(figs(X_tr, y[train], data.positive, seed, max_rules=40))
        numeric = main.encoder_.numeric
        positive = y[train] == data.positive
        found = {"quantile": [], "tree": []}
        for column, threshold in splits(main):
            if column >= len(numeric):
                continue  # a one-hot category: fit has x == v too
            values = X_tr[numeric[column]].to_numpy(dtype=float)
            found["quantile"].append(same_cut(values, threshold, numeric_thresholds(values, 10)))
            found["tree"].append(same_cut(values, threshold,
                                          tree_thresholds(values, positive, 10)))
        for kind, hits in found.items():
            out[f"same cut: {kind}"] = 100 * float(np.mean(hits)) if hits else float("nan")
        out["numeric splits"] = len(found["quantile"])
        if name in sums:
            from rulelearn.estimator import BooleanRuleClassifier

            columns = sums[name]
            for tag in ("fit + sum",):
                X_a, X_b = X_tr.copy(), X_te.copy()
                X_a["sum"] = X_a[columns].sum(axis=1)
                X_b["sum"] = X_b[columns].sum(axis=1)
                began = time.process_time()
                model, _ = fit_select(BooleanRuleClassifier(pos_label=data.positive,
                                                            start="best"),
                                      X_a, y[train], cv=3, seed=seed)
                out[f"{tag} CPU s"] = time.process_time() - began
                out[tag] = error(model, X_b)
                out[f"{tag} literals"] = model.rule_.n_literals
                out[f"{tag} rule"] = str(model.rule_)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=TABLES)
    parser.add_argument("--sum", action="append", default=[],
                        help="NAME:A+B+C: also fit with the sum of those columns (repeatable)")
    parser.add_argument("--folds", type=int, default=5, help="the first N outer folds")
    args = parser.parse_args(argv)
    sums = {}
    for spec in args.sum:
        name, _, columns = spec.partition(":")
        if not columns:
            parser.error(f"--sum must be NAME:A+B+...; got {spec!r}")
        sums[name] = columns.split("+")
    lines, rules = [], []
    for name in args.names:
        y = np.asarray(load_dataset(name).y)
        folds = outer_folds(y, 5, 0, name)[:args.folds]
        rows = [one_fold(name, i, tr, te, sums) for i, (tr, te) in enumerate(folds)]
        keys = [k for k in rows[0] if not k.endswith("rule")]
        if not lines:
            lines = ["| table | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
        lines.append(f"| {name} | " + " | ".join(
            f"{np.nanmean([r[k] for r in rows]):.1f}" for k in keys) + " |")
        rules += [f"{name} fold {i} {k}: {r[k]}" for i, r in enumerate(rows)
                  for k in r if k.endswith("rule")]
    print("\n".join(lines))
    if rules:
        print("\n" + "\n".join(rules))


if __name__ == "__main__":
    main()
