"""The default search grids of ``rulelearn fit`` and of a benchmark config, defined once.

Kept free of scikit-learn so that the CLI can show them in its help cheaply; the public home of
these names is :mod:`rulelearn.model_selection`.
"""

from __future__ import annotations

import math

#: Range and size of the default θ grid.
THETA_RANGE = (1e-4, 50.0)
N_THETAS = 8


def log_grid(low: float, high: float, num: int) -> tuple[float, ...]:
    """``num`` values evenly spaced on a log scale over [low, high], to 6 significant digits.

    ``num == 1`` gives ``(high,)``. The rounding keeps the values short in records and tables;
    the benchmark's run keys name these exact values.
    """
    if num == 1:
        return (float(high),)
    step = (math.log(high) - math.log(low)) / (num - 1)
    return tuple(float(f"{math.exp(math.log(low) + i * step):.6g}") for i in range(num))


#: Default θ grid: 8 values, evenly spaced on a log scale over [1e-4, 50] (6 digits).
DEFAULT_THETAS = log_grid(*THETA_RANGE, N_THETAS)
#: Range of ``rulelearn fit``'s θ grid on a per-row scale: θ per training row, so that one
#: literal costs θ x (training rows) errors. The same grid spans the accuracy/sparsity
#: trade-off at any number of rows (in errors, [1e-4, 50] is "no penalty" at 35k rows).
FIT_THETA_RANGE = (1e-5, 0.1)
#: ``rulelearn fit``'s default θ grid, per training row: 8 values, log-spaced, 6 digits.
FIT_THETAS = log_grid(*FIT_THETA_RANGE, N_THETAS)
#: How a θ grid is read: ``"rows"``, per training row (each fit uses θ x its training rows,
#: ``rulelearn fit``); ``"errors"``, as the estimator's θ itself (one literal costs θ errors,
#: the paper's scale, the benchmark's).
THETA_SCALES = ("rows", "errors")
#: Cut points ``rulelearn fit`` also tries at the (form, R) its CV chose, besides the
#: estimator's own (quantiles by default): see ``fit_select``'s ``more_cut_points``.
FIT_MORE_CUT_POINTS: tuple[str, ...] = ()
#: Default numbers of clauses. Unused clauses are disabled, so a larger R only adds capacity.
DEFAULT_RULES = (1, 3, 5, 10)
#: Default forms, the simpler first (DNF wins ties).
DEFAULT_FORMS = ("dnf", "cnf")

#: How a setting is chosen from the CV rows: ``"min"`` the lowest mean CV error (ties: the
#: simplest); ``"0.1pt"`` the lowest mean CV error plus 0.1 point per mean literal (a literal
#: must lower the CV error by 0.1 point to stay); ``"1se"`` the simplest setting whose mean
#: CV error is within one standard error of the lowest (glmnet's ``lambda.1se`` rule);
#: ``"0.1pt1se"`` the 0.1pt choice among the settings within one standard error of the lowest
#: (where the SEM is small, on many rows, a literal cannot cost more accuracy than that).
SELECT_RULES = ("min", "0.1pt", "1se", "0.1pt1se")
#: The cost of one literal, as a share of the CV error, of each cost rule of SELECT_RULES.
LITERAL_COSTS = {"0.1pt": 0.001, "0.1pt1se": 0.001}
#: The cost rules of SELECT_RULES that choose among the settings within one SEM of the lowest.
WITHIN_ONE_SEM = ("0.1pt1se",)
#: ``rulelearn fit``'s rule: with the refit pruned, far fewer literals than ``"min"`` at about
#: the same held-out error (measured: see the docs, guide/parameters).
DEFAULT_SELECT = "0.1pt"
#: The refit's pruning (``fit_select``'s ``prune``) drops a literal unless it saves at least
#: this share of the training rows in errors (θ x rows, when the chosen θ is smaller); 0
#: prunes at the chosen θ only (measured: see the docs, guide/parameters).
PRUNE_FLOOR = 0.002
#: How ties (equal mean CV errors) are broken, simplest first: ``"literals"``, fewer mean
#: literals, then the larger θ, the smaller R, DNF, fewer thresholds (``rulelearn fit``'s);
#: ``"theta"``, the larger θ first, then the same (the benchmark's θ tuning: the paper's
#: protocol as its committed results were computed).
TIE_ORDERS = ("literals", "theta")
