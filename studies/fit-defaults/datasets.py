"""Synthetic and bundled datasets for the ``rulelearn fit`` default checks (no network).

Each builder returns ``(X: DataFrame, y: ndarray of 0/1)``; 1 is the class a rule is asked for
(the minority class unless stated). Planted concepts get label noise by flipping a fraction of
the labels at random.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _flip(y, noise, rng):
    return np.where(rng.random(len(y)) < noise, 1 - y, y).astype(int)


def planted_dnf(n=1500, noise=0.05, seed=1):
    """OR of 8 two-literal terms over 16 numeric columns (needs R = 8 as a DNF)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 16)), columns=[f"x{j}" for j in range(16)])
    y = np.zeros(n, dtype=bool)
    for t in range(8):
        y |= (X[f"x{2 * t}"] > 0.72).to_numpy() & (X[f"x{2 * t + 1}"] > 0.72).to_numpy()
    return X, _flip(y.astype(int), noise, rng)


def planted_cnf(n=1500, noise=0.05, seed=2, cut=0.5):
    """AND of 3 three-literal ORs (x > cut); a DNF for it needs 27 terms.

    With ``cut=0.5`` the CNF's class is 67 % of the rows, with ``cut=0.75`` 19 %.
    """
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 12)), columns=[f"x{j}" for j in range(12)])
    y = np.ones(n, dtype=bool)
    for c in range(3):
        y &= ((X[f"x{3 * c}"] > cut).to_numpy() | (X[f"x{3 * c + 1}"] > cut).to_numpy()
              | (X[f"x{3 * c + 2}"] > cut).to_numpy())
    return X, _flip(y.astype(int), noise, rng)


def onehot_terms(n=5000, noise=0.05, seed=3):
    """OR of 8 three-literal terms over 10 categorical columns of 3-6 levels (~25 % positive)."""
    rng = np.random.default_rng(seed)
    levels = [3, 3, 3, 3, 3, 4, 4, 5, 6, 6]
    X = pd.DataFrame({f"c{j}": rng.integers(0, k, n) for j, k in enumerate(levels)})
    y = np.zeros(n, dtype=bool)
    for _ in range(8):
        cols = rng.choice(5, 3, replace=False)  # among the 3-level columns
        term = np.ones(n, dtype=bool)
        for j in cols:
            term &= X[f"c{j}"].to_numpy() == rng.integers(0, levels[j])
        y |= term
    X = X.apply(lambda col: "v" + col.astype(str))  # text: categorical, not numeric
    return X, _flip(y.astype(int), noise, rng)


def xor_like(n=2000, noise=0.05, seed=4):
    """Parity of 3 thresholds (0.3, 0.6, 0.45) plus 5 noise columns: 4 terms of 3 literals."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 8)), columns=[f"x{j}" for j in range(8)])
    y = ((X.x0 > 0.3).astype(int) + (X.x1 > 0.6) + (X.x2 > 0.45)).to_numpy() % 2
    return X, _flip(y.astype(int), noise, rng)


ADULT_LEVELS = {
    "workclass": 8, "education": 16, "marital_status": 7, "occupation": 14,
    "relationship": 6, "race": 5, "sex": 2, "native_country": 41,
}


def adult_like(n=32000, noise=0.1, seed=5):
    """Shaped like UCI Adult: 6 numeric + 8 categorical columns; a planted 3-term DNF + noise."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(17, 90, n),
        "fnlwgt": rng.integers(12000, 1500000, n),
        "education_num": rng.integers(1, 17, n),
        "capital_gain": np.where(rng.random(n) < 0.08, rng.integers(100, 99999, n), 0),
        "capital_loss": np.where(rng.random(n) < 0.05, rng.integers(100, 4356, n), 0),
        "hours_per_week": rng.integers(1, 99, n),
    })
    for name, k in ADULT_LEVELS.items():
        p = rng.dirichlet(np.ones(k))  # uneven level frequencies, as in Adult
        X[name] = [f"{name[:3]}{v}" for v in rng.choice(k, n, p=p)]
    X["marital_status"] = rng.choice(["married", "never", "divorced", "separated", "widowed",
                                      "absent", "af-spouse"], n,
                                     p=[.46, .33, .14, .03, .02, .015, .005])
    married = X.marital_status == "married"
    y = ((married & (X.education_num > 12) & (X.age > 35))
         | (X.capital_gain > 7000)
         | (married & (X.hours_per_week > 55))).to_numpy().astype(int)
    return X, _flip(y, noise, rng)


def sklearn_breast_cancer():
    from sklearn.datasets import load_breast_cancer

    d = load_breast_cancer(as_frame=True)
    return d.data, (d.target == 0).to_numpy().astype(int)  # malignant, the minority


def sklearn_digits_0_vs_rest():
    """Binary digits: is it a 0? (64 pixel columns, 10 % positives)."""
    from sklearn.datasets import load_digits

    d = load_digits(as_frame=True)
    return d.data, (d.target == 0).to_numpy().astype(int)


def sklearn_wine_class0():
    from sklearn.datasets import load_wine

    d = load_wine(as_frame=True)
    return d.data, (d.target == 0).to_numpy().astype(int)


def uci(name):
    """A dataset of the paper through the registry (needs ``RULELEARN_MIRROR``)."""
    from rulelearn.data import load_dataset

    ds = load_dataset(name)
    return ds.X, np.asarray(ds.is_positive).astype(int)


# python studies/fit-defaults/datasets.py adult.csv: the 32,000-row timing CSV
if __name__ == "__main__":
    import sys

    X, y = adult_like()
    X.assign(income=np.where(y == 1, ">50K", "<=50K")).to_csv(sys.argv[1], index=False)
