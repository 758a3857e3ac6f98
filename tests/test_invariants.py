"""Property-based invariants of the learned rules, over generated problems that look like data.

Every problem is a small DataFrame of the kinds users bring: one-hot 0/1 blocks, categorical
text columns (with missing values), numeric columns (ties, missing values), constant columns,
exact duplicate rows (with the same or the other label), sample weights (zeros, fractions) and
classes of one or two samples. Every method x form x θ (0, tiny, moderate, huge) x R (1..4) x
disable cost (zero or not) is drawn. The invariants:

1. every rounded clause is no worse than the empty, the disabled and every one-feature clause;
   the learned objective is no worse than the trivial rules (every clause disabled; one empty
   clause), and BCD / AM end no worse than the set-covering rule they start from;
2. ``fit_stats_["objective"]`` is the objective of ``rule_`` recomputed from its literals on the
   training data;
3. weighted training errors + θ · literals (+ the disable cost of the unused clauses) <= the
   objective: the Hamming loss charges every misclassified sample at least once;
4. a DNF for a class is the negation of a CNF for the other class over the negated literals
   (same objective, same rule, same predictions); over the binarizer's own literals, which
   are closed under negation when nothing is missing, the two problems are equal up to the
   order of the columns, and so are the learned rules once the columns are put in one order;
5. a saved and loaded model predicts as the estimator does, also on missing values and unseen
   categories;
6. integer sample weights equal repeated rows, and merged duplicates equal unmerged ones;
7. on tiny problems, brute force over all clauses (and pairs of clauses): OCRL with the exact
   clause solver is optimal, and no learner reports an objective below the optimum.

A known limitation is pinned as a strict xfail: BCD with the exact clause solver can stop where
one clause change would lower the objective.

Examples are derandomized (the same problems on every run, no example database), bounded, and
without deadlines. ``RULELEARN_INVARIANT_SCALE=10`` runs ten times as many.
"""

from __future__ import annotations

import itertools
import math
import os
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulelearn.binarize import QuantileBinarizer
from rulelearn.estimator import BooleanRuleClassifier, rule_from_clauses
from rulelearn.learners import LEARNERS, run_learner
from rulelearn.learners.clause import TIE_BREAK, ClauseSolver
from rulelearn.learners.problem import CNFProblem, clause_objective, cnf_objective, disabled_clause
from rulelearn.learners.rounding import round_best_threshold
from rulelearn.model_io import load_model, save_model

SCALE = float(os.environ.get("RULELEARN_INVARIANT_SCALE", "1"))


def examples(n: int) -> settings:
    """Bounded, reproducible settings: the same ``n`` (times ``SCALE``) problems on every run."""
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None, derandomize=True,
                    database=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


METHODS = sorted(LEARNERS)
THETAS = (0.0, 1e-4, 0.05, 0.5, 2.0, 1e6)
DISABLE_COSTS = (0.0, 0.3, 1.5)
LABELS = ((0, 1), ("no", "yes"), (2, 10), (False, True))
CATEGORIES = ("red", "green", "blue", "grey")
NUMBERS = (-1.5, -0.5, 0.0, 0.25, 1.0, 2.5)


def tolerance(value: float) -> float:
    return 1e-9 * max(1.0, abs(value))


# ------------------------------------------------------------------------------ generated data

@dataclass
class Data:
    """Training data (``X``, ``y``, ``w``), its two labels, and rows to predict on."""

    X: pd.DataFrame
    y: np.ndarray
    w: np.ndarray | None
    labels: tuple
    X_new: pd.DataFrame

    @property
    def weight(self) -> np.ndarray:
        return np.ones(len(self.y)) if self.w is None else self.w


def _column(draw, kind: str, name: str, n: int, varied: bool, binary: bool) -> dict:
    """One raw column of ``kind`` (several 0/1 columns for a one-hot block)."""
    if kind == "onehot":
        k = draw(st.integers(2, 4))
        index = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
        if varied:
            index[:2] = [0, 1]
        return {f"{name}_{v}": [int(i == v) for i in index] for v in range(k)}
    if kind == "binary":
        bits = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        if varied:
            bits[:2] = [0, 1]
        return {name: bits}
    if kind == "categorical":
        k = draw(st.integers(2, len(CATEGORIES)))
        options = list(CATEGORIES[:k]) + ([None] if draw(st.booleans()) else [])
        values = draw(st.lists(st.sampled_from(options), min_size=n, max_size=n))
        if varied:
            values[:2] = list(CATEGORIES[:2])
        return {name: pd.Series(values, dtype=draw(st.sampled_from([object, "category"])))}
    if kind == "integer":
        values = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
        if varied:
            values[:2] = [0, 1]
        return {name: values}
    if kind == "float":
        options = list(NUMBERS) + ([math.nan] if draw(st.booleans()) else [])
        values = draw(st.lists(st.sampled_from(options), min_size=n, max_size=n))
        if varied:
            values[:2] = [NUMBERS[0], NUMBERS[1]]
        return {name: np.asarray(values, dtype=float)}
    # constant: a 0/1 value, a number (with gaps), or a text
    value = draw(st.sampled_from([0, 1] if binary else [0, 1, 7, "same"]))
    column = [value] * n
    if value == 7 and draw(st.booleans()):
        column = [value if keep else math.nan
                  for keep in draw(st.lists(st.booleans(), min_size=n, max_size=n))]
    return {name: pd.Series(column, dtype=object) if value == "same" else column}


BINARY_KINDS = ("onehot", "binary", "constant")
RAW_KINDS = ("onehot", "binary", "categorical", "integer", "float", "constant")


@st.composite
def datasets(draw, max_rows: int = 20, max_columns: int = 4, binary: bool | None = None,
             weights: tuple = (None, "int", "frac"), positive_weight: bool = False) -> Data:
    """A small data set; ``binary``: only 0/1 columns (None: drawn)."""
    n = draw(st.integers(4, max_rows))
    if binary is None:
        binary = draw(st.sampled_from([True, False, False]))
    kinds = BINARY_KINDS if binary else RAW_KINDS
    first = draw(st.sampled_from([k for k in kinds if k != "constant"]))
    rest = draw(st.lists(st.sampled_from(kinds), max_size=max_columns - 1))
    columns = {}
    for i, kind in enumerate([first] + rest):
        columns.update(_column(draw, kind, f"{kind[:3]}{i}", n, varied=i == 0, binary=binary))
    X = pd.DataFrame(columns)
    if draw(st.booleans()):  # columns named by their position, as from a header-less file
        X.columns = range(X.shape[1])

    labelling = draw(st.sampled_from(["planted", "random", "tiny"]))
    if labelling == "planted":  # the first column's first value, with a few labels flipped
        signal = X.iloc[:, 0].to_numpy()
        bits = [value == signal[0] for value in signal]
        for i in draw(st.lists(st.integers(2, n - 1), max_size=2)):
            bits[i] = not bits[i]
    elif labelling == "random":
        bits = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        bits[:2] = [True, False]
    else:  # a tiny class: one or two samples
        bits = [False] * n
        for i in draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2)):
            bits[i] = True
    labels = draw(st.sampled_from(LABELS))
    if draw(st.booleans()):
        labels = labels[::-1]

    # exact copies of some rows, each with the same or the other label
    copies = draw(st.lists(st.tuples(st.integers(0, n - 1), st.booleans()), max_size=4))
    if copies:
        X = pd.concat([X, X.iloc[[i for i, _ in copies]]], ignore_index=True)
        bits = list(bits) + [bits[i] != flip for i, flip in copies]

    kind = draw(st.sampled_from(weights))
    if kind == "int":
        w = draw(st.lists(st.integers(0, 3), min_size=len(bits), max_size=len(bits)))
    elif kind == "frac":
        w = draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 1.5, 2.75]),
                          min_size=len(bits), max_size=len(bits)))
    else:
        w = None
    if w is not None:  # some weight on one class (on both with ``positive_weight``)
        w = np.asarray(w, dtype=float)
        first_of = [bits.index(b) for b in (True, False)]
        for i in first_of if positive_weight else first_of[:1]:
            w[i] = max(w[i], 1.0)
        # and on a row where the varied first column differs: a row of weight 0 is as if
        # removed, so the rows of positive weight must leave some column to split on
        first = X.iloc[:, 0].tolist()
        other = next(j for j, v in enumerate(first) if not _same_cell(v, first[first_of[0]]))
        w[other] = max(w[other], 1.0)
    y = np.array([labels[1] if b else labels[0] for b in bits])
    return Data(X, y, w, labels, _new_rows(X))


def _same_cell(a, b) -> bool:
    return bool(pd.isna(a) and pd.isna(b)) or (not pd.isna(a) and not pd.isna(b) and a == b)


def _new_rows(X: pd.DataFrame) -> pd.DataFrame:
    """The training rows, then rows with missing values, unseen categories and unseen numbers."""
    missing = X.iloc[:3].copy().astype(object)
    unseen = X.iloc[:3].copy().astype(object)
    for name in X.columns:
        missing.loc[missing.index[::2], name] = None
        text = not pd.api.types.is_numeric_dtype(X[name]) and any(isinstance(v, str)
                                                                   for v in X[name])
        unseen[name] = "purple" if text else [-99, 0.5, 99][: len(unseen)]
    new = pd.concat([X.astype(object), missing, unseen], ignore_index=True)
    return new.infer_objects()


# ------------------------------------------------------------------------------ fitting helpers

@st.composite
def fit_params(draw, methods=METHODS, max_rules=4, clause_solver="lp") -> dict:
    return {"method": draw(st.sampled_from(methods)),
            "form": draw(st.sampled_from(["dnf", "cnf"])),
            "theta": draw(st.sampled_from(THETAS)),
            "max_rules": draw(st.integers(1, max_rules)),
            "disable_cost": draw(st.sampled_from(DISABLE_COSTS)),
            "clause_solver": clause_solver,
            "max_iter": 30}


def fit(X, y, w, params, **overrides) -> BooleanRuleClassifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dropped constant columns
        return BooleanRuleClassifier(**{**params, **overrides}).fit(X, y, sample_weight=w)


def training_matrix(model, X) -> np.ndarray:
    """The 0/1 literal matrix the model was fitted on (as ``fit_path`` builds it)."""
    if model.binarizer_ is None:
        return X.to_numpy(dtype=float).astype(np.uint8)
    return model.binarizer_.transform(X)


def cnf_problem(model, X, y, w) -> CNFProblem:
    """The CNF problem the learner solved, built as ``BooleanRuleClassifier.fit_path`` does."""
    A = training_matrix(model, X)
    positive = np.asarray(y) == model.pos_label_
    if model.form == "cnf":
        return CNFProblem.from_data(A, positive, w)
    return CNFProblem.from_data(1 - A, ~positive, w)


def n_clause_rows(model) -> int:
    """Rows of the learned clause matrix: OCRL learns one clause, whatever ``max_rules``."""
    return 1 if model.method == "ocrl" else model.max_rules


def trivial_objectives(problem, R, theta, disable_cost):
    """Objectives of the rule with every clause disabled and of the one with one empty clause."""
    disabled = np.array([disabled_clause(problem.n_features)] * R)
    empty = disabled.copy()
    empty[0] = False
    return (cnf_objective(problem, disabled, theta, disable_cost),
            cnf_objective(problem, empty, theta, disable_cost))


def objective_from_rule(model, X, y, weight) -> float:
    """The paper's objective of ``model.rule_``, from its literals evaluated on ``X``.

    In the CNF view (a DNF is the negation of a CNF over the negated literals) a sample of the
    positive class pays one per clause none of whose features holds, a sample of the other
    class the smallest number of holding features over the clauses (a disabled clause holds its
    always-true feature: one); plus θ per literal and the disable cost per unused clause.
    """
    rule, n = model.rule_, len(y)
    cnf = rule.form == "cnf"
    counts = np.zeros((rule.n_clauses, n))
    for r, clause in enumerate(rule.clauses):
        for literal in clause.literals:
            held = literal.evaluate(X)
            counts[r] += held if cnf else ~held
    n_disabled = n_clause_rows(model) - rule.n_clauses
    if n_disabled:
        counts = np.vstack([counts, np.ones((1, n))])
    positive = (np.asarray(y) == model.pos_label_) == cnf
    loss = (weight[positive] @ (counts[:, positive] == 0).sum(axis=0)
            + weight[~positive] @ counts[:, ~positive].min(axis=0))
    return float(loss + model.theta * rule.n_literals + model.disable_cost * n_disabled)


# ------------------------------------------------------------------------------ 1. one clause

@st.composite
def clause_tasks(draw, max_rows=20):
    """A CNF problem from generated data (as a CNF or, complemented, as a DNF sees it) and the
    negative weights and caps of one clause update (as SC, BCD and AM ask for them)."""
    data = draw(datasets(max_rows=max_rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        binarizer = QuantileBinarizer().fit(data.X)
    A = binarizer.transform(data.X)
    positive = data.y == data.labels[1]
    if draw(st.booleans()):
        A, positive = 1 - A, ~positive
    problem = CNFProblem.from_data(A, positive, data.w)
    n_neg = len(problem.w_neg)
    keep = draw(st.lists(st.booleans(), min_size=n_neg, max_size=n_neg))
    neg_weight = np.where(keep, problem.w_neg, 0.0)
    cap = None
    if draw(st.booleans()):  # BCD: counts capped by the other clauses, 0 = rejected by them
        cap = np.asarray(draw(st.lists(st.integers(0, 3), min_size=n_neg, max_size=n_neg)), float)
        neg_weight = np.where(cap == 0, 0.0, neg_weight)
    return problem, neg_weight, cap, draw(st.sampled_from(THETAS)), \
        draw(st.sampled_from(DISABLE_COSTS))


def trivial_clauses(n_features: int) -> np.ndarray:
    """The empty clause, the disabled clause and every one-feature clause."""
    return np.vstack([np.zeros(n_features + 1, dtype=bool), disabled_clause(n_features),
                      np.eye(n_features, n_features + 1, dtype=bool)])


def assert_no_worse_than_trivial(problem, clause, objective, neg_weight, theta, dc, cap):
    assert objective == pytest.approx(
        clause_objective(problem, clause, neg_weight, theta, dc, cap), rel=1e-9, abs=1e-9)
    best = min(clause_objective(problem, c, neg_weight, theta, dc, cap)
               for c in trivial_clauses(problem.n_features))
    assert objective <= best + tolerance(best)


@examples(150)
@given(task=clause_tasks(), levels=st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.5, 1.0]),
                                            min_size=1))
def test_rounding_any_fractional_clause_is_no_worse_than_the_trivial_clauses(task, levels):
    """Whatever the LP's ``w`` (e.g. spread evenly, never touching the always-true feature)."""
    problem, neg_weight, cap, theta, dc = task
    w = np.resize(np.asarray(levels), problem.n_features + 1)
    clause, objective = round_best_threshold(problem, w, neg_weight, theta, dc, cap=cap)
    assert_no_worse_than_trivial(problem, clause, objective, neg_weight, theta, dc, cap)


@examples(150)
@given(task=clause_tasks(), exact=st.sampled_from([False, False, True]))
def test_every_clause_update_is_no_worse_than_the_trivial_clauses(task, exact):
    problem, neg_weight, cap, theta, dc = task
    fit = ClauseSolver(problem, disable_cost=dc, exact=exact).fit(neg_weight, theta, cap)
    assert_no_worse_than_trivial(problem, fit.clause, fit.objective, neg_weight, theta, dc, cap)
    if cap is None:  # the LP is a relaxation of the clause problem (up to the tie-break)
        assert fit.lp_value <= fit.objective + 2 * TIE_BREAK * (problem.n_features + 1) + 1e-9


# ------------------------------------------------------------------------------ 1, 2, 3 and 5

@examples(450)
@given(data=datasets(), params=fit_params())
def test_learned_rule_is_consistent_and_no_worse_than_trivial(data, params):
    model = fit(data.X, data.y, data.w, params)
    theta, dc, R = params["theta"], params["disable_cost"], n_clause_rows(model)
    objective = model.fit_stats_["objective"]
    event("0/1 input" if model.binarizer_ is None else "binarized input")
    event(f"rule of {min(model.rule_.n_literals, 3)}{'+' * (model.rule_.n_literals > 3)} literals")
    tol = tolerance(objective)

    # 1. no worse than every clause disabled, or one empty clause
    problem = cnf_problem(model, data.X, data.y, data.w)
    assert objective <= min(trivial_objectives(problem, R, theta, dc)) + tol

    # 2. the reported objective is the rule's own, recomputed from its literals
    assert objective == pytest.approx(objective_from_rule(model, data.X, data.y, data.weight),
                                      rel=1e-9, abs=1e-9)

    # 3. the Hamming loss charges every training error at least once
    errors = float(data.weight @ (model.predict(data.X) != data.y))
    n_disabled = R - model.rule_.n_clauses
    assert errors + theta * model.rule_.n_literals + dc * n_disabled <= objective + tol

    # 5. the saved model predicts as the estimator, also on missing values and unseen values
    with tempfile.TemporaryDirectory() as folder:
        path = save_model(model, Path(folder) / "model.json", target="target")
        loaded = load_model(path)
    assert loaded.rule == model.rule_
    for X in (data.X, data.X_new):
        assert list(loaded.predict(X)) == list(model.predict(X))


@st.composite
def one_hot_datasets(draw) -> Data:
    """Only one-hot blocks of 0/1 columns, as a user's encoder writes them: every row has the
    same number of ones, and the clause LPs spread ``w`` evenly (the issue's failing case)."""
    n = draw(st.integers(30, 60))
    columns = {}
    for b, k in enumerate(draw(st.lists(st.integers(3, 4), min_size=1, max_size=3))):
        index = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
        columns.update({f"b{b}_{v}": [int(i == v) for i in index] for v in range(k)})
    bits = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    bits[:2] = [True, False]
    y = np.where(bits, 1, 0)
    return Data(pd.DataFrame(columns), y, None, (0, 1), pd.DataFrame(columns))


@examples(300)
@given(data=one_hot_datasets(), params=fit_params())
def test_no_rule_is_worse_than_the_trivial_rules_on_one_hot_data(data, params):
    model = fit(data.X, data.y, data.w, params, pos_label=1)
    objective = model.fit_stats_["objective"]
    problem = cnf_problem(model, data.X, data.y, data.w)
    trivial = trivial_objectives(problem, n_clause_rows(model), params["theta"],
                                 params["disable_cost"])
    assert objective <= min(trivial) + tolerance(objective)
    assert objective == pytest.approx(objective_from_rule(model, data.X, data.y, data.weight),
                                      rel=1e-9, abs=1e-9)


@examples(200)
@given(data=datasets(), params=fit_params(methods=["bcd", "am"]))
def test_descent_ends_no_worse_than_its_set_cover_start(data, params):
    model = fit(data.X, data.y, data.w, params, start="sc")  # not the default "best"
    start = fit(data.X, data.y, data.w, params, method="sc").fit_stats_["objective"]
    history = model.fit_stats_["objective_history"]
    assert history[0] == pytest.approx(start, rel=1e-12, abs=1e-12)
    assert all(b <= a + tolerance(a) for a, b in zip(history, history[1:]))
    assert model.fit_stats_["objective"] <= start + tolerance(start)


# ------------------------------------------------------------------------------ 4. De Morgan

def negated_frame(A: np.ndarray) -> pd.DataFrame:
    """The negation of every literal column, as 0/1 input (one literal per column)."""
    return pd.DataFrame(1 - A.astype(np.int64), columns=[f"not{j}" for j in range(A.shape[1])])


@examples(150)
@given(data=datasets(), params=fit_params())
def test_dnf_for_a_class_is_not_cnf_for_the_other_over_negated_literals(data, params):
    a, b = data.labels
    params = {**params, "form": "dnf"}
    dnf = fit(data.X, data.y, data.w, params, pos_label=a)
    A = training_matrix(dnf, data.X)
    cnf = fit(negated_frame(A), data.y, data.w, params, form="cnf", pos_label=b, binarize=True)
    assert cnf.fit_stats_["objective"] == dnf.fit_stats_["objective"]
    # clause by clause: "not literal j" in a CNF clause is literal j in the DNF term
    assert [[lit.feature for lit in c.literals] for c in cnf.rule_.clauses] == \
        [[f"not{dnf.literals_.index(lit)}" for lit in c.literals] for c in dnf.rule_.clauses]
    # the same labels: the DNF predicts a exactly where the CNF for b does not hold
    assert list(dnf.predict(data.X)) == list(cnf.predict(negated_frame(A)))
    A_new = training_matrix(dnf, data.X_new) if dnf.binarizer_ is not None else None
    if A_new is not None:  # rows with missing values and unseen categories
        assert list(dnf.predict(data.X_new)) == list(cnf.predict(negated_frame(A_new)))


@examples(100)
@given(data=datasets(binary=False), params=fit_params())
def test_negation_closed_literals_make_the_dnf_and_cnf_problems_equal(data, params):
    """With ``x <= t``/``x > t`` and ``x == v``/``x != v`` pairs and no missing values, the
    negated literals are literals again: the DNF's problem for one class is the CNF's for the
    other up to the order of the columns (and of the rows).

    The two learned rules can still differ (in about 2 % of these problems, in the objective;
    in 5 %, in the predictions): the tie-break costs and first-index ties are per column. With
    the CNF's columns put in the DNF's order the learner reaches the DNF's rule exactly.
    """
    data.X = data.X.fillna({name: 0 if pd.api.types.is_numeric_dtype(data.X[name]) else "red"
                            for name in data.X.columns})
    a, b = data.labels
    dnf = fit(data.X, data.y, data.w, params, form="dnf", pos_label=a, binarize=False)
    cnf = fit(data.X, data.y, data.w, params, form="cnf", pos_label=b, binarize=False)
    negated = [dnf.literals_.index(lit.negate()) for lit in dnf.literals_]
    p, q = cnf_problem(dnf, data.X, data.y, data.w), cnf_problem(cnf, data.X, data.y, data.w)
    order = negated + [len(negated)]  # the always-true column stays last
    for mine, theirs in (((p.A_pos, p.w_pos), (q.A_pos, q.w_pos)),
                         ((p.A_neg, p.w_neg), (q.A_neg, q.w_neg))):
        assert rows_and_weights(*mine) == rows_and_weights(theirs[0][:, order], theirs[1])
    reordered = CNFProblem(q.A_pos[:, order], q.w_pos, q.A_neg[:, order], q.w_neg)
    solver = ClauseSolver(reordered, disable_cost=params["disable_cost"])
    result = run_learner(params["method"], solver, params["theta"], max_rules=params["max_rules"],
                         max_iter=params["max_iter"])
    assert result.objective == pytest.approx(dnf.fit_stats_["objective"], rel=1e-12, abs=1e-12)
    assert rule_from_clauses(result.W, dnf.literals_, "dnf") == dnf.rule_


def rows_and_weights(A, w):
    return sorted(zip(map(tuple, A.tolist()), w.tolist()))


# ------------------------------------------------------------------------------ 6. weights

@examples(150)
@given(data=datasets(binary=True, weights=("int",), positive_weight=True), params=fit_params())
def test_integer_weights_equal_repeated_rows(data, params):
    pos_label = data.labels[1]
    weighted = fit(data.X, data.y, data.w, params, pos_label=pos_label)
    rows = np.repeat(np.arange(len(data.y)), data.w.astype(int))
    repeated = fit(data.X.iloc[rows].reset_index(drop=True), data.y[rows], None, params,
                   pos_label=pos_label)
    assert weighted.fit_stats_["objective"] == repeated.fit_stats_["objective"]
    assert weighted.rule_ == repeated.rule_


@examples(100)
@given(data=datasets(binary=True, weights=(None, "int")), params=fit_params())
def test_merged_duplicates_equal_unmerged_rows(data, params):
    A = data.X.to_numpy(dtype=np.uint8)
    positive = data.y == data.labels[1]
    theta, dc = params["theta"], params["disable_cost"]
    results = []
    for merge in (True, False):
        problem = CNFProblem.from_data(A, positive, data.w, merge=merge)
        solver = ClauseSolver(problem, disable_cost=dc)
        results.append(run_learner(params["method"], solver, theta, max_rules=params["max_rules"],
                                   max_iter=30))
    merged, plain = results
    assert merged.objective == pytest.approx(plain.objective, rel=1e-12, abs=1e-12)


# ------------------------------------------------------------------------------ 7. brute force

def brute_force(problem: CNFProblem, R: int, theta: float, disable_cost: float) -> float:
    """The optimum over every CNF of ``R`` (1 or 2) clauses."""
    clauses = np.array(list(itertools.product([False, True], repeat=problem.n_features + 1)))
    pos = np.column_stack([problem.A_pos @ c == 0 for c in clauses]).astype(float)
    neg = np.column_stack([problem.A_neg @ c for c in clauses]).astype(float)
    cost = theta * clauses[:, :-1].sum(axis=1) + disable_cost * clauses[:, -1]
    unsatisfied = problem.w_pos @ pos  # per clause
    if R == 1:
        return float((unsatisfied + problem.w_neg @ neg + cost).min())
    both = np.minimum(neg[:, :, None], neg[:, None, :])  # negatives x clause x clause
    total = (unsatisfied[:, None] + unsatisfied[None, :] + cost[:, None] + cost[None, :]
             + np.einsum("i,ijk->jk", problem.w_neg, both))
    return float(total.min())


@examples(150)
@given(data=datasets(max_rows=10, max_columns=2, binary=True),
       params=fit_params(max_rules=2, clause_solver="mip"),
       solver=st.sampled_from(["lp", "mip"]))
def test_learners_against_brute_force_on_tiny_problems(data, params, solver):
    # binarize=True: the 0/1 columns as the literals ("auto" adds their negations, which
    # would square the brute force's 2 ** (literals + 1) clauses)
    model = fit(data.X, data.y, data.w, params, clause_solver=solver, binarize=True)
    problem = cnf_problem(model, data.X, data.y, data.w)
    R = n_clause_rows(model)
    optimum = brute_force(problem, R, params["theta"], params["disable_cost"])
    objective = model.fit_stats_["objective"]
    assert objective >= optimum - tolerance(optimum)
    if params["method"] == "ocrl" and solver == "mip":
        assert objective == pytest.approx(optimum, rel=1e-9, abs=1e-9)


@pytest.mark.xfail(strict=True, reason="BCD's clause MIP minimizes the paper's clause objective, "
                   "which charges a negative every selected feature it holds; the CNF objective "
                   "charges at most the other clauses' smallest count (here 1, a disabled "
                   "clause), so a better two-feature clause is never proposed")
def test_bcd_with_the_exact_clause_solver_ends_clausewise_optimal():
    problem = CNFProblem(np.array([[0, 1, 1, 0, 1, 1], [1, 0, 1, 0, 1, 1], [1, 1, 0, 1, 0, 1]],
                                  np.float32), np.array([2.0, 3.0, 1.0]),
                         np.array([[0, 1, 1, 0, 1, 1], [1, 0, 1, 1, 0, 1]], np.float32),
                         np.array([1.0, 2.0]))
    theta, dc = 0.5, 0.3
    result = run_learner("bcd", ClauseSolver(problem, disable_cost=dc, exact=True), theta,
                         max_rules=4)
    assert result.n_iter < 100  # a fixed point, not the iteration limit
    clauses = itertools.product([False, True], repeat=problem.n_features + 1)
    for r, clause in itertools.product(range(len(result.W)), clauses):
        trial = result.W.copy()
        trial[r] = clause  # e.g. clause 0 = x1 OR x4: 2.9 against the 3.4 BCD ends at
        assert cnf_objective(problem, trial, theta, dc) >= result.objective - 1e-9
