"""``report.html``: everything a results folder knows, in one self-contained page.

The page is built from the folder's typed records (:func:`~.records.load_results`) only:
run metadata and code versions (:mod:`.fingerprint`: which records were computed by code
other than today's), the error and size tables with their average ranks, the paired
differences, the statistical tests over datasets (:mod:`.stats`: Wilcoxon signed-rank per
pair, Friedman with a critical-difference diagram), every figure
(:mod:`~rulelearn.bench.plot`, inline as base64 PNG), one example rule per dataset and method,
and what is missing or stale.

Self-contained and inert: no outside link, no script; a Content-Security-Policy forbids
loading anything but inline images and styles, so a browser that opens the file fetches
nothing.  Every string that comes from data or configuration (dataset and method names, rule
text, errors, notes) is HTML-escaped (:func:`esc`).  Without matplotlib (the ``[plot]``
extra) the page renders with the tables and says that figures need it.  The file is written
atomically and never through a symbolic link (:func:`write_report`).

Written for readers: what is missing is listed once; average ranks and the tests over
datasets only where two or more datasets can be compared; the example rules in rulelearn's
IF/OR layout where the method has one, cut at a line boundary and folded per dataset.  The
Markdown of the tables' notes and of a config's description is rendered by :func:`md_inline`
/ :func:`md_block`, which write a few fixed tags around escaped text and keep only in-page
links.
"""

from __future__ import annotations

import base64
import html
import math
import re
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from rulelearn import __version__
from rulelearn.bench import report, stats
from rulelearn.bench.records import Results, load_results

#: The file ``bench`` writes beside the tables.
REPORT = "report.html"
#: A rule longer than this many lines or characters is cut in the page, at a line boundary
#: (the full rule is in ``records.jsonl``).
RULE_LINES = 40
RULE_CHARS = 3000
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1200px;padding:0 1em;color:#1a1a1a;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.8em 0;font-size:.92em;display:block;max-width:100%;
overflow-x:auto}
th,td{border:1px solid #bbb;padding:.25em .6em;text-align:right;vertical-align:top}
th{background:#f0f0f0}td.l,th.l{text-align:left}tr.rank td{font-weight:bold;background:#fafafa}
td.missing{color:#a00}td.sig{font-weight:bold}
td.n{white-space:nowrap}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font-size:.85em}
code{font-size:.9em;background:#f4f4f4;padding:0 .2em}
details{margin:.3em 0}summary{cursor:pointer}details>table{margin-left:1em}
img{max-width:100%;height:auto;border:1px solid #eee;margin:.5em 0}
.note{color:#555}.warn{color:#a00}ul.meta{list-style:none;padding-left:0}
nav a{margin-right:1em}
"""


def esc(value) -> str:
    """``value`` as HTML text (``<``, ``&``, quotes escaped): every string from data."""
    return html.escape("" if value is None else str(value), quote=True)


def _table(header, rows, *, left=1, classes=None) -> str:
    """An HTML table; the first ``left`` columns left-aligned; ``classes`` a CSS class per
    row (or None)."""
    head = "".join(f'<th class="l">{esc(h)}</th>' if i < left else f"<th>{esc(h)}</th>"
                   for i, h in enumerate(header))
    body = []
    for n, row in enumerate(rows):
        cls = classes[n] if classes else None
        cells = []
        for i, cell in enumerate(row):
            kind = ["l"] if i < left else []
            if str(cell) == "missing":
                kind.append("missing")
            attr = f' class="{" ".join(kind)}"' if kind else ""
            cells.append(f"<td{attr}>{esc(cell)}</td>")
        row_attr = f' class="{cls}"' if cls else ""
        body.append(f"<tr{row_attr}>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _list(items, cls="") -> str:
    if not items:
        return ""
    attr = f' class="{cls}"' if cls else ""
    return f"<ul{attr}>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"


def _num(value, digits=1) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.{digits}f}"


def _p(value) -> str:
    if value is None or math.isnan(value):
        return "–"
    return f"{value:.3f}" if value >= 0.001 else "< 0.001"


def _p_is(value) -> str:
    """``p = 0.004`` / ``p < 0.001``."""
    text = _p(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _signed(value, digits=1) -> str:
    """``+1.2`` / ``−0.3`` / ``0.0`` (never ``-0.0``), as printed in paired.md."""
    if value is None or math.isnan(value):
        return "–"
    shown = round(value, digits)
    return f"{0.0:.{digits}f}" if shown == 0 else f"{shown:+.{digits}f}".replace("-", "−")


# ----------------------------------------------------------------------------------------------
# Markdown: the small subset the tables' notes and a config's prose use


#: A code span: one to three backticks, the same run closing it, on one line.
_CODE_SPAN = re.compile(r"(?<![\\`])(`{1,3})(?!`)([^\n]{1,500}?)(?<!`)\1(?!`)")
#: A backslash escape, a link, strong and emphasis (``*``, not ``_``: names such as
#: ``SEM_ours`` stay as written); each bounded in length, so no text makes the search slow.
_INLINE = re.compile(
    r"\\(?P<lit>[\\`*_\[\]()#|])"
    r"|\[(?P<text>[^\[\]\n]{1,300})\]\((?P<href>[^()\s]{0,300})\)"
    r"|\*\*(?P<strong>[^\s*](?:[^\n]{0,300}?[^\s*])?)\*\*"
    r"|(?<![\w*\\])\*(?P<em>[^\s*](?:[^*\n]{0,300}?[^\s*])?)\*(?![\w*])")
#: The only link target the page keeps as a link: a place in the page itself.
_ANCHOR = re.compile(r"#[A-Za-z][\w-]{0,100}")
_ITEM = re.compile(r" {0,3}(?:[-*+]|(\d{1,9})[.)])\s+(.*)")
_TABLE_RULE = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")


def md_inline(text) -> str:
    """``text`` as HTML: code spans (`` `x` ``), ``**strong**``, ``*emphasis*``, backslash
    escapes and links; everything else HTML-escaped (:func:`esc`).  A link to a place in the
    page (``[Tables](#tables)``) stays a link; any other target is shown as text after the
    link's words, so the page still links nowhere outside itself."""
    text = "" if text is None else str(text)
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_spans(text[pos:m.start()]))
        code = m.group(2)
        if len(code) > 2 and code[0] == code[-1] == " ":  # `` `x` `` (CommonMark)
            code = code[1:-1]
        out.append(f"<code>{esc(code)}</code>")
        pos = m.end()
    out.append(_spans(text[pos:]))
    return "".join(out)


def _spans(text: str, depth: int = 0) -> str:
    if depth > 3:  # emphasis inside emphasis inside ...: the rest as text
        return esc(text)
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(esc(text[pos:m.start()]))
        if m.group("lit") is not None:
            out.append(esc(m.group("lit")))
        elif m.group("text") is not None:
            words, href = _spans(m.group("text"), depth + 1), m.group("href")
            out.append(f'<a href="{esc(href)}">{words}</a>' if _ANCHOR.fullmatch(href)
                       else f"{words} ({esc(href)})" if href else words)
        elif m.group("strong") is not None:
            out.append(f"<strong>{_spans(m.group('strong'), depth + 1)}</strong>")
        else:
            out.append(f"<em>{_spans(m.group('em'), depth + 1)}</em>")
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)


def md_block(text) -> str:
    """``text`` (Markdown) as HTML blocks: paragraphs, bullet and numbered lists, and pipe
    tables (a header row, then a ``|---|---|`` rule), each line's text by :func:`md_inline`.
    Anything else (headings, quotes, HTML) is shown as the text it is."""
    out = []
    for kind, lines in _md_groups("" if text is None else str(text)):
        if kind in ("ul", "ol"):
            out.append(f"<{kind}>" + "".join(f"<li>{md_inline(' '.join(item))}</li>"
                                             for item in lines) + f"</{kind}>")
        elif kind == "rows" and len(lines) >= 2 and _TABLE_RULE.fullmatch(lines[1]):
            out.append(_md_table(lines))
        else:
            out.append(f"<p>{md_inline(' '.join(x.strip() for x in lines))}</p>")
    return "".join(out)


def _md_groups(text: str) -> list:
    """``(kind, lines)`` per block of ``text``: ``"ul"`` / ``"ol"`` (a list of items, each a
    list of its lines), ``"rows"`` (lines starting with ``|``) or ``"text"``; blank lines
    end a block."""
    groups: list = []
    open_kind = None  # the kind of the block a next line may join
    for line in text.splitlines():
        item = _ITEM.match(line)
        if not line.strip():
            open_kind = None
        elif item is not None:
            kind = "ol" if item.group(1) else "ul"
            if open_kind != kind:
                groups.append((kind, []))
            groups[-1][1].append([item.group(2)])
            open_kind = kind
        elif open_kind in ("ul", "ol") and line[:1].isspace():  # an item's next line
            groups[-1][1][-1].append(line.strip())
        else:
            kind = "rows" if line.lstrip().startswith("|") else "text"
            if open_kind != kind:
                groups.append((kind, []))
            groups[-1][1].append(line)
            open_kind = kind
    return groups


def _md_cells(line: str) -> list[str]:
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)]


def _md_table(lines: list[str]) -> str:
    header = _md_cells(lines[0])
    align = ["l" if not c.endswith(":") else "" for c in _md_cells(lines[1])]
    align += ["l"] * (len(header) - len(align))

    def row(cells, tag):
        cells = (cells + [""] * len(header))[:len(header)]
        return "<tr>" + "".join(f'<{tag} class="l">{md_inline(c)}</{tag}>' if a else
                                f"<{tag}>{md_inline(c)}</{tag}>"
                                for c, a in zip(cells, align)) + "</tr>"
    body = "".join(row(_md_cells(line), "td") for line in lines[2:])
    return f"<table><thead>{row(header, 'th')}</thead><tbody>{body}</tbody></table>"


# ----------------------------------------------------------------------------------------------
# sections (each returns HTML text)


def _metadata(results: Results) -> str:
    info, config = results.info, results.config
    # what is missing or left out has a section of its own ("Missing or stale")
    lines = report.header_lines(info, results.summary, problems=False)
    desc = config.get("description") or ""
    folds = (f"{config.get('outer_folds', '?')} outer folds, {config.get('inner_folds', '?')} "
             f"inner folds, seed{'s' if len(results.seeds) > 1 else ''} "
             f"{', '.join(map(str, results.seeds))}")
    out = [md_block(desc) if isinstance(desc, str) else f"<p>{esc(desc)}</p>",
           '<ul class="meta">'
           + "".join(f"<li>{esc(i)}</li>" for i in (
               f"results folder: {results.folder.name}", f"protocol: {folds}",
               f"{len(results.records)} records of {len(results.datasets)} datasets × "
               f"{len(results.labels)} methods"))
           + "".join(f"<li>{md_inline(line)}</li>" for line in lines) + "</ul>"]
    return "".join(out)


def code_status(results: Results) -> pd.DataFrame:
    """Per method: the code versions of its records and whether they are today's code.

    ``stale``: ``ok`` records whose code fingerprint is not the one the code has now
    (:func:`~.fingerprint.code_fingerprint`), ``unrecorded`` those written before rulelearn
    kept one.  A method that cannot be fingerprinted here (an optional package missing) has
    ``now`` None and is not judged.
    """
    from rulelearn.bench.fingerprint import code_fingerprint

    names = results.names
    rows = []
    for label in results.labels:
        recs = [r for r in results.records if r.label == label and r.ok]
        kind = results.method_names.get(label, label)
        try:
            now = code_fingerprint(kind)
        except Exception:  # noqa: BLE001 - an optional method whose package cannot load
            now = None
        versions: dict = {}
        for r in recs:
            versions[r.code_version] = versions.get(r.code_version, 0) + 1
        unrecorded = sum(r.code_fingerprint is None for r in recs)
        stale = 0 if now is None else sum(
            r.code_fingerprint is not None and r.code_fingerprint != now for r in recs)
        rows.append({"method": names[label], "label": label, "records": len(recs),
                     "versions": versions, "now": now, "stale": stale,
                     "unrecorded": unrecorded})
    return pd.DataFrame(rows, columns=["method", "label", "records", "versions", "now",
                                       "stale", "unrecorded"])


def data_status(results: Results) -> list[str]:
    """A line per dataset whose ``ok`` records were computed from other data than its file or
    registry entry now (:func:`~.fingerprint.data_fingerprint`), or, for a CSV file, from
    data with no recorded fingerprint."""
    from rulelearn.bench.config import DatasetConfig
    from rulelearn.bench.fingerprint import data_fingerprint

    lines = []
    for entry in results.config.get("datasets", []):
        try:
            dataset = DatasetConfig(**entry)
            now = data_fingerprint(dataset)
        except Exception:  # noqa: BLE001 - an entry or registry this rulelearn cannot read
            continue
        recs = [r for r in results.records if r.dataset == dataset.name and r.ok]
        other = sum(r.data_fingerprint is not None and r.data_fingerprint != now for r in recs)
        unknown = sum(r.data_fingerprint is None for r in recs) if dataset.path else 0
        if other:
            lines.append(f"{dataset.name}: {other} record{'s' if other != 1 else ''} computed "
                         f"from other data than "
                         f"{'its file' if dataset.path else 'its registry entry'} now")
        if unknown:
            lines.append(f"{dataset.name}: {unknown} record{'s' if unknown != 1 else ''} with "
                         f"no fingerprint of the data, so a change of its file cannot be "
                         f"ruled out")
    return lines


def _code(status: pd.DataFrame) -> str:
    rows = []
    for r in status.itertuples():
        versions = ", ".join(f"{v} ({n})" for v, n in r.versions.items()) or "–"
        state = ("not judged (its code cannot be loaded here)" if r.now is None else
                 "today's code" if not (r.stale or r.unrecorded) else
                 ", ".join(x for x in (f"{r.stale} from other code" if r.stale else "",
                                       f"{r.unrecorded} unrecorded" if r.unrecorded else "")
                           if x))
        rows.append([r.method, r.records, versions, r.now or "–", state])
    return ("<p>A code version is a hash of the sources and package versions a method's "
            "results depend on (<code>rulelearn/bench/fingerprint.py</code>); each method "
            "has its own.</p>"
            + _table(["Method", "Records", "Code versions of the records (records)",
                      "Code now", "Records vs the code now"], rows))


def _missing(results: Results, status: pd.DataFrame) -> str:
    s = results.summary
    names = results.names
    items = []
    for dataset, part in s[~s["complete"].astype(bool)].groupby("dataset", sort=False):
        reasons = set(part["reason"])
        if len(part) == len(results.labels) > 1 and len(reasons) == 1:  # one line a dataset
            items.append(f"{dataset} / every method: {reasons.pop()}")
        else:
            items += [f"{dataset} / {names[r.method]}: {r.reason}" for r in part.itertuples()]
    items += [f"{r.method}: {r.stale} record{'s' if r.stale != 1 else ''} computed by other "
              f"code than today's (rerun bench to recompute, or --reuse-stale to keep)"
              for r in status.itertuples() if r.stale]
    items += [f"{r.method}: {r.unrecorded} record{'s' if r.unrecorded != 1 else ''} from "
              f"before rulelearn kept code versions" for r in status.itertuples()
              if r.unrecorded]
    items += data_status(results)
    items += list(results.notes)
    if not items:
        return ("<p>Nothing: every cell is complete and every record is of today's code and "
                "data.</p>")
    return _list(items, "warn")


def ranked_datasets(summary: pd.DataFrame) -> int:
    """How many datasets every method completes: what average ranks and the Friedman test
    are taken over (0 with fewer than two methods, where ranks compare nothing)."""
    if summary.empty or summary["method"].nunique() < 2:
        return 0
    return int(stats.complete_wide(summary, "error_mean").dropna(axis=0, how="any").shape[0])


def _grid_table(summary: pd.DataFrame, kind: str, *, ranks: bool) -> str:
    """Table 1 or 2; its last row (the average ranks) only when ``ranks``."""
    header, rows = report.grid(summary, kind)
    if not ranks:
        return _table(header, rows[:-1])
    classes = [None] * (len(rows) - 1) + ["rank"]
    return _table(header, rows, classes=classes)


def _tables(results: Results) -> str:
    s, paper = results.summary, bool(results.info["paper"])
    n = ranked_datasets(s)
    out = []
    for kind, anchor in (("error", "table1"), ("features", "table2")):
        title = report.TITLES[(paper, kind)]
        out.append(f'<h3 id="{anchor}">{esc(title)}</h3>' + _grid_table(s, kind, ranks=n >= 2))
    mixed = any(len(v) > 1 for v in s["code_versions"])
    if n >= 2:
        ranks = (" Average rank: 1 = lowest, over the datasets where every method is "
                 "complete, values compared as printed.")
    elif len(results.datasets) == 1:
        ranks = " One dataset: no average ranks (they compare methods over datasets)."
    elif len(results.labels) < 2:
        ranks = ""
    else:
        ranks = (f" No average ranks: they need 2 or more datasets where every method is "
                 f"complete ({n} here).")
    out.append(f'<p class="note">{md_inline(report.size_note(s))}.{ranks}'
               + (" † marks a cell whose records come from several code versions."
                  if mixed else "") + "</p>")
    return "".join(out)


def _paired(results: Results) -> str:
    paired = report.paired_for(results.summary, results.info)
    if paired is None:
        return "<p>A single method: no paired differences.</p>"
    ref = paired["against"].iloc[0] if len(paired) else ""
    methods = list(dict.fromkeys(paired["method"]))
    rows = []
    for d, part in paired.groupby("dataset", sort=False):
        row = [d]
        for m in methods:
            r = part[part.method == m].iloc[0]
            if r.n_units == 0:
                row.append("missing")
                continue
            row.append(f"{_signed(r.difference_mean)} ({_num(r.difference_sem)})"
                       + (f" {r.verdict}" if r.verdict else ""))
        rows.append(row)
    return (f"<p>Each cell: the mean over the (seed, outer fold) units of (the method's test "
            f"error minus {esc(ref)}'s on the same unit), percentage points, with the standard "
            f"error of those differences; <i>lower</i> / <i>higher</i> where the mean is more "
            f"than two standard errors from zero.</p>"
            + _table(["Dataset"] + [f"{m} − {ref}" for m in methods], rows))


def _stats(results: Results, figures: dict) -> str:
    s = results.summary
    out = ["<p>Over datasets (Demšar 2006): each test treats a dataset's mean as one "
           "observation, values as printed in the tables. Wilcoxon signed-rank per pair of "
           "methods (two-sided, p adjusted by Holm over the pairs); Friedman over the datasets "
           "where every method is complete, with the Nemenyi critical difference (α = 0.05) "
           "of its average ranks.</p>"]
    for column, what in (("error_mean", "test error"), ("literals_mean", "size (literals)")):
        f = stats.friedman(s, column)
        out.append(f"<h3>{esc(what.capitalize())}</h3>")
        if f.reason:
            out.append(f"<p>Friedman test: not computed: {esc(f.reason)}.</p>")
        else:
            out.append(f"<p>Friedman test over {f.n_datasets} datasets and {f.n_methods} "
                       f"methods: χ² = {f.statistic:.2f}, {_p_is(f.p_value)}; critical "
                       f"difference of average ranks {f.cd:.2f}.</p>")
        if f.ranks and f.n_datasets >= 2 and f.n_methods >= 2:  # as the tables' last row
            ranks = sorted(f.ranks.items(), key=lambda kv: kv[1])
            out.append(_table(["Method", "Average rank"], [[m, f"{r:.2f}"] for m, r in ranks]))
        key = f"cd_{column}"
        if key in figures:
            out.append(figures[key])
        w = stats.wilcoxon_pairs(s, column)
        if not f.reason and len(w) and w["p_value"].notna().any():
            out.append(f"<p>{esc(_two_tests(f, w))}</p>")
        if len(w) and w["p_value"].isna().all():
            out.append("<p>Wilcoxon signed-rank tests: not computed: no pair of methods "
                       "differs on 2 or more datasets (the test needs them).</p>")
        elif len(w):
            rows = [[r.method, r.versus, r.n_datasets, f"{r.wins} / {r.losses} / {r.ties}",
                     _num(r.statistic), _p(r.p_value), _p(r.p_holm),
                     (f"{r.verdict} lower" if r.verdict else (
                         r.reason or "not significant (α = 0.05, Holm)"))]
                    for r in w.itertuples()]
            out.append("<p>Wilcoxon signed-rank test per pair (lower / higher / equal: "
                       "datasets where the first method's value is lower, higher, the same "
                       "as printed):</p>"
                       + _table(["Method", "Versus", "Datasets", "Lower / higher / equal",
                                 "W", "p", "p (Holm)", "Verdict"], rows, left=2))
    return "".join(out)


def _two_tests(f: stats.Friedman, w: pd.DataFrame) -> str:
    """One sentence on why the critical-difference diagram and the Wilcoxon–Holm table can
    disagree, naming the pairs where they do."""
    apart, together = [], []
    for r in w.itertuples():
        if r.method not in f.ranks or r.versus not in f.ranks:
            continue
        beyond = abs(f.ranks[r.method] - f.ranks[r.versus]) > f.cd + 1e-12
        significant = bool(r.p_holm < stats.ALPHA)
        if beyond and not significant:
            apart.append(f"{r.method}–{r.versus}")
        elif significant and not beyond:
            together.append(f"{r.method}–{r.versus}")
    here = "; ".join(x for x in (
        f"the diagram separates {', '.join(apart)}, which Wilcoxon–Holm does not"
        if apart else "",
        f"Wilcoxon–Holm separates {', '.join(together)}, which the diagram joins"
        if together else "") if x)
    return ("The diagram and the Wilcoxon–Holm table below are different tests and can "
            f"disagree: Nemenyi compares average ranks over all {f.n_methods} methods with one "
            "critical difference, while each Wilcoxon signed-rank test weighs one pair's "
            "per-dataset differences by their size (over the datasets both complete) and Holm "
            f"then corrects for all {len(w)} pairs" + (f" (here {here})." if here else "."))


def _versus_paper(results: Results) -> str:
    cmp = report.versus_paper(results.summary)
    if cmp.empty:
        return "<p>No dataset and method of this experiment appears in the paper's tables.</p>"
    cells = {(r.table, r.dataset, r.method): r for r in cmp.itertuples()}
    rows = []
    for d, m in dict.fromkeys((r.dataset, r.method) for r in cmp.itertuples()):
        row = [d, m]
        for table in (1, 2):
            r = cells.get((table, d, m))
            if r is None:
                row += ["–"] * 4
                continue
            ours = "missing" if math.isnan(r.ours) else f"{r.ours:.1f}"
            row += [ours, f"{r.paper:.1f}", _signed(r.difference),
                    {True: "yes", False: "no", None: "–"}[r.agrees]]
        rows.append(row)
    return (f"<p>{md_inline(report.AGREEMENT_RULE)}. Source: the paper's Tables 1 and 2, "
            f"transcribed in <code>rulelearn/paper_results.csv</code>.</p>"
            + _table(["Dataset", "Method", "Error: ours", "paper", "difference", "agrees",
                      "Size: ours", "paper", "difference", "agrees"], rows, left=2))


def example_rules(results: Results) -> list[dict]:
    """Per complete or partial (dataset, method): the rule of its first ``ok`` record (lowest
    seed, then fold), with that record's test error and size, its ``rule_json`` and
    positive class (for :func:`rule_layout`)."""
    first: dict = {}
    for r in sorted((r for r in results.records if r.ok), key=lambda r: (r.seed, r.fold)):
        first.setdefault((r.dataset, r.label), r)
    names = results.names
    out = []
    for d in results.datasets:
        for lab in results.labels:
            rec = first.get((d, lab))
            raw = rec.raw if rec is not None else {}
            rule = raw.get("rule")
            out.append({"dataset": d, "method": names[lab],
                        "method_name": results.method_names.get(lab, lab),
                        "seed": None if rec is None else rec.seed,
                        "fold": None if rec is None else rec.fold,
                        "test_error": None if rec is None else rec.test_error,
                        "literals": None if rec is None else rec.literals,
                        "rule": rule if isinstance(rule, str) else None,
                        "rule_json": raw.get("rule_json"), "positive": raw.get("positive")})
    return out


def rule_layout(example: dict) -> str | None:
    """An example's rule in rulelearn's ``IF 1. ... / OR 2. ... / THEN predict c`` layout
    (:meth:`~rulelearn.rules.Rule.describe`): from its ``rule_json`` (the LP learners, FIT,
    BRCG), or from RIPPER's rule set (``[[a^b] V [c]]``: one numbered line per rule, its
    conditions as RIPPER writes them); None for a rule with no such layout (a tree)."""
    from rulelearn.errors import RuleLearnError
    from rulelearn.rules import Rule

    positive = example.get("positive")
    data = example.get("rule_json")
    if isinstance(data, dict):
        try:
            return Rule.from_dict(data).describe(positive)
        except (RuleLearnError, ValueError, TypeError):
            pass  # a damaged rule_json: the rule text as written
    text = example.get("rule")
    if str(example.get("method_name")).lower() == "ripper" and isinstance(text, str):
        return _ripper_layout(text.strip(), positive)
    return None


def _ripper_layout(text: str, positive) -> str | None:
    """wittgenstein's ``str(ruleset)`` (``[[a=1^b=<2] V [c=x]]``, ``[]`` when empty) in the
    IF/OR layout; None when ``text`` is not of that shape."""
    outcome = "predict positive" if positive is None else f"predict {positive}"
    if text == "[]":
        return f"never {outcome} (empty rule set)"
    if not (text.startswith("[[") and text.endswith("]]")):
        return None
    lines = []
    for number, rule in enumerate(text[2:-2].split("] V ["), 1):
        lead = "IF" if number == 1 else "OR"
        lines.append(f"{lead:<3} {number}. " + " AND\n       ".join(rule.split("^")))
    return "\n".join(lines + [f"THEN {outcome}"])


def cut_rule(text: str, *, max_lines: int = RULE_LINES, max_chars: int = RULE_CHARS):
    """``text`` cut to at most ``max_lines`` lines and ``max_chars`` characters at a line
    boundary (a first line longer than that at its last space), and a note saying how much
    was left out (None when nothing was)."""
    lines = text.splitlines()
    kept, size = [], 0
    for line in lines[:max_lines]:
        if size + len(line) > max_chars:
            break
        kept.append(line)
        size += len(line) + 1
    if len(kept) == len(lines):
        return text, None
    if not kept:  # one line longer than the page shows: cut between two words
        head = lines[0][:max_chars]
        space = head.rfind(" ")
        kept = [head[:space] if space > max_chars // 2 else head]
    rest = len(lines) - len(kept)
    return "\n".join(kept), (f"… cut here: {len(lines)} lines and {len(text):,} characters in "
                             f"all ({rest} more line{'s' if rest != 1 else ''} in "
                             f"records.jsonl)" if rest else
                             f"… cut here: {len(text):,} characters in all (the whole line "
                             f"in records.jsonl)")


def _rules(results: Results) -> str:
    by_dataset: dict = {}
    for e in example_rules(results):
        by_dataset.setdefault(e["dataset"], []).append(e)
    parts = []
    for dataset, examples in by_dataset.items():
        examples = [e for e in examples if e["fold"] is not None]  # the others: "Missing"
        if not examples:
            continue
        rows = []
        for e in examples:
            rule = rule_layout(e) or e["rule"] or "(no rule text in the record)"
            shown, note = cut_rule(rule)
            where = f"seed {e['seed']}, fold {e['fold']}"
            rows.append(f'<tr><td class="l">{esc(e["method"])}</td>'
                        f'<td class="l n">{esc(where)}</td>'
                        f'<td class="n">{_num(100 * e["test_error"])} % / '
                        f'{_num(e["literals"], 0)}</td>'
                        f'<td class="l"><pre>{esc(shown)}</pre>'
                        + (f'<p class="note">{esc(note)}</p>' if note else "") + "</td></tr>")
        parts.append(f"<details><summary>{esc(dataset)} ({len(examples)} "
                     f"method{'s' if len(examples) != 1 else ''})</summary><table><thead><tr>"
                     '<th class="l">Method</th><th class="l">Record</th>'
                     '<th>Test error / size</th><th class="l">Rule</th></tr></thead><tbody>'
                     + "".join(rows) + "</tbody></table></details>")
    ripper = any(str(n).lower() == "ripper" for n in results.method_names.values())
    return ("<p>The rule of each method's first outer fold (its refit on that fold's "
            "training part), each dataset folded: open one to read its rules. A rule set is "
            "shown in rulelearn's layout (<code>IF 1. … OR 2. … THEN predict …</code>)"
            + (", RIPPER's conditions as it writes them (<code>x=a-b</code>: a &lt; x ≤ b, "
               "<code>x=&lt;b</code>: x ≤ b, <code>x=&gt;a</code>: x &gt; a)" if ripper else "")
            + "; a tree as its package prints it.</p>" + "".join(parts))


# ----------------------------------------------------------------------------------------------
# figures


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{esc(alt)}" src="data:image/png;base64,{data}">'


FIGURE_TITLES = {"tradeoff": "Test error against size (the tables' cells)",
                 "paths": "θ paths of the LP methods",
                 "pareto": "Pareto fronts: the chosen rules, and in hindsight"}


def render_figures(results: Results) -> tuple[dict, str | None]:
    """``name -> HTML`` of each figure (the CD diagrams under ``cd_<column>``), and a line
    saying why there are none or some are missing (matplotlib absent, nothing to draw)."""
    from rulelearn.bench import plot

    try:
        plot.figure_class()
    except plot.PlotError:
        return {}, ("Figures need the optional matplotlib package: pip install "
                    "'rulelearn[plot]'; this page was written without it.")
    out, problems = {}, []
    pages = {}
    lp = [r for r in results.records
          if results.method_names.get(r.label, r.method) in plot.LP_METHODS]
    notes = {}
    for kind in plot.FIGURES:  # one that cannot be drawn leaves the others
        if kind == "paths" and not any(r.ok and r.path for r in lp):
            if lp:  # a figure would be one panel saying this
                notes[kind] = ("No θ path to draw: the records were written before θ paths "
                               "were stored (rerun 'rulelearn bench CONFIG --force' to record "
                               "them).")
            continue  # no LP method: no θ to draw paths over
        try:
            pages.update(plot.figure_pages(results.records, results.config, kinds=(kind,)))
        except plot.PlotError as exc:
            problems.append(f"{kind}: {exc}")
    out.update({name: f'<p class="note">{esc(text)}</p>' for name, text in notes.items()})
    for name, figs in pages.items():
        out[name] = "".join(
            _img(plot.figure_png(fig), f"{FIGURE_TITLES[name]}, page {i} of {len(figs)}")
            for i, fig in enumerate(figs, start=1))
    for column, what in (("error_mean", "Test error"), ("literals_mean", "Size (literals)")):
        f = stats.friedman(results.summary, column)
        if f.reason is None and len(results.datasets) > 1:
            fig = plot.cd_figure(f.ranks, f.cd, n_datasets=f.n_datasets,
                                 title=f"{what}: critical-difference diagram")
            out[f"cd_{column}"] = _img(plot.figure_png(fig), f"{what}: critical difference")
    return out, ("; ".join(problems) or None)


# ----------------------------------------------------------------------------------------------
# the page


def build_report(folder, *, figures: bool = True) -> str:
    """The HTML text of ``folder``'s report (:class:`~.store.ResultsError` as for the tables).
    ``figures=False`` leaves the figures out (said on the page)."""
    results = load_results(folder)
    status = code_status(results)
    if figures:
        figs, why = render_figures(results)
    else:
        figs, why = {}, "Figures were left out of this page."
    experiment = results.info.get("experiment", results.folder.name)
    sections = [("meta", "Run", _metadata(results)),
                ("missing", "Missing or stale", _missing(results, status)),
                ("code", "Code versions", _code(status)),
                ("tables", "Tables", _tables(results)),
                ("paired", "Paired differences", _paired(results))]
    if len(results.datasets) > 1:  # tests over datasets mean nothing with one
        sections.append(("stats", "Tests over datasets", _stats(results, figs)))
    if results.info["paper"]:
        sections.append(("paper", "Against the paper's numbers", _versus_paper(results)))
    fig_html = ([f"<p class=\"warn\">{esc(why)}</p>"] if why else []) + [
        f"<h3>{esc(FIGURE_TITLES[n])}</h3>{figs[n]}" for n in FIGURE_TITLES if n in figs]
    sections.append(("figures", "Figures", "".join(fig_html)))
    sections.append(("rules", "Example rules", _rules(results)))
    nav = "".join(f'<a href="#{key}">{esc(title)}</a>' for key, title, _ in sections)
    body = "".join(f'<h2 id="{key}">{esc(title)}</h2>{text}' for key, title, text in sections)
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>rulelearn report: {esc(experiment)}</title><style>{STYLE}</style></head>"
            f"<body><h1>rulelearn report: {esc(experiment)}</h1>"
            f'<p class="note">Written by rulelearn {esc(__version__)} on {made} from the '
            f"records of {esc(results.folder.name)}/.</p><nav>{nav}</nav>{body}"
            "</body></html>\n")


def write_report(folder, output=None, *, figures: bool = True) -> Path:
    """Write :func:`build_report` of ``folder`` to ``output`` (default
    ``folder/report.html``) through a temporary file renamed over it: a link at ``output``
    is replaced, never written through, and a folder that is a link is refused."""
    from rulelearn._io import atomic_write_text, make_folder
    from rulelearn.bench.store import os_error

    folder = Path(folder)
    out = Path(output) if output else folder / REPORT
    text = build_report(folder, figures=figures)
    try:
        make_folder(out.parent)  # refuses a folder that is a link
        if out.is_dir() and not out.is_symlink():
            raise IsADirectoryError(21, "is a folder; give a file name such as report.html",
                                    str(out))
        atomic_write_text(out, text, make_parents=False)
    except OSError as exc:
        raise os_error(exc, "write the report to", out) from None
    return out
