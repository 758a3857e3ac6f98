"""Raw files -> features and labels. Pure: reads local files, never the network.

Registry files and users' CSV files go through the same steps: :func:`read_table` (every cell a
stripped string, missing tokens -> NaN), then :func:`split_features` (numeric columns -> float64,
categorical columns -> ``category``, labels as written: ints where every label is an integer
written as Python writes one, else the text; see ``_labels``). Reading a path is bounded
(:mod:`rulelearn.data.files`).
"""

from __future__ import annotations

import codecs
import csv
import gzip
import importlib
import io
import itertools
import re
import warnings
import zlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from rulelearn._labels import default_positive, matching_labels
from rulelearn._utils import closest
from rulelearn.data.files import MAX_TEXT_BYTES, check_readable, read_bounded
from rulelearn.errors import DataError

#: Tokens read as "missing" in a user's CSV unless told otherwise.
DEFAULT_MISSING = ("", "NA", "NaN", "nan", "?", "null", "None")
#: Separators tried, in this order, when a file's separator is not given.
SEPARATORS = (",", ";", "\t", "|")
#: The decimal marks a CSV file's numbers may use (``--decimal``).
DECIMAL_MARKS = (".", ",")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True, eq=False)
class Dataset:
    """Features, labels and the positive class of one dataset."""

    name: str
    X: pd.DataFrame
    y: np.ndarray
    positive: object
    positive_reason: str = ""
    source: str = ""
    #: The label column's name in the file, where there is one (users' CSV files).
    target: str | None = None

    @property
    def is_positive(self) -> np.ndarray:
        """Boolean vector: ``y == positive``."""
        return np.asarray(self.y == self.positive, dtype=bool)


# ---------------------------------------------------------------------------------------- reading

def unlzw(data: bytes) -> bytes:
    """Decompress Unix ``compress`` (``.Z``, LZW) data; the standard library cannot."""
    if len(data) < 3 or data[:2] != b"\x1f\x9d":
        raise DataError("not a .Z (Unix compress) file")
    maxbits, block = data[2] & 0x1F, data[2] & 0x80
    if not 9 <= maxbits <= 16:
        raise DataError(f"corrupt .Z file: {maxbits}-bit codes")
    src, n = data[3:] + b"\0\0", len(data) - 3
    table = [bytes([i]) for i in range(256)] + [b""]
    out, prev = [], None
    bits, mask, end, mark, pos = 9, 0x1FF, 256 if block else 255, 0, 0

    def flush():  # skip to the next multiple of `bits` bytes since `mark` (compress's quirk)
        consumed = (pos + 7) >> 3
        return consumed + (-(consumed - mark)) % bits

    while True:
        if end >= mask and bits < maxbits:
            mark = flush()
            pos, bits, mask = mark * 8, bits + 1, (mask << 1) | 1
        if pos + bits > n * 8:
            break
        i = pos >> 3
        code = ((src[i] | src[i + 1] << 8 | src[i + 2] << 16) >> (pos & 7)) & mask
        pos += bits
        if code == 256 and block:
            mark = flush()
            # like compress, keep `prev`: the next code fills the unused slot 256
            pos, bits, mask, end = mark * 8, 9, 0x1FF, 255
            continue
        entry, new = _lzw_entry(table, prev, code, end)
        if new is not None and end < (1 << maxbits) - 1:
            end += 1
            if end < len(table):
                table[end] = new
            else:
                table.append(new)
        out.append(entry)
        prev = entry
    return b"".join(out)


def _lzw_entry(table, prev, code, end):
    """The bytes of ``code`` and the table entry it adds (``None`` after a reset)."""
    if prev is None:
        if code > 255:
            raise DataError("corrupt .Z file: bad first code")
        return table[code], None
    if code <= end:
        entry = table[code]
        return entry, prev + entry[:1]
    if code == end + 1:
        entry = prev + prev[:1]
        return entry, entry
    raise DataError("corrupt .Z file: code out of range")


def decode_text(raw: bytes, name: str = "data") -> str:
    """The text of a file: UTF-8 (with or without a byte order mark), or UTF-16 / UTF-32 with a
    byte order mark, or UTF-16 without one (recognised by its zero bytes).

    Raises DataError naming the problem for a binary file or text in another encoding.
    """
    encoding = _encoding(raw, name)
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise _undecodable(name, encoding, raw, exc, 0) from None
    if "\x00" in text:
        raise _nul_bytes(name)
    return text


def _encoding(raw: bytes, name: str) -> str:
    """The codec of a file that starts with ``raw`` (see :func:`decode_text`)."""
    encoding = next((codec for bom, codec in _BOMS if raw.startswith(bom)), None)
    if encoding is None:
        head = raw[:4096]
        even, odd = head[0::2].count(0), head[1::2].count(0)
        half = len(head) // 2
        if half >= 2 and odd >= 0.5 * half and even == 0:
            encoding = "utf-16-le"
        elif half >= 2 and even >= 0.5 * half and odd == 0:
            encoding = "utf-16-be"
        elif b"\x00" in raw:
            raise _nul_bytes(name)
        else:
            encoding = "utf-8"
    return encoding


def _nul_bytes(name) -> DataError:
    return DataError(f"{name} is not a text file (it holds NUL bytes); rulelearn reads CSV text "
                     "in UTF-8 or UTF-16")


def _undecodable(name, encoding, raw, exc, lines_before) -> DataError:
    line = lines_before + raw[:exc.start].count(b"\n") + 1
    shown = encoding.upper().replace("-SIG", "")
    return DataError(f"{name} is not {shown} text: byte 0x{raw[exc.start]:02x} on line {line} "
                     f"cannot be decoded; save the file as UTF-8 (or UTF-16) text")


def iter_text(path, *, block: int = 1 << 22):
    """The text of the file at ``path`` (decoded as :func:`decode_text` does, with its errors),
    in pieces of about ``block`` bytes: memory stays flat however large the file."""
    import codecs as _codecs

    name = str(path)
    check_readable(path)  # no device: /dev/zero would never end
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    with f:
        try:
            raw = f.read(max(block, 4096))
        except OSError as exc:  # e.g. a folder
            raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
        encoding = _encoding(raw, name)
        decoder = _codecs.getincrementaldecoder(encoding)(errors="strict")
        lines_before = 0
        while True:
            final = not raw
            try:
                text = decoder.decode(raw, final)
            except UnicodeDecodeError as exc:
                raise _undecodable(name, encoding, raw, exc, lines_before) from None
            if "\x00" in text:
                raise _nul_bytes(name)
            lines_before += raw.count(b"\n")
            if text:
                yield text
            if final:
                return
            raw = f.read(block)


def iter_records(texts, *, size: int = 1 << 22):
    """Pieces of at least ``size`` characters (but the last) of the text pieces ``texts``,
    each ending at a line break outside quotes, as far as the count of ``"`` tells (an even
    count before it). A piece may still end inside a quoted cell when the file has a stray
    quote; the reader then joins it to the next (:func:`read_table_chunks`)."""
    buffer = ""
    for text in texts:
        buffer += text
        if len(buffer) < size:
            continue
        cut = _cut(buffer)
        if cut:
            yield buffer[:cut]
            buffer = buffer[cut:]
    if buffer:
        yield buffer


def _cut(text: str) -> int:
    """Where to end a piece of ``text``: after its last line break outside quotes (0: none)."""
    end = len(text)
    quoted = '"' in text
    for _ in range(64):
        pos = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end))
        if pos < 0:
            return 0
        if not quoted or text.count('"', 0, pos) % 2 == 0:
            return pos + 1
        end = pos
    return 0


def sniff_separator(text: str) -> str:
    """The first of :data:`SEPARATORS` that splits the header into several columns and every
    sampled row into as many; else the one giving the header the most columns; else a comma."""
    sample = text[:1 << 16]
    rows_by_sep = {}
    for sep in SEPARATORS:
        rows = []
        try:
            for row in csv.reader(io.StringIO(sample, newline=""), delimiter=sep):
                if row:
                    rows.append(len(row))
                if len(rows) > 50:
                    break
        except csv.Error:  # e.g. a field beyond csv's size limit: judge by the rows so far
            pass
        if len(sample) < len(text) and len(rows) <= 50 and len(rows) > 1:
            rows.pop()  # the sample may end inside the last row
        rows_by_sep[sep] = rows
    for sep, rows in rows_by_sep.items():
        if rows and rows[0] > 1 and all(n == rows[0] for n in rows):
            return sep
    best = max(SEPARATORS, key=lambda sep: (rows_by_sep[sep] or [0])[0])
    return best if (rows_by_sep[best] or [0])[0] > 1 else ","


def _decompress(raw: bytes, compression: str | None) -> bytes:
    if compression == "gzip":
        return gzip.decompress(raw)
    if compression == "compress":
        return unlzw(raw)
    return raw


def read_table(source, *, sep=None, header=True, columns=None, missing=DEFAULT_MISSING,
               compression=None, decimal=".") -> pd.DataFrame:
    """Read a delimited file (path or bytes) into a DataFrame of stripped strings.

    The text may be UTF-8 or UTF-16 (:func:`decode_text`). ``sep=None`` finds the separator
    (:func:`sniff_separator`: comma, semicolon, tab or ``|``). Cells equal to a ``missing``
    token after stripping become NaN. Without a header row, ``columns`` names the columns and
    the file must have exactly that many. ``decimal=","``: numbers written with a decimal
    comma (``1,5``) are read as ``1.5`` (:func:`with_decimal_point`).
    """
    check_decimal(decimal)
    name = str(source) if isinstance(source, (str, Path)) else getattr(source, "name", "data")
    raw = source if isinstance(source, bytes) else _read_bytes(source, compression is None)
    try:
        raw = _decompress(raw, compression)
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(f"cannot decompress {name}: {exc}") from None
    text = decode_text(raw, name)
    sep = sniff_separator(text) if sep is None else sep
    try:
        df = pd.read_csv(io.StringIO(text, newline=""), sep=sep, header=0 if header else None,
                         dtype=str, na_filter=False, index_col=False, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        raise DataError(f"{name} is empty") from None
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(f"cannot parse {name}: {str(exc).strip().splitlines()[-1]}") from None
    if header:
        first = pd.read_csv(io.StringIO(text, newline=""), sep=sep, header=None, nrows=1, dtype=str,
                            skipinitialspace=True, keep_default_na=False).iloc[0]
        check_header([str(c).strip() for c in first], name)
    if columns is not None:
        if df.shape[1] != len(columns):
            raise DataError(f"{name}: expected {len(columns)} columns, got {df.shape[1]}")
        df.columns = list(columns)
    df.columns = [str(c).strip() for c in df.columns]
    tokens = list(missing)
    df = df.apply(lambda s: s.str.strip())
    return with_decimal_point(df.mask(df.isin(tokens)).astype(object), decimal,
                              strict=True)


def check_header(names: list, name: str) -> None:
    """Refuse a header row with a column without a name (named by its position: pandas would
    call it ``Unnamed: 3``, a name that is in no file) or a name given twice."""
    empty = [i for i, c in enumerate(names, 1) if c == ""]
    if empty:
        where = ", ".join(map(str, empty))
        last = " (the last: a separator at the end of the header line?)" \
            if empty[-1] == len(names) else ""
        raise DataError(f"{name}: column {where} of {len(names)} in the header has no "
                        f"name{last}; name it or remove it")
    repeated = sorted({c for c in names if names.count(c) > 1})
    if repeated:
        raise DataError(f"{name}: the header repeats column name(s) "
                        f"{', '.join(map(repr, repeated))}; rename them")


def check_decimal(decimal) -> None:
    if decimal not in DECIMAL_MARKS:
        raise DataError(f"the decimal mark must be one of {', '.join(map(repr, DECIMAL_MARKS))}. "
                        f"Got {decimal!r} instead.")


#: The thousands separators a number written with a decimal comma may use (``--decimal ,``):
#: a point, a space, an apostrophe, a no-break space and a narrow no-break space.
THOUSANDS_SEPARATORS = (".", " ", "'", "\u00a0", "\u202f")
#: A number with a decimal comma and no thousands separator: ``1,5``, ``-0,25``, ``,5``,
#: ``1,5e3``.
COMMA_DECIMAL = r"[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?"
#: A number with a decimal comma (or none) and its digits grouped by threes with one of
#: :data:`THOUSANDS_SEPARATORS`, the same one throughout: ``1.234,5``, ``1 234,5``,
#: ``1'234``, ``-12.500.000``. The first group does not start with 0 (``0.125`` is not 125).
COMMA_GROUPED = (r"[+-]?[1-9]\d{0,2}(?P<sep>[. '\u00a0\u202f])\d{3}((?P=sep)\d{3})*"
                 r"(,\d*)?([eE][+-]?\d+)?")


def with_decimal_point(cells: pd.DataFrame, decimal: str = ".", *,
                       strict: bool = False) -> pd.DataFrame:
    """``cells`` (text) with every number written with the decimal mark ``decimal`` rewritten
    with a point and without thousands separators; other cells (text, ``12,500,000``) as they
    are. ``decimal="."``: ``cells`` itself.

    With ``decimal=","``: ``1,5`` -> ``1.5`` (:data:`COMMA_DECIMAL`), and a number whose
    digits are grouped by threes (:data:`COMMA_GROUPED`: ``1.234,5``, ``1 234,5``,
    ``1'234,5``) -> ``1234.5``; a point is then a thousands separator, never a decimal mark.
    A cell such as ``1.5`` or ``0.125`` (a point that does not group digits) is left as it is.
    ``strict`` (reading a training file): a column that holds both a number grouped with points
    (``1.234`` read as 1234) and one with a decimal point (``1.5``) is a :class:`DataError`
    naming both, since one of them is read wrongly.
    """
    check_decimal(decimal)
    if decimal == ".":
        return cells

    def column(values: pd.Series) -> pd.Series:
        text = values.where(values.map(lambda v: isinstance(v, str)), None)
        plain = text.str.fullmatch(COMMA_DECIMAL).fillna(False).astype(bool)
        grouped = text.str.fullmatch(COMMA_GROUPED).fillna(False).astype(bool) & ~plain
        if not (plain.any() or grouped.any()):
            return values
        if strict and grouped.any():
            _check_point_groups(values.name, text, grouped)
        out = values.where(~plain, text.str.replace(",", ".", regex=False))
        if grouped.any():
            digits = text[grouped].str.replace(r"[. '\u00a0\u202f]", "", regex=True)
            out = out.where(~grouped, digits.str.replace(",", ".", regex=False))
        return out

    return cells.apply(column) if len(cells.columns) else cells


def _check_point_groups(name, text: pd.Series, grouped: pd.Series) -> None:
    """Refuse a column where a point groups digits in one cell and is a decimal point in
    another (``--decimal ,``)."""
    with_points = grouped & text.str.contains(".", regex=False).fillna(False).astype(bool)
    if not with_points.any():
        return
    decimals = text[~grouped].dropna()
    decimals = decimals[decimals.str.fullmatch(r"[+-]?(\d*\.\d+|\d+\.)([eE][+-]?\d+)?")]
    if len(decimals):
        raise DataError(
            f"column {name!r} mixes {text[with_points].iloc[0]!r} (read as a number with "
            f"thousands separators under --decimal ,) and {decimals.iloc[0]!r} (a decimal "
            "point): write the column's numbers one way")


def _read_bytes(path, text: bool = True) -> bytes:
    """The bytes of a data file: a regular file or a pipe, at most :data:`~rulelearn.data.
    files.MAX_TEXT_BYTES`. ``text``: binary data (NUL bytes in the first block, not UTF-16) is
    refused before the rest is read."""
    def check(first: bytes) -> None:
        _encoding(first, str(path))

    return read_bounded(path, limit=MAX_TEXT_BYTES, check=check if text else None)


# ------------------------------------------------------------------------------------ conversion

def _to_numeric(s: pd.Series) -> tuple[pd.Series, pd.Series]:
    num = pd.to_numeric(s, errors="coerce").astype("float64")
    return num, s.notna() & num.isna()


#: A number with a decimal comma or thousands separators ("1,5", "-0,25", "12,500,000").
_COMMA_NUMBER = r"[+-]?(\d*,\d+|\d{1,3}(,\d{3})+)([eE][+-]?\d+)?|[+-]?\d+(\.\d*)?"


def _feature(s: pd.Series, categorical: bool | None) -> pd.Series:
    """One feature column: declared categorical, declared numeric (None: detect)."""
    if categorical:
        return s.astype(object).astype("category")
    num, bad = _to_numeric(s)
    if not bad.any():
        infinite = np.isinf(num.to_numpy())
        if infinite.any():
            example, row = s[infinite].iloc[0], int(s.index[np.flatnonzero(infinite)[0]])
            raise DataError(
                f"column {s.name!r} has {int(infinite.sum())} infinite value(s), e.g. "
                f"{example!r} in data row {row + 1}; a rule needs finite numbers: replace them "
                "or pass them as missing values")
        return num
    n_bad, n_present = int(bad.sum()), int(s.notna().sum())
    if categorical is None and 2 * n_bad > n_present:
        present = s[s.notna()].astype(str)
        if present.str.fullmatch(_COMMA_NUMBER).all():  # not categories: "0,5", "12,000"
            example = present[present.str.contains(",")].iloc[0]
            raise DataError(
                f"column {s.name!r} holds numbers written with a comma, e.g. {example!r}: a "
                "decimal comma or a thousands separator? Write them with a decimal point and no "
                "separators, or read decimal commas with --decimal ,")
        return s.astype(object).astype("category")
    example, row = s[bad].iloc[0], s[bad].index[0]
    raise DataError(
        f"column {s.name!r} is numeric but has {n_bad} non-numeric value(s), e.g. {example!r} in "
        f"data row {row + 1}; fix them or pass them as missing values")


def _labels(s: pd.Series) -> np.ndarray:
    """Class labels as written in the file: int64 where every label is an integer written as
    Python writes one (``0``, ``1``, ``-3``, ``9007199254740993``: exact, beyond 2**53 too),
    else the text of each cell.

    So labels are never changed by reading: ``007``, ``+1``, ``-0``, ``1e3``, ``1.0`` and
    ``1.50`` stay the text they are (a column that holds one of them is text throughout), and
    labels such as ``1.50``, ``2.25``, ``3`` are three classes, however numeric they look: a
    label column is a set of classes, never a measurement to be rounded.
    """
    texts = pd.unique(s.to_numpy())
    exact = {}
    for text in texts:
        try:
            value = int(text)
        except (TypeError, ValueError):
            return s.astype(object).to_numpy()
        if str(value) != text or not -2 ** 63 <= value < 2 ** 63:
            return s.astype(object).to_numpy()
        exact[text] = value
    return np.array([exact[t] for t in s.to_numpy()], dtype=np.int64)


def split_features(df: pd.DataFrame, label: str, *, drop=(), categorical=None):
    """``(X, y)`` from a table of strings.

    ``categorical``: the categorical feature names (every other feature must then be numeric), or
    None to detect them (see :func:`read_csv_dataset`). Every feature column must have a value.
    """
    for col in (label, *drop, *(categorical or ())):
        if col not in df.columns:
            raise DataError(f"no column {col!r} in the data (columns: {', '.join(df.columns)})")
    feats = df.drop(columns=[label, *drop])
    empty = [c for c in feats.columns if feats[c].isna().all()]
    if empty:
        raise DataError(f"feature column {empty[0]!r} has no values (all missing)")
    X = pd.DataFrame({c: _feature(feats[c], None if categorical is None else c in categorical)
                      .reset_index(drop=True) for c in feats.columns},
                     index=pd.RangeIndex(len(df)))
    return X, _labels(df[label])


# ------------------------------------------------------------------------------ registry datasets

def parse_source(source, paths) -> tuple[pd.DataFrame, np.ndarray]:
    """Parse a registry :class:`~rulelearn.data.registry.Source` from its local files."""
    if source.loader:
        module, _, func = source.loader.rpartition(".")
        bunch = getattr(importlib.import_module(module), func)()
        X = pd.DataFrame(np.asarray(bunch.data, dtype="float64"), columns=list(bunch.feature_names))
        return X, np.asarray(bunch.target_names, dtype=object)[bunch.target]
    fmt = source.format
    df = read_table(Path(paths[0]), sep=fmt.sep, header=fmt.columns is None, columns=fmt.columns,
                    missing=fmt.missing, compression=fmt.compression)
    return split_features(df, fmt.label, drop=fmt.drop, categorical=fmt.categorical)


def _counts(counts: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))


def check_shape(spec, X: pd.DataFrame, y: np.ndarray, what: str = "") -> None:
    """Raise DataError unless X and y have the spec's rows, features and class counts."""
    where = f"{spec.name}{' (' + what + ')' if what else ''}"
    if X.shape != (spec.n_rows, spec.n_features):
        raise DataError(f"{where}: expected {spec.n_rows} rows x {spec.n_features} features, "
                        f"got {X.shape[0]} x {X.shape[1]}")
    counts = dict(Counter(y.tolist()))
    if counts != spec.class_counts:
        raise DataError(f"{where}: expected class counts {_counts(spec.class_counts)}, "
                        f"got {_counts(counts)}")


# --------------------------------------------------------------------------------- users' files

def read_csv_dataset(path, *, target=None, positive=None, missing_values=None,
                     name=None, sep=None, decimal=".", multiclass=False) -> Dataset:
    """Load a user's CSV file (header row required: every column named, no name twice) as a
    :class:`Dataset`.

    - ``target``: the label column (default: the last column); it must have exactly two classes.
      Rows without a label are left out, with one warning giving their count and the first of
      their row numbers (a file of no label at all is refused).
      The labels are kept as written (``007`` stays ``007``; integers written plainly are read
      as ints: ``_labels``).
    - ``positive``: the class a DNF rule predicts (default: the minority class; on a tie, the label
      that sorts last). Given as a string it matches a label's text, so ``"1"`` selects ``1``.
    - ``multiclass``: a target of three or more classes is read too (for a rule list,
      :mod:`rulelearn.rule_list`); its dataset has no positive class (``positive`` is None).
    - ``missing_values``: cell values read as missing (default :data:`DEFAULT_MISSING`); leading
      and trailing spaces are ignored.
    - ``sep``: the separator (default: found from the file, see :func:`sniff_separator`); the
      text may be UTF-8 or UTF-16 (see :func:`decode_text`).
    - ``decimal``: the decimal mark of the file's numbers, ``"."`` or ``","`` (``1,5``; see
      :func:`with_decimal_point`).
    - Feature columns: a column whose values all parse as numbers is numeric (float64); a column
      whose values are mostly not numbers is categorical; a column that is mostly numbers with a
      few non-numbers is refused with an error naming the column and a bad value (a typo or an
      unlisted missing-value token is more likely than a categorical feature). A column with no
      value at all is refused.
    """
    path = Path(path)
    missing = DEFAULT_MISSING if missing_values is None else tuple(missing_values)
    df = read_table(path, sep=sep, missing=missing, decimal=decimal)
    if df.shape[1] < 2:
        raise DataError(f"{path} has {df.shape[1]} column; need at least one feature and a target "
                        f"(if its separator is not a comma, semicolon, tab or |, give it: --sep)")
    if df.shape[0] == 0:
        raise DataError(f"{path} has a header but no data rows")
    target = df.columns[-1] if target is None else target
    if target not in df.columns:
        close = closest(target, df.columns)
        hint = (f"; did you mean {close!r}?" if close is not None
                else f" (columns: {', '.join(df.columns)})")
        raise DataError(f"no target column {target!r} in {path}{hint}")
    absent = np.flatnonzero(df[target].isna().to_numpy())
    if len(absent):
        rows = ", ".join(str(r + 1) for r in absent[:5]) + (", ..." if len(absent) > 5 else "")
        if len(absent) == len(df):
            raise DataError(f"target {target!r} is missing in {len(absent)} data row(s), every "
                            "row: there is no label to learn from")
        warnings.warn(f"target {target!r} is missing in {len(absent)} of {len(df)} data rows "
                      f"({rows}): those rows are left out", UserWarning, stacklevel=2)
        df = df[df[target].notna()]  # the index keeps each row's place in the file
    X, y = split_features(df, target)
    counts = Counter(y.tolist())
    labels = sorted(counts, key=str)
    if multiclass and len(labels) > 2:
        if positive is not None:
            raise DataError(f"target {target!r} has {len(labels)} classes: it gets a rule list, "
                            "one rule per class, and no positive class; leave out --positive")
        return Dataset(name=name or path.stem, X=X, y=y, positive=None, source=str(path),
                       target=str(target))
    if len(labels) != 2:
        shown = ", ".join(map(str, labels[:10])) + (", ..." if len(labels) > 10 else "")
        raise DataError(
            f"target {target!r} has {len(labels)} class{'es' if len(labels) != 1 else ''} "
            f"({shown}); a rule needs exactly 2" + (
                "; binarize it first, e.g. make a column that is 1 for one class and 0 otherwise"
                if len(labels) > 2 else ""))
    if positive is None:
        positive = default_positive(y.tolist())
        reason = f"the minority class ({counts[positive]}/{len(y)})"
    else:
        written = pd.DataFrame({"text": df[target].to_numpy(), "label": y}).drop_duplicates()
        spellings = dict(zip(written["text"], written["label"]))
        match = matching_labels(labels, positive, spellings)
        if not match:
            raise DataError(f"positive class {positive!r} is not a value of target {target!r} "
                            f"(values: {', '.join(map(str, labels))})")
        if len(match) > 1:
            raise DataError(f"positive class {positive!r} names more than one value of target "
                            f"{target!r} ({', '.join(map(str, match))}); give one as it is "
                            "written in the file")
        positive, reason = match[0], "given by the user"
    return Dataset(name=name or path.stem, X=X, y=y, positive=positive, positive_reason=reason,
                   source=str(path), target=str(target))


def drop_columns(dataset: Dataset, columns) -> Dataset:
    """``dataset`` without the feature ``columns`` (``rulelearn fit --drop``).

    Refuses the target, a column that is not a feature, and leaving no feature.
    """
    for column in columns:
        if column == dataset.target:
            raise DataError(f"--drop {column}: that is the target column")
        if column not in dataset.X.columns:
            raise DataError(f"--drop {column}: no such feature column in {dataset.source} "
                            f"(features: {', '.join(map(str, dataset.X.columns))})")
    if not columns:
        return dataset
    X = dataset.X.drop(columns=list(columns))
    if X.shape[1] == 0:
        raise DataError("--drop left no feature column")
    return replace(dataset, X=X)


# --------------------------------------------------------------------------- large files, chunked

@dataclass(frozen=True)
class TableChunk:
    """Consecutive rows of a file read by :func:`read_table_chunks`.

    ``cells``: the ``wanted`` columns as stripped strings (missing tokens not applied).
    ``frame``: every column as stripped strings, as :func:`read_table` reads them; None when
    ``lines`` holds the rows as ``frame.to_csv(header=False, index=False)`` would write them,
    made from their text (no quotes, every row complete: see ``_as_written``), which is much
    faster than reading and writing every cell.
    """

    cells: pd.DataFrame
    frame: pd.DataFrame | None
    lines: list[str] | None


#: Every character ``str.strip`` removes but the space and the line feed, ASCII ones first.
_SPACE = ("\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
          "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def _as_written(text: str, sep: str, n_columns: int) -> tuple[list[str], bool] | None:
    """The rows of ``text`` as ``DataFrame.to_csv`` would write them back (cells stripped,
    commas between them), and whether a cell has spaces to strip; or None when that needs the
    general reader: quotes, a carriage return, a comma in a cell of a file with another
    separator, a row without exactly ``n_columns`` cells."""
    if '"' in text or "\r" in text or n_columns < 2 or (sep != "," and "," in text):
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "" in lines:  # blank lines are skipped by the reader
        lines = [line for line in lines if line]
    if lines and set(map(str.count, lines, itertools.repeat(sep, len(lines)))) != {n_columns - 1}:
        return None
    spaces = _SPACE[:_SPACE.index("\x85")] if text.isascii() else _SPACE
    plain = not (" " + sep in text or sep + " " in text or " \n" in text or "\n " in text
                 or text.startswith(" ") or text.rstrip("\n").endswith(" ")
                 or any(c in text for c in spaces if c != sep))
    if plain and sep == ",":
        return lines, False
    return [",".join([cell.strip() for cell in line.split(sep)]) for line in lines], not plain


def read_table_chunks(path, *, sep=None, wanted=None, size: int = 1 << 22):
    """``(columns, chunks)`` of the CSV file at ``path`` (header row required), read piece by
    piece so that memory stays flat: ``chunks`` yields :class:`TableChunk` of about ``size``
    characters each. The text, separator and header are read as :func:`read_table` reads them,
    with its errors; ``wanted``: the columns of ``cells`` (default: all)."""
    name = str(path)
    pieces = _Peek(iter_records(iter_text(path), size=size))
    first = next(pieces, "")
    sep = sniff_separator(first) if sep is None else sep
    options = {"sep": sep, "dtype": str, "na_filter": False, "index_col": False,
               "skipinitialspace": True}
    try:
        head = pd.read_csv(io.StringIO(first, newline=""), header=None, nrows=1,
                           keep_default_na=False, **{k: v for k, v in options.items()
                                                      if k not in ("na_filter", "index_col")})
    except pd.errors.EmptyDataError:
        raise DataError(f"{name} is empty") from None
    except (pd.errors.ParserError, ValueError, csv.Error) as exc:
        raise DataError(f"cannot parse {name}: {str(exc).strip().splitlines()[-1]}") from None
    columns = [str(c).strip() for c in head.iloc[0]]
    check_header(columns, name)
    wanted = list(columns) if wanted is None else [c for c in columns if c in set(wanted)]

    def chunks():
        rest = _after_header(first, sep, columns)
        stream = [first if rest is None else rest]
        header_in = rest is None
        lines_before, pending = int(not header_in), ""
        for piece in _chain(stream, pieces):
            text = pending + piece
            if not header_in and not text.strip():
                lines_before += text.count("\n")
                continue
            try:
                chunk = _parse_chunk(text, columns, wanted, options, header_in)
            except (pd.errors.ParserError, ValueError, csv.Error) as exc:
                if '"' in text and len(text) < 1 << 28 and not _is_last(pieces):
                    pending = text  # ended inside a quoted cell (a stray quote): read on
                    continue
                raise DataError(f"cannot parse {name}: {_shift_lines(exc, lines_before)}") \
                    from None
            pending, header_in = "", False
            lines_before += text.count("\n")
            yield chunk
        if pending:
            raise DataError(f"cannot parse {name}: a quoted cell is never closed")

    return columns, chunks()


class _Peek:
    """An iterator that can tell whether it is exhausted."""

    def __init__(self, items):
        self.items, self.next = iter(items), None
        self._advance()

    def _advance(self):
        self.next = next(self.items, _Peek)

    def __iter__(self):
        return self

    def __next__(self):
        if self.next is _Peek:
            raise StopIteration
        value = self.next
        self._advance()
        return value


def _chain(first, rest):
    yield from first
    yield from rest


def _is_last(pieces) -> bool:
    return isinstance(pieces, _Peek) and pieces.next is _Peek


def _after_header(text: str, sep: str, columns) -> str | None:
    """``text`` without its first line when that is the plain header ``columns``, else None."""
    end = text.find("\n")
    line = text[:end]
    if end < 0 or '"' in line or "\r" in line or [c.strip() for c in line.split(sep)] != columns:
        return None
    return text[end + 1:]


def _parse_chunk(text, columns, wanted, options, header_in) -> TableChunk:
    source = io.StringIO(text, newline="")
    header = {"header": 0} if header_in else {"header": None, "names": columns}
    written = None if header_in or not wanted else _as_written(text, options["sep"],
                                                               len(columns))
    if written is not None:  # the rows' text is known: read the wanted cells only
        lines, spaced = written
        cells = pd.read_csv(source, usecols=wanted, **header, **options)[wanted]
        if len(cells) == len(lines):  # else e.g. rows the reader skips: the general way
            if spaced:
                cells = cells.apply(lambda s: s.str.strip())
            return TableChunk(cells.astype(object), None, lines)
        source.seek(0)
    frame = pd.read_csv(source, **header, **options)
    frame.columns = columns
    frame = frame.apply(lambda s: s.str.strip()).astype(object)
    return TableChunk(frame[wanted], frame, None)


def _shift_lines(exc, lines_before: int) -> str:

    message = str(exc).strip().splitlines()[-1]
    return re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + lines_before}", message)
