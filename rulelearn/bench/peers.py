"""Bench methods named by import path: any scikit-learn style classifier.

A method named by import path (``imodels.FIGSClassifier``, ``sklearn.tree.DecisionTreeClassifier``)
is any scikit-learn style classifier (a class with ``fit`` and ``predict``), wrapped by
:class:`ImportedClassifier`. A config is data, and importing runs a module's code: a config names
classes of :data:`TRUSTED_PACKAGES` (installed, not shadowed) or of a prefix the person running it
allows (``bench --allow-import``), checked before anything is imported (:func:`check_allowed`).

* **Input.** Numeric columns as numbers, a missing value replaced by the column's median on the
  training part; each categorical column one-hot encoded (one 0/1 column per category seen in
  training plus one for missing; a category first met at predict time is all zeros).
* **Labels.** The positive class is 1, the other 0 (what most such classifiers expect); their
  predictions are mapped back.
* **Parameters.** ``- imodels.FIGSClassifier: {max_rules: [5, 10]}``: the first parameter given
  as a list is the one the inner CV tunes (ties go to its smaller value, the simpler model for
  max_rules, max_depth, max_leaf_nodes); further lists expand into variants as for every method.
  ``random_state`` is passed when the class takes one and the config does not set it.
* **Size** (the record's ``n_features``, the figures' "literals"), by the first rule that
  applies to the fitted model:

  1. a decision tree (a ``tree_`` of scikit-learn's form): the split conditions on the
     root-to-leaf paths of the leaves that predict the positive class, summed over those
     leaves -- the literals of the DNF the tree is (a condition shared by two positive leaves
     counts twice, as it would in the DNF);
  2. a sum of trees (imodels' FIGS, a ``trees_`` list of nodes with ``left``/``right``): every
     split of every tree, once (imodels' ``complexity_``): each is a condition the score reads;
  3. a rule set or rule list (a ``rules_`` list whose items have ``conds``, or ``rules_`` of
     strings ``"a <= 1 and b > 2"``): the conditions summed over the rules;
  4. a linear model (``coef_``): the non-zero coefficients;
  5. anything else: the number of encoded input columns (a dense model reads all of them).
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from rulelearn.errors import RuleLearnError

#: An import path: dotted identifiers, at least one dot (``module.Class``).
_IMPORT_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


# ----------------------------------------------------------------------------- import paths

def is_import_path(name) -> bool:
    """Whether a config's method name is an import path (``package.module.Class``)."""
    return isinstance(name, str) and bool(_IMPORT_PATH.fullmatch(name))


#: The packages whose classes a config may name without ``bench --allow-import``: scikit-learn,
#: the rule learners the project compares with, and rulelearn itself. Importing a module runs its
#: top-level code, and a config is shared like data, so any other package must be allowed by the
#: person who runs the config (docs: "Benchmarking", the trust model).
TRUSTED_PACKAGES = ("sklearn", "imodels", "wittgenstein", "aix360", "rulelearn")


def _allowed_by(path: str, prefixes) -> str | None:
    """The prefix of ``prefixes`` that covers ``path`` (``a.b`` covers ``a.b.C``, not ``a.bc.C``),
    or None."""
    for prefix in prefixes:
        if path == prefix or path.startswith(prefix + "."):
            return prefix
    return None


def _shadowed(package: str) -> bool:
    """Whether the top-level ``package`` that an import would find is not the installed one (its
    files lie outside the installation directories and it is not rulelearn itself), found
    without running any of it: a module of that name in the working directory or on
    ``PYTHONPATH``. False when there is none (the import then says what to install)."""
    import importlib.util
    import site
    import sysconfig

    try:
        spec = importlib.util.find_spec(package)  # a top-level name: finds, imports nothing
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    places = [spec.origin] if spec.origin else []
    places += list(spec.submodule_search_locations or ())
    if not places:
        return True
    roots = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    roots.update(getattr(site, "getsitepackages", list)())
    roots.add(site.getusersitepackages())
    roots.add(str(Path(__file__).resolve().parents[1]))  # rulelearn's own package
    roots_resolved = [Path(r).resolve() for r in roots if r]
    return not all(any(Path(place).resolve() == r or r in Path(place).resolve().parents
                           for r in roots_resolved) for place in places)


def check_allowed(path: str, allow=()) -> None:
    """:class:`RuleLearnError` (one line) unless a config may import ``path``: under a package of
    :data:`TRUSTED_PACKAGES` that is installed (not a file of the same name elsewhere on the
    import path), or under a prefix of ``allow`` (``bench --allow-import``). Nothing is imported."""
    if not is_import_path(path):
        raise RuleLearnError(f"'{path}' is not an import path such as 'imodels.FIGSClassifier'")
    if _allowed_by(path, allow):
        return
    top = path.partition(".")[0]
    if top not in TRUSTED_PACKAGES:
        raise RuleLearnError(
            f"refused to import '{path}': a config may name classes of "
            f"{', '.join(TRUSTED_PACKAGES)} only; to run code of '{top}', allow it: "
            f"rulelearn bench --allow-import {top}")
    if _shadowed(top):
        raise RuleLearnError(
            f"refused to import '{path}': the '{top}' found first on the import path is not "
            f"the installed package (a file or folder of that name shadows it)")


def resolve(path: str, allow=None) -> type:
    """The classifier class at ``path``; :class:`RuleLearnError` (one line, naming it) if none.

    ``allow``: None when the caller chose ``path`` itself (the Python API); else the import
    prefixes a config's user allowed (:func:`check_allowed` runs before anything is imported).
    """
    if allow is not None:
        check_allowed(path, allow)
    module_name, _, attr = path.rpartition(".")
    if not is_import_path(path):
        raise RuleLearnError(f"'{path}' is not an import path such as 'imodels.FIGSClassifier'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or module_name
        raise RuleLearnError(f"cannot import '{path}': no module '{missing}' (install the "
                             f"package that provides it)") from None
    except Exception as exc:  # noqa: BLE001 - a package that fails on import
        raise RuleLearnError(f"cannot import '{path}': importing '{module_name}' failed "
                             f"({type(exc).__name__}: {exc})") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise RuleLearnError(f"cannot import '{path}': module '{module_name}' has no '{attr}'")
    if not (inspect.isclass(cls) and callable(getattr(cls, "fit", None))
            and callable(getattr(cls, "predict", None))):
        raise RuleLearnError(f"'{path}' is not a classifier class (a class with fit and "
                             f"predict)")
    return cls


class _Encoder:
    """Numeric matrix for a foreign classifier: medians for missing numbers, one-hot categories."""

    def fit(self, X: pd.DataFrame) -> _Encoder:
        X = pd.DataFrame(X)
        self.numeric = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c])]
        self.medians = {c: (float(X[c].median()) if X[c].notna().any() else 0.0)
                        for c in self.numeric}
        self.categories = {c: sorted(map(str, X[c].dropna().unique()))
                           for c in X.columns if c not in self.numeric}
        self.columns = list(X.columns)
        self.names = [str(c) for c in self.numeric] + [
            f"{c}={v}" for c, values in self.categories.items() for v in [*values, "<missing>"]]
        return self

    def transform(self, X: pd.DataFrame) -> np.ndarray:
        X = pd.DataFrame(X)
        parts = [X[c].astype("float64").fillna(self.medians[c]).to_numpy()[:, None]
                 for c in self.numeric]
        for c, values in self.categories.items():
            col = X[c]
            text = col.astype(object).where(col.notna(), None)
            for v in values:
                parts.append((text.map(lambda x, v=v: x is not None and str(x) == v)
                              .to_numpy(dtype="float64"))[:, None])
            parts.append(col.isna().to_numpy(dtype="float64")[:, None])
        if not parts:
            return np.zeros((len(X), 0))
        return np.hstack(parts)


class ImportedClassifier(ClassifierMixin, BaseEstimator):
    """A classifier named by import path, on encoded features (see the module docstring).

    ``params`` are the class's own parameters; ``set_params`` accepts them directly (as the
    inner CV sets the tuned one), besides this wrapper's.
    """

    _parameter_constraints: dict = {}
    _OWN = ("path", "params", "pos_label", "random_state")

    def __init__(self, *, path="", params=None, pos_label=None, random_state=None):
        self.path = path
        self.params = params
        self.pos_label = pos_label
        self.random_state = random_state

    def set_params(self, **params):
        own = {k: params.pop(k) for k in list(params) if k in self._OWN}
        super().set_params(**own)
        if params:
            self.params = {**(self.params or {}), **params}
        return self

    def fit(self, X, y):
        cls = resolve(self.path)
        kwargs = dict(self.params or {})
        if "random_state" in inspect.signature(cls).parameters and "random_state" not in kwargs:
            kwargs["random_state"] = self.random_state
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if self.pos_label is None:
            labels, counts = np.unique(y, return_counts=True)
            self.pos_label_ = labels[int(np.argmin(counts))]
        else:
            self.pos_label_ = self.pos_label
        others = [c for c in self.classes_ if c != self.pos_label_]
        self.neg_label_ = others[0] if others else self.pos_label_
        self.encoder_ = _Encoder().fit(X)
        Z = self.encoder_.transform(X)
        target = (y == self.pos_label_).astype(int)
        self.model_ = cls(**kwargs).fit(Z, target)
        self.n_features_used_ = size(self.model_, Z.shape[1])
        self.n_rules_ = _n_rules(self.model_)
        self.rule_text_ = _text(self.model_, self.encoder_.names)
        return self

    def predict(self, X):
        check_is_fitted(self, "model_")
        hit = np.asarray(self.model_.predict(self.encoder_.transform(X))).astype(float) > 0.5
        return np.where(hit, self.pos_label_, self.neg_label_)


def _tree_of(model):
    tree = getattr(model, "tree_", None)
    return tree if tree is not None and hasattr(tree, "children_left") else None


def tree_literals(tree, positive: int = 1) -> int:
    """Split conditions on the paths to the leaves whose majority class is ``positive`` (index
    into the tree's classes), summed over those leaves."""
    left, right = tree.children_left, tree.children_right
    total = 0
    stack = [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if left[node] == -1:  # a leaf
            if int(np.argmax(tree.value[node][0])) == positive:
                total += depth
        else:
            stack.append((int(left[node]), depth + 1))
            stack.append((int(right[node]), depth + 1))
    return total


def _figs_splits(trees) -> int:
    count = 0
    stack = list(trees)
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if getattr(node, "left", None) is not None or getattr(node, "right", None) is not None:
            count += 1
            stack.extend([node.left, node.right])
    return count


def _rule_conditions(rules) -> int | None:
    total = 0
    for rule in rules:
        conds = getattr(rule, "conds", None) or getattr(rule, "agg_dict", None)
        if conds is not None:
            total += len(conds)
        elif isinstance(rule, str):
            total += len([c for c in re.split(r"\s+and\s+", rule.strip()) if c])
        else:
            return None
    return total


def size(model, n_inputs: int) -> int:
    """The size of a fitted foreign classifier by the rules of the module docstring."""
    tree = _tree_of(model)
    if tree is not None:
        classes = list(getattr(model, "classes_", [0, 1]))
        return tree_literals(tree, classes.index(1) if 1 in classes else len(classes) - 1)
    trees = getattr(model, "trees_", None)
    if isinstance(trees, list) and trees and hasattr(trees[0], "left"):
        return _figs_splits(trees)
    rules = getattr(model, "rules_", None)
    if isinstance(rules, (list, tuple)):
        counted = _rule_conditions(rules)
        if counted is not None:
            return counted
    coef = getattr(model, "coef_", None)
    if coef is not None:
        return int(np.count_nonzero(np.asarray(coef)))
    return int(n_inputs)


def _n_rules(model) -> int:
    tree = _tree_of(model)
    if tree is not None:
        return int(tree.n_leaves)
    trees = getattr(model, "trees_", None)
    if isinstance(trees, list):
        return len(trees)
    rules = getattr(model, "rules_", None)
    return len(rules) if isinstance(rules, (list, tuple)) else 0


def _text(model, names) -> str:
    if _tree_of(model) is not None:
        from sklearn.tree import export_text

        return export_text(model, feature_names=list(names), max_depth=50)[:20000]
    try:
        text = str(model)
    except Exception:  # noqa: BLE001 - the text is a courtesy
        return ""
    # name the encoded columns (X0, X1, ...) as the features they are, longest index first
    for i in sorted(range(len(names)), reverse=True):
        text = re.sub(rf"\bX{i}\b", names[i], text)
    return text[:20000]
