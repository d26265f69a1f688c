"""The Graph while agents write: it keeps up at a pace that leaves the window's event loop
(where agents' requests are answered) free, ends on the final state, and stays fitted unless
the person moved the view themselves (tryout 91, #7: with the Graph shown, every agent's
request waited 50-100 times longer)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtWidgets import QApplication

from memdesk.core import agent
from memdesk.ui.paced_refresh import PACE_MS
from tests.ui.window_helpers import open_window, settle

CLAUDE = agent("claude-code")


@pytest.fixture
def window(qtbot, service, tmp_path):
    a = service.add("The deploy uses Ansible", project="ops", tags=["infra"])
    b = service.add("Ansible inventory lives in ops/hosts", project="ops")
    service.link(a["id"], b["id"], "related")
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.view_tabs.setCurrentIndex(2)
    win.graph.wait()
    return win


def _in_view(graph) -> bool:
    (x0, x1), (y0, y1) = graph.plot.getViewBox().viewRange()
    return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in graph.positions.values())


def test_a_burst_of_agent_writes_loads_and_draws_the_graph_a_few_times(qtbot, service, window):
    graph = window.graph
    loads: list[int] = []
    draws: list[int] = []
    graph.signals.laid_out.connect(lambda *_: loads.append(1))
    graph.nodes.sigPlotChanged.connect(lambda *_: draws.append(1))
    started = time.monotonic()
    for n in range(50):
        last = service.add(f"Agent note {n} on the deploy", actor=CLAUDE, dedup=False)
        window.hub.flush()  # each write its own batch, as writes 300 ms apart arrive
        QApplication.processEvents()
    took = time.monotonic() - started
    qtbot.waitUntil(lambda: last["id"] in graph.positions, timeout=PACE_MS + 10_000)
    # One at the first write, then one per pace while writes keep coming, one at the end
    # (each load draws once); before, each write loaded twice and drew four times.
    allowed = 2 + took * 1000 / PACE_MS
    assert len(loads) <= allowed, (len(loads), took)
    assert len(draws) <= allowed, (len(draws), took)
    assert {n["id"] for n in graph.data["nodes"]} >= {last["id"]}


def test_writes_while_the_graph_is_hidden_load_nothing_until_it_is_shown(qtbot, service, window):
    graph = window.graph
    window.view_tabs.setCurrentIndex(0)
    loads: list[int] = []
    graph.signals.laid_out.connect(lambda *_: loads.append(1))
    for n in range(5):
        last = service.add(f"Hidden note {n}", actor=CLAUDE, dedup=False)
        settle(window)
    qtbot.wait(50)
    assert loads == []
    window.view_tabs.setCurrentIndex(2)
    graph.wait()
    assert last["id"] in graph.positions
    assert len(loads) == 1


def test_the_graph_is_fitted_after_live_writes_unless_the_person_moved_it(qtbot, service, window):
    graph = window.graph
    for n in range(8):  # unlinked: they go to the rim, past the settled picture
        last = service.add(f"Loose note {n}", actor=CLAUDE, dedup=False)
    settle(window)
    qtbot.waitUntil(lambda: last["id"] in graph.positions, timeout=PACE_MS + 10_000)
    assert _in_view(graph)

    box = graph.plot.getViewBox()
    box.scaleBy((0.5, 0.5))
    box.sigRangeChangedManually.emit(box.state["mouseEnabled"])  # as a wheel turn does
    chosen = box.viewRange()
    more = service.add("Another loose note", actor=CLAUDE, dedup=False)
    settle(window)
    qtbot.waitUntil(lambda: more["id"] in graph.positions, timeout=PACE_MS + 10_000)
    assert box.viewRange() == chosen  # where the person put it
    graph.fit()  # Fit (or Z): fitted again, and after later writes too
    assert _in_view(graph)
