"""Literal pruning: exact small cases and an oracle that re-evaluates every removal."""

import itertools

import numpy as np
import pandas as pd
import pytest

from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.prune import prune, prune_model
from rulelearn.rules import Clause, Literal, Rule


def lit(name):
    return Literal(name, "==", 1)


def rule_of(form, *clauses):
    return Rule(form, tuple(Clause(tuple(lit(n) for n in c)) for c in clauses))


def all_rows(names):
    """Every 0/1 assignment of ``names``, as a frame."""
    return pd.DataFrame(list(itertools.product((0, 1), repeat=len(names))), columns=names)


def held_of(rule, X):
    return [[literal.evaluate(X) for literal in c.literals] for c in rule.clauses]


def objective(rule, X, positive, theta, weight=None):
    weight = np.ones(len(X)) if weight is None else weight
    return float(weight[rule.evaluate(X) != positive].sum()) + theta * rule.n_literals


def removals(rule):
    """Every rule one removal away: a literal of a clause of two or more, or a whole clause."""
    for c, clause in enumerate(rule.clauses):
        rest = rule.clauses[:c] + rule.clauses[c + 1:]
        yield Rule(rule.form, rest)
        if len(clause) > 1:
            for j in range(len(clause)):
                fewer = Clause(clause.literals[:j] + clause.literals[j + 1:])
                yield Rule(rule.form, rule.clauses[:c] + (fewer,) + rule.clauses[c + 1:])


def test_a_literal_that_changes_no_training_row_is_dropped():
    X = all_rows(["a", "b", "c"])
    X = X[~((X.a == 1) & (X.b == 0))]  # b is implied by a on these rows: "a AND b" is "a"
    positive = ((X.a == 1) | (X.c == 1)).to_numpy()
    pruned = prune(rule_of("dnf", ["a", "b"], ["c"]), held_of(rule_of("dnf", ["a", "b"], ["c"]),
                   X), positive, theta=0.0)
    assert pruned == rule_of("dnf", ["a"], ["c"])


def test_a_literal_worth_fewer_errors_than_theta_goes_and_one_worth_more_stays():
    X = all_rows(["a", "b"])  # 4 rows; the target is a AND b
    positive = ((X.a == 1) & (X.b == 1)).to_numpy()
    rule = rule_of("dnf", ["a", "b"])
    held = held_of(rule, X)
    # the positive row weighs 3 (dropping the clause costs 3); dropping a (or b) costs the
    # row a=0, b=1 (a=1, b=0): kept at θ < 1, dropped at θ = 1 (a tie; the first literal, a)
    weight = np.where(positive, 3.0, 1.0)
    assert prune(rule, held, positive, theta=0.5, weight=weight) == rule
    assert prune(rule, held, positive, theta=1.0, weight=weight) == rule_of("dnf", ["b"])
    # the rows a != b weighing 3 too keep both at θ = 1
    weight = np.where((X.a == 1) | (X.b == 1), 3.0, 1.0)
    assert prune(rule, held, positive, theta=1.0, weight=weight) == rule
    # unweighted, the clause is worth one error: gone at θ = 0.5 (a tie), kept below
    assert prune(rule, held, positive, theta=0.5) == Rule("dnf", ())
    assert prune(rule, held, positive, theta=0.4) == rule


def test_cnf_drops_a_whole_clause_that_the_data_never_falsify():
    X = all_rows(["a", "b", "c"])
    positive = (X.a == 1).to_numpy()
    rule = rule_of("cnf", ["a"], ["a", "b", "c"])  # the second clause holds wherever a does
    assert prune(rule, held_of(rule, X), positive, theta=0.1) == rule_of("cnf", ["a"])


@pytest.mark.parametrize("seed", range(6))
def test_pruned_rule_is_never_worse_and_no_single_removal_keeps_its_objective(seed):
    rng = np.random.default_rng(seed)
    names = list("abcde")
    X = all_rows(names)
    positive = rng.random(len(X)) < 0.4
    weight = rng.integers(1, 4, len(X)).astype(float)
    form = ("dnf", "cnf")[seed % 2]
    clauses = [list(rng.choice(names, size=int(rng.integers(1, 4)), replace=False))
               for _ in range(3)]
    rule = rule_of(form, *clauses)
    theta = [0.0, 0.5, 2.0][seed % 3]
    pruned = prune(rule, held_of(rule, X), positive, theta, weight)
    # only removals: every clause of the pruned rule is a part of a clause of the rule
    assert pruned.n_literals <= rule.n_literals
    assert objective(pruned, X, positive, theta, weight) <= objective(rule, X, positive, theta,
                                                                      weight)
    # a local optimum of the stopping rule: every further removal raises the objective
    here = objective(pruned, X, positive, theta, weight)
    for smaller in removals(pruned):
        assert objective(smaller, X, positive, theta, weight) > here


def test_prune_model_keeps_predictions_consistent_with_the_new_rule():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = np.where(X.a > 0.2, 1, 0)
    model = BooleanRuleClassifier(pos_label=1, theta=0.5, max_rules=3).fit(X, y)
    before = model.rule_
    pruned = prune_model(model, X, y, theta=40.0)  # a literal must save 40 training errors
    assert pruned is model and model.rule_.n_literals <= before.n_literals
    assert np.array_equal(model.predict(X) == 1, model.rule_.evaluate(X))
    assert len(model.clause_precision_) == model.rule_.n_clauses


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_prune_model_reports_the_pruned_rules_objective(form):
    from rulelearn.certify import estimator_problem, rule_objective

    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = np.where((X.a > 0.2) | (X.b > 1.0), 1, 0)
    model = BooleanRuleClassifier(pos_label=1, theta=0.5, max_rules=3, form=form).fit(X, y)
    learned, before = model.fit_stats_["objective"], model.rule_
    prune_model(model, X, y, theta=60.0)  # a literal must save 60 errors: some go
    assert model.rule_ != before and model.fit_stats_["pruned_literals"] > 0
    A, positive, terms = estimator_problem(model, X, y)
    expected = rule_objective(A, positive, terms, model.theta, form=form, max_rules=3)
    assert model.fit_stats_["objective"] == pytest.approx(expected) != pytest.approx(learned)
