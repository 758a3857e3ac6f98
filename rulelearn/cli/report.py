"""``rulelearn report RESULTS_DIR`` writes one self-contained HTML page of a benchmark's results."""

import click

from rulelearn.cli import echo


@click.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write (default: RESULTS_DIR/report.html).")
@click.option("--no-figures", is_flag=True,
              help="Leave the figures out (faster; the page says so).")
def report(results_dir, output, no_figures):
    """Write RESULTS_DIR's report: run metadata and code versions, the tables with ranks, paired
    differences, tests over datasets (Wilcoxon, Friedman with a critical-difference diagram),
    every figure inline, an example rule per dataset and method, and what is missing or stale.

    One file with nothing outside it (figures need the optional matplotlib:
    pip install 'rulelearn[plot]').
    """
    from rulelearn.bench import html_report

    path = html_report.write_report(results_dir, output, figures=not no_figures)
    echo(click.format_filename(str(path)))
