"""A saved rule as code: a Python module, a SQL ``CASE`` expression, a pandas module.

Each predicts as ``rulelearn predict`` does (:func:`rulelearn.csv_predict.predict_csv`), which reads
a cell in one way, and each export reads it in that same way:

- a cell is its text with leading and trailing whitespace stripped (so ``a, b`` is ``b``); a
  stripped cell equal to one of the model's missing-value tokens is missing, as are ``None``,
  NaN and ``pandas.NA`` where the data holds Python values;
- every comparison with a missing cell is false, only ``x is missing`` holds there;
- ``x <= t`` and ``x > t`` hold on a cell that is a number (text that ``pandas.to_numeric``
  reads as one) and compares so; on any other cell they are false;
- ``x == v`` holds where the cell equals ``v`` as text, or where both read as numbers
  (Python's ``float``) that are equal: a category ``'007'`` equals a cell ``7`` and ``7.0``;
  ``x != v`` holds where the cell is present and ``x == v`` does not hold;
- a model whose training file wrote numbers with a decimal comma (``fit --decimal ,``, the
  model file's ``reading``) first reads a text cell such as ``1,5`` or ``1.234,5`` as ``1.5``
  or ``1234.5``, as ``predict`` does (:func:`rulelearn.data.parse.with_decimal_point`). Each
  export says in its docstring (SQL: its header) which numbers it expects.

The formats:

- ``python``: a module defining ``predict(row)`` on a dict of one row's cells by column name
  (as ``csv.DictReader(f, skipinitialspace=True)`` gives them, or Python values);
  ``POSITIVE``, ``NEGATIVE``, ``TARGET``, ``MISSING`` and ``RULE`` (the rule as rulelearn
  prints it) are constants of the module.
- ``sql``: a ``CASE WHEN ... THEN positive ELSE negative END`` expression (what follows
  :data:`SQL_HEADER`, a comment that holds no data) over a table of the cells as ``rulelearn
  predict`` reads them: stripped, missing ones ``NULL``; the columns that the rule compares
  with numbers must hold numbers (a cell there that is not a number must be ``NULL`` too),
  others may hold text or numbers. A category that is a number (``'007'``) also matches a cell
  that SQLite reads as that number (``7``, ``'7'``, ``'7.0'``, by ``CAST``); a cell that only
  Python reads as a number (``'1_000'``, ``'Infinity'``, digits other than ASCII) is compared
  as text there. Names are quoted identifiers (``"say ""hi"" now"``), values string literals
  with ``'`` doubled; a name or value that SQL text cannot carry (a NUL character, a lone
  surrogate) is refused with :class:`ParameterError` naming it, never written. Every column
  the rule uses must be in the table: SQLite reads a quoted name it does not know as text.
- ``pandas``: a module defining ``holds(frame)`` (a boolean Series, true where the rule
  predicts the positive class), ``select(frame)`` (those rows) and ``predict(frame)`` (the
  labels) on a DataFrame of the cells: as text, as ``rulelearn predict`` reads a CSV file
  (``pd.read_csv(f, dtype=str, keep_default_na=False, skipinitialspace=True)``), or as pandas
  parses them (with ``keep_default_na=False``: pandas' own list of missing values is not the
  model's). It reads each cell as above, with the Python export's code. (A ``DataFrame.query``
  string, this format before, cannot: it cannot strip text, compare ``'7'`` with ``'007'`` as
  numbers in a column of text, nor always tell the column ``index`` from the index.)

A model with derived columns (``fit --sum total=a+b``) reads a sum's columns instead of it: the
sum of their numbers, missing where any of them is missing or not a number (in SQL, ``("a" +
"b")``: those columns must hold numbers). Its columns' names are quoted as every other name.
No name, label or value of the model is ever written into a comment or docstring: in Python
they are string constants written by ``ascii()`` (pure ASCII source, every character
round-trips, NUL and lone surrogates included), in SQL quoted as above. The rule exported is
the model's rule simplified (:func:`rulelearn.rules.simplify`), which predicts the same on every
input.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from rulelearn.errors import ParameterError
from rulelearn.rules import Literal, Rule, format_name, simplify

FORMATS = ("python", "sql", "pandas")


def export_rule(model, fmt: str) -> str:
    """The text of ``model`` (a :class:`~rulelearn.model_io.LoadedModel`) in format ``fmt``.

    Raises :class:`ParameterError` for an unknown format, and for a name or label that the
    format cannot carry (SQL: a NUL character or a lone surrogate), naming it.
    """
    if fmt not in FORMATS:
        raise ParameterError(f"unknown export format {fmt!r}; expected one of "
                             f"{', '.join(FORMATS)}")
    if hasattr(model, "rule_list"):  # a multi-class model (rulelearn.rule_list)
        return _export_rule_list(model, fmt)
    rule = simplify(model.rule)
    sums = dict(getattr(model, "sums", ()))
    decimal = getattr(model, "decimal", ".")
    if fmt == "sql":
        return (_sql_header(SQL_HEADER, decimal)
                + sql_case(rule, model.positive, model.negative, sums=sums) + "\n")
    source = python_source if fmt == "python" else pandas_source
    return source(rule, model.positive, model.negative, _tokens(model), target=model.target,
                  description=rule.describe(model.positive, model.target), sums=sums,
                  decimal=decimal)


def _tokens(model) -> tuple[str, ...]:
    from rulelearn.data.parse import DEFAULT_MISSING

    return tuple(DEFAULT_MISSING if model.missing_values is None else model.missing_values)


# ---------------------------------------------------------------------------- Python values as code

def python_value(value) -> str:
    """``value`` (a str, bool, integer or finite/infinite float) as a Python literal.

    Strings are written by ``ascii()``: pure ASCII, and every character (quotes, backslashes,
    newlines, NUL, lone surrogates) reads back as itself.
    """
    if isinstance(value, str):
        return ascii(str(value))
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, numbers.Integral):
        return repr(int(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        if math.isnan(number):
            raise ParameterError("NaN cannot be exported as a value")
        if math.isinf(number):
            return "1e999" if number > 0 else "-1e999"
        return repr(number)
    raise ParameterError(f"a value of type {type(value).__name__} cannot be exported")


def _as_float(value) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


# ------------------------------------------------------------------------------ Python and pandas

#: How a cell is read (see the module docstring), in the code of both Python exports.
_CELL_HELPERS = '''
_NUMBER = re.compile(r"[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?inf(inity)?",
                     re.IGNORECASE | re.ASCII)


def _read(value):
    """A cell as rulelearn predict reads it: None where it is missing, text stripped."""
    if isinstance(value, str):
        value = value.strip()
        return None if value in MISSING else value
    try:
        return None if value is None or value != value else value  # NaN != NaN
    except TypeError:  # pandas.NA
        return None


def _number(value):
    """A read cell as a number, or None (missing, or not a number)."""
    if isinstance(value, str):
        return float(value) if _NUMBER.fullmatch(value) else None
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def _le(value, threshold):
    value = _number(value)
    return value is not None and value <= threshold


def _gt(value, threshold):
    value = _number(value)
    return value is not None and value > threshold


def _eq(value, target):
    if value is None:
        return False
    if value == target:
        return True
    try:  # '7' as text versus '007' or 7 in the rule
        return float(value) == float(target)
    except (TypeError, ValueError, OverflowError):
        return str(value) == str(target)


def _ne(value, target):
    return value is not None and not _eq(value, target)


def _missing(value):
    return value is None


def _present(value):
    return value is not None
'''

#: ``_read`` for a model whose training file wrote numbers with a decimal comma: a cell that is
#: such a number is rewritten with a point, as :func:`rulelearn.data.parse.with_decimal_point`
#: does for ``rulelearn predict`` (the patterns are filled in by :func:`_cell_helpers`).
_COMMA_READ = '''
_COMMA_DECIMAL = re.compile(COMMA_DECIMAL)
_COMMA_GROUPED = re.compile(COMMA_GROUPED)
_THOUSANDS = re.compile(THOUSANDS)


def _read(value):
    """A cell as rulelearn predict reads it: None where it is missing, text stripped, and a
    number written with a decimal comma (1,5 or 1.234,5) as text with a decimal point."""
    if isinstance(value, str):
        value = value.strip()
        if value in MISSING:
            return None
        if _COMMA_DECIMAL.fullmatch(value):
            return value.replace(",", ".")
        if _COMMA_GROUPED.fullmatch(value):
            return _THOUSANDS.sub("", value).replace(",", ".")
        return value
    try:
        return None if value is None or value != value else value  # NaN != NaN
    except TypeError:  # pandas.NA
        return None
'''


def _cell_helpers(decimal: str) -> str:
    """How a cell is read, as code: :data:`_CELL_HELPERS`, with the ``_read`` of
    :data:`_COMMA_READ` for a model read with ``decimal=","``."""
    if decimal != ",":
        return _CELL_HELPERS
    from rulelearn.data.parse import COMMA_DECIMAL, COMMA_GROUPED, THOUSANDS_SEPARATORS

    thousands = "[" + "".join(THOUSANDS_SEPARATORS) + "]"
    comma_read = (_COMMA_READ.replace("(COMMA_DECIMAL)", f"({python_value(COMMA_DECIMAL)})")
                  .replace("(COMMA_GROUPED)", f"({python_value(COMMA_GROUPED)})")
                  .replace("(THOUSANDS)", f"({python_value(thousands)})"))
    start = _CELL_HELPERS.index("\n\ndef _read(")
    end = _CELL_HELPERS.index("\n\ndef _number(")
    return _CELL_HELPERS[:start] + "\n" + comma_read + _CELL_HELPERS[end:]


def _numbers(decimal: str) -> str:
    """What the docstring of an export says of the numbers it expects."""
    if decimal == ",":
        return ("Numbers are read as in the training file (rulelearn fit --decimal ,): text "
                "with a decimal\ncomma (1,5), its thousands grouped by a point, space or "
                "apostrophe (1.234,5), or Python\nnumbers; other text (1.5) as Python's float "
                "reads it.\n")
    return ("Numbers are text with a decimal point and no thousands separator (1234.5), or "
            "Python\nnumbers.\n")


def _doc(template: str, decimal: str) -> str:
    """A module docstring ``template`` with the sentence of :func:`_numbers` at its end."""
    return template[:template.rindex('"""')] + _numbers(decimal) + '"""\n'


def _sql_header(header: str, decimal: str) -> str:
    """``header`` and, for a model read with a decimal comma, what that asks of the table."""
    if decimal != ",":
        return header
    return header + ("-- The training file wrote numbers with a decimal comma (1,5; 1.234,5):\n"
                     "-- load them into the table as SQL numbers.\n")


_HELPER = {"<=": "_le", ">": "_gt", "==": "_eq", "!=": "_ne",
           "is missing": "_missing", "is not missing": "_present"}


def _literal_test(literal: Literal) -> tuple[str, str]:
    """The helper testing ``literal`` on a read cell, and its further arguments as code."""
    if literal.op.startswith("is "):
        return _HELPER[literal.op], ""
    value = _as_float(literal.value) if literal.op in ("<=", ">") else literal.value
    return _HELPER[literal.op], f", {python_value(value)}"


def _python_literal(literal: Literal) -> str:
    helper, args = _literal_test(literal)
    return f"{helper}(_cell(row, {python_value(literal.feature)}){args})"


def _pandas_literal(literal: Literal) -> str:
    helper, args = _literal_test(literal)
    return f"_test(frame, {python_value(literal.feature)}, {helper}{args})"


def _constants(positive, negative, missing_tokens, target, description) -> str:
    tokens = ", ".join(python_value(str(t)) for t in sorted(map(str, missing_tokens)))
    return (f"TARGET = {python_value(str(target))}\n"
            f"POSITIVE = {python_value(positive)}\n"
            f"NEGATIVE = {python_value(negative)}\n"
            f"MISSING = frozenset([{tokens}])\n"
            f"RULE = {python_value(str(description))}\n")


_INDENT = " " * 8


def _combine(rule: Rule, literal_code, and_: str, or_: str, true: str, false: str) -> str:
    """The rule as one expression: ``literal_code(literal)`` joined by ``and_`` / ``or_``."""
    outer, inner = (or_, and_) if rule.form == "dnf" else (and_, or_)
    clauses = []
    for clause in rule.clauses:
        literals = [literal_code(lit) for lit in clause.literals]
        text = _join(literals, f"\n{_INDENT}    {inner} ", true if rule.form == "dnf" else false,
                     wrap=False)
        clauses.append(text)
    return _join(clauses, f"\n{_INDENT}{outer} ", false if rule.form == "dnf" else true,
                 wrap=True)


def _join(parts: list[str], separator: str, empty: str, wrap: bool = False) -> str:
    """``parts`` joined (each in parentheses if ``wrap``), or ``empty`` when there are none."""
    if not parts:
        return empty
    if len(parts) == 1 or not wrap:
        return separator.join(parts)
    return separator.join(f"({p})" for p in parts)


_PYTHON_DOC = '''"""A rule learned by rulelearn, as Python (rulelearn export --format python).

predict(row) returns POSITIVE where the rule holds and NEGATIVE elsewhere. row is a dict of one
row's cells by column name: text as a CSV reader gives it (csv.DictReader(f,
skipinitialspace=True), as rulelearn predict reads a CSV file), or Python values.
A cell is read as rulelearn predict reads it: text is stripped, and a cell in MISSING, None or
NaN is missing. TARGET names the column predicted; RULE is the rule as rulelearn prints it.
"""
'''

_COLUMN_HELPER = '''

def _cell(row, name):
    """The read cell of column name (a key equal to it once stripped also matches)."""
    if name not in row:
        name = next((key for key in row if str(key).strip() == name), name)
    return _read(row[name])
'''


_SUM_COLUMN_HELPER = '''

def _cell(row, name):
    """The read cell of column name (a key equal to it once stripped also matches); a derived
    sum (SUMS) is the sum of its columns' numbers, None where one is not a number."""
    if name in SUMS:
        numbers = [_number(_cell(row, part)) for part in SUMS[name]]
        return None if None in numbers else sum(numbers)
    if name not in row:
        name = next((key for key in row if str(key).strip() == name), name)
    return _read(row[name])
'''


def _sums_constant(sums) -> str:
    """``SUMS = {name: (column, ...), ...}``, every name written by :func:`python_value`."""
    items = ", ".join(f"{python_value(name)}: ({''.join(python_value(c) + ', ' for c in parts)})"
                      for name, parts in sums.items())
    return f"SUMS = {{{items}}}\n"


def python_source(rule: Rule, positive, negative, missing_tokens, *, target: str = "",
                  description: str = "", sums=None, decimal: str = ".") -> str:
    """A module defining ``predict(row: dict)``: ``positive`` where ``rule`` holds.

    Every name, label and value is a constant written by :func:`python_value`. ``sums``:
    derived columns (name -> the columns it adds up), computed from a row's cells.
    ``decimal``: the decimal mark of the training file (``","``: cells are read as
    :func:`rulelearn.data.parse.with_decimal_point` reads them).
    """
    body = _combine(rule, _python_literal, "and", "or", "True", "False")
    helper = _SUM_COLUMN_HELPER if sums else _COLUMN_HELPER
    return (f"{_doc(_PYTHON_DOC, decimal)}\nimport numbers\nimport re\n\n"
            f"{_cell_helpers(decimal)}{helper}\n\n"
            f"{_constants(positive, negative, missing_tokens, target, description)}"
            f"{_sums_constant(sums) if sums else ''}\n\n"
            "def predict(row):\n"
            '    """POSITIVE where the rule holds on row (a dict of cells), else NEGATIVE."""\n'
            f"    holds = (\n        {body}\n    )\n"
            "    return POSITIVE if holds else NEGATIVE\n")


_PANDAS_DOC = '''"""A rule learned by rulelearn, for pandas (rulelearn export --format pandas).

holds(frame) is a boolean Series, true where the rule predicts POSITIVE; select(frame) is those
rows of frame; predict(frame) is a Series of POSITIVE and NEGATIVE. frame holds the cells by
column name: text, as rulelearn predict reads a CSV file (pd.read_csv(f, dtype=str,
keep_default_na=False, skipinitialspace=True)), or values as pandas parses them.
A cell is read as rulelearn predict reads it: text is stripped, and a cell in MISSING, None, NaN
or pd.NA is missing. TARGET names the column predicted; RULE is the rule as rulelearn prints it.
"""
'''

_FRAME_TESTS = '''

def _test(frame, name, test, *args):
    """Where test(read cell, *args) holds on the column name (a boolean array)."""
    if name not in frame.columns:
        name = next((c for c in frame.columns if str(c).strip() == name), name)
    column = frame[name]
    return np.fromiter((test(_read(value), *args) for value in column.astype(object)),
                       dtype=bool, count=len(column))


def _constant(frame, value):
    return np.full(len(frame), value, dtype=bool)
'''

_FRAME_HELPERS = _FRAME_TESTS + '''

def holds(frame):
    """True where the rule predicts POSITIVE (a boolean Series on frame's index)."""
    return pd.Series(_holds(frame), index=frame.index, dtype=bool)


def select(frame):
    """The rows of frame where the rule predicts POSITIVE."""
    return frame.loc[_holds(frame)]


def predict(frame):
    """POSITIVE where the rule holds, NEGATIVE elsewhere (a Series on frame's index)."""
    return pd.Series([POSITIVE if h else NEGATIVE for h in _holds(frame)], index=frame.index,
                     dtype=object)
'''


_SUM_FRAME_TESTS = '''

def _cells(frame, name):
    """The read cells of column name (a list); a derived sum (SUMS) is the sum of its
    columns' numbers, None where one is not a number."""
    if name in SUMS:
        parts = [[_number(value) for value in _cells(frame, part)] for part in SUMS[name]]
        return [None if None in numbers else sum(numbers) for numbers in zip(*parts)]
    if name not in frame.columns:
        name = next((c for c in frame.columns if str(c).strip() == name), name)
    return [_read(value) for value in frame[name].astype(object)]


def _test(frame, name, test, *args):
    """Where test(read cell, *args) holds on the column name (a boolean array)."""
    return np.fromiter((test(value, *args) for value in _cells(frame, name)), dtype=bool,
                       count=len(frame))


def _constant(frame, value):
    return np.full(len(frame), value, dtype=bool)
'''


def pandas_source(rule: Rule, positive, negative, missing_tokens, *, target: str = "",
                  description: str = "", sums=None, decimal: str = ".") -> str:
    """A module defining ``holds(frame)``, ``select(frame)`` and ``predict(frame)``.

    Every name, label and value is a constant written by :func:`python_value`. ``sums``: as
    :func:`python_source`'s.
    """
    body = _combine(rule, _pandas_literal, "&", "|", "_constant(frame, True)",
                    "_constant(frame, False)")
    helpers = (_SUM_FRAME_TESTS + _FRAME_HELPERS[len(_FRAME_TESTS):]) if sums else _FRAME_HELPERS
    return (f"{_doc(_PANDAS_DOC, decimal)}\nimport numbers\nimport re\n\n"
            f"import numpy as np\nimport pandas as pd\n\n{_cell_helpers(decimal)}{helpers}\n\n"
            f"{_constants(positive, negative, missing_tokens, target, description)}"
            f"{_sums_constant(sums) if sums else ''}\n\n"
            "def _holds(frame):\n"
            f"    return (\n        {body}\n    )\n")


# --------------------------------------------------------------------------------------------- SQL

#: The lines before the expression: generic, never a name or value of the model.
SQL_HEADER = ("-- A rule learned by rulelearn, as SQL (rulelearn export --format sql): the CASE\n"
              "-- expression below gives the positive class where the rule holds, else the\n"
              "-- negative. Cells as rulelearn predict reads them: stripped, missing ones NULL;\n"
              "-- the columns that the rule compares with numbers must hold numbers.\n")


def sql_case(rule: Rule, positive, negative, *, sums=None) -> str:
    """``CASE WHEN <rule> THEN positive ELSE negative END`` (missing cells must be NULL).

    SQL's NULL gives a comparison with a missing cell the value unknown, and a rule without
    NOT is true exactly where it is true with every unknown read as false: as ``rulelearn``
    reads a comparison with a missing value (the one NOT, in ``x != v`` for a number ``v``,
    is guarded by ``IS NOT NULL``). Raises :class:`ParameterError` for a name or value that
    SQL text cannot carry. ``sums``: derived columns (name -> the columns it adds up), each
    written as the sum of its columns (NULL where any is NULL).
    """
    condition = _sql_condition(rule, sums or {})
    return (f"CASE WHEN {condition} THEN {_sql_value(positive, 'the positive class')} "
            f"ELSE {_sql_value(negative, 'the negative class')} END")


def _sql_condition(rule: Rule, sums=None) -> str:
    outer, inner = (" OR ", " AND ") if rule.form == "dnf" else (" AND ", " OR ")
    clauses = [_join([_sql_literal(lit, sums) for lit in clause.literals], inner,
                     "1 = 1" if rule.form == "dnf" else "1 = 0") for clause in rule.clauses]
    return _join(clauses, outer, "1 = 0" if rule.form == "dnf" else "1 = 1", wrap=True)


def _sql_checked(text: str, what: str) -> str:
    for char, why in (("\x00", "a NUL character"),):
        if char in text:
            raise ParameterError(f"{what} cannot be written in SQL: it holds {why}")
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise ParameterError(f"{what} cannot be written in SQL: it holds a lone surrogate "
                             "(not a character of Unicode text)")
    return text


def _sql_name(name: str) -> str:
    checked = _sql_checked(name, f"the column name {format_name(name)}")
    return '"' + checked.replace('"', '""') + '"'


def _sql_text(text: str, what: str) -> str:
    return "'" + _sql_checked(text, what).replace("'", "''") + "'"


def _sql_number(value: float) -> str:
    return repr(float(value))  # finite: callers check


def _sql_value(value, what: str) -> str:
    if isinstance(value, (bool, np.bool_)):
        # not TRUE/FALSE: SQLite reads those as a column's name when the table has a column
        # named True or False (untrusted names), so a constant comparison stands for them
        return "(1 = 1)" if value else "(1 = 0)"
    if isinstance(value, str):
        return _sql_text(value, what)
    if isinstance(value, numbers.Integral):
        return repr(int(value))
    if isinstance(value, numbers.Real) and math.isfinite(float(value)):
        return _sql_number(float(value))
    raise ParameterError(f"{what} {value!r} cannot be written in SQL")


def _number_of(value) -> float | None:
    """``value`` as a finite number as ``rulelearn predict`` compares it (Python's float)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _sql_equal(name: str, literal: Literal, op: str = "=") -> str:
    """SQL true where the cell equals ``literal.value`` as ``rulelearn predict`` compares
    (``op="<>"``: where it differs; only for a value that is not a number)."""
    value = literal.value
    what = f"the value of {format_name(literal.feature)} {literal.op}"
    equal = f"{name} {op} {_sql_text(str(value), what)}"
    number = _number_of(value)
    if number is None:
        return equal
    assert op == "="
    # a cell SQLite reads as a number in full (the cast equals it) and equal to this number
    return (f"({equal} OR ({name} = CAST({name} AS NUMERIC) AND "
            f"CAST({name} AS REAL) = {_sql_number(number)}))")


def _sql_literal(literal: Literal, sums=None) -> str:
    if sums and literal.feature in sums:
        name = "(" + " + ".join(map(_sql_name, sums[literal.feature])) + ")"
    else:
        name = _sql_name(literal.feature)
    if literal.op.startswith("is "):
        return f"{name} IS {'NOT ' if literal.op == 'is not missing' else ''}NULL"
    if literal.op in ("<=", ">"):
        threshold = _as_float(literal.value)
        if not math.isfinite(threshold):
            raise ParameterError(f"the threshold of {format_name(literal.feature)} is not "
                                 "finite; it cannot be written in SQL")
        return f"{name} {literal.op} {_sql_number(threshold)}"
    if literal.op == "==":
        return _sql_equal(name, literal)
    if _number_of(literal.value) is None:  # NULL <> 'v' is unknown: false, as in predict
        return _sql_equal(name, literal, "<>")
    return f"({name} IS NOT NULL AND NOT {_sql_equal(name, literal)})"


# ---------------------------------------------------------------------------------- rule lists

def _export_rule_list(model, fmt: str) -> str:
    """A rule-list model (:class:`~rulelearn.model_io.LoadedRuleList`) in format ``fmt``: each
    rule simplified, the same order and labels."""
    from rulelearn.rule_list import RuleList

    given = model.rule_list
    rule_list = RuleList(given.labels, tuple(simplify(r) for r in given.rules), given.default)
    decimal = getattr(model, "decimal", ".")
    if fmt == "sql":
        return _sql_header(SQL_LIST_HEADER, decimal) + sql_case_list(rule_list) + "\n"
    source = python_list_source if fmt == "python" else pandas_list_source
    return source(rule_list, _tokens(model), target=model.target, description=str(rule_list),
                  decimal=decimal)


def _list_constants(rule_list, missing_tokens, target, description) -> str:
    tokens = ", ".join(python_value(str(t)) for t in sorted(map(str, missing_tokens)))
    labels = "".join(f"{python_value(label)}, " for label in rule_list.labels)
    return (f"TARGET = {python_value(str(target))}\n"
            f"LABELS = ({labels})\n"
            f"DEFAULT = {python_value(rule_list.default)}\n"
            f"MISSING = frozenset([{tokens}])\n"
            f"RULE = {python_value(str(description))}\n")


_PYTHON_LIST_DOC = '''"""A rule list learned by rulelearn, as Python (rulelearn export --format
python).

predict(row) returns LABELS[i] for the first rule i that holds on row, DEFAULT where none does.
row is a dict of one row's cells by column name: text as a CSV reader gives it
(csv.DictReader(f, skipinitialspace=True), as rulelearn predict reads a CSV file), or Python
values. A cell is read as rulelearn predict reads it: text is stripped, and a cell in MISSING,
None or NaN is missing. TARGET names the column predicted; RULE is the list as rulelearn prints it.
"""
'''


def python_list_source(rule_list, missing_tokens, *, target: str = "",
                       description: str = "", decimal: str = ".") -> str:
    """A module defining ``predict(row: dict)`` for an ordered rule list (``IF ... THEN a ELIF
    ... ELSE c``). Every name, label and value is a constant written by :func:`python_value`."""
    tests = "".join(
        f"    if (\n        {_combine(rule, _python_literal, 'and', 'or', 'True', 'False')}"
        f"\n    ):\n        return LABELS[{index}]\n"
        for index, rule in enumerate(rule_list.rules))
    return (f"{_doc(_PYTHON_LIST_DOC, decimal)}\nimport numbers\nimport re\n\n"
            f"{_cell_helpers(decimal)}{_COLUMN_HELPER}\n\n"
            f"{_list_constants(rule_list, missing_tokens, target, description)}\n\n"
            "def predict(row):\n"
            '    """LABELS[i] for the first rule i that holds on row, else DEFAULT."""\n'
            f"{tests}    return DEFAULT\n")


_PANDAS_LIST_DOC = '''"""A rule list learned by rulelearn, for pandas (rulelearn export --format
pandas).

decide(frame) is, per row, the index of the first rule that holds (len(LABELS) where none does);
predict(frame) is a Series of LABELS[i] for that rule, DEFAULT where none holds. frame holds the
cells by column name: text, as rulelearn predict reads a CSV file (pd.read_csv(f, dtype=str,
keep_default_na=False, skipinitialspace=True)), or values as pandas parses them. A cell is read
as rulelearn predict reads it: text is stripped, and a cell in MISSING, None, NaN or pd.NA is
missing. TARGET names the column predicted; RULE is the list as rulelearn prints it.
"""
'''

_LIST_FRAME_FUNCTIONS = '''

def decide(frame):
    """Per row, the index of the first rule that holds; len(LABELS) where none does."""
    out = np.full(len(frame), len(LABELS))
    for index in reversed(range(len(_RULES))):
        out[np.asarray(_RULES[index](frame), dtype=bool)] = index
    return out


def predict(frame):
    """LABELS[i] for the first rule i that holds, DEFAULT elsewhere (a Series on frame's index)."""
    outcomes = np.empty(len(LABELS) + 1, dtype=object)
    outcomes[:] = [*LABELS, DEFAULT]
    return pd.Series(outcomes[decide(frame)], index=frame.index, dtype=object)
'''


def pandas_list_source(rule_list, missing_tokens, *, target: str = "",
                       description: str = "", decimal: str = ".") -> str:
    """A module defining ``decide(frame)`` and ``predict(frame)`` for an ordered rule list.
    Every name, label and value is a constant written by :func:`python_value`."""
    rules = "".join(
        f"\n\ndef _rule_{index}(frame):\n    return (\n        "
        + _combine(rule, _pandas_literal, "&", "|", "_constant(frame, True)",
                   "_constant(frame, False)") + "\n    )\n"
        for index, rule in enumerate(rule_list.rules))
    names = "".join(f"_rule_{index}, " for index in range(len(rule_list.rules)))
    return (f"{_doc(_PANDAS_LIST_DOC, decimal)}\nimport numbers\nimport re\n\n"
            f"import numpy as np\nimport pandas as pd\n\n{_cell_helpers(decimal)}{_FRAME_TESTS}"
            f"{_LIST_FRAME_FUNCTIONS}\n\n"
            f"{_list_constants(rule_list, missing_tokens, target, description)}{rules}\n\n"
            f"_RULES = ({names})\n")


#: The lines before a rule list's expression: generic, never a name or value of the model.
SQL_LIST_HEADER = ("-- A rule list learned by rulelearn, as SQL (rulelearn export --format sql):\n"
                   "-- the CASE expression below gives the label of the first rule that holds,\n"
                   "-- else the last label. Cells as rulelearn predict reads them: stripped,\n"
                   "-- missing ones NULL; the columns that the rules compare with numbers must\n"
                   "-- hold numbers.\n")


def sql_case_list(rule_list) -> str:
    """``CASE WHEN <rule 1> THEN label 1 WHEN <rule 2> THEN label 2 ... ELSE default END``.

    A rule that is unknown (NULL) on a row does not hold there, as in :func:`sql_case`.
    """
    whens = "".join(f"WHEN {_sql_condition(rule)} THEN {_sql_value(label, 'a class label')} "
                    for label, rule in zip(rule_list.labels, rule_list.rules))
    return f"CASE {whens}ELSE {_sql_value(rule_list.default, 'a class label')} END"
