"""Long texts read by the guard in a process of its own, while a server answers others.

The guard is pure Python: a 60 KB text holds the interpreter's lock for 0.1–0.7 s. Scanned
on a thread of the server (a sync taking a remote's files, an agent's long write), it made
every request of the person's wait at each step that lets the lock go: a crafted remote of
200 such files took the person's p95 to 238 ms. Only a long-running owner of the database
turns this on (`serving`); a one-off command would pay the worker's start (~0.5 s) for
nothing. One worker, started on first use and kept; texts are scanned here again if it
cannot run. Many texts at once (a first pull of thousands of memories) are read by one worker
per core for the time of that reading (`Reading`), whoever runs it; where no server runs, this
process reads too once it has handed every text over.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

# Below this a scan costs a few milliseconds: less than the trip to the worker is worth.
LONG = 8_000
# Texts read together by several workers (a first pull, an import): below this many, their
# start (~0.5 s each, side by side) costs more than they save at ~0.2 ms a text.
MANY = 2_000
_CHUNK = 500  # texts a worker is given at once

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
            _pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_behind
            )
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


class Reading:
    """Texts handed over in parts as the caller comes to them, read by one worker per core
    (at most four; one fewer where the caller reads too) while the caller goes on, when
    `expected` is many; here otherwise."""

    def __init__(self, here: Callable[[str], list[str]], expected: int) -> None:
        self._here = here
        self._parts: list[tuple[list[str], Future[list[list[str]]] | None]] = []
        self._pool: ProcessPoolExecutor | None = None
        cores = os.cpu_count() or 1
        # (where no server runs, this process reads too once its own work is done, on a core
        # of its own: one worker fewer, and one start of ~0.15 s of CPU)
        workers = min(cores if _servers else cores - 1, 4)
        if expected >= MANY and cores >= 2:
            with contextlib.suppress(OSError):
                spawn = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(workers, mp_context=spawn, initializer=_behind)

    def __enter__(self) -> Reading:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def read(self, texts: list[str]) -> None:
        for start in range(0, len(texts), _CHUNK):
            part = texts[start : start + _CHUNK]
            self._parts.append((part, self._submit(part)))

    def _submit(self, part: list[str]) -> Future[list[list[str]]] | None:
        if self._pool is None:
            return None
        try:
            return self._pool.submit(_each, part, self._here)
        except (BrokenProcessPool, RuntimeError):  # a worker died (killed, or could not start)
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return None

    def findings(self) -> list[list[str]]:
        """What the guard found in each text handed over, in order."""
        if not _servers:
            self._help()
        found: list[list[str]] = []
        for part, future in self._parts:
            try:
                found += _each(part, self._here) if future is None else future.result()
            except (BrokenProcessPool, OSError):
                found += _each(part, self._here)
        return found

    def _help(self) -> None:
        """Read here the parts no worker has taken yet, from the last while the workers go on
        from the first. The workers give way to every other process: on a machine busy with
        other work they had hardly begun when the caller came to wait (a first pull of 20,000
        memories then waited 6.6 s for them), while this process, its own work done, sat
        idle. Not while a server runs: its threads keep the interpreter for the person's
        requests."""
        for number in reversed(range(len(self._parts))):
            part, future = self._parts[number]
            if future is None:  # read here in any case
                continue
            if not future.cancel():
                return  # a worker has it (begun or next), and every part before it
            done: Future[list[list[str]]] = Future()
            done.set_result(_each(part, self._here))
            self._parts[number] = part, done


def _behind() -> None:
    """A worker gives way to every other process of the person's: with agents and a sync of
    a crafted remote sharing two cores, the person's requests waited for a core behind it."""
    with contextlib.suppress(OSError, AttributeError):  # no nice() on Windows
        os.nice(10)


def _each(texts: list[str], here: Callable[[str], list[str]]) -> list[list[str]]:
    return [scan(text, here) for text in texts]  # in a worker: always here
