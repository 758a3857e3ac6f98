"""``rulelearn report``: one self-contained, inert HTML page of a results folder, checked as text
and in a real browser (headless Chromium; those tests skip, saying why, where it is absent)."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser

import pandas as pd
import pytest
import yaml
from click.testing import CliRunner

from rulelearn.bench import html_report, report, stats, store
from rulelearn.bench.config import parse_config
from rulelearn.cli import main

HOSTILE = "<script>alert(1)</script>"
RULE = '<img src=x onerror="alert(2)"> AND x > 1'


def record(key, dataset, label, fold, error, size, *, rule="a > 1"):
    method = label.split("[")[0]
    return {"key": key, "status": "ok", "dataset": dataset, "label": label, "method": method,
            "fold": fold, "n_outer": 2, "seed": 0, "test_error": error,
            "train_error": error / 2, "n_features": size, "total_seconds": 1.0,
            "chosen": 1.0, "rule": rule,
            "path": [{"param": t, "cv_error": error + 0.01 * i, "cv_sem": 0.01,
                      "literals": size + 2 - i, "clauses": 1, "train_error": error / 2,
                      "test_error": error + 0.01 * (i - 1)}
                     for i, t in enumerate([0.01, 1.0, 50.0])]}


ERRORS = {"bcd": [0.20, 0.10, 0.30], "sc": [0.25, 0.12, 0.31], "cart": [0.22, 0.15, 0.28]}
SIZES = {"bcd": 4, "sc": 2, "cart": 9}


def results_folder(tmp_path, *, datasets=("magic", "pima", "sonar"), skip=(), folds=(0, 1)):
    """A results folder (config.yaml and records, no bench run): three methods over
    ``datasets``, the first dataset renamed to a hostile name; ``skip`` (dataset index,
    method) cells get no records, nor folds not in ``folds``."""
    cfg = parse_config(textwrap.dedent(f"""\
        name: fake
        description: "made up {HOSTILE}"
        datasets: [{", ".join(datasets)}]
        methods: [bcd, sc, cart]
        theta: [0.01, 1.0, 50.0]
        outer_folds: 2
        inner_folds: 2
        """), source="fake.yaml").to_dict()
    cfg["datasets"][0] = {"name": HOSTILE, "path": "x.csv", "target": "y"}
    folder = tmp_path / "fake"
    folder.mkdir()
    (folder / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    names = [d["name"] for d in cfg["datasets"]]
    lines = []
    for key, (d, label, fold) in store.planned_keys(cfg).items():
        i, method = names.index(d), label.split("[")[0]
        if (i, method) in skip or fold not in folds:
            continue
        rule = RULE if (i, method) == (0, "bcd") else "a > 1"
        size = SIZES[method] + i + fold
        lines.append(json.dumps(record(key, d, label, fold, ERRORS[method][i] + 0.01 * fold,
                                       size, rule=rule)))
    (folder / "records.jsonl").write_text("\n".join(lines) + "\n")
    return folder


class Tags(HTMLParser):
    """Every start tag of a page, with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(text):
    parser = Tags()
    parser.feed(text)
    return parser.tags


# ------------------------------------------------------------------------------------ the page


def test_every_string_from_data_is_escaped(tmp_path):
    page = html_report.build_report(results_folder(tmp_path), figures=False)
    assert HOSTILE not in page and "<img src=x" not in page
    assert html_report.esc(HOSTILE) in page  # shown, as text
    assert html_report.esc(RULE) in page
    assert "made up &lt;script&gt;" in page
    found = [t for t, _ in tags(page)]
    assert "script" not in found and found.count("img") == 0


@pytest.fixture(scope="module")
def with_figures(tmp_path_factory):
    """A report with its figures, written once (drawing them takes about 3 CPU s)."""
    pytest.importorskip("matplotlib")
    tmp = tmp_path_factory.mktemp("figures")
    folder = results_folder(tmp, datasets=("magic", "pima"))
    return html_report.write_report(folder, tmp / "report.html")


def test_the_page_is_self_contained_and_inert(with_figures):
    page = with_figures.read_text(encoding="utf-8")
    found = tags(page)
    images = [a["src"] for t, a in found if t == "img"]
    assert len(images) >= 5  # trade-off, θ paths, Pareto, two CD diagrams
    assert all(src.startswith("data:image/png;base64,") for src in images)
    links = [a["href"] for t, a in found if "href" in a]
    assert links and all(h.startswith("#") for h in links)  # no outside link
    assert not [a for _, a in found if {"srcset", "action", "background"} & set(a)]
    csp = [a for t, a in found if t == "meta" and a.get("http-equiv") ==
           "Content-Security-Policy"]
    assert csp == [{"http-equiv": "Content-Security-Policy", "content": html_report.CSP}]
    assert "default-src 'none'" in html_report.CSP and "script" not in html_report.CSP


def test_the_page_has_tables_ranks_paired_differences_tests_and_rules(tmp_path):
    folder = results_folder(tmp_path)
    page = html_report.build_report(folder, figures=False)
    results = report.load_results(folder)
    header, rows = report.grid(results.summary, "error")
    for cell in rows[-1]:  # the average ranks, as the tables print them
        assert f"<td>{cell}</td>" in page or f'<td class="l">{cell}</td>' in page
    assert "Paired differences" in page and "SC − BCD" in page
    # three methods over three complete datasets: the Friedman test is computed
    assert "Friedman test over 3 datasets and 3 methods" in page
    assert "Wilcoxon signed-rank test per pair" in page
    assert page.count("<pre>") == 9  # one example rule per (dataset, method)
    assert "Figures were left out of this page." in page


def test_missing_cells_and_records_of_old_code_are_listed(tmp_path):
    folder = results_folder(tmp_path, skip={(2, "sc")})
    page = html_report.build_report(folder, figures=False)
    assert "sonar / SC: no records" in page
    assert "100 records" not in page and "6 records from before rulelearn kept code" in page
    assert "Friedman test over 2 datasets" in page  # sonar lacks SC: left out of the test


def test_records_of_other_data_are_listed(tmp_path):
    folder = results_folder(tmp_path)
    path = folder / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for rec in recs:
        if rec["dataset"] == "pima":
            rec["data_fingerprint"] = "0" * 64  # not the registry's pinned file
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    page = html_report.build_report(folder, figures=False)
    assert "pima: 6 records computed from other data than its registry entry now" in page
    assert "magic: " not in page.split('id="code"')[0]  # no fingerprint: the pinned file
    # a CSV dataset without a data fingerprint: a change of its file cannot be ruled out
    assert (f"{html_report.esc(HOSTILE)}: 6 records with no fingerprint of the data" in page)


def test_without_matplotlib_the_page_says_figures_need_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import -> ImportError
    page = html_report.build_report(results_folder(tmp_path))
    assert "Figures need the optional matplotlib package" in page
    assert "rulelearn[plot]" in page and "<img" not in page
    assert "Friedman test over 3 datasets" in page  # the rest is there


def test_a_figure_that_cannot_be_drawn_leaves_the_others(tmp_path):
    pytest.importorskip("matplotlib")
    folder = results_folder(tmp_path, datasets=("magic",), folds=(0,))  # 1 of 2 folds
    page = html_report.build_report(folder)
    # nothing complete: no trade-off or Pareto panel to draw (each says so), the θ paths drawn
    for kind in ("tradeoff", "pareto"):
        assert f"{kind}: no (dataset, method) with an ok record for every outer fold" in page
    assert "θ paths of the LP methods" in page and page.count("<img") == 1


def test_write_report_replaces_a_link_and_never_writes_through_it(tmp_path):
    folder = results_folder(tmp_path)
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    link = tmp_path / "page.html"
    link.symlink_to(target)
    html_report.write_report(folder, link, figures=False)
    assert target.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text().startswith("<!DOCTYPE html>")
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    with pytest.raises(Exception, match="symbolic link"):
        html_report.write_report(folder, tmp_path / "via" / "page.html", figures=False)
    assert list((tmp_path / "real").iterdir()) == []
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_report_command(tmp_path):
    folder = results_folder(tmp_path)
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["report", str(folder), "-o", str(out), "--no-figures"])
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == str(out) and out.read_text().startswith("<!DOCTYPE html>")
    r = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert r.exit_code == 1 and r.stderr.startswith("Error: no records in")
    assert len(r.stderr.strip().splitlines()) == 1
    r = CliRunner().invoke(main, ["report", str(folder), "-o", str(tmp_path)])
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_bench_writes_the_report_beside_the_tables(tmp_path):
    """Records already there (kept by --reuse-stale: nothing runs): bench writes its tables and
    report.html, which says those records predate code versions."""
    text = textwrap.dedent("""\
        name: tiny
        datasets: [wdbc_bundled]
        methods: [bcd, cart]
        theta: [0.01, 1.0, 50.0]
        outer_folds: 2
        inner_folds: 2
        jobs: 1
        """)
    (tmp_path / "tiny.yaml").write_text(text)
    cfg = parse_config(text, source="tiny.yaml").to_dict()
    out = tmp_path / "out"
    out.mkdir()
    lines = [json.dumps(record(key, d, label, fold, 0.1, 3))
             for key, (d, label, fold) in store.planned_keys(cfg).items()]
    (out / "records.jsonl").write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["bench", str(tmp_path / "tiny.yaml"), "-o", str(out), "-q",
                                  "--reuse-stale"])
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith("report.html") and (out / "table1.md").exists()
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h1>rulelearn report: tiny</h1>" in page
    assert "BCD: 2 records from before rulelearn kept code versions" in page


# --------------------------------------------------------------------------- in a real browser


def chromium() -> str | None:
    """The Chromium (or Chrome) executable on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


NO_BROWSER = ("headless Chromium is not installed (Debian: apt-get install -y chromium; .ci/run "
              "installs it where apt-get is available)")


def test_the_browser_finder_says_none_on_an_empty_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert chromium() is None


@pytest.fixture(scope="module")
def rendered(with_figures, tmp_path_factory):
    """The report with figures and a hostile dataset name, opened once in headless Chromium
    (about 1 CPU s): its DOM after rendering, a screenshot and the browser's log."""
    pytest.importorskip("PIL")
    exe = chromium()
    if exe is None:
        pytest.skip(NO_BROWSER)
    return open_in_chromium(exe, with_figures, tmp_path_factory.mktemp("browser"))


def open_in_chromium(exe, page, tmp):
    """``page`` rendered by headless Chromium: its DOM, a 1200 × 1600 screenshot, the log."""
    shot = tmp / "shot.png"
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
    run = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp / 'p'}",
         "--enable-logging=stderr", "--v=0", "--window-size=1200,1600",
         f"--screenshot={shot}", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, env={**os.environ, "LANG": "C"})
    assert run.returncode == 0, run.stderr[-2000:]
    return {"dom": run.stdout, "log": run.stderr, "shot": shot}


def console_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if ":CONSOLE" in line]


def test_chromium_renders_the_page(rendered):
    dom = rendered["dom"]
    assert "<h1>rulelearn report: fake</h1>" in dom
    assert dom.count("<table>") >= 5 and dom.count('src="data:image/png;base64,') >= 5
    assert HOSTILE not in dom and "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert "<script" not in dom  # the hostile name stayed text


def test_chromium_screenshot_is_not_blank(rendered):
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(rendered["shot"]).convert("L"), dtype=float)
    assert pixels.shape == (1600, 1200)
    assert pixels.std() > 10  # text, tables and figures, not a blank page
    assert (pixels < 100).mean() > 0.005  # some dark ink: the text


def test_chromium_logs_no_console_message(rendered):
    # the page has no script: any console line is an error (a blocked load, a CSP violation)
    assert console_lines(rendered["log"]) == []


def test_the_console_check_sees_a_blocked_load(tmp_path):
    """The check above can fail: the page's own policy blocking an outside image is a console
    line."""
    exe = chromium()
    if exe is None:
        pytest.skip(NO_BROWSER)
    page = tmp_path / "bad.html"
    page.write_text(f'<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" '
                    f'content="{html_report.CSP}"></head><body>'
                    f'<img src="http://192.0.2.1/x.png"></body></html>')
    lines = console_lines(open_in_chromium(exe, page, tmp_path)["log"])
    assert len(lines) == 1 and "violates the following Content Security Policy" in lines[0]


# ------------------------------------------------------------------ the Markdown the page embeds

#: What the renderer may write: these tags, and no attribute but a link's in-page href.
MARKDOWN_TAGS = {"code", "em", "strong", "a", "p", "ul", "ol", "li", "table", "thead", "tbody",
                 "tr", "th", "td"}


def assert_inert(fragment):
    found = tags(fragment)
    assert {t for t, _ in found} <= MARKDOWN_TAGS, found
    for tag, attrs in found:
        assert set(attrs) <= ({"href"} if tag == "a" else {"class"}), (tag, attrs)
        if tag == "a":
            assert attrs["href"].startswith("#"), attrs
        if "class" in attrs:
            assert attrs["class"] == "l"


def test_markdown_inline_renders_code_emphasis_and_in_page_links():
    md = html_report.md_inline
    assert md("(`t1 < x <= t2` is 2 literals)") == \
        "(<code>t1 &lt; x &lt;= t2</code> is 2 literals)"
    assert md("*agrees*: |ours - paper| <= 2") == "<em>agrees</em>: |ours - paper| &lt;= 2"
    assert md("**bold** and *it*") == "<strong>bold</strong> and <em>it</em>"
    assert md("see [Tables](#tables)") == 'see <a href="#tables">Tables</a>'
    # an outside target is shown, never linked: the page links nowhere outside itself
    assert md("[docs](https://example.org/x)") == "docs (https://example.org/x)"
    # what is not Markdown stays as written
    assert md("2 * 3 * 4, SEM_ours^2, a*b, snake_case_name") == \
        "2 * 3 * 4, SEM_ours^2, a*b, snake_case_name"
    assert md(r"\*not emphasis\* and \`not code\`") == "*not emphasis* and `not code`"
    assert md("`` a `tick` inside ``") == "<code>a `tick` inside</code>"


def test_markdown_blocks_paragraphs_lists_and_tables():
    text = ("Intro `x`\ncontinued.\n\n- one *a*\n  wrapped\n- two\n\n1. first\n2. second\n\n"
            "| name | value |\n|:-----|------:|\n| `a` | 1 |\n| b \\| c | 2 |")
    assert html_report.md_block(text) == (
        "<p>Intro <code>x</code> continued.</p>"
        "<ul><li>one <em>a</em> wrapped</li><li>two</li></ul>"
        "<ol><li>first</li><li>second</li></ol>"
        '<table><thead><tr><th class="l">name</th><th>value</th></tr></thead><tbody>'
        '<tr><td class="l"><code>a</code></td><td>1</td></tr>'
        '<tr><td class="l">b | c</td><td>2</td></tr></tbody></table>')
    assert html_report.md_block("Text:\n- a\n- b") == "<p>Text:</p><ul><li>a</li><li>b</li></ul>"
    assert html_report.md_block("# not a heading\n> nor a quote") == \
        "<p># not a heading &gt; nor a quote</p>"


HOSTILE_MARKDOWN = [
    HOSTILE, RULE, f"`{HOSTILE}`", f"*{HOSTILE}*", f"**{RULE}**", f"[{HOSTILE}](#x)",
    '[a](#x"onmouseover="alert(1))', "[a](javascript:alert(1))", "[a](java\tscript:x)",
    "[a](//evil.example/x.png)", f"- {HOSTILE}\n- `{RULE}`", f"| {HOSTILE} |\n|---|\n| {RULE} |",
    "<a href='https://evil.example'>x</a>", "&lt;script&gt; &amp;", "\x00\x1b[31m<b>",
    "*`<i>`*", "[`<img src=x>`](#a)", "**[*<svg onload=alert(1)>*](#b)**"]


@pytest.mark.parametrize("text", HOSTILE_MARKDOWN)
def test_markdown_stays_inert_under_hostile_text(text):
    for render in (html_report.md_inline, html_report.md_block):
        out = render(text)
        assert_inert(out)
        assert "<script" not in out and "<img" not in out and "<svg" not in out


def test_markdown_on_text_built_to_be_slow_stays_linear():
    """Openers without closers: a search that looks for a closer from each opener over the
    whole text would take minutes here; the renderer's spans are bounded."""
    for text in ("**a " * 30000, "`" * 60000, "*a" * 40000 + "*", "[a" * 30000,
                 "[x](" * 30000, "`a " * 30000):
        out = html_report.md_block(text)
        assert_inert(out)
        assert len(out) >= len(text) // 2


def test_the_page_renders_its_markdown_and_shows_no_raw_markup(tmp_path):
    folder = results_folder(tmp_path)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    config["description"] = (f"A run of `bcd` on *three* tables {HOSTILE}.\n\n- first point\n"
                             f"- second `{RULE}`")
    config["paper"] = True  # the side-by-side with the paper's numbers: its *agrees* rule
    (folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    page = html_report.build_report(folder, figures=False)
    assert "<p>A run of <code>bcd</code> on <em>three</em> tables &lt;script&gt;" in page
    assert f"<li>second <code>{html_report.esc(RULE)}</code></li>" in page
    assert "(<code>t1 &lt; x &lt;= t2</code> is 2 literals, 1 feature)" in page
    assert "<em>agrees</em>: |ours - paper|" in page
    assert "`" not in page and "*agrees*" not in page
    found = [t for t, _ in tags(page)]
    assert "script" not in found and "img" not in found


# ------------------------------------------------------------------ what a reader sees, once


def test_a_one_dataset_run_has_no_ranks_and_no_tests_over_datasets(tmp_path):
    page = html_report.build_report(results_folder(tmp_path, datasets=("magic",)),
                                    figures=False)
    assert "Average rank" not in page and 'class="rank"' not in page
    assert 'id="stats"' not in page and 'href="#stats"' not in page
    assert "Friedman" not in page and "Wilcoxon" not in page
    assert "One dataset: no average ranks" in page
    assert "Paired differences" in page  # per dataset: still meaningful


def test_ranks_need_two_datasets_every_method_completes(tmp_path):
    folder = results_folder(tmp_path, skip={(1, "sc"), (2, "cart")})  # only magic complete
    page = html_report.build_report(folder, figures=False)
    assert "Average rank" not in page
    assert "No average ranks: they need 2 or more datasets where every method is complete " \
           "(1 here)." in page
    assert "Friedman test: not computed" in page  # the section says why


def test_missing_cells_are_listed_once_and_a_dataset_without_records_in_one_line(tmp_path):
    folder = results_folder(tmp_path, datasets=("magic", "pima", "sonar", "wdbc"),
                            skip={(2, "sc"), (3, "bcd"), (3, "sc"), (3, "cart")})
    page = html_report.build_report(folder, figures=False)
    assert page.count("sonar / SC: no records") == 1
    assert page.count("wdbc / every method: no records") == 1
    assert "wdbc / BCD" not in page and "missing: " not in page
    rules = page.split('id="rules"')[1]
    assert "wdbc" not in rules and "no ok record" not in rules  # said once, above


def test_the_page_says_how_the_diagram_and_wilcoxon_holm_can_disagree(tmp_path):
    page = html_report.build_report(results_folder(tmp_path), figures=False)
    assert page.count("The diagram and the Wilcoxon–Holm table below are different tests and "
                      "can disagree: Nemenyi compares average ranks over all 3 methods") == 2


def test_the_disagreement_sentence_names_the_pairs():
    f = stats.Friedman(column="error_mean", n_datasets=6, n_methods=3,
                       ranks={"A": 1.0, "B": 3.0, "C": 2.0}, statistic=7.0, p_value=0.03,
                       cd=1.5)
    w = pd.DataFrame({"method": ["A", "A", "B"], "versus": ["B", "C", "C"],
                      "p_holm": [0.20, 0.50, 0.01]})
    text = html_report._two_tests(f, w)
    assert text.endswith("for all 3 pairs (here the diagram separates A–B, which Wilcoxon–Holm "
                         "does not; Wilcoxon–Holm separates B–C, which the diagram joins).")
    w["p_holm"] = [0.01, 0.5, 0.5]  # they agree: no pair named
    assert html_report._two_tests(f, w).endswith("for all 3 pairs.")


# ---------------------------------------------------------------------------- example rules


def test_example_rules_are_in_the_if_or_layout_folded_per_dataset(tmp_path):
    folder = results_folder(tmp_path)
    path = folder / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for rec in recs:
        if rec["method"] == "bcd":
            rec["positive"] = "yes"
            rec["rule_json"] = {"form": "dnf", "clauses": [
                [{"feature": "a", "op": ">", "value": 1}, {"feature": HOSTILE, "op": "<=",
                                                           "value": 2}],
                [{"feature": "c", "op": "==", "value": "x"}]]}
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    page = html_report.build_report(folder, figures=False)
    rules = page.split('id="rules"')[1]
    assert rules.count("<details>") == 3 and rules.count("<summary>") == 3
    assert "<summary>pima (3 methods)</summary>" in rules
    shown = html_report.esc("IF  1. a > 1 AND\n       ")
    assert shown in rules and html_report.esc("OR  2. c == 'x'\nTHEN predict yes") in rules
    assert HOSTILE not in rules


def test_ripper_rule_sets_take_the_same_layout():
    layout = html_report.rule_layout
    ripper = {"method_name": "ripper", "positive": 1,
              "rule": "[[a=<1e-05] V [b=0.0042-0.005^c=>262.4] V [d=-6.7--5.2]]"}
    assert layout(ripper) == ("IF  1. a=<1e-05\n"
                              "OR  2. b=0.0042-0.005 AND\n"
                              "       c=>262.4\n"
                              "OR  3. d=-6.7--5.2\n"
                              "THEN predict 1")
    assert layout({**ripper, "rule": "[]"}) == "never predict 1 (empty rule set)"
    assert layout({**ripper, "rule": "not a rule set"}) is None  # shown as written
    tree = {"method_name": "cart", "rule": "|--- a <= 1\n|   |--- class: 0\n"}
    assert layout(tree) is None
    damaged = {"method_name": "bcd", "rule_json": {"form": "xnf"}, "rule": "a > 1"}
    assert layout(damaged) is None  # the text as written


def test_a_long_rule_is_cut_at_a_line_boundary():
    tree = "".join(f"|   |--- feature_{i} <= {i}.5\n" for i in range(200))
    shown, note = html_report.cut_rule(tree, max_lines=40, max_chars=3000)
    lines = shown.split("\n")
    assert len(lines) == 40 and all(line in tree.splitlines() for line in lines)
    assert note == f"… cut here: 200 lines and {len(tree):,} characters in all (160 more " \
                   "lines in records.jsonl)"
    shown, note = html_report.cut_rule(tree, max_lines=1000, max_chars=500)
    assert len(shown) <= 500 and tree.startswith(shown + "\n")  # whole lines only
    one = "x > 1 OR " * 1000
    shown, note = html_report.cut_rule(one, max_chars=100)
    assert one.startswith(shown) and shown.endswith("OR") and len(shown) <= 100
    assert note.startswith("… cut here: 9,000 characters in all")
    assert html_report.cut_rule("a\nb") == ("a\nb", None)


def test_no_figure_that_would_only_say_it_has_nothing(tmp_path):
    """Records without θ paths: a line says so where the θ-path figure (one panel of text)
    was; the trade-off and Pareto figures stay."""
    pytest.importorskip("matplotlib")
    folder = results_folder(tmp_path, datasets=("magic", "pima"))
    path = folder / "records.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "path"}) + "\n"
                            for r in recs))
    page = html_report.build_report(folder)
    assert "No θ path to draw: the records were written before θ paths were stored" in page
    alts = [a["alt"] for t, a in tags(page) if t == "img"]
    assert not [a for a in alts if a.startswith("θ paths")]
    assert [a for a in alts if a.startswith("Test error against size")]
    assert [a for a in alts if a.startswith("Pareto fronts")]
