"""Literal pruning: drop what a fitted rule does not need on its training data.

The learners round an LP relaxation clause by clause, so a rule can keep a literal (or a
whole clause) whose removal would not raise the objective it was fitted for. :func:`prune`
removes such pieces greedily: at each step the removal (one literal of a clause, or a whole
clause) of lowest objective, while that objective is no higher than the rule's. The objective
is the 0-1 form of the paper's: training errors (weighted) + θ x literals.
"""

from __future__ import annotations

import numpy as np

from rulelearn.rules import Clause, Rule

__all__ = ["prune", "prune_model"]


def prune(rule: Rule, held: list[list[np.ndarray]], positive, theta: float,
          weight=None) -> Rule:
    """``rule`` with literals and clauses removed while the objective does not rise.

    ``held[c][j]``: where literal ``j`` of clause ``c`` holds on the training rows (booleans);
    ``positive``: the rows of the positive class; ``weight``: each row's weight in the error
    (None: 1). Objective = weighted errors + ``theta`` x literals. A removal that keeps the
    objective equal is made (the shorter rule wins a tie); among removals of the same
    objective, the first in the rule's order (a clause's literals before the clause).
    """
    positive = np.asarray(positive, dtype=bool)
    weight = np.ones(len(positive)) if weight is None else np.asarray(weight, dtype=float)
    dnf = rule.form == "dnf"
    clauses = [list(c.literals) for c in rule.clauses]
    held = [list(h) for h in held]

    def clause_value(masks):
        return (np.logical_and.reduce(masks) if dnf else np.logical_or.reduce(masks))

    def combine(values):
        if not values:  # no clause: the empty DNF is false, the empty CNF true
            return np.full(len(positive), not dnf)
        return np.logical_or.reduce(values) if dnf else np.logical_and.reduce(values)

    def objective(predicted, n_literals):
        return float(weight[predicted != positive].sum()) + theta * n_literals

    values = [clause_value(h) for h in held]
    size = sum(len(c) for c in clauses)
    current = objective(combine(values), size)
    while clauses:
        moves: list[tuple[float, int, int | None]] = []  # (objective, clause, literal or None)
        for c, masks in enumerate(held):
            rest = combine(values[:c] + values[c + 1:])
            for k in range(len(masks) if len(masks) > 1 else 0):
                value = clause_value(masks[:k] + masks[k + 1:])
                moves.append((objective(rest | value if dnf else rest & value, size - 1), c, k))
            moves.append((objective(rest, size - len(masks)), c, None))
        score, c, literal = min(moves, key=lambda move: round(move[0], 9))  # ties: the first
        if score > current + 1e-9:
            break
        current = score
        if literal is None:
            size -= len(clauses[c])
            del clauses[c], held[c], values[c]
        else:
            size -= 1
            del clauses[c][literal], held[c][literal]
            values[c] = clause_value(held[c])
    return Rule(rule.form, tuple(Clause(tuple(c)) for c in clauses))


def prune_model(model, X, y, sample_weight=None, theta=None):
    """``model`` (a fitted :class:`~rulelearn.estimator.BooleanRuleClassifier`) with its rule
    pruned by :func:`prune` on its training data ``(X, y)`` at ``theta`` (None: the model's
    own θ; errors weighted by its ``class_weight`` and ``sample_weight``), and its clause
    precisions recomputed; ``fit_stats_["pruned_literals"]`` counts the literals dropped and
    ``fit_stats_["objective"]`` becomes the objective of the pruned rule (the learner's, at the
    model's θ). Changed in place; returned."""
    from rulelearn.certify import estimator_problem, rule_objective
    from rulelearn.estimator import class_sample_weight, input_frame
    from rulelearn.proba import fit_proba

    frame = input_frame(model, X)
    y = np.asarray(y)
    positive = y == model.pos_label_
    held = [[literal.evaluate(frame) for literal in clause.literals]
            for clause in model.rule_.clauses]
    weight = class_sample_weight(model.class_weight, y, model.classes_, sample_weight)
    rule = prune(model.rule_, held, positive,
                 float(model.theta if theta is None else theta), weight)
    stats = getattr(model, "fit_stats_", None)
    if isinstance(stats, dict):
        stats = model.fit_stats_ = {**stats,
                                    "pruned_literals": model.rule_.n_literals - rule.n_literals}
    if rule != model.rule_:
        model.rule_ = rule
        proba = fit_proba(rule, frame, positive, sample_weight)
        model.clause_precision_ = np.asarray(proba.clause_precision)
        model.default_precision_ = proba.default_precision
        if isinstance(stats, dict) and "objective" in stats:  # it was the unpruned rule's
            A, _, terms = estimator_problem(model, frame, y)
            stats["objective"] = rule_objective(
                A, positive, terms, model.theta, form=model.form,
                max_rules=1 if model.method == "ocrl" else int(model.max_rules),
                sample_weight=weight, disable_cost=model.disable_cost)
    return model
