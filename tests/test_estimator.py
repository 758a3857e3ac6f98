"""BooleanRuleClassifier: scikit-learn conventions, labels, binarization, errors, fit_path."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulelearn.binarize import QuantileBinarizer, ZeroOneBinarizer
from rulelearn.errors import DataError, ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.rules import Literal

# a 0/1 truth table over three features and its target y = (x0 AND x1) OR x2
TABLE = np.array([(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 3)
TARGET = ((TABLE[:, 0] & TABLE[:, 1]) | TABLE[:, 2]).astype(int)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    rows = np.random.default_rng(0).choice(len(X), 80, replace=False)
    return X.iloc[rows].reset_index(drop=True), y.iloc[rows].reset_index(drop=True)


def small(**params):
    return BooleanRuleClassifier(max_rules=2, max_iter=5, **params)


# ------------------------------------------------------------------------ exact results

@pytest.mark.parametrize("method", ["bcd", "am", "sc"])
def test_recovers_a_known_dnf_exactly(method):
    model = BooleanRuleClassifier(method=method, theta=0.1, pos_label=1).fit(TABLE, TARGET)
    assert str(model.rule_) == "(x2 == 1) OR (x0 == 1 AND x1 == 1)" or \
        str(model.rule_) == "(x0 == 1 AND x1 == 1) OR (x2 == 1)"
    assert model.score(TABLE, TARGET) == 1.0
    assert model.rule_.n_literals == 3


@pytest.mark.parametrize("method", ["bcd", "am", "sc"])
def test_recovers_a_known_cnf_exactly(method):
    target = ((TABLE[:, 0] | TABLE[:, 1]) & TABLE[:, 2]).astype(int)  # 1 is the minority
    model = BooleanRuleClassifier(method=method, form="cnf", theta=0.1).fit(TABLE, target)
    assert str(model.rule_) == "(x2 == 1) AND (x0 == 1 OR x1 == 1)"
    assert model.score(TABLE, target) == 1.0


def test_zero_one_columns_get_their_negations_so_the_minority_class_is_learnable():
    # y = 0 is the minority: NOT((x0 AND x1) OR x2) needs "x == 0", which auto now makes
    model = BooleanRuleClassifier(theta=0.1).fit(TABLE, TARGET)
    assert model.pos_label_ == 0 and model.score(TABLE, TARGET) == 1.0
    assert str(model.rule_) in ("(x0 == 0 AND x2 == 0) OR (x1 == 0 AND x2 == 0)",
                                "(x1 == 0 AND x2 == 0) OR (x0 == 0 AND x2 == 0)")
    assert model.fit(pd.DataFrame(TABLE).astype(float), TARGET).pos_label_ == 0


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_not_x0_is_one_literal(form):
    """The issue's trap: y = NOT x0 with 0 the minority gave FALSE (65.5 %) on 0/1 input."""
    rng = np.random.default_rng(0)
    X = (rng.random((200, 4)) < 0.65).astype(int)
    y = 1 - X[:, 0]
    model = BooleanRuleClassifier(theta=0.5, form=form, max_rules=2).fit(X, y)
    assert model.pos_label_ == 1 and str(model.rule_) == "x0 == 0"
    assert model.score(X, y) == 1.0
    forced = BooleanRuleClassifier(theta=0.5, binarize=True).fit(X, y)  # the columns as given
    assert forced.literals_ == [Literal(f"x{j}", "==", 1) for j in range(4)]
    assert str(forced.rule_) == "FALSE"


def test_large_theta_gives_a_constant_rule_for_the_cheaper_class():
    # θ = 100 makes any literal too dear: predict the 9 zeros right (FALSE) or the 15 ones (TRUE)
    model = BooleanRuleClassifier(theta=100.0, pos_label=0).fit(TABLE, TARGET)
    assert str(model.rule_) == "FALSE" and (model.predict(TABLE) == 1).all()
    model = BooleanRuleClassifier(theta=100.0, pos_label=1).fit(TABLE, TARGET)
    assert str(model.rule_) == "TRUE" and (model.predict(TABLE) == 1).all()
    assert model.rule_.n_literals == 0


# ------------------------------------------------------------------------ sklearn conventions

def test_get_set_params_and_clone():
    model = BooleanRuleClassifier(theta=2.5, form="cnf")
    params = model.get_params()
    assert params["theta"] == 2.5 and params["form"] == "cnf" and params["method"] == "bcd"
    assert set(params) == {"method", "form", "max_rules", "theta", "max_iter", "n_thresholds",
                           "pos_label", "binarize", "disable_cost", "clause_solver", "time_limit",
                           "start", "lp_rows", "class_weight", "cut_points",
                           "certify", "sums", "polish", "perturb"}
    assert model.set_params(theta=0.5) is model and model.theta == 0.5
    model.fit(TABLE, TARGET)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert not hasattr(copy, "rule_")
    with pytest.raises(TypeError):
        BooleanRuleClassifier(1.0)  # keyword-only


def test_fitted_attributes(cancer):
    X, y = cancer
    model = small()
    assert model.fit(X, y) is model
    assert model.classes_.tolist() == [0, 1]
    assert model.n_features_in_ == 30
    assert model.feature_names_in_.tolist() == [str(c) for c in X.columns]
    assert isinstance(model.n_iter_, int) and 0 <= model.n_iter_ <= 5
    assert {"objective", "objective_history", "n_lp", "simplex_iterations", "fit_seconds",
            "n_rows_merged", "n_literals_available"} <= set(model.fit_stats_)
    assert model.fit_stats_["n_lp"] >= 1
    assert model.fit_stats_["n_rows_merged"] <= len(X)
    assert model.fit_stats_["n_literals_available"] == len(model.literals_)
    assert model.fit_stats_["objective"] == pytest.approx(model.fit_stats_["objective_history"][-1])
    assert model.rule_.n_clauses <= 2


def test_predict_before_fit():
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        small().predict(TABLE)


def test_pipeline_and_grid_search(cancer):
    X, y = cancer
    pipe = Pipeline([("bin", QuantileBinarizer(n_thresholds=5)), ("rule", small())])
    pipe.fit(X, y)
    assert pipe.named_steps["rule"].literals_[0] == Literal("x0", "==", 1)  # already 0/1
    assert pipe.score(X, y) == (pipe.predict(X) == y).mean()
    grid = GridSearchCV(small(), {"theta": [0.5, 2.0, 8.0]}, cv=3).fit(X, y)
    assert grid.best_params_["theta"] in (0.5, 2.0, 8.0)
    assert len(grid.cv_results_["split2_test_score"]) == 3
    assert grid.best_estimator_.theta == grid.best_params_["theta"]
    assert hasattr(grid.best_estimator_, "rule_")


# ------------------------------------------------------------------------ labels

def test_pos_label_defaults_to_the_minority_class():
    X = np.arange(10.0).reshape(-1, 1)
    assert small().fit(X, [0] * 3 + [1] * 7).pos_label_ == 0
    assert small().fit(X, [0] * 7 + [1] * 3).pos_label_ == 1
    assert small().fit(X, ["b"] * 4 + ["a"] * 6).pos_label_ == "b"


def test_pos_label_tie_goes_to_the_second_class():
    X = np.arange(10.0).reshape(-1, 1)
    model = small().fit(X, ["yes"] * 5 + ["no"] * 5)
    assert model.classes_.tolist() == ["no", "yes"] and model.pos_label_ == "yes"


def test_explicit_pos_label_also_as_text():
    X = np.arange(10.0).reshape(-1, 1)
    y = [2] * 3 + [5] * 7
    assert small(pos_label=5).fit(X, y).pos_label_ == 5
    model = small(pos_label="5").fit(X, y)
    assert model.pos_label_ == 5 and not isinstance(model.pos_label_, str)
    assert set(model.predict(X).tolist()) <= {2, 5}


def test_unknown_pos_label():
    with pytest.raises(DataError, match=r"pos_label 'maybe' is not a class of y \(classes: 0, 1\)"):
        small(pos_label="maybe").fit(TABLE, TARGET)


def test_predict_returns_the_original_labels():
    labels = np.where(TARGET == 1, "sick", "healthy")
    assert small().fit(TABLE, labels).pos_label_ == "healthy"  # the minority class
    model = BooleanRuleClassifier(theta=0.1, pos_label="sick").fit(TABLE, labels)
    assert model.predict(TABLE).tolist() == labels.tolist()
    ints = np.where(TARGET == 1, 7, -3)
    model = BooleanRuleClassifier(theta=0.1, pos_label=7).fit(TABLE, ints)
    predicted = model.predict(TABLE)
    assert predicted.tolist() == ints.tolist() and predicted.dtype.kind == "i"
    assert model.score(TABLE, ints) == 1.0


# ------------------------------------------------------------------------ binarization

def test_binary_input_gives_each_column_and_its_negation():
    model = BooleanRuleClassifier(theta=0.1, pos_label=1).fit(TABLE, TARGET)
    assert model.literals_ == [Literal(f"x{j}", "==", v) for j in range(3) for v in (1, 0)]
    assert isinstance(model.binarizer_, ZeroOneBinarizer)
    A = model.binarizer_.transform(TABLE)
    assert A.tolist() == [[int(c == w) for c in row for w in (1, 0)] for row in TABLE]
    frame = pd.DataFrame(TABLE.astype(bool), columns=["a", "b", "c"])
    model = BooleanRuleClassifier(theta=0.1, pos_label=1).fit(frame, TARGET)
    assert [str(lit) for lit in model.literals_] == ["a == 1", "a == 0", "b == 1", "b == 0",
                                                      "c == 1", "c == 0"]
    assert model.score(frame, TARGET) == 1.0
    given_as_is = BooleanRuleClassifier(theta=0.1, pos_label=1, binarize=True).fit(TABLE, TARGET)
    assert given_as_is.literals_ == [Literal(f"x{j}", "==", 1) for j in range(3)]
    assert given_as_is.binarizer_ is None


def test_raw_input_is_binarized(cancer):
    X, y = cancer
    model = small().fit(X, y)
    assert isinstance(model.binarizer_, QuantileBinarizer)
    assert len(model.literals_) == 30 * 20
    assert model.literals_ == model.binarizer_.literals_
    forced = small(binarize=False).fit(TABLE, TARGET)  # 0/1 columns binarized anyway
    assert [str(lit) for lit in forced.literals_[:2]] == ["x0 <= 0", "x0 > 0"]
    with pytest.raises(DataError, match="binarize=True needs a matrix of 0/1 values"):
        small(binarize=True).fit(X, y)


def test_dataframe_names_appear_in_the_rule(cancer):
    X, y = cancer
    model = small(theta=2.0).fit(X, y)
    assert model.rule_.n_literals > 0
    assert set(model.rule_.features) <= set(X.columns)
    for feature in model.rule_.features:
        assert feature in str(model.rule_)
    # a numpy array with the same values predicts the same (columns take the fitted names)
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        assert model.predict(X.to_numpy()).tolist() == model.predict(X).tolist()


def test_rule_predictions_equal_predictions_on_the_binarized_matrix(cancer):
    X, y = cancer
    for form in ("dnf", "cnf"):
        model = small(form=form, theta=0.5).fit(X, y)
        A = model.binarizer_.transform(X).astype(bool)
        index = {lit: j for j, lit in enumerate(model.literals_)}
        clauses = [A[:, [index[lit] for lit in clause.literals]] for clause in model.rule_.clauses]
        if form == "dnf":
            held = (np.any([c.all(axis=1) for c in clauses], axis=0) if clauses
                    else np.zeros(len(X), bool))
        else:
            held = (np.all([c.any(axis=1) for c in clauses], axis=0) if clauses
                    else np.ones(len(X), bool))
        assert model.rule_.evaluate(X).tolist() == held.tolist()
        negative = 1 - model.pos_label_
        assert model.predict(X).tolist() == np.where(held, model.pos_label_, negative).tolist()


# ------------------------------------------------------------------------ errors

@pytest.mark.parametrize("param, value, message", [
    ("form", "DNF ", "The 'form' parameter of BooleanRuleClassifier must be one of "
                     "{'cnf', 'dnf'}. Got 'DNF ' instead."),
    ("method", "cart", "The 'method' parameter of BooleanRuleClassifier must be one of "
                       "{'bcd', 'am', 'sc', 'ocrl', 'cg'}. Got 'cart' instead."),
    ("max_rules", 0, "The 'max_rules' parameter of BooleanRuleClassifier must be an int >= 1. "
                     "Got 0 instead."),
    ("max_rules", 2.0, "must be an int >= 1. Got 2.0 instead."),
    ("theta", -1.0, "The 'theta' parameter of BooleanRuleClassifier must be a finite number "
                    ">= 0. Got -1.0 instead."),
    ("theta", float("inf"), "must be a finite number >= 0. Got inf instead."),
    ("theta", float("nan"), "must be a finite number >= 0. Got nan instead."),
    ("disable_cost", float("inf"), "must be a finite number >= 0. Got inf instead."),
    ("theta", "1", "Got '1' instead."),
    ("binarize", "yes", "The 'binarize' parameter"),
    ("clause_solver", "cplex", "The 'clause_solver' parameter"),
])
def test_bad_parameters(param, value, message):
    model = BooleanRuleClassifier(**{param: value})  # __init__ does not validate
    with pytest.raises(ParameterError, match=re.escape(message)):
        model.fit(TABLE, TARGET)


@pytest.mark.parametrize("y, message", [
    ([1] * 24, "Only binary classification is supported: a Boolean rule needs exactly 2 "
               "classes; y has 1 class (1)"),
    ([0, 1, 2] * 8, "a Boolean rule needs exactly 2 classes; y has 3 classes (0, 1, 2)"),
    (np.linspace(0, 1, 24), "y has 24 classes (0.0, 0.043"),
    (np.linspace(0, 1, 24), "y looks continuous (a regression target?)"),
    ([0, 1] * 10, "X has 24 rows but y has 20 labels"),
    ([0, 1, None] * 8, "y has missing labels"),
])
def test_bad_targets(y, message):
    with pytest.raises(DataError, match=re.escape(message)):
        small().fit(TABLE, np.asarray(y, dtype=object if None in y else None))


def test_bad_inputs():
    with pytest.raises(DataError, match="got a 1-d array. Reshape your data"):
        small().fit(TABLE[:, 0], TARGET)
    model = small().fit(TABLE, TARGET)
    for method in (model.predict, model.predict_proba, model.decision_function, model.score):
        args = (TABLE[:, :2], TARGET) if method == model.score else (TABLE[:, :2],)
        with pytest.raises(DataError, match=re.escape(
                "X has 2 features, but BooleanRuleClassifier is expecting 3 features as input.")):
            method(*args)
    with pytest.raises(DataError, match=re.escape(
            "Found array with 0 feature(s) (shape=(24, 0)) while a minimum of 1 is required")):
        small().fit(TABLE[:, :0], TARGET)
    with pytest.raises(DataError, match=re.escape("Found array with 0 sample(s) (shape=(0, 3))")):
        small().fit(TABLE[:0], TARGET[:0])
    with pytest.raises(DataError, match="every column is constant or empty"), \
            pytest.warns(UserWarning, match="dropped 2 constant"):
        small().fit(np.full((6, 2), 3.0), [0, 1] * 3)


# ------------------------------------------------------------------------ fit_path

@pytest.mark.parametrize("method", ["bcd", "ocrl"])
def test_fit_path_returns_one_model_per_theta_in_order(cancer, method):
    X, y = cancer
    thetas = [0.5, 4.0, 1.0]
    path = small(method=method).fit_path(X, y, thetas)
    assert [model.theta for model in path] == thetas
    assert all(isinstance(model, BooleanRuleClassifier) for model in path)
    assert len({id(model) for model in path}) == 3
    for model in path:
        assert model.predict(X).shape == (len(X),)


def test_fit_path_from_scratch_equals_separate_fits(cancer):
    X, y = cancer
    thetas = [0.5, 2.0, 1.0, 5.0, 0.1]
    path = small(method="ocrl").fit_path(X, y, thetas, warm_across_theta=False)
    for theta, model in zip(thetas, path):
        alone = small(method="ocrl", theta=theta).fit(X, y)
        assert str(model.rule_) == str(alone.rule_), theta


# ------------------------------------------------------------------------ sklearn's own checks

def _expected_failed_checks(estimator):
    # none: every check of scikit-learn's applies and passes (check_array_api_input is skipped
    # by scikit-learn itself unless SCIPY_ARRAY_API is set)
    return {}


@parametrize_with_checks([BooleanRuleClassifier(max_rules=2, max_iter=5)],
                         expected_failed_checks=_expected_failed_checks)
def test_sklearn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dropped constant columns
        check(estimator)


def test_refit_on_an_array_after_a_dataframe_forgets_the_names():
    X = np.random.default_rng(0).normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    model = small().fit(pd.DataFrame(X, columns=["a", "b"]), y)
    model.fit(X, y)
    assert not hasattr(model, "feature_names_in_")
    assert model.predict(X).tolist() == small().fit(X, y).predict(X).tolist()


@pytest.mark.parametrize("labels", [[2, 10], ["no", "yes"], [0.5, 3.0]])
def test_the_default_positive_class_is_the_same_for_csv_files_and_the_estimator(labels, tmp_path):
    from rulelearn.data import read_csv_dataset

    y = np.array(labels * 12)  # a tie: the label that sorts last is positive
    X = np.random.default_rng(0).random((len(y), 2))
    path = tmp_path / "tie.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "label": y}).to_csv(path, index=False)
    model = BooleanRuleClassifier(theta=5.0).fit(X, y)
    assert model.pos_label_ == labels[1]
    positive = read_csv_dataset(path).positive  # the same class, as written in the file
    assert positive == labels[1] or positive == str(labels[1])


# ------------------------------------------------------------------------ sample weights

@st.composite
def weighted_datasets(draw):
    """Rows with a one-hot block, constant columns and (maybe) a numeric column; integer
    weights 0..3; two classes among the rows of positive weight."""
    n = draw(st.integers(4, 14))
    block = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    columns = {f"onehot{k}": [int(b == k) for b in block] for k in range(3)}
    columns["zeros"], columns["ones"] = [0] * n, [1] * n
    if draw(st.booleans()):
        columns["num"] = draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.5, 8.0]),
                                       min_size=n, max_size=n))
    y = np.asarray(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    weights = np.asarray(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    assume(len(set(y[weights > 0].tolist())) == 2)
    return pd.DataFrame(columns), y, weights, draw(st.permutations(range(n)))


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(data=weighted_datasets(), form=st.sampled_from(["dnf", "cnf"]),
       method=st.sampled_from(["bcd", "sc", "ocrl"]), theta=st.sampled_from([0.1, 1.0]))
def test_integer_weights_equal_repeated_rows(data, form, method, theta):
    X, y, weights, order = data
    params = dict(form=form, method=method, theta=theta, max_rules=2, max_iter=5, n_thresholds=3)
    repeated_rows = np.repeat(np.arange(len(y)), weights)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # constant columns dropped
        repeated = BooleanRuleClassifier(**params).fit(X.iloc[repeated_rows], y[repeated_rows])
        order = list(order)  # the weighted rows in another order
        weighted = BooleanRuleClassifier(**params).fit(X.iloc[order], y[order],
                                                       sample_weight=weights[order])
    assert weighted.pos_label_ == repeated.pos_label_
    assert weighted.literals_ == repeated.literals_
    assert str(weighted.rule_) == str(repeated.rule_)
    assert np.allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=0, atol=1e-12)


def test_a_weight_of_two_is_a_duplicated_row(cancer):
    X, y = cancer
    weights = np.ones(len(y))
    weights[:10] = 2
    doubled = pd.concat([X, X.iloc[:10]], ignore_index=True), pd.concat([y, y.iloc[:10]])
    repeated = small(theta=0.5).fit(*doubled)
    weighted = small(theta=0.5).fit(X, y, sample_weight=weights)
    assert weighted.literals_ == repeated.literals_ != small(theta=0.5).fit(X, y).literals_
    assert str(weighted.rule_) == str(repeated.rule_)
    assert np.allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_the_default_positive_class_is_the_weighted_minority():
    X = np.arange(10.0).reshape(-1, 1)
    y = [0] * 4 + [1] * 6
    assert small().fit(X, y).pos_label_ == 0
    assert small().fit(X, y, sample_weight=[2.0] * 4 + [1.0] * 6).pos_label_ == 1


# ------------------------------------------------------------------------ names at predict

def test_feature_names_at_predict():
    X = np.random.default_rng(0).normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    named = small().fit(pd.DataFrame(X, columns=["a", "b"]), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = named.predict(pd.DataFrame(X, columns=["a", "b"]))
    with pytest.warns(UserWarning, match="X does not have valid feature names, but "
                                         "BooleanRuleClassifier was fitted with feature names"):
        assert named.predict(X).tolist() == expected.tolist()  # by position
    with pytest.raises(DataError, match="Feature names unseen at fit time:\n- c\n"):
        named.predict_proba(pd.DataFrame(X, columns=["a", "c"]))
    with pytest.raises(DataError, match="must be in the same order"):
        named.decision_function(pd.DataFrame(X, columns=["b", "a"]))
    anonymous = small().fit(X, y)
    with pytest.warns(UserWarning, match="X has feature names, but BooleanRuleClassifier was "
                                         "fitted without feature names"):
        predicted = anonymous.predict(pd.DataFrame(X, columns=["a", "b"]))  # by position
    assert predicted.tolist() == anonymous.predict(X).tolist()


def test_a_column_vector_y_warns_and_is_raveled():
    from sklearn.exceptions import DataConversionWarning
    with pytest.warns(DataConversionWarning):
        model = small().fit(TABLE, TARGET.reshape(-1, 1))
    assert str(model.rule_) == str(small().fit(TABLE, TARGET).rule_)


def test_lp_rows_samples_the_clause_lp_only_when_asked_or_above_the_threshold():
    from rulelearn.errors import ParameterError
    from rulelearn.estimator import LP_SAMPLE_ABOVE, lp_sample_sizes

    assert lp_sample_sizes("auto", LP_SAMPLE_ABOVE) is None  # no dataset of the paper is sampled
    assert lp_sample_sizes("auto", LP_SAMPLE_ABOVE + 1) == (1000, 2000, 4000, 8000, 16000)
    assert lp_sample_sizes(None, 10**7) is None and lp_sample_sizes(3, 10) == (3, 6, 12, 24, 48)
    auto = BooleanRuleClassifier(theta=0.5).fit(TABLE, TARGET)
    full = BooleanRuleClassifier(theta=0.5, lp_rows=None).fit(TABLE, TARGET)
    assert str(auto.rule_) == str(full.rule_)
    assert auto.fit_stats_["lp_rows"] == full.fit_stats_["lp_rows"]
    sampled = BooleanRuleClassifier(theta=0.5, lp_rows=2).fit(TABLE, TARGET)
    assert sampled.fit_stats_["lp_rows"][0] == 2
    for bad in (0, "all", 1.5):
        with pytest.raises(ParameterError):
            BooleanRuleClassifier(lp_rows=bad).fit(TABLE, TARGET)


def test_one_default_start_for_the_estimator_and_fit():
    from rulelearn.cli.fit import fit as fit_command

    option = next(p for p in fit_command.params if p.name == "start")
    assert BooleanRuleClassifier().start == option.default == "best"


# ------------------------------------------------------------------------ class weights

def test_class_sample_weight_exact():
    from rulelearn.estimator import class_sample_weight

    y = np.array(["a", "a", "a", "b"])
    assert class_sample_weight(None, y) is None
    assert class_sample_weight("balanced", y).tolist() == pytest.approx([2 / 3] * 3 + [2.0])
    # sample weights: class totals by weight, as the same rows repeated
    w = np.array([2.0, 1.0, 1.0, 1.0])
    assert class_sample_weight("balanced", y, sample_weight=w).tolist() == \
        pytest.approx([2 * 5 / 8, 5 / 8, 5 / 8, 5 / 2])
    assert class_sample_weight({"b": 3}, y).tolist() == [1, 1, 1, 3]
    with pytest.raises(DataError, match="class_weight names 'c', which is not a class of y"):
        class_sample_weight({"c": 1.0}, y)
    with pytest.raises(DataError, match=r"class_weight\['b'\] must be a finite number > 0"):
        class_sample_weight({"b": -1}, y)


# 15 positives, all with x0 = 1; 85 negatives, 15 of them with x0 = 1
RARE_X = np.array([[1]] * 30 + [[0]] * 70)
RARE_Y = np.array([1] * 15 + [0] * 85)


def test_balanced_class_weight_predicts_the_rare_class():
    plain = BooleanRuleClassifier(theta=1.0, pos_label=1, max_rules=1).fit(RARE_X, RARE_Y)
    assert str(plain.rule_) == "FALSE"  # 15 errors either way; the literal costs theta
    balanced = BooleanRuleClassifier(theta=1.0, pos_label=1, max_rules=1,
                                     class_weight="balanced").fit(RARE_X, RARE_Y)
    assert str(balanced.rule_) == "x0 == 1"
    assert balanced.fit_stats_["objective"] == pytest.approx(15 * 100 / 170 + 1.0)
    # the precisions of predict_proba stay those of the rows (half of x0 = 1 is positive)
    assert balanced.clause_precision_.tolist() == [0.5]


def test_a_class_weight_dict_is_sample_weights_on_that_class():
    weighted = BooleanRuleClassifier(theta=1.0, pos_label=1, max_rules=1,
                                     class_weight={1: 3}).fit(RARE_X, RARE_Y)
    by_rows = BooleanRuleClassifier(theta=1.0, pos_label=1, max_rules=1).fit(
        RARE_X, RARE_Y, sample_weight=np.where(RARE_Y == 1, 3.0, 1.0))
    assert weighted.rule_ == by_rows.rule_ and str(weighted.rule_) == "x0 == 1"
    assert weighted.fit_stats_["objective"] == by_rows.fit_stats_["objective"]


def test_class_weight_is_validated():
    with pytest.raises(ParameterError, match="The 'class_weight' parameter of "
                       "BooleanRuleClassifier must be None or one of {'balanced'} or a dict"):
        BooleanRuleClassifier(class_weight="balance").fit(RARE_X, RARE_Y)
