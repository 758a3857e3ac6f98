"""A battery of hostile inputs to ``fit``, ``predict``, ``datasets`` and model files.

Each case sets up files in a fresh folder, runs one command and checks: the exit code (0 where
the input is fine, 1 for bad input, 2 for a bad option), no traceback, exactly one ``Error:``
line for a failure (and for bad input nothing else but ``warning:`` lines), the words that line
must name, and that no file changed except the ones the command is meant to write.
"""

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rulelearn import MODEL_FORMAT_VERSION
from rulelearn.cli import main
from rulelearn.data import get_spec

FAST = ["--theta", "0.5", "--rules", "2", "--form", "dnf"]  # no CV


def planted(n=60, seed=0):
    """a > 0.3 OR (b < -0.5 AND c == red) -> 1; 60 rows, positive class the minority."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    c = rng.choice(["red", "blue", "green"], n)
    y = np.where((a > 0.3) | ((b < -0.5) & (c == "red")), 1, 0)
    return pd.DataFrame({"a": a, "b": b, "c": c, "y": y})


CSV = planted().to_csv(index=False)


@pytest.fixture(scope="module")
def model_doc(tmp_path_factory):
    """The model file fitted (once) on ``d.csv``, as a dict."""
    folder = tmp_path_factory.mktemp("model")
    (folder / "d.csv").write_text(CSV)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, ["fit", "d.csv", *FAST, "--save", "m.json"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    doc = json.loads((folder / "m.json").read_text())
    assert doc["rule"]["clauses"] and doc["rule"]["clauses"][0][0]["op"] in ("<=", ">")
    return doc


# ------------------------------------------------------------------------------- case builders

@dataclass
class Case:
    id: str
    args: list
    code: int
    words: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # name -> bytes | str | callable(doc) -> str
    writes: tuple = ()  # files (or folders, ending in /) the command may create or change
    read_only: tuple = ()  # folders made read-only before the command
    mirror: bool = False  # needs the raw UCI files
    out: list = field(default_factory=list)  # words the output must contain (success)


def model(**changes):
    """A model file: the fitted one with top-level entries replaced (None deletes)."""
    def make(doc):
        doc = json.loads(json.dumps(doc))
        for key, value in changes.items():
            if value is None:
                doc.pop(key, None)
            else:
                doc[key] = value
        return json.dumps(doc)
    return make


def literal(**changes):
    """A model file whose first literal has entries replaced (JSON allows NaN / Infinity)."""
    def make(doc):
        doc = json.loads(json.dumps(doc))
        doc["rule"]["clauses"][0][0].update(changes)
        return json.dumps(doc)
    return make


def table(df=None, **kwargs):
    return (planted() if df is None else df).to_csv(index=False, **kwargs)


def with_column(name, values):
    return planted().assign(**{name: values})


D = {"d.csv": CSV}
DM = {"d.csv": CSV, "m.json": model()}
RNG = np.random.default_rng(7)
GARBAGE = bytes(RNG.integers(0, 256, 3000, dtype=np.uint8))
HIGH_BYTES = bytes(RNG.integers(128, 256, 3000, dtype=np.uint8))
SAME = "the input data file"

FIT = [
    Case("fine", ["fit", "d.csv", *FAST], 0, files=D, out=["THEN y = 1"]),
    Case("fine-cv", ["fit", "d.csv", "--rules", "1", "--cv", "3"], 0, files=D),
    Case("empty-file", ["fit", "x.csv", *FAST], 1, ["x.csv is empty"], {"x.csv": ""}),
    Case("blank-lines", ["fit", "x.csv", *FAST], 1, ["x.csv is empty"], {"x.csv": "\n\n\n"}),
    Case("bom-only", ["fit", "x.csv", *FAST], 1, ["x.csv is empty"],
         {"x.csv": b"\xef\xbb\xbf"}),
    Case("header-only", ["fit", "x.csv", *FAST], 1, ["header but no data rows"],
         {"x.csv": "a,b,y\n"}),
    Case("one-row", ["fit", "x.csv", *FAST], 1, ["has 1 class", "exactly 2"],
         {"x.csv": "a,b,y\n1,2,0\n"}),
    Case("two-rows", ["fit", "x.csv", *FAST], 0, files={"x.csv": "a,b,y\n1,2,0\n3,4,1\n"}),
    Case("two-rows-cv", ["fit", "x.csv", "--rules", "1"], 1, ["has only 1 row"],
         {"x.csv": "a,b,y\n1,2,0\n3,4,1\n"}),
    Case("one-class", ["fit", "x.csv", *FAST], 1, ["target 'y' has 1 class (0)"],
         {"x.csv": table(planted().assign(y=0))}),
    Case("three-classes", ["fit", "x.csv", *FAST], 0, files={"x.csv": table(
        planted().assign(y=np.arange(60) % 3))}, out=["3 classes", "ELSE y = 2"]),
    Case("all-nan-column", ["fit", "x.csv", *FAST], 1, ["'c'", "no values"],
         {"x.csv": table(with_column("c", ""))}),
    Case("duplicate-headers", ["fit", "x.csv", *FAST], 1, ["repeats column name", "'a'"],
         {"x.csv": "a,a,y\n1,2,0\n3,4,1\n"}),
    Case("binary-garbage", ["fit", "x.csv", *FAST], 1, ["x.csv is not a text file"],
         {"x.csv": GARBAGE}),
    Case("high-bytes", ["fit", "x.csv", *FAST], 1, ["x.csv is not UTF-8 text"],
         {"x.csv": HIGH_BYTES}),
    Case("png", ["fit", "x.png", *FAST], 1, ["not a text file"],
         {"x.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(100)}),
    Case("utf16", ["fit", "x.csv", *FAST], 0, files={"x.csv": CSV.encode("utf-16")}),
    Case("utf16-be-no-bom", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": CSV.encode("utf-16-be")}),
    Case("utf16-semicolons", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(sep=";").encode("utf-16")}),
    Case("utf8-bom", ["fit", "x.csv", *FAST], 0, files={"x.csv": CSV.encode("utf-8-sig")}),
    Case("utf32", ["fit", "x.csv", *FAST], 0, files={"x.csv": CSV.encode("utf-32")}),
    Case("latin1", ["fit", "x.csv", *FAST], 1, ["not UTF-8 text", "line 2"],
         {"x.csv": "a,c,y\n1,rød,0\n2,blå,1\n".encode("latin-1")}),
    Case("semicolons", ["fit", "x.csv", *FAST], 0, files={"x.csv": table(sep=";")},
         out=["(60 rows, 3 features)"]),
    Case("tabs", ["fit", "x.tsv", *FAST], 0, files={"x.tsv": table(sep="\t")},
         out=["(60 rows, 3 features)"]),
    Case("pipes", ["fit", "x.csv", *FAST], 0, files={"x.csv": table(sep="|")}),
    Case("spaces", ["fit", "x.csv", *FAST], 1, ["has 1 column", "--sep"],
         {"x.csv": table(sep=" ")}),
    Case("spaces-sep", ["fit", "x.csv", *FAST, "--sep", "space"], 0,
         files={"x.csv": table(sep=" ")}),
    Case("wrong-sep", ["fit", "d.csv", *FAST, "--sep", ";"], 1, ["has 1 column"], D),
    Case("bad-sep", ["fit", "d.csv", *FAST, "--sep", ";;"], 2, ["'--sep'"], D),
    Case("decimal-commas", ["fit", "x.csv", *FAST], 1, ["'a'", "written with a comma"],
         {"x.csv": table(sep=";", decimal=",")}),
    Case("quoted-newlines", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("c", planted().c.str.replace("e", "e\n")))}),
    Case("cr-line-ends", ["fit", "x.csv", *FAST], 0, files={"x.csv": CSV.replace("\n", "\r")}),
    Case("crlf-line-ends", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": CSV.replace("\n", "\r\n")}),
    Case("ragged-rows", ["fit", "x.csv", *FAST], 1, ["cannot parse", "Expected 3 fields"],
         {"x.csv": "a,b,y\n1,2,0\n3,4,1,5,6\n"}),
    Case("huge-values", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("b", planted().b * 1e300))}),
    Case("inf-cells", ["fit", "x.csv", *FAST], 1, ["'b'", "infinite value", "finite"],
         {"x.csv": table(with_column("b", np.where(np.arange(60) % 3, "inf", "1")))}),
    Case("overflow-cells", ["fit", "x.csv", *FAST], 1, ["infinite value", "'1e999'"],
         {"x.csv": table(with_column("b", "1e999"))}),
    Case("nan-cells", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("b", np.where(np.arange(60) % 4, "NaN", "0.5")))}),
    Case("nul-in-cell", ["fit", "x.csv", *FAST], 1, ["NUL bytes"],
         {"x.csv": b"a,b,y\n1,\x00,0\n2,3,1\n"}),
    Case("long-cell", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("c", ["x" * 200_000] + ["red"] * 59))}),
    Case("huge-integers", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("b", [str(10**30 + i) for i in range(60)]))}),
    Case("junk-in-numbers", ["fit", "x.csv", *FAST], 1, ["'b'", "non-numeric", "'oops'"],
         {"x.csv": table(with_column("b", ["oops"] + list(planted().b[1:])))}),
    Case("only-target", ["fit", "x.csv", *FAST], 1, ["1 column"], {"x.csv": "y\n0\n1\n"}),
    Case("target-missing", ["fit", "d.csv", *FAST, "--target", "zzz"], 1,
         ["no target column 'zzz'"], D),
    Case("target-empty", ["fit", "d.csv", *FAST, "--target", ""], 1, ["no target column ''"], D),
    Case("target-cells-missing", ["fit", "x.csv", *FAST], 1, ["missing in 60 data row(s)"],
         {"x.csv": table(with_column("y", ""))}),
    Case("positive-not-a-class", ["fit", "d.csv", *FAST, "--positive", "2"], 1,
         ["positive class '2'", "values: 0, 1"], D),
    Case("positive-empty", ["fit", "d.csv", *FAST, "--positive", ""], 1,
         ["positive class ''"], D),
    Case("positive-1.0-written-1.0", ["fit", "x.csv", *FAST, "--positive", "1.0"], 0,
         files={"x.csv": table(planted().assign(y=planted().y.astype(float)))},
         out=["positive class 1.0 (27 rows, given by --positive)"]),  # as written
    Case("positive-1.0-written-1", ["fit", "d.csv", *FAST, "--positive", "1.0"], 0, files=D,
         out=["positive class 1 (27 rows, given by --positive)"]),
    Case("positive-0-written-0.0", ["fit", "x.csv", *FAST, "--positive", " 0"], 0,
         files={"x.csv": table(planted().assign(y=planted().y.astype(float)))},
         out=["positive class 0.0 (33 rows, given by --positive)"]),  # as written
    Case("labels-beyond-2**53-stay-apart", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(planted().assign(y=planted().y + 2**53))},
         out=["positive class 9007199254740993 (27 rows", "negative 9007199254740992"]),
    Case("positive-ambiguous", ["fit", "x.csv", *FAST, "--positive", "9007199254740992.0"], 1,
         ["names more than one value", "9007199254740992, 9007199254740993"],
         {"x.csv": table(planted().assign(y=planted().y + 2**53))}),
    Case("positive-exact-beyond-2**53", ["fit", "x.csv", *FAST, "--positive",
                                         "9007199254740992"], 0,
         files={"x.csv": table(planted().assign(y=planted().y + 2**53))},
         out=["positive class 9007199254740992 (33 rows, given by --positive)"]),
    Case("drop-target", ["fit", "d.csv", *FAST, "--drop", "y"], 1, ["--drop y", "target"], D),
    Case("drop-unknown", ["fit", "d.csv", *FAST, "--drop", "q"], 1, ["--drop q"], D),
    Case("bool-labels", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(with_column("y", planted().y.astype(bool)))}),
    Case("inf-labels", ["fit", "x.csv", *FAST], 0, out=["positive class inf"],
         files={"x.csv": table(with_column("y", np.where(planted().y, "inf", "1")))}),
    Case("operator-names", ["fit", "x.csv", "--theta", "0.01", "--rules", "2"], 0,
         out=["`a <= b` ", "THEN y = 1"],
         files={"x.csv": table(planted().rename(columns={"a": "a <= b", "b": "x AND y"}))}),
    Case("unicode-names", ["fit", "x.csv", *FAST], 0, out=["größe > "],
         files={"x.csv": table(planted().rename(columns={"a": "größe", "b": "名前"}))}),
    Case("numeric-header", ["fit", "x.csv", *FAST], 0,
         files={"x.csv": table(planted().set_axis(["1", "2", "3", "4"], axis=1))}),
    Case("constant-column", ["fit", "x.csv", "--rules", "1"], 0,
         files={"x.csv": table(planted().assign(k=1)[["k", "a", "b", "c", "y"]])}),
    Case("data-missing", ["fit", "nope.csv", *FAST], 1, ["cannot read nope.csv: no such file"]),
    Case("data-directory", ["fit", "sub", *FAST], 1, ["cannot read sub"],
         {"sub/keep": ""}),
    Case("save-is-input", ["fit", "d.csv", *FAST, "--save", "d.csv"], 1,
         ["--save d.csv is", SAME], D),
    Case("save-is-input-dotdot", ["fit", "d.csv", *FAST, "--save", "sub/../d.csv"], 1,
         [SAME], {**D, "sub/keep": ""}),
    Case("save-is-input-link", ["fit", "d.csv", *FAST, "--save", "l.csv"], 1, [SAME],
         {**D, "l.csv": os.symlink}),
    Case("save-read-only-dir", ["fit", "d.csv", *FAST, "--save", "ro/m.json"], 1,
         ["cannot write ro/m.json", "Permission denied"], {**D, "ro/keep": ""},
         read_only=("ro",)),
    Case("save-missing-dir", ["fit", "d.csv", *FAST, "--save", "no/m.json"], 1,
         ["cannot write no/m.json"], D),
    Case("save-empty-name", ["fit", "d.csv", *FAST, "--save", ""], 2, ["empty file name"], D),
    Case("save-directory", ["fit", "d.csv", *FAST, "--save", "sub"], 2, ["'--save'"],
         {**D, "sub/keep": ""}),
    Case("save-over-model", ["fit", "d.csv", *FAST, "--save", "m.json"], 0, files=DM,
         writes=("m.json",)),
    Case("read-only-data-folder", ["fit", "ro/d.csv", *FAST], 0, files={"ro/d.csv": CSV},
         read_only=("ro",)),
    Case("theta-negative", ["fit", "d.csv", "--theta", "-1"], 2, ["'--theta'"], D),
    Case("rules-zero", ["fit", "d.csv", "--rules", "0"], 2, ["'--rules'"], D),
    Case("seed-negative", ["fit", "d.csv", *FAST, "--seed", "-1"], 2, ["'--seed'"], D),
]

PREDICT = [
    Case("fine-stdout", ["predict", "m.json", "d.csv"], 0, files=DM,
         out=["a,b,c,y,prediction", "accuracy"]),
    Case("fine-file", ["predict", "m.json", "d.csv", "-o", "p.csv"], 0, files=DM,
         writes=("p.csv",)),
    Case("output-is-input", ["predict", "m.json", "d.csv", "-o", "d.csv"], 1,
         ["--output d.csv is", SAME], DM),
    Case("output-is-model", ["predict", "m.json", "d.csv", "-o", "./m.json"], 1,
         ["is the model file"], DM),
    Case("output-read-only-dir", ["predict", "m.json", "d.csv", "-o", "ro/p.csv"], 1,
         ["cannot write ro/p.csv", "Permission denied"], {**DM, "ro/keep": ""},
         read_only=("ro",)),
    Case("output-missing-dir", ["predict", "m.json", "d.csv", "-o", "no/p.csv"], 1,
         ["cannot write no/p.csv"], DM),
    Case("output-empty-name", ["predict", "m.json", "d.csv", "-o", ""], 2,
         ["empty file name"], DM),
    Case("column-empty-name", ["predict", "m.json", "d.csv", "--column", " "], 2,
         ["'--column'"], DM),
    Case("column-exists", ["predict", "m.json", "d.csv", "--column", "b"], 1,
         ["already has a column 'b'"], DM),
    Case("data-lacks-rule-column", ["predict", "m.json", "x.csv"], 1, ["lacks", "'a'"],
         {"m.json": model(), "x.csv": table(planted().drop(columns=["a"]))}),
    Case("data-only-rule-columns", ["predict", "m.json", "x.csv"], 0, out=["no accuracy"],
         files={"m.json": model(), "x.csv": table(planted()[["a", "b", "c"]])}),
    Case("data-empty", ["predict", "m.json", "x.csv"], 1, ["x.csv is empty"],
         {"m.json": model(), "x.csv": ""}),
    Case("data-header-only", ["predict", "m.json", "x.csv"], 0, out=["0 rows predicted"],
         files={"m.json": model(), "x.csv": "a,b,c,y\n"}),
    Case("data-binary", ["predict", "m.json", "x.csv"], 1, ["not a text file"],
         {"m.json": model(), "x.csv": GARBAGE}),
    Case("data-utf16", ["predict", "m.json", "x.csv"], 0, out=["accuracy"],
         files={"m.json": model(), "x.csv": CSV.encode("utf-16")}),
    Case("data-semicolons", ["predict", "m.json", "x.csv"], 0, out=["accuracy"],
         files={"m.json": model(), "x.csv": table(sep=";")}),
    Case("data-tabs-given", ["predict", "m.json", "x.csv", "--sep", "tab"], 0,
         files={"m.json": model(), "x.csv": table(sep="\t")}),
    Case("data-text-in-rule-column", ["predict", "m.json", "x.csv"], 0, out=["non-numeric"],
         files={"m.json": model(), "x.csv": table(with_column("a", "oops"))}),
    Case("data-inf-cells", ["predict", "m.json", "x.csv"], 0,
         files={"m.json": model(), "x.csv": table(with_column("a", "inf"))}),
    Case("data-duplicate-headers", ["predict", "m.json", "x.csv"], 1, ["repeats"],
         {"m.json": model(), "x.csv": "a,a,y\n1,2,0\n"}),
    Case("data-missing", ["predict", "m.json", "nope.csv"], 1, ["no such file"],
         {"m.json": model()}),
    Case("data-unknown-labels", ["predict", "m.json", "x.csv"], 0, out=["neither class"],
         files={"m.json": model(), "x.csv": table(with_column("y", "maybe"))}),
]

MODEL = [
    Case("missing", ["predict", "nope.json", "d.csv"], 1, ["cannot read model file nope.json"],
         D),
    Case("directory", ["predict", "sub", "d.csv"], 1, ["cannot read model file sub"],
         {**D, "sub/keep": ""}),
    Case("empty", ["predict", "m.json", "d.csv"], 1, ["not JSON"], {**D, "m.json": ""}),
    Case("truncated", ["predict", "m.json", "d.csv"], 1, ["not JSON"],
         {**D, "m.json": lambda doc: json.dumps(doc)[:80]}),
    Case("garbage", ["predict", "m.json", "d.csv"], 1, ["not UTF-8"],
         {**D, "m.json": HIGH_BYTES}),
    Case("utf16", ["predict", "m.json", "d.csv"], 1, ["not UTF-8"],
         {**D, "m.json": lambda doc: json.dumps(doc).encode("utf-16")}),
    Case("csv-as-model", ["predict", "d.csv", "d.csv"], 1, ["not JSON"], D),
    Case("json-array", ["predict", "m.json", "d.csv"], 1, ['no "format"'],
         {**D, "m.json": "[1, 2]"}),
    Case("json-null", ["predict", "m.json", "d.csv"], 1, ['no "format"'],
         {**D, "m.json": "null"}),
    Case("deeply-nested", ["predict", "m.json", "d.csv"], 1, ["nested too deeply"],
         {**D, "m.json": "[" * 100_000 + "]" * 100_000}),
    Case("wrong-format", ["predict", "m.json", "d.csv"], 1, ['no "format"'],
         {**D, "m.json": model(format="sklearn")}),
    Case("newer-version", ["predict", "m.json", "d.csv"], 1, ["upgrade rulelearn"],
         {**D, "m.json": model(format_version=MODEL_FORMAT_VERSION + 1)}),
    Case("older-version", ["predict", "m.json", "d.csv"], 1, ["fit the model again"],
         {**D, "m.json": model(format_version=0)}),
    Case("version-string", ["predict", "m.json", "d.csv"], 1, ["bad format_version '1'"],
         {**D, "m.json": model(format_version="1")}),
    Case("version-missing", ["predict", "m.json", "d.csv"], 1, ["bad format_version None"],
         {**D, "m.json": model(format_version=None)}),
    Case("nan-threshold", ["predict", "m.json", "d.csv"], 1, ["clause 1, literal 1", "NaN"],
         {**D, "m.json": literal(value=float("nan"))}),
    Case("inf-threshold", ["predict", "m.json", "d.csv"], 1,
         ["clause 1, literal 1", "threshold inf", "finite"],
         {**D, "m.json": literal(value=float("inf"))}),
    Case("string-threshold", ["predict", "m.json", "d.csv"], 1,
         ["clause 1, literal 1", "must be a number, got 'abc'"],
         {**D, "m.json": literal(value="abc")}),
    Case("bool-threshold", ["predict", "m.json", "d.csv"], 1, ["must be a number, got True"],
         {**D, "m.json": literal(value=True)}),
    Case("null-threshold", ["predict", "m.json", "d.csv"], 1, ["must be a number, got None"],
         {**D, "m.json": literal(value=None)}),
    Case("list-value", ["predict", "m.json", "d.csv"], 1, ["string, number or boolean"],
         {**D, "m.json": literal(op="==", value=[1])}),
    Case("unknown-op", ["predict", "m.json", "d.csv"], 1, ["unknown literal operator '<'"],
         {**D, "m.json": literal(op="<")}),
    Case("missing-op-with-value", ["predict", "m.json", "d.csv"], 1, ["takes no value"],
         {**D, "m.json": literal(op="is missing", value=1)}),
    Case("feature-not-string", ["predict", "m.json", "d.csv"], 1, ["column name"],
         {**D, "m.json": literal(feature=3)}),
    Case("literal-extra-key", ["predict", "m.json", "d.csv"], 1, ["unknown entry 'x'"],
         {**D, "m.json": literal(x=1)}),
    Case("literal-no-feature", ["predict", "m.json", "d.csv"], 1, ["no 'feature' entry"],
         {**D, "m.json": model(rule={"form": "dnf", "clauses": [[{"op": ">", "value": 1}]]})}),
    Case("literal-not-object", ["predict", "m.json", "d.csv"], 1, ["must be an object"],
         {**D, "m.json": model(rule={"form": "dnf", "clauses": [["a > 1"]]})}),
    Case("clauses-not-list", ["predict", "m.json", "d.csv"], 1, ["'clauses' must be a list"],
         {**D, "m.json": model(rule={"form": "dnf", "clauses": "a > 1"})}),
    Case("bad-form", ["predict", "m.json", "d.csv"], 1, ["form must be 'cnf' or 'dnf'"],
         {**D, "m.json": model(rule={"form": "DNF", "clauses": []})}),
    Case("empty-rule", ["predict", "m.json", "d.csv"], 0, out=["0 clauses"],
         files={**D, "m.json": model(rule={"form": "dnf", "clauses": []})}),
    Case("empty-clause", ["predict", "m.json", "d.csv"], 0,
         files={**D, "m.json": model(rule={"form": "cnf", "clauses": [[]]})}),
    Case("missing-rule", ["predict", "m.json", "d.csv"], 1, ["no rule"],
         {**D, "m.json": model(rule=None)}),
    Case("missing-target", ["predict", "m.json", "d.csv"], 1, ["no 'target' entry"],
         {**D, "m.json": model(target=None)}),
    Case("missing-positive", ["predict", "m.json", "d.csv"], 1, ["no 'positive' entry"],
         {**D, "m.json": model(positive=None)}),
    Case("same-labels", ["predict", "m.json", "d.csv"], 1, ["bad class labels"],
         {**D, "m.json": model(negative=1, positive=1)}),
    Case("label-object", ["predict", "m.json", "d.csv"], 1, ["bad class labels"],
         {**D, "m.json": model(positive={"a": 1})}),
    Case("theta-negative", ["predict", "m.json", "d.csv"], 1, ["bad theta -1"],
         {**D, "m.json": model(theta=-1)}),
    Case("theta-nan", ["predict", "m.json", "d.csv"], 1, ["bad theta nan"],
         {**D, "m.json": model(theta=float("nan"))}),
    Case("params-not-object", ["predict", "m.json", "d.csv"], 1, ["bad params"],
         {**D, "m.json": model(params=[1])}),
    Case("missing-values-not-strings", ["predict", "m.json", "d.csv"], 1,
         ["bad missing_values"], {**D, "m.json": model(missing_values=[None])}),
    Case("unknown-top-level-key", ["predict", "m.json", "d.csv"], 0,
         files={**D, "m.json": model(comment="written by hand")}),
    Case("5000-digit-threshold", ["show", "m.json"], 1, ["not JSON that can be read", "digits"],
         {"m.json": lambda doc: model()(doc).replace('"value": 0.', '"value": ' + "9" * 5000
                                                     + ', "x": 0.', 1)}),
    Case("5000-digit-theta", ["predict", "m.json", "d.csv"], 1, ["digits"],
         {**D, "m.json": lambda doc: model()(doc).replace('"theta": ', '"theta": ' + "9" * 5000
                                                          + ', "y": ', 1)}),
    Case("surrogate-target", ["show", "m.json"], 1, ["lone surrogate \\ud800"],
         {"m.json": model(target="\ud800")}),
    Case("surrogate-positive", ["predict", "m.json", "d.csv"], 1, ["lone surrogate"],
         {**D, "m.json": model(positive="\udfff")}),
    Case("surrogate-created", ["show", "m.json"], 1, ["lone surrogate"],
         {"m.json": model(created="2024\ud800")}),
    Case("surrogate-feature", ["show", "m.json"], 1, ["lone surrogate"],
         {"m.json": literal(feature="a\ud800")}),
]

CACHE = "cache/"
FAKE_MIRROR = {"mirror/liver/bupa.data": "1,2,3\n"}  # not the real file: fails its sha256
TRUNCATED = {"cache/liver/bupa.data": "85,92,45,27,31,0.0,1\n"}

DATASETS = [
    Case("list", ["datasets", "list"], 0, out=["wdbc_bundled", "bundled"]),
    Case("list-corrupt-cache", ["datasets", "list"], 0, files=TRUNCATED,
         out=["corrupt (UCI: bupa.data)"]),
    Case("list-read-only-cache", ["datasets", "list"], 0, files=TRUNCATED,
         read_only=("cache",), out=["corrupt"]),
    Case("list-cache-is-a-file", ["datasets", "list"], 0, files={"cache": "x"}),
    Case("info-unknown", ["datasets", "info", "nope"], 1, ["unknown dataset 'nope'"]),
    Case("fetch-unknown", ["datasets", "fetch", "sonr"], 1, ["did you mean 'sonar'"]),
    Case("fetch-nothing", ["datasets", "fetch"], 2, ["names or --all"]),
    Case("fetch-names-and-all", ["datasets", "fetch", "liver", "--all"], 2, ["names or --all"]),
    Case("info-bundled", ["datasets", "info", "wdbc_bundled"], 0, out=["569 rows"]),
    Case("fetch-bundled", ["datasets", "fetch", "wdbc_bundled"], 0, out=["bundled"]),
    Case("fetch-corrupt-mirror", ["datasets", "fetch", "liver", "--mirror", "mirror"], 1,
         ["checksum mismatch"], FAKE_MIRROR, writes=(CACHE,)),
    Case("info-corrupt-mirror", ["datasets", "info", "liver", "--mirror", "mirror"], 1,
         ["checksum mismatch"], FAKE_MIRROR, writes=(CACHE,)),
    Case("fetch-mirror-missing", ["datasets", "fetch", "liver", "--mirror", "nope"], 1,
         ["mirror folder nope does not exist"], writes=(CACHE,)),
    Case("fetch-mirror-is-a-file", ["datasets", "fetch", "liver", "--mirror", "m.txt"], 1,
         ["is not a folder"], {"m.txt": "x"}, writes=(CACHE,)),
    Case("fetch-mirror-ftp", ["datasets", "fetch", "liver", "--mirror", "ftp://x/"], 1,
         ["neither a folder nor an http(s) URL"], writes=(CACHE,)),
    Case("fetch-mirror-bad-url", ["datasets", "fetch", "liver", "--mirror", "http://[::1"], 1,
         ["Invalid IPv6 URL"], writes=(CACHE,)),
    Case("fetch-mirror-credentials-bad-port", ["datasets", "fetch", "liver", "--mirror",
                                               "http://user:s3cr3tpw@host:port/"], 1,
         ["cannot download http://user:***@host:port/liver/bupa.data", "nonnumeric port"],
         writes=(CACHE,)),
    Case("fetch-timeout-nan", ["datasets", "fetch", "liver", "--timeout", "nan"], 2,
         ["'--timeout'"]),
    Case("fetch-timeout-negative", ["datasets", "fetch", "liver", "--timeout", "-1"], 2,
         ["'--timeout'"]),
    Case("fetch-read-only-cache", ["datasets", "fetch", "liver", "--mirror", "mirror"], 1,
         ["cannot write to the dataset cache", "Permission denied", "RULELEARN_DATA"],
         {**FAKE_MIRROR, "cache/keep": ""}, read_only=("cache",)),
    Case("info-read-only-cache", ["datasets", "info", "liver", "--mirror", "mirror"], 1,
         ["cannot write to the dataset cache", "Permission denied"],
         {**FAKE_MIRROR, "cache/keep": ""}, read_only=("cache",)),
    Case("fetch-cache-is-a-file", ["datasets", "fetch", "liver", "--mirror", "mirror"], 1,
         ["cannot write to the dataset cache", "not a folder"], {**FAKE_MIRROR, "cache": "x"}),
    Case("info-cache-is-a-file", ["datasets", "info", "liver", "--mirror", "mirror"], 1,
         ["not a folder"], {**FAKE_MIRROR, "cache": "x"}),
    Case("truncated-in-read-only-cache", ["datasets", "info", "liver", "--mirror", "mirror"],
         1, ["does not match its sha256", "cannot be deleted", "Permission denied"],
         {**FAKE_MIRROR, **TRUNCATED}, read_only=("cache",)),
    Case("truncated-cache-is-refetched", ["datasets", "info", "liver"], 0,
         files=TRUNCATED, writes=(CACHE,), mirror=True, out=["345 rows"]),
    Case("fetch-real-mirror", ["datasets", "fetch", "liver"], 0, writes=(CACHE,), mirror=True,
         out=["bupa.data"]),
]

CASES = ([pytest.param(c, id=f"fit-{c.id}") for c in FIT]
         + [pytest.param(c, id=f"predict-{c.id}") for c in PREDICT]
         + [pytest.param(c, id=f"model-{c.id}") for c in MODEL]
         + [pytest.param(c, id=f"datasets-{c.id}") for c in DATASETS])


# ------------------------------------------------------------------------------------- the runner

def snapshot(folder: Path) -> dict:
    """Every file and link under ``folder``: its bytes (or link target)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = ("link", os.readlink(path))
        elif path.is_file():
            found[name] = ("file", path.read_bytes())
    return found


def may_change(name: str, writes) -> bool:
    return any(name == w or w.endswith("/") and name.startswith(w) for w in writes)


@pytest.mark.parametrize("case", CASES)
def test_hostile_input(case, tmp_path, monkeypatch, model_doc, read_only, request):
    if case.mirror:
        request.getfixturevalue("mirror_dir")
        monkeypatch.setenv("RULELEARN_MIRROR", os.environ.get("RULELEARN_MIRROR") or
                           str(request.getfixturevalue("mirror_dir")))
    else:
        monkeypatch.delenv("RULELEARN_MIRROR", raising=False)
    monkeypatch.setenv("RULELEARN_DATA", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    for name, content in case.files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is os.symlink:
            path.symlink_to("d.csv")
            continue
        content = content(model_doc) if callable(content) else content
        if isinstance(content, str):
            content = content.encode()
        path.write_bytes(content)
    for folder in case.read_only:
        read_only(tmp_path / folder)
    before = snapshot(tmp_path)

    result = CliRunner().invoke(main, case.args)

    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == case.code, output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    if case.code == 0:
        assert not errors, result.stderr
        for word in case.out:
            assert word in output, (word, output)
        lines = result.stderr.splitlines()
        assert all(not line.startswith(("Traceback", "  File ")) for line in lines), lines
    else:
        assert len(errors) == 1, result.stderr
        for word in case.words:
            assert word in errors[0], (word, errors[0])
        if case.code == 1:  # bad input: the one line (and warnings) is all there is
            others = [line for line in result.stderr.splitlines()
                      if line != errors[0] and not line.startswith("warning: ")]
            assert not others, result.stderr
    after = snapshot(tmp_path)
    changed = sorted(name for name in set(before) | set(after)
                     if before.get(name) != after.get(name) and not may_change(name, case.writes))
    assert not changed, f"files changed that should not have: {changed}"
    assert "s3cr3tpw" not in output


# -------------------------------------------------------------------------- real processes

def run_cli(tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if k != "RULELEARN_MIRROR"}
    env["RULELEARN_DATA"] = str(tmp_path / "cache")
    return subprocess.run([sys.executable, "-m", "rulelearn.cli", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=env)


def test_process_constant_column_under_cv_warns_once_in_one_line(tmp_path):
    (tmp_path / "k.csv").write_text(table(planted().assign(k=1)[["k", "a", "b", "c", "y"]]))
    result = run_cli(tmp_path, "fit", "k.csv", "--rules", "1", "-q")  # -q: no CV progress
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == ["warning: dropped 1 constant or empty column(s): k"]


def test_process_save_over_input_keeps_the_csv(tmp_path):
    (tmp_path / "x.csv").write_text(CSV)
    result = run_cli(tmp_path, "fit", "x.csv", *FAST, "--save", "x.csv")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: --save x.csv is the input data file")
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    assert (tmp_path / "x.csv").read_text() == CSV


def test_process_string_threshold_and_utf16_data(tmp_path, model_doc):
    (tmp_path / "x.csv").write_bytes(table(sep=";").encode("utf-16"))
    (tmp_path / "m.json").write_text(literal(value="abc")(model_doc))
    result = run_cli(tmp_path, "predict", "m.json", "x.csv")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "got 'abc'" in result.stderr
    (tmp_path / "m.json").write_text(json.dumps(model_doc))
    result = run_cli(tmp_path, "predict", "m.json", "x.csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "a,b,c,y,prediction"


def test_battery_size():
    assert len(CASES) >= 80
    assert get_spec("liver").source.files[0].file == "bupa.data"  # the cases name it


# ----------------------------------------------------- second battery: terminals, stdout, files

ESC_LABEL, BIDI_LABEL = "\x1b]0;PWNED\x07", "ok\u202e"
ESC_COLUMN, C1_TARGET = "c\x1b[2J", "t\x9b"
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")


def hostile_text_csv():
    df = planted()
    df["y"] = df["y"].map({1: ESC_LABEL, 0: BIDI_LABEL})
    return table(df.rename(columns={"c": ESC_COLUMN, "y": C1_TARGET}))


def test_control_characters_from_data_are_printed_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.csv").write_text(hostile_text_csv())
    runner = CliRunner()
    outputs = []
    for args in (["fit", "e.csv", *FAST, "--save", "e.json"], ["show", "e.json"],
                 ["predict", "e.json", "e.csv", "-o", "p.csv"],
                 ["fit", "e.csv", *FAST, "--drop", "zz"],  # an error quoting column names
                 ["fit", "e.csv", "--positive", "nope", *FAST]):
        result = runner.invoke(main, args)
        assert "Traceback" not in result.output
        outputs.append(result.stdout + result.stderr)
    text = "\n".join(outputs)
    assert not [c for c in RAW_CONTROLS if c in text], text
    assert "\\x1b]0;PWNED\\x07" in outputs[0] and "`c\\x1b[2J`" in outputs[1]
    assert "ok\\u202e" in outputs[1] and "t\\x9b" in outputs[2]
    assert "c\\x1b[2J" in outputs[3] and outputs[3].startswith("Error:")
    # files keep the data exact
    doc = json.loads((tmp_path / "e.json").read_text())
    assert doc["positive"] == ESC_LABEL and doc["target"] == C1_TARGET
    written = pd.read_csv(tmp_path / "p.csv", dtype=str)
    assert set(written["prediction"]) <= {ESC_LABEL, BIDI_LABEL}
    assert ESC_COLUMN in written.columns


def test_warnings_and_log_lines_are_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    df = planted().assign(**{"k\x1b[1m": 1})
    (tmp_path / "k.csv").write_text(table(df[["k\x1b[1m", "a", "b", "c", "y"]]))
    result = CliRunner().invoke(main, ["fit", "k.csv", "--rules", "1", "--cv", "2", "-q"])
    assert result.exit_code == 0, result.output
    assert "warning: dropped 1 constant or empty column(s): k\\x1b[1m" in result.stderr
    assert "\x1b" not in result.stderr + result.stdout


def test_terminal_text_escapes_controls_and_keeps_the_rest():
    from rulelearn._utils import terminal_text

    assert terminal_text("a\x1b[31mb\x07\x7f\x85\u2066\u202a\ud800") == \
        "a\\x1b[31mb\\x07\\x7f\\x85\\u2066\\u202a\\ud800"
    assert terminal_text("größe\n名前 é") == "größe\n名前 é"
    assert terminal_text("a\nb\tc", keep="") == "a\\x0ab\\x09c"


def run_closed_stdout(tmp_path, *args):
    """Run the CLI as a process whose standard output is closed (as after ``>&-``)."""
    env = {k: v for k, v in os.environ.items() if k != "RULELEARN_MIRROR"}
    env["RULELEARN_DATA"] = str(tmp_path / "cache")
    return subprocess.run([sys.executable, "-m", "rulelearn.cli", *args], cwd=tmp_path,
                          stdout=None, stderr=subprocess.PIPE, text=True, timeout=120, env=env,
                          preexec_fn=lambda: os.close(1))


@pytest.mark.parametrize("args", [["fit", "d.csv", *FAST], ["show", "m.json"],
                                  ["predict", "m.json", "d.csv"],
                                  ["export", "m.json", "--format", "sql"],
                                  ["datasets", "list"]],
                         ids=["fit", "show", "predict", "export", "datasets-list"])
def test_closed_stdout_is_one_error_line(tmp_path, model_doc, args):
    (tmp_path / "d.csv").write_text(CSV)
    (tmp_path / "m.json").write_text(json.dumps(model_doc))
    result = run_closed_stdout(tmp_path, *args)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "standard output" in errors[0], result.stderr


def test_closed_stdout_predict_to_a_file_works(tmp_path, model_doc):
    (tmp_path / "d.csv").write_text(CSV)
    (tmp_path / "m.json").write_text(json.dumps(model_doc))
    result = run_closed_stdout(tmp_path, "predict", "m.json", "d.csv", "-o", "p.csv")
    assert result.returncode == 0, result.stderr
    assert "written: p.csv" in result.stderr
    assert (tmp_path / "p.csv").read_text().splitlines()[0] == "a,b,c,y,prediction"


def test_lp_banner_handling_survives_a_closed_stdout(tmp_path):
    code = ("import sys; assert sys.stdout is None; from rulelearn import lp; "
            "lp._banner_shown = False; lp.new_highs(); print('ok', file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True,
                            timeout=60, preexec_fn=lambda: os.close(1))
    assert result.returncode == 0 and result.stderr.strip() == "ok", result.stderr


def test_failing_stdout_write_is_one_error_line(tmp_path, model_doc):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    (tmp_path / "m.json").write_text(json.dumps(model_doc))
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "rulelearn.cli", "show", "m.json"],
                                cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True,
                                timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.splitlines() == ["Error: cannot write to standard output: No space "
                                          "left on device"]


def test_show_on_5000_clauses_compares_only_clauses_that_can_interact(tmp_path, model_doc,
                                                                      monkeypatch):
    """Each clause on its own column (and one shared): simplify() was quadratic in the clauses
    (1,000 took 8 s, 5,000 over a minute); counted in literal comparisons, not seconds."""
    from rulelearn import rules

    doc = json.loads(json.dumps(model_doc))
    n = 5000
    doc["rule"]["clauses"] = [[{"feature": f"f{i}", "op": ">", "value": 0.5},
                               {"feature": "c", "op": "==", "value": f"v{i}"}] for i in range(n)]
    doc.pop("proba", None)
    (tmp_path / "m.json").write_text(json.dumps(doc))
    calls = {"n": 0}
    for name in ("implies", "exclusive", "exhaustive_given"):
        original = getattr(rules, name)

        def counted(*args, _original=original):
            calls["n"] += 1
            return _original(*args)
        monkeypatch.setattr(rules, name, counted)
    result = CliRunner().invoke(main, ["show", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert f"{n} clauses, {2 * n} literals" in result.output
    assert calls["n"] < 50 * n, calls


def test_fit_whose_report_cannot_be_written_still_saves_the_model(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    (tmp_path / "d.csv").write_text(CSV)
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "rulelearn.cli", "fit", "d.csv", *FAST,
                                 "--save", "m.json"], cwd=tmp_path, stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.splitlines() == ["saved: m.json", "Error: cannot write to standard "
                                          "output: No space left on device"]
    assert json.loads((tmp_path / "m.json").read_text())["target"] == "y"


def _old_simplify_reference(rule):
    """simplify() as it was before the clause index (pairwise over every two clauses)."""
    from rulelearn import rules as R

    dnf = rule.form == "dnf"

    def redundant(clause, other):
        if dnf:
            return all(any(R.implies(a, b) for a in clause) for b in other)
        return all(any(R.implies(b, a) for a in clause) for b in other)

    def drop(clauses):
        return [c for i, c in enumerate(clauses)
                if not any(redundant(c, o) and not (redundant(o, c) and j > i)
                           for j, o in enumerate(clauses) if j != i)]

    clauses = [c for c in (R._simplify_clause(list(c.literals), dnf) for c in rule.clauses)
               if c is not None]
    changed = True
    while changed:
        changed = False
        clauses = drop(clauses)
        for i, first in enumerate(clauses):
            for j, second in enumerate(clauses):
                reduced = None if i == j else R._resolve(first, second, dnf)
                if reduced is not None:
                    clauses[j], changed = reduced, True
                    break
            if changed:
                break
    return R.Rule(rule.form, tuple(R.Clause(tuple(c)) for c in clauses))


@pytest.mark.parametrize("seed", range(40))
def test_simplify_with_the_index_equals_the_pairwise_simplify(seed):
    from rulelearn.rules import Clause, Literal, Rule, simplify

    rng = np.random.default_rng(seed)
    features = ["a", "b", "c"][: 1 + seed % 3]
    ops = ["<=", ">", "==", "!=", "is missing", "is not missing"]

    def literal():
        feature, op = rng.choice(features), rng.choice(ops, p=[.3, .3, .15, .1, .075, .075])
        if op in ("<=", ">"):
            return Literal(feature, op, float(rng.integers(0, 4)))
        if op in ("==", "!="):
            return Literal(feature, op, str(rng.choice(["x", "y"])))
        return Literal(feature, op)

    for form in ("dnf", "cnf"):
        for _ in range(25):
            clauses = tuple(Clause(tuple(literal() for _ in range(rng.integers(0, 4))))
                            for _ in range(rng.integers(1, 9)))
            rule = Rule(form, clauses)
            assert simplify(rule) == _old_simplify_reference(rule), rule


SAME_COLUMNS = {
    "thresholds": lambda i: [{"feature": "a", "op": ">", "value": i / 1000},
                             {"feature": "b", "op": "<=", "value": i / 1000}],
    "equalities": lambda i: [{"feature": "c", "op": "==", "value": f"v{i}"}],
}


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("shape", sorted(SAME_COLUMNS))
def test_show_on_5000_clauses_on_the_same_columns(tmp_path, model_doc, shape, form):
    """Clauses that all share their columns: thresholds are compared in bulk, equalities only
    with the clauses holding the same literal (or one that completes or excludes it)."""
    from rulelearn import rules

    doc = json.loads(json.dumps(model_doc))
    n = 5000
    doc["rule"] = {"form": form, "clauses": [SAME_COLUMNS[shape](i) for i in range(n)]}
    doc.pop("proba", None)
    (tmp_path / "m.json").write_text(json.dumps(doc))
    calls = {"n": 0}
    with pytest.MonkeyPatch.context() as mp:
        for name in ("implies", "exclusive", "exhaustive_given"):
            original = getattr(rules, name)

            def counted(*args, _original=original):
                calls["n"] += 1
                return _original(*args)
            mp.setattr(rules, name, counted)
        result = CliRunner().invoke(main, ["show", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert f"{n} clauses" in result.output
    assert calls["n"] < 50 * n, calls


def test_closed_stdout_bench_saves_its_results_then_says_one_error_line(tmp_path):
    """bench's results are files: they are all written, then the table it would print is one
    Error: line (exit 1), not a silent exit 0."""
    config = Path(__file__).resolve().parents[1] / "configs" / "smoke.yaml"
    text = config.read_text().replace("output: results", f"output: {tmp_path / 'out'}")
    (tmp_path / "smoke.yaml").write_text(text.replace("  - cart: {max_depth: [1, 2, 3]}\n", ""))
    result = run_closed_stdout(tmp_path, "bench", "smoke.yaml", "-q")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "standard output" in errors[0], result.stderr
    assert (tmp_path / "out" / "smoke" / "table1.md").is_file()
    assert len((tmp_path / "out" / "smoke" / "records.jsonl").read_text().splitlines()) == 3
