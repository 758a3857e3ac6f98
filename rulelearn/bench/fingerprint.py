"""What a record was computed from -- its data and its code -- and when it is stale.

Every record keeps two fingerprints besides its run key (which says *what* was asked: the
dataset's and method's configuration, fold, seed):

* ``data_fingerprint`` (:func:`data_fingerprint`): the data the unit read.
* ``code_fingerprint`` (:func:`code_fingerprint`): a hash of the source of the code a learned
  rule depends on (:data:`CODE_FILES`, and the module of the method's estimator) and the
  versions of :data:`CODE_PACKAGES` (and the method's optional package).

Neither is part of the run key, so records written before they were kept still belong to
their configuration.  :func:`staleness` is the one place that decides whether the ``ok``
record of a unit is still a result for the data and code of now; ``bench`` acts on it
(``experiment._units_to_run``):

* **data changed** (or a CSV record without a data fingerprint): always run again.
* **code changed** (the record's code fingerprint is not the code's now): run again, said on
  stderr; ``--reuse-stale`` keeps the record instead (said on stderr and in the tables'
  header, where a cell that mixes code versions is marked).
* **code unrecorded** (a record written before rulelearn kept code fingerprints): ``bench``
  refuses to start, naming how many and the two ways on: ``--force`` (recompute) or
  ``--reuse-stale`` (keep).  It never silently recomputes hours of results, nor silently
  mixes them with new ones.  ``table`` and ``plot`` never recompute anything.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from rulelearn.bench.config import DatasetConfig
from rulelearn.bench.methods import METHODS

#: The package's root folder (the paths of :data:`CODE_FILES` are relative to it).
ROOT = Path(__file__).resolve().parent.parent
#: The sources a learned rule depends on, besides the module of the method's estimator: every
#: ``.py`` file under a folder, or the file itself.
CODE_FILES: tuple[str, ...] = ("learners", "lp.py", "binarize.py", "estimator.py", "rules.py")
#: Sources some methods' results also depend on, beyond their estimator's module: rulelearn's
#: own CV (the public benchmark's ``fit``) and column generation's master and pricing (``cg``).
METHOD_FILES: dict[str, tuple[str, ...]] = {
    "fit": ("model_selection.py", "_defaults.py", "cv_estimator.py", "prune.py"),
    "cg": ("colgen.py",),
}
#: Files under :data:`CODE_FILES` that only these methods' results depend on (column
#: generation's learner: a change there is no reason to rerun BCD).
OWN_FILES: dict[str, tuple[str, ...]] = {"learners/cg.py": ("cg",)}
#: The packages whose versions a result depends on (distribution names).
CODE_PACKAGES: tuple[str, ...] = ("highspy", "numpy", "scikit-learn")

DATA_CHANGED = "data changed"
NO_DATA_FINGERPRINT = "no data fingerprint"
CODE_CHANGED = "code changed"
CODE_UNRECORDED = "code unrecorded"
#: The reasons that ``--reuse-stale`` may override (the others always run again).
CODE_REASONS = (CODE_CHANGED, CODE_UNRECORDED)


# ----------------------------------------------------------------------------------------------
# data


def data_fingerprint(d: DatasetConfig) -> str | None:
    """What a dataset's data is, so that records of other data are not reused.

    A CSV dataset: the sha256 of its file (None if it cannot be read).  A registry dataset:
    the registry's pinned sha256 of its file (one file, one source), else a sha256 of all its
    sources' pinned checksums, else (bundled) its loader; the loader checks the files against
    them, so the data cannot change while those do not.
    """
    from rulelearn._io import sha256_file

    if d.path is not None:
        try:
            return sha256_file(d.path)
        except (OSError, ValueError):
            return None
    from rulelearn.data import REGISTRY

    spec = REGISTRY.get(d.name)
    if spec is None:
        return None
    return registry_fingerprint(spec)


def registry_fingerprint(spec) -> str:
    """The fingerprint of a registry dataset (see :func:`data_fingerprint`)."""
    if spec.bundled:
        return f"bundled:{spec.source.loader}"
    files = [(s.name, f.file, f.sha256) for s in spec.sources for f in s.files]
    if len(files) == 1 and files[0][2]:
        return files[0][2]
    return hashlib.sha256(json.dumps(files).encode()).hexdigest()


# ----------------------------------------------------------------------------------------------
# code


def code_files(method: str) -> list[Path]:
    """The source files :func:`code_fingerprint` hashes for ``method``, sorted."""
    files: set[Path] = set()
    for name in CODE_FILES:
        path = ROOT / name
        if path.is_dir():
            files.update(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        else:
            files.add(path)
    files.difference_update(ROOT / name for name, owners in OWN_FILES.items()
                            if method not in owners)
    files.update(ROOT / name for name in METHOD_FILES.get(method, ()))
    entry = METHODS.get(method)
    module = sys.modules.get(entry.estimator.__module__) if entry is not None else None
    adapter = getattr(module, "__file__", None)
    if adapter:
        files.add(Path(adapter).resolve())
    return sorted(files)


def code_fingerprint(method: str) -> str:
    """``code-`` and 16 hex digits: a hash of the sources (:func:`code_files`) and package
    versions (:data:`CODE_PACKAGES`, and the method's optional package) ``method``'s results
    depend on.  A file that cannot be read counts as missing."""
    from importlib import metadata

    h = hashlib.sha256()
    for path in code_files(method):
        try:
            name = path.relative_to(ROOT).as_posix()
        except ValueError:
            name = path.name
        try:
            data = path.read_bytes()
        except OSError:
            data = b"<missing>"
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    entry = METHODS.get(method)
    packages = list(CODE_PACKAGES) + ([entry.requires[0]] if entry and entry.requires else [])
    for package in packages:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = None
        h.update(f"{package}=={version}\0".encode())
    return "code-" + h.hexdigest()[:16]


# ----------------------------------------------------------------------------------------------
# staleness: data and code, in one place


def staleness(record, unit, *, registry: bool) -> str | None:
    """Why the ``ok`` ``record`` (a :class:`~.records.Record`) of ``unit`` is not a result
    for the unit's data and code now (one of the reasons above), or None.

    A record without a data fingerprint of a registry dataset is taken to be of the
    registry's pinned files, which have not changed; one of a CSV file cannot be told apart
    from one of another version of the file.  The data is checked first.
    """
    recorded = record.data_fingerprint
    if recorded is None:
        if not registry:
            return NO_DATA_FINGERPRINT
    elif unit.data_fingerprint is None or recorded != unit.data_fingerprint:
        return DATA_CHANGED
    if record.code_fingerprint is None:
        return CODE_UNRECORDED
    if record.code_fingerprint != unit.code_fingerprint:
        return CODE_CHANGED
    return None


def _units(count: int) -> str:
    return "1 unit" if count == 1 else f"{count} units"


def stale_line(name: str, count: int, why: str) -> str:
    """The warning for ``count`` units of dataset ``name`` that run again because of ``why``."""
    units = _units(count)
    if why == NO_DATA_FINGERPRINT:
        return (f"{name}: {units} already done run again: recorded with no fingerprint of "
                f"the data (before rulelearn kept one), so a change of the file cannot be "
                f"ruled out.")
    if why == CODE_CHANGED:
        return (f"{name}: {units} already done run again: the code changed since they were "
                f"recorded (--reuse-stale keeps them).")
    return f"{name}: {units} already done run again: the data changed since they were recorded."


def kept_versions(kept: dict) -> dict:
    """``code version -> units`` over ``kept`` (``dataset -> (count, {version: count})``)."""
    out: dict = {}
    for _, by_version in kept.values():
        for version, count in by_version.items():
            out[version] = out.get(version, 0) + count
    return out


def kept_line(kept: dict) -> str:
    """The one warning for the units ``--reuse-stale`` kept (``dataset -> (count,
    {code version: count})``)."""
    count = sum(n for n, _ in kept.values())
    which = ", ".join(f"{v}: {n}" for v, n in kept_versions(kept).items())
    return (f"{_units(count)} of {', '.join(kept)} kept from other code versions by "
            f"--reuse-stale ({which}); the tables say so.")


def unrecorded_message(count: int) -> str:
    """Why ``bench`` refuses to start on records written without a code fingerprint."""
    records = "1 record" if count == 1 else f"{count} records"
    return (f"nothing was run: {records} from an unrecorded code version (written before "
            f"rulelearn kept code fingerprints), so whether they are results of the code now "
            f"is unknown; rerun them with --force or keep them with --reuse-stale.")
