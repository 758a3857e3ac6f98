"""The ``rulelearn`` command: thin shells over the library.

Every :class:`~rulelearn.errors.RuleLearnError` raised below, and every ``OSError`` (a file that
cannot be read or written), becomes a one-line ``Error: ...`` on stderr with exit code 1; usage
errors exit with 2 (Click's rule). Warnings reach stderr as one ``warning: ...`` line each, once
per distinct message, without Python's file and source-line decoration. ``-v`` / ``-vv`` show the
library's log (cache actions, solver fallbacks; then details) on stderr.

Everything shown on the terminal that may quote data (rules, labels, column names, errors,
warnings, the log) goes through :func:`echo` or :func:`rulelearn._utils.terminal_text`, so that a
control character in a file is printed escaped (``\\x1b``), never obeyed; files written keep the
data exact. A command whose output is standard output refuses to run when it is closed
(:func:`need_stdout`), and a failed write to it is a one-line error too.
"""

import contextlib
import logging
import os
import sys
import warnings

import click

from rulelearn import __version__
from rulelearn.errors import RuleLearnError


def terminal_text(text, *, keep: str = "\n") -> str:
    """:func:`rulelearn._utils.terminal_text`, imported on first use (it loads numpy, which
    ``rulelearn --help`` does not need)."""
    from rulelearn._utils import terminal_text as escaped

    return escaped(text, keep=keep)


def _one_line(text) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


class StdoutError(click.ClickException):
    """Standard output is closed or cannot be written (EPIPE, EBADF, ...)."""


def _stdout_closed() -> bool:
    stream = sys.stdout
    if stream is None:  # the process started with file descriptor 1 closed
        return True
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. tests): usable
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def need_stdout(what: str = "the output") -> None:
    """A one-line error, before any work, when standard output (where ``what`` goes) is closed."""
    if _stdout_closed():
        raise StdoutError(f"standard output is closed, so {what} cannot be printed; run the "
                          "command with standard output open (or redirected to a file)")


def _stdout_failed(exc: OSError) -> StdoutError:
    with contextlib.suppress(Exception):  # no second error when Python flushes it at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return StdoutError(f"cannot write to standard output: {exc.strerror or exc}")


def echo(text="", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` of text shown to a person: control characters escaped
    (:func:`~rulelearn._utils.terminal_text`, line breaks kept); a closed or failing standard
    output is a :class:`StdoutError`."""
    write_out(terminal_text(text), err=err, nl=nl)


def write_out(text, *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` of ``text`` as it is (data: CSV, JSON, code), with :func:`echo`'s errors.

    ``color=True``: click would otherwise strip ANSI sequences from output that is not a
    terminal, so a column named ``x\x1b[31m`` would reach an exported rule as ``x``; the
    text shown to a person has its control characters escaped by :func:`echo` first."""
    if err:
        click.echo(text, err=True, nl=nl, color=True)
        return
    if sys.stdout is None:
        raise StdoutError("standard output is closed: nothing can be printed")
    try:
        click.echo(text, nl=nl, color=True)
    except OSError as exc:
        raise _stdout_failed(exc) from None


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
            click.echo(terminal_text(f"warning: {kind}{text}", keep=""), err=True)
            return None

        warnings.showwarning = show
        yield


def _os_error(exc: OSError) -> str:
    reason = exc.strerror or _one_line(exc) or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


class LazyGroup(click.Group):
    """A Click group whose subcommands are imported only when one is run or its help shown
    (Click's documented lazy-loading pattern), so that ``rulelearn --help`` loads no solver,
    pandas or scikit-learn.

    ``lazy_subcommands`` maps a name to ``("module:attribute", "short help")``: the short help
    is what the group's ``--help`` lists without importing the module (a test keeps it equal to
    the command's own).
    """

    def __init__(self, *args, lazy_subcommands=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_subcommands: dict[str, tuple[str, str]] = dict(lazy_subcommands or {})

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx, cmd_name):
        if cmd_name in self.lazy_subcommands and cmd_name not in self.commands:
            import importlib

            module, attribute = self.lazy_subcommands[cmd_name][0].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx, formatter):
        """The commands and their short help, without importing the lazy ones."""
        rows = []
        for name in self.list_commands(ctx):
            if name in self.commands:
                command = self.commands[name]
                if not command.hidden:
                    rows.append((name, command.get_short_help_str(formatter.width)))
            else:
                rows.append((name, self.lazy_subcommands[name][1]))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class RuleLearnGroup(LazyGroup):
    """A Click group that turns library errors into one-line CLI errors and warnings into lines."""

    def invoke(self, ctx):
        with warnings_as_lines():
            try:
                try:
                    return super().invoke(ctx)
                except RuleLearnError as exc:
                    raise click.ClickException(_one_line(exc)) from None
                except BrokenPipeError as exc:  # e.g. `rulelearn predict ... | head`
                    raise _stdout_failed(exc) from None
                except OSError as exc:
                    raise click.ClickException(_os_error(exc)) from None
            except click.ClickException as exc:  # it may quote data: shown escaped, one line
                exc.message = terminal_text(exc.message, keep="")  # type: ignore[misc]
                raise


class _TerminalFormatter(logging.Formatter):
    def format(self, record):
        return terminal_text(super().format(record))


def _plug_closed_descriptors() -> None:
    """Point a closed standard descriptor (0, 1, 2) at /dev/null, so that no file opened later
    takes its number (and receives what is meant for the terminal). ``sys.stdout`` stays None,
    so :func:`need_stdout` still knows."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


def log_to_stderr(verbose: int):
    """Show the ``rulelearn`` logger on stderr: INFO for ``verbose`` 1, DEBUG for 2 or more
    (0: nothing). Returns a function that undoes it."""
    if verbose <= 0:
        return lambda: None
    logger = logging.getLogger("rulelearn")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_TerminalFormatter("%(levelname)s %(name)s: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose == 1 else logging.DEBUG)

    def undo():
        logger.removeHandler(handler)
        logger.setLevel(level)

    return undo


#: Every subcommand: ``name: ("module:attribute", short help)``, imported when used (add a
#: command with one line here).
COMMANDS = {
    "fit": ("rulelearn.cli.fit:fit", "Learn a rule from the CSV file DATA (header row "
            "required) and print it."),
    "predict": ("rulelearn.cli.fit:predict", "Apply the saved MODEL (from rulelearn fit "
                "--save) to the CSV file DATA."),
    "show": ("rulelearn.cli.model:show", "Print the rule saved in MODEL."),
    "export": ("rulelearn.cli.model:export", "Write the rule saved in MODEL as code."),
    "datasets": ("rulelearn.cli.datasets:datasets", "List, fetch and inspect the registered UCI "
                 "datasets."),
    "bench": ("rulelearn.cli.bench:bench", "Run the experiment of a YAML CONFIG (resumable)."),
    "table": ("rulelearn.cli.bench:table", "Re-render the tables of RESULTS_DIR from its "
              "records."),
    "plot": ("rulelearn.cli.plot:plot", "Draw the trade-off, θ-path and Pareto figures of "
             "RESULTS_DIR from its records."),
    "report": ("rulelearn.cli.report:report", "Write RESULTS_DIR's report: run metadata and code "
               "versions, the tables with ranks, paired differences, tests over datasets."),
}


@click.group(cls=RuleLearnGroup, lazy_subcommands=COMMANDS)
@click.version_option(__version__, prog_name="rulelearn")
@click.option("-v", "--verbose", count=True,
              help="Show what the library does on stderr: cache actions and solver fallbacks "
                   "(-v), and details (-vv).")
@click.pass_context
def main(ctx, verbose):
    """Learn interpretable two-level Boolean rules (CNF / DNF) and benchmark rule learners."""
    _plug_closed_descriptors()
    ctx.call_on_close(log_to_stderr(verbose))


# ---------------------------------------------------------------- helpers the commands share

def write_file(path, text):
    """Write ``text`` to ``path`` atomically; an OSError becomes a one-line CLI error."""
    from rulelearn.model_io import write_text_atomic

    try:
        write_text_atomic(path, text)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None


def refuse_overwrite(option, path, inputs):
    """A one-line error if writing ``path`` would replace one of the ``inputs`` files.

    ``inputs``: ``(what, path)`` pairs. Paths are compared after resolving links (and by
    device and inode where both exist), so ``./x.csv``, ``x.csv`` and a link to it all match.
    """
    import os
    from pathlib import Path

    if not path.strip():
        raise click.BadParameter("an empty file name", param_hint=f"'{option}'")
    target = Path(path)
    for what, other in inputs:
        try:
            if target.exists() and Path(other).exists():
                same = os.path.samefile(target, other)
            else:
                same = target.resolve() == Path(other).resolve()
        except (OSError, RuntimeError):  # unreadable or a link loop: the write will say so
            same = False
        if same:
            raise click.ClickException(f"{option} {click.format_filename(path)} is the {what}; "
                                       "writing there would replace it: choose another file")


def plain(value):
    """A JSON-ready scalar: numpy scalars as Python ones, anything else not JSON as text."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def training_line(loaded):
    """``training: data.csv, 569 rows, accuracy 95.1 %`` of a loaded model file."""
    facts = loaded.training
    parts = [click.format_filename(loaded.data)] if loaded.data else []
    if isinstance(facts.get("n_samples"), int):
        parts.append(plural(facts["n_samples"], "row"))
    if isinstance(facts.get("accuracy"), (int, float)):
        parts.append(f"accuracy {100 * facts['accuracy']:.1f} %")
    return f"training: {', '.join(parts) if parts else 'not recorded'}"


class CVProgress:
    """``CV: form dnf R 5: 3/5 folds`` on stderr after each fold of ``fit``'s CV: rewritten in
    place on a terminal (and cleared at the end), one line per fold otherwise."""

    def __init__(self, stream=None):
        import sys

        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.width = 0

    def __call__(self, form, r, done, total):
        line = f"CV: form {form} R {r}: {done}/{total} folds"
        if self.tty:
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self):
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
