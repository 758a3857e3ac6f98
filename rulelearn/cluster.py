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
