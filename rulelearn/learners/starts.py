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
               seed: int = 0) -> np.ndarray:
    """A clause matrix (``max_rules`` rows) from a tree's negative leaves."""
    n = problem.n_features
    A = np.vstack([problem.A_pos[:, :n], problem.A_neg[:, :n]])
    y = np.concatenate([np.ones(len(problem.A_pos), bool), np.zeros(len(problem.A_neg), bool)])
    weight = np.concatenate([problem.w_pos, problem.w_neg])
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
    W = np.array(rows, dtype=bool)
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
