"""Figures from benchmark records and from ``rulelearn fit``'s CV (pure: data in, Figures out).

* :func:`tradeoff_figure`: test error against rule size per dataset, one marker per method,
  mean ± SEM over the outer folds both ways (the cells of Tables 1 and 2).
* :func:`path_figure`: per dataset, the inner-CV error and the refit's literals against θ for
  each LP method, the chosen θ marked; the paper's numbers as reference lines only for a
  configuration that reproduces the paper (``paper: true``).
* :func:`pareto_figure`: per dataset, two panels: the honest one (each outer fold's chosen
  rule, as the tables report) and, titled as such, the hindsight front of every refit in the
  records' paths (every θ, every tree depth, judged on the test folds: optimistic).
* :func:`selection_figure`: ``rulelearn fit --plot``: CV error and literals against θ per
  (form, R), each line its own colour, marker and dash so none hides another.
* :func:`cd_figure`: a critical-difference diagram of average ranks (:mod:`.stats`).

A logarithmic axis says so in its label (``size (literals; log scale)``). Figures over many
datasets are drawn as pages (:func:`figure_pages`: :data:`PATHS_PAGE` / ``PARETO_PAGE``
datasets each), so no page grows tall with its legend half-way down; a legend lists only the
methods drawn on its page.

matplotlib is an optional extra (``pip install 'rulelearn[plot]'``), imported only when a
figure is drawn. The figures are :class:`matplotlib.figure.Figure` objects built without
pyplot, so they hold no global state; saving them is the caller's business.

A method has one colour and marker in every figure of every results folder, keyed by its
name (:func:`method_style`), not by its place in the config.
"""

from __future__ import annotations

import hashlib
import math
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from rulelearn.bench.records import as_records, display_names, load_results, sem, summarize
from rulelearn.errors import RuleLearnError

#: The LP rule learners, whose tuned parameter is θ.
LP_METHODS = ("bcd", "am", "ocrl", "sc", "cg")
#: What the size axis counts, per baseline (the LP learners count literals).
SIZE_NOTE = ("size: literals (CART: split nodes, RIPPER: conditions, FIGS: splits; see "
             "rulelearn/bench/peers.py)")
#: A positive range wider than this ratio gets a logarithmic axis.
LOG_RATIO = 50.0
#: Datasets per page of the θ-paths figure (a row each) and of the Pareto figure (two a row).
PATHS_PAGE = 3
PARETO_PAGE = 4
_MARKERS = "osD^vP*Xph<>"
_DASHES = ("-", "--", "-.", ":")
_NO_PATH = ("records written before θ paths were stored; rerun "
            "'rulelearn bench CONFIG --force' to record them")


class PlotError(RuleLearnError):
    """A figure that cannot be drawn (the optional matplotlib missing, nothing to plot)."""


def figure_class():
    """matplotlib's ``Figure``; :class:`PlotError` naming the extra when it is not installed."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("plotting needs the optional matplotlib package: "
                        "pip install 'rulelearn[plot]'") from None
    return Figure


# ----------------------------------------------------------------------------------------------
# records -> tables (pure, no matplotlib)


def load_records(folder) -> tuple[list, dict]:
    """The latest :class:`~rulelearn.bench.records.Record` of each unit ``folder``'s
    ``config.yaml`` plans, and that config (:func:`~rulelearn.bench.records.load_results`).

    :class:`~rulelearn.bench.store.ResultsError` as for the tables, :class:`PlotError` when
    none of the records is of the folder's configuration; each damaged θ path (its entries
    left out of the figures) is a warning.
    """
    import warnings

    results = load_results(folder)
    if not results.records:  # e.g. only records of another configuration
        why = "; ".join(results.info["notes"]) or "the records are of no planned unit"
        raise PlotError(f"nothing to plot in {folder}: no record of its config.yaml's "
                        f"configuration ({why})")
    for rec in results.records:
        for line in rec.damage:
            warnings.warn(line, UserWarning, stacklevel=2)
    return results.records, results.config


def path_frame(records) -> pd.DataFrame:
    """One row per (record with a path, path entry): the entry's fields, its record's dataset,
    label, method, fold, and whether it is the chosen value."""
    rows = []
    for rec in as_records(records):
        if not rec.ok or not rec.path:
            continue
        for point in rec.path:
            rows.append({"dataset": rec.dataset, "label": rec.label,
                         "method": rec.method or rec.label, "fold": rec.fold,
                         "chosen": point.param == rec.chosen, **point.to_dict()})
    columns = ["dataset", "label", "method", "fold", "chosen", "param", "cv_error", "cv_sem",
               "literals", "clauses", "train_error", "test_error"]
    return pd.DataFrame(rows, columns=columns)


def path_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, label, param): means over the outer folds, SEMs, folds that chose it."""
    if frame.empty:
        return pd.DataFrame(columns=["dataset", "label", "method", "param", "n_folds",
                                     "cv_error", "cv_sem", "literals", "literals_sem",
                                     "test_error", "test_sem", "n_chosen"])
    frame = frame.assign(key=frame["param"].map(_param_key))
    rows = []
    for (d, lab, _), g in frame.groupby(["dataset", "label", "key"], sort=False, dropna=False):
        rows.append({"dataset": d, "label": lab, "method": g["method"].iloc[0],
                     "param": g["param"].iloc[0], "n_folds": len(g),
                     "cv_error": _mean(g["cv_error"]), "cv_sem": _mean(g["cv_sem"]),
                     "literals": _mean(g["literals"]), "literals_sem": _sem(g["literals"]),
                     "test_error": _mean(g["test_error"]), "test_sem": _sem(g["test_error"]),
                     "n_chosen": int(g["chosen"].sum())})
    return pd.DataFrame(rows)


def dominated(sizes, errors) -> np.ndarray:
    """``True`` where another point is at most as large and as wrong, and better in one."""
    s, e = np.asarray(sizes, dtype=float), np.asarray(errors, dtype=float)
    out = np.zeros(len(s), dtype=bool)
    for i in range(len(s)):
        better = (s <= s[i]) & (e <= e[i]) & ((s < s[i]) | (e < e[i]))
        out[i] = bool(better.any())
    return out


def _param_key(value):
    return "unbounded" if value is None else float(value)


def _mean(values) -> float:
    v = pd.to_numeric(pd.Series(values), errors="coerce").dropna()
    return float(v.mean()) if len(v) else float("nan")


def _sem(values) -> float:
    """:func:`~rulelearn.bench.records.sem` of the numbers among ``values``."""
    return sem(pd.to_numeric(pd.Series(values), errors="coerce").dropna())


def _order(records, field, config_key=None, config=None) -> list:
    if config is not None and config_key:
        return [item["name" if config_key == "datasets" else "label"]
                for item in config[config_key]]
    return list(dict.fromkeys(getattr(r, field) for r in records))


def _cycle_styles(keys) -> dict:
    """A colour and a marker per key, by position (the settings of one ``fit --plot``)."""
    return {key: (f"C{i % 10}", _MARKERS[i % len(_MARKERS)]) for i, key in enumerate(keys)}


#: The colour and marker of each method the benchmark knows, by its lower-case display name:
#: the same in every figure of every results folder (and in ``report.html``).
METHOD_STYLES = {
    "fit": ("#1f77b4", "o"), "bcd": ("#ff7f0e", "s"), "am": ("#2ca02c", "D"),
    "ocrl": ("#d62728", "^"), "sc": ("#9467bd", "v"), "cg": ("#8c564b", "P"),
    "brcg": ("#e377c2", "*"), "cart": ("#bcbd22", "X"), "ripper": ("#17becf", "p"),
    "figsclassifier": ("#7b4173", "h"),
}
#: Colours (none of :data:`METHOD_STYLES`'s, far from each other) and markers of the others.
_FALLBACK_COLOURS = ("#393b79", "#008080", "#b8860b", "#555555", "#e7298a", "#66a61e",
                     "#800000", "#6baed6", "#fb8072", "#111111")
_FALLBACK_MARKERS = "osD^vPXph<>d"


def method_style(name: str) -> tuple[str, str]:
    """The colour and marker of the method shown as ``name`` (``BCD``, ``CART``,
    ``bcd[form=dnf,R=5,start=best]``): fixed for the methods the benchmark knows
    (:data:`METHOD_STYLES`), else picked by a stable hash of the name (SHA-256, not Python's
    salted ``hash``), so a name gets the same style in every figure and every run."""
    known = METHOD_STYLES.get(str(name).lower())
    if known:
        return known
    return _fallback(name, 0)


def _fallback(name, step: int) -> tuple[str, str]:
    """The ``step``-th style after the one SHA-256 of ``name`` picks among the fallbacks."""
    n = len(_FALLBACK_COLOURS) * len(_FALLBACK_MARKERS)
    digest = hashlib.sha256(str(name).encode("utf-8", "surrogatepass")).digest()
    i = (int.from_bytes(digest[:8], "big") + step) % n
    return _FALLBACK_COLOURS[i % len(_FALLBACK_COLOURS)], \
        _FALLBACK_MARKERS[(i // len(_FALLBACK_COLOURS)) % len(_FALLBACK_MARKERS)]


def method_styles(names: dict) -> dict:
    """``label -> (colour, marker)`` for ``names`` (``label -> display name``), each by
    :func:`method_style`; a hashed style whose colour another name of the figure has already
    taken moves on to the next style, to a colour of its own while one is left, so no two
    methods of one figure look alike (the same set of names gets the same styles)."""
    out: dict = {}
    n = len(_FALLBACK_COLOURS) * len(_FALLBACK_MARKERS)
    for lab, name in names.items():
        style = method_style(name)
        if str(name).lower() not in METHOD_STYLES:
            taken = {c for c, _ in out.values()}
            free = len(set(_FALLBACK_COLOURS) - taken) > 0
            for step in range(n):
                style = _fallback(name, step)
                if style not in out.values() and not (free and style[0] in taken):
                    break
        out[lab] = style
    return out


def _names(labels, records, config=None) -> dict:
    """Display names (``BCD``) of ``labels``: their method's name in ``config``, else in the
    records."""
    method = {r.label: r.method or r.label for r in records}
    if config is not None:
        method.update({m["label"]: m["name"] for m in config["methods"]})
    return display_names({lab: method.get(lab, lab) for lab in labels})


# ----------------------------------------------------------------------------------------------
# axes helpers


def _grid(fig, n, ncols):
    ncols = max(1, min(ncols, n))
    nrows = math.ceil(n / ncols)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.remove()
    return list(axes[:n])


def _scale(ax, values, axis="x", floor=None):
    """A log axis when the positive values span more than :data:`LOG_RATIO` (symlog when some
    are 0); linear otherwise."""
    v = np.asarray([x for x in values if x is not None and np.isfinite(x)], dtype=float)
    pos = v[v > 0]
    if len(pos) < 2 or pos.max() / pos.min() <= LOG_RATIO:
        return
    setter = ax.set_xscale if axis == "x" else ax.set_yscale
    if (v <= 0).any():
        setter("symlog", linthresh=floor or max(pos.min(), 1e-12), linscale=0.5)
        if v.min() >= 0:  # counts: no negative decades, and room above the largest value
            limits = ax.set_xlim if axis == "x" else ax.set_ylim
            limits(0, v.max() * 1.6)
    else:
        setter("log")


def _label_scales(fig):
    """Say in each axis label when the axis is logarithmic (``θ (sparsity weight; log
    scale)``), so that log and linear panels side by side cannot be misread."""
    for ax in fig.axes:
        for scale, get, put in ((ax.get_xscale(), ax.get_xlabel, ax.set_xlabel),
                                (ax.get_yscale(), ax.get_ylabel, ax.set_ylabel)):
            label = get()
            if scale not in ("log", "symlog") or not label or "log scale" in label:
                continue
            what = "log scale" if scale == "log" else "log scale, linear near 0"
            put(f"{label[:-1]}; {what})" if label.endswith(")") else f"{label} ({what})")
    return fig


def _finish(fig):
    """The last touches of every figure: log axes labelled (:func:`_label_scales`), and its
    titles, labels, legends and notes drawn as written: a ``$`` in a dataset, method or file
    name is text, never matplotlib mathtext (``a$\\frac$`` would stop the drawing)."""
    _label_scales(fig)
    texts = [getattr(fig, "_suptitle", None)] + list(fig.texts)
    for legend in fig.legends:
        texts += legend.get_texts()
    for ax in fig.axes:
        texts += [ax.title, ax.xaxis.label, ax.yaxis.label] + list(ax.texts)
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
    for text in texts:
        if text is not None:
            text.set_parse_math(False)
    return fig


def _panels_size(n, ncols) -> tuple[float, float]:
    """Width and height (inches) of a grid of ``n`` panels, with room for a legend and title."""
    return (max(8.0, 3.4 * min(ncols, n) + 2.0), 2.9 * math.ceil(n / ncols) + 0.9)


def _new_figure(width, height):
    Figure = figure_class()
    return Figure(figsize=(width, height), layout="constrained")


def _marker(style, *, edge=False):
    """A legend entry showing a method's colour and marker alone (an error bar's caps hid
    the marker's shape)."""
    from matplotlib.lines import Line2D

    color, marker = style
    return Line2D([], [], ls="", marker=marker, color=color, ms=7,
                  mec="black" if edge else color, mew=0.5 if edge else 1.0)


def _legend(fig, handles, labels, ncol=1):
    """One legend for the whole figure, right of the panels (never over data)."""
    fig.legend(handles, labels, loc="outside right center", ncol=ncol, fontsize="small",
               frameon=False)


def _note(ax, text):
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", wrap=True,
            fontsize="small", color="0.3")
    ax.set_xticks([])
    ax.set_yticks([])


# ----------------------------------------------------------------------------------------------
# figures


def tradeoff_figure(records, config=None, *, ncols=4):
    """Test error (%) against size per dataset: one marker per method, SEM bars both ways.

    Only complete cells (every outer fold ``ok``) are drawn, as in the tables; each panel
    names the methods it lacks, and a dataset with no complete cell gets no panel (the title
    names it).  :class:`PlotError` when no cell is complete.
    """
    from rulelearn.bench.store import resolved_seeds

    records = as_records(records)
    if not records:
        raise PlotError("no records to plot")
    datasets = _order(records, "dataset", "datasets", config)
    labels = _order(records, "label", "methods", config)
    n_outer = config["outer_folds"] if config else None
    summary = summarize(records, datasets=datasets, labels=labels, n_outer=n_outer,
                        seeds=resolved_seeds(config) if config else None)
    names = _names(labels, records, config)
    styles = method_styles(names)
    complete = set(summary.loc[summary["complete"].astype(bool), "dataset"])
    drawn = [d for d in datasets if d in complete]
    if not drawn:
        raise PlotError("no (dataset, method) with an ok record for every outer fold to plot")
    fig = _new_figure(*_panels_size(len(drawn), ncols))
    handles: dict = {}
    folds = int(summary["n_needed"].max()) if len(summary) else 0
    for ax, d in zip(_grid(fig, len(drawn), ncols), drawn):
        part = summary[summary["dataset"] == d]
        done = part[part["complete"]]
        missing = ", ".join(f"{names[r.method]} ({r.reason})"
                            for r in part[~part["complete"]].itertuples())
        for r in done.itertuples():
            color, marker = styles[r.method]
            h = ax.errorbar(r.literals_mean, r.error_mean, xerr=_zero(r.literals_sem),
                            yerr=_zero(r.error_sem), fmt=marker, color=color, ms=6,
                            capsize=2, elinewidth=1, label=names[r.method])
            handles.setdefault(r.method, h)
        _scale(ax, list(done["literals_mean"]), "x", floor=1.0)
        _name_coinciding(ax, done, names)
        ax.set_title(d + (f"\nmissing: {missing}" if missing else ""), fontsize="medium")
        ax.set_xlabel("size (literals)")
        ax.set_ylabel("test error (%)")
        ax.grid(alpha=0.3)
    n_seeds = int(summary["n_seeds"].max()) if len(summary) else 1
    over = (f"{folds} outer folds" if n_seeds == 1 else
            f"{n_seeds} seeds × {folds // n_seeds} outer folds")
    left_out = [d for d in datasets if d not in complete]
    gone = ("\n" + textwrap.fill(f"no panel (no method complete): {', '.join(left_out)}", 110)
            if left_out else "")
    fig.suptitle(f"Test error vs rule size, mean ± SEM over {over}\n{SIZE_NOTE}{gone}")
    order = [lab for lab in labels if lab in handles]
    _legend(fig, [_marker(styles[lab]) for lab in order], [names[lab] for lab in order])
    return _finish(fig)


def _name_coinciding(ax, cells, names):
    """Name the methods of markers drawn on the same spot (e.g. four empty rules)."""
    spots: dict = {}
    for r in cells.itertuples():
        spots.setdefault((round(r.literals_mean, 1), round(r.error_mean, 1)), []).append(r)
    xs = [x for x, _ in spots]
    middle = (min(xs) + max(xs)) / 2 if xs else 0.0
    for (x, y), same in spots.items():
        if len(same) > 1:  # wrapped, towards the panel's inside, clipped to the panel and
            # left out of the layout (eight long names in one line collapsed every panel)
            text = textwrap.fill(" = ".join(names[r.method] for r in same), 22)
            left = x > middle
            note = ax.annotate(text, (x, y), xytext=(-8 if left else 8, 8),
                               textcoords="offset points", ha="right" if left else "left",
                               fontsize="x-small", color="0.25", clip_on=True)
            note.set_in_layout(False)


def _zero(value):
    return 0.0 if value is None or not np.isfinite(value) else value


def path_figure(records, config=None, *, paper=None, datasets=None):
    """Per dataset: inner-CV error (%) and the refit's literals against θ, per LP method.

    Stars mark the chosen θ (their size: how many outer folds chose it).  For a configuration
    that reproduces the paper (``paper: true``, :func:`~.records.is_paper_config`), dotted
    lines are the paper's *test* error and feature count (it gives no θ), drawn for reference
    and named so; no other configuration gets them.  ``datasets`` draws only those (a page of
    :func:`figure_pages`).  Datasets whose records carry no path are named in a text panel.
    """
    from rulelearn.bench.records import is_paper_config
    from rulelearn.bench.report import PAPER_ALIASES, paper_results

    records = as_records(records)
    every = _order(records, "label", "methods", config)
    names = _names(every, records, config)
    styles = method_styles(names)
    kinds = {r.label: r.method for r in records}
    if config is not None:
        kinds.update({m["label"]: m["name"] for m in config["methods"]})
    records = [r for r in records if kinds.get(r.label) in LP_METHODS]
    if datasets is not None:
        records = [r for r in records if r.dataset in set(datasets)]
    datasets = [d for d in _order(records, "dataset", "datasets", config)
                if any(r.dataset == d for r in records)]
    all_labels = [lab for lab in every if any(r.label == lab for r in records)]
    summary = path_summary(path_frame(records))
    with_path = [d for d in datasets if (summary["dataset"] == d).any()]
    without = [d for d in datasets if d not in with_path]
    draw_paper = config is not None and is_paper_config(config)
    if draw_paper:
        paper = paper_results() if paper is None else paper
    paper_drawn = False
    note = bool(without or not datasets)
    rows = len(with_path) + note
    fig = _new_figure(12.0, 3.0 * len(with_path) + 1.2 * note + 0.7)
    gs = fig.add_gridspec(rows, 2, height_ratios=[3.0] * len(with_path) + [1.2] * note)
    for row, d in enumerate(with_path):
        ax_err, ax_lit = fig.add_subplot(gs[row, 0]), fig.add_subplot(gs[row, 1])
        part = summary[summary["dataset"] == d]
        pname = PAPER_ALIASES.get(d, d)
        for lab in dict.fromkeys(part["label"]):
            p = part[part["label"] == lab].sort_values("param")
            color, marker = styles[lab]
            theta = p["param"].astype(float).to_numpy()
            err, sem = 100 * p["cv_error"].to_numpy(), 100 * p["cv_sem"].to_numpy()
            ax_err.plot(theta, err, marker=marker, color=color, ms=4, label=names[lab])
            ax_err.fill_between(theta, err - sem, err + sem, color=color, alpha=0.12, lw=0)
            ax_lit.plot(theta, p["literals"], marker=marker, color=color, ms=4,
                        label=names[lab])
            chosen = p[p["n_chosen"] > 0]
            for ax, y in ((ax_err, 100 * chosen["cv_error"]), (ax_lit, chosen["literals"])):
                ax.scatter(chosen["param"].astype(float), y, marker="*", s=40 + 25 * chosen[
                    "n_chosen"], color=color, edgecolor="black", linewidth=0.6, zorder=5)
            if draw_paper:
                paper_drawn |= _paper_lines((ax_err, ax_lit), paper, pname,
                                            p["method"].iloc[0], color)
        _path_axes(ax_err, ax_lit, part, d)
    if note:
        ax = fig.add_subplot(gs[rows - 1, :])
        if datasets:
            text = f"no θ path for {', '.join(without)}:\n{_NO_PATH}"
        else:
            text = f"no record of an LP method ({', '.join(LP_METHODS)}) to draw θ paths of"
        _note(ax, text)
    fig.suptitle("θ paths of the LP methods")
    if with_path:
        _path_legend(fig, [lab for lab in all_labels if (summary["label"] == lab).any()],
                     styles, names, paper=paper_drawn)
    return _finish(fig)


def _path_axes(ax_err, ax_lit, part, dataset):
    """Scales, labels and titles of a dataset's two θ-path panels."""
    no_cv = not part["cv_error"].notna().any()  # records without inner-CV errors
    for ax in (ax_err, ax_lit):
        if not (ax is ax_err and no_cv):  # a log axis with nothing on it cannot be drawn
            _scale(ax, list(part["param"].astype(float)), "x")
        ax.set_xlabel("θ (sparsity weight)")
        ax.grid(alpha=0.3)
    if no_cv:
        _note(ax_err, "no inner-CV error in these records")
    _scale(ax_lit, list(part["literals"]), "y", floor=1.0)
    if not (part["literals"] > 0).any():  # only empty rules: a count axis from 0 to 1
        ax_lit.set_ylim(-0.05, 1.0)
    ax_err.set_ylabel("inner-CV error (%)")
    ax_lit.set_ylabel("literals (refit)")
    ax_err.set_title(f"{dataset}: inner-CV error, mean over outer folds (band: inner SEM)",
                     fontsize="medium")
    ax_lit.set_title(f"{dataset}: size of the refit on the outer training part",
                     fontsize="medium")


def _paper_lines(axes, paper, dataset, method, color) -> bool:
    """The paper's Table 1 error and Table 2 size of ``method`` on ``dataset`` as dotted
    lines on ``axes`` (error, literals); whether it has any."""
    drawn = False
    for table, ax in zip((1, 2), axes):
        hit = paper[(paper.table == table) & (paper.dataset == dataset)
                    & (paper.method == method)]
        if len(hit):
            ax.axhline(float(hit["value"].iloc[0]), color=color, ls=":", lw=1.3)
            drawn = True
    return drawn


def _path_legend(fig, labels, styles, names, *, paper):
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=styles[lab][0], marker=styles[lab][1], ms=4)
               for lab in labels]
    texts = [names[lab] for lab in labels]
    handles.append(Line2D([], [], ls="", marker="*", ms=10, color="0.5", mec="black", mew=0.6))
    texts.append("chosen θ (size: folds\nthat chose it)")
    if paper:
        handles.append(Line2D([], [], ls=":", color="0.3"))
        texts.append("the paper's test error /\nliterals (its Tables 1, 2;\nno θ given)")
    _legend(fig, handles, texts)


def pareto_figure(records, config=None, *, datasets=None):
    """Per dataset, two panels of test error (%) against size.

    Left, **honest**: each outer fold's chosen rule (small points) and each method's mean ±
    SEM over the folds (the cells of Tables 1 and 2), the undominated means joined.  Right,
    titled **hindsight**: every refit of the records' paths (every θ, every tree depth),
    averaged over the outer folds and judged on their test parts, the dominated points grey:
    the best of those is chosen after seeing the test folds, so its error is optimistic, not
    an estimate.  Records without a path contribute their chosen setting only.  As in the
    tables, a method is drawn only where every outer fold has a record; each panel names the
    methods it lacks.  ``datasets`` draws only those (a page of :func:`figure_pages`).
    """
    from rulelearn.bench.store import resolved_seeds

    records = as_records(records)
    all_datasets = _order(records, "dataset", "datasets", config)
    labels = _order(records, "label", "methods", config)
    complete = _complete_cells(records, config)
    lacking = {d: [(lab, sum(r.dataset == d and r.label == lab and r.ok for r in records))
                   for lab in labels if (d, lab) not in complete] for d in all_datasets}
    need = ((config["outer_folds"] if config else max(r.n_outer for r in records))
            * len(_seeds(records, config)))
    every = records
    records = [r for r in records if (r.dataset, r.label) in complete and r.ok]
    if not records:
        raise PlotError("no (dataset, method) with an ok record for every outer fold to plot")
    datasets = [d for d in all_datasets if any(r.dataset == d for r in records)
                and (datasets is None or d in set(datasets))]
    if not datasets:
        raise PlotError("none of the datasets asked for has a method with an ok record for "
                        "every outer fold")
    names = _names(labels, every, config)
    styles = method_styles(names)
    summary = summarize(records, datasets=datasets, labels=labels,
                        n_outer=config["outer_folds"] if config else None,
                        seeds=resolved_seeds(config) if config else None)
    points = _pareto_points(records)
    width, height = _panels_size(2 * len(datasets), 4)
    fig = _new_figure(max(width, 11.0), height + 0.4)
    handles: dict = {}
    axes = _grid(fig, 2 * len(datasets), 4)
    for i, d in enumerate(datasets):
        ax_fold, ax_all = axes[2 * i], axes[2 * i + 1]
        missing = ", ".join(f"{names[lab]} ({f'{n}/{need} folds done' if n else 'no records'})"
                            for lab, n in lacking[d])
        missing = f"\nmissing: {missing}" if missing else ""
        _honest_panel(ax_fold, summary[summary["dataset"] == d], records, d, styles, names,
                      handles)
        ax_fold.set_title(f"{d}\nthe chosen rules (as in the tables){missing}",
                          fontsize="small")
        part = points[points["dataset"] == d].reset_index(drop=True)
        dom = dominated(part["literals"], part["test_error"])
        for lab, grey in part[dom].groupby("label", sort=False):
            ax_all.scatter(grey["literals"], 100 * grey["test_error"], marker=styles[lab][1],
                           s=16, color="0.75", zorder=2)
        front = part[~dom].sort_values("literals")
        ax_all.step(front["literals"], 100 * front["test_error"], where="post", color="0.2",
                    lw=1, zorder=3)
        for r in front.itertuples():
            color, marker = styles[r.label]
            ax_all.scatter(r.literals, 100 * r.test_error, marker=marker, color=color, s=36,
                           edgecolor="black", linewidth=0.4, zorder=4)
        only_chosen = not part["from_path"].all()
        ax_all.set_title(f"{d}\nHINDSIGHT: every θ / depth, on the test folds"
                         + (" (chosen settings only)" if only_chosen else "") + missing,
                         fontsize="small")
        # the same axes both sides (each panel's points in view): what hindsight gains is
        # read off directly
        ax_fold.update_datalim(ax_all.dataLim.get_points())
        ax_fold.autoscale_view()
        ax_all.sharex(ax_fold)
        ax_all.sharey(ax_fold)
        _scale(ax_fold, list(part["literals"]) + [r.literals for r in records
                                                  if r.dataset == d], "x", floor=1.0)
        for ax in (ax_fold, ax_all):
            ax.set_xlabel("size (literals)")
            ax.set_ylabel("test error (%)")
            ax.grid(alpha=0.3)
    from matplotlib.lines import Line2D

    order = [lab for lab in labels if lab in handles]
    extra = [Line2D([], [], ls="", marker="o", ms=4, color="0.4", alpha=0.4),
             Line2D([], [], ls="", marker="o", color="0.75"), Line2D([], [], color="0.2")]
    _legend(fig, [_marker(styles[lab], edge=True) for lab in order] + extra,
            [names[lab] for lab in order] + ["an outer fold's chosen rule",
                                             "dominated (grey)", "Pareto front"])
    fig.suptitle("Test error vs size. Left: the rule each outer fold's inner CV chose, and "
                 "each method's mean ± SEM (Tables 1, 2).\nRight, in HINDSIGHT: every θ / "
                 "depth, mean over the outer folds, judged on the test folds (optimistic, "
                 f"not an estimate).\n{SIZE_NOTE}", fontsize="medium")
    return _finish(fig)


def _honest_panel(ax, cells, records, dataset, styles, names, handles):
    """Each outer fold's chosen rule of each complete cell, and the cell's mean ± SEM."""
    done = cells[cells["complete"]]
    for r in done.itertuples():
        color, marker = styles[r.method]
        folds = [x for x in records if x.dataset == dataset and x.label == r.method]
        ax.scatter([x.literals for x in folds], [100 * x.test_error for x in folds],
                   marker=marker, s=14, color=color, alpha=0.35, linewidths=0, zorder=2)
        handles[r.method] = ax.errorbar(
            r.literals_mean, r.error_mean, xerr=_zero(r.literals_sem), yerr=_zero(r.error_sem),
            fmt=marker, color=color, ms=7, mec="black", mew=0.5, capsize=2, elinewidth=1,
            zorder=4)
    front = done[~dominated(done["literals_mean"], done["error_mean"])]
    front = front.sort_values("literals_mean")
    ax.step(front["literals_mean"], front["error_mean"], where="post", color="0.2", lw=1,
            zorder=3)
    _name_coinciding(ax, done, names)


def method_pareto_figure(records, config, dataset):
    """One dataset: each method's test error (%) against its size, mean ± SEM over the outer
    folds (its chosen setting, as in Tables 1 and 2), the methods no other one dominates
    joined by the Pareto front. Only complete cells are drawn; the title names the others."""
    from rulelearn.bench.store import resolved_seeds

    records = [r for r in as_records(records) if r.dataset == dataset]
    labels = _order(records, "label", "methods", config)
    summary = summarize(records, datasets=[dataset], labels=labels,
                        n_outer=config["outer_folds"] if config else None,
                        seeds=resolved_seeds(config) if config else None)
    done = summary[summary["complete"]].reset_index(drop=True)
    if done.empty:
        raise PlotError(f"{dataset}: no method has a record for every outer fold")
    names = _names(labels, records, config)
    styles = method_styles(names)
    fig = _new_figure(7.6, 4.6)
    ax = fig.add_subplot()
    handles = {}
    for r in done.itertuples():
        color, marker = styles[r.method]
        handles[r.method] = ax.errorbar(
            r.literals_mean, r.error_mean, xerr=_zero(r.literals_sem), yerr=_zero(r.error_sem),
            fmt=marker, color=color, ms=7, capsize=2, elinewidth=1)
    front = done[~dominated(done["literals_mean"], done["error_mean"])]
    front = front.sort_values("literals_mean")
    ax.step(front["literals_mean"], front["error_mean"], where="post", color="0.2", lw=1,
            zorder=1)
    _scale(ax, list(done["literals_mean"]), "x", floor=1.0)
    _name_coinciding(ax, done, names)
    missing = ", ".join(names[r.method] for r in summary[~summary["complete"]].itertuples())
    ax.set_title(f"{dataset}: test error vs size, mean ± SEM over the outer folds"
                 + (f"\nnot complete: {missing}" if missing else ""), fontsize="medium")
    ax.set_xlabel("size (literals)")
    ax.set_ylabel("test error (%)")
    ax.grid(alpha=0.3)
    order = [lab for lab in labels if lab in handles]
    from matplotlib.lines import Line2D

    _legend(fig, [_marker(styles[lab]) for lab in order] + [Line2D([], [], color="0.2")],
            [names[lab] for lab in order] + ["Pareto front"])
    fig.suptitle(SIZE_NOTE, fontsize="small")
    return _finish(fig)


def write_dataset_figures(folder, output=None, *, fmt="png") -> list[Path]:
    """:func:`method_pareto_figure` of each dataset of ``folder`` with a complete cell, to
    ``output`` (default ``folder/figures/datasets``) as ``<dataset>.{fmt}``."""
    from rulelearn._io import make_folder
    from rulelearn.bench.store import os_error

    folder = Path(folder)
    out = Path(output) if output else folder / "figures" / "datasets"
    records, config = load_records(folder)
    complete = _complete_cells(records, config)
    written = []
    for d in _order(records, "dataset", "datasets", config):
        if any(cell[0] == d for cell in complete):
            try:
                make_folder(out)  # not through a link we did not make
                written.append(save(method_pareto_figure(records, config, d),
                                    out / f"{file_stem(d)}.{fmt}"))
            except OSError as exc:
                raise os_error(exc, "write figures to", out) from None
    return written


def file_stem(name: str) -> str:
    """A dataset's name as a file name in one folder: a character other than a letter, digit,
    ``.``, ``_`` or ``-`` becomes ``_`` and leading dots go (no ``..``, no ``/``, no hidden
    file); a name so changed gets 8 hex digits of its hash, so two names never share a file."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".")
    if stem == name:
        return name
    return f"{stem or '_'}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _seeds(records, config=None) -> list:
    """The seeds of ``config`` (a resolved one), else those of the records."""
    from rulelearn.bench.store import resolved_seeds

    return (resolved_seeds(config) if config else None) or sorted({r.seed for r in records})


def _complete_cells(records, config=None) -> set:
    """The complete (dataset, label) cells, as in the tables
    (:func:`~rulelearn.bench.records.summarize`)."""
    records = as_records(records)
    summary = summarize(records, n_outer=config.get("outer_folds") if config else None,
                        seeds=_seeds(records, config))
    done = summary[summary["complete"].astype(bool)]  # an empty frame's column is no mask
    return set(zip(done["dataset"], done["method"]))


def _pareto_points(records) -> pd.DataFrame:
    """(dataset, label, literals, test_error, from_path) per method and parameter value."""
    records = as_records(records)
    summary = path_summary(path_frame([r for r in records if r.path]))
    rows = [{"dataset": r.dataset, "label": r.label, "literals": r.literals,
             "test_error": r.test_error, "from_path": True} for r in summary.itertuples()]
    seen = set(zip(summary["dataset"], summary["label"]))
    rest: dict = {}
    for r in records:
        if (r.dataset, r.label) not in seen:
            rest.setdefault((r.dataset, r.label), []).append(r)
    for (d, lab), recs in rest.items():
        rows.append({"dataset": d, "label": lab,
                     "literals": float(np.mean([r.literals for r in recs])),
                     "test_error": float(np.mean([r.test_error for r in recs])),
                     "from_path": False})
    return pd.DataFrame(rows, columns=["dataset", "label", "literals", "test_error",
                                       "from_path"])


def selection_figure(selection, *, title=None):
    """``rulelearn fit --plot``: CV error (%) and mean literals against θ, one line per (form,
    R) of a :class:`~rulelearn.model_selection.Selection`; the chosen setting starred, its
    ± SEM band shaded."""
    fig = _new_figure(12.0, 4.0)
    ax_err, ax_lit = fig.subplots(1, 2)
    groups: dict = {}
    for row in selection.rows:
        groups.setdefault((row.form, row.max_rules, row.n_thresholds), []).append(row)
    settings = list(groups)
    styles = _cycle_styles(settings)
    best = selection.best
    handles = []
    for i, (setting, rows) in enumerate(groups.items()):
        rows = sorted(rows, key=lambda r: r.theta)
        color, marker = styles[setting]
        # lines that coincide (DNF and CNF with R = 1 on a large table) stay apart: each has
        # its own dash, and a later one's hollow, larger markers ring an earlier one's
        line = {"color": color, "marker": marker, "ls": _DASHES[i % len(_DASHES)],
                "ms": 4 + 1.5 * (i % 3), "mfc": color if i % 2 == 0 else "none",
                "lw": 1.6 if i % 2 == 0 else 1.2, "zorder": 2 + i % 2}
        theta = np.array([r.theta for r in rows])
        err = np.array([100 * r.mean_error for r in rows])
        (h,) = ax_err.plot(theta, err, **line)
        if setting == (best.form, best.max_rules, best.n_thresholds):
            sem = np.array([100 * r.sem for r in rows])
            ax_err.fill_between(theta, err - sem, err + sem, color=color, alpha=0.15, lw=0)
        ax_lit.plot(theta, [r.mean_literals for r in rows], **line)
        handles.append(h)
    for ax, y in ((ax_err, 100 * best.mean_error), (ax_lit, best.mean_literals)):
        star = ax.scatter([best.theta], [y], marker="*", s=160, color="gold", edgecolor="black",
                          zorder=5)
        _scale(ax, [r.theta for r in selection.rows], "x")
        ax.set_xlabel("θ (sparsity weight)")
        ax.grid(alpha=0.3)
    _scale(ax_lit, [r.mean_literals for r in selection.rows], "y", floor=1.0)
    ax_err.set_ylabel("CV error (%)")
    ax_lit.set_ylabel("literals (mean over CV folds)")
    ax_err.set_title(f"{selection.n_folds}-fold CV error (band: ± SEM of the chosen form and R)",
                     fontsize="medium")
    ax_lit.set_title("rule size", fontsize="medium")
    several = len(selection.thresholds) > 1
    names = [f"{form.upper()}, R = {r}" + (f", {n} thresholds" if several else "")
             for form, r, n in settings]
    _legend(fig, handles + [star], names + [
        f"chosen: {best.form.upper()}, R = {best.max_rules},\nθ = {best.theta:.3g}"
        + (f", {best.n_thresholds} thresholds" if several else "")])
    grid = "θ" + (" × R × form" if len(settings) > 1 else "") + (" × thresholds" if several
                                                                  else "")
    fig.suptitle(f"{title}: cross-validation over {grid}" if title else
                 f"Cross-validation over {grid}")
    return _finish(fig)


def cd_figure(ranks: dict, cd: float, *, n_datasets: int, title: str):
    """A critical-difference diagram (Demšar 2006): each method at its average rank (1 =
    best, on the left), the Nemenyi critical difference as a bar, and a thick line joining
    each group of methods whose ranks lie within it (:func:`~.stats.cliques`)."""
    from rulelearn.bench.stats import cliques

    order = sorted(ranks, key=lambda m: ranks[m])
    k = len(order)
    fig = _new_figure(8.0, 1.5 + 0.25 * ((k + 1) // 2))
    ax = fig.add_subplot()
    lo, hi = 1, max(k, 2)
    ax.set_xlim(lo - 0.6, hi + 0.6)
    ax.set_ylim(-(((k + 1) // 2) * 0.5 + 0.4), 1.6)
    ax.axis("off")
    ax.hlines(0, lo, hi, color="black", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.15, color="black", lw=1)
        ax.text(t, 0.25, str(t), ha="center", va="bottom", fontsize="small")
    half = (k + 1) // 2
    for i, m in enumerate(order):
        left = i < half
        y = -(i if left else k - 1 - i) * 0.5 - 0.6
        x_end = lo - 0.45 if left else hi + 0.45
        ax.plot([ranks[m], ranks[m], x_end], [0, y, y], color="0.2", lw=0.8)
        ax.text(x_end + (-0.05 if left else 0.05), y, f"{m} ({ranks[m]:.2f})",
                ha="right" if left else "left", va="center", fontsize="small")
    if np.isfinite(cd):
        ax.plot([lo, lo + cd], [1.1, 1.1], color="black", lw=1.5)
        ax.vlines([lo, lo + cd], 1.0, 1.2, color="black", lw=1.5)
        ax.text(lo + cd / 2, 1.25, f"CD = {cd:.2f}", ha="center", va="bottom",
                fontsize="small")
        for j, group in enumerate(cliques(ranks, cd)):
            y = -0.25 - 0.12 * j
            ax.plot([ranks[group[0]] - 0.03, ranks[group[-1]] + 0.03], [y, y], color="C3",
                    lw=3, solid_capstyle="round")
    ax.set_title(f"{title}\naverage rank over {n_datasets} dataset"
                 f"{'s' if n_datasets != 1 else ''} (1 = best); "
                 + ("methods joined by a red bar are not significantly different (Nemenyi, "
                    "α = 0.05)"
                    if np.isfinite(cd) else "no test: too few datasets or methods"),
                 fontsize="small")
    return _finish(fig)


FIGURES = ("tradeoff", "paths", "pareto")


def figure_pages(records, config=None, *, kinds=FIGURES) -> dict:
    """``name -> [Figure, ...]`` for each of ``kinds``: the figures of a results folder's
    records, each over at most a page of datasets (``tradeoff`` in one, ``paths``
    :data:`PATHS_PAGE`, ``pareto`` ``PARETO_PAGE`` datasets per page); :class:`PlotError`
    when there is nothing to draw or matplotlib is missing."""
    records = as_records(records)
    if not records:
        raise PlotError("no records to plot")
    datasets = _order(records, "dataset", "datasets", config)
    method_of = {r.label: r.method for r in records}
    if config is not None:
        method_of.update({m["label"]: m["name"] for m in config["methods"]})
    lp = [d for d in datasets if any(r.dataset == d and method_of.get(r.label) in LP_METHODS
                                     for r in records)]
    done = {d for d, _ in _complete_cells(records, config)}
    complete = [d for d in datasets if d in done]
    draw = {"tradeoff": lambda: [tradeoff_figure(records, config)],
            "paths": lambda: [path_figure(records, config, datasets=page)
                              for page in _pages(lp, PATHS_PAGE)],
            "pareto": lambda: [pareto_figure(records, config, datasets=page)
                               for page in _pages(complete, PARETO_PAGE)]}
    return {name: draw[name]() for name in kinds}


def _pages(items, size) -> list:
    """``items`` in pages of at most ``size`` (one empty page when there are none, so the
    figure still says what it lacks)."""
    return [items[i:i + size] for i in range(0, len(items), size)] or [None]


def page_names(name: str, n: int, fmt: str) -> list[str]:
    """``paths.png`` for one page, ``paths-1.png``, ``paths-2.png``, ... for several."""
    return [f"{name}.{fmt}"] if n == 1 else [f"{name}-{i}.{fmt}" for i in range(1, n + 1)]


def write_figures(folder, output=None, *, fmt="png") -> list[Path]:
    """Draw the figures of a results folder into ``output`` (default ``folder/figures``):
    ``tradeoff``, ``paths`` and ``pareto`` ``.{fmt}``, the last two as pages (``paths-1``,
    ``paths-2``, ...) when they cover more datasets than a page holds
    (:func:`figure_pages`); a page of an earlier drawing that this one no longer has is
    removed.  Returns the paths written."""
    from rulelearn._io import make_folder
    from rulelearn.bench.store import os_error

    folder = Path(folder)
    out = Path(output) if output else folder / "figures"
    records, config = load_records(folder)
    written = []
    for name, figs in figure_pages(records, config).items():
        for fig, file in zip(figs, page_names(name, len(figs), fmt)):
            try:
                make_folder(out)  # not through a link we did not make
                save(fig, out / file)
            except OSError as exc:
                raise os_error(exc, "write figures to", out) from None
            written.append(out / file)
    _remove_old_pages(out, written, fmt)
    return written


def _remove_old_pages(out: Path, written, fmt: str) -> None:
    """Remove ``tradeoff``/``paths``/``pareto`` files (``name.fmt`` or ``name-N.fmt``) in
    ``out`` that this drawing did not write: pages of an earlier, longer drawing."""
    pattern = re.compile(rf"(tradeoff|paths|pareto)(-[0-9]+)?\.{re.escape(fmt)}")
    keep = {p.name for p in written}
    for path in out.iterdir():
        if pattern.fullmatch(path.name) and path.name not in keep and (
                path.is_symlink() or path.is_file()):
            path.unlink()  # a link is removed itself, never its target


def figure_png(fig, *, dpi: int = 90) -> bytes:
    """``fig`` as PNG bytes (no date in them), for pages that embed it."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata=_metadata(".png"))
    return buf.getvalue()


def save(fig, path) -> Path:
    """Write ``fig`` to ``path`` (format from the suffix) through a temporary file."""
    from rulelearn._io import replacing_file

    path = Path(path)
    with replacing_file(path, suffix=path.suffix) as f:
        fig.savefig(f, format=path.suffix.lstrip(".").lower(), dpi=110,
                    metadata=_metadata(path.suffix))
    return path


def _metadata(suffix):
    """No creation date in the files, so that redrawing unchanged records changes nothing."""
    return {".png": {"Software": None}, ".svg": {"Date": None},
            ".pdf": {"CreationDate": None}}.get(suffix.lower(), {})
