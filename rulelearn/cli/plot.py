"""``rulelearn plot RESULTS_DIR`` draws the figures of a benchmark's records."""

import click

from rulelearn.cli import echo


@click.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Where to write the figures (default: RESULTS_DIR/figures).")
@click.option("--format", "fmt", type=click.Choice(["png", "svg", "pdf"]), default="png",
              show_default=True, help="File format of the figures.")
def plot(results_dir, output, fmt):
    """Draw the trade-off, θ-path and Pareto figures of RESULTS_DIR from its records.

    The θ paths and the Pareto fronts (the chosen rules beside the hindsight front of every θ)
    are drawn as pages when there are many datasets: paths-1.png, paths-2.png, ...  Needs the
    optional matplotlib: pip install 'rulelearn[plot]'.
    """
    from rulelearn.bench import plot as figures

    for path in figures.write_figures(results_dir, output, fmt=fmt):
        echo(str(path))
