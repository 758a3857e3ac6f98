"""Writing files: atomic text writes and JSON-native values (used by model files and records)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import numpy as np


@contextlib.contextmanager
def replacing(path, *, suffix: str = ".tmp"):
    """Yield a temporary path beside ``path`` that replaces ``path`` when the block succeeds.

    A reader sees the old file or the new one, never half of one; on an error the temporary
    file is removed and ``path`` is left as it was. The new file is readable by all (0644), as
    a plain ``open(path, "w")`` would leave it.
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


def atomic_write_text(path, text: str, *, make_parents: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace`` (see
    :func:`replacing`)."""
    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
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
