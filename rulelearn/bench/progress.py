"""The progress of a run on the terminal: one status line rewritten in place, with an ETA
from the measured cost of each dataset and method (:class:`UnitCosts`)."""

from __future__ import annotations

import logging
import math
import os
import shutil
import sys
import time
import unicodedata

from rulelearn.bench.units import Unit

log = logging.getLogger(__name__)


def binary_features(X, n_thresholds: int = 10) -> int:
    """About how many binary features the quantile binarization makes of ``X``: two per
    threshold of a numeric column, two per value of a categorical one (a cost proxy only)."""
    import pandas as pd

    total = 0
    for column in getattr(X, "columns", []):
        values = X[column]
        if pd.api.types.is_numeric_dtype(values):
            total += 2 * max(1, min(n_thresholds, int(values.nunique()) - 1))
        else:
            total += 2 * max(1, int(values.nunique()))
    return max(total, 1)


class UnitCosts:
    """The estimated seconds of each unit, for the progress line's ETA.

    A unit's cost is the mean measured ``total_seconds`` of the finished units of the same
    dataset and method -- this run's and those already in the folder's records.  A (dataset,
    method) with none yet is estimated from the dataset's *weight*, rows x binary features
    (:func:`binary_features`), at the seconds per weight the same method has shown on other
    datasets, else that of every unit measured so far.  Nothing measured: unknown (None).
    MAGIC's and Musk's units cost 100-1000 times a WDBC unit, so a mean unit time misleads.
    """

    def __init__(self, weights: dict, measured=()):
        self.weights = {d: float(w) for d, w in weights.items()}
        self.seconds: dict = {}
        for dataset, label, seconds in measured:
            self.observe(dataset, label, seconds)

    def observe(self, dataset: str, label: str, seconds) -> None:
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) \
                and math.isfinite(seconds) and seconds >= 0:
            self.seconds.setdefault((dataset, label), []).append(float(seconds))

    def _rate(self, pairs) -> float | None:
        secs = sum(sum(v) for _, v in pairs)
        weight = sum(self.weights.get(d, 1.0) * len(v) for (d, _), v in pairs)
        return secs / weight if weight > 0 and pairs else None

    def estimate(self, dataset: str, label: str) -> float | None:
        own = self.seconds.get((dataset, label))
        if own:
            return sum(own) / len(own)
        items = list(self.seconds.items())
        rate = (self._rate([(k, v) for k, v in items if k[1] == label])
                or self._rate(items))
        return None if rate is None else rate * self.weights.get(dataset, 1.0)


def unit_name(unit: Unit, names: dict | None = None) -> str:
    """``magic / BCD / fold 3``: the dataset, the method's display name and the outer fold."""
    label = unit.method.label
    return f"{unit.dataset} / {(names or {}).get(label, label)} / fold {unit.fold}"


class Progress:
    """One status line on stderr, rewritten in place after each finished unit, on a terminal::

        [bench] 12/60 units (1 failed)  elapsed 0:31  ETA ~2:05  running magic / BCD / fold 3

    The line is cut to the terminal's width (read at each update, so a resized terminal is
    followed; wide characters count two columns), so that it never wraps: a wrapped line
    cannot be rewritten and leaves one truncated copy per update.  Not on a terminal, nothing
    is written; each finished unit is logged instead (``rulelearn -v bench`` shows them).

    ``units`` are the units to run, in the order they are handed out; the ones shown as
    running are the first ``jobs`` not finished (exact with one job).  The ETA is the
    estimated seconds of the units left (:class:`UnitCosts`) over the rate at which this run
    has got through unit seconds so far (``jobs`` per second before the first unit ends).
    """

    def __init__(self, units, *, enabled=True, stream=None, costs=None, jobs=1, names=None):
        self.units = list(units)
        self.total, self.done, self.failed = len(self.units), 0, 0
        self.pending = {u.key: u for u in self.units}
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled and self.total > 0
        self.costs = costs or UnitCosts({})
        self.jobs = max(1, int(jobs))
        self.names = names or {}
        self.spent = 0.0  # unit seconds measured in this run
        self.t0 = time.perf_counter()
        self.show()

    def update(self, ok: bool, record: dict | None = None):
        self.done += 1
        self.failed += (not ok)
        if record is not None:
            unit = self.pending.pop(record.get("key"), None)
            seconds = record.get("total_seconds")
            if unit is not None:
                if ok and isinstance(seconds, (int, float)):
                    self.costs.observe(unit.dataset, unit.method.label, seconds)
                    self.spent += float(seconds)
                if self.enabled:
                    took = f"{seconds:.1f} s" if ok and isinstance(seconds, (int, float)) \
                        else record.get("status", "failed")
                    log.info("[bench] %d/%d done %s (%s)", self.done, self.total,
                             _escaped(unit_name(unit, self.names)), took)
        self.show()

    def eta(self, elapsed: float) -> float | None:
        """Wall seconds left, or None while the units left cannot be estimated."""
        if not self.pending:
            return 0.0
        left = [self.costs.estimate(u.dataset, u.method.label) for u in self.pending.values()]
        if any(c is None for c in left):
            return None
        rate = self.spent / elapsed if self.spent > 0 and elapsed > 0 else float(self.jobs)
        return sum(c for c in left if c is not None) / max(rate, 1e-9)

    def line(self) -> str:
        """The status line, whole (``show`` cuts it to the terminal)."""
        elapsed = time.perf_counter() - self.t0
        eta = self.eta(elapsed)
        failed = f" ({self.failed} failed)" if self.failed else ""
        line = (f"[bench] {self.done}/{self.total} units{failed}  elapsed {_hms(elapsed)}"
                f"  ETA {'~' + _hms(eta) if eta is not None else '?'}")
        running = list(self.pending.values())[:self.jobs]
        if running:
            more = len(self.pending) - len(running)
            line += ("  running " + ", ".join(unit_name(u, self.names) for u in running)
                     + (f" (+{more} queued)" if more else ""))
        return _escaped(line)

    def show(self):
        if not (self.enabled and self.tty):
            return
        # \r: back to the start of the line; ESC [K: erase what the last line left after it
        end = "\n" if not self.pending else ""
        self.stream.write("\r" + clip(self.line(), _columns(self.stream) - 1) + "\x1b[K" + end)
        self.stream.flush()


def _escaped(text: str) -> str:
    """Names from a config shown on a terminal: control characters written escaped."""
    from rulelearn._utils import terminal_text

    return terminal_text(text, keep="")


def _columns(stream) -> int:
    """The width of the terminal ``stream`` is (80 if it cannot be told)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((80, 24)).columns


def clip(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` terminal columns (East Asian wide characters take
    two, combining marks none), ending in ``...`` when cut (ASCII: any terminal shows it in
    three columns)."""
    columns = max(columns, 1)

    def width(ch: str) -> int:
        if unicodedata.combining(ch):
            return 0
        return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1

    if sum(map(width, text)) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        w = width(ch)
        if used + w > columns - 3:  # keep three columns for the dots
            break
        out.append(ch)
        used += w
    return "".join(out) + "..."[:columns]


def _hms(seconds: float) -> str:
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
