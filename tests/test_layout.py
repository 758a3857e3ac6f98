"""The core does not depend on the benchmark harness or the CLI (nor on yaml and tabulate)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rulelearn"
OUTSIDE_CORE = ("bench", "cli")
HARNESS_ONLY = ("rulelearn.bench", "rulelearn.cli", "yaml", "tabulate")

FIT = """
import json, sys
import numpy as np
import pandas as pd
import rulelearn
import rulelearn.estimator
from rulelearn import BooleanRuleClassifier
from rulelearn.model_selection import fit_select
rng = np.random.default_rng(0)
X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.integers(0, 3, size=60)})
y = (X["a"] > 0).astype(int).to_numpy()
BooleanRuleClassifier(max_rules=2).fit(X, y).predict(X)
fit_select(BooleanRuleClassifier(), X, y, thetas=(0.1, 1.0), rules=(1,), forms=("dnf",), cv=3)
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_and_fitting_leaves_the_harness_alone():
    out = subprocess.run([sys.executable, "-c", FIT], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout.splitlines()[-1])
    leaked = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HARNESS_ONLY)]
    assert leaked == []


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])


def _imported_modules(source: str, package: str) -> set[str]:
    """Every module named by an import statement in ``source``, a module of ``package``
    (relative imports resolved)."""
    tree = ast.parse(source)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_core_modules_never_import_bench_or_cli():
    core = [p for p in PACKAGE.rglob("*.py")
            if p.relative_to(PACKAGE).parts[0] not in OUTSIDE_CORE]
    assert len(core) > 10
    offenders = {}
    for path in core:
        names = _imported_modules(path.read_text(encoding="utf-8"), _package_of(path))
        bad = sorted(name for name in names
                     if any(name == f"rulelearn.{d}" or name.startswith(f"rulelearn.{d}.")
                            for d in OUTSIDE_CORE))
        if bad:
            offenders[str(path.relative_to(PACKAGE))] = bad
    assert offenders == {}


def test_the_static_check_sees_an_import_of_the_harness():
    source = "from rulelearn.bench import store\nfrom ..cli import fit\nimport rulelearn.cli\n"
    names = _imported_modules(source, "rulelearn.learners")
    assert {"rulelearn.bench", "rulelearn.bench.store", "rulelearn.cli",
            "rulelearn.cli.fit"} <= names
    assert _package_of(PACKAGE / "learners" / "clause.py") == "rulelearn.learners"


def test_the_public_names_are_listed_without_importing_the_solver():
    code = ("import sys, rulelearn; names = dir(rulelearn); "
            "print('BooleanRuleClassifier' in names, 'highspy' in sys.modules, "
            "sorted(rulelearn.__all__) == sorted(n for n in rulelearn.__all__ if n in names))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "True"]


def test_the_learners_import_nothing_from_the_bound():
    """The bound (certify.py) sits above the learners: the column generation they share is in
    colgen.py, so nothing under rulelearn/learners/ imports rulelearn.certify."""
    learners = sorted((PACKAGE / "learners").rglob("*.py"))
    assert any(p.name == "cg.py" for p in learners)
    offenders = {}
    for path in learners:
        names = _imported_modules(path.read_text(encoding="utf-8"), _package_of(path))
        bad = sorted(n for n in names if n == "rulelearn.certify"
                     or n.startswith("rulelearn.certify."))
        if bad:
            offenders[str(path.relative_to(PACKAGE))] = bad
    assert offenders == {}
    relative = _imported_modules("from ..certify import lower_bound\n", "rulelearn.learners")
    assert "rulelearn.certify" in relative  # the check sees a relative import too


def test_only_lp_imports_highspy():
    owners = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                    if "highspy" in _imported_modules(p.read_text(encoding="utf-8"),
                                                      _package_of(p)))
    assert owners == ["lp.py"]


def test_each_of_the_column_generation_modules_imports_first():
    """colgen.py, certify.py and learners/cg.py import each other's layers; any of them
    imported first in a fresh process must work (colgen imports the learners' problem where
    it is used, since the learners' package imports learners/cg.py, which imports colgen)."""
    for first in ("rulelearn.colgen", "rulelearn.certify", "rulelearn.learners.cg",
                  "rulelearn.learners.problem"):
        code = (f"import {first}, sys, rulelearn.certify\n"
                "from rulelearn.learners.cg import learn_cg\n"
                "print(learn_cg([[1, 0], [0, 1], [1, 1], [0, 0]], [1, 0, 1, 0], 0.5).terms)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, (first, out.stderr)
        assert out.stdout.strip() == "((0,),)", first
