"""Reading a path a user names: what kind of file it is, and a bound on what is read.

Every reader of a user's data file or model file goes through :func:`check_readable` or
:func:`read_bounded`: a device (``/dev/zero``, ``/dev/urandom``, a terminal), a socket or a
folder is refused in one line before anything is read, also behind a symbolic link; a regular
file or a pipe (``<(zcat d.csv.gz)``) is read once, at most ``limit`` bytes, and its first block
may be checked (for binary data) before the rest is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rulelearn.errors import DataError

#: The most bytes of CSV text read into memory at once (``fit``, registry files): a larger
#: file would not fit in memory as a table of text cells anyway. ``predict`` streams its data
#: and has no such bound.
MAX_TEXT_BYTES = 2 << 30
#: The most bytes of a model file: a rule of a million literals takes about 100 MB.
MAX_MODEL_BYTES = 256 << 20
#: The first block read, and checked, before the rest.
FIRST_BLOCK = 1 << 20


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.3g} {unit}"
    return f"{n} bytes"


def check_readable(path, *, what: str = "", error=DataError) -> os.stat_result:
    """The status of ``path`` (links followed), or ``error`` naming why it cannot be read as a
    file: no such file, a folder, a device, a socket. A pipe (FIFO) passes: it is read once.

    ``what``: the word before the path in the messages (``"model file"``)."""
    name = f"{what} {path}" if what else str(path)
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise error(f"cannot read {name}: no such file") from None
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        raise error(f"cannot read {name}: Is a directory")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise error(f"cannot read {name}: a device, not a regular file")
    if stat.S_ISSOCK(mode):
        raise error(f"cannot read {name}: a socket, not a regular file")
    return status


def read_bounded(path, *, limit: int, what: str = "", error=DataError, check=None) -> bytes:
    """The bytes of the file at ``path``, at most ``limit`` of them (:func:`check_readable`
    first; a larger file is ``error`` saying so). ``check(first_block)``, if given, may raise
    before the rest is read (binary data is refused after 1 MiB, not after ``limit``)."""
    status = check_readable(path, what=what, error=error)
    name = f"{what} {path}" if what else str(path)
    too_big = error(f"{name} is larger than {_size(limit)}, the most rulelearn reads"
                    + (" as a model file" if what == "model file" else " into memory"))
    if stat.S_ISREG(status.st_mode) and status.st_size > limit:
        raise too_big
    total = 0
    try:
        with open(Path(path), "rb") as f:
            first = f.read(min(FIRST_BLOCK, limit + 1))
            if check is not None:
                check(first)
            if len(first) > limit:
                raise too_big
            blocks, total = [first], len(first)
            while len(blocks[-1]) and total <= limit:
                block = f.read(min(1 << 24, limit + 1 - total))
                blocks.append(block)
                total += len(block)
            if total > limit:
                raise too_big
            return b"".join(blocks)
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    except MemoryError:
        raise error(f"cannot read {name}: out of memory after {_size(total)}") from None
