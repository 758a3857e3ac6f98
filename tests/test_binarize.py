"""QuantileBinarizer: thresholds, categorical and missing literals, transform == evaluate,
sklearn."""

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier

from rulelearn.binarize import CUT_POINTS, QuantileBinarizer, numeric_thresholds, short_threshold
from rulelearn.rules import Literal


def fit(X, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning unless a test expects one
        return QuantileBinarizer(**params).fit(X)


def exact_quantile(sorted_values, level: Fraction) -> Fraction:
    """numpy's default (linear) quantile in exact arithmetic."""
    n = len(sorted_values)
    h = (n - 1) * level
    lo = h.numerator // h.denominator
    hi = min(lo + 1, n - 1)
    low = Fraction(sorted_values[lo])
    return low + (h - lo) * (Fraction(sorted_values[hi]) - low)


# ------------------------------------------------------------------------ numeric thresholds

def test_many_distinct_values_give_ten_thresholds_and_twenty_literals():
    X = pd.DataFrame({"age": np.linspace(20, 80, 200)})
    binarizer = fit(X)
    assert len(binarizer.literals_) == 20
    ops = [lit.op for lit in binarizer.literals_]
    assert ops == ["<=", ">"] * 10
    thresholds = [lit.value for lit in binarizer.literals_[::2]]
    assert thresholds == sorted(thresholds) and len(set(thresholds)) == 10
    assert [lit.value for lit in binarizer.literals_[1::2]] == thresholds


def test_n_thresholds_and_negations():
    X = pd.DataFrame({"x": np.arange(100.0)})
    assert len(fit(X, n_thresholds=4).literals_) == 8
    assert [lit.op for lit in fit(X, n_thresholds=4, negations=False).literals_] == ["<="] * 4
    with pytest.raises(ValueError, match="'n_thresholds' parameter of QuantileBinarizer"):
        QuantileBinarizer(n_thresholds=0).fit(X)


def test_thresholds_split_training_values_as_the_exact_quantiles_do():
    """Property test: each threshold t splits like one exact quantile q, every quantile
    split (except "everything") is represented once, and t lies in [q, next value)."""
    rng = np.random.default_rng(20160601)
    for trial in range(400):
        n = int(rng.integers(2, 80))
        kind = trial % 4
        if kind == 0:
            x = rng.integers(-5, 8, size=n).astype(float)
        elif kind == 1:
            x = np.round(rng.normal(size=n) * 10, int(rng.integers(0, 3)))
        elif kind == 2:
            x = rng.exponential(size=n) * 10.0 ** rng.integers(-6, 7)
        else:
            x = np.repeat(rng.normal(size=4), rng.integers(1, 30, size=4))[:n]
            n = len(x)
        if trial % 5 == 0:
            x = np.where(rng.random(n) < 0.2, np.nan, x)
        finite = np.sort(x[~np.isnan(x)])
        thresholds = numeric_thresholds(x, 10)
        if len(np.unique(finite)) < 2:
            assert len(thresholds) == 0
            continue
        exact = sorted(Fraction(v) for v in finite)
        wanted = {}
        for k in range(1, 11):
            q = exact_quantile(exact, Fraction(k, 11))
            split = tuple(v <= q for v in exact)
            if not all(split):
                wanted.setdefault(split, q)
        got = [tuple(v <= Fraction(t) for v in exact) for t in thresholds]
        assert len(got) == len(set(got)), (x, thresholds)  # one threshold per split
        if wanted:
            assert set(got) == set(wanted), (x, thresholds)
        for t, split in zip(thresholds, got):
            # at or above the lowest quantile making this split, in the lower half of the
            # gap up to the next training value (up to the float rounding of the quantile)
            q = float(wanted[split])
            upper = float(min(v for v in exact if v > Fraction(t)))
            slack = 1e-12 * max(1.0, abs(q))
            assert q - slack <= t < upper, (x, t, q, upper)
            assert t - q <= upper - t + slack, (x, t, q, upper)


def test_float_quantile_rounding_does_not_move_a_value_across_the_threshold():
    # 56 values: the 3/11 and 6/11 quantiles are exactly x[15] and x[30], but numpy's
    # float quantile returns 14.999999999999998 and 29.999999999999996
    x = np.arange(56.0)
    thresholds = numeric_thresholds(x, 10)
    assert thresholds.tolist() == [5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0]
    assert [int((x <= t).sum()) for t in thresholds] == [6, 11, 16, 21, 26, 31, 36, 41, 46, 51]


def test_short_threshold_is_short_and_in_the_lower_half_of_the_gap():
    assert short_threshold(54.25, 55.0) == 54.3
    assert short_threshold(54.25, 54.75) == 54.3
    assert short_threshold(54.21, 54.3) == 54.22
    assert short_threshold(3.0, 4.0) == 3.0
    assert short_threshold(1234.5, 2000.0) == 1300.0
    assert short_threshold(0.0, 1.0) == 0.0
    assert short_threshold(2.9999999999999996, 3.0) == 2.9999999999999996
    assert short_threshold(-1.37, -1.0) == -1.3
    rng = np.random.default_rng(7)
    for _ in range(2000):
        q = float(rng.normal() * 10.0 ** rng.integers(-8, 9))
        upper = q + float(rng.exponential() * 10.0 ** rng.integers(-8, 9))
        if upper <= q:
            continue
        t = short_threshold(q, upper)
        assert q <= t < upper
        assert t - q <= upper - t


def test_discrete_column_gets_one_threshold_per_gap():
    X = pd.DataFrame({"x": [0, 1, 2, 3]})
    binarizer = fit(X)
    assert len(binarizer.literals_) == 6
    assert [(lit.op, lit.value) for lit in binarizer.literals_[::2]] == \
        [("<=", 0.3), ("<=", 1.1), ("<=", 2.2)]
    assert [lit.value for lit in fit(pd.DataFrame({"x": [1.0, 3.0]})).literals_] == [2.0, 2.0]
    repeated = fit(pd.DataFrame({"x": np.arange(100) % 4}))
    assert [lit.value for lit in repeated.literals_[::2]] == [0, 1, 2]


def test_mostly_one_value_still_gives_a_split():
    X = pd.DataFrame({"x": [0.0] * 30 + [1.0]})
    assert [str(lit) for lit in fit(X).literals_] == ["x <= 0", "x > 0"]


def test_boolean_column_is_numeric():
    X = pd.DataFrame({"b": [True, False, True]})
    assert [str(lit) for lit in fit(X).literals_] == ["b <= 0.2", "b > 0.2"]


# ------------------------------------------------------------------------ categorical, missing

def test_categorical_three_values_give_six_literals():
    X = pd.DataFrame({"thal": ["normal", "fixed", "reversible", "fixed"]})
    assert [str(lit) for lit in fit(X).literals_] == [
        "thal == 'fixed'", "thal != 'fixed'", "thal == 'normal'", "thal != 'normal'",
        "thal == 'reversible'", "thal != 'reversible'"]


def test_two_valued_categorical_without_missing_gives_one_pair():
    X = pd.DataFrame({"sex": ["m", "f", "f"]})
    assert [str(lit) for lit in fit(X).literals_] == ["sex == 'f'", "sex != 'f'"]


def test_category_and_string_dtypes_are_categorical():
    X = pd.DataFrame({"c": pd.Categorical(["a", "b", "c"]),
                      "s": pd.array(["a", "b", "c"], dtype="string")})
    assert [lit.op for lit in fit(X).literals_] == ["==", "!="] * 6


def test_missing_values_add_the_two_missing_literals():
    X = pd.DataFrame({"sex": ["m", None, "f"], "age": [1.0, 2.0, np.nan]})
    names = [str(lit) for lit in fit(X).literals_]
    assert names == ["sex == 'f'", "sex != 'f'", "sex == 'm'", "sex != 'm'",
                     "sex is missing", "sex is not missing",
                     "age <= 1.1", "age > 1.1", "age is missing", "age is not missing"]


@pytest.mark.parametrize("column", [[3.0, 3.0, 3.0], ["a", "a", "a"], [np.nan] * 3, [None] * 3])
def test_constant_or_empty_column_is_dropped_with_a_warning(column):
    X = pd.DataFrame({"keep": [1.0, 2.0, 3.0], "bad": column})
    with pytest.warns(UserWarning, match=r"dropped 1 constant or empty column\(s\): bad"):
        binarizer = QuantileBinarizer().fit(X)
    assert {lit.feature for lit in binarizer.literals_} == {"keep"}
    assert binarizer.transform(X).shape == (3, len(binarizer.literals_))


@pytest.mark.parametrize("column", [["a", None, "a"], [3.0, np.nan, 3.0]])
def test_one_value_and_missing_gives_the_missing_literals_only(column):
    X = pd.DataFrame({"c": column})
    binarizer = fit(X)
    assert [str(lit) for lit in binarizer.literals_] == ["c is missing", "c is not missing"]
    assert binarizer.transform(X).tolist() == [[0, 1], [1, 0], [0, 1]]


# ------------------------------------------------------------------------ transform

@pytest.fixture
def train():
    rng = np.random.default_rng(3)
    n = 60
    return pd.DataFrame({
        "age": np.where(rng.random(n) < 0.1, np.nan, rng.normal(50, 10, n).round(1)),
        "thal": rng.choice(["normal", "fixed", "reversible", None], n),
        "sex": rng.choice(["m", "f"], n),
        "count": rng.integers(0, 4, n),
        "code": rng.choice(["7", "8", "9"], n),  # digits as text stay categorical
        "s": pd.array(rng.choice(["a", "b", None], n), dtype="string"),
    })


@pytest.fixture
def new_data():
    return pd.DataFrame({
        "age": [np.nan, -1e9, 1e9, 50.0],
        "thal": ["unseen", None, "fixed", "normal"],
        "sex": [None, "x", "m", "f"],  # missing and unseen, though training had neither
        "count": [-5, 100, 2, 0],
        "code": [7, "8", None, "nine"],
        "s": pd.array([None, "zzz", "a", "b"], dtype="string"),
    })


def test_transform_matches_literal_evaluation(train, new_data):
    binarizer = fit(train)
    for X in (train, new_data):
        B = binarizer.transform(X)
        assert B.dtype == np.uint8 and B.shape == (len(X), len(binarizer.literals_))
        for j, literal in enumerate(binarizer.literals_):
            assert B[:, j].tolist() == literal.evaluate(X).astype(int).tolist(), str(literal)


def test_transform_on_new_data_exact_rows(train, new_data):
    binarizer = fit(train)
    names = list(binarizer.get_feature_names_out())
    B = binarizer.transform(new_data)
    column = {name: B[:, j].tolist() for j, name in enumerate(names)}
    assert column["thal is missing"] == [0, 1, 0, 0]
    assert column["thal == 'fixed'"] == [0, 0, 1, 0]
    assert column["thal != 'fixed'"] == [1, 0, 0, 1]  # unseen category: != holds, missing: not
    assert column["sex == 'f'"] == [0, 0, 0, 1]
    assert column["sex != 'f'"] == [0, 1, 1, 0]
    assert column["code == '7'"] == [1, 0, 0, 0]
    low = [j for j, name in enumerate(names) if name.startswith("age <=")]
    high = [j for j, name in enumerate(names) if name.startswith("age >")]
    assert B[0, low + high].sum() == 0  # missing age: every comparison false
    assert B[1, low].all() and not B[1, high].any()  # far below the training range
    assert B[2, high].all() and not B[2, low].any()  # far above


def test_fitted_on_training_data_only(train, new_data):
    binarizer = fit(train)
    before = list(binarizer.literals_)
    binarizer.transform(new_data)
    binarizer.transform(pd.concat([new_data] * 20, ignore_index=True))
    assert binarizer.literals_ == before
    assert fit(train).literals_ == before


def test_unknown_column_at_transform(train):
    binarizer = fit(train)
    with pytest.raises(ValueError, match="column 'age' seen in fit is missing"):
        binarizer.transform(train.drop(columns="age"))


def test_numpy_input_names_columns_x0_x1():
    X = np.column_stack([np.arange(20.0), np.arange(20.0) % 2])
    binarizer = fit(X)
    assert binarizer.n_features_in_ == 2
    assert binarizer.feature_names_in_.tolist() == ["x0", "x1"]
    assert {lit.feature for lit in binarizer.literals_} == {"x0", "x1"}
    assert binarizer.transform(X).shape == (20, 22)


def test_integer_column_labels(train):
    X = pd.DataFrame({0: np.arange(30.0), 1: ["a", "b", "c"] * 10})
    binarizer = fit(X)
    B = binarizer.transform(X)
    for j, literal in enumerate(binarizer.literals_):
        assert B[:, j].tolist() == literal.evaluate(X).astype(int).tolist()


def test_get_feature_names_out(train):
    binarizer = fit(train)
    names = binarizer.get_feature_names_out()
    assert names.tolist() == [str(lit) for lit in binarizer.literals_]
    assert [Literal.parse(name) for name in names] == binarizer.literals_


def test_inside_a_pipeline_and_clone(train):
    y = (train["age"].fillna(0) > 50).to_numpy()
    pipe = Pipeline([("bin", QuantileBinarizer(n_thresholds=3)),
                     ("tree", DecisionTreeClassifier(random_state=0))])
    pipe.fit(train, y)
    assert pipe.score(train, y) == 1.0  # "age > t" at the median separates y exactly
    assert len(pipe.named_steps["bin"].literals_) == len(fit(train, n_thresholds=3).literals_)
    copy = clone(pipe)
    assert copy.get_params()["bin__n_thresholds"] == 3
    assert not hasattr(copy.named_steps["bin"], "literals_")
    copy.set_params(bin__n_thresholds=5).fit(train, y)
    assert copy.named_steps["bin"].n_thresholds == 5
    assert pipe.named_steps["bin"].n_thresholds == 3


def test_equals_matches_values_equal_on_mixed_cells():
    from rulelearn.binarize import _equals
    from rulelearn.rules import values_equal

    cells = np.array(["a", "7", 7, 7.0, True, 1, None, np.nan, pd.NA, "b", 0.0, -0.0, "1.0", "a"],
                     dtype=object)
    for target in ["a", 7, "7", 1, "1", 0.0, "b", "zzz", True]:
        expected = [values_equal(v, target) for v in cells]
        assert _equals(cells, target).tolist() == expected, target


# ------------------------------------------------------------------------ sample weights

_WEIGHT_SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
_VALUES = st.lists(st.sampled_from([-2.0, -0.5, 0.0, 0.1, 0.25, 1.0, 3.0, 1e3, np.inf, np.nan]),
                   min_size=1, max_size=25)


@_WEIGHT_SETTINGS
@given(values=_VALUES, data=st.data(), n_thresholds=st.integers(1, 12))
def test_integer_weights_give_the_thresholds_of_repeated_values(values, data, n_thresholds):
    values = np.asarray(values)
    weights = np.asarray(data.draw(st.lists(st.integers(0, 4), min_size=len(values),
                                            max_size=len(values))))
    repeated = numeric_thresholds(np.repeat(values, weights), n_thresholds)
    weighted = numeric_thresholds(values, n_thresholds, weights.astype(float))
    assert weighted.tolist() == repeated.tolist()
    # unit weights are no weights, bit for bit
    unit = numeric_thresholds(values, n_thresholds, np.ones(len(values)))
    assert unit.tolist() == numeric_thresholds(values, n_thresholds).tolist()


@_WEIGHT_SETTINGS
@given(values=st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=40),
       n_thresholds=st.integers(1, 12))
def test_unit_weights_equal_numpy_quantiles_on_any_floats(values, n_thresholds):
    values = np.asarray(values)
    assert numeric_thresholds(values, n_thresholds, np.ones(len(values))).tolist() == \
        numeric_thresholds(values, n_thresholds).tolist()


def test_weighted_quantiles_move_the_thresholds():
    values = np.arange(10.0)
    assert numeric_thresholds(values, 1).tolist() == [4.5]
    heavy_top = np.where(values >= 5, 3.0, 1.0)  # the median of 0..4, 5,5,5, ..., 9,9,9
    assert numeric_thresholds(values, 1, heavy_top).tolist() == \
        numeric_thresholds(np.repeat(values, heavy_top.astype(int)), 1).tolist() == [6.0]


def test_zero_weight_rows_are_removed_rows():
    X = pd.DataFrame({"num": [1.0, 2.0, 3.0, 4.0, np.nan, 100.0],
                      "cat": ["a", "b", "a", "b", "c", "z"],
                      "const": [7.0, 7.0, 7.0, 7.0, 7.0, 8.0]})
    weights = np.array([1, 2, 1, 1, 0, 0])
    kept = X.iloc[[0, 1, 1, 2, 3]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "const" is constant once 100.0 goes
        weighted = QuantileBinarizer(n_thresholds=3).fit(X, sample_weight=weights)
        repeated = QuantileBinarizer(n_thresholds=3).fit(kept)
    assert weighted.literals_ == repeated.literals_
    assert not any(lit.op == "is missing" or lit.value in ("c", "z") for lit in weighted.literals_)
    assert weighted.transform(X).tolist() == repeated.transform(X).tolist()


# ------------------------------------------------------------------ supervised cut points

TAIL = pd.DataFrame({"x": np.arange(100.0)})
TAIL_Y = np.arange(100) >= 97  # the positives: the top 3 % of x


def test_tree_cut_points_find_a_tail_that_quantiles_miss():
    quantile = QuantileBinarizer().fit(TAIL)
    assert max(lit.value for lit in quantile.literals_) == 90  # no cut above the 91st value
    tree = QuantileBinarizer(n_thresholds=1, cut_points="tree").fit(TAIL, TAIL_Y)
    assert tree.literals_ == [Literal("x", "<=", 96), Literal("x", ">", 96)]
    both = QuantileBinarizer(cut_points="both").fit(TAIL, TAIL_Y)
    cuts = sorted({lit.value for lit in both.literals_})
    assert 96 in cuts and set(cuts) >= {lit.value for lit in quantile.literals_}
    # no two cuts split the training values alike
    splits = [int((TAIL["x"] <= t).sum()) for t in cuts]
    assert len(set(splits)) == len(splits)


def test_tree_cut_points_weighted_are_those_of_repeated_rows():
    from rulelearn.binarize import tree_thresholds

    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, np.nan])
    positive = np.array([0, 0, 1, 0, 1, 1, 1], dtype=bool)
    weights = np.array([1, 3, 2, 1, 0, 2, 1])
    repeated = np.repeat(np.arange(7), weights)
    assert tree_thresholds(values, positive, 3, weights).tolist() == \
        tree_thresholds(values[repeated], positive[repeated], 3).tolist()
    assert tree_thresholds(values, np.zeros(7, dtype=bool), 3).tolist() == []  # one class


def test_cut_points_are_checked_and_tree_needs_y():
    from rulelearn.errors import DataError, ParameterError

    with pytest.raises(ParameterError, match="'cut_points' parameter of QuantileBinarizer "
                                             "must be one of"):
        QuantileBinarizer(cut_points="trees").fit(TAIL)
    with pytest.raises(DataError, match="cut_points='tree' needs y"):
        QuantileBinarizer(cut_points="tree").fit(TAIL)


@pytest.mark.filterwarnings("ignore::rulelearn._traps.DataTrapWarning")  # x in sorted order
def test_estimator_cut_points_learn_the_tail():
    from rulelearn._params import options
    from rulelearn._rule_params import RULE_PARAMETERS
    from rulelearn.binarize import CUT_POINTS
    from rulelearn.estimator import BooleanRuleClassifier

    assert options(RULE_PARAMETERS, "cut_points") == CUT_POINTS
    y = TAIL_Y.astype(int)
    quantile = BooleanRuleClassifier(theta=0.5, max_rules=1).fit(TAIL, y)
    assert str(quantile.rule_) == "FALSE"  # 97 % right, the best the quantile cuts allow
    tree = BooleanRuleClassifier(theta=0.5, max_rules=1, cut_points="tree").fit(TAIL, y)
    assert str(tree.rule_) == "x > 96" and tree.score(TAIL, y) == 1.0


#: The literals of QuantileBinarizer(n_thresholds=10) on each paper dataset, all rows: their
#: count and the first 16 hex digits of the sha256 of their texts, one a line. The paper's
#: results (results/paper) rest on them: a change here changes every rule of the paper tables.
PAPER_LITERALS = {
    "ilpd": (174, "c10961c46583f7fd"),
    "ionosphere": (588, "badfb859aa40aa3e"),
    "liver": (114, "ba6448c574b16d79"),
    "magic": (200, "f550efa637a7e7d5"),
    "musk": (3242, "b65fa1ecae3fc9c4"),
    "parkinsons": (434, "9e3cdff4e582cf6e"),
    "pima": (144, "d02c719b76a75d6f"),
    "sonar": (1200, "e316c03ca5daf239"),
    "transfusion": (64, "5a1a2667c24ba7b2"),
    "wdbc": (600, "54002b8ede9b5421"),
}


def test_the_paper_datasets_keep_their_literals(mirror_dir):
    import hashlib

    from rulelearn.data import PAPER_DATASETS, load_dataset

    assert set(PAPER_LITERALS) == set(PAPER_DATASETS)
    found = {}
    for name in PAPER_DATASETS:
        dataset = load_dataset(name, mirror=mirror_dir)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ionosphere's constant column a2
            literals = QuantileBinarizer(n_thresholds=10).fit(dataset.X).literals_
        text = "\n".join(map(str, literals)).encode()
        found[name] = (len(literals), hashlib.sha256(text).hexdigest()[:16])
    assert found == PAPER_LITERALS


@pytest.mark.parametrize("cut_points", CUT_POINTS)
def test_a_near_constant_column_is_cut_not_dropped_as_constant(cut_points):
    X = pd.DataFrame({"a": [1.0] * 9_999 + [3.0], "b": [2.0] * 9_999 + [4.0]})
    y = np.array([0] * 9_999 + [1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "dropped ... constant" warning
        binarizer = QuantileBinarizer(cut_points=cut_points).fit(X, y)
    assert [str(lit) for lit in binarizer.literals_] == ["a <= 1", "a > 1", "b <= 2", "b > 2"]
    assert binarizer.transform(X)[-1].tolist() == [0, 1, 0, 1]


def test_equals_matrix_is_values_equal_on_every_pair_of_mixed_cells():
    from rulelearn.binarize import _equals_matrix
    from rulelearn.rules import values_equal

    cells = np.array(["a", "7", 7, 7.0, True, False, 1, 0, None, np.nan, pd.NA, "b", 0.0, -0.0,
                      "1.0", "a", "nan", "NaN", "inf", np.inf, "1e999", " 7", "007", "True",
                      "1_000", 1000, "٣", 3, "x y"], dtype=object)
    targets = ["a", 7, "7", 1, "1", 0.0, "b", "zzz", True, False, "nan", "inf", np.inf, "007",
               "True", 1000, "3", " 7", "-0", -0.0]
    got = _equals_matrix(cells, targets)
    expected = [[values_equal(v, t) for t in targets] for v in cells]
    assert got.tolist() == expected
