"""``rulelearn datasets ...`` (placeholder until the data layer lands)."""

import click


@click.group()
def datasets():
    """List, fetch and inspect the registered UCI datasets."""
