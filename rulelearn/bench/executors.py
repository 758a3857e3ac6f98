"""Where the units of an experiment run: in this process, in a local pool of processes
(each unit in a process of its own when units have a timeout; workers die with the run), or
on a dask cluster. Each executor yields the units' records as they finish."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time

from rulelearn.bench.units import Unit, failed_record, run_unit, timeout_record

_WORKER_DATA: dict = {}
PR_SET_PDEATHSIG = 1


def _die_with_parent(parent_pid: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux); exit if it already has.

    Without it, workers of a ``bench`` killed with SIGKILL live on, computing for nobody and
    holding the parent's stdout/stderr open (``rulelearn bench ... | tee`` never ends).
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - an unusual libc
            pass
    try:
        os.kill(parent_pid, 0)  # the parent may have died before prctl
    except ProcessLookupError:
        os._exit(1)
    except PermissionError:  # pragma: no cover - alive, another user
        pass


def _init_worker(datasets, parent_pid=None):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler
    # Ctrl-C reaches the whole process group: the parent stops the workers (no traceback each)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    _WORKER_DATA.clear()
    _WORKER_DATA.update(datasets)


def _run_in_worker(unit: Unit) -> dict:
    return run_unit(unit, _WORKER_DATA[data_key(unit)])


def data_key(unit: Unit) -> tuple:
    """Where a unit's data is in the datasets :func:`preflight` loads: (dataset, seed)."""
    return unit.dataset, unit.seed


def _kill_workers(pool) -> None:
    """Stop the pool's worker processes now (they may be in the middle of a unit)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.kill()
        except (OSError, ValueError):
            pass


def _execute_local(units, datasets, jobs):
    if jobs == 1:
        for u in units:
            yield run_unit(u, datasets[data_key(u)])
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                               initargs=(datasets, os.getpid()))
    finished = False
    try:
        futures = {pool.submit(_run_in_worker, u): u for u in units}
        for fut in as_completed(futures):
            try:
                rec = fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OS
                rec = failed_record(futures[fut], f"{type(exc).__name__}: {exc}")
            yield rec
        finished = True
    finally:
        # on Ctrl-C or SIGTERM, drop the queued units and stop the running ones at once
        # (the records so far are on disk)
        if not finished:
            _kill_workers(pool)  # before shutdown, which forgets the processes
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_with_timeout(units, datasets, jobs, timeout):
    """The records of ``units``, each run in a process of its own (forked: the data is shared,
    not copied), ``jobs`` at a time.  A unit still running ``timeout`` wall seconds after it
    started is stopped with SIGKILL -- its process group, so that processes it started go too
    -- and gets a :func:`timeout_record`; the others run on.  On the way out (Ctrl-C, SIGTERM)
    every unit still running is stopped the same way."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    fork = multiprocessing.get_context("fork")
    waiting = list(units)
    running: dict = {}  # connection -> (process, unit, deadline)
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                unit = waiting.pop(0)
                receive, send = fork.Pipe(duplex=False)
                process = fork.Process(target=_unit_process, daemon=True,
                                       args=(unit, datasets[data_key(unit)], send, os.getpid()))
                process.start()
                send.close()
                running[receive] = (process, unit, time.monotonic() + timeout)
            first_deadline = min(deadline for _, _, deadline in running.values())
            ready = wait(list(running), timeout=max(0.0, first_deadline - time.monotonic()))
            for conn in ready:
                assert isinstance(conn, Connection)  # wait() returns what it was given
                process, unit, _ = running.pop(conn)
                try:
                    rec = conn.recv()
                except (EOFError, OSError):  # it ended without a record (e.g. the OS killed it)
                    rec = None
                conn.close()
                _stop_unit_process(process)  # what it started goes too, even if it lingers
                yield rec if rec is not None else failed_record(
                    unit, f"its process ended without a record (exit status {process.exitcode})")
            now = time.monotonic()
            for conn, (process, unit, deadline) in list(running.items()):
                if now >= deadline:
                    del running[conn]
                    _stop_unit_process(process)
                    conn.close()
                    yield timeout_record(unit, timeout)
    finally:
        for conn, (process, _, _) in running.items():
            _stop_unit_process(process)
            conn.close()


def _unit_process(unit, data, send, parent_pid):
    """The body of a unit's own process: a process group of its own, the signals of a pool
    worker, then its record sent to the parent."""
    try:
        os.setpgid(0, 0)
    except OSError:  # pragma: no cover - not allowed here: only this process is stopped
        pass
    _init_worker({}, parent_pid)  # SIGTERM as by default, SIGINT ignored, dies with the parent
    send.send(run_unit(unit, data))
    send.close()


def _stop_unit_process(process) -> None:
    """SIGKILL to the unit's process group (the unit and what it started), then reap it (in
    this order: until it is reaped, its pid, the group's id, cannot name another group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:  # not a group yet (killed before its setpgid) or already gone
        process.kill()
    process.join()


def _execute_dask(units, datasets, client):
    """The records of ``units`` run on a dask cluster (``client``, closed by the caller)."""
    from dask.distributed import as_completed

    by_id: dict = {}  # the seeds of a dataset that is not subsampled share its data
    for d in datasets.values():
        if id(d) not in by_id:
            by_id[id(d)] = client.scatter(d, broadcast=True)
    futures = {client.submit(run_unit, u, by_id[id(datasets[data_key(u)])], pure=False,
                             key=f"unit-{u.key}"): u
               for u in units}
    for fut in as_completed(list(futures)):
        try:
            yield fut.result()
        except Exception as exc:  # noqa: BLE001
            yield failed_record(futures[fut], f"{type(exc).__name__}: {exc}")


def _execute(todo, datasets, *, executor, client, jobs, unit_timeout=None):
    """The records of ``todo``, as they finish."""
    if executor == "dask":
        return _execute_dask(todo, datasets, client)
    if unit_timeout is not None:
        return _execute_with_timeout(todo, datasets, min(jobs, len(todo)), unit_timeout)
    return _execute_local(todo, datasets, min(jobs, len(todo)))
