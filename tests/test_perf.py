"""The fast clause solver against the reference loop (tests/reference_solver.py), and
``studies/perf/perf.py`` run as the program it is (tests never import studies/)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reference_solver import ReferenceClauseSolver

from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem

PERF = Path(__file__).resolve().parents[1] / "studies" / "perf" / "perf.py"


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("method", ["bcd", "am", "sc", "ocrl"])
def test_the_fast_path_and_the_reference_loop_learn_the_same_rules(seed, method, degenerate_data):
    A, y = degenerate_data(seed)
    fast = ClauseSolver(CNFProblem.from_data(A, y))  # merged rows, one model, warm θ path
    for theta in (2.0, 0.3, 0.01):
        reference = ReferenceClauseSolver(CNFProblem.from_data(A, y, merge=False))
        got = run_learner(method, fast, theta, max_rules=3, max_iter=20)
        want = run_learner(method, reference, theta, max_rules=3, max_iter=20)
        assert np.array_equal(got.W, want.W), theta
        assert got.objective == pytest.approx(want.objective)
    assert reference.n_solves >= 1


def perf(tmp_path, *args):
    output = tmp_path / "perf.md"
    r = subprocess.run([sys.executable, str(PERF), "--output", str(output), *map(str, args)],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return output.read_text(encoding="utf-8")


@pytest.mark.mirror
def test_the_magic_path_section_reports_same_rules_lps_and_iterations(tmp_path, mirror_dir):
    text = perf(tmp_path, "--magic-only", "--mirror", mirror_dir, "--magic-rows", 600,
                "--magic-methods", "bcd")
    assert text.lstrip().startswith("## MAGIC's θ path on an inner training set")
    assert "- 600 rows" in text and "same rules at 8 of 8 θ values" in text
    lps, iterations = re.search(r"LPs (\d+/\d+), simplex iterations (\d+/\d+)", text).groups()
    fast, plain = map(int, lps.split("/"))
    assert fast <= plain  # no more LPs than solving every θ afresh
    fast, plain = map(int, iterations.split("/"))
    assert fast < plain  # far fewer simplex iterations


@pytest.mark.slow  # a process that imports the learners: 2.4 s CPU
def test_protocol_section_sums_unit_time_per_dataset_and_projects_it_on_the_workers(tmp_path):
    def rec(dataset, method, seconds, status="ok"):
        return {"key": f"{dataset}-{method}-{seconds}", "dataset": dataset, "method": method,
                "total_seconds": seconds, "status": status}

    records = [rec("musk", "bcd", 180), rec("musk", "bcd", 240), rec("musk", "am", 60),
               rec("wdbc", "sc", 6), rec("wdbc", "bcd", 3), rec("wdbc", "am", 99, "failed"),
               {**rec("musk", "bcd", 120), "key": "musk-bcd-240"}]  # a rerun replaces a unit
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (folder / "meta.json").write_text(json.dumps({"jobs": 2, "wall_seconds": 300, "units": 6}))
    text = perf(tmp_path, "--protocol-only", "--protocol-folder", folder)
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| ")][1:]
    assert rows == [["musk", "3", "6", "bcd 83 %", "3"],
                    ["wdbc", "2", "0.1", "sc 67 %", "0.1"],
                    ["all", "5", "6.2", "", "3.1"]]
    assert "measured wall time of that run: 5.0 min" in text
