"""Raw files -> features and labels. Pure: reads local files, never the network.

Registry files and users' CSV files go through the same steps: :func:`read_table` (every cell a
stripped string, missing tokens -> NaN), then :func:`split_features` (numeric columns -> float64,
categorical columns -> ``category``, labels -> ints where they are whole numbers, else strings).
"""

from __future__ import annotations

import codecs
import csv
import gzip
import importlib
import io
import zlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from rulelearn._labels import default_positive, same_label
from rulelearn._utils import closest
from rulelearn.errors import DataError

#: Tokens read as "missing" in a user's CSV unless told otherwise.
DEFAULT_MISSING = ("", "NA", "NaN", "nan", "?", "null", "None")
#: Separators tried, in this order, when a file's separator is not given.
SEPARATORS = (",", ";", "\t", "|")
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
            raise DataError(f"{name} is not a text file (it holds NUL bytes); rulelearn reads "
                            "CSV text in UTF-8 or UTF-16")
        else:
            encoding = "utf-8"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        shown = encoding.upper().replace("-SIG", "")
        raise DataError(f"{name} is not {shown} text: byte 0x{raw[exc.start]:02x} on line {line} "
                        f"cannot be decoded; save the file as UTF-8 (or UTF-16) text") from None
    if "\x00" in text:
        raise DataError(f"{name} is not a text file (it holds NUL bytes); rulelearn reads CSV "
                        "text in UTF-8 or UTF-16")
    return text


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
               compression=None) -> pd.DataFrame:
    """Read a delimited file (path or bytes) into a DataFrame of stripped strings.

    The text may be UTF-8 or UTF-16 (:func:`decode_text`). ``sep=None`` finds the separator
    (:func:`sniff_separator`: comma, semicolon, tab or ``|``). Cells equal to a ``missing``
    token after stripping become NaN. Without a header row, ``columns`` names the columns and
    the file must have exactly that many.
    """
    name = str(source) if isinstance(source, (str, Path)) else getattr(source, "name", "data")
    raw = source if isinstance(source, bytes) else _read_bytes(source)
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
        names = [str(c).strip() for c in first]
        repeated = sorted({c for c in names if names.count(c) > 1})
        if repeated:
            raise DataError(f"{name}: the header repeats column name(s) "
                            f"{', '.join(map(repr, repeated))}; rename them")
    if columns is not None:
        if df.shape[1] != len(columns):
            raise DataError(f"{name}: expected {len(columns)} columns, got {df.shape[1]}")
        df.columns = list(columns)
    df.columns = [str(c).strip() for c in df.columns]
    tokens = list(missing)
    df = df.apply(lambda s: s.str.strip())
    return df.mask(df.isin(tokens)).astype(object)


def _read_bytes(path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise DataError(f"cannot read {path}: no such file") from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None


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
            example, row = s[infinite].iloc[0], int(np.flatnonzero(infinite)[0])
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
                "separators")
        return s.astype(object).astype("category")
    example, row = s[bad].iloc[0], s[bad].index[0]
    raise DataError(
        f"column {s.name!r} is numeric but has {n_bad} non-numeric value(s), e.g. {example!r} in "
        f"data row {row + 1}; fix them or pass them as missing values")


def _labels(s: pd.Series) -> np.ndarray:
    """Labels as parsed: whole numbers -> int64, other numbers -> float64, else strings."""
    num, bad = _to_numeric(s)
    values = num.to_numpy()
    if bad.any() or not np.isfinite(values).all():  # "inf" is a name here, not a number
        return s.astype(object).to_numpy()
    if np.all(values == np.round(values)) and np.all(np.abs(values) < 2.0 ** 63):
        return values.astype(np.int64)
    return values


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
                      for c in feats.columns}, index=pd.RangeIndex(len(df)))
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
                     name=None, sep=None) -> Dataset:
    """Load a user's CSV file (header row required) as a :class:`Dataset`.

    - ``target``: the label column (default: the last column); it must have exactly two classes,
      and no missing values (rows without a label are refused, not dropped, so that nothing is
      silently left out).
    - ``positive``: the class a DNF rule predicts (default: the minority class; on a tie, the label
      that sorts last). Given as a string it matches a label's text, so ``"1"`` selects ``1``.
    - ``missing_values``: cell values read as missing (default :data:`DEFAULT_MISSING`); leading
      and trailing spaces are ignored.
    - ``sep``: the separator (default: found from the file, see :func:`sniff_separator`); the
      text may be UTF-8 or UTF-16 (see :func:`decode_text`).
    - Feature columns: a column whose values all parse as numbers is numeric (float64); a column
      whose values are mostly not numbers is categorical; a column that is mostly numbers with a
      few non-numbers is refused with an error naming the column and a bad value (a typo or an
      unlisted missing-value token is more likely than a categorical feature). A column with no
      value at all is refused.
    """
    path = Path(path)
    missing = DEFAULT_MISSING if missing_values is None else tuple(missing_values)
    df = read_table(path, sep=sep, missing=missing)
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
        raise DataError(f"target {target!r} is missing in {len(absent)} data row(s) ({rows}); "
                        "remove those rows or fill in their label")
    X, y = split_features(df, target)
    counts = Counter(y.tolist())
    labels = sorted(counts, key=str)
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
        match = [k for k in labels if same_label(k, positive)]
        if not match:
            raise DataError(f"positive class {positive!r} is not a value of target {target!r} "
                            f"(values: {', '.join(map(str, labels))})")
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


def identifier_like_columns(X: pd.DataFrame) -> list:
    """Categorical columns with a distinct value in every row (of at least 20 rows)."""
    return [c for c in X.columns
            if len(X) >= 20 and not pd.api.types.is_numeric_dtype(X[c])
            and X[c].nunique(dropna=False) == len(X)]
