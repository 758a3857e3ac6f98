"""Experiment configs: the shipped ones, the θ grid forms, and every kind of bad input."""

import math
from pathlib import Path

import pytest

from rulelearn.bench.config import load_config, parse_config
from rulelearn.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
MIN = "datasets: [wdbc_bundled]\nmethods: [bcd]\n"


def test_paper_config_is_the_paper_protocol():
    c = load_config(ROOT / "configs" / "paper.yaml")
    assert [d.name for d in c.datasets] == ["ilpd", "ionosphere", "liver", "magic", "musk",
                                           "parkinsons", "pima", "sonar", "transfusion", "wdbc"]
    assert [m.name for m in c.methods] == ["bcd", "am", "ocrl", "sc", "cart", "ripper"]
    assert (c.form, c.R, c.max_iter, c.n_thresholds) == ("dnf", 5, 100, 10)
    assert (c.outer_folds, c.inner_folds) == (10, 10)
    assert min(c.theta) == pytest.approx(1e-4) and max(c.theta) == pytest.approx(50)
    assert c.methods[0].label == "bcd[form=dnf,R=5]"
    assert c.methods[2].label == "ocrl[form=dnf]" and c.methods[2].params["R"] == 1
    assert c.results_dir == Path("results/paper")
    # only the stated deviations: the protocol itself is the paper's
    assert c.protocol_deviations() == list(c.deviations)


@pytest.mark.parametrize("name", ["quick", "smoke"])
def test_shipped_configs_load(name):
    c = load_config(ROOT / "configs" / f"{name}.yaml")
    assert c.name == name and c.datasets[0].name == "wdbc_bundled"


@pytest.mark.parametrize("name, dataset, methods", [
    ("magic-reduced", "magic", ["bcd", "am", "ocrl", "sc"]),
    ("musk-partial", "musk", ["ocrl", "cart", "ripper"]),
    ("musk-reduced", "musk", ["bcd", "am", "sc"]),
])
def test_partial_paper_configs_state_what_they_leave_out(name, dataset, methods):
    c = load_config(ROOT / "configs" / f"{name}.yaml")
    assert [d.name for d in c.datasets] == [dataset]
    assert [m.name for m in c.methods] == methods
    assert c.deviations and any("only" in text for text in c.deviations)


def test_theta_forms():
    assert parse_config(MIN + "theta: [5, 0.1, 0.1]").theta == (0.1, 5.0)
    assert parse_config(MIN + "theta: 2").theta == (2.0,)
    grid = parse_config(MIN + "theta: {log: [0.001, 10], num: 5}").theta
    assert grid == pytest.approx((0.001, 0.01, 0.1, 1.0, 10.0))
    assert parse_config(MIN + "theta: [0, 1]").theta == (0.0, 1.0)


@pytest.mark.parametrize("text, message", [
    (MIN + "theta: []", "theta grid is empty"),
    (MIN + "theta: [0.1, -2]", "theta must be a finite number >= 0"),
    (MIN + "theta: {log: [0, 5]}", "0 < low"),
    (MIN + "theta: {log: [1, 5], nun: 3}", "Did you mean 'num'"),
    (MIN + "outer_fold: 3", "Did you mean 'outer_folds'"),
    (MIN + "inner_folds: 1", "must be an int >= 2"),
    (MIN + "R: two", "must be an integer"),
    (MIN + "executor: dusk", "Did you mean 'dask'"),
    (MIN + "binarization: {thresholds: 3}", "Did you mean 'n_thresholds'"),
    ("datasets: [wdbc_bundled]\nmethods: [bdc]\n", "unknown method 'bdc'. Did you mean 'bcd'"),
    ("datasets: [wdbc_bundled]\nmethods:\n  - bcd: {RR: 3}\n", "Did you mean 'R'"),
    ("datasets: [wdbc_bundled]\nmethods:\n  - cart: {max_depth: [0]}\n", "must be >= 1"),
    ("datasets: [pimma]\nmethods: [bcd]\n", "did you mean 'pima'"),
    ("datasets: [wdbc, wdbc]\nmethods: [bcd]\n", "unique"),
    ("datasets: []\nmethods: [bcd]\n", "at least one dataset"),
    ("datasets: [wdbc]\nmethods:\n  - bcd\n  - bcd\n", "same run label"),
])
def test_bad_input_is_explained(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text, source="x.yaml")


def test_errors_give_the_line():
    with pytest.raises(ConfigError, match=r"x.yaml line 4 \(methods.1\): unknown method"):
        parse_config("datasets: [wdbc]\nmethods:\n  - bcd\n  - rippr\n", source="x.yaml")


def test_malformed_yaml_gives_the_line():
    with pytest.raises(ConfigError, match=r"x.yaml line 3, column \d+: malformed YAML"):
        parse_config("datasets: [wdbc]\nmethods: [bcd]\nR: 5: 6\n", source="x.yaml")


def test_lists_expand_into_variants_and_the_tuned_grid_does_not():
    c = parse_config("datasets: [wdbc]\nmethods:\n  - bcd: {R: [1, 3], theta: [1, 2]}\n"
                     "  - cart: {max_depth: [3, 1]}\n  - ripper: {k: [1, 2]}\n")
    assert [m.label for m in c.methods] == ["bcd[form=dnf,R=1]", "bcd[form=dnf,R=3]", "cart",
                                           "ripper[k=1]", "ripper[k=2]"]
    assert c.methods[0].grid == (1.0, 2.0) and c.methods[0].tuned == "theta"
    assert c.methods[2].grid == (1, 3) and c.methods[2].prefer == "smaller"


def test_csv_dataset_and_subsample():
    c = parse_config("datasets:\n  - {path: data/my.csv, target: y, positive: 1}\n"
                     "  - {name: wdbc_bundled, subsample: 100}\nmethods: [cart]\n")
    assert c.datasets[0].name == "my" and c.datasets[0].target == "y"
    assert "wdbc_bundled: stratified subsample of 100 rows" in c.protocol_deviations()


def test_missing_file():
    with pytest.raises(ConfigError, match="Cannot read config file"):
        load_config("/nonexistent/x.yaml")


@pytest.mark.parametrize("text, where, message", [
    ("theta: [.inf]", r"\(theta.0\)", "finite"),
    ("theta: [1, .nan]", r"\(theta.1\)", "finite"),
    ("theta: [-.inf]", r"\(theta.0\)", "finite"),
    ("theta: {log: [1, .inf]}", r"\(theta.log.1\)", "finite"),
    ("theta: {log: [.nan, 2]}", r"\(theta.log.0\)", "finite"),
    ("methods:\n  - bcd: {theta: [.inf]}", r"\(methods.0.bcd.theta.0\)", "finite"),
    ("theta: {log: [1, 2], num: 100000000}", r"\(theta.num\)", "<= 1000"),
    ("outer_folds: 1000000", r"\(outer_folds\)", "<= 1000"),
    ("inner_folds: 100000", r"\(inner_folds\)", "<= 1000"),
    ("deviations: 5", r"\(deviations\)", "list of sentences"),
    ("output: [a]", r"\(output\)", "folder path"),
    ("description: {a: 1}", r"\(description\)", "string"),
    ("methods:\n  - cart: {criterion: gni}", r"criterion\)", "Did you mean 'gini'"),
    ("methods:\n  - cart: {min_samples_leaf: -1}", r"min_samples_leaf\)", ">= 1"),
    ("methods:\n  - cart: {min_samples_leaf: 1.5}", r"min_samples_leaf\)", "fraction"),
    ("methods:\n  - ripper: {prune_size: 2}", r"prune_size\)", "fraction"),
    ("methods:\n  - ripper: {k: 0}", r"k\)", ">= 1"),
    ("methods:\n  - bcd: {clause_solver: simplex}", r"clause_solver\)", "must be one of"),
])
def test_values_an_estimator_would_refuse_are_config_errors(text, where, message):
    base = {"datasets": "datasets: [wdbc]", "methods": "methods: [bcd]"}
    lines = [text] + [v for k, v in base.items() if not text.startswith(k)]
    with pytest.raises(ConfigError, match=f"x.yaml line \\d+ .*{where}: .*{message}"):
        parse_config("\n".join(lines) + "\n", source="x.yaml")


def test_theta_grids_are_finite():
    c = parse_config("datasets: [wdbc]\nmethods: [bcd]\ntheta: {log: [0.001, 1000], num: 3}\n")
    assert all(math.isfinite(t) for t in c.theta) and c.theta == (0.001, 1.0, 1000.0)


def test_a_config_that_is_not_utf8_text(tmp_path):
    path = tmp_path / "u16.yaml"
    path.write_bytes("datasets: [wdbc]\n".encode("utf-16"))
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        load_config(path)


def test_a_start_given_for_bcd_reaches_the_estimator_and_the_label():
    from rulelearn.bench.units import make_estimator

    config = parse_config("name: s\ndatasets: [wdbc_bundled]\nmethods:\n"
                          "  - bcd: {start: best}\n  - am\n")
    bcd, am = config.methods
    assert "start=best" in bcd.label and "start" not in am.label
    assert make_estimator(bcd, pos_label=1, random_state=0).start == "best"
    assert make_estimator(am, pos_label=1, random_state=0).start == "sc"
    with pytest.raises(ConfigError, match="start"):
        parse_config("name: s\ndatasets: [wdbc_bundled]\nmethods:\n  - sc: {start: best}\n")


def test_the_paper_key_declares_a_reproduction():
    root = Path(__file__).resolve().parents[1] / "configs"
    for name in ("paper", "paper-best-start", "musk-partial", "musk-reduced", "magic-reduced"):
        assert load_config(root / f"{name}.yaml").paper is True, name
    for name in ("quick", "smoke"):
        config = load_config(root / f"{name}.yaml")
        assert config.paper is False and config.to_dict()["paper"] is False, name
    with pytest.raises(ConfigError, match=r"line 3 \(paper\): must be true .* Got 'yes'"):
        parse_config("datasets: [wdbc]\nmethods: [bcd]\npaper: 'yes'\n")


def test_compare_to_names_the_reference_of_the_paired_differences():
    base = "datasets: [wdbc]\nmethods: [bcd, am, {brcg: {lambda1: [0.01]}}]\n"
    assert parse_config(base).compare_to is None
    assert "compare_to" not in parse_config(base).to_dict()
    config = parse_config(base + "compare_to: brcg\n")
    assert config.compare_to == "brcg" and config.to_dict()["compare_to"] == "brcg"
    assert parse_config(base + "compare_to: am\n").compare_to == "am"
    assert parse_config(base + "compare_to: BRCG\n").compare_to == "BRCG"  # as --against
    with pytest.raises(ConfigError, match=r"line 3 \(compare_to\): must name one of the methods "
                                          r"\(bcd\[form=dnf,R=5\], am.*Got 'brgc'.*brcg"):
        parse_config(base + "compare_to: brgc\n")
    two = "datasets: [wdbc]\nmethods: [{bcd: {R: [2, 5]}}]\ncompare_to: bcd\n"
    with pytest.raises(ConfigError, match=r"'bcd' names 2 method entries; give one of their "
                                          r"labels: bcd\[form=dnf,R=2\], bcd\[form=dnf,R=5\]"):
        parse_config(two)
    assert parse_config(two.replace("bcd\n", "'bcd[form=dnf,R=5]'\n")).compare_to == \
        "bcd[form=dnf,R=5]"
