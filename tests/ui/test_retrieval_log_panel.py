"""RetrievalLogPanel: which searches ran, and which memories each one returned."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from memdesk.core import USER, agent
from memdesk.ui.agents.retrieval_log_panel import RetrievalLogPanel


@pytest.fixture
def memories(service):
    texts = [
        "Uses uv, not pip, for Python projects",
        "Python style: ruff format, line length 100",
        "Deploys with docker compose on the NAS",
    ]
    return [service.add(t, dedup=False, project="memdesk")["id"] for t in texts]


@pytest.fixture
def panel(qtbot, service):
    widget = RetrievalLogPanel(service)
    qtbot.addWidget(widget)
    return widget


def _double_click(qtbot, widget, pos):
    # A real double-click is press, release, double-click press, release; item views
    # activate on that last release, which qtbot.mouseDClick alone does not send.
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(widget, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=pos)


def _rows(tree):
    return [
        [tree.topLevelItem(r).text(c) for c in range(tree.columnCount())]
        for r in range(tree.topLevelItemCount())
    ]


def test_an_empty_log_says_so(panel):
    assert panel.stack.currentWidget() is panel.empty_label
    assert "No searches yet" in panel.empty_label.text()


def test_searches_are_listed_newest_first_with_who_and_filters(panel, service, memories):
    service.search("python tooling", actor=agent("claude-code"), project="memdesk")
    service.search("docker", actor=USER)
    panel.refresh()

    rows = _rows(panel.searches)
    assert [row[1:5] for row in rows] == [
        ["you", "docker", "", "1"],
        ["claude-code", "python tooling", "project: memdesk", "2"],
    ]
    assert panel.stack.currentWidget() is not panel.empty_label


def test_selecting_a_search_shows_its_hits_with_scores(panel, service, memories):
    service.search("python", actor=agent("claude-code"))
    panel.refresh()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))

    hits = _rows(panel.hits)
    assert {row[1] for row in hits} == {
        "Uses uv, not pip, for Python projects",
        "Python style: ruff format, line length 100",
    }
    assert all(re.fullmatch(r"-?\d+\.\d{3}", row[0]) for row in hits)
    assert panel.hits_caption.text() == "2 memories returned for “python”"


def test_trashed_and_purged_hits_are_marked_not_hidden(panel, service, memories):
    service.search("python", actor=agent("claude-code"))
    service.remove(memories[0])
    service.remove(memories[1])
    service.purge(memories[1])
    panel.refresh()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))

    titles = sorted(row[1] for row in _rows(panel.hits))
    assert titles == ["(deleted permanently)", "Uses uv, not pip, for Python projects  (in Trash)"]


def test_double_click_or_enter_on_a_hit_opens_the_memory(qtbot, panel, service, memories):
    service.search("docker", actor=agent("cursor"))
    panel.refresh()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))
    panel.show()
    qtbot.waitExposed(panel)
    hit = panel.hits.topLevelItem(0)
    rect = panel.hits.visualItemRect(hit)

    with qtbot.waitSignal(panel.memory_activated) as opened:
        _double_click(qtbot, panel.hits.viewport(), rect.center())
    assert opened.args == [memories[2]]

    panel.hits.setCurrentItem(hit)
    with qtbot.waitSignal(panel.memory_activated) as opened:
        qtbot.keyClick(panel.hits, Qt.Key.Key_Return)
    assert opened.args == [memories[2]]


def test_a_purged_hit_opens_nothing(qtbot, panel, service, memories):
    service.search("docker", actor=agent("cursor"))
    service.remove(memories[2])
    service.purge(memories[2])
    panel.refresh()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))

    with qtbot.assertNotEmitted(panel.memory_activated):
        panel.hits.itemActivated.emit(panel.hits.topLevelItem(0), 1)


def test_refresh_shows_new_searches_and_keeps_the_selection(panel, service, memories):
    service.search("docker", actor=agent("cursor"))
    panel.refresh()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))

    service.search("python", actor=agent("claude-code"))
    panel.refresh_action.trigger()

    assert panel.searches.topLevelItemCount() == 2
    assert panel.searches.currentItem().text(2) == "docker"
    assert _rows(panel.hits)[0][1] == "Deploys with docker compose on the NAS"


def test_the_open_log_shows_new_searches_by_itself(qtbot, service):
    from memdesk.core import agent
    from memdesk.ui.agents.retrieval_log_panel import RetrievalLogPanel

    panel = RetrievalLogPanel(service)
    qtbot.addWidget(panel)
    panel.show()
    service.add("The cache lives in Redis")
    service.search("cache", actor=agent("claude"))
    qtbot.waitUntil(lambda: panel.searches.topLevelItemCount() == 1, timeout=4000)


def test_an_agents_long_query_never_sets_the_panels_width(qtbot, panel, service, memories):
    """A red team's 4,000-character query widened the window to 3,063 px, past the screen,
    once its search was selected; a query that looks like markup was read as markup."""
    query = "python <b>loud</b> " + "*a **a " * 580
    service.search(query, actor=agent("claude-code"))
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    before = panel.sizeHint().width()
    panel.searches.setCurrentItem(panel.searches.topLevelItem(0))
    QApplication.processEvents()
    assert panel.sizeHint().width() <= before
    assert panel.hits_caption.textFormat() == Qt.TextFormat.PlainText
    assert "<b>loud</b>" in panel.hits_caption.text()
    assert len(panel.hits_caption.text()) < 200
