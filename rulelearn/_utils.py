"""Small helpers shared by the core and the harness: close matches for messages, accuracy."""

from __future__ import annotations

import difflib

import numpy as np


def closest(word, choices, *, cutoff: float = 0.6):
    """The choice closest to ``word`` (compared as text), or ``None`` when none is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word, choices) -> str:
    """``" Did you mean 'x'?"`` for the choice closest to ``word``, or ``""``."""
    close = closest(word, choices, cutoff=0.5)
    return f" Did you mean '{close}'?" if close is not None else ""


def _hits(model, X, y) -> np.ndarray:
    """Per row of ``X``: does ``model`` predict its label in ``y``?"""
    return np.asarray(model.predict(X)) == np.asarray(y).ravel()


def accuracy(model, X, y, sample_weight=None) -> float:
    """Share of rows of ``X`` (weighted by ``sample_weight``) whose prediction equals ``y``.

    Unlike scikit-learn's ``accuracy_score``, it accepts float class labels (e.g. 0.5 / 1.5).
    """
    return float(np.average(_hits(model, X, y), weights=sample_weight))


def error_rate(model, X, y, sample_weight=None) -> float:
    """Share of rows of ``X`` (weighted by ``sample_weight``) whose prediction differs from
    ``y``."""
    return float(np.average(~_hits(model, X, y), weights=sample_weight))


#: Bidirectional-text controls that can make printed text read differently from what it is.
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def _escape_char(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe(char: str, keep: str) -> bool:
    code = ord(char)
    if char in keep:
        return False
    return (code < 0x20 or 0x7F <= code <= 0x9F or char in _BIDI
            or 0xD800 <= code <= 0xDFFF)  # a lone surrogate cannot even be encoded


def terminal_text(text, *, keep: str = "\n") -> str:
    """``text`` safe to print on a terminal: control characters (C0 but the ``keep`` ones, DEL,
    C1), bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) and lone
    surrogates written as ``\\x1b``, ``\\u202e``, ... so that data cannot move the cursor, retitle
    the window, reorder what is shown or fail the encoding. Files written keep data exact: this is
    for what is shown only. ``keep="\\n"`` (the default) leaves line breaks of multi-line text."""
    text = str(text)
    if text.isascii() and text.isprintable():  # the common case: nothing to do
        return text
    return "".join(_escape_char(c) if _unsafe(c, keep) else c for c in text)
