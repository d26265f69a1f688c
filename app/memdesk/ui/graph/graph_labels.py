"""The Graph's node labels: placed in screen space, so each change of view places them again."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsTextItem

from memdesk.ui.graph.graph_data import HUB_PIXELS, Box, readable_labels
from memdesk.ui.plain_text import tip

LABELS_BELOW = 60  # node labels are drawn when at most this many nodes are in view
LABEL_DROP = 0.4  # a label's top sits this much of its height below its node's centre
LABEL_FILL = (255, 255, 255, 200)


def draw_labels(
    plot: pg.PlotWidget,
    font: QFont,
    data: dict[str, Any],
    positions: dict[str, tuple[float, float]],
    shown: list[pg.TextItem],
) -> None:
    """Name what is in view, hubs first (the most linked first), then memories (the
    most recalled first), leaving out any label that would cover one already shown.
    `shown` holds the labels drawn before: they are replaced."""
    for label in shown:
        plot.removeItem(label)
    shown.clear()
    box = plot.getViewBox()
    (x0, x1), (y0, y1) = box.viewRange()
    inside = [
        n
        for n in data["nodes"]
        if n["id"] in positions
        and x0 <= positions[n["id"]][0] <= x1
        and y0 <= positions[n["id"]][1] <= y1
    ]
    if len(inside) > LABELS_BELOW:  # too many to read: only the hubs are named
        inside = [n for n in inside if n.get("hub")]
    degree: dict[str, int] = {}
    for a, b, _relation in data["edges"]:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    inside.sort(
        key=lambda n: (not n.get("hub"), -degree.get(n["id"], 0), -n.get("recall_count", 0))
    )
    # Sized by the item a pg.TextItem draws its text with, in the font it is given: Qt lays a
    # line out in whole pixels (22 where the font's metrics said 21.95), and labels sized from
    # the metrics came out that much taller than placed, over a hub square or a label they
    # had been placed to clear (in a few random layouts in a hundred).
    measure = QGraphicsTextItem()
    measure.setFont(font)
    places: dict[str, list[tuple[tuple[float, float], Box]]] = {}
    squares: dict[str, Box] = {}
    for node in inside:
        at = box.mapViewToDevice(QPointF(*positions[node["id"]]))
        measure.setPlainText(node["label"])
        size = measure.boundingRect()
        places[node["id"]] = _label_places(at.x(), at.y(), size.width(), size.height())
    # every hub's square, not only those whose centre is in view: one just past the edge
    # still shows half of it, and a label placed over that half hid it
    half = HUB_PIXELS / 2
    for node in data["nodes"]:
        if node.get("hub") and node["id"] in positions:
            at = box.mapViewToDevice(QPointF(*positions[node["id"]]))
            squares[node["id"]] = (at.x() - half, at.y() - half, at.x() + half, at.y() + half)
    by_id = {n["id"]: n for n in inside}
    candidates = [(n["id"], [b for _anchor, b in places[n["id"]]]) for n in inside]
    for node_id, place_index in readable_labels(candidates, LABELS_BELOW, squares):
        label = pg.TextItem(
            by_id[node_id]["label"],
            color="#333",
            anchor=places[node_id][place_index][0],
            fill=LABEL_FILL,
        )
        label.setFont(font)
        label.setZValue(1)  # above the nodes of a crowded graph, on a light ground
        label.setPos(*positions[node_id])
        label.setToolTip(tip(by_id[node_id]["label"]))
        plot.addItem(label)
        shown.append(label)


def _label_places(
    x: float, y: float, width: float, height: float
) -> list[tuple[tuple[float, float], Box]]:
    """Where a label of `width` x `height` pixels may go around its node at (x, y), best
    first: below, above, right, left. Each as (TextItem anchor, box on screen)."""
    gap = HUB_PIXELS / 2 + 2
    top_below = y + LABEL_DROP * height
    top_above = y - (1 + LABEL_DROP) * height
    return [
        ((0.5, -LABEL_DROP), (x - width / 2, top_below, x + width / 2, top_below + height)),
        ((0.5, 1 + LABEL_DROP), (x - width / 2, top_above, x + width / 2, top_above + height)),
        ((-gap / width, 0.5), (x + gap, y - height / 2, x + gap + width, y + height / 2)),
        ((1 + gap / width, 0.5), (x - gap - width, y - height / 2, x - gap, y + height / 2)),
    ]
