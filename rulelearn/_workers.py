"""The CV's worker processes: loky's reusable executor, as
:func:`rulelearn.model_selection.fit_select` uses it with ``n_jobs`` > 1, and its early start
(``rulelearn fit`` starts them once it has read and checked the data, before it imports the
estimator and the CV, so that they are up when the first fold jobs are).

A light module (no numpy, scikit-learn or HiGHS imported here): starting the workers costs the
caller only joblib's import. Processes rather than threads: HiGHS keeps one thread scheduler
per process.
"""

from __future__ import annotations

import os

#: Idle workers are kept this many seconds (as joblib's loky).
IDLE_SECONDS = 300
_pools: list = []  # the executor last handed out
_started: list = []  # the executor :func:`start` started, for :func:`stop`
_readies: list = []  # its tasks that import in the workers


def n_processes(n_jobs) -> int:
    """Processes a CV with ``n_jobs`` runs in (this one included): -1 is every core; None
    and 1 are this process alone. Not a check (``select_setting`` checks ``n_jobs``)."""
    if n_jobs is None:
        return 1
    return (os.cpu_count() or 1) if n_jobs == -1 else max(int(n_jobs), 1)


def executor(workers: int):
    """loky's reusable executor with ``workers`` processes (>= 1), the same one for every
    call with the same ``workers`` (its arguments unchanged, so that loky reuses it): BLAS
    threads per process by the cores, as joblib's loky."""
    from joblib.externals.loky import get_reusable_executor

    threads = str(max((os.cpu_count() or 1) // (workers + 1), 1))
    pool = get_reusable_executor(max_workers=workers, timeout=IDLE_SECONDS, env={
        name: threads for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                   "MKL_NUM_THREADS")})
    _pools[:] = [pool]
    return pool


#: The modules a fold job needs, imported by each worker as it starts (by name: this module
#: runs them in other processes and does not depend on them).
FOLD_JOB_MODULES = ("rulelearn.estimator", "rulelearn.model_selection")


def ready(modules=FOLD_JOB_MODULES) -> None:
    """Nothing, once ``modules`` are imported (run in a worker process)."""
    import importlib

    for name in modules:
        importlib.import_module(name)


def start(n_jobs) -> bool:
    """Start the workers a CV with ``n_jobs`` uses and their imports now, in the background
    (the fold jobs then find them up: the same executor); whether any was started (none for
    ``n_jobs`` None or 1, or one core). Pair it with :func:`stop` on an error."""
    workers = n_processes(n_jobs) - 1
    if workers < 1:
        return False
    pool = executor(workers)
    _started[:] = [pool]
    _readies[:] = [pool.submit(ready) for _ in range(workers)]
    return True


def stop() -> None:
    """End the workers :func:`start` started, now, whatever they are doing (on an error or an
    interrupt: no worker outlives the command, nor delays its exit to finish an import);
    nothing if it started none (an executor the caller had before is left alone)."""
    import time

    deadline = time.monotonic() + 1.0  # loky's shutdown with kill_workers fails (KeyError in
    while time.monotonic() < deadline and not all(  # its manager thread) on a task not yet
            task.running() or task.done() for task in _readies):  # handed to a worker
        time.sleep(0.001)
    _readies.clear()
    while _started:
        pool = _started.pop()
        pool.shutdown(wait=True, kill_workers=True)
        if pool in _pools:
            _pools.remove(pool)
