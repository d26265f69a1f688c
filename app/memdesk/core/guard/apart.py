"""Long texts read by the guard in a process of its own, while a server answers others.

The guard is pure Python: a 60 KB text holds the interpreter's lock for 0.1–0.7 s. Scanned
on a thread of the server (a sync taking a remote's files, an agent's long write), it made
every request of the person's wait at each step that lets the lock go: a crafted remote of
200 such files took the person's p95 to 238 ms. Only a long-running owner of the database
turns this on (`serving`); a one-off command would pay the worker's start (~0.5 s) for
nothing. One worker, started on first use and kept; texts are scanned here again if it
cannot run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

# Below this a scan costs a few milliseconds: less than the trip to the worker is worth.
LONG = 8_000

_lock = threading.Lock()
_servers = 0
_pool: ProcessPoolExecutor | None = None


@contextlib.contextmanager
def serving() -> Iterator[None]:
    """Long texts go to the worker while the block runs (servers may nest, as in tests)."""
    global _servers, _pool
    with _lock:
        _servers += 1
    try:
        yield
    finally:
        with _lock:
            _servers -= 1
            pool, _pool = (_pool, None) if _servers == 0 else (None, _pool)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def scan(text: str, here: Callable[[str], list[str]]) -> list[str]:
    """`here(text)`, in the worker when `text` is long and a server is running."""
    global _pool
    if len(text) < LONG or not _servers:
        return here(text)
    with _lock:
        if _pool is None and _servers:
            # spawn, not fork: forking a process that runs Qt threads is unsafe.
            _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        pool = _pool
    if pool is None:
        return here(text)
    try:
        return pool.submit(here, text).result()
    except (BrokenProcessPool, CancelledError, OSError, RuntimeError):  # ended meanwhile
        with _lock:
            if _pool is pool:
                _pool = None
        return here(text)
