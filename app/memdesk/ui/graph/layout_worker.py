"""The Graph's layout, run in a process of its own.

igraph keeps the GIL while it lays out, so in a thread of the window's process it would
freeze the window for as long (~0.2–0.5 s at 5,000 nodes). The worker is this module run as
`python -m`, reading one layout to do per line and writing its positions: it imports igraph
only. multiprocessing's spawn imports the parent's main module again in the child (the window
and all of memdesk), which made the first layout wait 0.5–1 s for it. One worker is started
on first use and kept.
"""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

_worker: subprocess.Popen[str] | None = None
_lock = threading.Lock()  # one layout at a time through the worker's pipe
_frozen_pool: ProcessPoolExecutor | None = None


def coordinates(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """Fruchterman-Reingold positions (grid variant: near-linear; fewer rounds when large)."""
    import igraph

    graph = igraph.Graph(n=nodes, edges=edges)
    rounds = 500 if nodes <= 1000 else 200
    layout = graph.layout_fruchterman_reingold(niter=rounds, grid=True)
    return [(x, y) for x, y in layout.coords]  # .coords builds a new list: read it once


def layout(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """`coordinates` in the worker process; in this process if the worker cannot run."""
    if getattr(sys, "frozen", False):
        return _in_frozen_pool(nodes, edges)
    with _lock:
        try:
            return _through_worker(nodes, edges)
        except (OSError, ValueError):
            _stop_worker()
    return coordinates(nodes, edges)


def _through_worker(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    global _worker
    if _worker is None or _worker.poll() is not None:
        _stop_worker()
        _worker = subprocess.Popen(
            # -P: not the current folder first on the path (a repository the person is in
            # could hold a `memdesk` package of its own).
            [sys.executable, "-P", "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    assert _worker.stdin is not None
    assert _worker.stdout is not None
    _worker.stdin.write(json.dumps([nodes, edges]) + "\n")
    _worker.stdin.flush()
    answer = _worker.stdout.readline()
    if not answer:
        raise ValueError("the layout worker ended")
    return [(x, y) for x, y in json.loads(answer)]


def _stop_worker() -> None:
    global _worker
    if _worker is not None:
        _worker.kill()
        _worker.wait()
        for pipe in (_worker.stdin, _worker.stdout):
            if pipe is not None:
                pipe.close()
    _worker = None


atexit.register(_stop_worker)


def _in_frozen_pool(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """A bundled app has no `python -m`: there, multiprocessing (its spawn is what the
    bundle's freeze support runs) starts the worker."""
    global _frozen_pool
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    try:
        if _frozen_pool is None:
            context = multiprocessing.get_context("spawn")  # fork is unsafe under Qt threads
            _frozen_pool = ProcessPoolExecutor(1, mp_context=context)
        return _frozen_pool.submit(coordinates, nodes, edges).result()
    except (BrokenProcessPool, OSError):
        _frozen_pool = None
        return coordinates(nodes, edges)


def _serve() -> None:
    for line in sys.stdin:
        nodes, edges = json.loads(line)
        print(json.dumps(coordinates(nodes, edges)), flush=True)


if __name__ == "__main__":
    _serve()
