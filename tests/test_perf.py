"""The benchmark's reference loop: it must learn the same rules as the fast path."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem


def _load_perf():
    """``benchmarks/perf.py`` (outside the package) as a module."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "perf.py"
    spec = importlib.util.spec_from_file_location("rulelearn_benchmarks_perf", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ReferenceClauseSolver = _load_perf().ReferenceClauseSolver


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


@pytest.mark.mirror
def test_the_magic_path_section_reports_same_rules_lps_and_iterations(mirror_dir):
    perf = _load_perf()
    rows, n, pos_shape, neg_shape = perf.magic_path(str(mirror_dir), n_rows=600,
                                                    methods=("bcd",))
    assert n == 600 and len(rows) == len(perf.PATH_THETAS)
    assert all(row["same rule"] == "yes" for row in rows)
    # the fast path: no more LPs than solving every θ afresh, far fewer simplex iterations
    assert sum(r["LPs fast"] for r in rows) <= sum(r["LPs plain"] for r in rows)
    assert sum(r["iterations fast"] for r in rows) < sum(r["iterations plain"] for r in rows)
    text = perf.render_magic(rows, n, pos_shape, neg_shape)
    assert text.startswith(perf.MAGIC_HEADING)
    assert f"same rules at {len(rows)} of {len(rows)} θ values" in text


def test_protocol_rows_sum_unit_time_per_dataset_and_project_it_on_the_workers():
    def rec(dataset, method, seconds, status="ok"):
        return {"dataset": dataset, "method": method, "total_seconds": seconds, "status": status}

    records = [rec("musk", "bcd", 180), rec("musk", "bcd", 240), rec("musk", "am", 60),
               rec("wdbc", "sc", 6), rec("wdbc", "bcd", 3), rec("wdbc", "am", 99, "failed")]
    rows = {r["dataset"]: r for r in _load_perf().protocol_rows(records, cores=2)}
    assert rows["musk"] == {"dataset": "musk", "units": 3, "unit time (min)": 8.0,
                            "largest": "bcd 88 %", "projected wall (min)": 4.0}
    assert rows["wdbc"]["units"] == 2 and rows["wdbc"]["largest"] == "sc 67 %"
    assert rows["wdbc"]["unit time (min)"] == 0.1 and rows["wdbc"]["projected wall (min)"] == 0.1
