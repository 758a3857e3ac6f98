"""Model files: a fitted rule saved as JSON and loaded back (the format only; applying a model
to a CSV file is :mod:`rulelearn.csv_predict`).

A model file holds the rule (its literals name the user's own columns and values), the target
column, the two class labels, the estimator's parameters, θ and a few facts about the training
data::

    {"format": "rulelearn-model", "format_version": 1, "rulelearn_version": "0.1.0",
     "rule": {...}, "target": "status", "positive": 1, "negative": 0, "classes": [0, 1],
     "features": [...], "params": {...}, "theta": 0.73,
     "training": {"n_samples": 195, "accuracy": 0.92, "n_literals": 7, "n_clauses": 3},
     "proba": {"clause_precision": [0.95, 0.81, 0.7], "default_precision": 0.12},
     "created": "2024-05-01T12:00:00+00:00"}

``sums`` (only in a model fitted with derived columns, ``fit --sum``): ``[{"name": "total",
"columns": ["day", "eve"]}, ...]``; each is computed again from those columns before the rule
is applied (:func:`rulelearn.binarize.add_sums`), so a CSV to predict on needs those columns,
not the derived ones.

How ``rulelearn fit`` read its CSV file, so that ``predict`` and the exports read a file the
same way: ``missing_values`` (the cell values read as missing), ``reading`` (``{"sep": ";",
"decimal": ","}``: the separator given with ``--sep``, null where it was found from the file,
and the decimal mark; :func:`rulelearn.data.parse.with_decimal_point`) and ``sums``. A file
without them was read with the defaults (:data:`~rulelearn.data.parse.DEFAULT_MISSING`, a
decimal point, the separator found from the file).

``proba`` (the training precisions behind :mod:`rulelearn.proba`) is absent from files written
before it existed: such a model predicts as before, and :meth:`LoadedModel.predict_proba` says
that the file has no probabilities.

Labels are stored as JSON values of their own type (an integer label stays an integer, a
string label a string) and are matched to a CSV's text by value or by text, as the estimator
does. Prediction from a model file needs only the :class:`~rulelearn.rules.Rule`: it reads the
columns the rule uses, by name (:mod:`rulelearn.csv_predict` from the raw CSV cells).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from rulelearn import MODEL_FORMAT_VERSION, __version__
from rulelearn._io import atomic_write_text, to_native
from rulelearn._labels import same_label
from rulelearn._utils import accuracy
from rulelearn.errors import DataError, ModelFileError, ParameterError, RuleError
from rulelearn.proba import RuleProba
from rulelearn.rules import Rule, explain

if TYPE_CHECKING:  # the rule-list module loads scikit-learn: imported where a list is read
    from rulelearn.rule_list import RuleList

#: The ``format`` entry of every model file.
FORMAT_NAME = "rulelearn-model"
#: The ``kind`` entry of a rule-list model file (a binary model's file has no ``kind``).
RULE_LIST_KIND = "rule-list"


# ------------------------------------------------------------------------------------------ saving

def model_dict(estimator, *, target: str, positive=None, X=None, y=None, extra=None) -> dict:
    """The JSON document :func:`save_model` writes (see the module docstring).

    ``positive`` defaults to the estimator's ``pos_label_`` and must match it if given.
    With ``X`` and ``y`` (the training data), ``training`` also records the number of rows
    and the training accuracy. ``extra``: more top-level entries (they may not replace ours).
    A fitted :class:`~rulelearn.cv_estimator.BooleanRuleClassifierCV` is saved as its refit
    (``best_estimator_``), with what its CV did in ``cv_selection`` (as ``fit --save`` does).
    """
    if hasattr(estimator, "best_estimator_") and hasattr(estimator, "selection_"):
        extra = {"cv_selection": estimator.selection_.to_dict(), **(extra or {})}
        return model_dict(estimator.best_estimator_, target=target, positive=positive, X=X,
                          y=y, extra=extra)
    if hasattr(estimator, "rule_list_"):  # a multi-class model (rulelearn.rule_list)
        if positive is not None:
            raise ParameterError("a rule list has no positive class: leave positive out")
        return rule_list_dict(estimator, target=target, X=X, y=y, extra=extra)
    rule = getattr(estimator, "rule_", None)
    if not isinstance(rule, Rule):
        raise ParameterError("save_model needs a fitted BooleanRuleClassifier (no rule_ yet)")
    pos = estimator.pos_label_
    if positive is not None and not same_label(positive, pos):
        raise ParameterError(f"positive={positive!r} is not the estimator's positive class "
                             f"{pos!r}")
    for where, why in _non_finite(rule, getattr(estimator, "theta", None)):
        raise ParameterError(f"cannot save the model: {where} {why}; a model file holds "
                             "finite numbers only")
    classes = [to_native(c) for c in estimator.classes_]
    negative = next(c for c in classes if not same_label(c, to_native(pos)))
    training = _training_entry(estimator, X, y, rule)
    names = getattr(estimator, "feature_names_in_", None)
    doc = {
        "format": FORMAT_NAME,
        "format_version": MODEL_FORMAT_VERSION,
        "rulelearn_version": __version__,
        "rule": rule.to_dict(),
        "target": str(target),
        "positive": to_native(pos),
        "negative": negative,
        "classes": classes,
        "features": None if names is None else [str(n) for n in names],
        "params": to_native(estimator.get_params()),
        "theta": float(estimator.theta),
        "training": training,
        **_proba_entry(estimator),
        **_sums_entry(estimator),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return _with_extra(doc, extra)


def rule_list_dict(estimator, *, target: str, X=None, y=None, extra=None) -> dict:
    """The model file of a fitted :class:`~rulelearn.rule_list.BooleanRuleListClassifier`.

    Format version 1 with ``"kind": "rule-list"``; ``rule_list`` holds the steps (label, rule
    and the setting it was learned with) and the ``ELSE`` label. A rulelearn without rule lists
    refuses such a file (it has no ``rule``).
    """
    rule_list = estimator.rule_list_
    for i, rule in enumerate(rule_list.rules, 1):
        for where, why in _non_finite(rule, None):
            raise ParameterError(f"cannot save the model: step {i}, {where} {why}; a model "
                                 "file holds finite numbers only")
    entry = rule_list.to_dict()
    for step, model in zip(entry["steps"], estimator.steps_):
        step["setting"] = None if model is None else {
            "form": model.form, "max_rules": int(model.max_rules), "theta": float(model.theta),
            "n_thresholds": int(model.n_thresholds)}
    training = _training_entry(estimator, X, y, rule_list)
    names = getattr(estimator, "feature_names_in_", None)
    doc = {
        "format": FORMAT_NAME,
        "format_version": MODEL_FORMAT_VERSION,
        "kind": RULE_LIST_KIND,
        "rulelearn_version": __version__,
        "rule_list": entry,
        "target": str(target),
        "classes": [to_native(c) for c in estimator.classes_],
        "features": None if names is None else [str(n) for n in names],
        "params": {"order": to_native(estimator.order),
                   "estimator": to_native(estimator.template().get_params())},
        "training": training,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return _with_extra(doc, extra)


def _training_entry(estimator, X, y, rule) -> dict:
    """The model file's ``training`` entry: rows and accuracy (None without the data), and the
    size of ``rule`` (a rule or a rule list)."""
    training: dict[str, object] = {"n_samples": None, "accuracy": None}
    if X is not None and y is not None:
        training = {"n_samples": int(len(y)), "accuracy": accuracy(estimator, X, y)}
    training.update(n_literals=rule.n_literals, n_clauses=rule.n_clauses)
    return training


def _sums_entry(estimator) -> dict:
    from rulelearn.binarize import check_sums

    pairs = check_sums(getattr(estimator, "sums", None))
    return {"sums": [{"name": n, "columns": list(c)} for n, c in pairs]} if pairs else {}


def _document_sums(doc: dict, bad) -> tuple:
    from rulelearn.binarize import check_sums

    entry = doc.get("sums")
    if entry is None:
        return ()
    try:
        if not isinstance(entry, list) or not all(isinstance(e, dict) for e in entry):
            raise ParameterError("not a list of objects")
        pairs = check_sums({e.get("name"): e.get("columns") for e in entry})
    except (ParameterError, TypeError) as exc:
        raise bad(f"bad sums: {exc}") from None
    if len(pairs) < len(entry):
        raise bad("bad sums: two sums of the same name")
    return pairs


def _with_extra(doc: dict, extra) -> dict:
    """``doc`` with the caller's ``extra`` entries added; none may replace one of its own."""
    for key, value in (extra or {}).items():
        if key in doc:
            raise ParameterError(f"extra entry {key!r} would replace a model-file entry")
        doc[key] = to_native(value)
    return doc


def _proba_entry(estimator) -> dict:
    precision = getattr(estimator, "clause_precision_", None)
    if precision is None:
        return {}
    return {"proba": {"clause_precision": [float(p) for p in precision],
                      "default_precision": float(estimator.default_precision_)}}


def _is_finite(value) -> bool:
    """A real number (not a bool) that is finite, also as a float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer beyond float's range
        return False


def _non_finite(rule: Rule, theta):
    """``(where, why)`` for each number in ``rule``, and ``theta``, that is not finite."""
    for i, clause in enumerate(rule.clauses, 1):
        for j, literal in enumerate(clause.literals, 1):
            value = literal.value
            if isinstance(value, (bool, np.bool_, str)) or value is None or _is_finite(value):
                continue
            what = "threshold" if literal.op in ("<=", ">") else "value"
            yield f"clause {i}, literal {j} ({literal})", f"has the {what} {value!r}"
    if theta is not None and not _is_finite(theta):
        yield "theta", f"is {theta!r}"


def model_json(estimator, *, target: str, positive=None, X=None, y=None, extra=None) -> str:
    """:func:`model_dict` as the text of a model file."""
    doc = model_dict(estimator, target=target, positive=positive, X=X, y=y, extra=extra)
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def save_model(estimator, path, *, target: str, positive=None, X=None, y=None,
               extra=None) -> Path:
    """Write a fitted estimator's rule to ``path`` as a model file; returns the path.

    Written atomically (:func:`write_text_atomic`): a reader never sees half a file.
    ``OSError`` (e.g. the folder does not exist) is raised as is. Arguments as in
    :func:`model_dict`.
    """
    text = model_json(estimator, target=target, positive=positive, X=X, y=y, extra=extra)
    return write_text_atomic(path, text)


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` atomically; the folder must exist (a typo is an error, not a new folder).

    A link is written through (the file it points to is replaced, not the link). A path that
    is not a regular file, such as ``/dev/null``, ``/dev/stdout`` or a named pipe, is written to
    directly: replacing it would put a regular file in its place.
    """
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()
    if path.exists() and not path.is_file() and not path.is_dir():
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path
    return atomic_write_text(path, text, make_parents=False)


# ----------------------------------------------------------------------------------------- loading

@dataclass(frozen=True)
class LoadedModel:
    """A model file, validated. ``predict`` needs only the columns in ``features``."""

    rule: Rule
    target: str
    positive: object
    negative: object
    theta: float | None
    method: str | None
    training: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    rulelearn_version: str = ""
    created: str = ""
    path: str = ""
    #: Cell values read as missing in training (None: the defaults).
    missing_values: tuple | None = None
    #: Training precisions for :meth:`predict_proba` (None in files from before them).
    proba: RuleProba | None = None
    #: The training data file, as ``rulelearn fit`` recorded it.
    data: str | None = None
    #: Derived columns, ``((name, (column, ...)), ...)``: each the sum of those columns.
    sums: tuple = ()
    #: The separator given when the training file was read (None: found from the file).
    sep: str | None = None
    #: The decimal mark of the training file's numbers (``"."`` or ``","``).
    decimal: str = "."

    @property
    def form(self) -> str:
        return self.rule.form

    @property
    def features(self) -> list[str]:
        """The columns the rule reads (the only ones a CSV to predict on needs); a derived
        sum's columns stand for it."""
        from rulelearn.binarize import sum_features

        return sum_features(self.rule.features, dict(self.sums))

    def with_sums(self, X: pd.DataFrame) -> pd.DataFrame:
        """``X`` with the derived columns the rule reads (:func:`rulelearn.binarize.add_sums`);
        a sum the rule does not read is not computed, so its columns need not be there."""
        from rulelearn.binarize import add_sums

        read = set(self.rule.features)
        used = {name: parts for name, parts in self.sums if name in read}
        return add_sums(X, used) if used else X

    @property
    def classes(self) -> list:
        """The two labels in the estimator's ``classes_`` order (sorted, as ``np.unique``
        sorts them): the columns of :meth:`predict_proba`."""
        try:
            return sorted([self.negative, self.positive])
        except TypeError:  # labels of two types, which an estimator cannot have been fitted on
            return [self.negative, self.positive]

    def missing_columns(self, columns) -> list[str]:
        present = set(map(str, columns))
        return [name for name in self.features if name not in present]

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels (object array): ``positive`` where the rule holds, ``negative`` elsewhere.

        Raises :class:`DataError` naming every column of the rule that ``X`` lacks.
        """
        absent = self.missing_columns(X.columns)
        if absent:
            raise DataError(f"the data lacks {_plural(len(absent), 'column')} the rule uses: "
                            f"{', '.join(map(repr, absent))}")
        held = self.rule.evaluate(self.with_sums(X))
        out = np.empty(len(held), dtype=object)
        out[:] = [self.positive if h else self.negative for h in held]
        return out

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        """Per row, the probability of each class, columns ordered as :attr:`classes` (as the
        estimator's ``predict_proba``; see :mod:`rulelearn.proba`); ``argmax`` is the
        prediction (a tie at 0.5 is moved by one ulp, as the estimator does).

        Raises :class:`ModelFileError` for a file written before model files held them.
        """
        if self.proba is None:
            raise ModelFileError(f"{self.path or 'the model'} holds no clause precisions for its "
                                 "rule (written by an older rulelearn, or the rule was edited), "
                                 "so no probabilities: fit it again")
        self.predict(X[:0])  # the columns check
        held, positive = self.proba.decide(self.rule, self.with_sums(X))
        if same_label(self.classes[1], self.positive):
            second, predicted_second = positive, held
        else:
            second, predicted_second = 1 - positive, ~held
        second = np.where(predicted_second & (second <= 0.5), np.nextafter(0.5, 1.0), second)
        return np.column_stack([1 - second, second])

    def explain(self, X: pd.DataFrame) -> list[str]:
        """Per row, the literals that decided it (:func:`rulelearn.rules.explain_rows`): a
        DNF's first clause that holds, else each clause's first literal that fails; a CNF's
        first clause that fails, else each clause's first literal that holds."""
        self.predict(X[:0])
        return list(explain(self.rule, self.with_sums(X)))


@dataclass(frozen=True)
class LoadedRuleList:
    """A rule-list model file, validated (see :mod:`rulelearn.rule_list`)."""

    rule_list: RuleList
    target: str
    #: Per step, the setting it was learned with (form, max_rules, theta, ...), or None.
    settings: tuple = ()
    training: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    rulelearn_version: str = ""
    created: str = ""
    path: str = ""
    missing_values: tuple | None = None
    data: str | None = None
    sep: str | None = None
    decimal: str = "."
    proba = None  #: a rule list has no probabilities

    @property
    def features(self) -> list[str]:
        return self.rule_list.features

    @property
    def classes(self) -> list:
        """The labels in list order, the ``ELSE`` label last."""
        return self.rule_list.classes

    def missing_columns(self, columns) -> list[str]:
        present = set(map(str, columns))
        return [name for name in self.features if name not in present]

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels (object array): the label of the first rule that holds, else the ``ELSE``."""
        absent = self.missing_columns(X.columns)
        if absent:
            raise DataError(f"the data lacks {_plural(len(absent), 'column')} the rules use: "
                            f"{', '.join(map(repr, absent))}")
        return self.rule_list.predict(X)


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def _is_label(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, (str, int, bool))


def load_model(path) -> LoadedModel | LoadedRuleList:
    """Read and validate a model file written by :func:`save_model`.

    Raises :class:`ModelFileError` when the file cannot be read, is not a rulelearn model
    file, or has a model-format version this rulelearn does not read.
    """
    path = Path(path)
    doc = _read_model_document(path)
    bad = _not_a_model_file(path)
    if "kind" in doc:
        if doc["kind"] != RULE_LIST_KIND:
            raise bad(f"unknown kind {doc['kind']!r}")
        return _load_rule_list(doc, path, bad)
    rule = _document_rule(doc, bad)
    for key in ("target", "positive", "negative"):
        if key not in doc:
            raise bad(f"no {key!r} entry")
    target, positive, negative = doc["target"], doc["positive"], doc["negative"]
    if not isinstance(target, str) or not target:
        raise bad(f"bad target {target!r}")
    sums = _document_sums(doc, bad)
    if any(name == target or target in parts for name, parts in sums):
        raise bad(f"bad sums: a sum names or adds up the target {target!r}")
    if not (_is_label(positive) and _is_label(negative)) or same_label(positive, negative):
        raise bad(f"bad class labels {positive!r} and {negative!r}")
    common = _common_entries(doc, bad)
    params = common["params"]
    method = params.get("method")
    if method is not None and not isinstance(method, str):
        raise bad(f"bad params.method {method!r}")
    theta = doc.get("theta")
    if theta is not None and (not _is_finite(theta) or theta < 0):
        raise bad(f"bad theta {theta!r} (a finite number >= 0)")
    return LoadedModel(rule=rule, target=target, positive=positive, negative=negative,
                       theta=None if theta is None else float(theta), method=method,
                       path=str(path), proba=_document_proba(doc, rule, bad),
                       sums=sums, **common)


def _common_entries(doc: dict, bad) -> dict:
    """The entries that every model file may have, validated: keyword arguments of the loaded
    model (``training``, ``params``, versions, ``missing_values``, ``data``)."""
    for key, kind in (("params", dict), ("training", dict), ("classes", list),
                      ("features", list), ("rulelearn_version", str), ("created", str)):
        if doc.get(key) is not None and not isinstance(doc[key], kind):
            raise bad(f"bad {key} {doc[key]!r}")
    missing = doc.get("missing_values")
    if missing is not None and (not isinstance(missing, list)
                                or not all(isinstance(m, str) for m in missing)):
        raise bad(f"bad missing_values {missing!r}")
    data = doc.get("data")
    return {"training": doc.get("training") or {}, "params": doc.get("params") or {},
            "rulelearn_version": str(doc.get("rulelearn_version", "unknown")),
            "created": str(doc.get("created", "")),
            "missing_values": None if missing is None else tuple(missing),
            "data": data if isinstance(data, str) else None, **_document_reading(doc, bad)}


def _document_reading(doc: dict, bad) -> dict:
    """The ``reading`` entry, validated: ``{"sep": ..., "decimal": ...}`` (defaults without
    it)."""
    from rulelearn.data.parse import DECIMAL_MARKS

    entry = doc.get("reading")
    if entry is None:
        return {"sep": None, "decimal": "."}
    if not isinstance(entry, dict) or set(entry) - {"sep", "decimal"}:
        raise bad(f"bad reading {entry!r} (an object with sep and decimal)")
    sep, decimal = entry.get("sep"), entry.get("decimal", ".")
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n"):
        raise bad(f"bad reading.sep {sep!r} (one character, or null)")
    if decimal not in DECIMAL_MARKS:
        raise bad(f"bad reading.decimal {decimal!r} (one of {', '.join(map(repr, DECIMAL_MARKS))})")
    return {"sep": sep, "decimal": decimal}


def _load_rule_list(doc: dict, path: Path, bad) -> LoadedRuleList:
    from rulelearn.rule_list import RuleList

    try:
        rule_list = RuleList.from_dict(doc.get("rule_list"))
    except RuleError as exc:
        raise bad(f"bad rule list: {exc}") from None
    labels = rule_list.classes
    if not all(map(_is_label, labels)) or any(
            same_label(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]):
        raise bad(f"bad class labels {labels!r} (distinct texts, numbers or booleans)")
    for i, rule in enumerate(rule_list.rules, 1):
        for where, why in _non_finite(rule, None):
            raise bad(f"bad rule list: step {i}, {where} {why}; thresholds must be finite")
    target = doc.get("target")
    if not isinstance(target, str) or not target:
        raise bad(f"bad target {target!r}")
    settings = [step.get("setting") for step in doc["rule_list"]["steps"]]
    if not all(s is None or isinstance(s, dict) for s in settings):
        raise bad("bad rule list: a step's setting is not an object")
    return LoadedRuleList(rule_list=rule_list, target=target, settings=tuple(settings),
                          path=str(path), **_common_entries(doc, bad))


def _document_proba(doc: dict, rule: Rule, bad) -> RuleProba | None:
    entry = doc.get("proba")
    if entry is None:
        return None

    def probability(value) -> bool:
        return _is_finite(value) and 0 <= value <= 1
    precision = entry.get("clause_precision") if isinstance(entry, dict) else None
    default = entry.get("default_precision") if isinstance(entry, dict) else None
    if (not isinstance(precision, list) or not all(map(probability, precision))
            or not probability(default)):
        raise bad(f"bad proba {entry!r} (clause_precision: a list of probabilities; "
                  "default_precision: a probability)")
    if len(precision) != rule.n_clauses:  # the rule was edited: its precisions are unknown
        return None
    return RuleProba(tuple(float(p) for p in precision), float(default))  # type: ignore[arg-type]


def _not_a_model_file(path):
    def bad(why):
        return ModelFileError(f"{path} is not a rulelearn model file ({why})")
    return bad


def _read_model_document(path: Path) -> dict:
    """The JSON document of a model file whose format and version this rulelearn reads."""
    from rulelearn.data.files import MAX_MODEL_BYTES, read_bounded

    bad = _not_a_model_file(path)

    def binary(first: bytes) -> None:
        if b"\x00" in first and not first.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise bad("binary data: it holds NUL bytes")

    raw = read_bounded(path, limit=MAX_MODEL_BYTES, what="model file", error=ModelFileError,
                       check=binary)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad("not UTF-8 text") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise bad(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise bad("not JSON that can be read: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise bad(f"not JSON that can be read: {_first_clause(exc)}") from None
    surrogate = _lone_surrogate(doc)
    if surrogate is not None:
        raise bad(f"a lone surrogate \\u{ord(surrogate):04x} in a string: not Unicode text")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise bad(f"no \"format\": \"{FORMAT_NAME}\" entry")
    version = doc.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise bad(f"bad format_version {version!r}")
    written_by = doc.get("rulelearn_version", "unknown")
    if version > MODEL_FORMAT_VERSION:
        raise ModelFileError(
            f"{path} has model format version {version} (written by rulelearn {written_by}); "
            f"this rulelearn {__version__} reads version {MODEL_FORMAT_VERSION}: upgrade rulelearn")
    if version != MODEL_FORMAT_VERSION:
        raise ModelFileError(
            f"{path} has model format version {version} (written by rulelearn {written_by}); "
            f"this rulelearn {__version__} reads only version {MODEL_FORMAT_VERSION}: fit the "
            f"model again")
    return doc


def _first_clause(exc: Exception) -> str:
    return str(exc).split(";")[0].strip()


def _lone_surrogate(value) -> str | None:
    """The first lone surrogate (``"\\ud800"`` in JSON) in any string of ``value``, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError as exc:
                    return item[exc.start]
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _document_rule(doc: dict, bad) -> Rule:
    if "rule" not in doc:
        raise bad("no rule")
    try:
        rule = Rule.from_dict(doc["rule"])
    except RuleError as exc:
        raise bad(f"bad rule: {exc}") from None
    for where, why in _non_finite(rule, None):
        raise bad(f"bad rule: {where} {why}; thresholds must be finite numbers")
    return rule
