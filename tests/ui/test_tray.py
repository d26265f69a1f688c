"""The tray icon with real widgets: counts, closing to the tray while agents are connected,
Quit, Pause All Agents and back, and notices once, not per item (#23.3)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memdesk.core import agent
from memdesk.ui.tray import STILL_SERVING, Tray
from tests.ui.window_helpers import open_window, settle

CLAUDE = agent("claude-code")


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.add("The deploy uses Ansible")
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.tray = Tray(win)
    win.tray.show()
    yield win
    win.quit_for_real()  # a window hidden to the tray would outlive its database
    win.tray.hide()


@pytest.fixture
def notices(window, monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(window.tray, "showMessage", lambda _title, text, *a: said.append(text))
    return said


def test_the_menu_says_what_waits_and_who_is_connected(service, window):
    tray = window.tray
    assert tray.inbox_action.text() == "Inbox (empty)"
    assert tray.agents_action.text() == "No agent connected"
    service.add("Staging port is 5433", confidence=0.5, actor=CLAUDE)  # an unsure write
    settle(window)
    window.set_agent_count(1)
    window.show_agent_names(["claude-code"])
    assert tray.inbox_action.text() == "Inbox (1)"
    assert tray.agents_action.text() == "1 agent connected: claude-code"
    assert tray.toolTip() == "memdesk — 1 in the Inbox, 1 agent connected"


def test_closing_with_agents_connected_keeps_memdesk_in_the_tray_until_quit(
    window, notices, monkeypatch
):
    window.set_agent_count(2)
    closed = []
    monkeypatch.setattr(window.hub, "close", lambda: closed.append(True))
    window.close()
    assert not window.isVisible()
    assert closed == []  # hidden, not closed: the window keeps serving
    assert window.tray.isVisible()  # still serving
    window.bring_to_front()
    window.close()
    assert notices == [STILL_SERVING]  # said once
    window.tray.quit_action.trigger()
    assert not window.isVisible()
    assert closed == [True]


def test_closing_with_no_agent_connected_closes(window, notices):
    window.close()
    assert not window.isVisible()
    assert notices == []


def test_pause_all_agents_and_back_to_each_ones_own_mode(service, window):
    service.session_start("s1", actor=CLAUDE)
    service.session_start("s2", actor=agent("cursor"))
    service.set_agent_mode("cursor", "read_only")
    window.tray.pause_action.trigger()
    assert service.agent_modes() == {"claude-code": "paused", "cursor": "paused"}
    window.tray.pause_action.trigger()
    assert service.agent_modes() == {"cursor": "read_only"}


def test_new_inbox_items_and_an_agent_over_budget_are_told_once(
    service, window, notices, monkeypatch
):
    monkeypatch.setattr(window, "isActiveWindow", lambda: False)
    for n in range(3):  # three at once: one notice
        service.add(f"Staging port is 54{n}{n}", confidence=0.5, dedup=False, actor=CLAUDE)
    settle(window)
    assert len(notices) == 1
    assert notices[0].startswith("3 new items in the Inbox")
    settle(window)
    assert len(notices) == 1  # nothing new, nothing said

    flooding = [SimpleNamespace(agent="cursor", refused=40, first_at="")]
    monkeypatch.setattr(service, "over_budget", lambda: flooding)
    window.tray.refresh()
    window.tray.refresh()
    assert len(notices) == 2
    assert notices[1].startswith("cursor writes faster than its budget allows")


def test_the_tray_shows_what_doctor_finds_wrong(qtbot, service, tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    broken = tmp_path / ".cursor" / "mcp.json"
    broken.parent.mkdir()
    entry = {"command": "/gone/memdesk", "args": ["mcp", "--db", str(service.path)]}
    broken.write_text(json.dumps({"mcpServers": {"memdesk": entry}}))
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    tray = Tray(window)
    assert tray.problems_action.text() == "⚠ 1 set-up problem (memdesk doctor)"
    assert "cursor's memdesk MCP server runs '/gone/memdesk'" in tray.problems_action.toolTip()
    broken.unlink()
    tray.check_set_up()
    assert tray.problems_action.text() == "No set-up problem found"
    assert not tray.problems_action.isEnabled()
