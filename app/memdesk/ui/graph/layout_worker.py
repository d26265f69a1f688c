"""The Graph's layout, run in a process of its own.

igraph keeps the GIL while it lays out, so in a thread of the window's process it would
freeze the window for as long (~0.2–0.5 s at 5,000 nodes). This module imports igraph only,
so the worker process starts fast; one worker is started on first use and kept.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

_pool: Executor | None = None


def coordinates(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """Fruchterman-Reingold positions (grid variant: near-linear; fewer rounds when large)."""
    import igraph

    graph = igraph.Graph(n=nodes, edges=edges)
    rounds = 500 if nodes <= 1000 else 200
    layout = graph.layout_fruchterman_reingold(niter=rounds, grid=True)
    return [(x, y) for x, y in layout.coords]  # .coords builds a new list: read it once


def layout(nodes: int, edges: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """`coordinates` in the worker process (started on first use); in this process if the
    worker cannot run."""
    global _pool
    try:
        if _pool is None:
            # spawn, not fork: forking a process that runs Qt threads is unsafe.
            _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return _pool.submit(coordinates, nodes, edges).result()
    except (BrokenProcessPool, OSError):
        _pool = None
        return coordinates(nodes, edges)
