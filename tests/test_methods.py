"""The method table of the benchmark and the parameter constraints declared once."""

import dataclasses
import inspect
import json
import math
import numbers
import re
import subprocess
import sys

import pytest

from rulelearn._params import Interval, Options, check_param, options, validate_params
from rulelearn._rule_params import RULE_PARAMETERS
from rulelearn.bench import EXECUTORS, experiment, units
from rulelearn.bench.baselines import CartClassifier, RipperClassifier
from rulelearn.bench.brcg import BrcgClassifier
from rulelearn.bench.config import MethodConfig, parse_config
from rulelearn.bench.methods import METHODS, Method
from rulelearn.errors import ConfigError, ParameterError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.learners import LEARNERS
from rulelearn.learners.descent import STARTS

ESTIMATORS = [BooleanRuleClassifier, CartClassifier, RipperClassifier, BrcgClassifier]
ALL_KEYS = """
datasets: [wdbc_bundled]
methods:
  - bcd: {start: tree, clause_solver: mip}
  - am: {start: best, polish: true, perturb: 3}
  - ocrl: {clause_solver: lp}
  - sc
  - cg
  - cart: {min_samples_leaf: 3, criterion: entropy}
  - ripper: {k: 1, prune_size: 0.5, max_rules: 4, max_rule_conds: 3, n_discretize_bins: 5}
  - brcg: {form: cnf, lambda0: 0.002, n_thresholds: 5, max_iter: 7, time_max: 3.5,
           max_columns: 4, max_degree: 3, beam_width: 2}
  - fit: {cv: 3, method: am, start: sc, max_iter: 7, n_thresholds: 5}
"""


# ------------------------------------------------------------------------------ the vocabulary

@pytest.mark.parametrize("constraint, good, bad", [
    (Interval(numbers.Integral, 1), [1, 7, 10**20], [0, -1, 1.0, True, "2", None]),
    (Interval(numbers.Real, 0, finite=True), [0, 0.0, 3, 2.5], [-1e-9, math.inf, math.nan, False]),
    (Interval(numbers.Real, 0), [0, math.inf], [math.nan, -math.inf, "1"]),
    (Interval(numbers.Real, 0, 1, closed="neither"), [0.5, 1e-9], [0, 1, 1.0, 2]),
    (Interval(numbers.Real, 0, 1, closed="both"), [0, 1, 0.5], [-0.1, 1.1]),
    (Options("cnf", "dnf"), ["cnf", "dnf"], ["DNF", " dnf", None, ["dnf"]]),
])
def test_a_constraint_accepts_exactly_its_values(constraint, good, bad):
    assert all(constraint.accepts(v) for v in good)
    assert not any(constraint.accepts(v) for v in bad)


@pytest.mark.parametrize("constraint, text", [
    (Interval(numbers.Integral, 1), "an int >= 1"),
    (Interval(numbers.Real, 0, finite=True), "a finite number >= 0"),
    (Interval(numbers.Real, 0), "a number >= 0"),
    (Interval(numbers.Real, 0, 1, closed="neither"), "a number in (0, 1)"),
    (Interval(numbers.Real, None, 5, closed="neither"), "a number < 5"),
    (Options("auto", True, False), "one of {'auto', True, False}"),
])
def test_a_constraint_says_what_it_allows(constraint, text):
    assert str(constraint) == text


def test_a_refused_value_names_every_allowed_kind():
    with pytest.raises(ParameterError, match=re.escape(
            "The 'max_depth' parameter of CartClassifier must be an int >= 1 or None. "
            "Got 0 instead.")):
        check_param(CartClassifier, "max_depth", 0)
    check_param(CartClassifier, "max_depth", None)


def test_options_reads_only_a_pure_choice():
    assert options(RULE_PARAMETERS, "form") == ("cnf", "dnf")
    assert options(RULE_PARAMETERS, "theta") == ()
    assert options(RULE_PARAMETERS, "no such parameter") == ()


# ------------------------------------------------------------------ the declarations themselves

@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: e.__name__)
def test_every_constrained_parameter_is_an_init_parameter(estimator):
    init = set(inspect.signature(estimator.__init__).parameters) - {"self"}
    assert set(estimator._parameter_constraints) <= init


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: e.__name__)
def test_the_defaults_satisfy_the_constraints(estimator):
    validate_params(estimator())


def test_the_rule_constraints_follow_the_learners():
    assert options(RULE_PARAMETERS, "method") == tuple(LEARNERS)
    assert options(RULE_PARAMETERS, "start") == STARTS


def test_the_estimator_checks_its_declaration_with_the_old_messages():
    with pytest.raises(ParameterError, match=re.escape(
            "The 'start' parameter of BooleanRuleClassifier must be one of "
            "{'sc', 'tree', 'best', 'cg'}. Got 'cart' instead.")):
        BooleanRuleClassifier(start="cart").fit([[0], [1]], [0, 1])
    with pytest.raises(ParameterError, match=re.escape(
            "The 'time_limit' parameter of BooleanRuleClassifier must be a number >= 0. "
            "Got -1 instead.")):
        BooleanRuleClassifier(time_limit=-1).fit([[0], [1]], [0, 1])
    with pytest.raises(ParameterError, match=re.escape(
            "The 'theta' parameter of BooleanRuleClassifier must be a finite number >= 0")):
        BooleanRuleClassifier().fit_path([[0], [1]], [0, 1], [1.0, -2.0])


def test_the_cli_choices_are_the_declared_options():
    from rulelearn.cli.fit import fit

    choices = {p.name: tuple(p.type.choices) for p in fit.params
               if hasattr(p.type, "choices")}
    from rulelearn.data.parse import DECIMAL_MARKS
    from rulelearn.model_selection import SELECT_RULES

    assert choices == {**{name: options(RULE_PARAMETERS, name)
                          for name in ("method", "form", "start", "cut_points")},
                       "select": SELECT_RULES,
                       "class_weight": ("none", "balanced"), "decimal": DECIMAL_MARKS,
                       "executor": EXECUTORS}


def test_the_cli_reads_its_choices_without_loading_scikit_learn():
    code = "import json, sys, rulelearn.cli; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not [m for m in json.loads(out.stdout) if m.split(".")[0] == "sklearn"]


# ------------------------------------------------------------------------------ the method table

@pytest.mark.parametrize("name", list(METHODS))
def test_each_method_builds_an_estimator_taking_all_its_config_keys(name):
    method = METHODS[name]
    config = parse_config(ALL_KEYS)
    variant = next(m for m in config.methods if m.name == name)
    estimator = units.make_estimator(variant, pos_label=1, random_state=0)
    assert isinstance(estimator, method.estimator)
    params = estimator.get_params()
    for key in method.config_keys:
        assert method.estimator_param(key) in params, key
    for key, value in variant.params.items():
        assert params[method.estimator_param(key)] == value, key
    if method.tuned is not None:
        assert method.tuned in params


@pytest.mark.parametrize("name", list(METHODS))
def test_each_method_entry_is_consistent(name):
    method = METHODS[name]
    assert method.name == name
    assert method.simpler in ("larger", "smaller")
    assert method.tuned is None or method.tuned == "theta" or method.default_grid
    assert set(method.fixed) <= set(method.config_keys) | {"R"}
    for key in method.config_keys:
        choices = method.choices(key)
        declared = method.declared(key)
        assert choices == (declared[0].values if choices else ()), key
        if key not in method.constraints:
            assert declared == method.estimator._parameter_constraints.get(
                method.estimator_param(key)), key


def test_the_paper_rule_methods_are_the_learners():
    assert {n for n, m in METHODS.items() if m.paper_rule} == set(LEARNERS)


def test_the_config_refuses_a_value_outside_the_declared_options():
    with pytest.raises(ConfigError, match=re.escape(
            "must be one of {'entropy', 'gini', 'log_loss'}. Got 'gin'. Did you mean 'gini'?")):
        parse_config("datasets: [wdbc_bundled]\nmethods:\n  - cart: {criterion: gin}\n")


def test_a_missing_optional_package_is_named_with_its_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "wittgenstein", None)
    assert experiment._missing_requirement("ripper") == (
        "method 'ripper' needs the optional 'wittgenstein' package: "
        "pip install 'rulelearn[ripper]'")
    assert experiment._missing_requirement("bcd") is None


def test_adding_a_method_is_one_table_entry(monkeypatch):
    def build(params, grid, pos_label, random_state):
        return CartClassifier(pos_label=pos_label, random_state=random_state, **params)

    stump = Method(name="stump", estimator=CartClassifier, build=build,
                   config_keys=("criterion", "max_depth"), tuned="max_depth",
                   simpler="smaller", default_grid=(1,))
    monkeypatch.setitem(METHODS, "stump", stump)
    config = parse_config("datasets: [wdbc_bundled]\nmethods:\n  - stump: {criterion: entropy}\n")
    (variant,) = config.methods
    assert variant.label == "stump[criterion=entropy]"
    assert (variant.tuned, variant.grid, variant.prefer) == ("max_depth", (1,), "smaller")
    estimator = units.make_estimator(variant, pos_label=1, random_state=3)
    assert estimator.get_params()["criterion"] == "entropy"
    assert experiment.plan(config)


def test_an_unknown_method_is_refused_when_building():
    with pytest.raises(ConfigError, match="unknown method 'nope'"):
        units.make_estimator(MethodConfig(name="nope", params={}), pos_label=1,
                                  random_state=0)


def test_method_entries_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        METHODS["bcd"].tuned = "max_rules"  # type: ignore[misc]


@pytest.mark.parametrize("config", ["paper", "paper-best-start", "magic-reduced", "musk-partial",
                                    "musk-reduced"])
def test_the_paper_configs_keep_their_start_and_run_keys(config):
    """BCD and AM start where the config says, else from set covering (the paper's start),
    whatever the estimator's default; and no config file names a start that would change the
    run keys of its committed records."""
    from pathlib import Path

    from rulelearn.bench.config import load_config
    from rulelearn.bench.methods import PAPER_START
    from rulelearn.bench.store import planned_keys, read_records

    root = Path(__file__).resolve().parent.parent
    cfg = load_config(root / "configs" / f"{config}.yaml")
    for m in cfg.methods:
        if m.name in ("bcd", "am"):
            built = METHODS[m.name].build(m.params, m.grid, 1, 0)
            assert built.start == m.params.get("start", PAPER_START)
            assert built.polish is False  # the paper's descent, never polished
    assert PAPER_START == "sc"
    planned = planned_keys(cfg.to_dict())
    recorded = {r["key"] for r in read_records(root / "results" / config / "records.jsonl")}
    assert recorded and recorded <= set(planned)
