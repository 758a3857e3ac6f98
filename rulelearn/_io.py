"""Writing files: atomic text writes and JSON-native values (used by model files and records).

Rule for results folders: rulelearn never writes through a symbolic link it did not make.  A
file replaced whole goes through a temporary file created with ``O_EXCL | O_NOFOLLOW`` and
renamed over its target (which replaces a link, never the file a link points to); a file
changed in place (``records.jsonl``, its lock) is opened with ``O_NOFOLLOW`` and must be a
regular file of its own (one hard link); a folder to write into must not be a link
(:func:`refuse_link`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from pathlib import Path

import numpy as np

from rulelearn.errors import RuleLearnError

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnsafePathError(RuleLearnError):
    """A path rulelearn will not write through: a symbolic link it did not make, or a file
    shared with another name (a hard link)."""


def link_error(path) -> UnsafePathError:
    return UnsafePathError(
        f"{path} is a symbolic link; rulelearn does not write through a link it did not make: "
        f"remove the link or give another output path.")


def refuse_link(path) -> None:
    """Raise :class:`UnsafePathError` if ``path`` itself (its last component) is a symbolic
    link."""
    if os.path.islink(path):
        raise link_error(path)


def make_folder(path) -> list[Path]:
    """Create folder ``path`` and its missing parents, refusing a ``path`` that is a symbolic
    link; return the folders created, outermost first (what to remove to undo it)."""
    path = Path(path)
    refuse_link(path)
    missing = []
    p = path
    while not os.path.lexists(p) and p != p.parent:
        missing.append(p)
        p = p.parent
    path.mkdir(parents=True, exist_ok=True)
    refuse_link(path)
    return missing[::-1]


def remove_folders(created) -> None:
    """Remove the folders :func:`make_folder` created, innermost first, as far as they are
    empty."""
    for p in reversed(list(created)):
        try:
            os.rmdir(p)
        except OSError:
            return


def open_in_place(path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` for a file changed in place (appended to, locked), never through a link.

    Refuses (:class:`UnsafePathError`) a ``path`` that is a symbolic link, that is not a
    regular file, or that has other hard links (writing would change the file under its other
    names too).
    """
    try:
        fd = os.open(path, flags | NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise link_error(path) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafePathError(f"{path} is not a regular file; move it away and rerun.")
        if st.st_nlink > 1:
            raise UnsafePathError(
                f"{path} has {st.st_nlink} hard links; rulelearn does not write into a file "
                f"shared with another name: replace it by a copy (cp {path} x && mv x {path}).")
    except BaseException:
        os.close(fd)
        raise
    return fd


def sha256_file(path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def replacing(path, *, suffix: str = ".tmp"):
    """Yield a temporary path beside ``path`` that replaces ``path`` when the block succeeds.

    A reader sees the old file or the new one, never half of one; on an error the temporary
    file is removed and ``path`` is left as it was. The new file is readable by all (0644), as
    a plain ``open(path, "w")`` would leave it.  The temporary file is created by ``mkstemp``
    (``O_EXCL | O_NOFOLLOW``); a writer that can take a file object should rather use
    :func:`replacing_file`, which never reopens it by name.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def replacing_file(path, mode: str = "wb", *, suffix: str = ".tmp", **open_kw):
    """Yield a file object open on a new temporary file beside ``path`` (created with
    ``O_EXCL | O_NOFOLLOW``, never reopened by name) that, flushed and fsynced, replaces
    ``path`` when the block succeeds; on an error it is removed and ``path`` is left as it was.
    Replacing a symbolic link replaces the link, not the file it points to."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, mode, **open_kw) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
            os.fchmod(f.fileno(), 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path, text: str, *, make_parents: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace`` (see
    :func:`replacing_file`)."""
    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    with replacing_file(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


def to_native(value):
    """``value`` as a JSON-native Python value (numpy scalars and arrays unwrapped).

    Dicts get text keys, tuples become lists, anything else unknown becomes its ``str``; also
    serves as ``json.dumps(..., default=to_native)``.
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return [to_native(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {str(k): to_native(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_native(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
