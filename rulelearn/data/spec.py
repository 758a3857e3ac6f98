"""What a registry entry is: a dataset's sources, files, parse format and facts
(:class:`DatasetSpec`); the entries themselves are in :mod:`.registry` and :mod:`.packaged`."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The classic UCI citation; each entry adds the dataset's own paper.
UCI_CITATION = (
    "Dua, D. and Graff, C. (2019). UCI Machine Learning Repository. "
    "Irvine, CA: University of California, School of Information and Computer Science."
)
MISSING = ("?",)


@dataclass(frozen=True)
class SourceFile:
    """One downloadable file: its name (in the cache and in a mirror folder), URL and sha256.

    ``sha256=None`` means no checksum can be known; the file is then verified by parsing it and
    checking the entry's rows, features and class counts (``verified_by`` says so).
    """

    file: str
    url: str
    sha256: str | None

    @property
    def verified_by(self) -> str:
        return "sha256" if self.sha256 else "parsed shape and class counts (no known sha256)"


@dataclass(frozen=True)
class Format:
    """How to parse a source's file into features and a label.

    ``columns`` names the columns of a file without a header row; ``label`` is the label column;
    ``drop`` lists id/name columns; ``categorical`` the non-numeric feature columns (every other
    feature must be numeric); ``missing`` the tokens read as missing. ``compression`` is
    ``None``, ``"gzip"`` or ``"compress"`` (Unix ``.Z``).
    """

    label: str
    columns: tuple[str, ...] | None = None
    sep: str = ","
    drop: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    missing: tuple[str, ...] = MISSING
    compression: str | None = None


@dataclass(frozen=True)
class Source:
    """A place the dataset can come from (``"UCI"`` first, then named mirrors such as
    ``"PMLB"``)."""

    name: str
    files: tuple[SourceFile, ...]
    format: Format | None  # None for a bundled dataset
    note: str = ""
    #: a bundled dataset: dotted path of a scikit-learn style loader returning a Bunch
    loader: str | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """Everything rulelearn knows about one dataset."""

    name: str
    title: str
    page: str
    sources: tuple[Source, ...]
    positive: object
    positive_reason: str
    n_rows: int
    n_features: int
    class_counts: dict = field(hash=False)
    citation: str = UCI_CITATION
    note: str = ""
    bundled: bool = False

    @property
    def source(self) -> Source:
        """The primary source."""
        return self.sources[0]
