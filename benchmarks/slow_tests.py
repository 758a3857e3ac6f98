"""Write ``tests/slow_tests.txt``: the tests over a threshold in a ``pytest --durations=0`` log.

``make slow-list`` runs the suite with durations and calls this; ``make test-fast`` then leaves
those tests out (``tests/conftest.py`` marks them ``slow``).
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

LINE = re.compile(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(tests/.+?)\s*$")
HEADER = ("# Tests over {threshold} s (setup + call + teardown) in a full run on the 2-core "
          "machine;\n# `make test-fast` leaves them out. Regenerate with `make slow-list`.\n")


def main(log: str, out: str = "tests/slow_tests.txt", threshold: float = 0.2) -> int:
    seconds: collections.Counter = collections.Counter()
    for line in Path(log).read_text(encoding="utf-8").splitlines():
        match = LINE.match(line)
        if match:
            seconds[match.group(2)] += float(match.group(1))
    slow = sorted(test for test, s in seconds.items() if s > threshold)
    Path(out).write_text(HEADER.format(threshold=threshold) + "".join(t + "\n" for t in slow),
                         encoding="utf-8")
    print(f"{len(slow)} tests over {threshold} s ({sum(seconds[t] for t in slow):.0f} of "
          f"{sum(seconds.values()):.0f} s) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
