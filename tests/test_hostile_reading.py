"""Third hostile battery, the reading part: how a CSV file is read, and a model that remembers it.

Every case runs the CLI as a user would, on files made in a fresh folder, and checks the exit
code, that there is no traceback, and that a failure is exactly one ``Error:`` line naming the
problem (``one_error``). The cases that read devices run in a real process under a 2 GB
address-space limit (``ulimit -v 2000000``), where an unbounded read dies with ``MemoryError``.
"""

import os
import resource
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulelearn.cli import main

FAST = ["--theta", "0.5", "--rules", "2", "--form", "dnf"]  # no CV
D = "a,b,y\n" + "".join(f"{i},{(7 * i) % 10},{int(i % 10 > 4)}\n" for i in range(40))


def run(tmp_path, monkeypatch, *args):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result, *words) -> str:
    """The one ``Error:`` line of a failed run (exit code 1, no traceback), holding ``words``."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output and (result.exception is None
                                          or isinstance(result.exception, SystemExit)), output
    assert result.exit_code == 1, output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0], (word, errors[0])
    return errors[0]


def ok(result):
    output = result.stdout + result.stderr
    assert "Traceback" not in output and result.exit_code == 0, output
    return result


# ------------------------------------------------------------------ 42.8: bounded reads of paths

def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))


def run_limited(tmp_path, *args, timeout=120):
    """``rulelearn ARGS`` in a process under ``ulimit -v 2000000``."""
    return subprocess.run([sys.executable, "-m", "rulelearn.cli", *map(str, args)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_limited)


def one_error_line(process, *words):
    assert process.returncode == 1, process.stderr
    assert "Traceback" not in process.stderr and "MemoryError" not in process.stderr
    lines = process.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_fit_of_a_device_is_refused_before_reading_it(tmp_path, device):
    one_error_line(run_limited(tmp_path, "fit", device, *FAST), device, "not a regular file")


@pytest.mark.parametrize("command", [["show", "m.json"], ["predict", "m.json", "d.csv"],
                                     ["export", "m.json", "--format", "sql"]])
def test_a_model_file_linked_to_dev_zero_is_refused(tmp_path, command):
    (tmp_path / "d.csv").write_text(D)
    (tmp_path / "m.json").symlink_to("/dev/zero")
    one_error_line(run_limited(tmp_path, *command), "model file m.json", "not a regular file")


def test_predict_of_data_that_is_a_device_is_refused(tmp_path, monkeypatch):
    (tmp_path / "d.csv").write_text(D)
    ok(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST, "--save", "m.json"))
    one_error_line(run_limited(tmp_path, "predict", "m.json", "/dev/urandom"),
                   "/dev/urandom", "not a regular file")


def test_binary_data_from_a_pipe_is_refused_after_its_first_block(tmp_path):
    fifo = tmp_path / "zeros"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"head -c 3000000000 /dev/zero > {fifo}"])
    try:
        one_error_line(run_limited(tmp_path, "fit", "zeros", *FAST), "zeros",
                       "not a text file")
    finally:
        writer.kill()
        writer.wait()


def test_a_model_file_from_a_pipe_of_zeros_is_one_line(tmp_path):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"head -c 3000000000 /dev/zero > {fifo}"])
    try:
        one_error_line(run_limited(tmp_path, "show", "m.json"), "not a rulelearn model file",
                       "binary")
    finally:
        writer.kill()
        writer.wait()


def test_a_model_file_over_the_size_bound_is_refused_unread(tmp_path, monkeypatch):
    from rulelearn.data import files

    monkeypatch.setattr(files, "MAX_MODEL_BYTES", 1000)
    (tmp_path / "m.json").write_text("{" + " " * 2000 + "}")
    one_error(run(tmp_path, monkeypatch, "show", "m.json"), "m.json", "larger than 1000 bytes")


def test_a_data_file_over_the_size_bound_is_refused(tmp_path, monkeypatch):
    from rulelearn.data import parse

    monkeypatch.setattr(parse, "MAX_TEXT_BYTES", 100)
    (tmp_path / "d.csv").write_text(D)
    one_error(run(tmp_path, monkeypatch, "fit", "d.csv", *FAST), "d.csv", "larger than 100 bytes")
