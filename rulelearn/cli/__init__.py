"""The ``rulelearn`` command: thin shells over the library.

Every :class:`~rulelearn.errors.RuleLearnError` raised below becomes a one-line
``Error: ...`` on stderr with exit code 1; usage errors exit with 2 (Click's rule).
"""

import click

from rulelearn import __version__
from rulelearn.errors import RuleLearnError


class RuleLearnGroup(click.Group):
    """A Click group that turns library errors into one-line CLI errors."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RuleLearnError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=RuleLearnGroup)
@click.version_option(__version__, prog_name="rulelearn")
def main():
    """Learn interpretable two-level Boolean rules (CNF / DNF) and benchmark rule learners."""


from rulelearn.cli.fit import fit, predict  # noqa: E402
from rulelearn.cli.datasets import datasets  # noqa: E402
from rulelearn.cli.bench import bench, table  # noqa: E402

for _command in (fit, predict, datasets, bench, table):
    main.add_command(_command)
