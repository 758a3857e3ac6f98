"""The certificate's lower bound with and without the ladder rows, on one outer fold.

    python studies/certificate-floor/ladder_bound.py DATASET FOLD THETA [--levels 1 2]
        [--mirror DIR]

Rebuilds the fold's training literals as the bench does (3 outer folds, seed 0, 10
thresholds), bounds every DNF of at most 5 clauses at θ under the bench's CERTIFY_LIMITS
(counts, with a CPU safety net checked between HiGHS runs; or the library's defaults with
``--defaults``; ``--no-cpu-limit`` drops the net too), and prints the bound, its status and the
CPU seconds per bound. ``--fold -1`` uses all rows.
"""

import argparse
import time

import numpy as np

from rulelearn import certify as cert
from rulelearn.bench import protocol
from rulelearn.bench.certificates import CERTIFY_LIMITS
from rulelearn.binarize import as_frame
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier


def literals(name: str, fold: int, mirror: str | None):
    ds = load_dataset(name, mirror=mirror)
    y = np.asarray(ds.y) == ds.positive
    rows = np.arange(len(y)) if fold < 0 else protocol.outer_folds(
        np.asarray(ds.y), 3, 0, name)[fold][0]
    X = as_frame(ds.X).iloc[rows].reset_index(drop=True)
    clf = BooleanRuleClassifier(method="sc", theta=1.0, max_rules=5, n_thresholds=10,
                                pos_label=ds.positive).fit(X, np.asarray(ds.y)[rows])
    A, positive, _ = cert.estimator_problem(clf, X, np.asarray(ds.y)[rows])
    return A, positive


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset")
    parser.add_argument("fold", type=int)
    parser.add_argument("theta", type=float)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--R", type=int, default=5)
    parser.add_argument("--defaults", action="store_true")
    parser.add_argument("--no-cpu-limit", action="store_true",
                        help="CERTIFY_LIMITS without the CPU safety net: counts only")
    parser.add_argument("--mirror")
    args = parser.parse_args()
    A, y = literals(args.dataset, args.fold, args.mirror)
    limits = {} if args.defaults else dict(CERTIFY_LIMITS)
    if args.no_cpu_limit:
        limits.pop("cpu_limit", None)
        limits.pop("cpu_safety", None)
    print(f"{args.dataset} fold {args.fold}: {A.shape[0]} rows, {A.shape[1]} literals, "
          f"θ = {args.theta:g}, R = {args.R}, limits {limits or 'library defaults'}")
    for levels in args.levels:
        cpu = time.process_time()
        c = cert.lower_bound(A, y, args.theta, max_rules=args.R, **{**limits, "levels": levels})
        print(f"levels {levels}: bound {c.bound:.3f} (LP bound {c.lp_bound:.3f}, last master "
              f"{c.lp_value:.3f}), {c.status}, {c.iterations} master LPs, {c.pricing_mips} "
              f"pricing MIPs, {c.columns} columns, {time.process_time() - cpu:.1f} CPU s")


if __name__ == "__main__":
    main()
