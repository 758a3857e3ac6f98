"""Where BCD and AM start: the set-covering rule (the paper's), or a rule read off a tree.

A tree start: a CART tree (scikit-learn) is grown on the problem's 0/1 features, and each of
its leaves that predicts a negative becomes one clause, the OR of the negated conditions on
its path (De Morgan: the CNF rejects exactly the rows that reach one of those leaves). A
condition ``a_j = 0`` needs the complement of feature ``j`` (``x > t`` beside ``x <= t``);
where there is none, the condition is left out. The ``max_rules`` leaves that hold the most
negative weight are kept. On MAGIC such rules score better on the paper's own objective
than the rule BCD reaches from the set-covering start.
"""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from rulelearn.learners.formulation import complement_partners
from rulelearn.learners.problem import CNFProblem, cnf_objective, disabled_clause


def tree_start(problem: CNFProblem, max_rules: int, theta: float, disable_cost: float,
               seed: int = 0, max_rows: int | None = None, leaves=None) -> np.ndarray:
    """A clause matrix (``max_rules`` rows) from a tree's negative leaves.

    ``max_rows``: the tree is grown on a stratified random sample of at most that many rows
    (each class in proportion, weights scaled to the class's total); the objective that
    decides between its leaves' clauses and the disabled clause stays on all rows.
    ``leaves``: :func:`tree_leaves` of the same problem, ``max_rules``, ``seed`` and
    ``max_rows`` if already known (the tree does not depend on θ: a θ path grows it once).
    """
    n = problem.n_features
    W = tree_leaves(problem, max_rules, seed, max_rows) if leaves is None else leaves
    # a leaf clause may cost more than it saves: keep the better of each and the disabled one
    current = cnf_objective(problem, W, theta, disable_cost)
    for r in range(len(W)):
        if W[r, -1]:
            continue
        trial = W.copy()
        trial[r] = disabled_clause(n)
        value = cnf_objective(problem, trial, theta, disable_cost)
        if value < current - 1e-9:
            W, current = trial, value
    return W


def tree_leaves(problem: CNFProblem, max_rules: int, seed: int = 0,
                max_rows: int | None = None) -> np.ndarray:
    """The clauses of a tree's ``max_rules`` heaviest negative leaves (the rest disabled)."""
    n = problem.n_features
    parts: list = [(problem.A_pos, problem.w_pos), (problem.A_neg, problem.w_neg)]
    n_rows = len(problem.w_pos) + len(problem.w_neg)
    if max_rows is not None and n_rows > max_rows:
        rng = np.random.default_rng(seed)
        sampled = []
        for matrix, w in parts:
            size = min(len(w), max(1, round(max_rows * len(w) / n_rows))) if len(w) else 0
            picked = np.sort(rng.choice(len(w), size, replace=False))
            kept = w[picked]
            scale = float(w.sum()) / max(float(kept.sum()), 1e-300)
            sampled.append((matrix[picked], kept * scale))
        parts = sampled
    A = np.vstack([matrix[:, :n] for matrix, _ in parts])
    y = np.concatenate([np.ones(len(parts[0][1]), bool), np.zeros(len(parts[1][1]), bool)])
    weight = np.concatenate([parts[0][1], parts[1][1]])
    rows = [disabled_clause(n)] * max_rules
    if n == 0 or len(problem.A_neg) == 0 or len(problem.A_pos) == 0:
        return np.array(rows, dtype=bool)
    tree = DecisionTreeClassifier(max_leaf_nodes=2 * max_rules + 2, random_state=seed)
    tree.fit(A, y, sample_weight=weight)
    partner = complement_partners(A)
    t = tree.tree_
    leaves = []  # (negative weight, clause)

    def walk(node, path):
        if t.children_left[node] == -1:
            value = t.value[node][0]  # weighted class fractions or counts: [neg, pos]
            if value[0] > value[1]:
                leaves.append((float(t.weighted_n_node_samples[node] * value[0] / value.sum()),
                               _clause_rejecting(path, partner, n)))
            return
        j = t.feature[node]
        walk(t.children_left[node], path + [(j, 0)])   # a_j <= 0.5: a_j = 0
        walk(t.children_right[node], path + [(j, 1)])  # a_j = 1

    walk(0, [])
    leaves.sort(key=lambda item: -item[0])
    for r, (_, clause) in enumerate(leaves[:max_rules]):
        rows[r] = clause
    return np.array(rows, dtype=bool)


def _clause_rejecting(path, partner, n) -> np.ndarray:
    """The OR of the negated conditions of ``path`` (conditions without a complement dropped)."""
    clause = np.zeros(n + 1, dtype=bool)
    for j, value in path:
        if value == 1:
            k = partner[j]  # NOT (a_j = 1) is a_k = 1 for the complement k
            if k >= 0:
                clause[k] = True
        else:
            clause[j] = True  # NOT (a_j = 0) is a_j = 1
    if not clause.any():
        clause[-1] = True  # nothing left to say: disabled
    return clause
