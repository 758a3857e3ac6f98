"""The generated table of the rows benchmark (``rows.py``): deterministic in its seed.

14 numeric columns ``x0..x13`` ~ N(0, 1) rounded to 4 decimals, 6 categorical columns
``c0..c5`` with 3..8 levels (``a``, ``b``, ...), and ``label`` =
(x0 > 0.5 AND x1 < 0) OR (c0 = a AND x2 > 1) OR (x3 > 1.2 AND c3 != b AND x4 < 0.3),
with 5 % of the labels flipped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

N_NUMERIC = 14
LEVELS = (3, 4, 5, 6, 7, 8)
FLIP = 0.05


def make_table(n_rows: int, seed: int = 0) -> pd.DataFrame:
    """The table with ``n_rows`` rows; the same seed gives the same table."""
    rng = np.random.default_rng(seed)
    data = {f"x{j}": np.round(rng.standard_normal(n_rows), 4) for j in range(N_NUMERIC)}
    letters = np.array(list("abcdefgh"))
    for k, levels in enumerate(LEVELS):
        data[f"c{k}"] = letters[rng.integers(0, levels, n_rows)]
    frame = pd.DataFrame(data)
    truth = (((frame.x0 > 0.5) & (frame.x1 < 0)) | ((frame.c0 == "a") & (frame.x2 > 1))
             | ((frame.x3 > 1.2) & (frame.c3 != "b") & (frame.x4 < 0.3))).to_numpy()
    flip = rng.random(n_rows) < FLIP
    frame["label"] = np.where(truth ^ flip, "yes", "no")
    return frame


CENSUS_ROWS = 32_561
CENSUS_LEVELS = {"workclass": 9, "education": 16, "marital": 7, "occupation": 15,
                 "relationship": 6, "race": 5, "sex": 2, "country": 42}


def make_census(n_rows: int = CENSUS_ROWS, seed: int = 0) -> pd.DataFrame:
    """A table of the census (Adult) shape: 6 integer and 8 categorical columns with 2..42
    levels (skewed), a label from a three-term rule with 8 % of the labels flipped. Only the
    shape is the census's; the values are generated."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "age": rng.integers(17, 91, n_rows),
        "fnlwgt": rng.integers(12_000, 1_500_000, n_rows),
        "education_num": rng.integers(1, 17, n_rows),
        "capital_gain": np.where(rng.random(n_rows) < 0.08, rng.integers(100, 99_999, n_rows), 0),
        "capital_loss": np.where(rng.random(n_rows) < 0.05, rng.integers(100, 4_356, n_rows), 0),
        "hours_per_week": np.clip(np.round(rng.normal(40, 12, n_rows)), 1, 99).astype(int),
    })
    for name, levels in CENSUS_LEVELS.items():
        p = 1.0 / np.arange(1, levels + 1)  # skewed, as the census's columns are
        frame[name] = np.array([f"{name[:3]}{k}" for k in range(levels)])[
            rng.choice(levels, n_rows, p=p / p.sum())]
    truth = (((frame.marital == "mar0") & (frame.education_num >= 10))
             | (frame.capital_gain > 5_000)
             | ((frame.age > 40) & (frame.hours_per_week > 45)
                & frame.occupation.isin(["occ0", "occ1"]))).to_numpy()
    flip = rng.random(n_rows) < 0.08
    frame["label"] = np.where(truth ^ flip, "yes", "no")
    return frame


def write_table(path: str, n_rows: int, seed: int = 0) -> None:
    make_table(n_rows, seed).to_csv(path, index=False)


if __name__ == "__main__":
    import sys

    if len(sys.argv) not in (3, 4) or sys.argv[1] in ("-h", "--help"):
        sys.exit("usage: python studies/perf/rows_data.py OUT.csv ROWS [SEED]"
                 "  |  python studies/perf/rows_data.py OUT.csv census")
    if sys.argv[2] == "census":
        make_census().to_csv(sys.argv[1], index=False)
    else:
        write_table(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
