"""The detail panel says when a memory may be outdated, as agents are told (#22.18)."""

from __future__ import annotations

from memdesk.core import agent
from tests.ui.window_helpers import open_window, settle


def test_the_detail_panel_marks_a_memory_with_an_update_waiting(qtbot, service, tmp_path):
    old = service.add("The API listens on port 8080")
    service.add("The API listens on port 9090", actor=agent("claude-code"))
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.open_memory(old["id"])
    settle(window)
    shown = window.detail.browser.toPlainText()
    assert "May be outdated" in shown
    assert "a possible update awaits review (agents are told so)" in shown
