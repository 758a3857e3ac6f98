"""Write ``tests/slow_tests.txt``: the tests ``make test-fast`` leaves out, from a ``pytest
--durations=0`` log.

Slow are the tests over a threshold (0.2 s), then, while the other tests still add up to more
than a budget (13 s), the slowest of those: ``make test-fast`` adds about 15 CPU s of imports,
collection and per-test overhead to its tests, and should stay within 30 s.  ``make slow-list``
runs the whole suite with durations and calls this; ``tests/conftest.py`` marks the listed
tests ``slow``.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

LINE = re.compile(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(tests/.+?)\s*$")
HEADER = ("# Tests over {threshold} s (setup + call + teardown) in a full run, and the slowest\n"
          "# others until the rest take at most {budget} s; `make test-fast` leaves them out.\n"
          "# Regenerate with `make slow-list` (on an idle machine: the times are wall time).\n")


def durations(log: str) -> collections.Counter:
    """Seconds per test (setup + call + teardown) in a ``--durations=0`` log."""
    seconds: collections.Counter = collections.Counter()
    for line in Path(log).read_text(encoding="utf-8").splitlines():
        match = LINE.match(line)
        if match:
            seconds[match.group(2)] += float(match.group(1))
    return seconds


def slow_tests(seconds: dict, threshold: float, budget: float) -> list[str]:
    """The tests over ``threshold`` seconds, then the slowest others while those left take
    more than ``budget`` seconds in all; sorted."""
    slow = {test for test, s in seconds.items() if s > threshold}
    rest = sorted((s, test) for test, s in seconds.items() if test not in slow)
    left = sum(s for s, _ in rest)
    while rest and left > budget:
        s, test = rest.pop()
        slow.add(test)
        left -= s
    return sorted(slow)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", help="a pytest --durations=0 log of the whole suite")
    parser.add_argument("out", nargs="?", default="tests/slow_tests.txt")
    parser.add_argument("--threshold", type=float, default=0.2)
    parser.add_argument("--budget", type=float, default=13.0)
    args = parser.parse_args(argv)
    seconds = durations(args.log)
    slow = slow_tests(seconds, args.threshold, args.budget)
    Path(args.out).write_text(HEADER.format(threshold=args.threshold, budget=args.budget)
                              + "".join(t + "\n" for t in slow), encoding="utf-8")
    print(f"{len(slow)} slow tests ({sum(seconds[t] for t in slow):.0f} of "
          f"{sum(seconds.values()):.0f} s); the others take "
          f"{sum(s for t, s in seconds.items() if t not in set(slow)):.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
