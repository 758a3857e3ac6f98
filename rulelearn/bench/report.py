"""Tables from records (pure functions) and the files they are written to.

* Table 1: mean outer-fold test error in percent, standard error of the mean in parentheses.
* Table 2: the size of the learned rule, in two counts: *literals* (a disabled clause counts 0;
  for CART the split nodes of the tree, for RIPPER the conditions of its rules), and *features*:
  the distinct original features of each clause, summed over the clauses (``t1 < x <= t2`` is
  two literals on one feature, as the paper's Table 2 may count it), read off each record's
  ``rule_json`` (rule learners only).  The records are read as typed
  :class:`~rulelearn.bench.records.Record` objects (one vocabulary; see :mod:`.records`).
* A last row with each method's average rank over the datasets (rank 1 = best, i.e. lowest;
  ties share the average rank).  As in the paper, ranks compare the values *as printed*
  (one decimal), so two methods shown as 28.6 tie.  Ranks average over the datasets where
  every method has a result.
* A side-by-side with the paper's published numbers (``paper_results.csv``), and the paper's
  framing ("Table 1", deviations from its protocol), only for a configuration that declares
  itself a reproduction of the paper (:func:`is_paper_config`).  Whether a cell agrees with the
  paper is decided by one rule, :func:`agrees_with_paper`.

With several seeds (``seeds: [0, 1, ...]``), a cell is the mean over every (seed, outer fold)
record with the SEM over those records; Table 1 adds the range of the per-seed means, and
``seeds.md`` / ``seeds.csv`` give each seed's mean.  Ranks compare the seed-averaged means.

``paired.md`` / ``paired.csv`` (with two or more methods) give each method's test error minus a
reference method's (the config's ``compare_to``, else its first method), paired over the same
(seed, outer fold) units, with the SEM of the differences: the split noise both methods share
cancels, so a difference Table 1's overlapping SEMs cannot settle often can be.

A (dataset, method) cell has a value only when every (seed,) outer fold has an ``ok`` record;
otherwise the table marks it missing and says why.  A table holds only the records whose run
keys the folder's ``config.yaml`` plans: records of another configuration that ran into the
same folder (other parameters, seed, folds, positive class, θ grid, ...) are left out, and the
table says how many.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from rulelearn._io import atomic_write_text, refuse_link
from rulelearn.bench.records import (  # noqa: F401 - is_paper_config, summarize: report's API
    display_names,
    is_paper_config,
    load_results,
    sem,
    summarize,
)
from rulelearn.bench.store import ResultsError, json_value, os_error

#: Package data of ``rulelearn`` (the reports cite it by that path, so it stays there).
PAPER_RESULTS = Path(__file__).parent.parent / "paper_results.csv"
#: Datasets that are the paper's under another registry name.
PAPER_ALIASES = {"wdbc_bundled": "wdbc"}
DECIMALS = 1


# ----------------------------------------------------------------------------------------------
# records -> summaries (pure)


def agreement_band(ours_sem: float, paper_sem: float) -> float:
    """Half-width of the band within which our mean agrees with the paper's:
    2 x the SEM of the difference, ``2 * sqrt(ours_sem**2 + paper_sem**2)``.

    A SEM that is NaN (unknown: the paper gives none for Table 2, one fold) is left out; NaN
    when both are.  See :func:`agrees_with_paper` for why this rule.
    """
    sems = [s for s in (ours_sem, paper_sem) if not math.isnan(s)]
    return 2 * math.sqrt(sum(s * s for s in sems)) if sems else float("nan")


def agrees_with_paper(ours: float, ours_sem: float, paper: float, paper_sem: float) -> bool | None:
    """Whether our mean agrees with the paper's: ``|ours - paper| <= agreement_band(...)``.

    The one rule behind ``vs_paper.md`` and the README's stars.  Both numbers are means over
    10 outer folds with their own sampling noise, so the difference of the two (independent)
    means has the SEM ``sqrt(ours_sem**2 + paper_sem**2)``; 2 such SEMs is the usual 95 %
    band.  It widens where our folds disagree (Sonar, 208 rows) and stays narrow where both
    are precise (MAGIC, 19,020 rows), where a fixed floor such as 1.5 points would hide a real
    gap and a band on the paper's SEM alone would ignore our own noise.  None when either mean
    is missing or no SEM is known.
    """
    if math.isnan(ours) or math.isnan(paper):
        return None
    band = agreement_band(ours_sem, paper_sem)
    if math.isnan(band):
        return None
    return bool(abs(ours - paper) <= band + 1e-9)


def average_ranks(summary: pd.DataFrame, column: str, *, decimals: int = DECIMALS) -> pd.Series:
    """Average rank per method of ``column`` (lower is better) over the complete datasets.

    Values are rounded to ``decimals`` first (what the table prints); ties share the
    average rank.  NaN for every method if no dataset has all methods.
    """
    methods = list(dict.fromkeys(summary["method"]))
    wide = summary.pivot(index="dataset", columns="method", values=column)
    wide = wide.reindex(columns=methods).dropna(axis=0, how="any")
    if wide.empty:
        return pd.Series(float("nan"), index=methods, name=column)
    ranks = wide.round(decimals).rank(axis=1, method="average")
    return pd.Series(ranks.mean(axis=0).to_numpy(), index=methods, name=column)


def _names(summary: pd.DataFrame) -> pd.Series:
    """Each row's display name (:func:`display_names`): what every table and file shows."""
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    return summary["method"].map(names)


def table1(summary: pd.DataFrame) -> pd.DataFrame:
    """``table1.csv``: dataset, method (display name), label (the run label), error mean, SEM."""
    out = summary[["dataset", "method", "error_mean", "error_sem"]].reset_index(drop=True)
    out.insert(1, "method", _names(summary).to_numpy(), allow_duplicates=True)
    out.columns = ["dataset", "method", "label", "error_mean", "error_sem"]
    return out


def table2(summary: pd.DataFrame) -> pd.DataFrame:
    """``table2.csv``: mean literals (and their SEM) and mean features summed over clauses."""
    out = summary[["dataset", "method", "literals_mean", "literals_sem",
                   "distinct_mean"]].reset_index(drop=True)
    out.insert(1, "method", _names(summary).to_numpy(), allow_duplicates=True)
    out.columns = ["dataset", "method", "label", "literals_mean", "literals_sem",
                   "features_mean"]
    return out


def ranks_table(summary: pd.DataFrame) -> pd.DataFrame:
    e = average_ranks(summary, "error_mean")
    f = average_ranks(summary, "literals_mean")
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    return pd.DataFrame({"method": [names[lab] for lab in e.index], "label": e.index,
                         "error_rank": e.to_numpy(),
                         "literals_rank": f.reindex(e.index).to_numpy()})


def _num(v, decimals=DECIMALS) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{decimals}f}"


#: After a cell whose records come from more than one code version (see :mod:`.fingerprint`).
MIXED_CODE = " †"


def grid(summary: pd.DataFrame, kind: str) -> tuple[list, list[list[str]]]:
    """Header and rows of Table 1 (``kind="error"``) or Table 2 (``"features"``), ranks last.

    A Table 2 cell is ``literals / features`` for a rule learner (features: the distinct
    original features summed over clauses) and the count alone for CART and RIPPER.  A cell
    whose records come from several code versions ends in :data:`MIXED_CODE`.
    """
    labels = list(dict.fromkeys(summary["method"]))
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    datasets = list(dict.fromkeys(summary["dataset"]))
    cells = {(r.dataset, r.method): r for r in summary.itertuples()}
    rows = []
    for d in datasets:
        row = [d]
        for lab in labels:
            r = cells[(d, lab)]
            mark = MIXED_CODE if len(r.code_versions) > 1 else ""
            if not r.complete:
                row.append("missing")
            elif kind == "error":
                sem = "–" if math.isnan(r.error_sem) else _num(r.error_sem)
                row.append(f"{_num(r.error_mean)} ({sem})" + _seed_range(r.error_by_seed)
                           + mark)
            elif math.isnan(r.distinct_mean):
                row.append(_num(r.literals_mean) + mark)
            else:
                row.append(f"{_num(r.literals_mean)} / {_num(r.distinct_mean)}{mark}")
        rows.append(row)
    ranks = average_ranks(summary, "error_mean" if kind == "error" else "literals_mean")
    rows.append(["Average rank"] + [_num(ranks[lab]) or "–" for lab in labels])
    return ["Dataset"] + [names[lab] for lab in labels], rows


def size_note(summary: pd.DataFrame) -> str:
    """What Table 2's numbers count, for the methods present."""
    methods = set(summary["method_name"])
    text = ("literals / features: the literals of the rule (a disabled clause counts 0), then "
            "the distinct original features of each clause summed over the clauses "
            "(`t1 < x <= t2` is 2 literals, 1 feature)")
    others = [what for name, what in (("cart", "CART: split nodes of the tree"),
                                      ("ripper", "RIPPER: conditions of its rules"))
              if name in methods]
    if others:
        text += "; " + ", ".join(others) + " (one count, ranked with the literals)"
    return text + "; the average rank is over the literals"


def summary_json(summary: pd.DataFrame) -> list[dict]:
    """The summary rows as JSON-ready dicts (NaN -> None), sizes named as in the tables."""
    names = _names(summary)
    out = []
    for (_, r), name in zip(summary.iterrows(), names):
        def num(v):
            v = json_value(v)
            return None if v is None else float(v)
        out.append({"dataset": r["dataset"], "method": name, "label": r["method"],
                    "method_name": r["method_name"], "complete": bool(r["complete"]),
                    "n_folds": int(r["n_folds"]), "n_needed": int(r["n_needed"]),
                    "error_mean": num(r["error_mean"]), "error_sem": num(r["error_sem"]),
                    "literals_mean": num(r["literals_mean"]),
                    "literals_sem": num(r["literals_sem"]),
                    "features_mean": num(r["distinct_mean"]),
                    "train_error_mean": num(r["train_error_mean"]),
                    "fit_seconds": num(r["fit_seconds"]), "reason": r["reason"],
                    "code_versions": list(r["code_versions"])})
    return out


def _seed_range(by_seed: dict) -> str:
    """`` [min–max]`` of the per-seed means; empty for a single seed."""
    if len(by_seed) < 2:
        return ""
    return f" [{_num(min(by_seed.values()))}–{_num(max(by_seed.values()))}]"


def seeds_grid(summary: pd.DataFrame, kind: str) -> tuple[list, list[list[str]]]:
    """Header and rows of the per-seed table: each seed's mean of ``kind`` (``"error"`` or
    ``"features"``) per (dataset, method), then the mean over seeds and their range."""
    seeds = sorted({s for col in ("error_by_seed", "literals_by_seed")
                    for d in summary[col] for s in d})
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    rows = []
    for r in summary.itertuples():
        col = "error" if kind == "error" else "literals"
        by_seed = getattr(r, f"{col}_by_seed")
        if not r.complete:
            rows.append([r.dataset, names[r.method]] + ["missing"] * (len(seeds) + 2))
            continue
        values = list(by_seed.values())
        rows.append([r.dataset, names[r.method]] + [_num(by_seed.get(s)) for s in seeds]
                    + [_num(getattr(r, f"{col}_mean")),
                       f"{_num(min(values))}–{_num(max(values))}"])
    return (["Dataset", "Method"] + [f"seed {s}" for s in seeds] + ["Mean", "Min–max"]), rows


def seeds_frame(summary: pd.DataFrame) -> pd.DataFrame:
    """``seeds.csv``: one row per (dataset, method, seed) of the complete cells, that seed's
    mean test error and literals (method as a display name, label as the run label)."""
    names = dict(zip(summary["method"], _names(summary)))
    rows = [{"dataset": r.dataset, "method": names[r.method], "label": r.method, "seed": s,
             "error_mean": r.error_by_seed[s], "literals_mean": r.literals_by_seed[s]}
            for r in summary.itertuples() for s in r.error_by_seed]
    return pd.DataFrame(rows, columns=["dataset", "method", "label", "seed", "error_mean",
                                       "literals_mean"])


def reference_label(summary: pd.DataFrame, against: str | None = None) -> str:
    """The run label that ``against`` names: a label, a display name (``BRCG``) or a method
    name met once (``brcg``), case-insensitive; the first method when ``against`` is None.
    :class:`ResultsError` when it names none or several."""
    labels = list(dict.fromkeys(summary["method"]))
    if against is None:
        return labels[0]
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    kinds = dict(zip(summary["method"], summary["method_name"]))
    key = str(against).strip().lower()
    for candidates in ([lab for lab in labels if lab.lower() == key],
                       [lab for lab in labels if names[lab].lower() == key],
                       [lab for lab in labels if kinds[lab].lower() == key]):
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            raise ResultsError(f"{against!r} names several methods of this experiment "
                               f"({', '.join(candidates)}); give one of those labels.")
    raise ResultsError(f"{against!r} is not a method of this experiment; give one of "
                       f"{', '.join(names[lab] for lab in labels)}.")


def paired_differences(summary: pd.DataFrame, against: str | None = None) -> pd.DataFrame:
    """``paired.csv``: each method's test error minus the reference's, paired by unit.

    For each dataset and method other than the reference (:func:`reference_label`): the mean
    over the (seed, outer fold) units both completed of (method's error % minus the
    reference's), the SEM of those differences, and ``verdict`` ``lower`` / ``higher`` when
    the mean is more than two SEMs from zero (``""`` otherwise, or when either cell is
    incomplete).  Pairing removes the split noise both methods share, which the SEMs of
    Table 1 include.
    """
    ref = reference_label(summary, against)
    names = dict(zip(summary["method"], _names(summary)))
    cells = {(r.dataset, r.method): r for r in summary.itertuples()}
    rows = []
    for r in summary.itertuples():
        if r.method == ref:
            continue
        base = cells[(r.dataset, ref)]
        units = sorted(set(r.error_by_unit) & set(base.error_by_unit))
        diffs = [r.error_by_unit[u] - base.error_by_unit[u] for u in units]
        mean = float(np.mean(diffs)) if diffs else float("nan")
        diff_sem = sem(diffs)
        beyond = len(diffs) > 1 and abs(mean) > 2 * diff_sem
        rows.append({"dataset": r.dataset, "method": names[r.method], "label": r.method,
                     "against": names[ref], "n_units": len(diffs), "difference_mean": mean,
                     "difference_sem": diff_sem,
                     "verdict": ("lower" if mean < 0 else "higher") if beyond else ""})
    return pd.DataFrame(rows, columns=["dataset", "method", "label", "against", "n_units",
                                       "difference_mean", "difference_sem", "verdict"])


def paired_for(summary: pd.DataFrame, info: dict, against: str | None = None):
    """:func:`paired_differences` against ``against`` (default: the config's ``compare_to``),
    or None for a single method (:class:`ResultsError` if ``against`` is given then)."""
    if summary["method"].nunique() < 2:
        if against is not None:
            raise ResultsError(f"there are no paired differences against {against!r}: this "
                               f"experiment has a single method.")
        return None
    return paired_differences(summary, against if against is not None
                              else info.get("compare_to"))


def render_paired(paired: pd.DataFrame, head) -> str:
    """``paired.md``: the paired differences, one column per method, bold beyond two SEMs."""
    ref = paired["against"].iloc[0]
    methods = list(dict.fromkeys(paired["method"]))
    text = [f"# Paired differences in test error against {ref} (percentage points)", "",
            f"Each cell: the mean over the (seed, outer fold) units of (method's test error "
            f"minus {ref}'s on the same unit), with the standard error of those differences; "
            f"**bold** where the mean is more than two standard errors from zero (negative: "
            f"lower error than {ref}). Pairing on the same test folds removes the split noise "
            f"both share, so these standard errors are smaller than Table 1's.", ""]
    text += [f"- {h}" for h in head] + [""]
    rows = []
    for d, part in paired.groupby("dataset", sort=False):
        row = [d]
        for m in methods:
            r = part[part.method == m].iloc[0]
            if r.n_units == 0:
                row.append("missing")
                continue
            sem = "–" if math.isnan(r.difference_sem) else _num(r.difference_sem)
            shown = round(r.difference_mean, DECIMALS)
            mean = _num(0.0) if shown == 0 else f"{shown:+.{DECIMALS}f}".replace("-", "−")
            cell = f"{mean} ({sem})"
            row.append(f"**{cell}**" if r.verdict else cell)
        rows.append(row)
    text += [markdown_table(["Dataset"] + [f"{m} − {ref}" for m in methods], rows), ""]
    for m in methods:
        part = paired[(paired.method == m) & (paired.n_units > 0)]
        lower, higher = int((part.verdict == "lower").sum()), int((part.verdict == "higher").sum())
        text.append(f"- {m}: lower error than {ref} on {lower}, higher on {higher}, within two "
                    f"standard errors on {len(part) - lower - higher} of {len(part)} datasets")
    return "\n".join(text) + "\n"


# ----------------------------------------------------------------------------------------------
# the paper's numbers


def paper_results(path=PAPER_RESULTS) -> pd.DataFrame:
    """The published Tables 1 and 2 (see the header of ``paper_results.csv`` for the source)."""
    return pd.read_csv(path, comment="#", dtype={"sem": float, "value": float})


def versus_paper(summary: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Our cells next to the paper's: difference and whether they agree (:func:`agrees_with_paper`).

    For errors the band uses both SEMs; for sizes the paper gives no SEM and ours alone is
    used.  Table 2 compares the literals (``ours``) and also gives the features summed over
    clauses (``ours_features``).  ``method`` is the display name, ``label`` the run label.
    """
    paper = paper_results() if paper is None else paper
    names = display_names(dict(zip(summary["method"], summary["method_name"])))
    rows = []
    for r in summary.itertuples():
        pname = PAPER_ALIASES.get(r.dataset, r.dataset)
        for table, col, sem_col in ((1, "error_mean", "error_sem"),
                                    (2, "literals_mean", "literals_sem")):
            hit = paper[(paper.table == table) & (paper.dataset == pname)
                        & (paper.method == r.method_name)]
            if hit.empty:
                continue
            pv, ps = float(hit["value"].iloc[0]), float(hit["sem"].iloc[0])
            ours, osem = getattr(r, col), getattr(r, sem_col)
            diff = ours - pv if r.complete else float("nan")
            rows.append({"table": table, "dataset": r.dataset,
                         "paper_dataset": hit.paper_dataset.iloc[0], "method": names[r.method],
                         "label": r.method, "ours": ours, "ours_sem": osem,
                         "ours_features": r.distinct_mean if table == 2 else float("nan"),
                         "paper": pv, "paper_sem": ps, "difference": diff,
                         "band": agreement_band(osem, ps),
                         "agrees": agrees_with_paper(ours if r.complete else float("nan"),
                                                     osem, pv, ps)})
    return pd.DataFrame(rows, columns=["table", "dataset", "paper_dataset", "method", "label",
                                       "ours", "ours_sem", "ours_features", "paper",
                                       "paper_sem", "difference", "band", "agrees"])


# ----------------------------------------------------------------------------------------------
# rendering


def markdown_table(header, rows) -> str:
    from tabulate import tabulate

    return tabulate(rows, headers=header, tablefmt="pipe", stralign="right", disable_numparse=True)


def latex_table(header, rows, caption: str) -> str:
    """A LaTeX ``table`` float around the tabular tabulate writes (its ``latex`` format, which
    escapes ``\\ & % $ # _ ^ { } ~ < >``); the last row (the ranks) below a rule. Every cell
    and the caption may quote a config (dataset names are untrusted): control characters and
    line breaks are written escaped (``\\x0c``), so that text cannot end a cell, a comment or a
    paragraph."""
    from tabulate import SEPARATING_LINE, tabulate

    rows = [[_tex_text(c) for c in row] for row in rows]
    if len(rows) > 1:
        rows.insert(len(rows) - 1, SEPARATING_LINE)
    tabular = tabulate(rows, headers=[_tex_text(h) for h in header], tablefmt="latex",
                       disable_numparse=True, colalign=("center",) * len(header))
    lines = [r"\begin{table}", rf"\caption{{{_tex_caption(caption)}}}",
             r"\begin{center}\begin{small}", _tex_marks(tabular),
             r"\end{small}\end{center}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def latex_comment(text) -> str:
    """``% text`` on one line (line breaks and control characters written escaped)."""
    return f"% {_tex_text(text)}\n"


def _tex_text(value) -> str:
    from rulelearn._utils import terminal_text

    return terminal_text(str(value), keep="")


def _tex_caption(text) -> str:
    from tabulate import LATEX_ESCAPE_RULES

    return _tex_marks("".join(LATEX_ESCAPE_RULES.get(c, c) for c in _tex_text(text)))


def _tex_marks(text: str) -> str:
    """The two marks the tables use, in LaTeX: the en dash and the dagger (after escaping)."""
    return text.replace("–", "--").replace("†", r"$^\dagger$")


def code_lines(info: dict, summary: pd.DataFrame) -> list[str]:
    """Header lines on the code versions of the records (:mod:`.fingerprint`): said when a
    method's records come from several versions, or when the last ``bench`` kept records of
    other code (``--reuse-stale``); nothing when each method's records come from one version
    (two methods differ by design: the module of each method's estimator is hashed)."""
    lines = []
    kept = info.get("reused_stale")
    if isinstance(kept, dict) and kept:
        which = ", ".join(f"{v}: {n}" for v, n in kept.items())
        lines.append(f"code: {sum(n for n in kept.values() if isinstance(n, int))} units of "
                     f"other code versions kept by 'bench --reuse-stale' ({which})")
    versions = info.get("code_versions") or {}
    per_method: dict = {}  # each method's own code differs by design (its module is hashed)
    for label, cell in zip(summary["method"], summary["code_versions"]):
        per_method.setdefault(label, set()).update(cell or ())
    if any(len(v) > 1 for v in per_method.values()):
        which = ", ".join(f"{v}: {n} record{'s' if n != 1 else ''}"
                          for v, n in versions.items())
        mixed = int(sum(len(v) > 1 for v in summary["code_versions"]))
        lines.append(f"code versions: {len(versions)} ({which}); {mixed} cell"
                     f"{'s' if mixed != 1 else ''} mixing them marked{MIXED_CODE}")
    return lines


def header_lines(info: dict, summary: pd.DataFrame, *, problems: bool = True) -> list[str]:
    """Experiment, wall time, machine, versions, date, deviations, notes, missing cells.

    The deviations from the paper's protocol are listed only for a paper reproduction
    (``info["paper"]``); another configuration's stated ``deviations`` are shown as notes on
    its protocol.  ``problems=False`` leaves out the notes on what was left out and the
    missing cells (a page that lists them in a section of their own).
    """
    v = info.get("versions") or {}
    vers = ", ".join(f"{k} {v.get(k)}" for k in ("python", "rulelearn", "numpy", "highspy",
                                                  "scikit-learn") if k in v) or "unknown"
    if "wall_seconds" in info:
        wall = (f"{info['wall_seconds']:.1f} s (last run), "
                f"{info.get('wall_seconds_all_runs', info['wall_seconds']):.1f} s (all runs)")
    else:
        wall = "unknown (no meta.json)"
    lines = [f"experiment: {info.get('experiment', '?')}",
             f"wall time: {wall}; {summary['fit_seconds'].sum():.1f} s of unit time in total",
             f"machine: {info.get('machine', 'unknown')}",
             f"versions: {vers}",
             f"date: {info.get('finished_at', 'unknown')}"]
    devs = info.get("deviations") or []
    if info.get("paper", True):
        lines.append("deviations from the paper's protocol: " +
                     ("; ".join(devs) if devs else "none"))
    elif devs:
        lines.append("protocol notes: " + "; ".join(devs))
    seeds = info.get("seeds") or []
    planned = info.get("planned_seeds") or seeds
    subset = (f" of the configuration's {len(planned)} ({', '.join(map(str, planned))}; the "
              f"others left out by 'table --seeds')" if len(seeds) < len(planned) else "")
    if len(seeds) > 1:
        lines.append(f"seeds: {len(seeds)} ({', '.join(map(str, seeds))}){subset}, each "
                     f"repeating the nested CV; a cell is the mean over every (seed, outer "
                     f"fold), its SEM over those folds, [min–max] the range of the per-seed "
                     f"means (seeds.md)")
    elif subset:
        lines.append(f"seed: {seeds[0]}{subset}")
    if problems:
        lines += [f"note: {n}" for n in info.get("notes", [])]
    lines += code_lines(info, summary)
    if problems:
        missing = summary[~summary["complete"].astype(bool)]
        names = display_names(dict(zip(summary["method"], summary["method_name"])))
        for r in missing.itertuples():
            lines.append(f"missing: {r.dataset} / {names[r.method]}: {r.reason}")
    return lines


def summary_for(folder, seeds=None) -> tuple[pd.DataFrame, dict]:
    """The cells and header information of an experiment folder
    (:func:`~rulelearn.bench.records.load_results`)."""
    results = load_results(folder, seeds=seeds)
    return results.summary, results.info


TITLES = {
    (True, "error"): "Table 1: mean test error % over the outer folds (standard error of the mean)",
    (True, "features"): "Table 2: mean size of the learned rule (literals / features)",
    (False, "error"): "Mean test error % over the outer folds (standard error of the mean)",
    (False, "features"): "Mean size of the learned rule (literals / features)",
}


def write_tables(folder, output=None, *, notes=None, seeds=None, against=None) -> list[Path]:
    """Render the error and size tables, ranks, the paired differences and (for a paper
    reproduction, see :func:`is_paper_config`) the comparison with the paper from
    ``folder``'s records.

    Files go to ``output`` (default: ``folder``), each written atomically.  ``seeds`` keeps
    only those seeds (:func:`summary_for`); ``against`` names the reference of ``paired.md``
    (default: the config's ``compare_to``, else its first method).  What was left out is said
    in each header and appended to ``notes`` (a list) when given.
    """
    folder = Path(folder)
    out = Path(output) if output else folder
    refuse_link(out)  # never write through a link we did not make
    summary, info = summary_for(folder, seeds=seeds)
    paired = paired_for(summary, info, against)
    if notes is not None:
        notes.extend(info["notes"])
    head = header_lines(info, summary)
    written = []

    def put(name, text):
        try:
            atomic_write_text(out / name, text)
        except OSError as exc:
            raise os_error(exc, "write tables to", out) from None
        written.append(out / name)

    seeds = info["seeds"]
    for n, kind in ((1, "error"), (2, "features")):
        title = TITLES[(info["paper"], kind)]
        if kind == "error" and len(seeds) > 1:
            title = (title.replace("over the outer folds", f"over {len(seeds)} seeds and the "
                                   "outer folds") + " [range of the per-seed means]")
        header, rows = grid(summary, kind)
        foot = f"\n{size_note(summary)}.\n" if kind == "features" else ""
        md = f"# {title}\n\n" + "".join(f"- {h}\n" for h in head) + "\n"
        put(f"table{n}.md", md + markdown_table(header, rows) + "\n" + foot)
        tex = "".join(latex_comment(h) for h in head) + latex_table(
            header, rows, title + (f". {size_note(summary)}." if foot else ""))
        put(f"table{n}.tex", tex)
    put("table1.csv", table1(summary).to_csv(index=False, float_format="%.4f"))
    put("table2.csv", table2(summary).to_csv(index=False, float_format="%.4f"))
    put("ranks.csv", ranks_table(summary).to_csv(index=False, float_format="%.4f"))
    if info["paper"]:
        put("vs_paper.md", render_versus_paper(versus_paper(summary), head))
    if paired is not None:
        put("paired.md", render_paired(paired, head))
        put("paired.csv", paired.to_csv(index=False, float_format="%.4f"))
    if len(seeds) > 1:
        put("seeds.md", render_seeds(summary, head))
        put("seeds.csv", seeds_frame(summary).to_csv(index=False, float_format="%.4f"))
    gaps = gap_frame(load_results(folder, seeds=seeds).records)
    if not gaps.empty:  # a config with certify: true
        put("gaps.md", render_gaps(gaps, head))
        put("gaps.csv", gaps.to_csv(index=False, float_format="%.4f"))
    return written


def gap_frame(records) -> pd.DataFrame:
    """Per (dataset, label) of the ``ok`` records with a certificate: how many, the mean
    objective and lower bound of the chosen rules on their training parts, the mean relative
    gap % and its SEM, and how many gaps are at most 1 %."""
    by_cell: dict = {}
    for r in records:
        if r.ok and r.certificate:
            by_cell.setdefault((r.dataset, r.label, r.method or r.label), []).append(
                r.certificate)
    rows = []
    for (dataset, label, name), certs in by_cell.items():
        gaps = [100 * c["gap"] for c in certs]
        rows.append({"dataset": dataset, "method": label, "method_name": name,
                     "n_certified": len(certs),
                     "objective_mean": float(np.mean([c["objective"] for c in certs])),
                     "lower_bound_mean": float(np.mean([c["lower_bound"] for c in certs])),
                     "gap_mean": float(np.mean(gaps)), "gap_sem": sem(gaps),
                     "gap_within_1": int(sum(g <= 1.0 for g in gaps))})
    return pd.DataFrame(rows, columns=["dataset", "method", "method_name", "n_certified",
                                       "objective_mean",
                                       "lower_bound_mean", "gap_mean", "gap_sem",
                                       "gap_within_1"])


def render_gaps(gaps: pd.DataFrame, head) -> str:
    """``gaps.md``: the mean gap % per dataset and method (objective / lower bound below)."""
    labels = list(dict.fromkeys(gaps.method))
    datasets = list(dict.fromkeys(gaps.dataset))
    cells = {(r.dataset, r.method): r for r in gaps.itertuples()}
    names = display_names(dict(zip(gaps.method, gaps.method_name)))
    text = ["# Certified gaps: how far each chosen rule is from the best rule of its form", "",
            "Per outer fold, on its training part at the chosen θ: the rule's objective, a lower "
            "bound on the objective of every rule of the same form with at most R clauses "
            "(OCRL: 1) by column generation (rulelearn.certify), and the gap (objective - "
            "bound) / objective. A large gap can be a loose bound as well as a poor rule.", ""]
    text += [f"- {h}" for h in head] + [""]
    header = ["Dataset"] + [names.get(lab, lab) for lab in labels]
    for title, cell in (
            ("Mean gap % (SEM) [folds with gap <= 1 % / folds]",
             lambda r: f"{r.gap_mean:.1f} ({_num(r.gap_sem) or '–'}) [{r.gap_within_1}/"
                       f"{r.n_certified}]"),
            ("Mean objective / mean lower bound",
             lambda r: f"{r.objective_mean:.1f} / {r.lower_bound_mean:.1f}")):
        rows = [[d] + [cell(cells[(d, lab)]) if (d, lab) in cells else "–" for lab in labels]
                for d in datasets]
        text += [f"## {title}", "", markdown_table(header, rows), ""]
    return "\n".join(text) + "\n"


def render_seeds(summary: pd.DataFrame, head) -> str:
    text = ["# Per-seed means: how much the split seed alone moves each cell", ""]
    text += [f"- {h}" for h in head] + [""]
    for kind, title in (("error", "Test error %"), ("features", "Literals")):
        header, rows = seeds_grid(summary, kind)
        text += [f"## {title}", "", markdown_table(header, rows), ""]
    return "\n".join(text) + "\n"


AGREEMENT_RULE = ("*agrees*: |ours - paper| <= 2 sqrt(SEM_ours^2 + SEM_paper^2), twice the "
                  "standard error of the difference (Table 2: our SEM only, the paper gives "
                  "none)")


def render_versus_paper(cmp: pd.DataFrame, head) -> str:
    text = ["# Side by side with the paper's published numbers", "",
            "Source: Su, Wei, Varshney & Malioutov, ICML 2016 WHI (arXiv:1606.05798), Tables 1 "
            "and 2, transcribed in `rulelearn/paper_results.csv`. " + AGREEMENT_RULE + ".", ""]
    text += [f"- {h}" for h in head] + [""]
    for table, title in ((1, "Table 1: test error %"),
                         (2, "Table 2: size of the rule (ours: literals / features; the "
                             "paper's count)")):
        part = cmp[cmp.table == table]
        text += [f"## {title}", ""]
        if part.empty:
            text += ["No dataset/method of this experiment appears in the paper's table.", ""]
            continue
        rows = []
        for r in part.itertuples():
            if math.isnan(r.ours):
                ours = "missing"
            elif table == 1:
                ours = f"{r.ours:.1f} ({_num(r.ours_sem)})"
            elif math.isnan(r.ours_features):
                ours = f"{r.ours:.1f}"
            else:
                ours = f"{r.ours:.1f} / {r.ours_features:.1f}"
            paper = f"{r.paper:.1f} ({r.paper_sem:.1f})" if table == 1 else f"{r.paper:.1f}"
            agrees = {True: "yes", False: "no", None: "–"}[r.agrees]
            diff = "" if math.isnan(r.difference) else f"{r.difference:+.1f}"
            rows.append([r.dataset if r.dataset == r.paper_dataset.lower() else
                         f"{r.dataset} ({r.paper_dataset})", r.method, ours, paper, diff,
                         agrees])
        text.append(markdown_table(["Dataset", "Method", "Ours", "Paper", "Difference",
                                    "Agrees"], rows))
        n_in = int((part.agrees == True).sum())  # noqa: E712
        n_cmp = int(part.agrees.notna().sum())
        text += ["", f"{n_in} of {n_cmp} compared cells agree with the paper.", ""]
    return "\n".join(text) + "\n"
