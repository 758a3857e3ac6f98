"""Figures (checked as objects: panels, series, labels, scales, notes) and θ paths in records."""

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib")

from rulelearn.bench import experiment, plot, report, store  # noqa: E402
from rulelearn.bench.config import parse_config  # noqa: E402
from rulelearn.bench.store import read_records  # noqa: E402
from rulelearn.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GRID = [0.01, 1.0, 50.0]


def record(dataset, method, fold, error, size, *, label=None, path=True, n_outer=2):
    """An ``ok`` record as ``run_unit`` writes it (only the fields the figures read)."""
    label = label or method
    rec = {"key": f"{dataset}-{label}-{fold}", "status": "ok", "dataset": dataset,
           "label": label, "method": method, "fold": fold, "n_outer": n_outer,
           "test_error": error, "train_error": error / 2, "n_features": size,
           "total_seconds": 1.0}
    if method == "cart":
        rec["chosen"] = 3
        values = [1, 3, None]
    else:
        rec["chosen"] = 1.0
        values = GRID
    if path:
        rec["path"] = [{"param": v, "cv_error": error + 0.01 * i, "cv_sem": 0.01,
                        "literals": size * (3 - i), "clauses": 1, "train_error": error / 2,
                        "test_error": error + 0.02 * (i - 1)} for i, v in enumerate(values)]
        chosen = values.index(rec["chosen"])
        rec["path"][chosen].update(test_error=error, literals=size)
    return rec


def records(path=True):
    out = []
    for fold in (0, 1):
        out += [record("magic", "bcd", fold, 0.20, 6 + fold, path=path),
                record("magic", "sc", fold, 0.21, 5, path=path),
                record("magic", "cart", fold, 0.15, 300 + fold, path=path),
                record("pima", "bcd", fold, 0.26, 3, path=path),
                record("pima", "cart", fold, 0.25, 14, path=path)]
    return out


def labels_of(fig):
    return [t.get_text() for legend in fig.legends for t in legend.get_texts()]


def texts_of(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts)


# ------------------------------------------------------------------------------------------ figures

def test_tradeoff_has_a_panel_per_dataset_and_one_legend_outside():
    fig = plot.tradeoff_figure(records())
    assert [ax.get_title() for ax in fig.axes] == ["magic", "pima\nmissing: SC (no records)"]
    assert labels_of(fig) == ["BCD", "SC", "CART"]
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    magic, pima = fig.axes
    assert magic.get_xscale() == "log"  # CART ~300 nodes, BCD ~6 literals
    assert pima.get_xscale() == "linear"
    # a log axis says so; a linear one is plain
    assert magic.get_xlabel() == "size (literals; log scale)"
    assert pima.get_xlabel() == "size (literals)"
    assert all(ax.get_ylabel() == "test error (%)" for ax in fig.axes)
    assert "SEM" in fig.get_suptitle() and "CART: split nodes" in fig.get_suptitle()


def test_tradeoff_names_missing_cells_and_works_without_paths():
    recs = [r for r in records(path=False) if not (r["label"] == "sc" and r["fold"] == 1)]
    fig = plot.tradeoff_figure(recs)
    assert fig.axes[0].get_title() == "magic\nmissing: SC (1/2 folds done)"
    pareto = plot.pareto_figure(recs)
    assert pareto.axes[0].get_title().endswith("missing: SC (1/2 folds done)")


def test_a_dataset_with_nothing_complete_gets_no_panel_and_is_named():
    """A dataset of the config without records (Musk and MAGIC in results/public) gets no
    empty panel: the figure's title names it."""
    config = config_of(records(), paper=False)
    config["datasets"] += [{"name": "musk"}, {"name": "magic2"}]
    fig = plot.tradeoff_figure(records(), config)
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == ["magic", "pima"]
    title = fig._suptitle.get_text()
    assert title.splitlines()[-1] == "no panel (no method complete): musk, magic2"
    with pytest.raises(plot.PlotError, match="no \\(dataset, method\\) with an ok record"):
        plot.tradeoff_figure([r for r in records() if r["fold"] == 0], config)


def test_methods_on_one_spot_are_named_wrapped_inside_their_panel():
    """Eight long labels on one spot (results/gaps' ILPD) once made a one-line note that
    collapsed every panel's layout; the note is wrapped, clipped to its panel and kept out of
    the layout, on the side of the point facing the panel's middle."""
    labels = [f"bcd[form=dnf,R=5,start=s{i}]" for i in range(8)]
    recs = [record("ilpd", "bcd", fold, 0.28, 0, label=lab, path=False)
            for lab in labels for fold in (0, 1)]
    recs += [record("ilpd", "cart", fold, 0.30, 9, path=False) for fold in (0, 1)]
    fig = plot.tradeoff_figure(recs)
    (note,) = fig.axes[0].texts
    lines = note.get_text().split("\n")
    assert len(lines) > 3 and all(len(line) <= 22 for line in lines)
    assert "".join(lines).replace(" ", "") == "=".join(labels)
    assert not note.get_in_layout() and note.get_clip_on()
    assert note.get_horizontalalignment() == "left"  # the spot is left of the middle


def config_of(recs, *, paper):
    """A resolved-config stand-in for ``recs`` (what the figures read of it)."""
    return {"datasets": [{"name": d} for d in dict.fromkeys(r["dataset"] for r in recs)],
            "methods": [{"label": lab, "name": lab.split("[")[0]}
                        for lab in dict.fromkeys(r["label"] for r in recs)],
            "outer_folds": 2, "seed": 0, "paper": paper}


def test_path_figure_draws_each_lp_method_against_theta():
    fig = plot.path_figure(records(), config_of(records(), paper=True))
    assert len(fig.axes) == 4  # (CV error, literals) per dataset
    err, lit = fig.axes[:2]
    assert err.get_xscale() == "log" and lit.get_xscale() == "log"
    assert err.get_xlabel() == "θ (sparsity weight; log scale)"
    assert err.get_ylabel() == "inner-CV error (%)" and lit.get_ylabel() == "literals (refit)"
    assert "θ" in err.get_xlabel()
    # one line per LP method (CART has no θ), plus the paper's level for magic's BCD and SC
    series = [line for line in err.get_lines() if len(line.get_xdata()) == len(GRID)]
    assert len(series) == 2
    assert list(series[0].get_xdata()) == GRID
    assert np.allclose(series[0].get_ydata(), [20.0, 21.0, 22.0])
    assert "BCD" in labels_of(fig) and "CART" not in labels_of(fig)
    assert any("chosen θ" in t for t in labels_of(fig))
    paper = report.paper_results()
    magic_bcd = paper[(paper.table == 1) & (paper.dataset == "magic") & (paper.method == "bcd")]
    levels = [line.get_ydata()[0] for line in err.get_lines() if len(line.get_xdata()) == 2]
    assert float(magic_bcd["value"].iloc[0]) in levels


def test_path_figure_says_what_is_missing_instead_of_failing():
    recs = records() + [record("wdbc", "bcd", f, 0.05, 9, path=False) for f in (0, 1)]
    fig = plot.path_figure(recs)
    assert len(fig.axes) == 5  # two datasets with paths, one text panel
    assert "no θ path for wdbc" in texts_of(fig)
    old = plot.path_figure(records(path=False))
    assert len(old.axes) == 1 and "rerun" in texts_of(old)
    none = plot.path_figure([r for r in records() if r["method"] == "cart"])
    assert "no record of an LP method" in texts_of(none)


def test_a_dataset_whose_rules_are_all_empty_gets_a_count_axis_from_0_to_1():
    recs = [record("transfusion", m, f, 0.24, 0) for m in ("bcd", "sc") for f in (0, 1)]
    lit = plot.path_figure(recs).axes[1]
    lo, hi = lit.get_ylim()
    assert lo <= 0 < 1 <= hi < 1.5 and lit.get_yscale() == "linear"
    assert lit.yaxis.get_major_formatter().get_offset() == ""  # no '1e-17' offset label


@pytest.mark.parametrize("axis", ["x", "y"])
def test_counts_spanning_decades_with_a_zero_get_no_negative_decades(axis):
    from rulelearn.bench.plot import _new_figure, _scale

    ax = _new_figure(4, 3).subplots()
    counts = [0, 1, 12, 38, 94]
    ax.plot(counts, counts)
    _scale(ax, counts, axis, floor=1.0)
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    assert (ax.get_xscale() if axis == "x" else ax.get_yscale()) == "symlog"
    assert lo == 0 and hi > max(counts)  # nothing below 0, the largest count not on the frame


def test_paper_lines_only_for_a_paper_config():
    """The paper's test errors are reference lines only where the config reproduces the
    paper; never for another config or for records without one."""
    def dotted(fig):
        return [line for ax in fig.axes for line in ax.get_lines()
                if line.get_linestyle() == ":"]

    paper = plot.path_figure(records(), config_of(records(), paper=True))
    assert dotted(paper) and any("the paper's test error" in t for t in labels_of(paper))
    for fig in (plot.path_figure(records(), config_of(records(), paper=False)),
                plot.path_figure(records())):
        assert dotted(fig) == []
        assert not any("paper" in t for t in labels_of(fig))


def test_pareto_draws_the_chosen_rules_beside_the_hindsight_front():
    """Left: each fold's chosen rule and the table's cell (mean); right, titled as hindsight:
    every θ's test error. Both panels share their axes."""
    recs = records()
    fig = plot.pareto_figure(recs)
    honest, hindsight = fig.axes[:2]
    assert "chosen rules (as in the tables)" in honest.get_title()
    assert "HINDSIGHT" in hindsight.get_title() and "HINDSIGHT" in fig.get_suptitle()
    assert "optimistic" in fig.get_suptitle()
    assert honest.get_ylim() == hindsight.get_ylim()
    assert honest.get_xlim() == hindsight.get_xlim()
    cells = report.summarize(recs)
    magic = cells[(cells.dataset == "magic") & cells.complete]
    means = sorted((round(r.literals_mean, 6), round(r.error_mean, 6))
                   for r in magic.itertuples())
    drawn = sorted((round(float(c[0].get_xdata()[0]), 6), round(float(c[0].get_ydata()[0]), 6))
                   for c in honest.containers)
    assert drawn == means  # the mean markers are the tables' cells
    folds = [c for c in honest.collections if len(c.get_offsets()) == 2]
    assert len(folds) == 3  # each method's two folds, as small points


def test_a_legend_lists_only_the_methods_drawn():
    recs = records() + [record("pima", "ripper", 0, 0.3, 4)]  # one fold of two: not drawn
    for fig in (plot.pareto_figure(recs), plot.tradeoff_figure(recs)):
        assert "RIPPER" not in labels_of(fig)
        assert {"BCD", "SC", "CART"} <= set(labels_of(fig))
    page = plot.pareto_figure(recs, datasets=["pima"])  # SC has no record on pima
    assert [t for t in labels_of(page) if t.isupper()] == ["BCD", "CART"]
    paths = plot.path_figure(recs, datasets=["pima"])
    assert [t for t in labels_of(paths) if t.isupper()] == ["BCD"]


def test_figures_over_many_datasets_are_paged(monkeypatch):
    assert (plot.PATHS_PAGE, plot.PARETO_PAGE) == (3, 4)  # results/paper: 4 and 3 pages
    monkeypatch.setattr(plot, "PATHS_PAGE", 2)  # fewer panels to build in a test
    monkeypatch.setattr(plot, "PARETO_PAGE", 2)
    names = ["d0", "d1", "d2"]
    recs = [record(d, m, f, 0.2, 4) for d in names for m in ("bcd", "cart") for f in (0, 1)]
    pages = plot.figure_pages(recs)
    assert [len(pages[k]) for k in ("tradeoff", "paths", "pareto")] == [1, 2, 2]
    first, last = pages["paths"]
    assert len(first.axes) == 2 * 2 and len(last.axes) == 2 * 1  # (error, literals) a dataset
    assert [ax.get_title().split("\n")[0] for ax in pages["pareto"][1].axes] == ["d2", "d2"]
    assert all(len(fig.legends) == 1 for figs in pages.values() for fig in figs)
    for fig in pages["paths"] + pages["pareto"]:  # a page does not grow with the datasets
        assert fig.get_size_inches()[1] <= 10.5
    assert plot.page_names("paths", 1, "png") == ["paths.png"]
    assert plot.page_names("paths", 2, "svg") == ["paths-1.svg", "paths-2.svg"]


def test_write_figures_removes_pages_of_an_earlier_drawing_only(tmp_path, monkeypatch):
    def save(fig, path):  # the files, not the drawing, are under test here
        path.write_bytes(b"page")
        return path

    monkeypatch.setattr(plot, "save", save)
    folder = _write_results(tmp_path)
    figures = folder / "figures"
    figures.mkdir()
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"mine")
    (figures / "paths-1.png").write_bytes(b"old page")
    (figures / "pareto-7.png").symlink_to(outside)
    (figures / "paths-notes.png").write_bytes(b"not a page")
    written = plot.write_figures(folder)
    assert sorted(p.name for p in figures.iterdir()) == ["pareto.png", "paths-notes.png",
                                                         "paths.png", "tradeoff.png"]
    assert outside.read_bytes() == b"mine" and [p.name for p in written] == [
        "tradeoff.png", "paths.png", "pareto.png"]


def test_cd_figure_joins_methods_within_the_critical_difference():
    ranks = {"A": 1.0, "B": 1.5, "C": 2.4, "D": 3.6}
    fig = plot.cd_figure(ranks, 1.0, n_datasets=6, title="error")
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert {"A (1.00)", "B (1.50)", "C (2.40)", "D (3.60)", "CD = 1.00"} <= set(texts)
    bars = [line for line in ax.get_lines() if line.get_linewidth() == 3]
    assert len(bars) == 2  # (A, B) and (B, C)
    assert sorted(tuple(np.round(b.get_xdata(), 2)) for b in bars) == [(0.97, 1.53),
                                                                       (1.47, 2.43)]


def test_a_dollar_in_a_name_is_text_not_mathtext():
    """A dataset, method or file name with ``$`` is drawn as written (as mathtext,
    ``$\\frac$`` would stop the drawing with a parse error)."""
    import io

    name = "a$\\frac$b"
    recs = [record(name, m, f, 0.2, 4) for m in ("bcd", "cart") for f in (0, 1)]
    for fig in (plot.tradeoff_figure(recs), plot.path_figure(recs),
                plot.cd_figure({name: 1.0, "b": 2.0}, 1.0, n_datasets=3, title=name)):
        fig.savefig(io.BytesIO(), format="png", dpi=30)
        assert any(name in t.get_text() for ax in fig.axes
                   for t in [ax.title] + list(ax.texts))


def test_dominated_points():
    assert list(plot.dominated([1, 2, 3, 2], [0.3, 0.2, 0.1, 0.25])) == [False, False, False,
                                                                          True]
    assert list(plot.dominated([1, 1], [0.2, 0.2])) == [False, False]  # ties dominate nothing


def test_pareto_greys_dominated_points_and_draws_the_front():
    fig = plot.pareto_figure(records())
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == ["magic"] * 2 + ["pima"] * 2
    assert fig.axes[2].get_title().endswith("missing: SC (no records)")
    magic = fig.axes[1]  # the hindsight panel
    assert magic.get_xscale() == "log"
    grey = [c for c in magic.collections
            if np.allclose(c.get_facecolor()[0][:3], [0.75, 0.75, 0.75])]
    coloured = [c for c in magic.collections if c not in grey]
    # 9 points (3 values x 3 methods); the front is what is not grey
    n_grey = sum(len(c.get_offsets()) for c in grey)
    assert n_grey + len(coloured) == 9 and len(coloured) >= 2
    assert magic.get_lines()  # the front as a step line
    assert {"dominated (grey)", "Pareto front"} <= set(labels_of(fig))
    old = plot.pareto_figure(records(path=False))
    assert all("(chosen settings only)" in ax.get_title() for ax in old.axes[1::2])


def test_selection_figure_for_fit():
    from rulelearn.model_selection import CVRow, Selection

    rows = tuple(CVRow(form, r, t, 0.1 + 0.01 * i, 0.01, 10.0 / (1 + t), (0.1,), r)
                 for form in ("dnf", "cnf") for r in (1, 3)
                 for i, t in enumerate((0.01, 1.0, 50.0)))
    sel = Selection(rows, chosen=3, n_folds=5, seed=0, forms=("dnf", "cnf"), rules=(1, 3),
                    thetas=(0.01, 1.0, 50.0))
    fig = plot.selection_figure(sel, title="BCD on d.csv")
    assert len(fig.axes) == 2 and all(ax.get_xscale() == "log" for ax in fig.axes)
    names = labels_of(fig)
    assert names[:4] == ["DNF, R = 1", "DNF, R = 3", "CNF, R = 1", "CNF, R = 3"]
    assert names[-1].startswith("chosen: DNF, R = 3")
    assert "θ × R × form" in fig.get_suptitle()
    assert "thresholds" not in fig.get_suptitle()


def test_selection_lines_that_coincide_stay_distinguishable():
    """DNF and CNF with R = 1 often give the same numbers on a large table: each line has
    its own dash, marker and fill, so the later one cannot hide the earlier."""
    from rulelearn.model_selection import CVRow, Selection

    rows = tuple(CVRow(form, r, t, 0.2, 0.01, 3.0, (0.2,), r)  # identical numbers
                 for form in ("dnf", "cnf") for r in (1, 3) for t in (0.01, 1.0, 50.0))
    sel = Selection(rows, chosen=0, n_folds=5, seed=0, forms=("dnf", "cnf"), rules=(1, 3),
                    thetas=(0.01, 1.0, 50.0))
    fig = plot.selection_figure(sel)
    for ax in fig.axes:
        lines = [line for line in ax.get_lines() if len(line.get_xdata()) == 3]
        assert len(lines) == 4
        looks = {(line.get_linestyle(), line.get_marker(), str(line.get_markerfacecolor()))
                 for line in lines}
        assert len(looks) == 4
        assert len({line.get_linestyle() for line in lines}) == 4


def test_selection_figure_draws_each_number_of_thresholds_apart():
    from rulelearn.model_selection import CVRow, Selection

    rows = tuple(CVRow("cnf", 3, t, 0.1 + 0.01 * i - 0.05 * (n == 30), 0.01, 10.0 / (1 + t),
                       (0.1,), 3, n)
                 for n in (10, 30) for i, t in enumerate((0.01, 1.0, 50.0)))
    sel = Selection(rows, chosen=3, n_folds=5, seed=0, forms=("cnf",), rules=(3,),
                    thetas=(0.01, 1.0, 50.0), thresholds=(10, 30))
    fig = plot.selection_figure(sel)
    names = labels_of(fig)
    assert names[:2] == ["CNF, R = 3, 10 thresholds", "CNF, R = 3, 30 thresholds"]
    assert names[-1].endswith(", 30 thresholds")
    assert len(fig.axes[0].get_lines()) == 2
    assert "θ × R × form × thresholds" in fig.get_suptitle()


def test_missing_matplotlib_is_a_one_line_error_naming_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import -> ImportError
    with pytest.raises(plot.PlotError, match=r"rulelearn\[plot\]"):
        plot.tradeoff_figure(records())
    folder = _write_results(tmp_path)
    r = CliRunner().invoke(main, ["plot", str(folder)])
    assert r.exit_code == 1
    assert r.stderr.strip() == ("Error: plotting needs the optional matplotlib package: "
                                "pip install 'rulelearn[plot]'")


# ------------------------------------------------------------------------------ records and the CLI

def _write_results(tmp_path, *, path=True):
    """A results folder with a config.yaml and records for it (no bench run)."""
    cfg = parse_config(textwrap.dedent("""\
        name: fake
        datasets: [magic, pima]
        methods: [bcd, cart]
        theta: [0.01, 1.0, 50.0]
        outer_folds: 2
        inner_folds: 2
        """), source="fake.yaml")
    folder = tmp_path / "fake"
    folder.mkdir()
    import yaml

    (folder / "config.yaml").write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    keys = store.planned_keys(cfg.to_dict())
    lines = []
    for key, (d, label, fold) in keys.items():
        rec = record(d, label.split("[")[0], fold, 0.2, 5, label=label, path=path)
        rec["key"] = key
        lines.append(json.dumps(rec))
    (folder / "records.jsonl").write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_plot_command_writes_three_figures(tmp_path, fmt):
    folder = _write_results(tmp_path)
    r = CliRunner().invoke(main, ["plot", str(folder), "--format", fmt])
    assert r.exit_code == 0, r.output
    names = [Path(line).name for line in r.stdout.split()]
    assert names == [f"tradeoff.{fmt}", f"paths.{fmt}", f"pareto.{fmt}"]
    assert all((folder / "figures" / n).stat().st_size > 1000 for n in names)
    r = CliRunner().invoke(main, ["plot", str(folder), "-o", str(tmp_path / "elsewhere")])
    assert r.exit_code == 0 and (tmp_path / "elsewhere" / "pareto.png").exists()


def test_plot_command_on_a_folder_without_records(tmp_path):
    r = CliRunner().invoke(main, ["plot", str(tmp_path)])
    assert r.exit_code == 1 and r.stderr.startswith("Error: no records in")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    """configs/smoke.yaml, run once: its results folder."""
    folder = tmp_path_factory.mktemp("smoke") / "smoke"
    cfg = parse_config((ROOT / "configs" / "smoke.yaml").read_text(), source="smoke.yaml")
    experiment.run(cfg, output=folder, progress=False)
    return folder


def test_records_carry_a_well_formed_path(smoke):
    recs = read_records(smoke)
    assert recs and all(r["status"] == "ok" for r in recs)
    fields = {"param", "cv_error", "cv_sem", "literals", "clauses", "train_error",
              "test_error"}
    for rec in recs:
        path = rec["path"]
        assert [e["param"] for e in path] == rec["grid"]
        assert all(set(e) == fields for e in path)
        assert [e["cv_error"] for e in path] == rec["inner_errors"]
        assert all(e["cv_sem"] >= 0 and 0 <= e["test_error"] <= 1 for e in path)
        chosen = path[rec["grid"].index(rec["chosen"])]
        assert chosen["test_error"] == rec["test_error"]
        assert chosen["train_error"] == rec["train_error"]
        assert chosen["literals"] == rec["n_features"]
        assert chosen["clauses"] == rec["n_clauses"]
        if rec["method"] == "bcd":  # a larger θ never buys a larger rule here
            sizes = [e["literals"] for e in sorted(path, key=lambda e: e["param"])]
            assert sizes[-1] <= sizes[0]


def test_old_records_without_paths_render_and_stay_done(smoke, tmp_path):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(smoke, old)
    recs = read_records(old)
    (old / "records.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "path"}) + "\n" for r in recs))
    report.write_tables(old)
    assert pd.read_csv(old / "table1.csv")["error_mean"].notna().all()
    cfg = parse_config((ROOT / "configs" / "smoke.yaml").read_text(), source="smoke.yaml")
    summary = experiment.run(cfg, output=old, progress=False)
    assert summary.skipped == summary.total and summary.ok == 0
    written = plot.write_figures(old)
    assert [p.name for p in written] == ["tradeoff.png", "paths.png", "pareto.png"]


def test_fit_plot_draws_the_cv(tmp_path, monkeypatch):
    from test_cli_fit import FAST, planted

    monkeypatch.chdir(tmp_path)
    planted().to_csv("d.csv", index=False)
    r = CliRunner().invoke(main, ["fit", "d.csv", "--form", "dnf", "--rules", "1", "--plot",
                                  "cv.svg"])
    assert r.exit_code == 0, r.output
    assert "plot: cv.svg" in r.stdout and Path("cv.svg").stat().st_size > 1000
    r = CliRunner().invoke(main, ["fit", "d.csv", *FAST, "--plot", "cv.png"])
    assert r.exit_code == 2 and "leave out --form, --rules or --theta" in r.stderr
    r = CliRunner().invoke(main, ["fit", "d.csv", "--plot", "cv.txt"])
    assert r.exit_code == 2 and ".png, .svg or .pdf" in r.stderr
    assert not Path("cv.png").exists() and not Path("cv.txt").exists()


DAMAGES = {"ints": [1, 2], "text": "abc", "lists": [[1, 2]], "text-entries": ["x"],
           "entry-without-param": [{"cv_error": 0.1}],
           "text-values": [{"param": "x", "cv_error": "y", "literals": [1]}],
           "no-method": None, "int-method": 3}


def test_plot_on_damaged_records_warns_naming_each_record(tmp_path):
    """A record per damage (paths of ints, text, lists, ...; no method, a number as method):
    drawn without its path, one warning line naming it; no traceback."""
    folder = _write_results(tmp_path)
    lines = (folder / "records.jsonl").read_text().splitlines()
    assert len(lines) == len(DAMAGES)
    keys = {}
    for i, (damage, value) in enumerate(DAMAGES.items()):
        rec = json.loads(lines[i])
        if damage == "no-method":
            rec.pop("method")
        elif damage == "int-method":
            rec["method"] = value
        else:
            rec["path"] = value
        lines[i] = json.dumps(rec)
        keys[damage] = rec["key"]
    (folder / "records.jsonl").write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["plot", str(folder)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    path_damages = [d for d in DAMAGES if d not in ("no-method", "int-method")]
    assert len(warnings) == len(path_damages), r.stderr
    for damage in path_damages:  # one line a record, however many of its entries are damaged
        assert sum(f"record '{keys[damage]}':" in line for line in warnings) == 1, (damage,
                                                                                    warnings)
    assert [Path(line).name for line in r.stdout.split()] == ["tradeoff.png", "paths.png",
                                                              "pareto.png"]


# ------------------------------------------------------------------- one style per method name


def styles_drawn(fig) -> set:
    """The (colour, marker) of every marker line drawn in ``fig``'s panels."""
    from matplotlib.colors import to_hex

    return {(to_hex(line.get_color()), line.get_marker()) for ax in fig.axes
            for line in ax.lines if line.get_marker() not in (None, "None", "", " ")}


def test_a_method_has_one_colour_and_marker_in_every_figure():
    """CART was purple ▽ in one report and green ◆ in another: its style came from its place
    in the config. Now the same in any order and beside any other methods."""
    recs = records()
    one = plot.tradeoff_figure(recs, config_of(recs, paper=False))
    fewer = [r for r in recs if r["label"] != "sc"]
    config = config_of(fewer, paper=False)
    config["methods"].reverse()  # cart first, then bcd
    other = plot.tradeoff_figure(fewer, config)
    cart, bcd = plot.METHOD_STYLES["cart"], plot.METHOD_STYLES["bcd"]
    assert {cart, bcd, plot.METHOD_STYLES["sc"]} <= styles_drawn(one)
    assert {cart, bcd} <= styles_drawn(other)
    paths = plot.path_figure(recs, config_of(recs, paper=False))
    assert {bcd, plot.METHOD_STYLES["sc"]} <= styles_drawn(paths)
    assert plot.method_style("CART") == plot.method_style("cart") == cart
    assert len(set(plot.METHOD_STYLES.values())) == len(plot.METHOD_STYLES)


def test_an_unknown_name_gets_the_same_style_in_every_process():
    """A name the palette does not know is styled by a stable hash (not Python's salted one)."""
    code = ("from rulelearn.bench.plot import method_style; "
            "print(method_style('bcd[form=dnf,R=5,start=best]'))")
    seen = {subprocess_output(code, seed) for seed in ("1", "2")}
    assert len(seen) == 1
    style = plot.method_style("bcd[form=dnf,R=5,start=best]")
    assert seen == {str(style) + "\n"} and style not in plot.METHOD_STYLES.values()


def subprocess_output(code, hash_seed):
    import os
    import subprocess

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONHASHSEED": hash_seed}).stdout


def test_two_names_hashed_to_one_style_are_told_apart_in_a_figure():
    seen: dict = {}
    for i in range(10000):  # two names whose hashed styles coincide
        style = plot.method_style(f"variant-{i}")
        if style in seen:
            a, b = seen[style], f"variant-{i}"
            break
        seen[style] = f"variant-{i}"
    styles = plot.method_styles({"x": a, "y": b, "z": "CART"})
    assert styles["x"] == plot.method_style(a) and styles["y"][0] != styles["x"][0]
    assert styles["z"] == plot.METHOD_STYLES["cart"]
    # ten variants of one method (results/gaps-closure has six): ten colours of their own
    many = plot.method_styles({i: f"bcd[form=dnf,R={i}]" for i in range(10)})
    assert len({colour for colour, _ in many.values()}) == 10
    assert plot.method_styles({i: f"bcd[form=dnf,R={i}]" for i in range(10)}) == many


# -------------------------------------------------------------------- plot on damaged records


@pytest.mark.parametrize("param", ["abc", [1, 2], {"a": 1}, True, 10 ** 400, "1e400"])
def test_a_path_parameter_that_is_not_a_number_is_left_out_with_a_warning(tmp_path, param):
    """Second battery: a θ-path parameter as text or a list gave a traceback from float()."""
    folder = _write_results(tmp_path)
    lines = (folder / "records.jsonl").read_text().splitlines()
    recs = [json.loads(line) for line in lines]
    for rec in recs[:3]:
        for entry in rec["path"]:
            entry["param"] = "__PARAM__"
    text = "".join(json.dumps(r) + "\n" for r in recs)
    value = "1e400" if param == "1e400" else json.dumps(param)  # 1e400: read as infinity
    (folder / "records.jsonl").write_text(text.replace('"__PARAM__"', value))
    r = CliRunner().invoke(main, ["plot", str(folder)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 3 and all("has no valid 'param'" in w for w in warnings), warnings
    assert all(len(w) < 300 for w in warnings)
    assert [Path(line).name for line in r.stdout.split()] == ["tradeoff.png", "paths.png",
                                                              "pareto.png"]


def test_plot_on_only_records_of_another_configuration_is_one_error_line(tmp_path):
    """Second battery: records that config.yaml does not plan gave KeyError: 'dataset'."""
    folder = _write_results(tmp_path)
    recs = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
    for rec in recs:
        rec["key"] = "other-" + rec["key"]
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    r = CliRunner().invoke(main, ["plot", str(folder)])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.stderr.startswith(f"Error: nothing to plot in {folder}: no record of its "
                               f"config.yaml's configuration (8 records of another "
                               f"configuration are ignored")
    assert len(r.stderr.strip().splitlines()) == 1 and not (folder / "figures").exists()
    from rulelearn.bench import html_report

    page = html_report.build_report(folder)  # the report still renders, and says why
    assert "tradeoff: no records to plot" in page and "<img" not in page


def test_plot_on_records_with_huge_numbers_gives_no_traceback(tmp_path):
    """An integer too large for a float (10**400) where a path entry wants a number."""
    folder = _write_results(tmp_path)
    recs = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
    recs[0]["path"][0]["literals"] = 10 ** 400
    recs[1]["path"][0]["cv_error"] = 10 ** 400
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    r = CliRunner().invoke(main, ["plot", str(folder)])
    assert r.exit_code == 0 and r.exception is None, repr(r.exception)
    assert sum(line.startswith("warning:") for line in r.stderr.splitlines()) == 2


def test_paths_without_inner_cv_errors_say_so_and_draw(tmp_path):
    """θ paths whose entries carry no inner-CV error (cv_error null): the error panel says so;
    a log θ axis over no data stopped the drawing."""
    recs = records()
    for rec in recs:
        for entry in rec["path"]:
            entry["cv_error"] = entry["cv_sem"] = None
    fig = plot.path_figure(recs, config_of(recs, paper=False))
    plot.figure_png(fig)  # drawn to the end
    err = fig.axes[0]
    assert "no inner-CV error in these records" in " ".join(t.get_text() for t in err.texts)
    assert fig.axes[1].get_xscale() == "log"  # the literals panel keeps its θ axis
