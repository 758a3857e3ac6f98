"""Is fit's gap to CART on the XOR set the literal space's resolution, or the learner?

On each 70/30 split of :func:`datasets.xor_like` (seeds as in ``fit_defaults.py``):

* oracle: the concept's own form (parity of ``x0 > a``, ``x1 > b``, ``x2 > c``) with ``a, b,
  c`` among the binarizer's thresholds for those columns, the combination with the best
  training accuracy; scored on the test part. This is a rule in fit's literal space (12
  literals: 4 terms or clauses of 3), built from the known concept.
* fit: ``fit_select`` as ``rulelearn fit`` runs it (start ``best``), with 10 thresholds and
  with the finer counts asked for (``--thresholds``): test accuracy, chosen setting, literals,
  wall time of the CV plus refit.
* CART: the depth-tuned tree of ``fit_defaults.py``.
* the learner: at the setting fit chose, the training objective (errors + θ x literals, the
  paper's objective in row counts) of the learned rule against the oracle rule's, in the same
  literal space. Lower oracle objective means BCD stopped above a rule it could express.

Run: ``python studies/xor-oracle/run.py [--seeds 5] [--thresholds 10 20 30]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

# the fit-defaults study's datasets and depth-tuned CART (its script is run.py, as here)
FIT_DEFAULTS = Path(__file__).resolve().parents[1] / "fit-defaults"
sys.path.insert(0, str(FIT_DEFAULTS))
_spec = importlib.util.spec_from_file_location("fit_defaults", FIT_DEFAULTS / "run.py")
_fit_defaults = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fit_defaults)
cart = _fit_defaults.cart

import datasets as D  # noqa: E402
from rulelearn.estimator import BooleanRuleClassifier  # noqa: E402
from rulelearn.learners.problem import CNFProblem, cnf_objective  # noqa: E402
from rulelearn.model_selection import fit_select  # noqa: E402

COLUMNS = ("x0", "x1", "x2")


def parity(X, cuts):
    bits = [(X[c].to_numpy() > t).astype(int) for c, t in zip(COLUMNS, cuts)]
    return sum(bits) % 2


def oracle_cuts(binarizer, X_train, y_train):
    """The thresholds of the binarizer for x0, x1, x2 whose parity fits the training part best."""
    options = [sorted({lit.value for lit in binarizer.literals_
                       if lit.feature == c and lit.op == ">"}) for c in COLUMNS]
    return max(itertools.product(*options),
               key=lambda cuts: np.mean(parity(X_train, cuts) == y_train))


def oracle_matrix(literals, cuts, form, max_rules):
    """The oracle parity as a clause matrix over ``literals`` (always-true column last).

    DNF: the 4 terms with an odd number of ``x > t`` true; CNF: the 4 clauses that each exclude
    one even assignment. Rows past the 4th are disabled clauses.
    """
    index = {(lit.feature, lit.op, lit.value): j for j, lit in enumerate(literals)}
    W = np.zeros((max(max_rules, 4), len(literals) + 1), dtype=bool)
    W[4:, -1] = True
    for row, bits in enumerate(b for b in itertools.product((0, 1), repeat=3)
                               if sum(b) % 2 == (1 if form == "dnf" else 0)):
        for c, t, bit in zip(COLUMNS, cuts, bits):
            # a DNF term asks for the assignment; a CNF clause excludes it (each literal negated)
            gt = bool(bit) if form == "dnf" else not bit
            W[row, index[(c, ">" if gt else "<=", t)]] = True
    return W


def objective(model, X_train, y_train, W):
    A = model.binarizer_.transform(X_train)
    positive = np.asarray(y_train) == 1
    if model.form == "cnf":
        problem = CNFProblem.from_data(A, positive)
    else:
        problem = CNFProblem.from_data(1 - A, ~positive)
    return cnf_objective(problem, W, model.theta)


def run_split(seed, counts):
    X, y = D.xor_like()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=seed)
    out = {"seed": seed, "cart": 100 * cart(X_train, y_train, X_test, y_test)[0]}
    for n in counts:
        estimator = BooleanRuleClassifier(pos_label=1, start="best", n_thresholds=n)
        began = time.perf_counter()
        model, selection = fit_select(estimator, X_train, y_train)
        seconds = time.perf_counter() - began
        cuts = oracle_cuts(model.binarizer_, X_train, y_train)
        entry = {"fit": 100 * model.score(X_test, y_test), "seconds": seconds,
                 "setting": f"{model.form.upper()} R={model.max_rules} θ={model.theta:.3g}",
                 "literals": model.rule_.n_literals, "cv": 100 * selection.best.mean_error,
                 "oracle": 100 * np.mean(parity(X_test, cuts) == y_test),
                 "oracle_train": 100 * np.mean(parity(X_train, cuts) == y_train),
                 "fit_train": 100 * model.score(X_train, y_train),
                 "cuts": "/".join(f"{t:g}" for t in cuts)}
        learned = model.fit_stats_["objective"]
        if model.max_rules >= 4:
            W = oracle_matrix(model.literals_, cuts, model.form, model.max_rules)
            entry["objectives"] = (learned, objective(model, X_train, y_train, W))
        else:
            entry["objectives"] = (learned, float("nan"))
        out[n] = entry
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--thresholds", type=int, nargs="+", default=[10, 20, 30])
    args = parser.parse_args(argv)
    print("| split | thresholds | oracle cuts | oracle test % (train %) | fit test % (train %) | "
          "CART % | chosen (literals) | CV err % | objective learned / oracle | fit s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for seed in range(args.seeds):
        r = run_split(seed, args.thresholds)
        for n in args.thresholds:
            e = r[n]
            learned, oracle = e["objectives"]
            print(f"| {seed} | {n} | {e['cuts']} | {e['oracle']:.1f} ({e['oracle_train']:.1f}) "
                  f"| {e['fit']:.1f} ({e['fit_train']:.1f}) | {r['cart']:.1f} | "
                  f"{e['setting']} ({e['literals']}) | {e['cv']:.1f} | "
                  f"{learned:.1f} / {oracle:.1f} | {e['seconds']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
