"""``rulelearn bench`` and ``rulelearn table`` (placeholder until the benchmark lands)."""

import click


@click.command()
def bench():
    """Run a YAML experiment."""
    raise click.ClickException("not implemented yet")


@click.command()
def table():
    """Render tables from existing records."""
    raise click.ClickException("not implemented yet")
