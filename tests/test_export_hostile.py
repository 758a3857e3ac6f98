"""Exports of rules whose names, labels and values are hostile (issue 23, items 1 and 7).

No name, label or value may run code, end a string, docstring or comment early, or change how
the generated Python or SQL parses; every export predicts as ``rulelearn predict`` does
(:func:`rulelearn.csv_predict.predict_csv`, the library function behind it) on the same cells.
Each issue's reproduction is a named test; the fuzz tests run every format on hostile names,
labels and categories and execute what they generate.
"""

import ast
import csv
import json
import os
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulelearn import MODEL_FORMAT_VERSION
from rulelearn._labels import same_label
from rulelearn.cli import main
from rulelearn.csv_predict import predict_csv
from rulelearn.data.parse import DEFAULT_MISSING
from rulelearn.errors import ParameterError
from rulelearn.export import SQL_HEADER, export_rule
from rulelearn.model_io import load_model
from rulelearn.rules import Clause, Literal, Rule

PWNED = '"""+str(__import__("os").system("touch PWNED"))+"""'
DROP = "'); DROP TABLE canary; --"


# ----------------------------------------------------------------------------------------- helpers

def model_file(path, rule, *, target="y", positive="yes", negative="no", missing=None):
    """A model file holding ``rule`` (as a hand-edited or hostile file would), loaded back."""
    doc = {"format": "rulelearn-model", "format_version": MODEL_FORMAT_VERSION,
           "rule": rule.to_dict(), "target": target, "positive": positive,
           "negative": negative}
    if missing is not None:
        doc["missing_values"] = list(missing)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return load_model(path)


def write_csv(path, columns, rows, *, spaced=False):
    """A CSV file of text cells (every cell quoted; ``spaced``: a space after each comma)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_ALL)
        writer.writerow(columns)
        writer.writerows(rows)
    if spaced:
        text = path.read_text(encoding="utf-8").replace('","', '", "')
        path.write_text(text, encoding="utf-8")
    return path


def same(a, b):
    """The same label: equal and of the same kind (SQL writes a boolean as 1 or 0)."""
    if isinstance(b, bool) and not isinstance(a, str):
        return a == int(b)
    return type(a) is type(b) and a == b


def run_python(source, rows):
    """Execute an exported Python module in a fresh namespace; ``predict`` on each row."""
    namespace: dict = {}
    exec(compile(source, "exported.py", "exec"), namespace)
    return [namespace["predict"](row) for row in rows]


def run_pandas(source, frame):
    """Execute an exported pandas module; its labels, after checking holds/select/predict."""
    namespace: dict = {}
    exec(compile(source, "exported_pandas.py", "exec"), namespace)
    holds = namespace["holds"](frame)
    assert holds.dtype == bool and holds.index.equals(frame.index)
    assert namespace["select"](frame).index.equals(frame.index[holds.to_numpy()])
    labels = list(namespace["predict"](frame))
    assert labels == [namespace["POSITIVE"] if h else namespace["NEGATIVE"] for h in holds]
    return labels


def run_sql(text, columns, rows, types=None):
    """Run an exported SQL expression in sqlite3 over a table of ``rows``, next to a canary
    table; the authorizer allows reading the data only (no function, no write)."""
    assert text.startswith(SQL_HEADER)
    expression = text[len(SQL_HEADER):]
    db = sqlite3.connect(":memory:")
    try:
        def quoted(name):
            return '"' + name.replace('"', '""') + '"'
        declared = [quoted(c) + (f" {types[c]}" if types and c in types else "")
                    for c in columns]
        db.execute(f"CREATE TABLE data ({', '.join(declared)})")
        db.execute("CREATE TABLE canary (x)")
        db.executemany(f"INSERT INTO data VALUES ({', '.join('?' * len(columns))})", rows)
        seen = []

        def authorize(action, arg1, arg2, database, trigger):
            seen.append((action, arg1))
            if action == sqlite3.SQLITE_SELECT or (action == sqlite3.SQLITE_READ
                                                    and arg1 == "data"):
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_DENY

        db.set_authorizer(authorize)
        out = [row[0] for row in db.execute(f"SELECT {expression} FROM data")]
        db.set_authorizer(None)
        assert db.execute("SELECT count(*) FROM canary").fetchone() == (0,)
        assert {a for a, _ in seen} <= {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ}
        return out
    finally:
        db.close()


def skeleton(source):
    """The module's syntax tree with every constant blanked: what data cannot change."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.value = None
    return ast.dump(tree)


def benign(model):
    """``model`` with plain names, values and labels in place of the hostile ones."""
    names: dict = {}

    def name(n):
        return names.setdefault(n, f"f{len(names)}")

    def value(v):
        return f"v{abs(hash(v)) % 1000}" if isinstance(v, str) else v

    def label(v, plain):
        return plain if isinstance(v, str) else v

    rule = Rule(model.rule.form, tuple(
        Clause(tuple(Literal(name(lit.feature), lit.op, value(lit.value))
                     for lit in clause.literals)) for clause in model.rule.clauses))
    return type(model)(rule=rule, target="t", positive=label(model.positive, "p"),
                       negative=label(model.negative, "n"), theta=None, method=None,
                       missing_values=tuple(f"m{i}" for i in range(len(
                           model.missing_values or DEFAULT_MISSING))))


def assert_only_data_differs(model, fmt):
    """The generated code parses to the tree of a benign model's, but for its constants."""
    assert skeleton(export_rule(model, fmt)) == skeleton(export_rule(benign(model), fmt))


def predicted(model, path):
    return list(predict_csv(model, path, sep=",").table["prediction"])


def python_rows(path):
    with open(path, newline="", encoding="utf-8") as f:  # the cells as a CSV reader gives them
        return list(csv.DictReader(f, skipinitialspace=True))


def pandas_frames(path):
    """The documented readings: text cells, and pandas' own parsing (without its NA list)."""
    return [pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True),
            pd.read_csv(path, keep_default_na=False, skipinitialspace=True)]


def sql_table(model, path):
    """The cells as predict reads them (stripped, missing NULL); the columns compared with
    numbers as numbers."""
    from rulelearn.data.parse import read_table

    table = read_table(path, sep=",", missing=())
    tokens = list(DEFAULT_MISSING if model.missing_values is None else model.missing_values)
    table = table.mask(table.isin(tokens))
    numeric = {lit.feature for clause in model.rule.clauses for lit in clause.literals
               if lit.op in ("<=", ">")}
    rows = []
    for _, row in table.iterrows():
        rows.append([None if pd.isna(v) else (float(v) if c in numeric else v)
                     for c, v in row.items()])
    return list(table.columns), rows


def assert_every_export_predicts_as_predict(model, path, *, sql=True):
    expected = predicted(model, path)
    assert [same(a, b) for a, b in zip(run_python(export_rule(model, "python"),
                                                  python_rows(path)), expected)] == \
        [True] * len(expected)
    for frame in pandas_frames(path):
        got = run_pandas(export_rule(model, "pandas"), frame)
        assert all(same(a, b) for a, b in zip(got, expected)), (got, expected)
    if sql:
        columns, rows = sql_table(model, path)
        text = export_rule(model, "sql")
        for types in (None, dict.fromkeys(columns, "TEXT")):
            got = run_sql(text, columns, rows, types)
            assert all(same(a, b) for a, b in zip(got, expected)), (got, expected, types)
    return expected


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, [str(a) for a in args])


def fit_labels(cli, tmp_path, positive, negative):
    """``rulelearn fit`` on a CSV whose target holds ``positive`` and ``negative``."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=60).round(2)
    colour = rng.choice(["red", "blue"], 60)
    label = np.where((x > 0.2) | (colour == "red"), positive, negative)
    write_csv(tmp_path / "train.csv", ["x", "colour", "target"],
              [[str(a), b, c] for a, b, c in zip(x, colour, label)])
    r = cli("fit", "train.csv", "--target", "target", "--positive", positive, "--form", "dnf",
            "-R", "3", "--theta", "0.5", "--save", "m.json", "-q")
    assert r.exit_code == 0, r.output
    return tmp_path / "m.json", tmp_path / "train.csv"


# ---------------------------------------------------------------------------- the issue's cases

@pytest.mark.parametrize("fmt", ["sql", "python", "pandas"])
def test_an_ansi_sequence_in_a_name_reaches_exported_code_on_stdout_exactly(cli, tmp_path, fmt):
    """click strips ANSI sequences from output that is not a terminal: a column named
    ``x\x1b[31m`` was exported to stdout as ``x``, another column's name."""
    name = "x\x1b[31m"
    model = model_file(tmp_path / "m.json", Rule("dnf", (Clause((Literal(name, ">", 1),)),)))
    r = cli("export", tmp_path / "m.json", "--format", fmt)
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip("\n") == export_rule(model, fmt).rstrip("\n")
    assert "\x1b[31m" in r.stdout if fmt == "sql" else "\\x1b[31m" in r.stdout  # Python: repr


def test_pwned_label_runs_no_code_in_any_export(cli, tmp_path):
    """Issue 23.1: the label closed predict's docstring; calling predict created PWNED."""
    model_path, data = fit_labels(cli, tmp_path, PWNED, "no")
    for fmt in ("python", "pandas", "sql"):
        r = cli("export", model_path, "--format", fmt, "-o",
                f"rule_{fmt}.{'sql' if fmt == 'sql' else 'py'}")
        assert r.exit_code == 0, r.output
    # a fresh interpreter in an empty folder imports the module and predicts every row
    work = tmp_path / "run"
    work.mkdir()
    script = textwrap.dedent(f"""
        import csv, importlib.util, os, sys
        spec = importlib.util.spec_from_file_location("rule", {str(tmp_path / 'rule_python.py')!r})
        rule = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(rule)
        with open({str(data)!r}, newline="") as f:
            labels = [rule.predict(row) for row in csv.DictReader(f)]
        print(os.getcwd() == {str(work)!r}, sorted(os.listdir(os.getcwd())),
              rule.POSITIVE == {PWNED!r}, labels.count(rule.POSITIVE))
    """)
    run = subprocess.run([sys.executable, "-c", script], cwd=work, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    out = run.stdout.split()
    assert out[:3] == ["True", "[]", "True"], out
    assert not (work / "PWNED").exists() and not (tmp_path / "PWNED").exists()
    model = load_model(model_path)
    expected = assert_every_export_predicts_as_predict(model, data)
    assert int(out[3]) == expected.count(PWNED) > 0
    assert not list(tmp_path.rglob("PWNED"))


def test_sql_comment_and_triple_quote_labels_compile_and_predict(cli, tmp_path):
    """Issue 23.1: labels ``'); DROP TABLE canary; --`` and ``\"\"\"`` broke the module."""
    model_path, data = fit_labels(cli, tmp_path, DROP, '"""')
    model = load_model(model_path)
    for fmt in ("python", "pandas"):
        compile(export_rule(model, fmt), "rule.py", "exec")
        assert_only_data_differs(model, fmt)
    expected = assert_every_export_predicts_as_predict(model, data)  # canary table intact
    assert set(expected) == {DROP, '"""'}


def test_nul_in_the_target_exports_python_that_compiles(cli, tmp_path):
    """Issue 23.1: a NUL in the target gave, with exit 0, a module that did not compile."""
    model_path, data = fit_labels(cli, tmp_path, "yes", "no")
    doc = json.loads(model_path.read_text())
    doc["target"] = "sick\x00\"\"\"\n--"
    model_path.write_text(json.dumps(doc))
    for fmt in ("python", "pandas", "sql"):
        r = cli("export", "m.json", "--format", fmt, "-o", f"rule.{fmt}")
        assert r.exit_code == 0, r.output
    namespace: dict = {}
    exec(compile((tmp_path / "rule.python").read_text(encoding="ascii"), "rule.py", "exec"),
         namespace)
    assert namespace["TARGET"] == "sick\x00\"\"\"\n--"
    assert "sick" not in (tmp_path / "rule.sql").read_text()  # no data in the SQL comments
    assert_every_export_predicts_as_predict(load_model(model_path), data)


def test_a_nul_label_is_refused_by_sql_and_nothing_written(cli, tmp_path):
    model_path, _ = fit_labels(cli, tmp_path, "yes", "no")
    doc = json.loads(model_path.read_text())
    doc["positive"] = "ye\x00s"
    model_path.write_text(json.dumps(doc))
    r = cli("export", "m.json", "--format", "sql", "-o", "rule.sql")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.stderr.strip() == ("Error: the positive class cannot be written in SQL: it holds a "
                                "NUL character")
    assert not (tmp_path / "rule.sql").exists()
    r = cli("export", "m.json", "--format", "python")
    assert r.exit_code == 0
    assert run_python(r.stdout, [{"x": "5", "colour": "red"}]) == ["ye\x00s"]


def test_a_lone_surrogate_is_written_in_python_and_refused_by_sql(tmp_path, monkeypatch):
    """A model file with a lone surrogate is refused when it is read; should such a model reach
    the exporters all the same (built in code), Python keeps it exact and SQL refuses it."""
    from rulelearn import model_io

    rule = Rule("dnf", (Clause((Literal("c\ud800", "==", "v\udfff"),)),))
    with pytest.raises(model_io.ModelFileError, match="lone surrogate"):
        model_file(tmp_path / "m.json", rule, positive="p\ud83d", negative="n")
    monkeypatch.setattr(model_io, "_lone_surrogate", lambda doc: None)
    model = model_file(tmp_path / "m.json", rule, positive="p\ud83d", negative="n")
    source = export_rule(model, "python")
    source.encode("ascii")  # pure ASCII: the file can be written in any encoding
    rows = [{"c\ud800": "v\udfff"}, {"c\ud800": "v"}, {"c\ud800": None}]
    assert run_python(source, rows) == ["p\ud83d", "n", "n"]
    assert run_pandas(export_rule(model, "pandas"), pd.DataFrame(rows)) == ["p\ud83d", "n", "n"]
    with pytest.raises(ParameterError, match=r"column name `c\\ud800` cannot be written in SQL"
                                             r": it holds a lone surrogate"):
        export_rule(model, "sql")


@pytest.mark.parametrize("category", ["007", "7", "7.0", "+7", "7e0", "1_0"])
def test_a_number_category_matches_its_number_in_every_format(tmp_path, category):
    """Issue 23.7: a category '007' and a cell 7: predict and Python said equal, SQL and pandas
    not. Every format now compares as predict does (as text, or as numbers when both are)."""
    rule = Rule("dnf", (Clause((Literal("c", "==", category),)),
                        Clause((Literal("d", "!=", category), Literal("d", "is not missing")))))
    model = model_file(tmp_path / "m.json", rule)
    cells = ["7", "007", "7.0", "07", "10", "1_0", "abc", "", "NA", "seven", category]
    rows = [[a, b] for a in cells for b in cells]
    data = write_csv(tmp_path / "new.csv", ["c", "d"], rows)
    expected = assert_every_export_predicts_as_predict(model, data, sql=False)
    # SQL reads a cell as a number where SQLite does (not '1_0', which Python's float reads)
    sql_cells = [c for c in cells if c != "1_0"]
    data = write_csv(tmp_path / "sql.csv", ["c", "d"],
                     [[a, b] for a in sql_cells for b in sql_cells])
    assert_every_export_predicts_as_predict(model, data)
    if category != "1_0":
        assert expected[cells.index("7") * len(cells)] == "yes"  # c == '7' matches


def test_a_number_cell_stored_as_a_number_matches_in_sql(tmp_path):
    rule = Rule("dnf", (Clause((Literal("c", "==", "007"),)),))
    model = model_file(tmp_path / "m.json", rule)
    text = export_rule(model, "sql")
    for types in (None, {"c": "INTEGER"}, {"c": "REAL"}, {"c": "TEXT"}, {"c": "NUMERIC"}):
        assert run_sql(text, ["c"], [[7], [7.0], ["7"], ["007"], ["7abc"], [8], [None], ["abc"]],
                       types) == ["yes", "yes", "yes", "yes", "no", "no", "no", "no"]


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_column_named_index_with_an_empty_rule(tmp_path, form):
    """Issue 23.7: the empty DNF was the pandas query ``index != index``, true on the rows where
    a column named ``index`` is NaN."""
    model = model_file(tmp_path / "m.json", Rule(form, ()))
    data = write_csv(tmp_path / "new.csv", ["index", "x"],
                     [["", "1"], ["NA", "2"], ["3", ""], ["a", "b"]])
    expected = assert_every_export_predicts_as_predict(model, data)
    assert expected == ["no" if form == "dnf" else "yes"] * 4
    frame = pd.DataFrame({"index": [np.nan, np.nan, 1.0]})
    assert run_pandas(export_rule(model, "pandas"), frame) == [expected[0]] * 3


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_rules_on_columns_named_like_python_and_pandas_words(tmp_path, form):
    names = ["index", "True", "None", "class", "lambda", "ilevel_0", "@x", "select"]
    rule = Rule(form, tuple(Clause((Literal(n, "==", "a"), Literal(n, "is missing")))
                            for n in names[:4]) +
                (Clause(tuple(Literal(n, "<=", 1) for n in names[4:])),))
    model = model_file(tmp_path / "m.json", rule)
    rng = np.random.default_rng(1)
    rows = [[rng.choice(["a", "b", "", "NA"]) for _ in names[:4]]
            + [rng.choice(["0", "2", ""]) for _ in names[4:]] for _ in range(40)]
    data = write_csv(tmp_path / "new.csv", names, rows)
    assert_every_export_predicts_as_predict(model, data)
    for fmt in ("python", "pandas"):
        assert_only_data_differs(model, fmt)


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_boolean_labels_beside_columns_named_true_and_false(tmp_path, form):
    """SQLite reads TRUE and FALSE as a column's name when the table has a column named so: the
    SQL export wrote boolean labels as those keywords, and an empty DNF over a column named
    False returned that column's cells (found by hypothesis)."""
    rule = Rule(form, ()) if form == "dnf" else Rule(form, (Clause((Literal("False", "<=", 1),)),))
    model = model_file(tmp_path / "m.json", rule, positive=True, negative=False)
    data = write_csv(tmp_path / "new.csv", ["False", "True"], [["0", "0"], ["2", "5"], ["", "1"]])
    expected = assert_every_export_predicts_as_predict(model, data)
    assert expected == ([False] * 3 if form == "dnf" else [True, False, False])
    assert "TRUE" not in export_rule(model, "sql") and "FALSE" not in export_rule(model, "sql")


def test_spaces_after_the_commas_are_read_as_predict_reads_them(tmp_path):
    """Issue 23.7: predict strips ``a, b``'s space; the pandas query did not."""
    rule = Rule("dnf", (Clause((Literal("colour", "==", "red"), Literal("age", ">", 50))),
                        Clause((Literal("colour", "!=", "blue"), Literal("age", "is missing")))))
    model = model_file(tmp_path / "m.json", rule)
    data = write_csv(tmp_path / "new.csv", ["age", "colour"],
                     [["60", "red"], [" 60 ", " red "], ["40", "red"], ["", "green"],
                      [" NA", "blue"], ["  ", " green"], ["55", "red  "]], spaced=True)
    assert ', "' in data.read_text()
    unquoted = tmp_path / "plain.csv"
    unquoted.write_text("age, colour\n60, red\n 60 ,red \n40, red\n, green\nNA , blue\n"
                        "55,  red\n")
    for path in (data, unquoted):
        expected = assert_every_export_predicts_as_predict(model, path)
        assert expected == ["yes", "yes", "no", "yes", "no", "yes", "yes"][:len(expected)]


def test_non_numeric_cells_in_a_numeric_column_are_read_as_predict_reads_them(tmp_path):
    rule = Rule("cnf", (Clause((Literal("x", ">", 1.5), Literal("x", "is missing"))),
                        Clause((Literal("x", "<=", 1e3),))))
    model = model_file(tmp_path / "m.json", rule)
    cells = ["2", "1", "abc", "", "inf", "-inf", "Infinity", "1e2", "1_000", "0x10", "1e400",
             "nan", "2.", ".5", "+3", "٣", "1,5", "99999999999999999999"]
    data = write_csv(tmp_path / "new.csv", ["x"], [[c] for c in cells])
    assert_every_export_predicts_as_predict(model, data, sql=False)  # SQL: numbers or NULL


# -------------------------------------------------------------------------------------- the fuzz

#: No lone surrogates: a model file holding one is refused when read (its own test above).
HOSTILE = [
    "'", '"', '"""', "'''", "\\", "\\'", "\n", "\r\n", "\t", "\x00", "a\x00b",
    "é", "日本", "\U0001f600", "\x1b[31m", "\x7f", "\u2028", "\x85", "--", "-- x",
    "/*", "*/", "`", "``", "`a`", "index", "True", "None", "False", "class", "lambda", "import",
    "__import__", "ilevel_0", "@x", "{x}", "%s", "$1", "?", ";", PWNED, DROP,
    "'); DROP TABLE canary; --", "\"; DROP TABLE canary; --", "*/ DROP TABLE canary; /*",
    "007", "7", "7.0", "NA", "nan", "inf", "1e5", " padded ", "a b", "x <= 1", "a = b",
    "a <> 'b'", "(", ")",
]
TEXT = st.one_of(st.sampled_from(HOSTILE),
                 st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8),
                 st.text(st.sampled_from("'\"`\\\n\r\x00-/*; aé7."), max_size=6))


def csv_safe(text):
    """Text a UTF-8 CSV file can hold (predict refuses NUL; a surrogate is not UTF-8)."""
    return "\x00" not in text and not any("\ud800" <= c <= "\udfff" for c in text)


NAME = TEXT.map(str.strip).filter(lambda s: s and csv_safe(s) and not s.startswith("Unnamed"))
CATEGORY = TEXT.filter(csv_safe)
LABEL = st.one_of(TEXT, st.integers(-3, 3), st.sampled_from([0.5, -2.25, True, False]))


def sql_unsafe(text):
    return not csv_safe(text)


@st.composite
def hostile_cases(draw):
    names = draw(st.lists(NAME, min_size=1, max_size=3, unique=True))
    kinds = {n: draw(st.sampled_from(["numeric", "category"])) for n in names}
    categories = draw(st.lists(CATEGORY, min_size=1, max_size=4))
    for c in list(categories):  # a number category: also its other spellings, as cells
        try:
            number = float(c)
        except ValueError:
            continue
        if np.isfinite(number):
            categories += [repr(number), str(int(number)) if number.is_integer() else c]

    def literal():
        name = draw(st.sampled_from(names))
        if draw(st.integers(0, 5)) == 0:
            return Literal(name, draw(st.sampled_from(["is missing", "is not missing"])))
        if kinds[name] == "numeric":
            return Literal(name, draw(st.sampled_from(["<=", ">"])),
                           draw(st.sampled_from([0, 1, 2.5, -1])))
        return Literal(name, draw(st.sampled_from(["==", "!="])),
                       draw(st.sampled_from(categories)))

    form = draw(st.sampled_from(["dnf", "cnf"]))
    clauses = draw(st.lists(st.lists(st.builds(literal), max_size=3), max_size=3))
    positive, negative = draw(LABEL), draw(LABEL)
    assume(not same_label(positive, negative))
    target = draw(TEXT.filter(bool))

    def cell(name):
        if kinds[name] == "numeric":
            return draw(st.sampled_from(["0", "1", "2.5", "3", "-1", " 2 ", "", "NA"]))
        value = draw(st.one_of(st.sampled_from(categories), CATEGORY,
                               st.sampled_from(["", "NA", "?"])))
        return draw(st.sampled_from(["", " ", "  "])) + value + draw(st.sampled_from(["", " "]))

    rows = [[cell(n) for n in names] for _ in range(draw(st.integers(1, 8)))]
    rule = Rule(form, tuple(Clause(tuple(c)) for c in clauses))
    return rule, names, rows, target, positive, negative


def sql_reads_alike(rule, rows):
    """Whether SQLite reads every number in the rule's categories and the cells as Python's
    float does (not '1_0', 'Infinity', non-ASCII digits: documented to compare as text)."""
    import re

    strict = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*", re.ASCII)
    texts = [str(lit.value) for clause in rule.clauses for lit in clause.literals
             if isinstance(lit.value, str)] + [c for row in rows for c in row]
    for text in texts:
        try:
            number = float(text)
        except ValueError:
            continue
        if not (strict.fullmatch(text) and np.isfinite(number)):
            return False
    return True


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(hostile_cases())
def test_every_export_predicts_as_predict_on_hostile_data(tmp_path_factory, case):
    rule, names, rows, target, positive, negative = case
    folder = tmp_path_factory.mktemp("hostile")
    model = model_file(folder / "m.json", rule, target=target, positive=positive,
                       negative=negative)
    data = write_csv(folder / "new.csv", names, rows)
    before = set(os.listdir(os.getcwd()))
    for fmt in ("python", "pandas"):
        source = export_rule(model, fmt)
        source.encode("ascii")
        assert_only_data_differs(model, fmt)
    emitted = [lit.feature for clause in rule.clauses for lit in clause.literals] + [
        str(lit.value) for clause in rule.clauses for lit in clause.literals
        if isinstance(lit.value, str)] + [v for v in (positive, negative) if isinstance(v, str)]
    refused = any(sql_unsafe(t) for t in emitted)
    if refused:
        with pytest.raises(ParameterError, match="cannot be written in SQL"):
            export_rule(model, "sql")
    assert_every_export_predicts_as_predict(
        model, data, sql=not refused and sql_reads_alike(rule, rows))
    assert set(os.listdir(os.getcwd())) == before


@st.composite
def frame_cases(draw):
    """Names, values and cells with what a CSV cannot hold (NUL)."""
    names = draw(st.lists(TEXT, min_size=1, max_size=3, unique=True))
    categories = draw(st.lists(TEXT, min_size=1, max_size=3))
    literals = st.one_of(
        st.builds(Literal, st.sampled_from(names), st.sampled_from(["==", "!="]),
                  st.sampled_from(categories)),
        st.builds(Literal, st.sampled_from(names), st.sampled_from(["is missing",
                                                                    "is not missing"])))
    clauses = draw(st.lists(st.lists(literals, max_size=3), max_size=3))
    rule = Rule(draw(st.sampled_from(["dnf", "cnf"])), tuple(Clause(tuple(c)) for c in clauses))
    cells = st.one_of(st.sampled_from(categories), TEXT, st.none())
    rows = draw(st.lists(st.tuples(*[cells for _ in names]), min_size=1, max_size=6))
    return rule, names, rows, draw(LABEL), draw(LABEL)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame_cases())
def test_python_and_pandas_exports_predict_as_predict_on_any_text(tmp_path_factory, case):
    rule, names, rows, positive, negative = case
    assume(not same_label(positive, negative))
    model = model_file(tmp_path_factory.mktemp("frame") / "m.json", rule, positive=positive,
                       negative=negative)
    # predict's reading of a cell: stripped, and a missing-value token is missing
    read = [[None if c is None or c.strip() in DEFAULT_MISSING else c.strip() for c in row]
            for row in rows]
    expected = list(model.predict(pd.DataFrame(read, columns=names, dtype=object)))
    as_dicts = [dict(zip(names, row)) for row in rows]
    got = run_python(export_rule(model, "python"), as_dicts)
    assert all(same(a, b) for a, b in zip(got, expected))
    got = run_pandas(export_rule(model, "pandas"), pd.DataFrame(rows, columns=names,
                                                                 dtype=object))
    assert all(same(a, b) for a, b in zip(got, expected))


def test_exported_code_calls_nothing_but_its_helpers(tmp_path):
    """The canary: a fresh interpreter with an audit hook runs hostile exports; nothing but
    the module's own imports may happen (no file opened or written, no process, no exec)."""
    rule = Rule("dnf", (Clause((Literal(PWNED, "==", PWNED), Literal(DROP, "<=", 1))),
                        Clause((Literal('"""', "!=", "'''\x00"), Literal("index", "is missing")))))
    paths = []
    for i, (pos, neg) in enumerate([(PWNED, DROP), ('"""', "'''"), ("\x00", "\x1b]0;x\x07")]):
        model = model_file(tmp_path / f"m{i}.json", rule, target=PWNED, positive=pos,
                           negative=neg)
        for fmt in ("python", "pandas"):
            path = tmp_path / f"rule{i}_{fmt}.py"
            path.write_text(export_rule(model, fmt), encoding="ascii")
            paths.append((str(path), fmt))
    work = tmp_path / "empty"
    work.mkdir()
    script = textwrap.dedent(f"""
        import math, numbers, re, sys
        import numpy, pandas
        frame = pandas.DataFrame({{{PWNED!r}: [{PWNED!r}, "x"], {DROP!r}: ["0", "2"],
                                   '\"\"\"': ["a", None], "index": [None, "1"]}})
        rows = frame.to_dict("records")  # before the hook: pandas imports lazily
        sources = [(open(p, encoding="ascii").read(), fmt) for p, fmt in {paths!r}]
        events = []
        def hook(event, args):
            if event not in ("compile", "exec", "object.__getattr__", "sys._getframe",
                             "re.compile", "builtins.id"):
                events.append((event, str(args)[:80]))
        sys.addaudithook(hook)
        for source, fmt in sources:
            namespace = {{}}
            exec(compile(source, "rule.py", "exec"), namespace)
            if fmt == "python":
                print([namespace["predict"](row) for row in rows])
            else:
                print(list(namespace["predict"](frame)))
        print(sorted(set(events)), file=sys.stderr)
        print(sorted({{e for e, _ in events}}))
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=work, capture_output=True,
                         text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(set(lines[:-1][0::2])) == 3 and lines[:-1][0::2] == lines[:-1][1::2]
    assert ast.literal_eval(lines[-1]) == [], out.stderr  # no open, os.system, subprocess...
    assert os.listdir(work) == []
