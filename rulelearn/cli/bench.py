"""``rulelearn bench CONFIG`` runs an experiment; ``rulelearn table DIR`` re-renders its tables."""

import click


@click.command()
@click.argument("config", type=click.Path(exists=True, dir_okay=False))
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Parallel worker processes (default: the config's, else all cores; "
                   "1 = in-process).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default=None,
              help="Where units run (default: the config's, else local processes).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --executor dask).")
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Experiment folder (default: results/<experiment name>).")
@click.option("--force", is_flag=True, help="Recompute units that are already done.")
@click.option("--mirror", metavar="URL_OR_DIR", default=None,
              help="Where to fetch the UCI files from (default: $RULELEARN_MIRROR, else UCI).")
@click.option("--only-dataset", "only_datasets", multiple=True, metavar="NAME",
              help="Run only this dataset of the config (repeatable).")
@click.option("--no-tables", is_flag=True, help="Only compute records; do not write tables.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def bench(config, jobs, executor, scheduler, output, force, mirror, only_datasets, no_tables,
          quiet):
    """Run the experiment of a YAML CONFIG (resumable) and write its tables.

    Exits with status 1 when a unit failed (each distinct reason is printed once, with its
    count); failed units are retried by the next run.
    """
    from rulelearn.bench import experiment
    from rulelearn.bench.config import load_config

    try:
        summary = experiment.run(load_config(config), jobs=jobs, executor=executor,
                                 scheduler=scheduler, output=output, force=force, mirror=mirror,
                                 only_datasets=only_datasets, progress=not quiet)
    except experiment.Terminated:
        click.echo("Terminated: the records so far are saved; run the same command to resume.",
                   err=True)
        raise
    click.echo(str(summary), err=True)
    if not no_tables:
        _write_tables(summary.folder, None)
    if summary.failed:
        raise click.ClickException(
            f"{summary.failed} of {summary.total - summary.skipped} units failed (reasons above); "
            f"their cells are missing. Run the same command to retry them.")


def _write_tables(folder, output):
    from rulelearn.bench import report

    notes = []
    paths = report.write_tables(folder, output=output, notes=notes)
    for note in notes:
        click.echo(f"Warning: {note}", err=True)
    for path in paths:
        click.echo(str(path))


@click.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Where to write the tables (default: RESULTS_DIR).")
@click.option("--show", type=click.Choice(["1", "2", "paper"]), default=None,
              help="Also print Table 1, Table 2 or the comparison with the paper.")
def table(results_dir, output, show):
    """Re-render Tables 1 and 2 of RESULTS_DIR from its records, without recomputing."""
    from pathlib import Path

    _write_tables(results_dir, output)
    if show:
        name = {"1": "table1.md", "2": "table2.md", "paper": "vs_paper.md"}[show]
        click.echo(Path(output or results_dir, name).read_text(encoding="utf-8"))
