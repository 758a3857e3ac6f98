"""The README and the documentation site: the README's length, the pages' examples run as shown,
and the built site renders in headless Chromium with no broken internal link.

The examples: every ```python block of a page runs, the page's blocks in order in one namespace;
every ```console block's ``$ command`` runs in a shell, and each output line the page shows
(``...`` stands for lines left out) must be printed by it, in order. Both run in an empty
temporary folder. The site is built once per session into a temporary folder with ``make
docs``'s options (or, when ``docs/_build/html`` is newer than every source, read from there);
those tests skip, saying why, without Sphinx or Chromium.
"""

from __future__ import annotations

import html.parser
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted([README, *(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)])

_FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)


def blocks(page: Path, language: str) -> list[str]:
    """The bodies of the page's fenced blocks of ``language``, in order."""
    text = page.read_text(encoding="utf-8")
    return [body for lang, body in _FENCE.findall(text) if lang == language]


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


# ------------------------------------------------------------------------------------ README

def test_the_readme_stays_a_front_door_under_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move detail into docs/"


def test_the_readme_shows_both_installs_and_the_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    assert "pip install -e .  " in text and 'pip install -e ".[test]"' in text
    setup = blocks(README, "bash")[1].splitlines()
    assert setup[0].startswith('python3 -m venv .venv && . .venv/bin/activate && pip install -e '
                               '".[test]" && make quick')
    assert setup[1].startswith("make test")


def test_no_line_of_prose_starts_with_a_percent_sign():
    """MyST reads a line starting with ``%`` as a comment: a wrapped ``17.4 (0.2)\n% against``
    would vanish from the site without a warning."""
    for page in PAGES:
        prose = _FENCE.sub("", page.read_text(encoding="utf-8"))
        assert not [line for line in prose.splitlines() if line.lstrip().startswith("%")], page


# --------------------------------------------------------------------------- python examples

PYTHON_PAGES = [p for p in PAGES if blocks(p, "python")]


def test_the_pages_with_python_examples_are_found():
    found = {page_id(p) for p in PYTHON_PAGES}
    assert {"README.md", "docs/getting-started.md", "docs/guide/python.md",
            "docs/guide/rule-lists.md", "docs/guide/certificates.md"} <= found


@pytest.mark.slow
@pytest.mark.parametrize("page", PYTHON_PAGES, ids=page_id)
def test_a_pages_python_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = "\n".join(blocks(page, "python"))
    exec(compile(source, str(page), "exec"), {"__name__": "__docs__"})


# -------------------------------------------------------------------------- console examples

def console_steps(body: str) -> list[tuple[str, list[str]]]:
    """``(command, shown output lines)`` of a console block; ``...`` lines are left out."""
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip() != "...":
            steps[-1][1].append(line.rstrip())
        elif not steps:
            raise ValueError(f"console block output before any command: {line!r}")
    return steps


def missing_lines(shown: list[str], stdout: str, stderr: str) -> list[str]:
    """The shown lines not printed, in order, on stdout or on stderr."""
    streams = [[line.rstrip() for line in stdout.splitlines()],
               [line.rstrip() for line in stderr.splitlines()]]
    at = [0, 0]
    missing = []
    for line in shown:
        for k, lines in enumerate(streams):
            if line in lines[at[k]:]:
                at[k] = lines.index(line, at[k]) + 1
                break
        else:
            missing.append(line)
    return missing


def test_console_steps_and_missing_lines_read_a_block_as_shown():
    steps = console_steps("$ a\none\n...\ntwo\n$ b  # note\n")
    assert steps == [("a", ["one", "two"]), ("b  # note", [])]
    assert missing_lines(["one", "two"], "one\nx\ntwo\n", "") == []
    assert missing_lines(["two", "one"], "one\ntwo\n", "") == ["one"]  # order matters
    assert missing_lines(["err", "out"], "out\n", "err\n") == []  # either stream
    with pytest.raises(ValueError, match="before any command"):
        console_steps("output\n$ a\n")


CONSOLE_PAGES = [p for p in PAGES if blocks(p, "console")]


def test_the_pages_with_console_examples_are_found():
    assert {"README.md", "docs/getting-started.md", "docs/guide/fit-a-csv.md"} <= {
        page_id(p) for p in CONSOLE_PAGES}


@pytest.mark.slow
@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=page_id)
def test_a_pages_console_examples_print_what_it_shows(page, tmp_path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for body in blocks(page, "console"):
        for command, shown in console_steps(body):
            run = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True,
                                 text=True, timeout=600)
            assert run.returncode == 0, f"{command}\n{run.stderr[-2000:]}"
            assert missing_lines(shown, run.stdout, run.stderr) == [], (
                f"{command}\n--- stdout\n{run.stdout}\n--- stderr\n{run.stderr}")


# ---------------------------------------------------------------------------- the built site

def _sources_newest() -> float:
    files = [README, ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"]
    files += [p for p in DOCS.rglob("*") if p.is_file() and "_build" not in p.parts
              and "_generated" not in p.parts and not p.name.startswith("_config")]
    files += list((ROOT / "rulelearn").rglob("*.py"))
    return max(p.stat().st_mtime for p in files)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built site: ``docs/_build/html`` when newer than every source, else built now with
    ``make docs``'s options (about 20 CPU s)."""
    built = DOCS / "_build" / "html" / "index.html"
    if built.is_file() and built.stat().st_mtime > _sources_newest():
        return built.parent
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install -e '.[docs]')")
    for extension in ("numpydoc", "sphinx_click", "myst_parser", "furo"):
        pytest.importorskip(extension, reason=f"{extension} is not installed "
                                              "(pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q",
                          "-b", "html", "-d", str(out / ".doctrees"), str(DOCS), str(out)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    return out


class _Links(html.parser.HTMLParser):
    """A page's ids and the targets of its links (``href``, ``src``)."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.targets: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("id", "name") and value:
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link")) or (name == "src" and tag in (
                    "img", "script")):
                if value:
                    self.targets.append(value)


def broken_links(site: Path) -> list[str]:
    """Every internal link of the site's pages whose file or ``#fragment`` does not exist."""
    pages = {}
    for page in site.rglob("*.html"):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        pages[page.resolve()] = parser
    broken = []
    for page, parser in sorted(pages.items()):
        for target in parser.targets:
            parts = urllib.parse.urlsplit(target)
            if parts.scheme or parts.netloc or target.startswith("mailto:"):
                continue  # outside the site
            path = (page.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path \
                else page
            if path.is_dir():
                path = path / "index.html"
            where = f"{page.relative_to(site.resolve())}: {target}"
            if not path.exists():
                broken.append(where)
            elif parts.fragment and path.suffix == ".html":
                ids = pages[path].ids if path in pages else set()
                if urllib.parse.unquote(parts.fragment) not in ids:
                    broken.append(where)
    return broken


def test_the_link_check_sees_a_missing_page_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#here">b</a><a href="c.html">c</a>'
                                     '<a href="b.html#gone">b</a><a href="https://x.org/">x</a>')
    (tmp_path / "b.html").write_text('<h1 id="here">b</h1><a href="a.html">a</a>')
    assert broken_links(tmp_path) == ["a.html: c.html", "a.html: b.html#gone"]


def test_the_site_has_every_page_and_no_broken_internal_link(site):
    for page in ("index", "getting-started", "guide/fit-a-csv", "guide/python",
                 "guide/rule-lists", "guide/parameters", "guide/certificates", "guide/benchmark",
                 "guide/datasets", "guide/many-rows-and-dask", "reference/cli", "reference/api",
                 "reference/config", "reference/modules", "explanation/method", "performance",
                 "results", "changelog", "contributing"):
        assert (site / f"{page}.html").is_file(), page
    assert broken_links(site) == []


def test_the_cli_reference_documents_every_command_and_option(site):
    import click

    from rulelearn.cli import COMMANDS, main

    text = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        commands = [command] + list(getattr(command, "commands", {}).values())
        for each in commands:
            for param in each.params:
                for opt in getattr(param, "opts", []):
                    if opt.startswith("--") and not getattr(param, "hidden", False):
                        assert opt in text, (name, each.name, opt)


def test_the_api_reference_links_every_public_name(site):
    import rulelearn

    text = (site / "reference" / "api.html").read_text(encoding="utf-8")
    for name in rulelearn.__all__:
        if not name.startswith("_") and name != "MODEL_FORMAT_VERSION":
            assert re.search(rf'href="[^"]*#rulelearn\.[\w.]*{name}"', text), name


# ------------------------------------------------------------------------- in a real browser

def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


RENDERED = ("index", "getting-started", "guide/fit-a-csv", "guide/benchmark", "reference/cli",
            "reference/api", "results")


@pytest.mark.slow
@pytest.mark.parametrize("page", RENDERED)
def test_chromium_renders_the_page(site, page, tmp_path):
    exe = _chromium()
    if exe is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium; "
                    ".ci/run installs it where apt-get is available)")
    pytest.importorskip("PIL")
    import numpy as np
    from PIL import Image

    shot = tmp_path / "shot.png"
    run = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'p'}",
         "--enable-logging=stderr", "--v=0", "--window-size=1200,1600", f"--screenshot={shot}",
         "--dump-dom", (site / f"{page}.html").resolve().as_uri()],
        capture_output=True, text=True, timeout=120, env={**os.environ, "LANG": "C"})
    assert run.returncode == 0, run.stderr[-2000:]
    dom = run.stdout
    assert re.search(r"<h1>[^<]+<a class=\"headerlink\"", dom), "no title rendered"
    assert 'class="sidebar-tree"' in dom  # the theme's navigation was built
    assert [line for line in run.stderr.splitlines() if ":CONSOLE" in line] == []
    pixels = np.asarray(Image.open(shot).convert("L"), dtype=float)
    assert pixels.std() > 10 and (pixels < 100).mean() > 0.005  # text on the page, not blank
