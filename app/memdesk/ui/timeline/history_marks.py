"""What the Timeline draws besides the points: how memories changed over time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from memdesk.core.rules import LAYERS

ARCHIVE = LAYERS.index("L2")


@dataclass(frozen=True)
class History:
    """How the loaded memories changed, as positions among the loaded points (built on the
    loading thread: the GUI thread only looks the heights up when it draws)."""

    tick_times: np.ndarray  # an edit: when, on the row of the point it edited
    tick_points: np.ndarray
    retired: np.ndarray  # a retired memory's point, and its successor's
    successors: np.ndarray
    span_starts: np.ndarray  # an archive summary's task: when it began, and its summary
    span_points: np.ndarray

    @classmethod
    def of(cls, data: dict[str, Any], t: np.ndarray, index: dict[str, int]) -> History:
        edits = [(when, index[i]) for i, when in data["edits"] if i in index]
        pairs = [
            (index[old], n)
            for n, old in enumerate(data["supersedes"])
            if old is not None and old in index
        ]
        # Most memories have no task: the two passes below go over those that have one.
        tasked = [n for n, task in enumerate(data["task"]) if task is not None]
        times = t.tolist() if tasked else []
        first: dict[str, float] = {}
        for n in tasked:
            task = data["task"][n]
            if times[n] < first.get(task, float("inf")):
                first[task] = times[n]
        spans = [
            (first[data["task"][n]], n)
            for n in tasked
            if data["layer_code"][n] == ARCHIVE and first[data["task"][n]] < times[n]
        ]
        tick_times, tick_points = _columns(edits, float)
        retired, successors = _columns(pairs, int)
        span_starts, span_points = _columns(spans, float)
        return cls(tick_times, tick_points, retired, successors, span_starts, span_points)

    def items(self, t: np.ndarray, y: np.ndarray) -> list[Any]:
        """Plot items at heights `y`: a retired memory as a bar from its creation to its
        successor's, joined to it; an archive summary as a span over its task. (Edits are
        ticks drawn with the points in view: `ticks_in`.)"""
        items: list[Any] = []
        if len(self.retired):
            t0, y0 = t[self.retired], y[self.retired]
            t1, y1 = t[self.successors], y[self.successors]
            # Two segments each: along the old row to the successor's time, then up to it.
            xs = np.column_stack([t0, t1, t1, t1]).ravel()
            ys = np.column_stack([y0, y0, y0, y1]).ravel()
            dashed = pg.mkPen("#9e9e9e", width=2, style=Qt.PenStyle.DashLine)
            items.append(pg.PlotDataItem(xs, ys, connect="pairs", pen=dashed))
        if len(self.span_points):
            heights = y[self.span_points]
            xs = np.column_stack([self.span_starts, t[self.span_points]]).ravel()
            ys = np.column_stack([heights, heights]).ravel()
            wide = pg.mkPen((89, 161, 79, 90), width=6)
            items.append(pg.PlotDataItem(xs, ys, connect="pairs", pen=wide))
        return items


def ticks_in(history: History, y: np.ndarray, low: float, high: float) -> dict[str, Any]:
    """The edits between `low` and `high` as a tick on their memory's row at height `y`."""
    shown = (history.tick_times >= low) & (history.tick_times <= high)
    return {"x": history.tick_times[shown], "y": y[history.tick_points[shown]]}


def _columns(pairs: list[tuple[Any, int]], kind: type) -> tuple[np.ndarray, np.ndarray]:
    if not pairs:
        return np.empty(0, dtype=kind), np.empty(0, dtype=int)
    first, second = zip(*pairs, strict=True)
    return np.array(first, dtype=kind), np.array(second, dtype=int)
