"""The Timeline's data, ready to draw: the columns a load brings, what was known at a moment
(As of), and the per-point arrays, all built on the loading thread."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np

from memdesk.core import MemoryService
from memdesk.core.memory.reads import timeline_code
from memdesk.core.rules import KINDS, LAYER_NAMES, LAYERS, SOURCES
from memdesk.ui.timeline.history_marks import History

KIND_COLOURS = dict(
    zip(
        KINDS,
        ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"),
        strict=True,
    )
)
SYMBOLS = dict(zip(SOURCES, ("o", "t", "s"), strict=True))
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
    # The layer and kind as they were; the writer is the one of today (a state has none).
    data["code"] = [
        timeline_code(states[i]["layer"], SOURCES[code // 8 % 4], states[i]["kind"])
        for i, code in zip(data["id"], data["code"], strict=True)
    ]
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
    # The ids' own hashes: the same while the window runs (a reload does not move a point),
    # kept in each id for the index below (a CRC of each was 20 ms more of 100,000).
    hashes = np.fromiter(map(hash, ids), dtype=np.int64, count=count)
    data["spread"] = (hashes % 1000) / 1000 * 0.6 - 0.3
    code = np.fromiter(data["code"], dtype=np.int8, count=count)
    data["layer_code"], data["source_code"], data["kind_code"] = code // 32, code // 8 % 4, code % 8
    data["ids"] = np.array(ids, dtype=object)
    data["index"] = dict(zip(ids, range(count), strict=True))
    data["lanes"] = {lane_field: lanes(data, lane_field)}
    data["history"] = History.of(data, data["times"], data["index"])


def lanes(data: dict[str, Any], field: str) -> tuple[list[str], np.ndarray]:
    """The lanes of the loaded memories by `field`, by name, and each memory's lane."""
    if field in _CODED:
        return _coded_lanes(data[f"{field}_code"], *_CODED[field])
    values = data[field]
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


def _coded_lanes(
    codes: np.ndarray, values: tuple[str, ...], field: str
) -> tuple[list[str], np.ndarray]:
    """`lanes` of a field the load brought as codes (positions in `values`)."""
    present = np.unique(codes)
    names = {int(code): _lane_name(values[code], field) for code in present}
    order = sorted(set(names.values()))
    lane_of = np.zeros(len(values), dtype=float)
    for code, name in names.items():
        lane_of[code] = order.index(name)
    return order, lane_of[codes]


_CODED = {"layer": (LAYERS, "layer"), "kind": (KINDS, "kind")}
