"""Shared fixtures.

Data: ``mirror_dir`` (the raw UCI files named by ``RULELEARN_MIRROR``; tests using it skip without
it), ``data_env`` (a private cache, no mirror from the environment) and ``http_mirror`` (a loopback
HTTP server with switchable faults).
Files: ``read_only`` (makes a folder read-only, also for root).
Learners: ``degenerate_data`` (small binarized data whose clause LPs have tied optima).
"""

import builtins
import contextlib
import errno
import functools
import io
import os
import shutil
import stat
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hypothesis import settings

#: Every property test draws the same examples on every run and machine (a failure in CI is
#: one you can rerun here); a test's own settings change only what they name.
settings.register_profile("rulelearn", derandomize=True, database=None, print_blob=True)
settings.load_profile("rulelearn")

#: Read once at import: ``data_env`` removes the variable from the tests' environment.
RULELEARN_MIRROR = os.environ.get("RULELEARN_MIRROR")

_SESSION_CACHE: list[str] = []


def pytest_configure(config):
    """The whole session's dataset cache is a temporary folder: tests never write into the
    checkout (``datasets/cache``) nor into a user's own ``RULELEARN_DATA``."""
    _SESSION_CACHE.append(tempfile.mkdtemp(prefix="rulelearn-test-cache-"))
    os.environ["RULELEARN_DATA"] = _SESSION_CACHE[-1]


#: Node ids of the tests ``make test-fast`` leaves out (``make slow-list`` writes the file).
SLOW_TESTS = Path(__file__).with_name("slow_tests.txt")


def pytest_collection_modifyitems(config, items):
    """Mark the tests listed in ``slow_tests.txt`` ``slow`` (``-m "not slow"`` skips them)."""
    if not SLOW_TESTS.is_file():
        return
    slow = {line for line in SLOW_TESTS.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")}
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)


def pytest_unconfigure(config):
    for folder in _SESSION_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


# -------------------------------------------------------------------------------------------- data

@pytest.fixture
def mirror_dir() -> Path:
    """The folder of raw UCI files (``RULELEARN_MIRROR``, CI sets ``../shared/uci``)."""
    if not RULELEARN_MIRROR:
        pytest.skip("RULELEARN_MIRROR is not set; set it to the raw UCI files "
                    "(e.g. ../shared/uci) to run this test")
    path = Path(RULELEARN_MIRROR)
    if not path.is_dir():
        pytest.skip(f"RULELEARN_MIRROR={RULELEARN_MIRROR} is not a folder")
    return path


@pytest.fixture
def data_env(tmp_path, monkeypatch) -> Path:
    """A private, empty dataset cache (``RULELEARN_DATA``) and no ``RULELEARN_MIRROR``."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULELEARN_DATA", str(cache))
    monkeypatch.delenv("RULELEARN_MIRROR", raising=False)
    return cache


class _FaultyHandler(SimpleHTTPRequestHandler):
    """Serves a folder; ``server.fault`` switches every GET to 404/500/truncate/wrong/hang."""

    def do_GET(self):
        server = self.server
        server.hits.append(self.path)
        fault = server.fault
        if fault in (404, 500):
            self.send_error(fault)
        elif fault == "truncate":  # promise 10000 bytes, send 10, hang up
            self.send_response(200)
            self.send_header("Content-Length", "10000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
        elif fault == "wrong":
            body = b"this is not the file you are looking for\n"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif fault == "hang":
            time.sleep(server.hang_seconds)
        else:
            super().do_GET()

    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture
def http_mirror(tmp_path):
    """A loopback HTTP server in a thread, serving ``RULELEARN_MIRROR`` (or an empty folder).

    Yields the server: ``.url`` (base URL), ``.fault`` (None, 404, 500, "truncate", "wrong",
    "hang"), ``.hang_seconds`` and ``.hits`` (paths requested).
    """
    root = RULELEARN_MIRROR if RULELEARN_MIRROR and Path(RULELEARN_MIRROR).is_dir() else tmp_path
    with loopback_server(_FaultyHandler, root) as server:
        server.fault, server.hang_seconds, server.hits = None, 2.0, []
        yield server


@contextlib.contextmanager
def loopback_server(handler_class, root):
    """A ``ThreadingHTTPServer`` on 127.0.0.1 serving folder ``root`` with ``handler_class``,
    in a thread, shut down on exit; ``.url`` is its base URL."""
    handler = functools.partial(handler_class, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------------------------------------- files

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@pytest.fixture
def read_only(monkeypatch):
    """``make(folder)``: make ``folder`` and everything in it read-only.

    ``chmod`` is enough for an ordinary user; root ignores it, so for root the calls that would
    change something under ``folder`` (open for writing, mkdir, unlink, rename, chmod) are made
    to fail with EACCES, as they do for a user. Permissions are restored afterwards.
    """
    frozen = []

    def under(path) -> bool:
        if isinstance(path, int):
            return False
        path = os.path.abspath(os.fsdecode(path))
        return any(path == f or path.startswith(f + os.sep) for f in frozen)

    def refuse(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    def guard(original, *path_args):
        def wrapper(*args, **kwargs):
            for i in path_args:
                if i < len(args) and under(args[i]):
                    refuse(args[i])
            return original(*args, **kwargs)
        return wrapper

    def guard_open(original):
        def wrapper(file, mode="r", *args, **kwargs):
            if any(c in mode for c in "wax+") and under(file):
                refuse(file)
            return original(file, mode, *args, **kwargs)
        return wrapper

    def guard_os_open(original):
        def wrapper(path, flags, *args, **kwargs):
            if flags & _WRITE_FLAGS and under(path):
                refuse(path)
            return original(path, flags, *args, **kwargs)
        return wrapper

    def make(folder):
        folder = os.path.abspath(folder)
        for root, _dirs, files in os.walk(folder):
            for name in files:
                os.chmod(os.path.join(root, name), stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        for root, _dirs, _files in os.walk(folder, topdown=False):
            os.chmod(root, 0o555)
        if not frozen and os.access(folder, os.W_OK):  # root: simulate
            for name in ("mkdir", "unlink", "remove", "rmdir", "chmod"):
                monkeypatch.setattr(os, name, guard(getattr(os, name), 0))
            for name in ("rename", "replace"):
                monkeypatch.setattr(os, name, guard(getattr(os, name), 0, 1))
            monkeypatch.setattr(os, "open", guard_os_open(os.open))
            monkeypatch.setattr(builtins, "open", guard_open(builtins.open))
            monkeypatch.setattr(io, "open", guard_open(io.open))
        frozen.append(folder)
        return folder

    yield make
    monkeypatch.undo()
    for folder in frozen:
        for root, _dirs, files in os.walk(folder):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)


# ---------------------------------------------------------------------------------------- learners

def _degenerate_data(seed, n=80, d=10):
    import numpy as np
    import pandas as pd

    from rulelearn.binarize import QuantileBinarizer

    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, d)).round(1), columns=[f"x{j}" for j in range(d)])
    y = (X["x0"] > 0.3) & (X["x1"] < 0.5) | (rng.random(n) < 0.08)
    return QuantileBinarizer(n_thresholds=10).fit_transform(X), y.to_numpy()


@pytest.fixture
def degenerate_data():
    """``seed -> (A, y)``: quantile-binarized data with repeated values and negations.

    Their clause LPs have several optimal vertices, as in real use: without the
    tie-break the clause differs between solve paths at seeds 2 and 3.
    """
    return _degenerate_data
