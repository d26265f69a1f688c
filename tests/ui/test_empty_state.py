"""EmptyStatePanel: first-run help with copyable agent setup and a demo data button."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from memdesk.api import naming
from memdesk.ui.list.empty_state import EmptyStatePanel

SOCKET = "/run/user/1000/memdesk/memdesk-3f9a1c2b.sock"
DB = "/home/ada/work/memdesk.db"


@pytest.fixture
def panel(qtbot):
    widget = EmptyStatePanel(SOCKET, DB)
    qtbot.addWidget(widget)
    return widget


def _shown_text(panel):
    return "\n".join(label.text() for label in panel.findChildren(QLabel))


def test_it_explains_the_three_layers_and_shows_how_to_connect(panel):
    text = _shown_text(panel)
    for layer in ("L0 · Identity", "L1 · Knowledge", "L2 · Archive"):
        assert layer in text
    assert '"mcp"' in text
    assert SOCKET in text


def test_copy_puts_the_mcp_config_on_the_clipboard(qtbot, panel):
    qtbot.mouseClick(panel.copy_mcp_button, Qt.MouseButton.LeftButton)
    server = json.loads(QGuiApplication.clipboard().text())["mcpServers"]["memdesk"]
    # An absolute command (a venv's memdesk is not on the agent host's PATH) that runs
    # memdesk's MCP bridge, on the database this window has open.
    assert Path(server["command"]).is_absolute()
    assert server["args"][-1] == "mcp"
    # the agent's name, for the person to edit: without it every agent wrote as "mcp"; and
    # SOCKET, not the one derived from DB, which the host would look for without being told
    assert server["env"] == {
        "MEMDESK_DB": DB,
        "MEMDESK_AGENT": "your-agent-name",
        "MEMDESK_SOCKET": SOCKET,
    }
    assert "change your-agent-name to the agent's name" in _shown_text(panel)
    assert panel.copy_mcp_button.text() == "Copied"
    qtbot.waitUntil(lambda: panel.copy_mcp_button.text() == "Copy", timeout=3000)


def test_the_socket_derived_from_the_database_goes_without_saying(qtbot):
    panel = EmptyStatePanel(naming.socket_path(DB), DB)
    qtbot.addWidget(panel)
    qtbot.mouseClick(panel.copy_mcp_button, Qt.MouseButton.LeftButton)
    server = json.loads(QGuiApplication.clipboard().text())["mcpServers"]["memdesk"]
    assert "MEMDESK_SOCKET" not in server["env"]  # every memdesk command derives it itself


def test_copy_puts_the_socket_path_on_the_clipboard(qtbot, panel):
    qtbot.mouseClick(panel.copy_socket_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == SOCKET


def test_load_demo_data_asks_once(qtbot, panel):
    with qtbot.waitSignal(panel.demo_requested):
        qtbot.mouseClick(panel.demo_button, Qt.MouseButton.LeftButton)
    assert not panel.demo_button.isEnabled()
