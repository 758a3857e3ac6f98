"""predict_proba and decision_function: clause precisions, exact on small cases, and ROC-AUC."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import roc_auc_score

from rulelearn import BooleanRuleClassifier
from rulelearn.errors import ModelFileError
from rulelearn.model_io import load_model, save_model
from rulelearn.proba import RuleProba, fit_proba
from rulelearn.rules import Rule

X = pd.DataFrame({"a": [1, 1, 0, 1, 0, 0, 0, 0], "b": [0, 0, 1, 1, 0, 0, 0, 0]})
Y = np.array([1, 0, 1, 1, 0, 1, 0, 0], dtype=bool)


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("labels, pos_label", [((0, 1), 0), ((0, 1), 1), (("no", "yes"), "no"),
                                               (("no", "yes"), "yes")])
def test_a_loaded_model_gives_the_estimators_two_columns(tmp_path, form, labels, pos_label):
    """Columns in ``classes_`` order, equal to the estimator's, ties at 0.5 included."""
    y = np.where(Y, labels[1], labels[0])
    clf = BooleanRuleClassifier(form=form, pos_label=pos_label, max_rules=2, max_iter=5)
    clf.fit(X, y)
    for precision, default in [(None, None), ((0.5,) * clf.rule_.n_clauses, 0.5),
                               ((0.2,) * clf.rule_.n_clauses, 0.9)]:
        if precision is not None:
            clf.clause_precision_, clf.default_precision_ = np.asarray(precision), default
        loaded = load_model(save_model(clf, tmp_path / "m.json", target="y", X=X, y=y))
        proba = loaded.predict_proba(X)
        assert proba.shape == (len(X), 2) and loaded.classes == clf.classes_.tolist()
        assert np.array_equal(proba, clf.predict_proba(X))
        assert [loaded.classes[i] for i in proba.argmax(axis=1)] == loaded.predict(X).tolist()


def test_dnf_clause_precisions_and_the_rest():
    rule = Rule.parse("(a == 1) OR (b == 1)", "dnf")
    proba = fit_proba(rule, X, Y)
    assert proba.clause_precision == pytest.approx((2 / 3, 1.0))
    assert proba.default_precision == pytest.approx(1 / 4)
    # a row several clauses accept gets the highest precision among them
    assert proba.positive(rule, X) == pytest.approx([2 / 3, 2 / 3, 1, 1, .25, .25, .25, .25])


def test_cnf_is_the_dual():
    rule = Rule.parse("(a == 1) AND (b == 1)", "cnf")
    proba = fit_proba(rule, X, Y)
    assert proba.clause_precision == pytest.approx((2 / 5, 2 / 6))  # positives among rejected
    assert proba.default_precision == pytest.approx(1.0)  # the rule's precision
    assert proba.positive(rule, X) == pytest.approx([1 / 3, 1 / 3, .4, 1, 1 / 3, 1 / 3, 1 / 3,
                                                     1 / 3])


def test_sample_weights_and_unreached_clauses():
    rule = Rule.parse("(a == 1) OR (b == 2)", "dnf")
    weights = np.array([1, 2, 1, 1, 1, 1, 1, 1.0])
    proba = fit_proba(rule, X, Y, weights)
    overall = 4 / 9
    assert proba.clause_precision == pytest.approx((2 / 4, overall))  # b == 2 accepts no row
    assert proba.default_precision == pytest.approx(2 / 5)


def test_probabilities_take_the_rule_s_side_of_one_half():
    rule = Rule.parse("a == 1", "dnf")
    # the clause's precision 0.3 is below the rest's 0.4: accepted rows get 0.5, not 0.3
    held, positive = RuleProba((0.3,), 0.4).decide(rule, X)
    assert held.tolist() == (X["a"] == 1).tolist()
    assert positive.tolist() == [0.5, 0.5, 0.4, 0.5, 0.4, 0.4, 0.4, 0.4]
    assert RuleProba((0.9,), 0.7).positive(rule, X).tolist() == [0.9, 0.9, 0.5, 0.9] + [0.5] * 4
    cnf = Rule.parse("a == 1", "cnf")  # rejected rows: the clause's 0.8 becomes 0.5
    assert RuleProba((0.8,), 0.2).positive(cnf, X).tolist() == [0.5, 0.5, 0.5, 0.5] + [0.5] * 4
    assert RuleProba((), 0.4).positive(Rule("dnf", ()), X).tolist() == [0.4] * 8  # FALSE
    assert RuleProba((), 0.4).positive(Rule("cnf", ()), X).tolist() == [0.5] * 8  # TRUE


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("pos_label", [0, 1])
def test_proba_and_decision_agree_with_predict_when_precisions_contradict_the_rule(form,
                                                                                   pos_label):
    clf = BooleanRuleClassifier(form=form, pos_label=pos_label, max_rules=2, max_iter=5)
    clf.fit(X, Y.astype(int))
    negative = 1 - pos_label
    # precisions on the wrong side of 0.5 for both sides of the rule, and ties at 0.5
    for precision, default in [((0.2,) * clf.rule_.n_clauses, 0.9),
                               ((0.5,) * clf.rule_.n_clauses, 0.5)]:
        clf.clause_precision_, clf.default_precision_ = np.asarray(precision), default
        predicted = clf.predict(X)
        proba, decision = clf.predict_proba(X), clf.decision_function(X)
        assert clf.classes_[np.argmax(proba, axis=1)].tolist() == predicted.tolist()
        assert np.where(decision > 0, 1, 0).tolist() == predicted.tolist()
        assert np.allclose(proba.sum(axis=1), 1) and np.allclose(decision, proba[:, 1] - 0.5)
        assert set(predicted.tolist()) <= {pos_label, negative}


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True, as_frame=True)


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_estimator_proba_ranks_and_decision_agrees_with_predict(cancer, form):
    X, y = cancer
    clf = BooleanRuleClassifier(form=form, max_rules=3, theta=1.0).fit(X, y)
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1)
    assert clf.pos_label_ == 0  # so classes_[1] is the negative class: columns follow classes_
    positive_column = list(clf.classes_).index(clf.pos_label_)
    assert np.allclose(proba[:, positive_column],
                       clf._proba().positive(clf.rule_, X))
    decision = clf.decision_function(X)
    assert roc_auc_score(y, proba[:, 1]) == pytest.approx(roc_auc_score(y, decision))
    assert roc_auc_score(y, proba[:, 1]) > 0.9
    assert np.array_equal(decision > 0, clf.predict(X) == clf.classes_[1])
    assert np.array_equal(clf.classes_[np.argmax(proba, axis=1)], clf.predict(X))


def test_proba_saved_and_loaded(tmp_path, cancer):
    X, y = cancer
    clf = BooleanRuleClassifier(max_rules=3, theta=1.0).fit(X, y)
    path = save_model(clf, tmp_path / "m.json", target="y", X=X, y=y)
    loaded = load_model(path)
    assert loaded.classes == clf.classes_.tolist()
    assert np.allclose(loaded.predict_proba(X), clf.predict_proba(X))
    doc = json.loads(path.read_text())
    del doc["proba"]  # a file from before probabilities
    path.write_text(json.dumps(doc))
    old = load_model(path)
    assert np.array_equal(old.predict(X), loaded.predict(X))
    with pytest.raises(ModelFileError, match="no clause precisions"):
        old.predict_proba(X)
