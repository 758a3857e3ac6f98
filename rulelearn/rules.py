"""Rules as values: literals, clauses and two-level rules (CNF / DNF).

A :class:`Literal` is a test on one column of the user's data (``age <= 54.5``,
``thal == 'fixed'``, ``chol is missing``). A :class:`Clause` is a tuple of
literals, joined by OR in a CNF rule and by AND in a DNF rule. A :class:`Rule`
is a form and a tuple of clauses; it evaluates on a DataFrame, counts its size,
prints in the user's own names and thresholds, and round-trips through JSON.

Missing values: every comparison with a missing value is false (``x <= t``,
``x > t``, ``x == v`` and ``x != v`` are all false where ``x`` is missing);
only ``x is missing`` is true there. The binarizer adds the missing literals
for every column that had missing values in training.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rulelearn.errors import DataError

_OPS = ("<=", ">", "==", "!=", "is missing", "is not missing")
_NEGATION = {"<=": ">", ">": "<=", "==": "!=", "!=": "==",
             "is missing": "is not missing", "is not missing": "is missing"}


def _format_value(value) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


@dataclass(frozen=True)
class Literal:
    """A test on one column: ``feature op value``."""

    feature: str
    op: str
    value: object = None

    def __post_init__(self):
        if self.op not in _OPS:
            raise ValueError(f"unknown literal operator {self.op!r}; expected one of {_OPS}")

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: where the literal holds on the rows of ``X``."""
        column = _column(X, self.feature)
        missing = column.isna().to_numpy()
        if self.op == "is missing":
            return missing
        if self.op == "is not missing":
            return ~missing
        if self.op in ("<=", ">"):
            values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
            with np.errstate(invalid="ignore"):
                held = values <= self.value if self.op == "<=" else values > self.value
            return held & ~np.isnan(values)
        if pd.api.types.is_numeric_dtype(column) and isinstance(self.value, (int, float, np.number)):
            equal = column.to_numpy(dtype=float) == float(self.value)
        else:
            values = column.astype(object).to_numpy()
            equal = np.array([values_equal(v, self.value) for v in values], dtype=bool)
        return (equal if self.op == "==" else ~equal) & ~missing

    def negate(self) -> "Literal":
        """The literal with the opposite test (exact on non-missing values)."""
        return Literal(self.feature, _NEGATION[self.op], self.value)

    def __str__(self) -> str:
        if self.op.startswith("is "):
            return f"{self.feature} {self.op}"
        return f"{self.feature} {self.op} {_format_value(self.value)}"

    def to_dict(self) -> dict:
        value = self.value
        if isinstance(value, np.generic):
            value = value.item()
        return {"feature": self.feature, "op": self.op, "value": value}

    @classmethod
    def from_dict(cls, data: dict) -> "Literal":
        return cls(str(data["feature"]), str(data["op"]), data.get("value"))

    @classmethod
    def parse(cls, text: str) -> "Literal":
        """Parse ``"age <= 54.5"``, ``"sex == 'male'"`` or ``"chol is missing"``."""
        text = text.strip()
        for op in ("is not missing", "is missing"):
            if text.endswith(" " + op):
                return cls(text[: -len(op) - 1].strip(), op)
        match = re.match(r"^(.*?)\s+(<=|>|==|!=)\s+(.+)$", text)
        if not match:
            raise ValueError(f"cannot parse a literal from {text!r}")
        feature, op, raw = match.groups()
        return cls(feature.strip(), op, _parse_value(raw.strip()))


def _column(X: pd.DataFrame, feature: str) -> pd.Series:
    """The column named ``feature``; a non-string name (``0``) matches its string (``"0"``)."""
    if feature in X.columns:
        return X[feature]
    for name in X.columns:
        if str(name) == feature:
            return X[name]
    raise DataError(f"the data has no column {feature!r}, which the rule uses")


def values_equal(a, b) -> bool:
    """Equality of a data value and a literal's value; missing is never equal."""
    if _is_missing(a):
        return False
    if a == b:
        return True
    try:  # '7' in a CSV read as text versus 7.0 in a saved rule
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def _is_missing(value) -> bool:
    """None, NaN (any float type), ``pd.NA`` and ``pd.NaT``; never raises."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    try:
        return bool(isinstance(value, (float, np.floating)) and math.isnan(value))
    except TypeError:
        return False


def _parse_value(raw: str):
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        try:  # the exact inverse of repr(), which printed it (backslashes, tabs, quotes)
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = None
        return value if isinstance(value, str) else raw[1:-1].replace("\\'", "'")
    if raw in ("True", "False"):
        return raw == "True"
    if re.fullmatch(r"[+-]?\d+", raw):  # exact, even beyond 2**53
        return int(raw)
    try:
        return float(raw)
    except ValueError:
        return raw


@dataclass(frozen=True)
class Clause:
    """A tuple of literals; OR-ed in a CNF rule, AND-ed in a DNF rule."""

    literals: tuple[Literal, ...]

    def evaluate(self, X: pd.DataFrame, join: str) -> np.ndarray:
        """Where the clause holds; ``join`` is ``"or"`` or ``"and"``."""
        if not self.literals:  # empty OR is false, empty AND is true
            return np.full(len(X), join == "and")
        held = [literal.evaluate(X) for literal in self.literals]
        return np.logical_or.reduce(held) if join == "or" else np.logical_and.reduce(held)

    def __len__(self) -> int:
        return len(self.literals)

    def render(self, join: str) -> str:
        if not self.literals:
            return "TRUE" if join == "and" else "FALSE"
        return f" {join.upper()} ".join(str(literal) for literal in self.literals)


@dataclass(frozen=True)
class Rule:
    """A two-level rule: ``form="dnf"`` is an OR of AND-clauses, ``"cnf"`` an AND of OR-clauses.

    Only enabled clauses are stored: a rule with no clause is the empty DNF
    (always false, predicts the negative class) or the empty CNF (always true).
    """

    form: str
    clauses: tuple[Clause, ...]

    def __post_init__(self):
        if self.form not in ("cnf", "dnf"):
            raise ValueError(f"form must be 'cnf' or 'dnf', got {self.form!r}")

    @property
    def _inner(self) -> str:
        return "and" if self.form == "dnf" else "or"

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: True where the rule predicts the positive class."""
        if not self.clauses:
            return np.full(len(X), self.form == "cnf")
        held = [clause.evaluate(X, self._inner) for clause in self.clauses]
        return np.logical_or.reduce(held) if self.form == "dnf" else np.logical_and.reduce(held)

    @property
    def n_clauses(self) -> int:
        """Number of enabled clauses."""
        return len(self.clauses)

    @property
    def n_literals(self) -> int:
        """Total literals over the enabled clauses: the paper's "number of features"."""
        return sum(len(clause) for clause in self.clauses)

    @property
    def features(self) -> list[str]:
        """The distinct data columns the rule reads, in first-use order."""
        return list(dict.fromkeys(lit.feature for clause in self.clauses for lit in clause.literals))

    def __str__(self) -> str:
        if not self.clauses:
            return "FALSE" if self.form == "dnf" else "TRUE"
        outer = " OR " if self.form == "dnf" else " AND "
        parts = [clause.render(self._inner) for clause in self.clauses]
        if len(parts) == 1:
            return parts[0]
        return outer.join(f"({part})" for part in parts)

    def describe(self, positive=None, target: str | None = None) -> str:
        """Several lines in the style of the paper's Parkinson's example."""
        outcome = f"{target} = {positive}" if target else f"predict {positive!s}"
        if positive is None:
            outcome = "predict positive"
        if not self.clauses:
            never = "never" if self.form == "dnf" else "always"
            return f"{never} {outcome} (empty {self.form.upper()} rule)"
        outer = "OR" if self.form == "dnf" else "AND"
        inner = f" {self._inner.upper()}\n" + " " * 7
        lines = []
        for number, clause in enumerate(self.clauses, 1):
            body = inner.join(str(lit) for lit in clause.literals) or clause.render(self._inner)
            lead = "IF" if number == 1 else outer
            lines.append(f"{lead:<3} {number}. {body}")
        lines.append(f"THEN {outcome}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"form": self.form,
                "clauses": [[lit.to_dict() for lit in clause.literals] for clause in self.clauses]}

    @classmethod
    def from_dict(cls, data: dict) -> "Rule":
        clauses = tuple(Clause(tuple(Literal.from_dict(lit) for lit in clause))
                        for clause in data["clauses"])
        return cls(str(data["form"]), clauses)

    @classmethod
    def parse(cls, text: str, form: str) -> "Rule":
        """Parse the one-line form printed by ``str(rule)`` (names must not contain ' AND '/' OR ')."""
        text = text.strip()
        if text == str(cls(form, ())):
            return cls(form, ())
        outer, inner = (" OR ", " AND ") if form == "dnf" else (" AND ", " OR ")
        pieces = [p.strip() for p in re.split(r"\)\s*" + outer.strip() + r"\s*\(", text)]
        if len(pieces) > 1:
            pieces[0] = pieces[0].lstrip("(")
            pieces[-1] = pieces[-1].rstrip(")")
        clauses = []
        for piece in pieces:
            if piece in ("TRUE", "FALSE"):
                clauses.append(Clause(()))
            else:
                clauses.append(Clause(tuple(Literal.parse(p) for p in piece.split(inner))))
        return cls(form, tuple(clauses))
