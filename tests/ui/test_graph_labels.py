"""The Graph's labels on a plot of their own: a label is drawn where it was placed."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF

from memdesk.ui.graph.graph_data import HUB_PIXELS
from memdesk.ui.graph.graph_labels import LABEL_DROP, draw_labels


def test_a_label_placed_clear_of_a_hub_is_drawn_clear_of_it(qtbot):
    """A hub's square a hundredth of a pixel above where the label below another hub ends
    as drawn. Labels sized from the font's metrics were 0.05 px shorter than drawn, so that
    label went below and covered the square's edge (in a few random layouts in a hundred)."""
    plot = pg.PlotWidget()
    plot.setAspectLocked(True)
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.show()
    qtbot.waitExposed(plot)
    plot.setRange(xRange=(-10, 10), yRange=(-10, 10), padding=0)
    box = plot.getViewBox()
    font = plot.font()
    drawn = pg.TextItem("a")
    drawn.setFont(font)
    height = drawn.boundingRect().height()
    at = box.mapViewToDevice(QPointF(0, 0))
    square_top = at.y() + (1 + LABEL_DROP) * height - 0.01
    below = box.mapDeviceToView(QPointF(at.x(), square_top + HUB_PIXELS / 2))
    positions = {"tag:b": (below.x(), below.y()), "tag:a": (0.0, 0.0)}
    data = {
        "nodes": [{"id": h, "label": h[4:], "hub": "tag"} for h in positions],
        "edges": [],
    }
    labels: list[pg.TextItem] = []

    draw_labels(plot, font, data, positions, labels)
    plot.grab()  # a label takes its place on screen when it is painted

    assert [label.toPlainText() for label in labels] == ["b", "a"]
    centre = box.mapViewToScene(QPointF(*positions["tag:b"]))
    half = HUB_PIXELS / 2
    square = QRectF(centre.x() - half, centre.y() - half, HUB_PIXELS, HUB_PIXELS)
    assert not labels[1].sceneBoundingRect().intersects(square)
