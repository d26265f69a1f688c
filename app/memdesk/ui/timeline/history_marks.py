"""What the Timeline draws besides the points: how memories changed over time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt


def history_marks(
    data: dict[str, list[Any]], t: np.ndarray, y: np.ndarray, index: dict[str, int]
) -> list[Any]:
    """Plot items for the loaded `data` (points at times `t`, heights `y`, `index` from id to
    position): edits as ticks on their memory's row; a retired memory as a bar from its
    creation to its successor's, joined to it; an archive summary as a span over its task."""

    def where(i: str) -> tuple[float, float]:
        return float(t[index[i]]), float(y[index[i]])

    items: list[Any] = []
    ticks = [(when, where(i)[1]) for i, when in data["edits"] if i in index]
    if ticks:
        items.append(
            pg.ScatterPlotItem(
                x=[when for when, _ in ticks],
                y=[height for _, height in ticks],
                symbol="|",
                size=14,
                pen=pg.mkPen("#333", width=2),
                brush=None,
            )
        )
    bars: list[float] = []
    for i, old in zip(data["id"], data["supersedes"], strict=True):
        if old is not None and old in index:
            (t0, y0), (t1, y1) = where(old), where(i)
            bars += [t0, y0, t1, y0, t1, y0, t1, y1]
    if bars:
        dashed = pg.mkPen("#9e9e9e", width=2, style=Qt.PenStyle.DashLine)
        items.append(pg.PlotDataItem(bars[0::2], bars[1::2], connect="pairs", pen=dashed))
    first: dict[str, float] = {}
    for task, when in zip(data["task"], t, strict=True):
        if task is not None:
            first[task] = min(first.get(task, float(when)), float(when))
    spans: list[float] = []
    for i, layer, task in zip(data["id"], data["layer"], data["task"], strict=True):
        if layer == "L2" and task in first and first[task] < where(i)[0]:
            (when, height), start = where(i), first[task]
            spans += [start, height, when, height]
    if spans:
        wide = pg.mkPen((89, 161, 79, 90), width=6)
        items.append(pg.PlotDataItem(spans[0::2], spans[1::2], connect="pairs", pen=wide))
    return items
