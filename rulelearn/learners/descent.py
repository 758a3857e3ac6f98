"""Where BCD and AM start, and the descent from there (:func:`descend`)."""

from __future__ import annotations

import numpy as np

from rulelearn.errors import ParameterError
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import cnf_objective
from rulelearn.learners.result import LearnResult
from rulelearn.learners.sc import set_cover

STARTS = ("sc", "tree", "best", "cg")


def start_rule(solver: ClauseSolver, theta: float, max_rules: int,
               start: str | np.ndarray) -> np.ndarray:
    """The clause matrix :func:`descend` starts from (every start but "best")."""
    if isinstance(start, np.ndarray):
        W = np.asarray(start, dtype=bool)
        if W.shape != (max_rules, solver.problem.n_features + 1):
            raise ParameterError(f"a start rule must be a ({max_rules}, "
                                 f"{solver.problem.n_features + 1}) clause matrix, "
                                 f"got shape {W.shape}")
        return W
    if start == "sc":
        return set_cover(solver, theta, max_rules).W
    if start == "tree":
        from rulelearn.learners.starts import tree_leaves, tree_start

        key = ("tree", max_rules, solver.start_rows)
        if key not in solver.starts:  # the tree does not depend on θ: grown once per path
            solver.starts[key] = tree_leaves(solver.problem, max_rules,
                                             max_rows=solver.start_rows)
        return tree_start(solver.problem, max_rules, theta, solver.disable_cost,
                          leaves=solver.starts[key])
    if start == "cg":
        from rulelearn.learners.cg import cg

        return cg(solver, theta, max_rules).W
    raise ParameterError(f"start must be one of {STARTS}, got {start!r}")


def descend(solver: ClauseSolver, theta: float, max_rules: int, max_iter: int,
            step, start: str | np.ndarray = "sc", polish: bool = False,
            perturb: int = 0) -> LearnResult:
    """From a start rule, apply ``step(W) -> (objective, W) or None`` while it helps.

    ``start``: "sc", the set-covering rule (the paper's start); "tree", a rule read off a
    CART tree (:func:`~rulelearn.learners.starts.tree_start`); "best", descend from both
    and keep the lower objective (the SC descent on ties); "cg", the column-generation rule
    (:func:`~rulelearn.learners.cg.cg`, itself never worse than the SC rule), so the result is
    never worse than CG's; or a clause matrix (``max_rules`` rows, always-true last). Stops
    when a step does not lower the objective (or proposes nothing), or after ``max_iter``
    steps; the objective never increases.

    When the solver's clause LP works on samples of the positives (``solver.n_stages`` > 1,
    :func:`~rulelearn.learners.clause.sample_sizes`), the start and the first descent use
    the first (smallest) sample; then the descent goes on with the next sample for as long
    as the previous larger sample lowered the objective (on all rows). Every step is still
    judged on all rows.

    ``polish``: then single-literal moves while they lower the objective
    (:func:`~rulelearn.learners.polish.polish`; each start's rule when ``start`` is "best").

    ``perturb``: then that many rounds of iterated local search from the rule (from the better
    one when ``start`` is "best"): kick it, descend (and polish) again, keep it when not worse
    (:func:`~rulelearn.learners.perturb.iterate`).
    """
    if perturb:
        from rulelearn.learners.perturb import iterate

        first = descend(solver, theta, max_rules, max_iter, step, start, polish)
        return iterate(first, lambda W: descend(solver, theta, max_rules, max_iter, step, W,
                                                polish), perturb)
    if isinstance(start, str) and start == "best":
        results = [descend(solver, theta, max_rules, max_iter, step, s, polish)
                   for s in ("sc", "tree")]
        best = min(results, key=lambda result: result.objective)
        return best if best.objective < results[0].objective - 1e-9 else results[0]
    W = start_rule(solver, theta, max_rules, start)
    objective = cnf_objective(solver.problem, W, theta, solver.disable_cost)
    W, history, n_iter = W.copy(), [objective], 0
    for stage in range(solver.n_stages):
        solver.stage = stage
        before = objective
        while n_iter < max_iter:
            proposal = step(W)
            n_iter += 1
            if proposal is None or proposal[0] >= objective - 1e-9:
                break
            objective, W = proposal
            history.append(objective)
        if stage > 0 and objective >= before - 1e-9:
            break  # the larger sample did not help: no larger one is tried
    solver.stage = 0
    if polish:
        from rulelearn.learners.polish import polish as polish_rule

        polished = polish_rule(solver.problem, W, theta, solver.disable_cost)
        W, objective = polished.W, polished.objective
        history += polished.history[1:]
    return LearnResult(W, objective, n_iter=n_iter, history=history)
