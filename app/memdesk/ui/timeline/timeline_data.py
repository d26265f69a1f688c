"""The Timeline's data, ready to draw: the columns a load brings, what was known at a moment
(As of), and the per-point arrays, all built on the loading thread."""

from __future__ import annotations

import zlib
from datetime import datetime
from itertools import repeat
from typing import Any

import numpy as np

from memdesk.core import MemoryService
from memdesk.core.rules import KINDS, LAYER_NAMES
from memdesk.ui.timeline.history_marks import History

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


def prepare(data: dict[str, Any], lane_field: str) -> None:
    """What the GUI thread would otherwise compute per point, built here on the loading
    thread and with C loops (100,000 points: the draw froze the window 100-250 ms): the
    times as an array, a stable spread inside the lane (points of one day do not sit on one
    another), the kind and writer as small codes, the lanes of the lane choice shown, the
    position of each id, and the history as positions."""
    ids = data["id"]
    count = len(ids)
    data["times"] = np.asarray(data["t"], dtype=float)
    crc = np.fromiter(map(zlib.crc32, map(str.encode, ids)), dtype=np.uint32, count=count)
    data["spread"] = (crc % 1000) / 1000 * 0.6 - 0.3
    data["kind_code"] = _codes(data["kind"], _KIND_CODE)
    data["source_code"] = _codes(data["source"], _SOURCE_CODE)
    data["ids"] = np.array(ids, dtype=object)
    data["index"] = dict(zip(ids, range(count), strict=True))
    data["lanes"] = {lane_field: lanes(data[lane_field], lane_field)}
    data["history"] = History.of(data, data["times"], data["index"])


def lanes(values: list[str | None], field: str) -> tuple[list[str], np.ndarray]:
    """The lanes `values` fall in, by name, and each value's lane."""
    named = dict.fromkeys(values)
    for value in named:
        named[value] = _lane_name(value, field)
    order = sorted(set(named.values()))
    lane_of = {value: order.index(name) for value, name in named.items()}
    return order, np.fromiter(map(lane_of.__getitem__, values), dtype=float, count=len(values))


def _lane_name(value: str | None, field: str) -> str:
    if field == "layer" and value is not None:
        return f"{value} {LAYER_NAMES[value]}"
    return value if value else f"(no {field})"


def _codes(values: list[str], code: dict[str, int]) -> np.ndarray:
    return np.fromiter(map(code.get, values, repeat(0)), dtype=np.int8, count=len(values))


_KIND_CODE = {kind: n for n, kind in enumerate(KIND_COLOURS)}
_SOURCE_CODE = {source: n for n, source in enumerate(SYMBOLS)}
