"""Rules as values: literals, clauses and two-level rules (CNF / DNF).

A :class:`Literal` is a test on one column of the user's data (``age <= 54.5``,
``thal == 'fixed'``, ``chol is missing``). A :class:`Clause` is a tuple of
literals, joined by OR in a CNF rule and by AND in a DNF rule. A :class:`Rule`
is a form and a tuple of clauses; it evaluates on a DataFrame, counts its size,
prints in the user's own names and thresholds, and round-trips through JSON.

Neighbouring literals on one column print together (:meth:`Clause.pieces`): ``1 < x <= 3``,
``tier not in {'bronze', 'silver'}`` in an AND, ``tier in {'gold', 'platinum'}`` in an OR;
:meth:`Rule.parse` reads them back to the same literals. A set or a range is false on a missing
value, as each of its literals is.

Column names print as they are unless they could be misread: a name that is empty, has quotes,
backticks, leading/trailing or non-space whitespace, starts with ``(``, or holds an operator or
AND/OR as a word (``a <= b``) prints in backticks, a backtick doubled (```a <= b` <= 0.23``), and
:meth:`Literal.parse` / :meth:`Rule.parse` read that form back.

Missing values: every comparison with a missing value is false (``x <= t``,
``x > t``, ``x == v`` and ``x != v`` are all false where ``x`` is missing);
only ``x is missing`` is true there. The binarizer adds the missing literals
for every column that had missing values in training.
"""

from __future__ import annotations

import ast
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rulelearn.errors import DataError, RuleError

_OPS = ("<=", ">", "==", "!=", "is missing", "is not missing")
_NEGATION = {"<=": ">", ">": "<=", "==": "!=", "!=": "==",
             "is missing": "is not missing", "is not missing": "is missing"}


#: An operator or AND/OR as a whole word, or a clause separator: such a name must be quoted.
#: Also ``<`` as a word (a range ``1 < x <= 3``), braces and a last word ``not`` (a set
#: ``x not in {'a', 'b'}``).
_AMBIGUOUS = re.compile(r"(^|\s)(<=|<|>|==|!=|AND|OR|is(\s+not)?\s+missing)(\s|$)"
                        r"|\)\s*(AND|OR)\s*\(|['\"`{}]|\snot$")
_LITERAL_KEYS = frozenset({"feature", "op", "value"})


def _needs_quotes(name: str) -> bool:
    return (name == "" or name != name.strip() or name.startswith("(")
            or any((c.isspace() and c != " ") or not c.isprintable() for c in name)
            or _AMBIGUOUS.search(name) is not None)


def format_name(name: str) -> str:
    """A column name as printed in a rule: as is, or in backticks.

    In backticks a backtick is doubled, a backslash is written ``\\\\`` and a character that
    does not print (a newline, a tab, ...) as its escape (``\\n``, ``\\t``, ``\\x00``), so that a
    rule always prints on one line.
    """
    if not _needs_quotes(name):
        return name
    body = "".join(c if c.isprintable() and c != "\\" else _escape(c) for c in name)
    return f"`{body.replace('`', '``')}`"


def _escape(char: str) -> str:
    special = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    if char in special:
        return special[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000
                                                  else f"\\U{code:08x}")


_ESCAPE = re.compile(r"\\(\\|n|t|r|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")


def _unescape(body: str) -> str:
    def one(match):
        code = match.group(1)
        return {"\\": "\\", "n": "\n", "t": "\t", "r": "\r"}.get(code) or chr(int(code[1:], 16))
    return _ESCAPE.sub(one, body)


def _mask_quoted(text: str) -> str:
    """``text`` with each quoted part (a `name`, a 'string' or "string" value) replaced by ``_``.

    Separators and operators are then searched in the mask, so that they are found only outside
    quotes; the mask has the length of ``text``, so its positions slice ``text``.
    """
    out, i, n = list(text), 0, len(text)
    while i < n:
        quote = text[i]
        if quote not in "`'\"":
            i += 1
            continue
        j = i + 1
        while j < n:
            if text[j] == quote:
                if quote == "`" and j + 1 < n and text[j + 1] == "`":  # doubled: a backtick
                    j += 2
                    continue
                break
            j += 2 if text[j] == "\\" and quote != "`" else 1
        end = min(j, n - 1)
        out[i:end + 1] = "_" * (end + 1 - i)
        i = end + 1
    return "".join(out)


def _read_quoted_name(text: str) -> tuple[str, str]:
    """``(name, rest)`` from text starting with a backtick-quoted name."""
    chars, i = [], 1
    while i < len(text):
        if text[i] == "`":
            if text[i + 1:i + 2] == "`":
                chars.append("`")
                i += 2
                continue
            return _unescape("".join(chars)), text[i + 1:]
        chars.append(text[i])
        i += 1
    raise RuleError(f"cannot parse a literal from {text!r}: the name's closing backtick is missing")


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _as_float(value) -> float:
    try:
        return float(value)
    except OverflowError:  # an integer beyond float's range
        return math.inf if value > 0 else -math.inf


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
        if not isinstance(self.feature, str):
            raise RuleError(f"a literal's feature must be a column name (a string), "
                            f"got {self.feature!r}")
        if not isinstance(self.op, str) or self.op not in _OPS:
            raise RuleError(f"unknown literal operator {self.op!r}; expected one of "
                            f"{', '.join(map(repr, _OPS))}")
        value, where = self.value, f"{format_name(self.feature)} {self.op}"
        if self.op.startswith("is "):
            if value is not None:
                raise RuleError(f"{where} takes no value, got {value!r}")
        elif self.op in ("<=", ">") and not _is_number(value):
            raise RuleError(f"the threshold of {where} must be a number, got {value!r}")
        elif not (_is_number(value) or isinstance(value, (str, bool, np.bool_))):
            raise RuleError(f"the value of {where} must be a string, number or boolean, "
                            f"got {value!r}")
        if _is_number(value) and math.isnan(_as_float(value)):
            raise RuleError(f"the {'threshold' if self.op in ('<=', '>') else 'value'} of "
                            f"{where} is NaN")

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: where the literal holds on the rows of ``X``."""
        column = feature_column(X, self.feature)
        missing = column.isna().to_numpy()
        if self.op == "is missing":
            return missing
        if self.op == "is not missing":
            return ~missing
        if self.op in ("<=", ">"):
            values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
            threshold = _as_float(self.value)
            with np.errstate(invalid="ignore"):
                held = values <= threshold if self.op == "<=" else values > threshold
            return held & ~np.isnan(values)
        numeric_value = isinstance(self.value, (int, float, np.number))
        if pd.api.types.is_numeric_dtype(column) and numeric_value:
            equal = column.to_numpy(dtype=float) == _as_float(self.value)
        else:
            equal = _equal_cells(column.astype(object).to_numpy(), self.value)
        return (equal if self.op == "==" else ~equal) & ~missing

    def negate(self) -> "Literal":
        """The literal with the opposite test (exact on non-missing values)."""
        return Literal(self.feature, _NEGATION[self.op], self.value)

    def __str__(self) -> str:
        if self.op.startswith("is "):
            return f"{format_name(self.feature)} {self.op}"
        return f"{format_name(self.feature)} {self.op} {_format_value(self.value)}"

    def to_dict(self) -> dict:
        value = self.value
        if isinstance(value, np.generic):
            value = value.item()
        return {"feature": self.feature, "op": self.op, "value": value}

    @classmethod
    def from_dict(cls, data: dict) -> "Literal":
        """The literal of ``{"feature": ..., "op": ..., "value": ...}``; RuleError if malformed."""
        if not isinstance(data, dict):
            raise RuleError(f"a literal must be an object with 'feature', 'op' and 'value', "
                            f"got {data!r}")
        absent = [key for key in ("feature", "op") if key not in data]
        if absent:
            raise RuleError(f"the literal has no {' or '.join(map(repr, absent))} entry")
        unknown = sorted(set(map(str, data)) - _LITERAL_KEYS)
        if unknown:
            raise RuleError(f"the literal has unknown entr{'ies' if len(unknown) > 1 else 'y'} "
                            f"{', '.join(map(repr, unknown))}")
        return cls(data["feature"], data["op"], data.get("value"))

    @classmethod
    def parse(cls, text: str) -> "Literal":
        """Parse ``"age <= 54.5"``, ``"sex == 'male'"``, ``"chol is missing"`` or
        ``"`a <= b` <= 0.23"`` (a quoted name, as :func:`format_name` prints it)."""
        text = text.strip()
        if text.startswith("`"):
            feature, rest = _read_quoted_name(text)
            match = re.fullmatch(r"\s+(is not missing|is missing)\s*", rest)
            if match:
                return cls(feature, match.group(1))
            match = re.fullmatch(r"\s+(<=|>|==|!=)\s+(.+?)\s*", rest, flags=re.S)
            if not match:
                raise RuleError(f"cannot parse a literal from {text!r}")
            return cls(feature, match.group(1), _parse_value(match.group(2)))
        for op in ("is not missing", "is missing"):
            if text.endswith(" " + op):
                return cls(text[: -len(op) - 1].strip(), op)
        match = re.match(r"^(.*?)\s+(<=|>|==|!=)\s+(.+)$", _mask_quoted(text), flags=re.S)
        if not match:
            raise RuleError(f"cannot parse a literal from {text!r}")
        return cls(text[:match.end(1)].strip(), match.group(2),
                   _parse_value(text[match.start(3):].strip()))


def _wrapped(masked: str) -> bool:
    """Whether ``masked`` is one parenthesized group: its first ``(`` closes at its end."""
    if not (masked.startswith("(") and masked.endswith(")")):
        return False
    depth = 0
    for i, char in enumerate(masked):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return i == len(masked) - 1
    return False


def feature_column(X: pd.DataFrame, feature: str) -> pd.Series:
    """The column named ``feature``; a non-string name (``0``) matches its string (``"0"``)."""
    if feature in X.columns:
        return X[feature]
    for name in X.columns:
        if str(name) == feature:
            return X[name]
    raise DataError(f"the data has no column {feature!r}, which the rule uses")


def _equal_cells(values: np.ndarray, target) -> np.ndarray:
    """``values_equal(v, target)`` for every cell v. Cells that are all text (or missing) are
    compared once per distinct text (equal texts compare alike: 1M rows, one pass); any
    other mix cell by cell (``1`` and ``True`` are one key to a hash but not to this test)."""
    if pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty"):
        codes, uniques = pd.factorize(values)  # missing cells get code -1: never equal
        hits = np.fromiter((values_equal(u, target) for u in uniques), dtype=bool,
                           count=len(uniques))
        return np.append(hits, False)[codes]
    return np.array([values_equal(v, target) for v in values], dtype=bool)


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
        return f" {join.upper()} ".join(self.pieces(join))

    def pieces(self, join: str) -> list[str]:
        """The clause's literals as printed, neighbours on one column written together:
        in an AND, ``x > 1`` then ``x <= 3`` as ``1 < x <= 3`` and two or more ``x != v`` as
        ``x not in {v, w}``; in an OR, two or more ``x == v`` as ``x in {v, w}``. Only
        literals side by side are joined, in their order, so :meth:`Rule.parse` reads back
        the very same literals (a rule :func:`simplify` leaves has no two bounds of one kind
        on a column)."""
        out, literals, i = [], self.literals, 0
        grouped = "!=" if join == "and" else "=="
        while i < len(literals):
            lit = literals[i]
            j = i + 1
            while (lit.op == grouped and j < len(literals) and literals[j].op == grouped
                   and literals[j].feature == lit.feature):
                j += 1
            if j - i >= 2:
                values = ", ".join(_format_value(x.value) for x in literals[i:j])
                word = "not in" if grouped == "!=" else "in"
                out.append(f"{format_name(lit.feature)} {word} {{{values}}}")
                i = j
                continue
            after = literals[i + 1] if i + 1 < len(literals) else None
            if (join == "and" and lit.op == ">" and after is not None and after.op == "<="
                    and after.feature == lit.feature):
                out.append(f"{_format_value(lit.value)} < {format_name(lit.feature)} <= "
                           f"{_format_value(after.value)}")
                i += 2
                continue
            out.append(str(lit))
            i += 1
        return out


@dataclass(frozen=True)
class Rule:
    """A two-level rule: ``form="dnf"`` is an OR of AND-clauses, ``"cnf"`` an AND of OR-clauses.

    Only enabled clauses are stored: a rule with no clause is the empty DNF
    (always false, predicts the negative class) or the empty CNF (always true).
    """

    form: str
    clauses: tuple[Clause, ...]

    def __post_init__(self):
        if not isinstance(self.form, str) or self.form not in ("cnf", "dnf"):
            raise RuleError(f"form must be 'cnf' or 'dnf', got {self.form!r}")

    @property
    def inner_op(self) -> str:
        """The operator inside each clause: "and" (DNF) or "or" (CNF)."""
        return "and" if self.form == "dnf" else "or"

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: True where the rule predicts the positive class."""
        if not self.clauses:
            return np.full(len(X), self.form == "cnf")
        held = [clause.evaluate(X, self.inner_op) for clause in self.clauses]
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
        return list(dict.fromkeys(lit.feature for clause in self.clauses
                                  for lit in clause.literals))

    def __str__(self) -> str:
        if not self.clauses:
            return "FALSE" if self.form == "dnf" else "TRUE"
        outer = " OR " if self.form == "dnf" else " AND "
        parts = [clause.render(self.inner_op) for clause in self.clauses]
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
        inner = f" {self.inner_op.upper()}\n" + " " * 7
        lines = []
        for number, clause in enumerate(self.clauses, 1):
            body = inner.join(clause.pieces(self.inner_op)) or clause.render(self.inner_op)
            lead = "IF" if number == 1 else outer
            lines.append(f"{lead:<3} {number}. {body}")
        lines.append(f"THEN {outcome}")
        return "\n".join(lines)

    def _flipped(self) -> "Rule":
        """The DNF of each CNF literal negated (De Morgan), for display: see
        :meth:`other_class_text`."""
        return Rule("dnf", tuple(Clause(tuple(lit.negate() for lit in clause.literals))
                                 for clause in self.clauses))

    def other_class_text(self, negative=None, target: str | None = None) -> str | None:
        """A CNF rule read as a DNF for the other class, in :meth:`describe`'s lines, when it
        has no more conditions (pieces, :meth:`Clause.pieces`) than the CNF; else None (and
        for a DNF or an empty CNF).

        ``NOT ((a OR b) AND c)`` is ``(NOT a AND NOT b) OR NOT c``: the same literals, negated
        (``NOT x <= t`` prints ``x > t``), so never more conditions, and fewer where
        ``x <= a OR x > b`` becomes ``a < x <= b``. Exact where the compared values are
        present; a comparison with a missing value (or of a non-number with a threshold)
        fails in the rule, so its negation holds here (the header line of ``fit`` and
        ``show`` says so). For display only: it is not a :class:`Rule`, whose comparisons
        fail on missing values.
        """
        if self.form != "cnf" or not self.clauses:
            return None
        flipped = self._flipped()

        def size(rule):
            return sum(len(clause.pieces(rule.inner_op)) for clause in rule.clauses)
        if size(flipped) > size(self):
            return None
        return flipped.describe(negative, target)

    def to_dict(self) -> dict:
        return {"form": self.form,
                "clauses": [[lit.to_dict() for lit in clause.literals] for clause in self.clauses]}

    @classmethod
    def from_dict(cls, data: dict) -> "Rule":
        """The rule of ``{"form": ..., "clauses": [[literal, ...], ...]}``.

        Raises RuleError naming the entry, clause and literal that is malformed.
        """
        if not isinstance(data, dict):
            raise RuleError(f"a rule must be an object with 'form' and 'clauses', got {data!r}")
        for key in ("form", "clauses"):
            if key not in data:
                raise RuleError(f"the rule has no {key!r} entry")
        if not isinstance(data["clauses"], list):
            raise RuleError(f"the rule's 'clauses' must be a list of clauses, got "
                            f"{data['clauses']!r}")
        clauses = []
        for i, clause in enumerate(data["clauses"], 1):
            if not isinstance(clause, list):
                raise RuleError(f"clause {i} must be a list of literals, got {clause!r}")
            literals = []
            for j, literal in enumerate(clause, 1):
                try:
                    literals.append(Literal.from_dict(literal))
                except RuleError as exc:
                    raise RuleError(f"clause {i}, literal {j}: {exc}") from None
            clauses.append(Clause(tuple(literals)))
        return cls(data["form"], tuple(clauses))

    @classmethod
    def parse(cls, text: str, form: str) -> "Rule":
        """Parse the one-line form printed by ``str(rule)``.

        Separators are looked for outside quoted names and string values only, so every rule
        ``str`` prints parses back to an equal rule.
        """
        text = text.strip()
        if text == str(cls(form, ())):
            return cls(form, ())
        outer, inner = ("OR", " AND ") if form == "dnf" else ("AND", " OR ")
        masked = _mask_quoted(text)
        spans = _between(masked, re.finditer(r"\)\s*" + outer + r"\s*\(", masked))
        if len(spans) > 1:
            (first, a), (b, last) = spans[0], spans[-1]
            if not (masked.startswith("(") and masked.endswith(")")):
                raise RuleError(f"cannot parse a rule from {text!r}: clauses must be in "
                                "parentheses")
            spans[0], spans[-1] = (first + 1, a), (b, last - 1)
        elif _wrapped(masked):  # one clause in parentheses: "(a == 1 AND b > 2)"
            spans = [(spans[0][0] + 1, spans[0][1] - 1)]
        clauses = []
        for start, end in spans:
            piece = text[start:end].strip()
            if piece in ("TRUE", "FALSE"):
                clauses.append(Clause(()))
                continue
            parts = _between(masked[start:end], re.finditer(re.escape(inner), masked[start:end]))
            clauses.append(Clause(tuple(lit for a, b in parts
                                        for lit in _parse_piece(text[start + a:start + b]))))
        return cls(form, tuple(clauses))


_SET = re.compile(r"(.*?)\s+(not\s+in|in)\s+\{(.*)\}", flags=re.S)
_RANGE = re.compile(r"(\S+)\s+<\s+(.+?)\s+<=\s+(\S+)", flags=re.S)


def _parse_piece(text: str) -> list[Literal]:
    """The literals of one piece of a clause as :meth:`Clause.pieces` prints it: a literal,
    ``x in {v, w}``, ``x not in {v, w}`` or ``a < x <= b``."""
    text = text.strip()
    masked = _mask_quoted(text)
    match = _SET.fullmatch(masked)
    if match:
        feature = _piece_name(text[:match.end(1)])
        op = "!=" if match.group(2).startswith("not") else "=="
        body, body_mask = text[match.start(3):match.end(3)], match.group(3)
        values = [_parse_value(body[a:b].strip())
                  for a, b in _between(body_mask, re.finditer(",", body_mask))]
        return [Literal(feature, op, value) for value in values]
    match = _RANGE.fullmatch(masked)
    if match:
        low, high = (_parse_value(text[match.start(k):match.end(k)]) for k in (1, 3))
        if _is_number(low) and _is_number(high):
            feature = _piece_name(text[match.start(2):match.end(2)])
            return [Literal(feature, ">", low), Literal(feature, "<=", high)]
    return [Literal.parse(text)]


def _piece_name(text: str) -> str:
    """A column name as :func:`format_name` prints it, read back."""
    text = text.strip()
    if text.startswith("`"):
        name, rest = _read_quoted_name(text)
        if rest.strip():
            raise RuleError(f"cannot parse a column name from {text!r}")
        return name
    return text


def _between(text: str, matches) -> list[tuple[int, int]]:
    """The spans of ``text`` between the regex ``matches`` (all of it when there are none)."""
    spans, start = [], 0
    for match in matches:
        spans.append((start, match.start()))
        start = match.end()
    return spans + [(start, len(text))]


# --------------------------------------------------------------------------- what decided a row

def explain_rows(rule: Rule, literal_held: list[list[np.ndarray]], n_rows: int) -> np.ndarray:
    """Per row, the literals that decided it (an object array of texts).

    ``literal_held[c][j]``: where literal ``j`` of clause ``c`` holds. DNF: a positive row
    names every literal of the first clause that holds (``true: x > 3; c == 'a'``); a negative
    row, each clause's first literal that fails (``false: x > 3; y == 1``): change one of them
    and that clause could hold. CNF, the dual: a negative row names every literal of the first
    clause that fails, a positive row each clause's first literal that holds. An empty DNF is
    ``no clause``, an empty CNF ``all clauses hold`` (as before: nothing to name). A literal
    named by several clauses is named once.
    """
    dnf = rule.form == "dnf"
    if not rule.clauses:
        return np.full(n_rows, "no clause" if dnf else "all clauses hold", dtype=object)
    join = rule.inner_op
    clause_held = []
    for held in literal_held:
        if not held:
            clause_held.append(np.full(n_rows, join == "and"))
        else:
            clause_held.append(np.logical_and.reduce(held) if dnf
                               else np.logical_or.reduce(held))
    R = len(rule.clauses)
    # column 0: the first clause that holds (DNF) / fails (CNF), R if none; then, per clause,
    # its first literal that fails (DNF) / holds (CNF), -1 if none
    codes = np.empty((n_rows, R + 1), dtype=np.int64)
    codes[:, 0] = R
    for c in reversed(range(R)):
        codes[clause_held[c] if dnf else ~clause_held[c], 0] = c
    for c, held in enumerate(literal_held):
        first = np.full(n_rows, -1)
        for j in reversed(range(len(held))):
            first[~held[j] if dnf else held[j]] = j
        codes[:, c + 1] = first
    decided = codes[:, 0] < R  # DNF: positive rows; CNF: negative rows
    codes[decided, 1:] = -1  # named by column 0 alone
    unique, inverse = np.unique(codes, axis=0, return_inverse=True)
    texts = np.empty(len(unique), dtype=object)
    for u, row in enumerate(unique):
        if row[0] < R:
            clause = rule.clauses[row[0]]
            named = [str(lit) for lit in clause.literals] or [clause.render(join)]
            word = "true" if dnf else "false"
        else:
            named = [str(rule.clauses[c].literals[j]) for c, j in enumerate(row[1:]) if j >= 0]
            word = "false" if dnf else "true"
        texts[u] = f"{word}: {'; '.join(dict.fromkeys(named))}"
    return texts[np.asarray(inverse).ravel()]


def explain(rule: Rule, X: pd.DataFrame) -> np.ndarray:
    """:func:`explain_rows` on the rows of ``X``."""
    held = [[lit.evaluate(X) for lit in clause.literals] for clause in rule.clauses]
    return explain_rows(rule, held, len(X))


# ---------------------------------------------------------------------------------- simplification
#
# Each step below gives the same prediction on every input, missing and non-numeric cells
# included. A literal on a missing cell is false, except ``x is missing``: so ``x <= t`` and
# ``x > t`` are never both true, but may both be false. Only the ``is missing`` pair is true one
# way or the other on every row.

_COMPARISONS = ("<=", ">", "==", "!=")


def _same_value(a: Literal, b: Literal) -> bool:
    return type(a.value) is type(b.value) and a.value == b.value


def implies(a: Literal, b: Literal) -> bool:
    """Wherever ``a`` holds, ``b`` holds (on every input)."""
    if a == b:
        return True
    if a.feature != b.feature:
        return False
    if b.op == "is not missing":
        return a.op in _COMPARISONS
    if a.op == b.op == "<=":
        return bool(a.value <= b.value)  # type: ignore[operator]
    if a.op == b.op == ">":
        return bool(a.value >= b.value)  # type: ignore[operator]
    return False


def exclusive(a: Literal, b: Literal) -> bool:
    """``a`` and ``b`` never hold together (on every input)."""
    if a.feature != b.feature:
        return False
    ops = {a.op, b.op}
    if "is missing" in ops:
        return a.op != b.op
    if ops == {"<=", ">"}:
        low, high = (a, b) if a.op == "<=" else (b, a)
        return bool(high.value >= low.value)  # type: ignore[operator]
    return ops == {"==", "!="} and _same_value(a, b)


def exhaustive_given(a: Literal, b: Literal, given) -> bool:
    """On every row where all literals ``given`` hold, ``a`` or ``b`` holds."""
    if a.feature != b.feature:
        return False
    ops = {a.op, b.op}
    if ops == {"is missing", "is not missing"}:
        return True
    same_column = [g for g in given if g.feature == a.feature]
    if ops == {"<=", ">"}:  # true one way or the other on a number only
        low, high = (a, b) if a.op == "<=" else (b, a)
        return (bool(high.value <= low.value)  # type: ignore[operator]
                and any(g.op in ("<=", ">") for g in same_column))
    if ops == {"==", "!="} and _same_value(a, b):  # on a present value only
        return any(g.op != "is missing" for g in same_column)
    return False


def simplify(rule: Rule) -> Rule:
    """An equal-predicting rule with no redundant literal or clause that the steps below find.

    In a clause: a duplicate literal, or one another literal makes redundant (``x <= 3 AND
    x <= 5`` keeps ``x <= 3``; ``x <= 3 OR x <= 5`` keeps ``x <= 5``); a DNF clause that can
    never hold and a CNF clause that always holds are dropped. Between clauses: a clause whose
    literals imply another's is dropped (DNF: ``A OR (A AND B)`` is ``A``; the dual in CNF), and
    ``A OR (NOT A AND B)`` becomes ``A OR B`` where ``A`` or ``NOT A`` holds on every row that
    the rest of the clause admits (DNF); ``A AND (NOT A OR B)`` becomes ``A AND B`` (CNF: a
    literal and its negation never hold together). ``x > t OR (x <= t AND B)`` is kept as it
    is: on a row missing ``x`` it is false, ``x > t OR B`` could be true.
    """
    dnf = rule.form == "dnf"
    simplified = [_simplify_clause(list(c.literals), dnf) for c in rule.clauses]
    clauses = [c for c in simplified if c is not None]
    changed = True
    while changed:
        changed = False
        clauses = _drop_subsumed(clauses, dnf)
        index = _ClauseIndex(clauses)
        for i, first in enumerate(clauses):
            for j in index.resolution_candidates(first, i, dnf):
                reduced = _resolve(first, clauses[j], dnf)
                if reduced is not None:
                    clauses[j] = reduced
                    changed = True
                    break
            if changed:
                break
    return Rule(rule.form, tuple(Clause(tuple(c)) for c in clauses))


class _ClauseIndex:
    """Which clauses hold a literal, and which a literal on a column, so that the pairs of
    clauses :func:`simplify` compares are only those that can interact (linear in the rule's
    size when clauses share few literals, instead of quadratic in its clauses)."""

    def __init__(self, clauses: list[list[Literal]]):
        self.n = len(clauses)
        self.by_literal: dict[Literal, set[int]] = {}
        self.by_operator: dict[tuple[str, str], set[int]] = {}
        for k, clause in enumerate(clauses):
            for lit in clause:
                self.by_literal.setdefault(lit, set()).add(k)
                self.by_operator.setdefault((lit.feature, lit.op), set()).add(k)

    @staticmethod
    def _all_of(sets) -> set[int]:
        sets = sorted(sets, key=len)
        if not sets:
            return set()
        found = set(sets[0])
        for other in sets[1:]:
            found = {k for k in found if k in other}
            if not found:
                break
        return found

    def resolution_candidates(self, first: list[Literal], i: int, dnf: bool) -> list[int]:
        """The clauses ``j != i`` that :func:`_resolve` may shorten with ``first``: they hold
        every literal of ``first`` but one, ``a``, and a literal ``b`` on ``a``'s column with an
        operator that can complete it (:func:`exhaustive_given`) or exclude it
        (:func:`exclusive`)."""
        partners = _COMPLETING if dnf else _EXCLUDING
        distinct = list(dict.fromkeys(first))
        found: set[int] = set()
        for a in distinct:
            with_b: set[int] = set()
            for op in partners[a.op]:
                with_b |= self.by_operator.get((a.feature, op), set())
            found |= self._all_of([self.by_literal.get(x, set()) for x in distinct if x != a]
                                  + [with_b])
        found.discard(i)
        return sorted(found)


#: The operators of a literal ``b`` that :func:`exhaustive_given` may pair with ``a`` (by op).
_COMPLETING = {"==": ("!=",), "!=": ("==",), "<=": (">",), ">": ("<=",),
               "is missing": ("is not missing",), "is not missing": ("is missing",)}
#: The operators of a literal ``b`` that :func:`exclusive` may pair with ``a`` (by op).
_EXCLUDING = {"==": ("!=", "is missing"), "!=": ("==", "is missing"),
              "<=": (">", "is missing"), ">": ("<=", "is missing"),
              "is missing": ("<=", ">", "==", "!=", "is not missing"),
              "is not missing": ("is missing",)}



def _simplify_clause(literals: list[Literal], dnf: bool) -> list[Literal] | None:
    """The clause without redundant literals; None when it never (DNF) / always (CNF) holds."""
    for i, a in enumerate(literals):
        for b in literals[i + 1:]:
            if (exclusive(a, b) if dnf else exhaustive_given(a, b, ())):
                return None
    kept: list[Literal] = []
    for a in literals:  # AND keeps the stronger of two literals, OR the weaker
        def stronger(x, y):
            return implies(x, y) if dnf else implies(y, x)
        if any(stronger(k, a) for k in kept):
            continue
        kept = [k for k in kept if not stronger(a, k)] + [a]
    return kept


def _drop_subsumed(clauses: list[list[Literal]], dnf: bool) -> list[list[Literal]]:
    """The clauses without one another clause makes redundant (of two equal ones, the later).

    DNF: a clause that implies another (each literal of the other is implied by one of its
    own: ``A OR (A AND B)`` is ``A``). CNF: a clause that another implies.

    Only pairs that can be redundant are compared: a literal other than a threshold or ``is
    not missing`` is implied only by itself, so a clause holding one is compared only with the
    clauses that hold it too; clauses of thresholds only are compared in bulk (numpy), in
    groups of the same columns and operators.
    """
    def redundant(clause, other):  # ``clause`` adds nothing beside ``other``
        if dnf:
            return all(any(implies(a, b) for a in clause) for b in other)
        return all(any(implies(b, a) for a in clause) for b in other)

    bulk = _Thresholds(clauses)
    beside = _pairs_to_compare(clauses, dnf, bulk)
    dropped = bulk.dropped(dnf)
    kept: list[list[Literal]] = []
    for i, clause in enumerate(clauses):
        if i in dropped:
            continue
        if not any(redundant(clause, clauses[j]) and not (redundant(clauses[j], clause) and j > i)
                   for j in sorted(set(beside[i]))):
            kept.append(clause)
    return kept


def _pairs_to_compare(clauses, dnf: bool, bulk: "_Thresholds") -> list[list[int]]:
    """Per clause ``i``, the clauses ``j`` beside which it may be redundant, or it beside them,
    but for the pairs ``bulk`` judges."""
    by_literal: dict[Literal, set[int]] = {}
    by_feature: dict[str, set[int]] = {}
    by_feature_other: dict[str, set[int]] = {}  # clauses not in bulk
    for k, clause in enumerate(clauses):
        for lit in clause:
            by_literal.setdefault(lit, set()).add(k)
            by_feature.setdefault(lit.feature, set()).add(k)
            if k not in bulk.members:
                by_feature_other.setdefault(lit.feature, set()).add(k)
    everyone = set(range(len(clauses)))
    others = everyone - set(bulk.members)
    beside: list[list[int]] = [[] for _ in clauses]
    for j, clause in enumerate(clauses):
        if not clause:  # an empty clause: every clause is compared with it
            candidates = everyone
        elif j in bulk.members:  # the pairs within bulk are judged there
            candidates = _ClauseIndex._all_of([by_feature_other.get(lit.feature, set())
                                               for lit in clause])
        else:
            candidates = _ClauseIndex._all_of([_partners(lit, dnf, by_literal, by_feature)
                                               for lit in clause])
        for i in candidates:
            if i != j and (i in others or j in others or not clause):
                beside[i].append(j)
    return beside


def _partners(b: Literal, dnf: bool, by_literal, by_feature) -> set[int]:
    """The clauses with a literal ``a`` that may imply ``b`` (DNF) or that ``b`` may imply
    (CNF), by :func:`implies`: ``b`` itself, or one on its column."""
    if b.op == "is missing" or (dnf and b.op in ("==", "!=")):
        return by_literal.get(b, set())
    if b.op in ("==", "!="):  # CNF: b implies itself and "is not missing" on its column
        return by_literal.get(b, set()) | by_literal.get(Literal(b.feature, "is not missing"),
                                                         set())
    return by_feature.get(b.feature, set())


class _Thresholds:
    """The clauses made of ``<=`` / ``>`` literals on numbers only (one per column and operator),
    grouped by their (column, operator) keys, for :func:`_drop_subsumed` to compare in bulk."""

    def __init__(self, clauses: list[list[Literal]]):
        self.members: dict[int, tuple] = {}
        self.groups: dict[tuple, list[int]] = {}
        self.values: dict[int, dict] = {}
        for k, clause in enumerate(clauses):
            if not clause:
                continue
            row = {}
            for lit in clause:
                value = lit.value
                if (lit.op not in ("<=", ">") or isinstance(value, bool)
                        or not isinstance(value, (int, float)) or abs(value) >= 2 ** 53):
                    break
                key = (lit.feature, lit.op)
                if key in row:
                    break
                row[key] = float(value) if lit.op == ">" else -float(value)
            else:
                keys = tuple(sorted(row))
                self.members[k] = keys
                self.groups.setdefault(keys, []).append(k)
                self.values[k] = row

    def dropped(self, dnf: bool) -> set[int]:
        """The members that another member makes redundant (see :func:`_drop_subsumed`).

        With each threshold as a number that a stronger literal exceeds (``>`` as it is,
        ``<=`` negated): in a DNF, clause i is redundant beside j when i has every key of j
        with a number at least j's; in a CNF, at most j's."""
        by_key: dict[tuple, set[tuple]] = {}
        for keys in self.groups:
            for key in keys:
                by_key.setdefault(key, set()).add(keys)
        out: set[int] = set()
        for keys_i, rows_i in self.groups.items():
            for keys_j in self._subsets(keys_i, by_key):
                out |= self._judge(keys_i, rows_i, keys_j, self.groups[keys_j], dnf)
        return out

    @staticmethod
    def _subsets(keys_i, by_key) -> list[tuple]:
        """The groups whose keys are all among ``keys_i``."""
        found: set[tuple] = set()
        for key in keys_i:
            found |= by_key.get(key, set())
        chosen = set(keys_i)
        return [keys for keys in found if set(keys) <= chosen]

    def _judge(self, keys_i, rows_i, keys_j, rows_j, dnf) -> set[int]:
        """The rows of group i that a row of group j makes redundant (ties: the later one)."""
        import numpy as np

        columns = list(keys_j)
        wi = np.array([[self.values[r][key] for key in columns] for r in rows_i])
        wj = np.array([[self.values[r][key] for key in columns] for r in rows_j])
        ids_i, ids_j = np.array(rows_i), np.array(rows_j)
        full = set(keys_i) == set(keys_j)  # then j may be redundant beside i as well
        out: set[int] = set()
        block = max(1, 4_000_000 // max(1, len(rows_j) * max(1, len(columns))))
        for start in range(0, len(rows_i), block):
            a, ids = wi[start:start + block, None, :], ids_i[start:start + block, None]
            b = wj[None, :, :]
            if not columns:
                covers = np.ones((a.shape[0], b.shape[1]), dtype=bool)
                back = covers
            else:
                covers = np.all(a >= b, axis=2) if dnf else np.all(a <= b, axis=2)
                back = (np.all(b >= a, axis=2) if dnf else np.all(b <= a, axis=2)) if full \
                    else np.zeros_like(covers)
            hit = covers & (ids != ids_j[None, :]) & ~(back & (ids_j[None, :] > ids))
            out.update(int(r) for r in ids[:, 0][hit.any(axis=1)])
        return out


def _resolve(first: list[Literal], second: list[Literal], dnf: bool) -> list[Literal] | None:
    """``second`` without a literal that ``first`` makes redundant, or None."""
    for a in first:
        rest = [x for x in first if x != a]
        for b in second:
            others = [x for x in second if x != b]
            if not set(rest) <= set(others):
                continue
            if (exhaustive_given(a, b, others) if dnf else exclusive(a, b)):
                return others
    return None
