"""Iterated local search: kick a learned rule, descend again, keep the result when not worse.

BCD and AM stop at a local optimum of the paper's objective: no single clause update (and,
polished, no single-literal move) lowers it. :func:`iterate` then repeats, a given number of
rounds: *kick* the current rule (:func:`kick`: one or two of its clauses, chosen at random,
each disabled, cut to half its literals, or replaced by one random literal), descend from the
kicked rule with the same learner, and keep the new rule if its objective is not above the
current one (ties move the search along a plateau). The objective never increases, so the
result is never worse than the descent's own. A fixed seed (:data:`SEED`) drives the kicks:
the same data and parameters give the same rule. What it gains, and costs: see the docs,
guide/certificates.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rulelearn.learners.result import LearnResult

#: The seed of the kicks' random choices.
SEED = 0


def kick(W: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy of clause matrix ``W`` (always-true column last) with one or two of its clauses,
    chosen at random, each disabled, cut to a random half of its literals (two or more) or
    replaced by one random literal (a clause of one literal or none is replaced)."""
    trial = np.array(W, dtype=bool)
    R, width = trial.shape
    for r in rng.choice(R, size=min(R, int(rng.integers(1, 3))), replace=False):
        kind = int(rng.integers(3))
        held = np.flatnonzero(trial[r, :-1])
        if kind == 0:
            trial[r] = False
            trial[r, -1] = True
        elif kind == 1 and len(held) > 1:
            trial[r, rng.choice(held, len(held) // 2, replace=False)] = False
        else:
            trial[r] = False
            trial[r, int(rng.integers(width - 1))] = True
    return trial


def iterate(result: LearnResult, descend_from: Callable[[np.ndarray], LearnResult],
            rounds: int, seed: int = SEED) -> LearnResult:
    """``rounds`` kicks of ``result``'s rule, each followed by ``descend_from(kicked rule)``
    (see the module); the rule of least objective met, ``n_iter`` the descents' steps in all
    and ``history`` extended by each strict improvement."""
    W, objective = result.W, result.objective
    n_iter, history = result.n_iter, list(result.history)
    if W.shape[1] < 2:  # no literal to kick with
        return result
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        trial = descend_from(kick(W, rng))
        n_iter += trial.n_iter
        if trial.objective <= objective:
            if trial.objective < objective:
                history.append(trial.objective)
            W, objective = trial.W, trial.objective
    return LearnResult(W, objective, n_iter=n_iter, history=history)
