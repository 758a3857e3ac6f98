"""The generated table of the rows benchmark (:mod:`benchmarks.rows`): deterministic in its seed.

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


def write_table(path: str, n_rows: int, seed: int = 0) -> None:
    make_table(n_rows, seed).to_csv(path, index=False)


if __name__ == "__main__":
    import sys

    write_table(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
