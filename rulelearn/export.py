"""A saved rule as code: a Python function, a SQL ``CASE`` expression, a pandas query string.

Each predicts as ``rulelearn predict`` does (see :mod:`rulelearn.rules`: every comparison with a
missing value is false, only ``x is missing`` holds there; ``x <= t`` and ``x > t`` are false on
a cell that is not a number; ``x == v`` compares as text when it cannot as numbers), given the
data in the form each expects:

- ``python``: ``predict(row)`` on a dict of one row's cells by column name, as text (a CSV
  reader's cells, stripped; the model's missing-value tokens are missing) or as Python values
  (``None`` and NaN are missing).
- ``sql``: a ``CASE WHEN ... THEN positive ELSE negative END`` expression over a table whose
  missing cells are ``NULL`` and whose columns that the rule compares with numbers are numeric.
- ``pandas``: a ``DataFrame.query`` / ``DataFrame.eval`` string, true where the rule predicts
  the positive class, on a DataFrame read with the model's missing-value tokens as NaN
  (``pd.read_csv(f, na_values=tokens, keep_default_na=False)``), so that the columns the rule
  compares with numbers are numeric.

The rule exported is the model's rule simplified (:func:`rulelearn.rules.simplify`), which
predicts the same on every input.
"""

from __future__ import annotations

import math

from rulelearn.errors import ParameterError
from rulelearn.rules import Literal, Rule, format_name, simplify

FORMATS = ("python", "sql", "pandas")


def export_rule(model, fmt: str) -> str:
    """The text of ``model`` (a :class:`~rulelearn.model_io.LoadedModel`) in format ``fmt``."""
    if fmt not in FORMATS:
        raise ParameterError(f"unknown export format {fmt!r}; expected one of "
                             f"{', '.join(FORMATS)}")
    rule = simplify(model.rule)
    if fmt == "python":
        return python_source(rule, model.positive, model.negative, _tokens(model),
                             _title(model, rule))
    if fmt == "sql":
        head = "".join(f"-- {line}\n" for line in _title(model, rule).splitlines())
        return head + sql_case(rule, model.positive, model.negative) + "\n"
    return pandas_query(rule) + "\n"


def _tokens(model) -> tuple[str, ...]:
    from rulelearn.data.parse import DEFAULT_MISSING

    return tuple(DEFAULT_MISSING if model.missing_values is None else model.missing_values)


def _title(model, rule: Rule) -> str:
    where = f" of {model.path}" if model.path else ""
    simpler = (f" (simplified from {model.rule.n_literals} literals; the same predictions)"
               if rule != model.rule else "")
    return (f"Predicts {model.target!r}: {model.positive!r} where the rule{where} holds, "
            f"{model.negative!r} elsewhere.\n"
            f"Written by rulelearn from a {model.form.upper()} rule of "
            f"{rule.n_literals} literals{simpler}:\n"
            f"{rule.describe(model.positive, model.target)}")


# ------------------------------------------------------------------------------------------ Python

_PYTHON_HELPERS = '''
import math
import numbers
import re

_NUMBER = re.compile(r"[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?inf(inity)?",
                     re.IGNORECASE | re.ASCII)


def _cell(row, name):
    """The cell, or None where it is missing."""
    value = row[name]
    if isinstance(value, str):
        value = value.strip()
        return None if value in MISSING else value
    try:
        return None if value is None or value != value else value  # NaN != NaN
    except TypeError:  # pandas.NA
        return None


def _number(value):
    """The cell as a number, or None (missing, or not a number)."""
    if isinstance(value, str):
        return float(value) if _NUMBER.fullmatch(value) else None
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def _le(row, name, threshold):
    value = _number(_cell(row, name))
    return value is not None and value <= threshold


def _gt(row, name, threshold):
    value = _number(_cell(row, name))
    return value is not None and value > threshold


def _eq(row, name, target):
    value = _cell(row, name)
    if value is None:
        return False
    if value == target:
        return True
    try:  # '7' read as text versus 7 in the rule
        return float(value) == float(target)
    except (TypeError, ValueError):
        return str(value) == str(target)


def _ne(row, name, target):
    return _cell(row, name) is not None and not _eq(row, name, target)


def _missing(row, name):
    return _cell(row, name) is None
'''

_PYTHON_CALLS = {"<=": "_le", ">": "_gt", "==": "_eq", "!=": "_ne"}


def python_source(rule: Rule, positive, negative, missing_tokens, title: str = "") -> str:
    """A module defining ``predict(row: dict)``: ``positive`` where ``rule`` holds."""
    doc = "\n".join(["", *title.splitlines(), "",
                     "predict(row) takes a dict of one row's cells by column name: text (a",
                     "CSV reader's cells; the tokens in MISSING are missing) or Python values",
                     "(None and NaN are missing)."])
    doc = doc.replace("\\", "\\\\").replace('"""', "'''")
    outer, inner = (" or ", " and ") if rule.form == "dnf" else (" and ", " or ")
    clauses = []
    for clause in rule.clauses:
        literals = [_python_literal(lit) for lit in clause.literals]
        empty = "True" if rule.form == "dnf" else "False"
        text = _join(literals, inner, empty)
        if len(text) > 80:  # one literal a line
            text = _join(literals, "\n             " + inner.lstrip(), empty)
        clauses.append(text)
    body = _join(clauses, "\n        " + outer.strip() + " ",
                 "False" if rule.form == "dnf" else "True", wrap=True)
    return (f'"""{doc}\n"""\n{_PYTHON_HELPERS}\n'
            f"POSITIVE = {positive!r}\nNEGATIVE = {negative!r}\n"
            f"MISSING = frozenset({sorted(missing_tokens)!r})\n\n\n"
            f"def predict(row: dict):\n"
            f'    """{positive!r} where the rule holds, else {negative!r}."""\n'
            f"    holds = (\n        {body}\n    )\n"
            f"    return POSITIVE if holds else NEGATIVE\n")


def _join(parts: list[str], separator: str, empty: str, wrap: bool = False) -> str:
    """``parts`` joined (each in parentheses if ``wrap``), or ``empty`` when there are none."""
    if not parts:
        return empty
    if len(parts) == 1 or not wrap:
        return separator.join(parts)
    return separator.join(f"({p})" for p in parts)


def _python_literal(literal: Literal) -> str:
    name = repr(literal.feature)
    if literal.op == "is missing":
        return f"_missing(row, {name})"
    if literal.op == "is not missing":
        return f"not _missing(row, {name})"
    value = literal.value
    if literal.op in ("<=", ">"):
        value = _as_float(value)
    return f"{_PYTHON_CALLS[literal.op]}(row, {name}, {value!r})"


def _as_float(value) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


# --------------------------------------------------------------------------------------------- SQL

def sql_case(rule: Rule, positive, negative) -> str:
    """``CASE WHEN <rule> THEN positive ELSE negative END`` (missing cells must be NULL).

    SQL's NULL gives a comparison with a missing cell the value unknown, and a rule without
    NOT is true exactly where it is true with every unknown read as false: as ``rulelearn``
    reads a comparison with a missing value.
    """
    return (f"CASE WHEN {_sql_condition(rule)} THEN {_sql_value(positive)} "
            f"ELSE {_sql_value(negative)} END")


def _sql_condition(rule: Rule) -> str:
    outer, inner = (" OR ", " AND ") if rule.form == "dnf" else (" AND ", " OR ")
    clauses = [_join([_sql_literal(lit) for lit in clause.literals], inner,
                     "1 = 1" if rule.form == "dnf" else "1 = 0") for clause in rule.clauses]
    return _join(clauses, outer, "1 = 0" if rule.form == "dnf" else "1 = 1", wrap=True)


def _sql_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_value(value) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(int(value)) if isinstance(value, int) else repr(float(value))


def _sql_literal(literal: Literal) -> str:
    name = _sql_name(literal.feature)
    if literal.op.startswith("is "):
        return f"{name} IS {'NOT ' if literal.op == 'is not missing' else ''}NULL"
    value = _as_float(literal.value) if literal.op in ("<=", ">") else literal.value
    op = {"==": "=", "!=": "<>"}.get(literal.op, literal.op)
    return f"{name} {op} {_sql_value(value)}"


# ------------------------------------------------------------------------------------------ pandas

def pandas_query(rule: Rule) -> str:
    """A ``DataFrame.query`` string, true where ``rule`` holds (missing cells NaN or None).

    ``x != v`` is written ``(`x` != v and `x` == `x`)``: pandas finds NaN unequal to every
    value, rulelearn's ``!=`` is false on a missing cell; ``x is missing`` is `` `x` != `x` ``.
    """
    outer, inner = (" or ", " and ") if rule.form == "dnf" else (" and ", " or ")
    true, false = "index == index", "index != index"
    clauses = [_join([_pandas_literal(lit) for lit in clause.literals], inner,
                     true if rule.form == "dnf" else false) for clause in rule.clauses]
    return _join(clauses, outer, false if rule.form == "dnf" else true, wrap=True)


def _pandas_name(name: str) -> str:
    if "`" in name or not name.isprintable():
        raise ParameterError(f"the column name {format_name(name)} cannot be written in a "
                             "pandas query (it has a backtick or a character that does not "
                             "print)")
    return f"`{name}`"


def _pandas_literal(literal: Literal) -> str:
    name = _pandas_name(literal.feature)
    if literal.op == "is missing":
        return f"{name} != {name}"
    if literal.op == "is not missing":
        return f"{name} == {name}"
    value = _as_float(literal.value) if literal.op in ("<=", ">") else literal.value
    text = repr(value)  # finite: a model file holds finite thresholds only
    if literal.op == "!=":
        return f"({name} != {text} and {name} == {name})"
    return f"{name} {literal.op} {text}"

