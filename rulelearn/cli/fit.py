"""``rulelearn fit`` and ``rulelearn predict`` (placeholder until the core lands)."""

import click


@click.command()
def fit():
    """Learn a rule from a CSV file."""
    raise click.ClickException("not implemented yet")


@click.command()
def predict():
    """Apply a saved rule to a CSV file."""
    raise click.ClickException("not implemented yet")
