"""Applying a saved model to a user's CSV file: ``rulelearn predict``'s work.

:func:`predict_csv` (a table in memory) and :func:`predict_csv_to` (any size, written as it is
read) read the columns a model's rule uses, by name, from the raw CSV cells, add the
predicted labels, and score them against the target column when the file has it
(:class:`CsvPrediction`: accuracy, confusion matrix). The model file format is
:mod:`rulelearn.model_io`'s.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from rulelearn.errors import DataError
from rulelearn.model_io import LoadedModel, LoadedRuleList
from rulelearn.rules import Rule, explain_rows, values_equal


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"



@dataclass(frozen=True)
class CsvPrediction:
    """A CSV file with a prediction column added, and the accuracy when it had the target."""

    table: pd.DataFrame
    column: str
    n_rows: int
    has_target: bool = False
    accuracy: float | None = None
    n_scored: int = 0
    n_unknown_labels: int = 0
    #: Remarks on the data, e.g. non-numeric cells in a column the rule compares with numbers.
    notes: tuple[str, ...] = ()
    #: Rows with a label of either class, by (actual, predicted): ``{"tp", "fp", "fn", "tn"}``.
    confusion: dict | None = None
    #: A rule list's confusion matrix: rows by actual class, columns by predicted class, both in
    #: the order of ``labels`` (the model's classes); None without rows labeled with a class.
    matrix: tuple | None = None
    labels: tuple = ()

    def matrix_lines(self) -> list[str]:
        """A rule list's confusion matrix, each class's recall and the balanced accuracy
        (lines), or none without labeled rows."""
        if not self.matrix:
            return []
        names = [str(label) for label in self.labels]
        counts = np.asarray(self.matrix)
        width = max(len(n) for n in names) + 4
        cells = max(len(n) for n in names + [str(counts.max())]) + 2
        lines = ["confusion matrix (rows: actual, columns: predicted):",
                 " " * width + "".join(n.rjust(cells) for n in names)]
        for name, row in zip(names, counts):
            lines.append(("  " + name).ljust(width) + "".join(str(v).rjust(cells) for v in row))
        recalls = [(name, int(row[k]), int(row.sum()))
                   for k, (name, row) in enumerate(zip(names, counts))]
        lines.append("recall: " + ", ".join(f"{name} {_percent(right, total)} ({right} of "
                                            f"{total})" for name, right, total in recalls))
        balanced = self.balanced_accuracy or 0.0  # a matrix has a class with rows
        lines.append(f"balanced accuracy {100 * balanced:.1f} % (the mean recall of the "
                     f"{sum(1 for *_, total in recalls if total)} classes that have rows)")
        return lines

    def scores(self, positive, negative) -> str:
        """A confusion matrix, precision and recall (lines), or ``""`` without labels."""
        if not self.confusion:
            return ""
        tp, fp, fn, tn = (self.confusion[k] for k in ("tp", "fp", "fn", "tn"))
        names = [str(positive), str(negative)]
        width = max(len(n) for n in names) + 2
        cells = max(len(n) for n in names + [str(max(tp, fp, fn, tn))]) + 2
        lines = ["confusion matrix (rows: actual, columns: predicted):",
                 " " * width + "".join(n.rjust(cells) for n in names)]
        for name, row in zip(names, ((tp, fn), (fp, tn))):
            lines.append(("  " + name).ljust(width) + "".join(str(v).rjust(cells) for v in row))
        lines.append(f"precision {_percent(tp, tp + fp)} ({tp} of {tp + fp} predicted "
                     f"{positive}), recall {_percent(tp, tp + fn)} ({tp} of {tp + fn} "
                     f"actual {positive})")
        balanced = self.balanced_accuracy
        lines.append("balanced accuracy " + ("undefined (one class has no row)" if balanced is None
                                             else f"{100 * balanced:.1f} %")
                     + " (the mean of the two classes' recalls)")
        return "\n".join(lines)

    @property
    def balanced_accuracy(self) -> float | None:
        """The mean of the positive and the negative class's recall over the rows labeled with
        a class of the model; None without such rows of both classes."""
        if self.matrix:  # a rule list: the mean recall of the classes that have rows
            counts = np.asarray(self.matrix)
            totals = counts.sum(axis=1)
            present = totals > 0
            return float(np.mean(np.diag(counts)[present] / totals[present]))
        if not self.confusion:
            return None
        tp, fp, fn, tn = (self.confusion[k] for k in ("tp", "fp", "fn", "tn"))
        if not (tp + fn and tn + fp):
            return None
        return (tp / (tp + fn) + tn / (tn + fp)) / 2

    def summary(self, target: str) -> str:
        """One line, e.g. ``303 rows predicted; accuracy 86.1 % against column 'disease'``."""
        text = f"{_plural(self.n_rows, 'row')} predicted"
        if not self.has_target:
            return text + f" (no target column {target!r}, so no accuracy)"
        if self.accuracy is None:
            return text + f" (target column {target!r} has no labels, so no accuracy)"
        text += f"; accuracy {100 * self.accuracy:.1f} % against column {target!r}"
        notes = []
        if self.n_scored < self.n_rows:
            notes.append(f"on the {self.n_scored} rows that have a label")
        if self.n_unknown_labels:
            notes.append(f"{self.n_unknown_labels} of them with a label that is neither class "
                         "of the model")
        return text + (f" ({'; '.join(notes)})" if notes else "")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "undefined"


def predict_csv(model: LoadedModel | LoadedRuleList, path, *, column: str = "prediction",
                missing_values=None, sep=None, explain: str | None = None,
                proba: str | None = None, decimal: str | None = None) -> CsvPrediction:
    """Apply ``model`` to the CSV file at ``path`` (header row required).

    The returned table is the file's cells (leading/trailing spaces stripped), rows in file
    order, plus ``column`` holding the predicted labels. The file is read as the model's
    training file was (:attr:`~rulelearn.model_io.LoadedModel.missing_values`, ``sep`` and
    ``decimal``); an argument given overrides that: ``missing_values`` are the cell values
    read as missing (default: the model's, else those of
    :func:`rulelearn.data.read_csv_dataset`); ``sep``: the separator (default: the model's if
    it was given at fit, else found from the file, as :func:`rulelearn.data.parse.read_table`
    does).
    If the file has the model's target column, the accuracy is computed on its labeled rows,
    and the confusion counts on those labeled with a class of the model. ``explain``: also add
    a column of that name naming the literals that decided each row (:meth:`LoadedModel.explain`).
    ``proba``: also add a column of that name with each row's probability of the positive
    class (:meth:`LoadedModel.predict_proba`). ``decimal``: the decimal mark (default: the
    model's); with ``","`` the rule reads numbers written with a decimal comma (``1,5``,
    ``1.234,5``: :func:`rulelearn.data.parse.with_decimal_point`); the rows written keep the
    file's cells.
    Raises :class:`DataError` if the file cannot be read, lacks a column the rule uses, or
    already has a column named ``column`` (or ``explain``, ``proba``).

    :func:`predict_csv_to` does the same for a file of any size, writing as it reads.
    """
    from rulelearn.data.parse import read_table

    path = Path(path)
    table = read_table(path, sep=model.sep if sep is None else sep, missing=())
    names = _added_columns(model, path, table.columns, column, explain, proba)
    scoring = _scoring(model, missing_values, decimal)
    added = scoring.add(table[[c for c in table.columns if c in scoring.wanted]], explain, proba)
    out = table.copy()
    for name, values in zip(names, added):
        out[name] = values
    return scoring.result(out, column)


def predict_csv_to(model: LoadedModel | LoadedRuleList, path, write, *, column: str = "prediction",
                   missing_values=None, sep=None, explain: str | None = None,
                   proba: str | None = None, chunk_size: int = 1 << 22,
                   decimal: str | None = None) -> CsvPrediction:
    """:func:`predict_csv`, but the CSV text goes to ``write`` (called with pieces of it, in
    order) as the file is read, about ``chunk_size`` characters at a time, so that memory stays
    flat however large the file; the result has no ``table``. The text is what
    ``predict_csv(...).table.to_csv(index=False, lineterminator="\\n")`` would be.
    """
    from rulelearn.data.parse import read_table_chunks

    path = Path(path)
    scoring = _scoring(model, missing_values, decimal)
    columns, chunks = read_table_chunks(path, sep=model.sep if sep is None else sep,
                                        wanted=scoring.wanted, size=chunk_size)
    names = _added_columns(model, path, columns, column, explain, proba)
    write(pd.DataFrame(columns=[*columns, *names]).to_csv(index=False, lineterminator="\n"))
    for chunk in chunks:
        added = scoring.add(chunk.cells, explain, proba)
        if chunk.lines is None:
            out = chunk.frame.copy()
            for name, values in zip(names, added):
                out[name] = values
            write(out.to_csv(index=False, header=False, lineterminator="\n"))
        elif chunk.lines:
            texts = [_as_csv_cells(values) for values in added]
            if len(texts) == 1:
                rows = [f"{line},{cell}" for line, cell in zip(chunk.lines, texts[0])]
            else:
                rows = [",".join(row) for row in zip(chunk.lines, *texts)]
            rows.append("")
            write("\n".join(rows))
    return scoring.result(None, column)


def _added_columns(model, path, columns, column, explain, proba) -> list[str]:
    added = {column: ("prediction", "--column"), explain: ("explanation", "--explain"),
             proba: ("probability", "--proba")}
    for name, (what, option) in added.items():
        if name is not None and name in columns:
            raise DataError(f"{path} already has a column {name!r}; choose another name for "
                            f"the {what} column ({option})")
    if proba is not None and isinstance(model, LoadedRuleList):
        raise DataError("a rule-list model gives no probabilities (they are for a model of "
                        "two classes); leave out --proba")
    names = [n for n in (column, explain, proba) if n is not None]
    if len(set(names)) < len(names):
        raise DataError(f"two of the added columns have the same name ({', '.join(names)})")
    absent = model.missing_columns(columns)
    if absent:
        raise DataError(f"{path} lacks {_plural(len(absent), 'column')} the rule uses: "
                        f"{', '.join(map(repr, absent))}")
    return names


def _as_csv_cells(values) -> list[str]:
    """Each of ``values`` as ``DataFrame.to_csv`` writes it (computed once per distinct value)."""
    values = np.asarray(values)
    if values.dtype == object:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
        column = pd.Series(list(uniques), dtype=object)
    else:
        uniques, codes = np.unique(values, return_inverse=True)
        column = pd.Series(uniques)
    if not len(column):
        return []
    text = pd.DataFrame({"v": column}).to_csv(index=False, header=False, lineterminator="\n")
    cells = np.array(_csv_rows(text), dtype=object)
    return list(cells[np.asarray(codes).ravel()])


def _csv_rows(text: str) -> list[str]:
    """The rows of one-column CSV text (a quoted cell may hold line breaks)."""
    if '"' not in text:
        return text.split("\n")[:-1]
    import csv
    import io

    out = io.StringIO()
    writer_rows = []
    for row in csv.reader(io.StringIO(text, newline="")):
        out.seek(0)
        out.truncate()
        csv.writer(out, lineterminator="").writerow(row)
        writer_rows.append(out.getvalue())
    return writer_rows


class _Scoring:
    """Predictions, the accuracy and the confusion counts of ``model`` over chunks of a file."""

    def __init__(self, model: LoadedModel, missing_values, decimal: str | None = None):
        from rulelearn.data.parse import DEFAULT_MISSING, check_decimal

        decimal = model.decimal if decimal is None else decimal
        check_decimal(decimal)
        self.decimal = decimal

        if missing_values is None:
            missing_values = (DEFAULT_MISSING if model.missing_values is None
                              else model.missing_values)
        self.model, self.tokens = model, list(missing_values)
        self.wanted = set(model.features) | {model.target}
        self.n_rows = self.n_scored = self.n_right = self.n_unknown = 0
        self.has_target = False
        self.counts = dict.fromkeys(("tp", "fp", "fn", "tn"), 0)
        self.labeled = False  # a row labeled with a class of the model
        self.non_numeric: dict[str, list] = {}  # column -> [count, first example]

    def add(self, cells: pd.DataFrame, explain, proba) -> list[np.ndarray]:
        """The added columns for these rows: predictions, then explanations, probabilities."""
        from rulelearn.data.parse import with_decimal_point

        model, rule = self.model, self.model.rule
        cells = with_decimal_point(cells.mask(cells.isin(self.tokens)), self.decimal)
        cells = model.with_sums(cells)
        columns = _Columns(cells)
        clause_held = [_clause_held(clause, columns, rule.inner_op) for clause in rule.clauses]
        if not clause_held:
            held = np.full(len(cells), rule.form == "cnf")
        elif rule.form == "dnf":
            held = np.logical_or.reduce(clause_held)
        else:
            held = np.logical_and.reduce(clause_held)
        predicted = np.empty(len(cells), dtype=object)
        predicted[held] = model.positive
        predicted[~held] = model.negative
        self._count(cells, held, columns)
        added = [predicted]
        if explain is not None:
            literal_held = [[_literal_held(lit, columns) for lit in clause.literals]
                            for clause in rule.clauses]
            added.append(explain_rows(rule, literal_held, len(cells)))
        if proba is not None:
            added.append(self._proba(clause_held, len(cells)))
        return added

    def _proba(self, clause_held, n) -> np.ndarray:
        model, proba = self.model, self.model.proba
        if proba is None:
            model.predict_proba(pd.DataFrame(columns=model.features))  # its error
            raise AssertionError("unreachable")
        dnf = model.form == "dnf"
        out = np.full(n, np.nan)
        for held, value in zip(clause_held, proba.clause_precision):
            decides = held == dnf
            better = np.fmax(out, value) if dnf else np.fmin(out, value)
            out = np.where(decides, better, out)
        decided = ~np.isnan(out)
        positive = decided if dnf else ~decided
        out = np.where(decided, out, proba.default_precision)
        return np.where(positive, np.maximum(out, 0.5), np.minimum(out, 0.5))

    def _count_non_numeric(self, rules, columns) -> None:
        """Add up, per column, the cells the rules' thresholds met that are not numbers."""
        for rule in rules:
            for name, (bad, example) in _non_numeric(rule, columns).items():
                entry = self.non_numeric.setdefault(name, [0, example])
                entry[0] += bad

    def _count(self, cells, held, columns) -> None:
        model = self.model
        self.n_rows += len(cells)
        self._count_non_numeric([model.rule], columns)
        if model.target not in cells.columns:
            return
        self.has_target = True
        codes, uniques = pd.factorize(cells[model.target], use_na_sentinel=True)
        if not len(uniques):
            return
        named = [_label_index(u, (model.positive, model.negative)) for u in uniques]
        is_pos = np.array([k == 0 for k in named], dtype=bool)
        is_neg = np.array([k == 1 for k in named], dtype=bool)
        scored = codes >= 0
        codes, held = codes[scored], held[scored]
        pos, neg = is_pos[codes], is_neg[codes]
        self.n_scored += int(scored.sum())
        self.n_right += int(np.where(held, pos, neg).sum())
        self.n_unknown += int((~pos & ~neg).sum())
        actual_neg = neg & ~pos
        self.labeled |= bool(pos.any() or actual_neg.any())
        for key, count in (("tp", pos & held), ("fn", pos & ~held), ("fp", actual_neg & held),
                           ("tn", actual_neg & ~held)):
            self.counts[key] += int(count.sum())

    def result(self, table, column) -> CsvPrediction:
        notes = tuple(f"column {name!r} has {_plural(bad, 'non-numeric value')} (e.g. "
                      f"{example!r}), where comparisons with numbers are false"
                      for name, (bad, example) in self.non_numeric.items() if bad)
        accuracy = self.n_right / self.n_scored if self.n_scored else None
        return CsvPrediction(table, column, self.n_rows, self.has_target, accuracy,
                             self.n_scored, self.n_unknown, notes,
                             dict(self.counts) if self.labeled else None)


class _ListScoring(_Scoring):
    """:class:`_Scoring` for a rule list: predictions, explanations and the accuracy."""

    def __init__(self, model: LoadedRuleList, missing_values, decimal: str | None = None):
        super().__init__(model, missing_values, decimal)  # type: ignore[arg-type]  # same fields
        self.list_model = model
        self.matrix = np.zeros((len(model.classes), len(model.classes)), dtype=np.int64)

    def add(self, cells: pd.DataFrame, explain, proba) -> list[np.ndarray]:
        from rulelearn.data.parse import with_decimal_point

        rule_list = self.list_model.rule_list
        cells = with_decimal_point(cells.mask(cells.isin(self.tokens)), self.decimal)
        columns = _Columns(cells)
        n = len(cells)
        decided = np.full(n, len(rule_list.rules))
        clause = np.full(n, -1)
        for index in reversed(range(len(rule_list.rules))):
            rule = rule_list.rules[index]
            clause_held = [_clause_held(c, columns, rule.inner_op) for c in rule.clauses]
            if not clause_held:
                held = np.full(n, rule.form == "cnf")
            elif rule.form == "dnf":
                held = np.logical_or.reduce(clause_held)
                clause = np.where(held, _deciding(clause_held, True, n), clause)
            else:
                held = np.logical_and.reduce(clause_held)
                clause = np.where(held, -1, clause)
            decided[held] = index
        outcomes = np.empty(len(rule_list.rules) + 1, dtype=object)
        outcomes[:] = rule_list.classes
        self._count_list(cells, decided, columns)
        added = [outcomes[decided]]
        if explain is not None:
            added.append(np.array([_list_reason(rule_list, d, c) for d, c in zip(decided, clause)],
                                  dtype=object))
        return added

    def _count_list(self, cells, decided, columns) -> None:
        model = self.list_model
        self.n_rows += len(cells)
        self._count_non_numeric(model.rule_list.rules, columns)
        if model.target not in cells.columns:
            return
        self.has_target = True
        codes, uniques = pd.factorize(cells[model.target], use_na_sentinel=True)
        if not len(uniques):
            return
        classes = model.classes
        named = np.array([_label_index(u, classes) for u in uniques])
        scored = codes >= 0
        actual, decided = named[codes[scored]], decided[scored]
        self.n_scored += int(scored.sum())
        self.n_right += int((actual == decided).sum())
        self.n_unknown += int((actual < 0).sum())
        known = actual >= 0
        np.add.at(self.matrix, (actual[known], decided[known]), 1)

    def result(self, table, column) -> CsvPrediction:
        result = super().result(table, column)
        if not self.matrix.any():
            return result
        return replace(result, matrix=tuple(map(tuple, self.matrix.tolist())),
                       labels=tuple(self.list_model.classes))


def _list_reason(rule_list, step: int, clause: int) -> str:
    """What decided a row: ``rule 2: <its clause that holds>``, or that no rule holds."""
    if step == len(rule_list.rules):
        return "no rule holds"
    rule = rule_list.rules[step]
    text = str(rule) if clause < 0 else rule.clauses[clause].render(rule.inner_op)
    return f"rule {step + 1}: {text}"


def _scoring(model, missing_values, decimal: str | None = None) -> _Scoring:
    return _ListScoring(model, missing_values, decimal) if isinstance(model, LoadedRuleList) \
        else _Scoring(model, missing_values, decimal)


def _label_index(cell, labels) -> int:
    """The index of the label of ``labels`` that a cell names (-1: none): the one written as the
    cell is (stripped), else the first that :func:`_names_label` matches, so that text labels
    ``0`` and ``-0`` each keep their own rows."""
    if isinstance(cell, str):
        text = cell.strip()
        exact = next((k for k, label in enumerate(labels)
                      if isinstance(label, str) and label == text), None)
        if exact is not None:
            return exact
    return next((k for k, label in enumerate(labels) if _names_label(cell, label)), -1)


def _names_label(cell, label) -> bool:
    """A cell's text names ``label``: an integer label is compared exactly with a number's
    text (as a decimal: floats merge integers beyond 2**53), anything else by
    :func:`values_equal`."""
    if isinstance(label, int) and not isinstance(label, bool) and isinstance(cell, str):
        try:
            return bool(decimal.Decimal(cell.strip()) == label)
        except decimal.InvalidOperation:
            pass
    return values_equal(cell, label)


class _Columns:
    """The distinct values of each column of ``cells`` (a literal is judged once per value),
    and their numbers, converted once per column for every threshold on it."""

    def __init__(self, cells: pd.DataFrame):
        self.cells = cells
        self.cache: dict[str, tuple[np.ndarray, pd.DataFrame]] = {}
        self.numeric: dict[str, np.ndarray] = {}

    def get(self, feature: str):
        """``(codes, values)``: the column is ``values.iloc[codes]``; its last row is missing."""
        if feature not in self.cache:
            from rulelearn.rules import feature_column

            codes, uniques = pd.factorize(feature_column(self.cells, feature), use_na_sentinel=True)
            distinct = np.append(np.asarray(uniques, dtype=object), np.nan)
            values = pd.DataFrame({feature: pd.Series(distinct, dtype=object)})
            self.cache[feature] = (np.where(codes < 0, len(uniques), codes), values)
        return self.cache[feature]

    def numbers(self, feature: str) -> np.ndarray:
        """The distinct values of :meth:`get` as numbers (NaN: missing or not a number), as
        :meth:`Literal.evaluate <rulelearn.rules.Literal.evaluate>` reads them for ``<=``
        and ``>``."""
        if feature not in self.numeric:
            values = self.get(feature)[1][feature]
            self.numeric[feature] = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
        return self.numeric[feature]


def _literal_held(literal, columns: _Columns) -> np.ndarray:
    codes, values = columns.get(literal.feature)
    if literal.op not in ("<=", ">"):
        return literal.evaluate(values)[codes]
    from rulelearn.rules import _as_float

    numbers, threshold = columns.numbers(literal.feature), _as_float(literal.value)
    with np.errstate(invalid="ignore"):
        held = numbers <= threshold if literal.op == "<=" else numbers > threshold
    return (held & ~np.isnan(numbers))[codes]


def _deciding(clause_held, dnf: bool, n: int) -> np.ndarray:
    """Per row: the first clause that holds (DNF) / fails (CNF); ``len(clause_held)``: none."""
    out = np.full(n, len(clause_held))
    for index in reversed(range(len(clause_held))):
        out[clause_held[index] if dnf else ~clause_held[index]] = index
    return out


def _clause_held(clause, columns: _Columns, join: str) -> np.ndarray:
    n = len(columns.cells)
    if not clause.literals:
        return np.full(n, join == "and")
    held = [_literal_held(literal, columns) for literal in clause.literals]
    return np.logical_or.reduce(held) if join == "or" else np.logical_and.reduce(held)


def _non_numeric(rule: Rule, columns: _Columns) -> dict:
    """Per column the rule compares with a number: (its non-numeric cells, the first of them)."""
    found = {}
    numeric = dict.fromkeys(lit.feature for clause in rule.clauses for lit in clause.literals
                            if lit.op in ("<=", ">"))
    for name in numeric:
        codes, values = columns.get(name)
        column = values[name]
        bad = column.notna().to_numpy() & np.isnan(columns.numbers(name))
        rows = bad[codes]
        if rows.any():
            found[name] = (int(rows.sum()), column.iloc[codes[np.argmax(rows)]])
    return found
