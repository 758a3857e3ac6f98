"""The registry: complete entries, a stated positive class, and every entry parsing to its shape."""

import csv
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn.cli import main
from rulelearn.data import PAPER_DATASETS, REGISTRY, check_shape, get_spec, load_dataset, packaged
from rulelearn.errors import DataError

PAPER = ["ilpd", "ionosphere", "liver", "magic", "musk", "parkinsons", "pima", "sonar",
         "transfusion", "wdbc"]

pytestmark = pytest.mark.usefixtures("data_env")


def test_names():
    assert list(PAPER_DATASETS) == PAPER
    assert list(REGISTRY) == PAPER + ["wdbc_bundled"] + list(packaged.TABLES)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_entry_is_complete(name):
    spec = REGISTRY[name]
    assert spec.name == name and spec.title and spec.page.startswith("https://")
    assert sum(spec.class_counts.values()) == spec.n_rows and len(spec.class_counts) == 2
    assert spec.positive in spec.class_counts and len(spec.positive_reason) > 20
    assert spec.citation
    for source in spec.sources:
        if spec.bundled:
            assert source.loader and not source.files
            continue
        assert source.format is not None and source.files
        for f in source.files:
            assert f.url.startswith("https://")
            assert f.sha256 is None or re.fullmatch("[0-9a-f]{64}", f.sha256)
            if f.sha256 is None:  # the entry must say how such a file is verified
                assert "shape" in f.verified_by and "sha256" in spec.note


@pytest.mark.parametrize("name", PAPER)
def test_positive_class_principle(name):
    """The label that sorts last is positive (see the registry's docstring for why)."""
    spec = REGISTRY[name]
    assert spec.positive == max(spec.class_counts)


def test_positive_classes_the_paper_pins_down():
    pinned = {"ilpd": 2, "transfusion": 1, "parkinsons": 1, "ionosphere": "g", "liver": 2}
    assert {name: REGISTRY[name].positive for name in pinned} == pinned


def test_multiple_sources_for_musk_and_a_live_url_for_pima():
    musk = get_spec("musk")
    assert [s.name for s in musk.sources] == ["UCI", "PMLB"]
    assert musk.sources[0].files[0].sha256 is None and musk.sources[1].files[0].sha256
    pima = get_spec("pima").source
    assert "archive.ics.uci.edu" not in pima.files[0].url and "withdrew" in pima.note


def test_unknown_name_suggests_the_closest():
    with pytest.raises(DataError, match=r"unknown dataset 'sonr'; did you mean 'sonar'\?"):
        get_spec("sonr")
    with pytest.raises(DataError, match="known: ilpd, ionosphere"):
        get_spec("zzzzzz")


def test_registry_agrees_with_the_mirror_manifest(mirror_dir):
    with open(mirror_dir / "MANIFEST.tsv", newline="") as f:
        rows = {r["name"]: r for r in csv.DictReader(f, delimiter="\t")}
    assert sorted(rows) == sorted(PAPER)
    for name, row in rows.items():
        spec = get_spec(name)
        files = {f.file: f.sha256 for s in spec.sources for f in s.files}
        assert files[row["file"]] == row["sha256"]
        counts = dict(kv.split("=") for kv in row["class_counts"].split(";"))
        assert {str(k): v for k, v in spec.class_counts.items()} == {
            k: int(v) for k, v in counts.items()}
        assert (spec.n_rows, spec.n_features) == (int(row["rows"]), int(row["n_features"]))


@pytest.mark.mirror
@pytest.mark.parametrize("name", PAPER)
def test_every_entry_parses_to_its_documented_shape(name, mirror_dir):
    spec = get_spec(name)
    ds = load_dataset(name, mirror=mirror_dir)
    assert ds.X.shape == (spec.n_rows, spec.n_features)
    assert dict(Counter(ds.y.tolist())) == spec.class_counts
    assert ds.y.ndim == 1 and ds.positive == spec.positive and ds.positive_reason
    assert ds.is_positive.sum() == spec.class_counts[spec.positive]
    numeric = [c for c in ds.X if ds.X[c].dtype == np.float64]
    assert len(numeric) == spec.n_features - len(spec.source.format.categorical)


def test_odd_formats(mirror_dir):
    ilpd = load_dataset("ilpd", mirror=mirror_dir).X
    assert isinstance(ilpd["Gender"].dtype, pd.CategoricalDtype)
    assert ilpd["Gender"].value_counts().to_dict() == {"Male": 441, "Female": 142}
    assert ilpd["A/G Ratio"].isna().sum() == 4
    assert ilpd.drop(columns="A/G Ratio").notna().all().all()
    parkinsons = load_dataset("parkinsons", mirror=mirror_dir).X
    assert "name" not in parkinsons and "status" not in parkinsons
    transfusion = load_dataset("transfusion", mirror=mirror_dir).X
    assert list(transfusion) == ["Recency (months)", "Frequency (times)", "Monetary (c.c. blood)",
                                 "Time (months)"]
    wdbc = load_dataset("wdbc", mirror=mirror_dir).X
    assert "id" not in wdbc and wdbc.columns[0] == "radius_mean"


def test_bundled_wdbc_matches_uci_wdbc(mirror_dir):
    bundled = load_dataset("wdbc_bundled")
    uci = load_dataset("wdbc", mirror=mirror_dir)
    np.testing.assert_allclose(bundled.X.to_numpy(), uci.X.to_numpy())
    assert (bundled.is_positive == uci.is_positive).all()


def test_bundled_works_offline():
    ds = load_dataset("wdbc_bundled")
    assert ds.X.shape == (569, 30) and ds.positive == "malignant"
    assert set(ds.y) == {"malignant", "benign"} and "mean radius" in ds.X


def test_shape_mismatch_names_both_numbers():
    spec = get_spec("wdbc_bundled")
    ds = load_dataset("wdbc_bundled")
    with pytest.raises(DataError, match="expected 569 rows x 30 features, got 568 x 30"):
        check_shape(spec, ds.X.iloc[1:], ds.y[1:])
    with pytest.raises(DataError, match="expected class counts benign=357, malignant=212, "
                                        "got benign=358, malignant=211"):
        check_shape(spec, ds.X, np.where(np.arange(569) == 0, "benign", ds.y))


def test_cli_list():
    result = CliRunner().invoke(main, ["datasets", "list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["name", "rows", "features", "positive", "cached"]
    assert lines[2].split() == ["ilpd", "583", "10", "2", "no"]
    assert lines[12].split() == ["wdbc_bundled", "569", "30", "malignant", "bundled"]


def test_cli_info_bundled():
    pytest.importorskip("rulelearn.binarize", reason="info needs the binarizer")
    result = CliRunner().invoke(main, ["datasets", "info", "wdbc_bundled"])
    assert result.exit_code == 0, result.output
    assert "569 rows x 30 features" in result.output
    assert "benign=357 (62.7%), malignant=212 (37.3%)" in result.output
    assert re.search(r"binarized\s+\d+ literals", result.output)
