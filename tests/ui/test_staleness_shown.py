"""The detail panel says when a memory may be outdated, as agents are told (#22.18)."""

from __future__ import annotations

from memdesk.core import agent
from tests.ui.window_helpers import open_window, settle


def test_the_detail_panel_marks_a_memory_with_an_update_waiting(qtbot, service, tmp_path):
    old = service.add("The API listens on port 8080", actor=agent("claude-code"))
    service.add("The API listens on port 9090", actor=agent("claude-code"))
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.open_memory(old["id"])
    settle(window)
    shown = window.detail.browser.toPlainText()
    assert "May be outdated" in shown
    assert "a possible update awaits review (agents are told so)" in shown


def test_the_list_marks_a_memory_that_may_be_outdated(qtbot, service, tmp_path):
    """#31 item 13: only the detail panel said so; the list looked the same."""
    from PySide6.QtCore import Qt

    from memdesk.ui.list.memory_table_model import STALE_MARK
    from tests.ui.window_helpers import shown_texts

    old = service.add("The API listens on port 8080", actor=agent("claude-code"))
    service.add("The API listens on port 9090", actor=agent("claude-code"))
    service.add("Deploys go through the release train")
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    settle(window)
    texts = shown_texts(window)
    assert f"{STALE_MARK}The API listens on port 8080" in texts
    assert "The API listens on port 9090" in texts
    assert "Deploys go through the release train" in texts
    model = window.browser.model
    row = window.browser.model.row_of(old["id"])
    tooltip = model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole)
    assert "May be outdated: a possible update awaits review" in tooltip
    qtbot.keyClicks(window.browser.search, "8080")
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=2000)
    assert shown_texts(window) == [f"{STALE_MARK}The API listens on port 8080"]


def test_the_list_names_the_person_as_the_writer_of_what_a_session_heard(qtbot, service, tmp_path):
    """A new user read "system" as the writer of what they had said in a session."""
    from memdesk.core import Actor
    from memdesk.ui.list.memory_table_model import COL_AGENT

    service.add(
        "Local postgres listens on 5433", tags=["gap-fill"], actor=Actor("system", "claude-code")
    )
    service.add("The cache is warmed at boot", actor=agent("cursor"))
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    model = window.browser.table.model()
    writers = {model.index(row, COL_AGENT).data() for row in range(model.rowCount())}
    assert writers == {"you, heard by claude-code", "cursor"}
