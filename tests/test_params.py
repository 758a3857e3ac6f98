"""Constraints declared once: every consumer of a shared declaration (the estimators, the
search's grid checks, the benchmark config, ``rulelearn fit``'s options) accepts a value at its
bound and refuses one just past it."""

import numbers

import click
import numpy as np
import pytest

from rulelearn._params import Interval, accepts, check_param, interval
from rulelearn._rule_params import CV_FOLDS, RULE_PARAMETERS
from rulelearn.bench.config import parse_config
from rulelearn.cli.fit import fit as fit_command
from rulelearn.cv_estimator import BooleanRuleClassifierCV
from rulelearn.errors import ConfigError, ParameterError, RuleLearnError
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import select_setting

TABLE = np.array([(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 2)
TARGET = ((TABLE[:, 0] & TABLE[:, 1]) | TABLE[:, 2]).astype(int)
BASE = "datasets: [wdbc]\nmethods: [bcd]\n"


def accepted(call) -> bool:
    try:
        call()
    except (RuleLearnError, click.BadParameter):
        return False
    return True


def estimator(cls, name):
    return lambda v: accepted(lambda: check_param(cls, name, v))


def grid(keyword):
    """The search's check of each value of a grid (a tiny run when the value passes)."""
    def run(v):
        settings = {"thetas": [1.0], "rules": [1], "thresholds": None, keyword: [v]}
        return accepted(lambda: select_setting(BooleanRuleClassifier(method="sc"), TABLE,
                                               TARGET, forms=("dnf",), cv=2, **settings))
    return run


def binarizer(v):
    """QuantileBinarizer's own check (kept in binarize.py: a change there would mark every
    committed benchmark record of a rule learner stale, see bench/fingerprint.py)."""
    from rulelearn.binarize import QuantileBinarizer

    return accepted(lambda: QuantileBinarizer(n_thresholds=v).fit(TABLE.astype(float)))


def config(text):
    return lambda v: accepted(lambda: parse_config(text.format(v=v)))


def option(name):
    """``rulelearn fit``'s option, as the command line gives it (text; callbacks too)."""
    param = next(p for p in fit_command.params if p.name == name)
    return lambda v: accepted(lambda: param.process_value(click.Context(fit_command), str(v)))


#: Each shared declaration and its consumers.
CONSUMERS = {
    "theta": (RULE_PARAMETERS["theta"], [
        estimator(BooleanRuleClassifier, "theta"), grid("thetas"),
        config(BASE + "theta: [{v}]\n"), config("datasets: [wdbc]\nmethods: [{{bcd: {{theta: "
                                                "[{v}]}}}}]\n"),
        option("theta")]),
    "max_rules": (RULE_PARAMETERS["max_rules"], [
        estimator(BooleanRuleClassifier, "max_rules"), grid("rules"), config(BASE + "R: {v}\n"),
        config("datasets: [wdbc]\nmethods: [{{bcd: {{R: {v}}}}}]\n"), option("rules")]),
    "max_iter": (RULE_PARAMETERS["max_iter"], [
        estimator(BooleanRuleClassifier, "max_iter"),
        estimator(BooleanRuleClassifierCV, "max_iter"),
        config(BASE + "max_iter: {v}\n"),
        config("datasets: [wdbc]\nmethods: [{{bcd: {{max_iter: {v}}}}}]\n"),
        config("datasets: [wdbc]\nmethods: [{{fit: {{max_iter: {v}}}}}]\n"),
        option("max_iter")]),
    "n_thresholds": (RULE_PARAMETERS["n_thresholds"], [
        estimator(BooleanRuleClassifier, "n_thresholds"),
        estimator(BooleanRuleClassifierCV, "n_thresholds"),
        grid("thresholds"), binarizer,
        config(BASE + "binarization: {{n_thresholds: {v}}}\n"),
        config("datasets: [wdbc]\nmethods: [{{bcd: {{n_thresholds: {v}}}}}]\n"),
        option("thresholds")]),
    "cv": (CV_FOLDS, [
        estimator(BooleanRuleClassifierCV, "cv"),
        config(BASE + "inner_folds: {v}\n"), config(BASE + "outer_folds: {v}\n"),
        config("datasets: [wdbc]\nmethods: [{{fit: {{cv: {v}}}}}]\n"), option("cv")]),
}


def at_and_past_the_bound(bound: Interval):
    """A value the declaration allows (its lower bound) and one it refuses (just below)."""
    step = 1 if bound.kind is numbers.Integral else 0.5
    low = bound.low if bound.closed in ("left", "both") else bound.low + step
    inside, outside = (int(low), int(low) - 1) if step == 1 else (float(low), low - step)
    assert accepts([bound], inside) and not accepts([bound], outside)
    return inside, outside


@pytest.mark.parametrize("name", sorted(CONSUMERS))
def test_every_consumer_agrees_with_the_declaration(name):
    constraints, consumers = CONSUMERS[name]
    inside, outside = at_and_past_the_bound(interval(constraints))
    for consumer in consumers:
        assert consumer(inside), (name, inside)
        assert not consumer(outside), (name, outside)


def test_every_numeric_rule_parameter_with_other_consumers_is_walked():
    # a new grid, config key or option of a rule parameter joins CONSUMERS
    assert {"theta", "max_rules", "max_iter", "n_thresholds"} <= set(CONSUMERS)
    assert CONSUMERS["cv"][0] is CV_FOLDS


def test_theta_refuses_nan_and_infinity_everywhere():
    for consumer in CONSUMERS["theta"][1]:
        for value in (float("nan"), float("inf")):
            if consumer.__qualname__.startswith("config"):
                value = ".nan" if value != value else ".inf"  # YAML's spelling
            assert not consumer(value), value


def test_a_refused_option_names_what_the_declaration_allows():
    param = next(p for p in fit_command.params if p.name == "max_iter")
    with pytest.raises(click.BadParameter, match=">=0"):
        param.process_value(click.Context(fit_command), "-1")
    with pytest.raises(ConfigError, match=r"\(max_iter\): must be an int >= 0. Got -1"):
        parse_config(BASE + "max_iter: -1\n")
    with pytest.raises(ParameterError, match="every theta must be a finite number >= 0"):
        grid("thetas")(-1.0) or select_setting(BooleanRuleClassifier(), TABLE, TARGET,
                                               thetas=[-1.0])
