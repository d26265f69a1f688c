"""The Graph's data, ready to draw: positions (laid out in the worker process, or kept),
and the per-node and per-edge arrays, all built off the GUI thread."""

from __future__ import annotations

import math
import zlib
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from memdesk.core import clock
from memdesk.ui.graph import layout_worker

HUB_PIXELS = 14  # the side of a hub's square on screen


def node_points(data: dict[str, Any]) -> dict[str, Any]:
    """Per-node arrays for drawing (position, size, symbol, ring), on the loading thread."""
    nodes, positions = data["nodes"], data["positions"]
    new_since = clock.format_time(datetime.now(UTC) - timedelta(hours=24))
    return {
        "x": np.array([positions[n["id"]][0] for n in nodes]),
        "y": np.array([positions[n["id"]][1] for n in nodes]),
        "size": [
            HUB_PIXELS if n.get("hub") else 8 + min(16, 3 * math.log2(1 + n["recall_count"]))
            for n in nodes
        ],
        "symbol": ["s" if n.get("hub") else "o" for n in nodes],
        "ring": [None if n.get("hub") else ring(n, new_since) for n in nodes],
        "ids": [n["id"] for n in nodes],
    }


def edge_lines(data: dict[str, Any]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """For each relation, the x and y arrays of its edges as pairs of points: built on the
    loading thread, so drawing only hands them to pyqtgraph."""
    positions = data["positions"]
    by_relation: dict[str, list[tuple[float, float]]] = {}
    for a, b, relation in data["edges"]:
        if a in positions and b in positions:
            points = by_relation.setdefault(relation, [])
            points.append(positions[a])
            points.append(positions[b])
    return {
        relation: (np.array([p[0] for p in points]), np.array([p[1] for p in points]))
        for relation, points in by_relation.items()
    }


def place(
    data: dict[str, Any], known: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """Positions for every node. Known nodes keep theirs; when most are known, new ones go
    beside their placed neighbours (or at the rim); otherwise the whole graph is laid out."""
    ids = [n["id"] for n in data["nodes"]]
    index = {i: n for n, i in enumerate(ids)}
    edges = [(index[a], index[b]) for a, b, _ in data["edges"] if a in index and b in index]
    placed = sum(i in known for i in ids)
    if ids and placed >= 0.8 * len(ids):
        out = {i: known[i] for i in ids if i in known}
        neighbours: dict[str, list[str]] = {}
        for a, b in edges:
            neighbours.setdefault(ids[a], []).append(ids[b])
            neighbours.setdefault(ids[b], []).append(ids[a])
        xs = [p[0] for p in out.values()] or [0.0]
        rim = max(max(xs) - min(xs), 1.0) / 2
        for i in ids:
            if i in out:
                continue
            near = [out[j] for j in neighbours.get(i, []) if j in out]
            angle = (zlib.crc32(i.encode()) % 360) * math.pi / 180
            if near:
                cx, cy = np.mean(near, axis=0)
                out[i] = (cx + math.cos(angle), cy + math.sin(angle))
            else:
                out[i] = (rim * 1.1 * math.cos(angle), rim * 1.1 * math.sin(angle))
        return out
    if not ids:
        return {}
    coords = layout_worker.layout(len(ids), edges)  # another process: the window stays live
    return {i: (coords[n][0], coords[n][1]) for n, i in enumerate(ids)}


def ring(node: dict[str, Any], new_since: str) -> str:
    if node["status"] != "active":
        return "retired"
    return "new" if node["created_at"] >= new_since else "plain"


Box = tuple[float, float, float, float]  # left, top, right, bottom, in pixels


def readable_labels(
    candidates: list[tuple[str, list[Box]]], limit: int, nodes: dict[str, Box] | None = None
) -> list[tuple[str, int]]:
    """Of labels ordered by importance, each with the places it may take (best first), those
    that fit somewhere without touching a label shown before them nor covering another's node
    in `nodes` (hub squares: a label over one hid it): (key, place index), at most `limit`.
    A crowd of hubs keeps its biggest names readable, and zooming in makes room for the rest."""
    shown: list[Box] = []
    chosen: list[tuple[str, int]] = []
    for rank, (key, places) in enumerate(candidates):
        if len(chosen) >= limit:
            break
        squares = [box for node, box in (nodes or {}).items() if node != key]
        # The most important name is shown even in a crowd of hubs, over one if it must.
        for blocked in ([*shown, *squares], shown) if rank == 0 else ([*shown, *squares],):
            index = next(
                (n for n, place in enumerate(places) if not _touches(place, blocked)), None
            )
            if index is not None:
                shown.append(places[index])
                chosen.append((key, index))
                break
    return chosen


def _touches(box: Box, others: list[Box]) -> bool:
    left, top, right, bottom = box
    return any(left < r and l < right and top < b and t < bottom for l, t, r, b in others)  # noqa: E741
