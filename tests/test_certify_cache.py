"""A bench record's bound is reused for another method's record of the same problem."""

import numpy as np
import pytest

from rulelearn import certify as cert
from rulelearn.bench import certificates, experiment
from rulelearn.bench.records import Record
from rulelearn.estimator import BooleanRuleClassifier


def toy(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 4)).astype(np.uint8)
    y = (X[:, 0] & X[:, 1]).astype(bool) ^ (rng.random(n) < 0.15)
    return X, y.astype(int)


def fitted(method, theta=0.5, X=None, y=None):
    X, y = toy() if X is None else (X, y)
    return BooleanRuleClassifier(method=method, theta=theta, max_rules=2, binarize=True,
                                 pos_label=1, max_iter=5).fit(X, y), X, y


def as_record(certificate, key="k"):
    return Record.from_dict({"key": key, "status": "ok", "dataset": "d", "label": "bcd",
                             "method": "bcd", "fold": 0, "test_error": 0.1, "train_error": 0.1,
                             "n_features": 3, "certificate": certificate})


def no_bound_computed(monkeypatch):
    cert._CACHE.clear()

    def refuse(*args, **kwargs):
        raise AssertionError("the bound was computed again")
    monkeypatch.setattr(cert, "lower_bound", refuse)


def test_the_key_names_the_problem_not_the_method():
    bcd, X, y = fitted("bcd")
    sc, _, _ = fitted("sc")
    keys = {cert.certify(m, X, y, seed_rule=False, cache=True).bound_key for m in (bcd, sc)}
    assert len(keys) == 1 and None not in keys
    A, positive, _ = cert.estimator_problem(bcd, X, y)
    key = keys.pop()
    same = dict(form="dnf", max_rules=2, disable_cost=0.0)
    assert cert.bound_key(A, positive, 0.5, **same) == key
    assert cert.bound_key(A, positive, 0.6, **same) != key
    assert cert.bound_key(A, positive, 0.5, **same, pricing_nodes=20) != key
    assert cert.bound_key(A, ~positive, 0.5, **same) != key
    assert cert.bound_key(A, positive, 0.5, **same, sample_weight=np.full(len(A), 2.0)) != key
    assert cert.certify(bcd, X, y).bound_key is None  # a seeded bound has no key


def test_another_methods_record_reuses_the_bound(monkeypatch):
    bcd, X, y = fitted("bcd")
    first = certificates.certificate_of(bcd, X, y)
    assert not first["reused"] and first["reproducible"]
    known = certificates.known_bounds([as_record(first)])
    assert set(known) == {first["bound_key"]}
    no_bound_computed(monkeypatch)
    sc, _, _ = fitted("sc")
    second = certificates.certificate_of(sc, X, y, known)
    assert second["reused"] and second["bound_key"] == first["bound_key"]
    for field in ("lower_bound", "status", "columns", "iterations", "pricing_mips", "lp_value"):
        assert second[field] == first[field]
    assert second["objective"] == pytest.approx(sc.fit_stats_["objective"])
    assert second["gap"] == pytest.approx(cert.gap(second["objective"], first["lower_bound"]))


def test_a_bound_of_another_problem_is_not_reused(monkeypatch):
    bcd, X, y = fitted("bcd")
    known = certificates.known_bounds([as_record(certificates.certificate_of(bcd, X, y))])
    no_bound_computed(monkeypatch)
    other, _, _ = fitted("bcd", theta=0.7)
    with pytest.raises(AssertionError, match="computed again"):
        certificates.certificate_of(other, X, y, known)


@pytest.mark.parametrize("change", [{"reproducible": False, "status": "cpu limit"},
                                    {"limits": {"max_iterations": 1}}, {"bound_key": None},
                                    {"lp_value": "broken"}])
def test_unreproducible_foreign_or_damaged_bounds_are_not_known(change):
    bcd, X, y = fitted("bcd")
    good = certificates.certificate_of(bcd, X, y)
    assert len(certificates.known_bounds([as_record(good)])) == 1
    assert certificates.known_bounds([as_record({**good, **change})]) == {}


def bench_config(tmp_path, methods):
    from rulelearn.bench.config import parse_config

    X, y = toy(seed=1, n=60)
    rows = "\n".join(",".join(map(str, r)) + f",{'yes' if t else 'no'}" for r, t in zip(X, y))
    (tmp_path / "toy.csv").write_text("a,b,c,d,y\n" + rows + "\n")
    return parse_config(f"""\
name: t
datasets: [{{name: toy, path: {tmp_path / 'toy.csv'}, target: y, positive: 'yes'}}]
methods: {methods}
certify: true
R: 2
max_iter: 5
theta: [0.5]
outer_folds: 2
inner_folds: 2
jobs: 1
output: {tmp_path / 'results'}
""")


def test_a_bench_run_reuses_the_bounds_of_earlier_records(tmp_path, monkeypatch):
    from rulelearn.bench.records import latest, scan_records

    first = experiment.run(bench_config(tmp_path, "[bcd]"), progress=False)
    assert first.ok == 2
    no_bound_computed(monkeypatch)  # the second run must take them from the records
    second = experiment.run(bench_config(tmp_path, "[bcd, sc]"), progress=False)
    assert second.ok == 2 and second.skipped == 2
    records, _ = scan_records(tmp_path / "results" / "t" / "records.jsonl")
    by_unit = {(r.method, r.fold): r.raw["certificate"] for r in latest(records).values()}
    for fold in (0, 1):
        bcd, sc = by_unit["bcd", fold], by_unit["sc", fold]
        assert sc["reused"] and not bcd["reused"] and sc["bound_key"] == bcd["bound_key"]
        assert sc["lower_bound"] == bcd["lower_bound"]
