"""``rulelearn show MODEL`` reprints a saved rule; ``rulelearn export MODEL`` writes it as code.

The library does the work (:mod:`rulelearn.model_io`, :mod:`rulelearn.export`,
:func:`rulelearn.rules.simplify`); these commands parse options and render.
"""

import click

from rulelearn.cli import (
    echo,
    need_stdout,
    plural,
    refuse_overwrite,
    training_line,
    write_file,
    write_out,
)

FORMATS = ("python", "sql", "pandas")  # kept equal to rulelearn.export.FORMATS (a test checks)


@click.command()
@click.argument("model", type=click.Path())
def show(model):
    """Print the rule saved in MODEL (from rulelearn fit --save) and what the file records."""
    from rulelearn.model_io import load_model
    from rulelearn.rules import simplify

    need_stdout("the rule")
    loaded = load_model(model)
    if not hasattr(loaded, "rule"):  # a rule list (three or more classes)
        from rulelearn.cli.rule_list import describe_loaded

        lines = list(describe_loaded(loaded))
    else:
        lines = [*_describe(loaded, simplify(loaded.rule)),
                 *sum_lines(getattr(loaded, "sums", ()))]
    for line in lines + reading_lines(loaded):
        echo(line)


def reading_lines(loaded) -> list:
    """How the model's training file was read, where that differs from the defaults (what
    ``predict`` and the exports read DATA with): ``--decimal``, ``--sep``, ``--missing``."""
    from rulelearn.data.parse import DEFAULT_MISSING

    options = []
    if loaded.decimal != ".":
        options.append(f"--decimal {loaded.decimal}")
    if loaded.sep is not None:
        options.append(f"--sep {loaded.sep!r}")
    extra = [t for t in (loaded.missing_values or ()) if t not in DEFAULT_MISSING]
    options.extend(f"--missing {t!r}" for t in extra)
    if not options:
        return []
    return [f"read with {' '.join(options)} (predict reads DATA the same way)"]


def sum_lines(sums):
    """One line per derived column of ``sums`` (a mapping or pairs): ``where total = a + b``."""
    from rulelearn.binarize import check_sums
    from rulelearn.rules import format_name

    for name, parts in check_sums(dict(sums or {})):
        yield f"where {format_name(name)} = {' + '.join(map(format_name, parts))}"


def rule_lines(rule, positive, target, simpler=None, negative=None):
    """The rule as ``describe`` prints it, then its simplified form when that is shorter, then
    (a CNF) the simplified rule read as a DNF for the ``negative`` class when that is no
    longer (:meth:`~rulelearn.rules.Rule.other_class_text`)."""
    from rulelearn.rules import simplify

    simpler = simplify(rule) if simpler is None else simpler
    yield rule.describe(positive, target)
    if simpler != rule:
        yield (f"simplified from {rule.n_literals} to {plural(simpler.n_literals, 'literal')} "
               "(the same prediction on every input, missing values included):")
        yield simpler.describe(positive, target)
    other = simpler.other_class_text("the other class" if negative is None else negative,
                                     target)
    if other is not None:
        yield ("the same rule, read for the other class (a DNF; here a comparison with a "
               "missing value, or of a non-number with a threshold, holds):")
        yield other


def _describe(loaded, simpler):
    rule, params = loaded.rule, loaded.params
    yield (f"model: {click.format_filename(loaded.path)} (rulelearn "
           f"{loaded.rulelearn_version}{', ' + loaded.created if loaded.created else ''})")
    yield (f"target {loaded.target!r}: positive class {loaded.positive}, negative "
           f"{loaded.negative}")
    setting = [loaded.form.upper(), f"method {loaded.method or 'unknown'}"]
    if params.get("max_rules") is not None:
        setting.append(f"R = {params['max_rules']}")
    if loaded.theta is not None:
        setting.append(f"theta = {loaded.theta:.3g}")
    if params.get("class_weight") is not None:
        setting.append(f"class weight {params['class_weight']!r}")
    yield (f"rule ({', '.join(setting)}): {plural(rule.n_clauses, 'clause')}, "
           f"{plural(rule.n_literals, 'literal')}")
    yield from rule_lines(rule, loaded.positive, loaded.target, simpler, loaded.negative)
    yield training_line(loaded)
    if loaded.proba is not None:
        values = ", ".join(f"{i}. {p:.3f}" for i, p in enumerate(loaded.proba.clause_precision, 1))
        rest = "no clause holds" if loaded.form == "dnf" else "all clauses hold"
        what = "precision" if loaded.form == "dnf" else "positive rate of the rows it rejects"
        yield (f"per clause, training {what}: {values or 'none'}; where {rest}: "
               f"{loaded.proba.default_precision:.3f}")



@click.command()
@click.argument("model", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(FORMATS), required=True,
              help="python: a module with predict(row: dict); sql: a CASE WHEN ... END "
                   "expression; pandas: a module with holds(frame), select(frame) and "
                   "predict(frame).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write it (- is standard output).")
def export(model, fmt, output):
    """Write the rule saved in MODEL as code that predicts as rulelearn predict does.

    Cells are read as rulelearn predict reads them (text stripped; missing: a missing-value
    token of the model, None or NaN; NULL in sql). The rule is simplified first (the same
    prediction on every input); standard error says so. A name or label that a format cannot
    carry (sql: a NUL character) is an error, and nothing is written.
    """
    from rulelearn.export import export_rule
    from rulelearn.model_io import load_model
    from rulelearn.rules import simplify

    if output != "-":
        refuse_overwrite("--output", output, [("model file", model)])
    loaded = load_model(model)
    text = export_rule(loaded, fmt)
    if output == "-":
        write_out(text, nl=False)
    else:
        write_file(output, text)
    rules = loaded.rule_list.rules if hasattr(loaded, "rule_list") else (loaded.rule,)
    simpler = [simplify(rule) for rule in rules]
    if simpler != list(rules):
        echo(f"simplified from {sum(r.n_literals for r in rules)} to "
             f"{plural(sum(r.n_literals for r in simpler), 'literal')}", err=True)
    if output != "-":
        echo(f"written: {output}", err=True)
