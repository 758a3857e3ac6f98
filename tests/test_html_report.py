"""``rulelearn report``: one self-contained, inert HTML page of a results folder, checked as text
and in a real browser (headless Chromium; those tests skip, saying why, where it is absent)."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser

import pytest
import yaml
from click.testing import CliRunner

from rulelearn.bench import html_report, report, store
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
    assert "pareto: no (dataset, method) with an ok record for every outer fold" in page
    assert "Test error against size" in page and page.count("<img") == 2  # trade-off, paths


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
