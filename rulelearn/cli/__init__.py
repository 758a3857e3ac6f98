"""The ``rulelearn`` command: thin shells over the library.

Every :class:`~rulelearn.errors.RuleLearnError` raised below, and every ``OSError`` (a file that
cannot be read or written), becomes a one-line ``Error: ...`` on stderr with exit code 1; usage
errors exit with 2 (Click's rule). Warnings reach stderr as one ``warning: ...`` line each, once
per distinct message, without Python's file and source-line decoration. ``-v`` / ``-vv`` show the
library's log (cache actions, solver fallbacks; then details) on stderr.
"""

import contextlib
import logging
import os
import sys
import warnings

import click

from rulelearn import __version__
from rulelearn.errors import RuleLearnError


def _one_line(text) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


@contextlib.contextmanager
def warnings_as_lines():
    """Show each warning once as ``warning: <message>`` on stderr (deprecations as Python does).

    Identical messages are shown once, however often they are raised (e.g. once per CV fold).
    """
    seen = set()
    with warnings.catch_warnings():
        original = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            if issubclass(category, (DeprecationWarning, PendingDeprecationWarning)):
                return original(message, category, filename, lineno, file, line)
            text = _one_line(message)
            if (category, text) in seen:
                return None
            seen.add((category, text))
            kind = "" if category is UserWarning else f"{category.__name__}: "
            click.echo(f"warning: {kind}{text}", err=True)
            return None

        warnings.showwarning = show
        yield


def _os_error(exc: OSError) -> str:
    reason = exc.strerror or _one_line(exc) or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


class RuleLearnGroup(click.Group):
    """A Click group that turns library errors into one-line CLI errors and warnings into lines."""

    def invoke(self, ctx):
        with warnings_as_lines():
            try:
                return super().invoke(ctx)
            except RuleLearnError as exc:
                raise click.ClickException(_one_line(exc)) from None
            except BrokenPipeError:  # e.g. `rulelearn predict ... | head`: stop quietly
                with contextlib.suppress(Exception):
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                raise SystemExit(1) from None
            except OSError as exc:
                raise click.ClickException(_os_error(exc)) from None


def log_to_stderr(verbose: int):
    """Show the ``rulelearn`` logger on stderr: INFO for ``verbose`` 1, DEBUG for 2 or more
    (0: nothing). Returns a function that undoes it."""
    if verbose <= 0:
        return lambda: None
    logger = logging.getLogger("rulelearn")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose == 1 else logging.DEBUG)

    def undo():
        logger.removeHandler(handler)
        logger.setLevel(level)

    return undo


@click.group(cls=RuleLearnGroup)
@click.version_option(__version__, prog_name="rulelearn")
@click.option("-v", "--verbose", count=True,
              help="Show what the library does on stderr: cache actions and solver fallbacks "
                   "(-v), and details (-vv).")
@click.pass_context
def main(ctx, verbose):
    """Learn interpretable two-level Boolean rules (CNF / DNF) and benchmark rule learners."""
    ctx.call_on_close(log_to_stderr(verbose))


from rulelearn.cli.bench import bench, table  # noqa: E402
from rulelearn.cli.datasets import datasets  # noqa: E402
from rulelearn.cli.fit import fit, predict  # noqa: E402
from rulelearn.cli.model import export, show  # noqa: E402
from rulelearn.cli.plot import plot  # noqa: E402

for _command in (fit, predict, show, export, datasets, bench, table, plot):
    main.add_command(_command)
