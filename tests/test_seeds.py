"""Repeated seeds: the config, the units and keys they plan, resume per seed, and the tables."""

import math
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_experiment import without_volatile

from rulelearn.bench import experiment, report, store
from rulelearn.bench.config import MAX_SEEDS, load_config, parse_config
from rulelearn.bench.store import read_records
from rulelearn.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
MIN = "datasets: [wdbc_bundled]\nmethods: [bcd]\n"


# ----------------------------------------------------------------------------------------------
# the config


def test_seeds_list_scalar_and_default():
    assert parse_config(MIN + "seeds: [0, 1, 2]").seeds == (0, 1, 2)
    assert parse_config(MIN + "seeds: [4, 2]").seeds == (4, 2)  # the order given
    assert parse_config(MIN + "seed: 7").seeds == (7,)
    assert parse_config(MIN + "seeds: [7]").seeds == (7,)
    assert parse_config(MIN).seeds == (0,)


def test_resolved_config_keeps_seed_for_one_seed_and_lists_several():
    one = parse_config(MIN + "seed: 3").to_dict()
    assert one["seed"] == 3 and "seeds" not in one
    assert parse_config(MIN + "seeds: [3]").to_dict() == one
    many = parse_config(MIN + "seeds: [0, 1]").to_dict()
    assert many["seeds"] == [0, 1] and "seed" not in many


@pytest.mark.parametrize("text, message", [
    (MIN + "seed: 0\nseeds: [0, 1]", r"line 4 \(seeds\): give either 'seed' .* not both"),
    (MIN + "seeds: []", r"line 3 \(seeds\): the list is empty"),
    (MIN + "seeds: 3", r"\(seeds\): must be a list of integers"),
    (MIN + "seeds: [0, 1, 1, 0]", r"\(seeds\): seeds must be distinct. Repeated: 0, 1"),
    (MIN + "seeds: [0, -1]", r"\(seeds.1\): must be >= 0. Got -1"),
    (MIN + "seeds:\n  - 0\n  - one", r"line 5 \(seeds.1\): must be an integer. Got 'one'"),
    (MIN + "seeds: [0, true]", r"\(seeds.1\): must be an integer"),
    (MIN + "seeds: [0.5]", r"\(seeds.0\): must be an integer"),
    (MIN + "seeds: [4294967296]", r"\(seeds.0\): must be <= 4294967295"),
    (MIN + "seed: -2", r"\(seed\): must be >= 0"),
    (MIN + f"seeds: {list(range(MAX_SEEDS + 1))}", rf"has {MAX_SEEDS + 1} seeds; at most"),
    (MIN + "sedes: [0, 1]", "Did you mean 'seeds'"),
])
def test_bad_seeds_are_explained(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text, source="x.yaml")


# ----------------------------------------------------------------------------------------------
# units and keys


def test_a_single_seed_keeps_the_keys_of_the_committed_paper_records():
    """configs/paper.yaml plans the keys its committed records were stored (and resumed) by."""
    cfg = load_config(ROOT / "configs" / "paper.yaml")
    units = {(u.dataset, u.method.label, u.fold): u for u in experiment.plan(cfg)}
    records = read_records(ROOT / "results" / "paper")
    assert len(records) > 500
    for rec in records:
        unit = units[rec["dataset"], rec["label"], rec["fold"]]
        assert (unit.key, unit.method.label, unit.seed) == (rec["key"], rec["label"], rec["seed"])
    pinned = {("wdbc", "bcd[form=dnf,R=5]", 0), ("ilpd", "bcd[form=dnf,R=5]", 1)}
    assert {units[p].key for p in pinned} <= {r["key"] for r in records}
    assert units["ilpd", "bcd[form=dnf,R=5]", 1].key == "525c8ff2ff297126"
    assert set(store.planned_keys(cfg.to_dict())) == {u.key for u in units.values()}


def test_each_seed_plans_the_units_of_that_single_seed():
    text = MIN + "outer_folds: 3\n"
    many = experiment.plan(parse_config(text + "seeds: [0, 5]"))
    assert len(many) == 6 and [u.seed for u in many] == [0] * 3 + [5] * 3
    for seed in (0, 5):
        alone = experiment.plan(parse_config(text + f"seed: {seed}"))
        assert [(u.key, u.method.label, u.fold) for u in alone] == [
            (u.key, u.method.label, u.fold) for u in many if u.seed == seed]
    resolved = parse_config(text + "seeds: [0, 5]").to_dict()
    assert set(store.planned_keys(resolved)) == {u.key for u in many}


def test_quick_seeds_repeats_quick_and_shares_its_seed_0_units():
    quick = experiment.plan(load_config(ROOT / "configs" / "quick.yaml"))
    seeds = experiment.plan(load_config(ROOT / "configs" / "quick-seeds.yaml"))
    assert len(seeds) == 5 * len(quick) == 250
    assert [u.key for u in seeds if u.seed == 0] == [u.key for u in quick]


def test_brcg_seeds_repeats_brcg_and_shares_its_seed_0_units():
    brcg = experiment.plan(load_config(ROOT / "configs" / "brcg.yaml"))
    seeds = experiment.plan(load_config(ROOT / "configs" / "brcg-seeds.yaml"))
    shared = [u for u in brcg if u.dataset != "musk"]  # Musk: BRCG's 2 h a seed, seed 0 only
    assert len(seeds) == 5 * len(shared)
    assert [u.key for u in seeds if u.seed == 0] == [u.key for u in shared]
    # seed-major: every unit of a seed is planned before any unit of the next one
    assert [u.seed for u in seeds] == sorted(u.seed for u in seeds)


# ----------------------------------------------------------------------------------------------
# a tiny two-seed experiment, end to end


def tiny_config(tmp_path, seeds="seeds: [0, 1]", name="two"):
    text = textwrap.dedent(f"""\
        name: {name}
        datasets: [{{name: wdbc_bundled, subsample: 60}}]
        methods: [bcd, {{cart: {{max_depth: [1, 2]}}}}]
        R: 2
        max_iter: 3
        theta: [0.1, 5.0]
        binarization: {{n_thresholds: 2}}
        outer_folds: 2
        inner_folds: 2
        {seeds}
        jobs: 1
        output: {tmp_path / 'results'}
        """)
    return parse_config(text, source=f"{name}.yaml")


def test_two_seeds_run_resume_per_seed_and_tabulate(tmp_path):
    cfg = tiny_config(tmp_path)
    folder = cfg.results_dir
    s = experiment.run(cfg, progress=False)
    assert (s.total, s.ok, s.failed) == (8, 8, 0)
    recs = read_records(folder)
    assert sorted({r["seed"] for r in recs}) == [0, 1]
    first = {r["key"]: without_volatile(r) for r in recs}
    # the seeds' splits differ (so do their subsamples): not the same numbers twice
    assert {r["n_train"] for r in recs} == {30}
    by = {(r["seed"], r["label"], r["fold"]): r for r in recs}
    assert any(by[0, lab, k]["rule"] != by[1, lab, k]["rule"] for _, lab, k in by)

    # lose the second seed's records: a rerun runs exactly those again, with the same results
    (folder / "records.jsonl").write_text(
        "".join(line for line in (folder / "records.jsonl").read_text().splitlines(True)
                if '"seed": 1' not in line))
    again = experiment.run(cfg, progress=False)
    assert (again.skipped, again.ok) == (4, 4)
    recs = read_records(folder)
    assert len(recs) == 8
    assert {r["key"]: without_volatile(r) for r in recs} == first

    # seed 1 of the two-seed run is the experiment 'seed: 1' alone (same keys, same records)
    alone = tiny_config(tmp_path, seeds="seed: 1", name="one")
    experiment.run(alone, progress=False)
    seed1 = {k: {f: v for f, v in r.items() if f != "experiment"}
             for k, r in first.items() if r["seed"] == 1}
    assert {r["key"]: {f: v for f, v in without_volatile(r).items() if f != "experiment"}
            for r in read_records(alone.results_dir)} == seed1

    # the tables: mean and SEM over the 2 seeds x 2 folds, the per-seed range and means
    paths = report.write_tables(folder)
    assert {"seeds.md", "seeds.csv"} <= {p.name for p in paths}
    t1 = pd.read_csv(folder / "table1.csv").set_index("label")
    t2 = pd.read_csv(folder / "table2.csv").set_index("label")
    per_seed = pd.read_csv(folder / "seeds.csv").set_index(["label", "seed"])
    md = (folder / "table1.md").read_text()
    assert "over 2 seeds and the outer folds" in md and "- seeds: 2 (0, 1)" in md
    for label in ("bcd[form=dnf,R=2]", "cart"):
        mine = [r for r in recs if r["label"] == label]
        errors = np.array([100 * r["test_error"] for r in mine])
        assert len(errors) == 4
        assert t1.loc[label, "error_mean"] == pytest.approx(errors.mean(), abs=1e-4)
        sem = errors.std(ddof=1) / math.sqrt(4)
        assert t1.loc[label, "error_sem"] == pytest.approx(sem, abs=1e-4)
        assert t2.loc[label, "literals_mean"] == pytest.approx(
            np.mean([r["n_features"] for r in mine]), abs=1e-4)
        means = [np.mean([100 * r["test_error"] for r in mine if r["seed"] == s]) for s in (0, 1)]
        for s in (0, 1):
            assert per_seed.loc[(label, s), "error_mean"] == pytest.approx(means[s], abs=1e-4)
        cell = (f"{errors.mean():.1f} ({sem:.1f}) "
                f"[{min(means):.1f}–{max(means):.1f}]")
        assert cell in md
    seeds_md = (folder / "seeds.md").read_text()
    assert "seed 0" in seeds_md and "seed 1" in seeds_md and "Min–max" in seeds_md


def test_a_cell_needs_every_seed_and_fold():
    def rec(seed, fold, error=0.1):
        return {"key": f"{seed}-{fold}", "dataset": "d", "label": "bcd", "method": "bcd",
                "fold": fold, "n_outer": 2, "seed": seed, "status": "ok", "test_error": error,
                "train_error": 0.0, "n_features": 3, "total_seconds": 1.0, "error": None}

    records = [rec(0, 0, 0.1), rec(0, 1, 0.3), rec(1, 0, 0.2)]
    row = report.summarize(records, seeds=[0, 1], n_outer=2).iloc[0]
    assert not row.complete and row.n_needed == 4
    assert row.reason == "3/4 (seed, fold) units done, 2 seeds"
    row = report.summarize(records + [rec(1, 1, 0.6)], seeds=[0, 1], n_outer=2).iloc[0]
    assert row.complete and row.error_mean == pytest.approx(30.0)
    assert row.error_by_seed == {0: pytest.approx(20.0), 1: pytest.approx(40.0)}
    header, rows = report.grid(report.summarize(records + [rec(1, 1, 0.6)], seeds=[0, 1]),
                               "error")
    assert rows[0][1] == "30.0 (10.8) [20.0–40.0]"


def test_a_figure_cell_needs_every_seed_and_fold():
    from rulelearn.bench import plot

    def rec(seed, fold):
        return {"key": f"{seed}-{fold}", "dataset": "d", "label": "bcd", "fold": fold,
                "n_outer": 2, "seed": seed, "status": "ok", "test_error": 0.1,
                "train_error": 0.1, "n_features": 1}

    three = [rec(0, 0), rec(0, 1), rec(1, 0)]
    assert plot._complete_cells(three) == set()
    assert plot._complete_cells(three + [rec(1, 1)]) == {("d", "bcd")}
    assert plot._complete_cells(three[:2], {"seeds": [0, 1]}) == set()
    assert plot._complete_cells(three[:2], {"seed": 0}) == {("d", "bcd")}


def test_table_seeds_tabulates_the_finished_seeds_of_a_run_in_progress(tmp_path):
    from click.testing import CliRunner

    from rulelearn.cli import main

    cfg = tiny_config(tmp_path, seeds="seeds: [0, 1, 2]", name="three")
    folder = cfg.results_dir
    experiment.run(cfg, progress=False)
    # seed 2 is still running: one of its folds is not recorded yet
    lines = (folder / "records.jsonl").read_text().splitlines(True)
    kept = [ln for ln in lines if not ('"seed": 2' in ln and '"fold": 1' in ln)]
    assert len(kept) == len(lines) - 2
    (folder / "records.jsonl").write_text("".join(kept))
    recs = read_records(folder)

    whole, _ = report.summary_for(folder)
    assert not whole["complete"].any()
    part, info = report.summary_for(folder, seeds=[1, 0])
    assert part["complete"].all() and info["seeds"] == [1, 0]
    for row in part.itertuples():
        mine = [100 * r["test_error"] for r in recs if r["label"] == row.method and r["seed"] < 2]
        assert len(mine) == 4 and row.error_mean == pytest.approx(np.mean(mine))
        assert set(row.error_by_seed) == {0, 1}

    runner = CliRunner()
    out = tmp_path / "two"
    res = runner.invoke(main, ["table", str(folder), "--seeds", "0,1", "-o", str(out)])
    assert res.exit_code == 0, res.output
    md = (out / "table1.md").read_text()
    assert "- seeds: 2 (0, 1) of the configuration's 3 (0, 1, 2;" in md
    assert "missing" not in md

    res = runner.invoke(main, ["table", str(folder), "--seeds", "0,3"])
    assert res.exit_code == 1
    assert res.output.strip().splitlines()[-1] == (
        f"Error: seed 3 is not among the seeds of {folder / 'config.yaml'} (0, 1, 2).")
    for bad in ("x", "0,,1", "-1", ""):
        res = runner.invoke(main, ["table", str(folder), "--seeds", bad])
        assert res.exit_code == 2 and "is not a comma-separated list of seeds" in res.output
