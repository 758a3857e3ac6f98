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


def error_rate(model, X, y) -> float:
    """Share of rows of ``X`` whose prediction differs from ``y``."""
    return float(np.mean(~_hits(model, X, y)))
