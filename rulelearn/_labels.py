"""Class labels: which one is positive by default, and when a given value names a label."""

from __future__ import annotations

import math
import numbers


def same_label(label, value) -> bool:
    """``value`` names ``label``: equal, or equal as text (``"1"`` names ``1``)."""
    return bool(label == value) or str(label) == str(value)


def matching_labels(labels, value, spellings=None) -> list:
    """The labels that ``value`` (a user's spelling, e.g. ``--positive 1.0``) names.

    In this order, the first step that finds any: the labels written exactly ``value`` in the
    file (``spellings``: ``{text as written: label}``, spaces around ``value`` ignored); the
    labels :func:`same_label` matches; the numeric labels of the same number (``1.0`` names
    ``1``). More than one label is an ambiguity for the caller to refuse (two labels of the
    same float value, such as 2**53 and 2**53 + 1).
    """
    text = str(value).strip()
    if spellings and text in spellings:
        return [spellings[text]]
    found = [label for label in labels if same_label(label, value)]
    if found:
        return found
    try:
        number = float(text)
    except ValueError:
        return []
    out = []
    for label in labels:
        if isinstance(label, bool):
            continue
        try:
            if float(label) == number:
                out.append(label)
        except (TypeError, ValueError, OverflowError):
            continue
    return out


def label_order(label):
    """Sort key: numbers by value first, and text that reads as a finite number (a label kept
    as written, ``1.50``) by that value too, then everything else by its text."""
    if isinstance(label, numbers.Real) and not isinstance(label, bool):
        return (0, float(label), "")
    if isinstance(label, str):
        try:
            value = float(label)
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return (0, value, label)
    return (1, 0.0, str(label))


def default_positive(y, sample_weight=None):
    """The minority class of ``y`` (by total ``sample_weight`` when given, so that an integer
    weight counts as that many repeated rows); on a tie, the label that sorts last
    (:func:`label_order`)."""
    counts: dict = {}
    weights = [1.0] * len(y) if sample_weight is None else list(sample_weight)
    for label, weight in zip(list(y), weights):
        counts[label] = counts.get(label, 0.0) + weight
    if not counts:
        raise ValueError("no labels")
    labels = sorted(counts, key=label_order)
    return min(reversed(labels), key=lambda label: counts[label])
