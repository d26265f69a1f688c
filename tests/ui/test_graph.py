"""The Graph as a person uses it: links drawn and made by dragging, undo, hubs, the node
budget, live writes placed without moving what was settled."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QInputDialog

from memdesk.core import agent
from memdesk.ui.graph.graph_data import place
from tests.ui.window_helpers import open_window, settle

CLAUDE = agent("claude-code")


@pytest.fixture
def memories(service):
    a = service.add("The deploy uses Ansible", project="ops", tags=["infra"])
    b = service.add("Ansible inventory lives in ops/hosts", project="ops")
    c = service.add("The user prefers short answers")
    service.link(a["id"], b["id"], "related")
    return a, b, c


@pytest.fixture
def window(qtbot, service, memories, tmp_path):
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.view_tabs.setCurrentIndex(2)
    win.graph.wait()
    return win


def _node_ids(graph) -> set[str]:
    return {p.data() for p in graph.nodes.points()}


def test_nodes_hubs_and_the_link_legend(window, memories):
    a, b, c = memories
    assert _node_ids(window.graph) == {a["id"], b["id"], c["id"], "project:ops", "tag:infra"}
    assert "related 1" in window.graph.legend.text()
    window.graph.hubs.setCurrentText("None")
    window.graph.wait()
    assert _node_ids(window.graph) == {a["id"], b["id"], c["id"]}


class _Drag:
    """What pyqtgraph hands mouseDragEvent: a press on one node, a release on another."""

    def __init__(self, start: QPointF, end: QPointF, shift: bool = False) -> None:
        self._start, self._end, self.accepted = start, end, False
        self._shift = shift

    def button(self):
        return Qt.MouseButton.LeftButton

    def modifiers(self):
        return Qt.KeyboardModifier.ShiftModifier if self._shift else Qt.KeyboardModifier.NoModifier

    def isStart(self):  # noqa: N802 (pyqtgraph's name)
        return True

    def isFinish(self):  # noqa: N802
        return True

    def buttonDownPos(self):  # noqa: N802
        return self._start

    def pos(self):
        return self._end

    def accept(self):
        self.accepted = True

    def ignore(self):
        pass


def test_dragging_from_one_memory_to_another_links_them_and_undo_removes_it(
    qtbot, service, window, memories, monkeypatch
):
    a, _, c = memories
    asked = []

    def get_item(parent, title, label, *rest, **kw):
        asked.append(label)
        return "derived_from", True

    monkeypatch.setattr(QInputDialog, "getItem", get_item)
    graph = window.graph
    start, end = (QPointF(*graph.positions[m["id"]]) for m in (c, a))
    drag = _Drag(start, end)
    graph.nodes.mouseDragEvent(drag)
    settle(window)
    assert drag.accepted
    first, second = (m["content"].splitlines()[0][:49] for m in (c, a))
    assert asked[0].startswith(f"How is “{first}")
    assert f"to “{second}" in asked[0]
    assert {"id": a["id"], "relation": "derived_from", "direction": "out"} in service.get(c["id"])[
        "links"
    ]
    window.open_memory(c["id"])
    settle(window)
    assert "derived_from" in window.detail.browser.toPlainText()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    assert service.get(c["id"])["links"] == []


def test_a_link_is_removed_from_the_graph_and_comes_back_with_undo(service, window, memories):
    a, b, _ = memories
    window.graph.unlink_requested.emit(a["id"], b["id"], "related")
    settle(window)
    assert service.get(a["id"])["links"] == []
    window.undo_stack.undo()
    assert service.get(a["id"])["links"] == [
        {"id": b["id"], "relation": "related", "direction": "out"}
    ]


def test_a_click_makes_the_memory_current_and_arrows_follow_links(window, memories):
    a, b, _ = memories
    graph = window.graph
    graph.memory_activated.emit(a["id"])
    settle(window)
    assert window.detail.memory_id == a["id"]
    assert window.pages.currentWidget() is graph
    assert graph.marker.data["x"][0] == graph.positions[a["id"]][0]  # ringed where it is
    ax, _ = graph.positions[a["id"]]
    bx, _ = graph.positions[b["id"]]
    assert graph.neighbour((1.0 if bx > ax else -1.0, 0.0)) == b["id"]


def test_the_node_budget_says_what_it_left_out(service, window):
    for n in range(12):
        service.add(f"Filler memory {n}", dedup=False)
    window.graph.budget = 10
    window.graph.reload(full=True)
    window.graph.wait()
    assert "10 memories shown; 5 more not shown" in window.graph.left_out.text()
    window.graph.show_more()
    window.graph.wait()
    assert "15 memories" in window.graph.left_out.text()


def test_a_live_write_is_placed_without_moving_the_rest(service, window, memories):
    before = dict(window.graph.positions)
    new = service.add("Ansible needs Python 3 on the hosts", project="ops", actor=CLAUDE)
    settle(window)
    window.graph.wait()
    assert new["id"] in window.graph.positions
    assert all(window.graph.positions[k] == v for k, v in before.items())


def test_the_layout_places_every_node():
    data = {
        "nodes": [{"id": f"m{n}"} for n in range(50)],
        "edges": [(f"m{n}", f"m{n + 1}", "related") for n in range(49)],
    }
    positions = place(data, {})
    assert set(positions) == {f"m{n}" for n in range(50)}
    assert len(set(positions.values())) == 50


def test_task_and_agent_hubs_and_the_importance_floor(service, window, memories):
    a, _, c = memories
    note = service.add("Hosts run Ubuntu 24.04", task="provision", actor=CLAUDE, importance=0.9)
    settle(window)
    window.graph.hubs.setCurrentText("Projects, tags, tasks, agents")
    window.graph.wait()
    ids = _node_ids(window.graph)
    assert {"task:provision", "agent:claude-code"} <= ids
    window.graph.importance.setValue(0.8)
    window.graph.wait()
    memories_left = {i for i in _node_ids(window.graph) if ":" not in i}
    assert memories_left == {note["id"]}


def test_shift_drag_moves_a_node_and_links_nothing(service, window, memories):
    a, _, c = memories
    graph = window.graph
    start = QPointF(*graph.positions[c["id"]])
    graph.nodes.mouseDragEvent(_Drag(start, QPointF(123.0, 45.0), shift=True))
    assert graph.positions[c["id"]] == (123.0, 45.0)
    assert service.get(c["id"])["links"] == []
    assert (123.0, 45.0) in {(p.pos().x(), p.pos().y()) for p in graph.nodes.points()}
    service.add("Something new", actor=CLAUDE)  # a live write keeps the moved node where it is
    settle(window)
    graph.wait()
    assert graph.positions[c["id"]] == (123.0, 45.0)


class _Click:
    def __init__(self, pos: QPointF, button: Qt.MouseButton) -> None:
        self._pos, self._button, self.accepted = pos, button, False

    def button(self):
        return self._button

    def pos(self):
        return self._pos

    def accept(self):
        self.accepted = True

    def ignore(self):
        pass


def test_right_click_on_a_memory_offers_to_remove_its_links(service, window, memories):
    a, b, _ = memories
    graph = window.graph
    click = _Click(QPointF(*graph.positions[a["id"]]), Qt.MouseButton.RightButton)
    graph.nodes.mouseClickEvent(click)
    assert click.accepted
    [remove] = graph.link_menu.actions()
    assert remove.text() == "Remove link: related “Ansible inventory lives in ops/hosts”"
    remove.trigger()
    graph.link_menu.close()
    settle(window)
    assert service.get(a["id"])["links"] == []
    assert not graph.plot.getPlotItem().getViewBox().menuEnabled()  # not pyqtgraph's menu


def test_hub_labels_never_cover_each_other_and_the_busiest_hub_is_named(qtbot, service, window):
    for n in range(60):
        service.add(f"Note {n} on the build", tags=[f"topic{n}", "busy"], dedup=False)
    graph = window.graph
    graph.reload(full=True)
    graph.wait()
    window.resize(900, 600)
    qtbot.wait(50)
    graph.fit()

    def apart() -> bool:
        # As drawn: a label's place on screen is settled when it is painted, which a loaded
        # machine may do a few frames after the view changed.
        rects = [label.sceneBoundingRect() for label in graph.labels]
        return bool(rects) and not any(
            a.intersects(b) for n, a in enumerate(rects) for b in rects[n + 1 :]
        )

    view = graph.plot.getViewBox()
    hubs = {n["label"]: n["id"] for n in graph.data["nodes"] if n.get("hub")}

    def covered() -> tuple[str, str] | None:
        """A label over another hub's square (#31 item 12: labels hid the hubs under them);
        the busiest hub's name may, if nowhere else is free."""
        for label in graph.labels[1:]:
            for name, hub in hubs.items():
                if name == label.toPlainText() or hub not in graph.positions:
                    continue
                centre = view.mapViewToScene(QPointF(*graph.positions[hub]))
                square = QRectF(centre.x() - 7, centre.y() - 7, 14, 14)
                if label.sceneBoundingRect().intersects(square):
                    return label.toPlainText(), name
        return None

    # Both read as drawn, once the labels have settled after the last change of view (a
    # suite run on a loaded 2-core machine once needed more than 3 s to paint them).
    try:
        qtbot.waitUntil(lambda: apart() and covered() is None, timeout=10_000)
    except qtbot.TimeoutError:
        # Said in full: labels sized from the font's metrics, 0.05 px shorter than drawn,
        # failed here in a few random layouts in a hundred (test_graph_labels.py).
        labels = [(label.toPlainText(), label.sceneBoundingRect()) for label in graph.labels]
        pytest.fail(f"apart {apart()}, covered {covered()}, visible {graph.isVisible()}: {labels}")
    assert "#busy" in [label.toPlainText() for label in graph.labels]


def test_a_long_linked_memory_is_quoted_to_a_whole_word_and_no_autorange_button_shows(
    service, window
):
    """#31 item 12: the right-click quote was cut mid-word ("…and depe”") and pyqtgraph's
    "A" auto-range button showed in a corner."""
    long = service.add("Deploys run from the release branch after review and dependency audit")
    short = service.add("The release train leaves on Tuesdays")
    service.link(short["id"], long["id"])
    graph = window.graph
    graph.reload(full=True)
    graph.wait()
    graph._link_menu(short["id"])  # what a right-click on it opens (clicking: test above)
    [remove] = graph.link_menu.actions()
    graph.link_menu.close()
    quoted = remove.text().split("“", 1)[1].rstrip("”")
    assert quoted == "Deploys run from the release branch…"
    assert not graph.plot.getPlotItem().autoBtn.isVisible()


def test_a_hidden_graph_draws_the_current_memory_when_it_is_shown_again(window, memories):
    # While another view shows, each search result moved the current row and redrew the
    # hidden graph between keystrokes; it now draws once, when shown.
    a, b, _ = memories
    graph = window.graph
    graph.set_current(a["id"])
    window.view_tabs.setCurrentIndex(0)
    drawn: list[int] = []
    graph.nodes.sigPlotChanged.connect(lambda *_: drawn.append(1))
    graph.set_current(b["id"])
    graph.set_selected([a["id"], b["id"]])
    assert drawn == []
    window.view_tabs.setCurrentIndex(2)
    assert drawn
    marked = graph.marker.points()
    assert len(marked) == 1
    assert (marked[0].pos().x(), marked[0].pos().y()) == pytest.approx(graph.positions[b["id"]])
