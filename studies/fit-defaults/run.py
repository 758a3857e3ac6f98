"""Do ``rulelearn fit``'s defaults hold beyond the paper? Held-out accuracy against CART.

For each dataset: a stratified 70/30 train/test split (seed 0; ``--seeds N`` repeats it with seeds
0..N-1 and reports the means, since one split of a small dataset is noisy). On the training part,
:func:`rulelearn.model_selection.select_setting` runs the whole grid (2 forms x R in 1, 3, 5, 10 x
8 θ, 5-fold stratified CV, BCD); :func:`~rulelearn.model_selection.walk_unused` replays from it
what ``fit`` tries by default (R grows while it is used up), so the chosen setting's CV error can
be set against the best grid point's in hindsight. The chosen setting is refitted on the training
part and scored on the test part, next to a depth-tuned CART (``GridSearchCV`` over max_depth
1..12, 5-fold) and the majority-class rate. The one-SEM rule's choice (the simplest row within one
SEM of the best) is scored too, for comparison.

``--finer N`` (an experiment, not what ``fit`` does): then N quantile thresholds per numeric
column are tried as well, at the (form, R) chosen with 10, over the same θ and folds
(:func:`~rulelearn.model_selection.refine_thresholds`); the table then has that choice's test
accuracy (``fit %``, ``fit - CART``, ``chosen``, ``t=`` its thresholds) beside fit's own with 10
(``10 thresholds only``), and what ``fit``'s CV spends on the (form, R) its walk tries (from the
per-fold progress calls) plus what the finer thresholds add.

Run: ``RULELEARN_MIRROR=../shared/uci python studies/fit-defaults/run.py [NAME ...]``
(without the mirror the paper's datasets are skipped). Writes a markdown table to stdout and,
with ``--out FILE``, to FILE.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets as D  # noqa: E402
from rulelearn.estimator import BooleanRuleClassifier  # noqa: E402
from rulelearn.model_selection import (  # noqa: E402
    _choose_row,
    refine_thresholds,
    select_setting,
    walk_unused,
)

UCI = ["wdbc", "pima", "ionosphere", "sonar", "liver", "transfusion", "parkinsons", "ilpd"]
LOCAL = {
    "breast_cancer (sklearn)": D.sklearn_breast_cancer,
    "wine class 0 (sklearn)": D.sklearn_wine_class0,
    "digits 0 vs rest (sklearn)": D.sklearn_digits_0_vs_rest,
    "planted DNF 8x2, 5 % noise": D.planted_dnf,
    "planted CNF 3x3 (67 % pos.), 5 % noise": D.planted_cnf,
    "planted CNF 3x3 (19 % pos.), 5 % noise": lambda: D.planted_cnf(cut=0.75),
    "one-hot OR of 8 3-terms, no noise": lambda: D.onehot_terms(noise=0.0),
    "one-hot OR of 8 3-terms, 5 % noise": D.onehot_terms,
    "XOR of 3 thresholds, 5 % noise": D.xor_like,
}


def cart(X_train, y_train, X_test, y_test):
    """Depth-tuned CART on one-hot encoded features (NaN handled by the tree itself)."""
    both = pd.get_dummies(pd.concat([X_train, X_test]), dtype=float)
    A, B = both.iloc[:len(X_train)], both.iloc[len(X_train):]
    search = GridSearchCV(DecisionTreeClassifier(random_state=0),
                          {"max_depth": list(range(1, 13))},
                          cv=StratifiedKFold(5, shuffle=True, random_state=0))
    search.fit(A, y_train)
    return float(search.score(B, y_test)), search.best_params_["max_depth"]


def one_sem(selection):
    """Index of the simplest row within one SEM of the lowest mean CV error."""
    best = min(range(len(selection.rows)), key=lambda i: selection.rows[i].mean_error)
    limit = selection.rows[best].mean_error + selection.rows[best].sem
    within = [i for i, r in enumerate(selection.rows) if r.mean_error <= limit + 1e-12]
    # the simplest among them: the tie rule's order, applied as if they were all tied
    flat = [dataclasses.replace(selection.rows[i], mean_error=0.0) for i in within]
    return within[_choose_row(flat, range(len(flat)))]


def evaluate(name, X, y, start="best", seed=0, finer=None):
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=seed)
    estimator = BooleanRuleClassifier(pos_label=1, start=start)
    spent: dict = {}  # seconds per (form, R), from the progress calls after each fold
    clock = [time.perf_counter()]

    def progress(form, r, done, total, thresholds=None):
        now = time.perf_counter()
        spent[(form, r)] = spent.get((form, r), 0.0) + now - clock[0]
        clock[0] = now

    began = time.perf_counter()
    full = select_setting(estimator, X_train, y_train, skip_unused=False, progress=progress)
    grid_seconds = time.perf_counter() - began
    walked = walk_unused(full)
    chosen = walked.best
    model = BooleanRuleClassifier(pos_label=1, start=start, **chosen.setting).fit(X_train, y_train)
    extra = {}
    if finer is not None:
        began = time.perf_counter()
        refined = refine_thresholds(estimator, X_train, y_train, walked, (finer,))
        extra = {
            "walk_s": sum(spent[key] for key in {(r.form, r.max_rules) for r in walked.rows}),
            "refine_s": time.perf_counter() - began, "fit10": 100 * model.score(X_test, y_test),
        }
        chosen = refined.best
        model = BooleanRuleClassifier(pos_label=1, start=start, **chosen.setting).fit(X_train,
                                                                                      y_train)
    sem_row = full.rows[one_sem(full)]
    sem_model = BooleanRuleClassifier(pos_label=1, start=start, **sem_row.setting).fit(X_train,
                                                                                       y_train)
    cart_acc, depth = cart(X_train, y_train, X_test, y_test)
    majority = max(np.mean(y_test), 1 - np.mean(y_test))
    hindsight = min(r.mean_error for r in full.rows)
    return {
        "dataset": name, "rows": len(y), "cols": X.shape[1],
        "majority": 100 * majority, "cart": 100 * cart_acc, "depth": depth,
        "fit": 100 * model.score(X_test, y_test),
        "setting": f"{chosen.form.upper()} R={chosen.max_rules} θ={chosen.theta:.3g}"
                   + (f" t={chosen.n_thresholds}" if finer is not None else ""),
        "literals": model.rule_.n_literals,
        "cv_chosen": 100 * chosen.mean_error, "cv_best": 100 * hindsight,
        "tried": f"{len({(r.form, r.max_rules) for r in walked.rows})}/8",
        "one_sem": 100 * sem_model.score(X_test, y_test),
        "grid_s": grid_seconds, **extra,
    }


HEADER = ("| dataset | rows x cols | majority % | CART % (depth) | fit % | fit - CART | "
          "chosen (literals) | CV err chosen / best % | (form, R) tried | 1-SEM fit % | "
          "full grid s |\n|---|---|---|---|---|---|---|---|---|---|---|")


FINER_HEADER = ("| dataset | rows x cols | majority % | CART % (depth) | fit % | fit - CART | "
                "10 thresholds only: fit % | chosen (literals) | CV err chosen / best of the "
                "10-grid % | (form, R) tried | 1-SEM fit % | full grid s | fit's CV s: "
                "10-walk + finer |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def line(r):
    finer = "fit10" in r
    return (f"| {r['dataset']} | {r['rows']} x {r['cols']} | {r['majority']:.1f} | "
            f"{r['cart']:.1f} ({r['depth']}) | {r['fit']:.1f} | {r['fit'] - r['cart']:+.1f} | "
            + (f"{r['fit10']:.1f} | " if finer else "")
            + f"{r['setting']} ({r['literals']}) | {r['cv_chosen']:.1f} / {r['cv_best']:.1f} | "
            f"{r['tried']} | {r['one_sem']:.1f} | {r['grid_s']:.0f} |"
            + (f" {r['walk_s']:.0f} + {r['refine_s']:.0f} |" if finer else ""))


SEEDS_HEADER = ("| dataset | splits | CART % | fit % | fit - CART, mean (SEM) | "
                "fit - CART per split | majority % |\n|---|---|---|---|---|---|---|")
FINER_SEEDS_HEADER = ("| dataset | splits | CART % | fit % | fit - CART, mean (SEM) | "
                      "fit - CART per split | 10 thresholds only: fit % | thresholds chosen | "
                      "fit's CV s: 10-walk + finer | majority % |"
                      "\n|---|---|---|---|---|---|---|---|---|---|")


def _mean_sem(values):
    values = np.asarray(values, dtype=float)
    sem = values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return float(values.mean()), float(sem)


def seeds_line(name, results):
    """One row over several train/test splits: means with their SEM, and each split's gap."""
    cart, fit = _mean_sem([r["cart"] for r in results]), _mean_sem([r["fit"] for r in results])
    gaps = [r["fit"] - r["cart"] for r in results]
    gap = _mean_sem(gaps)
    return (f"| {name} | {len(results)} | {cart[0]:.1f} ({cart[1]:.1f}) | {fit[0]:.1f} "
            f"({fit[1]:.1f}) | {gap[0]:+.1f} ({gap[1]:.1f}) | "
            f"{', '.join(f'{g:+.1f}' for g in gaps)} | "
            + (f"{np.mean([r['fit10'] for r in results]):.1f} | "
               f"{', '.join(r['setting'].rsplit('t=', 1)[1] for r in results)} | "
               f"{np.mean([r['walk_s'] for r in results]):.0f} + "
               f"{np.mean([r['refine_s'] for r in results]):.0f} | "
               if "fit10" in results[0] else "")
            + f"{np.mean([r['majority'] for r in results]):.1f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="datasets to run (default: all)")
    parser.add_argument("--out", help="also write the markdown table here")
    parser.add_argument("--start", default="best", choices=("sc", "tree", "best"),
                        help="where BCD starts (fit's default: best)")
    parser.add_argument("--seeds", type=int, default=1,
                        help="repeat the 70/30 split with seeds 0..N-1 and report means (SEM)")
    parser.add_argument("--finer", type=int, default=None, metavar="N",
                        help="also try N thresholds at the chosen form and R (an experiment)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", message="dropped .* constant or empty column")
    jobs = [(n, lambda n=n: D.uci(n)) for n in UCI] if os.environ.get("RULELEARN_MIRROR") else []
    jobs += list(LOCAL.items())
    if args.names:
        jobs = [(n, f) for n, f in jobs if any(a in n for a in args.names)]
    if args.finer is None:
        header = HEADER if args.seeds == 1 else SEEDS_HEADER
    else:
        header = FINER_HEADER if args.seeds == 1 else FINER_SEEDS_HEADER
    print(header, flush=True)
    lines = [header]
    for name, load in jobs:
        X, y = load()
        if args.seeds == 1:
            lines.append(line(evaluate(name, X, y, args.start, finer=args.finer)))
        else:
            lines.append(seeds_line(name, [evaluate(name, X, y, args.start, seed, args.finer)
                                           for seed in range(args.seeds)]))
        print(lines[-1], flush=True)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
