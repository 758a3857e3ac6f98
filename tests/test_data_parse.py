"""Parsing: users' CSV files (categorical, missing values, quoted fields, every refusal) and .Z."""

import base64
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from rulelearn.data import load_dataset, read_csv_dataset, registry
from rulelearn.data.parse import drop_columns, read_table, unlzw
from rulelearn.data.registry import DatasetSpec, Format, Source, SourceFile
from rulelearn.errors import DataError


def write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_numeric_csv_defaults(tmp_path):
    ds = read_csv_dataset(write(tmp_path, "a,b,y\n1,2.5,0\n3,4,1\n5,6,0\n"))
    assert ds.name == "data" and ds.source.endswith("data.csv")
    assert list(ds.X) == ["a", "b"] and (ds.X.dtypes == np.float64).all()
    assert ds.y.tolist() == [0, 1, 0] and ds.y.dtype == np.int64
    assert ds.positive == 1 and "minority" in ds.positive_reason  # target = last column


def test_categorical_missing_and_quoted_fields(tmp_path):
    text = ('city,age,note,label\n'
            '"Paris, France",31,"said ""hi""",yes\n'
            'Lyon,?,plain,no\n'
            ' Lyon ,NA,,no\n'
            'NaN,45,"multi, comma",yes\n'
            'Nice,52,x,no\n')
    ds = read_csv_dataset(write(tmp_path, text), target="label")
    X = ds.X
    assert isinstance(X["city"].dtype, pd.CategoricalDtype)
    assert X["city"].tolist()[:3] == ["Paris, France", "Lyon", "Lyon"]  # quoted comma, stripped
    assert X["city"].isna().tolist() == [False, False, False, True, False]
    assert X["age"].dtype == np.float64 and X["age"].isna().sum() == 2
    assert X["note"].tolist()[0] == 'said "hi"' and pd.isna(X["note"][2])
    assert ds.positive == "yes" and sorted(set(ds.y)) == ["no", "yes"]


def test_custom_missing_values(tmp_path):
    path = write(tmp_path, "a,y\n1,0\n-999,1\n3,1\n")
    assert read_csv_dataset(path, missing_values=["-999"]).X["a"].isna().sum() == 1
    assert read_csv_dataset(path).X["a"].isna().sum() == 0


def test_positive_class(tmp_path):
    tie = write(tmp_path, "a,y\n1,b\n2,a\n3,a\n4,b\n")
    assert read_csv_dataset(tie).positive == "b"  # a tie: the label that sorts last
    ints = write(tmp_path, "a,y\n1,0\n2,1\n3,1\n", "ints.csv")
    ds = read_csv_dataset(ints, positive="1")  # text from the command line matches the label 1
    assert ds.positive == 1 and ds.positive_reason == "given by the user"
    assert read_csv_dataset(ints).positive == 0
    with pytest.raises(DataError, match=r"positive class 'maybe' is not a value of target 'y' "
                                        r"\(values: 0, 1\)"):
        read_csv_dataset(ints, positive="maybe")


@pytest.mark.parametrize("text, kwargs, message", [
    ("", {}, "data.csv is empty"),
    ("a,y\n", {}, "has a header but no data rows"),
    ("y\n1\n0\n", {}, "need at least one feature and a target"),
    ("age,label\n1,0\n2,1\n", {"target": "lable"},
     "no target column 'lable' .*did you mean 'label'"),
    ("a,y\n1,0\n2,0\n", {}, r"target 'y' has 1 class \(0\); a rule needs exactly 2$"),
    ("a,y\n1,x\n2,y\n3,z\n", {}, r"target 'y' has 3 classes \(x, y, z\); a rule needs exactly 2; "
                                 "binarize it first"),
    ("a,y\n1,\n2,?\n", {}, r"target 'y' is missing in 2 data row\(s\), every row"),
    ("a,b,y\n1,,0\n2,?,1\n", {}, "feature column 'b' has no values"),
    ("a,b,y\n1,2,0\n1,2,3,4\n", {}, "cannot parse .*data.csv: .*Expected 3 fields in line 3, "
                                     "saw 4"),
    ("a,y\n1,0\n2,1\n3,O\n", {}, r"target 'y' has 3 classes \(0, 1, O\)"),
])
def test_refusals(tmp_path, text, kwargs, message):
    with pytest.raises(DataError, match=message):
        read_csv_dataset(write(tmp_path, text), **kwargs)


def test_rows_without_a_label_are_left_out_with_one_warning(tmp_path):
    path = write(tmp_path, "a,y\n1,0\n2,\n3,1\n4,?\n5,0\n")
    with pytest.warns(UserWarning, match=r"target 'y' is missing in 2 of 5 data rows \(2, 4\): "
                                         r"those rows are left out"):
        ds = read_csv_dataset(path)
    assert ds.y.tolist() == [0, 1, 0] and list(ds.X.index) == [0, 1, 2]
    assert ds.X["a"].tolist() == [1.0, 3.0, 5.0]
    with pytest.warns(UserWarning), pytest.raises(DataError, match=r"non-numeric value\(s\), "
                                                                    r"e.g. 'x' in data row 4"):
        read_csv_dataset(write(tmp_path, "a,y\n1,0\n2,\n3,1\nx,1\n5,0\n6,1\n"))


def test_mostly_numeric_column_with_junk_names_column_and_value(tmp_path):
    path = write(tmp_path, "dose,y\n1,0\n2,1\n3,0\nthree,1\n5,0\n")
    with pytest.raises(DataError, match=r"column 'dose' is numeric but has 1 non-numeric "
                                        r"value\(s\), e.g. 'three' in data row 4"):
        read_csv_dataset(path)


def test_mostly_text_column_is_categorical(tmp_path):
    ds = read_csv_dataset(write(tmp_path, "grade,y\nA,0\nB,1\n3,0\nC,1\n"))
    assert isinstance(ds.X["grade"].dtype, pd.CategoricalDtype)


def test_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbfa,y\n1,0\n2,1\n")
    assert list(read_csv_dataset(path).X) == ["a"]


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="cannot read .*nope.csv: no such file"):
        read_csv_dataset(tmp_path / "nope.csv")


def test_headerless_table_must_have_the_declared_columns():
    with pytest.raises(DataError, match="expected 3 columns, got 2"):
        read_table(b"1,2\n3,4\n", header=False, columns=("a", "b", "c"))
    table = read_table(b"1 ,2\r\n3, ?\r\n", header=False, columns=("a", "b"), missing=("?",))
    assert table["a"].tolist() == ["1", "3"] and pd.isna(table["b"][1])


# Unix compress (.Z) of the text made by _z_text(), made with ncompress 4.2.4 (16-bit codes; the
# code width grows from 9 to 11 bits inside it, exercising compress's alignment quirk).
Z_SAMPLE = (
    "H52QMFgEDKMgBguDYhTIYEGDBcEZLHKwSNgwhg2HCmqwkKEx4cUZFwneYCgxIQ4WNhoSlIgDYcGAEAnGMCijYcIYC2mM"
    "lAnxxsKbDRfK1DjDpUWUQguOzNGx4MkZMQtKvBEwoYyAODHKMFgDotWFOUIqhEjDpsKGOQwS5MjQq8KLOVQqHFmjqsKT"
    "J9dKtNF0RkAZOxUUZYHjZMIZC2vIhbrxp+CGOCQ+1GjDJUgWMzQ+HDlzomC8YmfsvUgxII28CmgYROyZxsIYqGlAJJ0a"
    "bVQaGnE0pXHxhuTUI2/sPnnj9lS3dVkIx1jDoG/PNRbqZg4xB/KGYmtohA39Y9IaI09DP2kjO0vaNrCqVVAZc1MbC9sT"
    "tAExsueUjTHyZaH4/sXC+o0E2H3kacYeS55Rxd9ACtxgUFwJ5hRVcRG5dENDZWG0XFgJXtSVhpw5dgNxDD7HmEkBMYVR"
    "S0h5hsNCgxGEA0SO4dCQTytqpJOLF9W04khuAciijHuZlYNpv6WFGW05LMTWShAdlRCESeroGYfr5TCSXTmclKVEZsUA"
    "Q4oYiWmQlC85aaCYEF12EwwY/iYmZWHC8N96YgLpmZgn+SgTDGCOdJOYyiU1E017ZhVjQTHM5thMaK0ZA1FuzdQbgzOF"
    "mOhJH8oUg0Qc3nQVQ3Lh9KBRMkhYpgzVheljcjKxZVhBMly0X6wCCkorXqjhJFF/N/mVH08G2RdsfHgyltmeM1SUbG60"
    "NWqrWI2GN2ujTxkq2kHX0hAQtapFVKlrhK0pm3IlFZThcjLhpty4vUUVw47LAUWcnDSw1NSkKcrbHEp7RsdtmR+ydlN/"
    "4g1FWbQ1/EcteAcZVcNTa9awl1HpESZne6nuCR9/pdJH2LX4DSjTfvvdVB5hZdpAl10WnQThyWBWqqCSMjlI6p44cpgz"
    "RB/edOFBhi6noNAfyXvDUvuO2GLOEg12Ew5/lckijlPnFBhsNIZpI2ZW52YUDraWikN46cL2FLX2sXXTkQdRq2TaTTJU"
    "pnUH7QkhpioaxWGpWkakt5dyS+S2QmMuqRUMBuXr2VXxyXVVfS5d1VBUV2nko1V2MhTYVcE5dlWfi0ddOaEfr9WZilYp"
    "inmjytm1VUVJbaVR0Aod5XPu4Zm1lczrbVXz46POrNBWCxIvnVasotRUqkF9LuusqXoo+YAdf4XXb6le/Liwy641WGdW"
    "sUa2VoytXD6GqLFKlOiXcSf+SLSxKjPm205nlbfoahVuvWdZCIXWci4K7e9GBqqJRp6zv/8kcEd42x95/CcR7lglOaxZ"
    "y7/Ec8H4iIUj9alffzqjQaI8r2EoCR7EjKWQiQ2rhb/yXcYAtBaO6apW8UmgyKiHH1i9RSMQssrKzlXDpVTOBifJUA1B"
    "VT8FdWouZxIdjhS0FgqdaC6R0spyPmaVG3wkeEvbyOOchqMqBupxVNuI5FjkFhm8iDDBmxFKfPc1x61lOm66S48SeLa4"
    "oVFmWrGP7+AWPCXJrm6FJMvjqKSVvtWPQ09SSODyKIMukaSRRfKMXwIyJMEwDmyHgYGTFgMDsujKLzdKil80p8nOLcov"
    "9HOMX2RmIL9EzS1FCQgVBdOZrBwmK08sSnVoUxQMLWZSFdLkUYjIy6WYpSicYlBREHSYUd1KMMgbUDWlgxrEAO2ZPurY"
    "Q2SVLsTYaj2IAVJf3BgxjCDmPJoU1soeMhgOCoY1GbxnlGYFFey4c1kRvKcD/xmccs6AOLXclgEfo8uoNMs5fSHXcx5y"
    "Lv09xjbudBcxeTMwigJJluJJ2GNGo8nknG8yZ7KMwMInmA+15zD9sc9kNCdLFPZnMiMBEEz7FJjM7KUvM3Rne5JzmI8Z"
    "DyRkwSV+cCaY/WSoqHAJjcv4o1QvqdIGU7HLDBTEmM08qC84Sp1grGiZoanSaLL0oufcGcbNjfUpbGWJZdKIn4ewyHGH"
    "eeNl7EqjvnztKHYFoibPt5g+zvUk0rSPZeC2mLlpEpGhwdvhRHO5yOqonByqq2ACx6LDWNKhOTCcWQA="
)


def _z_text():
    return "".join(f"{i},{i * i % 97},{'ab'[i % 2]}\n" for i in range(400)).encode()


def test_unlzw():
    assert unlzw(base64.b64decode(Z_SAMPLE)) == _z_text()
    assert unlzw(b"\x1f\x9d\x90") == b""
    with pytest.raises(DataError, match=r"not a \.Z"):
        unlzw(b"PK\x03\x04")


def test_unlzw_table_through_read_table():
    table = read_table(base64.b64decode(Z_SAMPLE), header=False, columns=("i", "sq", "ab"),
                       compression="compress")
    assert table.shape == (400, 3) and table["sq"].tolist()[:3] == ["0", "1", "4"]


def test_no_warnings_on_clean_input(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_csv_dataset(write(tmp_path, "a,b,y\n1,x,0\n2,y,1\n"))


def test_compressed_source_without_checksum_end_to_end(monkeypatch, tmp_path, data_env):
    """A .Z file with no known sha256 (like UCI's Musk) is decoded, verified by shape, pinned."""
    (tmp_path / "mirror" / "zdemo").mkdir(parents=True)
    (tmp_path / "mirror" / "zdemo" / "demo.data.Z").write_bytes(base64.b64decode(Z_SAMPLE))
    counts = Counter("ab"[i % 2] for i in range(400))
    spec = DatasetSpec(
        name="zdemo", title="demo", page="https://example.org/zdemo", positive="b",
        positive_reason="test", n_rows=400, n_features=2, class_counts=dict(counts),
        sources=(Source("UCI", (SourceFile("demo.data.Z", "https://example.org/demo.data.Z",
                                           None),),
                        Format(label="ab", columns=("i", "sq", "ab"), compression="compress")),))
    monkeypatch.setitem(registry.REGISTRY, "zdemo", spec)
    ds = load_dataset("zdemo", mirror=tmp_path / "mirror")
    assert ds.X.shape == (400, 2) and ds.X["sq"].iloc[3] == 9.0
    assert (data_env / "zdemo" / "demo.data.Z.sha256").is_file()


def test_checksumless_file_put_into_the_cache_by_hand(monkeypatch, tmp_path, data_env):
    """Verified by parsing and pinned if good; deleted (never used) if not."""
    test_compressed_source_without_checksum_end_to_end(monkeypatch, tmp_path, data_env)
    pin = data_env / "zdemo" / "demo.data.Z.sha256"
    pin.unlink()
    assert load_dataset("zdemo").X.shape == (400, 2) and pin.is_file()  # re-verified, re-pinned
    pin.unlink()
    cached = data_env / "zdemo" / "demo.data.Z"
    cached.write_bytes(base64.b64decode(Z_SAMPLE)[:-40])
    with pytest.warns(UserWarning, match="failed verification by parsing"):
        load_dataset("zdemo", mirror=tmp_path / "mirror")
    assert cached.read_bytes() == base64.b64decode(Z_SAMPLE)


def test_a_header_that_repeats_a_column_name_is_refused(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("a,a,y\n1,2,0\n3,4,1\n")
    with pytest.raises(DataError, match="repeats column name.*'a'"):
        read_csv_dataset(path)


# ------------------------------------------------------------------- encodings and separators

TABLE = "a,b c,y\n1,x,0\n2,é,1\n3,名,0\n"
EXPECTED = {"a": [1.0, 2.0, 3.0], "b c": ["x", "é", "名"]}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be",
                                      "utf-32"])
def test_utf8_and_utf16_files_are_read(tmp_path, encoding):
    path = tmp_path / "u.csv"
    path.write_bytes(TABLE.encode(encoding))
    ds = read_csv_dataset(path)
    assert {c: ds.X[c].tolist() for c in ds.X} == EXPECTED and ds.y.tolist() == [0, 1, 0]
    assert ds.target == "y"


@pytest.mark.parametrize("raw, message", [
    (TABLE.encode("latin-1", errors="replace"), r"u.csv is not UTF-8 text: byte 0xe9 on line 3 "
                                                r"cannot be decoded; save the file as UTF-8"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20, "u.csv is not a text file"),
    (b"a,b,y\n1,\x00,0\n", "not a text file .*NUL bytes"),
    (bytes(range(256)) * 8, "u.csv is not"),
])
def test_other_encodings_and_binary_files_are_named(tmp_path, raw, message):
    path = tmp_path / "u.csv"
    path.write_bytes(raw)
    with pytest.raises(DataError, match=message):
        read_csv_dataset(path)


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_the_separator_is_found(tmp_path, sep):
    path = write(tmp_path, TABLE.replace(",", sep))
    ds = read_csv_dataset(path)
    assert {c: ds.X[c].tolist() for c in ds.X} == EXPECTED


def test_separator_sniffing_respects_quotes(tmp_path):
    ds = read_csv_dataset(write(tmp_path, 'a;note;y\n1.5;"x;y";0\n2.5;z,w;1\n'))
    assert list(ds.X) == ["a", "note"]  # ";" splits every row alike, "," does not
    assert ds.X["note"].tolist() == ["x;y", "z,w"]
    ds = read_csv_dataset(write(tmp_path, 'a,note,y\n1,"x;y;z",0\n2,"p;q;r",1\n'))
    assert ds.X["note"].tolist() == ["x;y;z", "p;q;r"]


def test_a_given_separator_wins_and_an_unknown_one_is_hinted(tmp_path):
    path = write(tmp_path, "a b y\n1 2 0\n3 4 1\n")
    with pytest.raises(DataError, match=r"has 1 column; .*give it: --sep"):
        read_csv_dataset(path)
    assert list(read_csv_dataset(path, sep=" ").X) == ["a", "b"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings(tmp_path, newline):
    path = tmp_path / "n.csv"
    path.write_bytes(TABLE.replace("\n", newline).encode())
    assert read_csv_dataset(path).X["a"].tolist() == [1.0, 2.0, 3.0]


def test_infinite_cells_are_refused_and_infinite_labels_are_names(tmp_path):
    with pytest.raises(DataError, match=r"column 'a' has 2 infinite value\(s\), e.g. '-inf' in "
                                        r"data row 2; a rule needs finite numbers"):
        read_csv_dataset(write(tmp_path, "a,y\n1,0\n-inf,1\n1e999,0\n"))
    ds = read_csv_dataset(write(tmp_path, "a,y\n1,0\n2,inf\n3,0\n"))
    assert ds.y.tolist() == ["0", "inf", "0"]
    ds = read_csv_dataset(write(tmp_path, "a,y\n1,1e30\n2,0\n"))  # labels stay as written
    assert ds.y.tolist() == ["1e30", "0"]


@pytest.mark.parametrize("cells", [["0,5", "1,25", "-3"], ["1,500", "12,000,000", "7"]])
def test_numbers_with_commas_are_refused_not_read_as_categories(tmp_path, cells):
    text = "a;y\n" + "".join(f"{c};{i % 2}\n" for i, c in enumerate(cells))
    with pytest.raises(DataError, match=r"column 'a' holds numbers written with a comma, e.g. "
                                        r"'[\d,]+,\d+': a decimal comma or a thousands"):
        read_csv_dataset(write(tmp_path, text))
    ds = read_csv_dataset(write(tmp_path, "a;y\nx,y;0\n1,5;1\n"))  # text with commas: categories
    assert isinstance(ds.X["a"].dtype, pd.CategoricalDtype)


def test_drop_columns_refuses_the_target_unknown_columns_and_dropping_everything(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("id,a,label\n" + "".join(f"r{i},{i % 3},{i % 2}\n" for i in range(30)))
    dataset = read_csv_dataset(path)
    assert drop_columns(dataset, ()) is dataset
    assert list(drop_columns(dataset, ("id",)).X.columns) == ["a"]
    with pytest.raises(DataError, match="--drop label: that is the target column"):
        drop_columns(dataset, ("label",))
    with pytest.raises(DataError, match=r"--drop b: no such feature column .*\(features: id, a\)"):
        drop_columns(dataset, ("b",))
    with pytest.raises(DataError, match="--drop left no feature column"):
        drop_columns(dataset, ("id", "a"))
