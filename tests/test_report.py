"""Tables as pure functions of records: means, SEM, missing cells, rank ties, the paper's
numbers."""

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rulelearn.bench import report
from rulelearn.bench.records import Record, distinct_features
from rulelearn.bench.store import RecordStore, ResultsError


def recs(dataset, label, errors, features=None, status="ok", n_outer=None):
    method = label.split("[")[0]
    n_outer = n_outer or len(errors)
    features = features or [3] * len(errors)
    return [{"key": f"{dataset}-{label}-{k}", "dataset": dataset, "label": label,
             "method": method, "fold": k, "n_outer": n_outer, "seed": 0, "status": status,
             "test_error": e, "train_error": e / 2, "n_features": f, "total_seconds": 1.0,
             "error": None if status == "ok" else "FetchError: no route"}
            for k, (e, f) in enumerate(zip(errors, features))]


def test_mean_and_sem_in_percent():
    s = report.summarize(recs("d", "bcd", [0.1, 0.2, 0.3], [2, 4, 6]))
    row = s.iloc[0]
    assert row.error_mean == pytest.approx(20.0)
    assert row.error_sem == pytest.approx(10.0 / math.sqrt(3))  # std(ddof=1)=10, / sqrt(3)
    assert row.literals_mean == pytest.approx(4.0)
    t1 = report.table1(s)
    assert list(t1.columns) == ["dataset", "method", "label", "error_mean", "error_sem"]
    assert list(report.table2(s).columns) == ["dataset", "method", "label", "literals_mean",
                                              "literals_sem", "features_mean"]


def test_incomplete_or_failed_cells_are_missing_with_a_reason():
    records = (recs("d", "bcd", [0.1, 0.2]) + recs("d", "am", [0.1], n_outer=2)
               + recs("e", "bcd", [0.1, 0.2]) + recs("e", "am", [0.1, 0.1], status="failed"))
    s = report.summarize(records)
    cells = {(r.dataset, r.method): r for r in s.itertuples()}
    assert cells[("d", "bcd")].complete
    assert not cells[("d", "am")].complete and cells[("d", "am")].reason == "1/2 folds done"
    assert not cells[("e", "am")].complete and "no route" in cells[("e", "am")].reason
    assert math.isnan(cells[("e", "am")].error_mean)
    header, rows = report.grid(s, "error")
    assert rows[1][2] == "missing"


def test_ranks_with_ties_share_the_average_rank():
    s = pd.DataFrame({
        "dataset": ["d1"] * 3 + ["d2"] * 3,
        "method": ["a", "b", "c"] * 2,
        "error_mean": [10.0, 10.0, 20.0, 5.0, 3.0, 4.0],
    })
    r = report.average_ranks(s, "error_mean")
    # d1: a, b tie for 1-2 -> 1.5 each, c 3; d2: b 1, c 2, a 3
    assert r.to_dict() == {"a": pytest.approx(2.25), "b": pytest.approx(1.25),
                           "c": pytest.approx(2.5)}


def test_ranks_compare_printed_values():
    s = pd.DataFrame({"dataset": ["d"] * 3, "method": ["a", "b", "c"],
                      "error_mean": [28.61, 28.64, 28.70]})
    r = report.average_ranks(s, "error_mean")  # 28.6, 28.6, 28.7 as printed
    assert list(r) == [1.5, 1.5, 3.0]


def test_ranks_skip_datasets_with_a_missing_method():
    s = pd.DataFrame({"dataset": ["d1", "d1", "d2", "d2"], "method": ["a", "b"] * 2,
                      "error_mean": [1.0, 2.0, 9.0, float("nan")]})
    assert list(report.average_ranks(s, "error_mean")) == [1.0, 2.0]
    s2 = s.assign(error_mean=[1.0, float("nan"), 2.0, float("nan")])
    assert report.average_ranks(s2, "error_mean").isna().all()


def test_ranks_table_columns():
    s = report.summarize(recs("d", "bcd", [0.1, 0.2], [5, 5])
                         + recs("d", "cart", [0.3, 0.2], [1, 1]))
    t = report.ranks_table(s)
    assert list(t.columns) == ["method", "label", "error_rank", "literals_rank"]
    assert t.set_index("method").loc["BCD"].tolist() == ["bcd", 1.0, 2.0]


def test_paper_results_are_transcribed():
    p = report.paper_results()
    assert len(p) == 10 * 8 + 8 + 10 * 6 + 6
    cell = p[(p.table == 1) & (p.dataset == "magic") & (p.method == "bcd")].iloc[0]
    assert (cell.value, cell["sem"]) == (17.4, 0.2)
    cell = p[(p.table == 2) & (p.dataset == "musk") & (p.method == "am")].iloc[0]
    assert cell.value == 63.7
    ranks = p[(p.table == 1) & (p.dataset == "average_rank")].set_index("method")["value"]
    assert ranks["c50"] == 2.6 and ranks["dlist"] == 7.7


def test_versus_paper_difference_and_two_sem():
    records = recs("wdbc_bundled", "bcd[form=dnf,R=5]", [0.06, 0.07, 0.05, 0.08], [13, 14, 13, 14])
    cmp = report.versus_paper(report.summarize(records))
    t1 = cmp[cmp.table == 1].iloc[0]
    assert t1.paper == 6.2 and t1.paper_sem == 1.2
    assert t1.difference == pytest.approx(6.5 - 6.2)
    assert t1.band == pytest.approx(2 * math.sqrt(t1.ours_sem ** 2 + 1.2 ** 2))
    assert t1.agrees and t1.method == "BCD" and t1.label == "bcd[form=dnf,R=5]"
    t2 = cmp[cmp.table == 2].iloc[0]
    assert t2.paper == 13.6 and t2.difference == pytest.approx(13.5 - 13.6)


def planned(config_text, records):
    """``records`` given the run keys that ``config_text`` plans for their (dataset, label,
    fold)."""
    from rulelearn.bench.config import parse_config
    from rulelearn.bench.experiment import plan

    config = parse_config(config_text)
    keys = {(u.dataset, u.method.label, u.fold): u.key for u in plan(config)}
    out = [{**r, "key": keys.get((r["dataset"], r["label"], r["fold"]), r["key"])} for r in records]
    return config, out


CONFIG = ("name: exp\ndatasets: [wdbc, pima]\nmethods: [bcd, {cart: {max_depth: [2]}}]\n"
          "outer_folds: 2\npaper: true\ndeviations: [a test]\n")


def test_write_tables_from_a_results_folder(tmp_path):
    folder = tmp_path / "exp"
    store = RecordStore(folder)
    config, records = planned(CONFIG, (
        recs("wdbc", "bcd[form=dnf,R=5]", [0.05, 0.07], [12, 14])
        + recs("wdbc", "cart", [0.08, 0.09], [7, 9])
        + recs("pima", "bcd[form=dnf,R=5]", [0.25, 0.27])
        + recs("old", "cart", [0.5, 0.5])))  # not in the config: left out
    for r in records:
        store.append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    out = tmp_path / "tables"
    paths = report.write_tables(folder, output=out)
    names = sorted(p.name for p in paths)
    assert names == ["paired.csv", "paired.md", "ranks.csv", "table1.csv", "table1.md",
                     "table1.tex", "table2.csv", "table2.md", "table2.tex", "vs_paper.md"]
    md = (out / "table1.md").read_text()
    assert "experiment: exp" in md and "a test" in md and "versions:" in md
    assert "missing: pima / CART: no records" in md
    assert " wdbc |" in md and "6.0 (1.0)" in md and "|old|" not in md.replace(" ", "")
    t1 = pd.read_csv(out / "table1.csv")
    assert list(t1.columns) == ["dataset", "method", "label", "error_mean", "error_sem"]
    assert t1.loc[0, "error_mean"] == pytest.approx(6.0)
    assert np.isnan(t1.set_index(["dataset", "method"]).loc[("pima", "CART"), "error_mean"])
    tex = (out / "table1.tex").read_text()
    assert r"\begin{tabular}" in tex and "Average rank" in tex
    vs = (out / "vs_paper.md").read_text()
    assert "6.2 (1.2)" in vs and "Agrees" in vs and "|BCD|" in vs.replace(" ", "")
    assert "Table 1: mean test error" in md and "deviations from the paper's protocol: a test" in md


def test_records_of_another_configuration_never_enter_a_table(tmp_path):
    folder = tmp_path / "exp"
    store = RecordStore(folder)
    config, mine = planned(CONFIG, recs("wdbc", "cart", [0.10, 0.20]))
    _, theirs = planned(CONFIG.replace("outer_folds: 2", "outer_folds: 2\nseed: 7"),
                        recs("wdbc", "cart", [0.40, 0.40]))
    for r in mine + theirs:  # theirs are the latest for the same (dataset, label, fold)
        store.append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    notes = []
    report.write_tables(folder, notes=notes)
    t1 = pd.read_csv(folder / "table1.csv").set_index(["dataset", "label"])
    assert t1.loc[("wdbc", "cart"), "error_mean"] == pytest.approx(15.0)
    assert notes == ["2 records of another configuration are ignored (this folder's "
                     "config.yaml does not plan them)"]
    assert "- note: 2 records of another configuration are ignored" in (
        folder / "table1.md").read_text()


@pytest.mark.parametrize("damage, message", [
    (lambda f: (f / "config.yaml").unlink(), "has no config.yaml"),
    (lambda f: (f / "config.yaml").write_text("name: exp\ndatasets: [{name: wd"), "is damaged"),
    (lambda f: (f / "config.yaml").write_text(
        (f / "config.yaml").read_text().split("\nform:")[0] + "\n"),  # truncated at a line
     "is not a rulelearn results configuration .no valid 'outer_folds'"),
    (lambda f: (f / "records.jsonl").write_text(""), "no records in"),
    (lambda f: (f / "records.jsonl").write_text('{"key": "k", "status": "ok"}\n'),
     "no valid 'dataset'"),
])
def test_a_damaged_folder_is_an_error(tmp_path, damage, message):
    folder = tmp_path / "exp"
    config, records = planned(CONFIG, recs("wdbc", "cart", [0.10, 0.20]))
    for r in records:
        RecordStore(folder).append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    damage(folder)
    with pytest.raises(ResultsError, match=message):
        report.write_tables(folder)


def test_an_unreadable_meta_json_is_a_note_not_an_error(tmp_path):
    folder = tmp_path / "exp"
    config, records = planned(CONFIG, recs("wdbc", "cart", [0.10, 0.20]))
    for r in records:
        RecordStore(folder).append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    (folder / "meta.json").write_text('{"wall_seconds": 3.')
    notes = []
    report.write_tables(folder, notes=notes)
    assert len(notes) == 1 and "meta.json is unreadable" in notes[0]
    md = (folder / "table1.md").read_text()
    assert "wall time: unknown" in md and "meta.json is unreadable" in md


def test_distinct_features_sum_each_clauses_features():
    lit = lambda f: {"feature": f, "op": ">", "value": 1.0}  # noqa: E731
    rec = {"n_features": 5, "rule_json": {"form": "dnf", "clauses": [
        [lit("fLength"), {"feature": "fLength", "op": "<=", "value": 9.0}, lit("fAlpha")],
        [lit("fLength"), lit("fSize")]]}}
    assert distinct_features(rec) == 2 + 2
    whole = {"key": "k", "status": "ok", "dataset": "d", "label": "bcd", "fold": 0,
             "test_error": 0.1, "train_error": 0.1, **rec}
    assert Record.from_dict(whole).literals == 5  # a record's n_features are its literals
    assert Record.from_dict({**whole, "n_literals": 4}).literals == 4  # the newer name wins
    assert Record.from_dict(whole).distinct_features == 4
    assert distinct_features({"n_features": 7, "rule_json": None}) is None
    assert distinct_features({"n_features": 0, "rule_json": {"clauses": []}}) == 0


def test_table2_gives_literals_and_features_and_leaves_baselines_one_count():
    rule = {"form": "dnf", "clauses": [[{"feature": "a", "op": ">", "value": 1},
                                        {"feature": "a", "op": "<=", "value": 2}]]}
    records = ([{**r, "rule_json": rule} for r in recs("d", "bcd", [0.1, 0.2], [2, 2])]
               + recs("d", "cart", [0.1, 0.2], [7, 9]))
    s = report.summarize(records)
    header, rows = report.grid(s, "features")
    assert header == ["Dataset", "BCD", "CART"] and rows[0] == ["d", "2.0 / 1.0", "8.0"]
    t2 = report.table2(s).set_index("method")
    assert t2.loc["BCD", "features_mean"] == 1.0 and np.isnan(t2.loc["CART", "features_mean"])
    assert "CART: split nodes" in report.size_note(s)
    rows = report.summary_json(s)
    assert rows[0]["literals_mean"] == 2.0 and rows[0]["features_mean"] == 1.0
    assert rows[1]["features_mean"] is None and rows[1]["method"] == "CART"


@pytest.mark.parametrize("ours, ours_sem, paper, paper_sem, expected", [
    (28.9, 2.7, 34.6, 2.7, True),     # Sonar OCRL: 5.7 <= 2 sqrt(2.7^2 + 2.7^2) = 7.6
    (19.7, 0.2, 17.4, 0.2, False),    # MAGIC BCD: 2.3 > 0.57
    (22.4, 0.3, 23.6, 0.3, False),    # 1.2 > 0.85, though within a 1.5-point floor
    (10.0, float("nan"), 11.0, 0.5, True),   # one SEM unknown: the other alone
    (10.0, float("nan"), 11.0, float("nan"), None),
    (float("nan"), 1.0, 11.0, 0.5, None),    # a missing cell
])
def test_one_agreement_rule(ours, ours_sem, paper, paper_sem, expected):
    assert report.agrees_with_paper(ours, ours_sem, paper, paper_sem) is expected


def test_only_a_paper_reproduction_is_framed_against_the_paper(tmp_path):
    assert report.is_paper_config({"paper": True})
    assert not report.is_paper_config({"paper": False, "deviations": ["x"]})
    assert report.is_paper_config({"deviations": ["x"]})  # a config.yaml from before the key
    assert not report.is_paper_config({"deviations": []})
    folder = tmp_path / "exp"
    text = CONFIG.replace("paper: true\ndeviations: [a test]", "deviations: [scaled down]")
    text = text.replace("name: exp", "name: exp\npaper: false")
    config, records = planned(text, recs("wdbc", "cart", [0.10, 0.20]))
    for r in records:
        RecordStore(folder).append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    paths = report.write_tables(folder)
    assert "vs_paper.md" not in [p.name for p in paths] and not (folder / "vs_paper.md").exists()
    md = (folder / "table1.md").read_text()
    assert md.startswith("# Mean test error %") and "Table 1" not in md
    assert "deviations from the paper" not in md and "protocol notes: scaled down" in md
    assert "Table 2" not in (folder / "table2.md").read_text()


# ----------------------------------------------------------------------------------------------
# paired differences


def test_paired_differences_cancel_the_noise_both_methods_share():
    # b is a + 2 points on every fold: Table 1's SEMs (folds 10-40 %) overlap, the pairing
    # shows a constant difference
    a = [0.10, 0.40, 0.20, 0.30]
    records = (recs("d", "a", a) + recs("d", "b", [e + 0.02 for e in a])
               + recs("d", "c", [0.10, 0.40, 0.22, 0.28]))
    s = report.summarize(records)
    p = report.paired_differences(s).set_index("method")
    assert list(p.index) == ["B", "C"] and set(p.against) == {"A"}
    assert p.loc["B", "difference_mean"] == pytest.approx(2.0)
    assert p.loc["B", "difference_sem"] == pytest.approx(0.0, abs=1e-9)
    assert p.loc["B", "verdict"] == "higher" and p.loc["B", "n_units"] == 4
    # c differs by 0, 0, +2, -2: mean 0, never beyond two SEMs
    assert p.loc["C", "difference_mean"] == pytest.approx(0.0, abs=1e-9)
    assert p.loc["C", "difference_sem"] == pytest.approx(np.std([0, 0, 2, -2], ddof=1) / 2)
    assert p.loc["C", "verdict"] == ""
    rows = s.set_index("method")
    assert rows.loc["b", "error_mean"] - rows.loc["a", "error_mean"] < rows.loc["a", "error_sem"]


def test_paired_differences_against_another_reference_flip_the_sign():
    records = (recs("d", "bcd[form=dnf,R=5]", [0.2, 0.3, 0.25])
               + recs("d", "brcg[lambda1=0.01]", [0.1, 0.2, 0.2]))
    s = report.summarize(records)
    p = report.paired_differences(s, "brcg").iloc[0]
    assert p.method == "BCD" and p.against == "BRCG"
    assert p.difference_mean == pytest.approx((10 + 10 + 5) / 3)
    assert p.difference_sem == pytest.approx(np.std([10, 10, 5], ddof=1) / math.sqrt(3))
    assert p.verdict == "higher"  # 8.3 > 2 x 1.7
    back = report.paired_differences(s).iloc[0]
    assert back.difference_mean == pytest.approx(-p.difference_mean) and back.verdict == "lower"


@pytest.mark.parametrize("name, label", [
    ("brcg", "brcg[lambda1=0.01]"), ("BRCG", "brcg[lambda1=0.01]"),
    ("bcd[form=dnf,R=5]", "bcd[form=dnf,R=5]"), ("Bcd", "bcd[form=dnf,R=5]"),
    (None, "bcd[form=dnf,R=5]")])
def test_the_reference_is_a_label_a_display_name_or_a_method_name(name, label):
    s = report.summarize(recs("d", "bcd[form=dnf,R=5]", [0.2]) + recs("d", "brcg[lambda1=0.01]",
                                                                         [0.1]))
    assert report.reference_label(s, name) == label


def test_an_unknown_or_ambiguous_reference_is_an_error():
    s = report.summarize(recs("d", "bcd[R=2]", [0.2]) + recs("d", "bcd[R=5]", [0.1])
                         + recs("d", "am", [0.1]))
    with pytest.raises(ResultsError, match=r"'ripper' is not a method .* bcd\[R=2\], "
                                           r"bcd\[R=5\], AM"):
        report.reference_label(s, "ripper")
    with pytest.raises(ResultsError, match=r"'bcd' names several methods"):
        report.reference_label(s, "bcd")
    assert report.reference_label(s, "bcd[R=5]") == "bcd[R=5]"


def test_a_missing_cell_has_no_paired_difference():
    records = recs("d", "a", [0.1, 0.2]) + recs("d", "b", [0.1], n_outer=2)
    p = report.paired_differences(report.summarize(records)).iloc[0]
    assert p.n_units == 0 and math.isnan(p.difference_mean) and p.verdict == ""
    md = report.render_paired(report.paired_differences(report.summarize(records)), [])
    assert "| d | missing |" in re.sub(" +", " ", md)


def test_a_paired_difference_that_rounds_to_zero_has_no_sign():
    records = recs("d", "a", [0.10, 0.20, 0.30]) + recs("d", "b", [0.1001, 0.2, 0.2998])
    md = report.render_paired(report.paired_differences(report.summarize(records)), [])
    assert "| d | 0.0 (0.0) |" in re.sub(" +", " ", md)


def test_paired_md_marks_the_differences_beyond_two_sems(tmp_path):
    folder = tmp_path / "exp"
    store = RecordStore(folder)
    config, records = planned(CONFIG, (
        recs("wdbc", "bcd[form=dnf,R=5]", [0.05, 0.07]) + recs("wdbc", "cart", [0.08, 0.10])
        + recs("pima", "bcd[form=dnf,R=5]", [0.25, 0.27]) + recs("pima", "cart", [0.20, 0.30])))
    for r in records:
        store.append(r)
    (folder / "config.yaml").write_text(yaml.safe_dump(config.to_dict()))
    report.write_tables(folder)
    md = (folder / "paired.md").read_text()
    assert md.startswith("# Paired differences in test error against BCD")
    flat = re.sub(" +", " ", md)
    assert "| wdbc | **+3.0 (0.0)** |" in flat and "| pima | −1.0 (4.0) |" in flat  # -5, +3
    assert ("CART: lower error than BCD on 0, higher on 1, within two standard errors on 1 "
            "of 2") in md
    csv = pd.read_csv(folder / "paired.csv")
    assert list(csv.columns) == ["dataset", "method", "label", "against", "n_units",
                                 "difference_mean", "difference_sem", "verdict"]
    (folder / "paired.md").unlink()
    with pytest.raises(ResultsError, match="'sc' is not a method"):
        report.write_tables(folder, against="sc")
    assert not (folder / "paired.md").exists()  # nothing written for a bad reference
    report.write_tables(folder, against="cart")
    assert "against CART" in (folder / "paired.md").read_text()


# ----------------------------------------------------------------------------------------------
# LaTeX: tabulate's tabular, and nothing from a config that LaTeX would obey

#: What a cell may hold besides plain text: tabulate's escapes and the tables' two marks.
TEX_ESCAPES = re.compile(r"\\[&%$#_{}]|\\\^\{\}|\\textasciitilde\{\}|\\textbackslash\{\}"
                         r"|\\ensuremath\{[<>]\}|\$\^\\dagger\$")
TEX_STRUCTURE = {r"\begin{table}", r"\begin{center}\begin{small}", r"\hline",
                 r"\end{small}\end{center}", r"\end{table}"}


def tex_problems(text: str) -> list[str]:
    """Lines of a table*.tex that LaTeX would read other than as meant: a special character
    that is not escaped, a row with another number of cells, a blank line (a paragraph)."""
    problems, columns = [], None
    for line in text.splitlines():
        if line.startswith("% "):
            continue
        if line.startswith(r"\begin{tabular}{") and line.endswith("}"):
            columns = len(line[len(r"\begin{tabular}{"):-1])
            continue
        if line == r"\end{tabular}":
            columns = None
            continue
        if line in TEX_STRUCTURE:
            continue
        if line.startswith(r"\caption{") and line.endswith("}"):
            rest = TEX_ESCAPES.sub("", line[len(r"\caption{"):-1])
        elif columns is not None and line.endswith(r"\\"):
            rest = TEX_ESCAPES.sub("", line[:-2])
            if rest.count("&") != columns - 1:
                problems.append(f"{columns} columns: {line}")
            rest = rest.replace("&", "")
        else:
            problems.append(f"not a table line: {line!r}")
            continue
        if re.search(r"[&%$#_^~{}\\]", rest):
            problems.append(f"unescaped: {line}")
    return problems


def test_latex_tables_escape_whatever_a_config_names():
    hostile = "a_b&c%d#e$f^g{h}~i\\j\n\n\\end{tabular}\x0c<x>"
    tex = report.latex_table(["Dataset", "BCD_1"], [[hostile, "1.0 †"], ["Average rank", "1–2"]],
                             caption="Table_1: 50% {x}\n\n\\end{table}")
    assert tex_problems(tex) == []
    assert r"a\_b\&c\%d\#e\$f\^{}g\{h\}\textasciitilde{}i\textbackslash{}j" in tex
    assert r"\textbackslash{}x0a\textbackslash{}x0a\textbackslash{}end\{tabular\}" in tex
    assert r"1.0 $^\dagger$" in tex and "1--2" in tex
    lines = tex.split(r"\begin{tabular}{cc}")[1].splitlines()[1:9]
    # rules: above and below the header, above and below the ranks
    assert [line == r"\hline" for line in lines] == [True, False, True, False, True, False, True,
                                                     False]
    assert lines[5].strip().startswith("Average rank") and lines[7] == r"\end{tabular}"
    comment = report.latex_comment("note: x\n\\end{document}\r%")
    assert comment == "% note: x\\x0a\\end{document}\\x0d%\n" and comment.count("\n") == 1


def test_committed_latex_tables_are_well_formed():
    tables = sorted((Path(__file__).resolve().parents[1] / "results").glob("*/table*.tex"))
    assert tables
    for path in tables:
        text = path.read_text(encoding="utf-8")
        assert r"\begin{tabular}" in text and tex_problems(text) == [], path
