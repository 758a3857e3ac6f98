"""Class labels: which one is positive by default, and when a given value names a label."""

from __future__ import annotations

import numbers
from collections import Counter


def same_label(label, value) -> bool:
    """``value`` names ``label``: equal, or equal as text (``"1"`` names ``1``)."""
    return bool(label == value) or str(label) == str(value)


def label_order(label):
    """Sort key: numbers by value first, then everything else by its text."""
    if isinstance(label, numbers.Real) and not isinstance(label, bool):
        return (0, float(label), "")
    return (1, 0.0, str(label))


def default_positive(y, sample_weight=None):
    """The minority class of ``y`` (by total ``sample_weight`` when given, so that an integer
    weight counts as that many repeated rows); on a tie, the label that sorts last
    (:func:`label_order`)."""
    counts = Counter()
    weights = [1.0] * len(y) if sample_weight is None else list(sample_weight)
    for label, weight in zip(list(y), weights):
        counts[label] += weight
    if not counts:
        raise ValueError("no labels")
    labels = sorted(counts, key=label_order)
    return min(reversed(labels), key=lambda label: counts[label])
