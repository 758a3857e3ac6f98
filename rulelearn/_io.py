"""Writing files: atomic text writes and JSON-native values (used by model files and records)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np


def atomic_write_text(path, text: str, *, make_parents: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``.

    A reader sees the old file or the new one, never half of one. The file is
    readable by all (0644), as a plain ``open(path, "w")`` would leave it.
    """
    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
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
