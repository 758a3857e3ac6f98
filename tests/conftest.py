"""Shared fixtures.

Data: ``mirror_dir`` (the raw UCI files named by ``RULELEARN_MIRROR``; tests using it skip without
it), ``data_env`` (a private cache, no mirror from the environment) and ``http_mirror`` (a loopback
HTTP server with switchable faults).
Learners: ``degenerate_data`` (small binarized data whose clause LPs have tied optima).
"""

import functools
import os
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

#: Read once at import: ``data_env`` removes the variable from the tests' environment.
RULELEARN_MIRROR = os.environ.get("RULELEARN_MIRROR")


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
    handler = functools.partial(_FaultyHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.fault, server.hang_seconds, server.hits = None, 2.0, []
    server.url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


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
