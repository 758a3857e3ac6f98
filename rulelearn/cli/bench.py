"""``rulelearn bench CONFIG`` runs an experiment; ``rulelearn table DIR`` re-renders its tables."""

import click

from rulelearn.bench import EXECUTORS
from rulelearn.cli import echo, write_out


@click.command()
@click.argument("config", type=click.Path(exists=True, dir_okay=False))
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Parallel worker processes (default: the config's, else all cores; "
                   "1 = in-process).")
@click.option("--executor", type=click.Choice(EXECUTORS), default=None,
              help="Where units run (default: the config's, else local processes).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --executor dask).")
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Experiment folder (default: results/<experiment name>).")
@click.option("--force", is_flag=True, help="Recompute units that are already done.")
@click.option("--reuse-stale", is_flag=True,
              help="Keep done units recorded by other code (another version of the learners "
                   "or of highspy/numpy/scikit-learn, or an unrecorded one) instead of "
                   "recomputing them; said on stderr and in the tables' header.")
@click.option("--mirror", metavar="URL_OR_DIR", default=None,
              help="Where to fetch the UCI files from (default: $RULELEARN_MIRROR, else UCI).")
@click.option("--only-dataset", "only_datasets", multiple=True, metavar="NAME",
              help="Run only this dataset of the config (repeatable).")
@click.option("--only-method", "only_methods", multiple=True, metavar="NAME",
              help="Run only this method of the config: a method name (all of its entries) "
                   "or a run label such as 'bcd[form=dnf,R=5]' (repeatable).")
@click.option("--unit-timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS", callback=lambda ctx, param, value: _finite(value, param),
              help="Stop a unit that runs longer than this many wall seconds and record it as "
                   "timed out; the run goes on and its table cell is missing, with the reason "
                   "(default: the config's unit_timeout, else no limit; local executor only).")
@click.option("--no-tables", is_flag=True,
              help="Only compute records; do not write tables nor report.html.")
@click.option("--allow-import", "allow_import", multiple=True, metavar="PREFIX",
              callback=lambda ctx, param, value: _import_prefixes(value, param),
              help="Let the config name classes under this import prefix (a package such as "
                   "'mypackage', or 'mypackage.models'; repeatable). Importing runs the "
                   "module's code, so a config may name only scikit-learn, imodels, "
                   "wittgenstein, aix360 and rulelearn unless you allow more.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def bench(config, jobs, executor, scheduler, output, force, reuse_stale, mirror, only_datasets,
          only_methods, unit_timeout, no_tables, allow_import, quiet):
    """Run the experiment of a YAML CONFIG (resumable) and write its tables.

    Exits with status 1 when a unit failed (each distinct reason is printed once, with its
    count); failed units are retried by the next run.  Units done by other code (a changed
    learner, another highspy/numpy/scikit-learn) are recomputed unless --reuse-stale; units
    done before rulelearn recorded its code stop the run before it starts unless --force
    (recompute) or --reuse-stale (keep).
    """
    if force and reuse_stale:
        raise click.UsageError("--force recomputes every unit and --reuse-stale keeps the "
                               "stale ones: give one of them.")
    from rulelearn.bench import experiment
    from rulelearn.bench.config import load_config

    ctx = click.get_current_context()
    try:
        summary = experiment.run(load_config(config, allow_import=allow_import), jobs=jobs,
                                 executor=executor, scheduler=scheduler, output=output, force=force,
                                 reuse_stale=reuse_stale, mirror=mirror,
                                 only_datasets=only_datasets, only_methods=only_methods,
                                 progress=not quiet, unit_timeout=unit_timeout)
        echo(str(summary), err=True)
        if not no_tables:
            paths = _write_tables(summary.folder, None)
            paths.append(_write_report(summary.folder))
            _echo_file(summary.folder / "table1.md")
            _echo_written(summary.folder, paths, err=False)
    except experiment.Terminated:
        echo(f"Terminated: {_resumable(ctx.params)}", err=True)
        raise
    except KeyboardInterrupt:
        echo(f"{_new_line()}Interrupted: {_resumable(ctx.params)}", err=True)
        ctx.exit(130)
    ran = summary.total - summary.skipped
    if summary.failed:
        raise click.ClickException(
            f"{summary.failed} of {ran} units failed (reasons above); "
            f"their cells are missing. Run the same command to retry them.")
    if summary.timed_out:
        raise click.ClickException(
            f"{summary.timed_out} of {ran} units timed out; their cells are missing. They run "
            f"again with a longer --unit-timeout (or none), or with --force.")


def _finite(value, param):
    if value is not None and (value != value or value == float("inf")):  # NaN passes FloatRange
        raise click.BadParameter(f"{value} is not a finite number of seconds", param=param)
    return value


def _import_prefixes(values, param):
    import re

    for value in values:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", value):
            raise click.BadParameter(f"{value!r} is not an import prefix such as 'mypackage' or "
                                     f"'mypackage.models'", param=param)
    return tuple(values)


def _new_line() -> str:
    """A line break when stderr is a terminal (the progress line has none; ^C follows it)."""
    import sys

    return "\n" if getattr(sys.stderr, "isatty", lambda: False)() else ""


def _resumable(params) -> str:
    """What an interrupted run says: the records are kept, and the command that resumes it
    (the same options, less --force, which would recompute the units done)."""
    import shlex

    args = ["rulelearn", "bench", params["config"]]
    for name in ("jobs", "executor", "scheduler", "output", "mirror", "unit_timeout"):
        if params.get(name) is not None:
            args += [f"--{name.replace('_', '-')}", f"{params[name]:g}" if name == "unit_timeout"
                     else str(params[name])]
    for name, flag in (("only_datasets", "--only-dataset"), ("only_methods", "--only-method")):
        for value in params.get(name) or ():
            args += [flag, value]
    for name in ("reuse_stale", "no_tables", "quiet"):
        if params.get(name):
            args.append("--" + name.replace("_", "-"))
    text = ("the units finished are saved; resume the run (only the units left are "
            f"computed) with: {shlex.join(args)}")
    if params.get("force"):
        text += (" (this run had --force: units done before it that it did not reach are kept "
                 "unless --force is given again)")
    return text


def _write_tables(folder, output, notes=None, seeds=None, against=None):
    """Write the tables; each note (what was left out) becomes a warning on stderr."""
    from rulelearn.bench import report

    notes = [] if notes is None else notes
    paths = report.write_tables(folder, output=output, notes=notes, seeds=seeds,
                                against=against)
    for note in notes:
        echo(f"Warning: {note}", err=True)
    return paths


def _write_report(folder):
    """``report.html`` beside the tables (its figures only with matplotlib; said on the page)."""
    from rulelearn.bench import html_report

    return html_report.write_report(folder)


def _echo_file(path):
    echo(path.read_text(encoding="utf-8").rstrip("\n"))


def _echo_written(folder, paths, *, err):
    """``results in FOLDER/: table1.md, ...``: where the files are."""
    names = ", ".join(p.name for p in paths)
    folder = click.format_filename(str(folder)).rstrip("/")
    echo(f"results in {folder}/: {names}", err=err)


def _not_blank(ctx, param, value):
    """An option that names something cannot be empty."""
    if value is not None and not value.strip():
        raise click.BadParameter("must name a method, e.g. --against brcg (got an empty name).")
    return value


SHOW = {"1": "table1.md", "2": "table2.md", "paired": "paired.md", "paper": "vs_paper.md"}


def _parse_seeds(ctx, param, value):
    """``0,1,2`` -> ``[0, 1, 2]``; anything else is a usage error."""
    if value is None:
        return None
    try:
        seeds = [int(v) for v in value.split(",")]
    except ValueError:
        seeds = []
    if not seeds or any(s < 0 for s in seeds):
        raise click.BadParameter(f"{value!r} is not a comma-separated list of seeds "
                                 f"(whole numbers >= 0), e.g. 0,1,2.")
    return seeds


@click.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Where to write the tables (default: RESULTS_DIR).")
@click.option("--show", type=click.Choice(list(SHOW)), multiple=True,
              help="Print Table 1, Table 2, the paired differences or the comparison with "
                   "the paper (repeatable: each is printed, in the order given; default: "
                   "Table 1).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary (one row per dataset and method) as JSON on stdout "
                   "instead of tables.")
@click.option("--seeds", "seeds", callback=_parse_seeds, metavar="LIST", default=None,
              help="Only these of the config's seeds, comma-separated (e.g. 0,1,2): the "
                   "tables of a seeds run still in progress, from the seeds it finished.")
@click.option("--against", metavar="METHOD", default=None, callback=_not_blank,
              help="The reference method of the paired differences (paired.md), e.g. brcg "
                   "(default: the config's compare_to, else its first method).")
def table(results_dir, output, show, as_json, seeds, against):
    """Re-render the tables of RESULTS_DIR from its records, without recomputing, and print
    Table 1 (or what --show asks for); the files written are listed on stderr."""
    import json
    from pathlib import Path

    from rulelearn.bench import report
    from rulelearn.bench.store import json_rows

    notes: list[str] = []
    paths = _write_tables(results_dir, output, notes, seeds=seeds, against=against)
    where = Path(output or results_dir)
    if as_json:
        summary, info = report.summary_for(results_dir, seeds=seeds)
        ranks = report.ranks_table(summary)
        doc = {"folder": str(results_dir), "experiment": info.get("experiment"),
               "paper": bool(info["paper"]), "rows": report.summary_json(summary),
               "ranks": json_rows(ranks), "notes": notes, "files": [str(p) for p in paths]}
        paired = report.paired_for(summary, info, against)
        if paired is not None:
            doc["paired"] = json_rows(paired)
        write_out(json.dumps(doc, indent=2))
        return
    for i, key in enumerate(show or ("1",)):
        path = where / SHOW[key]
        if key == "paired" and path not in paths:
            raise click.ClickException(
                f"{results_dir} has a single method, so there are no paired differences.")
        if key == "paper" and path not in paths:
            raise click.ClickException(
                f"{results_dir} is not a reproduction of the paper (its config.yaml has no "
                f"'paper: true'), so it has no comparison with the paper's numbers.")
        if i:
            echo()
        _echo_file(path)
    _echo_written(where, paths, err=True)
