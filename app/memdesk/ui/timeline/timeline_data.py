"""The Timeline's data, ready to draw: the columns a load brings, what was known at a moment
(As of), and the per-point arrays, all built on the loading thread."""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

import numpy as np

from memdesk.core import MemoryService
from memdesk.core.rules import KINDS

KIND_COLOURS = dict(
    zip(
        KINDS,
        ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"),
        strict=True,
    )
)
SYMBOLS = {"user": "o", "agent": "t", "system": "s"}
DAY = 86_400.0


def density(t: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Memories per day, week or month (by the span in view, `low`..`high` seconds) of the
    times `t`: (bar middles, counts, bar width in seconds)."""
    span = max(high - low, DAY)
    width = DAY if span <= 120 * DAY else 7 * DAY if span <= 3 * 365 * DAY else 30 * DAY
    start = np.floor(low / width) * width
    edges = np.arange(start, high + width, width)
    if len(edges) < 2:
        edges = np.array([start, start + width])
    counts, edges = np.histogram(t, bins=edges)
    return edges[:-1] + width / 2, counts, width


def as_of(service: MemoryService, filters: dict[str, Any], moment: str) -> dict[str, Any]:
    """The timeline's columns for the memories active at `moment`, with their states then."""
    states = service.as_of(moment, **filters)
    every = service.timeline(**{**filters, "status": None})
    edits = every.pop("edits")
    keep = [n for n, i in enumerate(every["id"]) if i in states]
    data: dict[str, Any] = {name: [column[n] for n in keep] for name, column in every.items()}
    moment_s = datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp()
    data["edits"] = [e for e in edits if e[0] in states and e[1] <= moment_s]
    data["layer"] = [states[i]["layer"] for i in data["id"]]
    data["kind"] = [states[i]["kind"] for i in data["id"]]
    data["states"] = states
    return data


def prepare(data: dict[str, Any]) -> None:
    """Per-point arrays built here, on the loading thread, so the GUI thread only indexes
    them: a stable spread inside the lane (points of one day do not sit on one another),
    the kind and writer as small integer codes, the ids as an array."""
    data["spread"] = np.array([spread(i) for i in data["id"]], dtype=float)
    data["kind_code"] = np.array([_KIND_CODE.get(k, 0) for k in data["kind"]], dtype=np.int8)
    data["source_code"] = np.array([_SOURCE_CODE.get(s, 0) for s in data["source"]], dtype=np.int8)
    data["ids"] = np.array(data["id"], dtype=object)


_KIND_CODE = {kind: n for n, kind in enumerate(KIND_COLOURS)}
_SOURCE_CODE = {source: n for n, source in enumerate(SYMBOLS)}


def spread(memory_id: str) -> float:
    return (zlib.crc32(memory_id.encode()) % 1000) / 1000 * 0.6 - 0.3
