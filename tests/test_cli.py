"""The ``rulelearn`` group: lazy subcommands, and a ``--help`` that loads no heavy module."""

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from rulelearn.cli import COMMANDS, main

HEAVY = ("highspy", "pandas", "sklearn", "scipy", "numpy", "rulelearn.learners", "yaml")


def test_help_imports_no_solver_nor_pandas_nor_sklearn():
    """``rulelearn --help`` in a fresh process: which modules it imported (-X importtime)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulelearn.cli", "--help"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Commands:" in r.stdout and all(name in r.stdout for name in COMMANDS)
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines()
                if line.startswith("import time:")}
    assert "click" in imported  # the check sees imports at all
    loaded = sorted(m for m in imported if m.split(".")[0] in HEAVY or m in HEAVY)
    assert loaded == []


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_listed_short_help_is_the_start_of_the_commands_own(name):
    command = main.get_command(click.Context(main), name)
    assert command is not None and command.name == name
    own = command.get_short_help_str(10**6)
    assert own.startswith(COMMANDS[name][1].rstrip(".")), (own, COMMANDS[name][1])


def test_a_subcommand_runs_and_shows_its_help_through_the_lazy_group():
    r = CliRunner().invoke(main, ["bench", "--help"])
    assert r.exit_code == 0 and "Usage: main bench [OPTIONS] CONFIG" in r.output
    r = CliRunner().invoke(main, ["no-such-command"])
    assert r.exit_code == 2 and "No such command 'no-such-command'" in r.output
