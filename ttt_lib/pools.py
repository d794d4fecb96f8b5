"""Where a tournament's games run: a pool of worker processes where this Python can start
them, else serially in this process (a browser: Pyodide, JupyterLite), with the same results."""
from __future__ import annotations

import os
import sys
from concurrent.futures import Executor, Future

from .checks import check_whole
from .errors import ArenaError


def cpu_count() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def processes_available() -> bool:
    """Can this Python start worker processes? Not in a browser (Pyodide, JupyterLite)."""
    try:
        import multiprocessing.synchronize  # noqa: F401  (needs the OS's semaphores)
    except ImportError:
        return False
    return sys.platform not in ("emscripten", "wasi")


class SerialExecutor(Executor):
    """Runs each task when it is submitted, in this process: the pool of a browser."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # kept for future.result(), as a pool would
            future.set_exception(error)
        return future


def process_pool(max_workers: int | None = None) -> Executor:
    """A pool of ``max_workers`` worker processes, or a ``SerialExecutor`` where processes
    are unavailable (JupyterLite): every result is the same either way, only slower."""
    if max_workers is not None:
        check_whole(max_workers, "max_workers", 1, 1024, ArenaError)
    if processes_available():
        try:  # imported here: Pyodide has no _multiprocessing, which the import needs
            from concurrent.futures import ProcessPoolExecutor
            return ProcessPoolExecutor(max_workers)
        except (NotImplementedError, OSError):
            pass
    return SerialExecutor()
