"""Connecting to a dask cluster (the optional ``[dask]`` extra).

``rulelearn bench --executor dask`` and ``rulelearn fit --scheduler`` connect the same way: an
address as dask reads it (``tcp://10.0.0.5:8786``; ``10.0.0.5:8786`` means tcp; also tls, ws,
wss, ucx), at most :data:`DASK_CONNECT_SECONDS` seconds to answer, and a one-line
:class:`ClusterError` otherwise. This module imports without dask.
"""

from __future__ import annotations

import contextlib

from rulelearn.errors import RuleLearnError

#: Seconds to wait for a dask scheduler to answer before giving up (nothing is run or written).
DASK_CONNECT_SECONDS = 5.0

#: How to get dask, as every message about it says.
INSTALL_DASK = "pip install 'rulelearn[dask]'"


class ClusterError(RuleLearnError, RuntimeError):
    """dask is not installed, or a dask scheduler does not answer."""


def need_dask(what: str) -> None:
    """A :class:`ClusterError` naming the extra if ``dask.distributed`` cannot be imported
    (``what`` needs it)."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"{what} needs dask.distributed: {INSTALL_DASK}") from None


def connect(scheduler: str, timeout: float | None = None, *, default: bool = False):
    """A ``dask.distributed.Client`` of ``scheduler`` (the caller closes it; the process's
    default client only if ``default``), or a one-line :class:`ClusterError` within
    ``timeout`` seconds (None: :data:`DASK_CONNECT_SECONDS`): a malformed address, or a
    scheduler that does not answer."""
    need_dask(f"the dask scheduler {scheduler}")
    from dask.distributed import Client

    if timeout is None:
        timeout = DASK_CONNECT_SECONDS

    try:
        return Client(scheduler, timeout=timeout, set_as_default=default)
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise ClusterError(f"cannot reach the dask scheduler {scheduler} within {timeout:g} s "
                           f"({reason}).") from None


@contextlib.contextmanager
def dask_client(scheduler: str | None, timeout: float | None = None):
    """:func:`connect` to ``scheduler`` for the block and close it on the way out; None (no
    scheduler: work runs locally) yields None."""
    if scheduler is None:
        yield None
        return
    client = connect(scheduler, timeout)
    try:
        yield client
    finally:
        client.close()


#: The packages besides rulelearn whose versions a fold's result depends on.
CODE_PACKAGES = ("highspy", "numpy", "scikit-learn", "pandas", "scipy")


def code_digest() -> str:
    """A hash of rulelearn's Python sources (less the harness and the CLI, which no fold
    runs) and the versions of :data:`CODE_PACKAGES`: two processes with the same digest fit
    the same folds to the same rules."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in ("bench", "cli"):
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for name in CODE_PACKAGES:
        try:
            digest.update(f"{name}=={version(name)}\0".encode())
        except PackageNotFoundError:
            digest.update(f"{name} missing\0".encode())
    return digest.hexdigest()


def check_workers(client) -> None:
    """A :class:`ClusterError` unless every worker of ``client`` runs this process's code
    (:func:`code_digest`): otherwise its folds would not give a local run's result."""
    try:
        digests = client.run(code_digest)
    except Exception as exc:  # noqa: BLE001 - e.g. a worker without rulelearn
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise ClusterError(f"the dask workers cannot run rulelearn ({type(exc).__name__}: "
                           f"{reason}); install the same rulelearn on them") from None
    here = code_digest()
    other = sorted(address for address, digest in digests.items() if digest != here)
    if other:
        raise ClusterError(f"{len(other)} of {len(digests)} dask workers ({', '.join(other)}) "
                           f"run other code than this process (rulelearn's sources or the "
                           f"versions of {', '.join(CODE_PACKAGES)}): install the same on them")
