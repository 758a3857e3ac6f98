"""studies/perf/rows.py's command line (run as a script: studies are not imported by tests)."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "studies" / "perf" / "rows.py"


@pytest.mark.parametrize("sizes", ["5000,x", "", "5"])
def test_default_only_refuses_sizes_that_are_not_tables_in_one_line(sizes, tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--default-only", "--sizes", sizes,
                           "--output", str(tmp_path / "perf.md")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"rows.py: error: --sizes must be row counts or 'census', comma-separated; "
        f"got {sizes!r}")
    assert "Traceback" not in done.stderr and not (tmp_path / "perf.md").exists()
