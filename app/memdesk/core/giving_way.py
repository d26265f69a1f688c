"""Threads whose work nobody is waiting on right now (agents' requests, a sync, a backup) give
the processor to the ones the person is: on two cores under 40 searching agents and a sync,
the person's ping and search took p95 104-149 ms with every thread of the server alike,
41-106 ms with these at nice 5, and 54-77 ms at 10 (`bench/abuse.py`, docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import os
import sys
import threading

NICENESS = 10  # as the guard's worker processes (guard/apart.py)


def give_way() -> None:
    """Lower the calling thread's priority. Linux keeps one per thread; elsewhere the call
    would lower the whole process, the person's thread with it, so nothing is done."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            native = threading.get_native_id()
            os.setpriority(
                os.PRIO_PROCESS, native, os.getpriority(os.PRIO_PROCESS, native) + NICENESS
            )
