"""The first-run panel: what memdesk is, how to connect an agent, and a demo to explore."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from memdesk.api import naming
from memdesk.ui.icons import app_icon
from memdesk.ui.list import demo_data

# The agent's name, to be edited: without one, every agent set up from the snippet wrote as
# "mcp", and the window could not tell them apart. (Attach writes the host's name there.)
AGENT_PLACEHOLDER = "your-agent-name"


def mcp_snippet(db_path: str | Path, socket: str | None = None) -> str:
    """The MCP configuration for this memdesk: its absolute command (a venv's `memdesk` is
    not on an agent host's PATH), the database this window has open, the agent's name, and
    the `socket` it serves on when the person chose one (see `naming.chosen_socket`)."""
    me = Path(sys.argv[0])
    if me.name == "memdesk" and me.is_file():
        command, args = str(me.resolve()), ["mcp"]
    elif found := shutil.which("memdesk"):
        command, args = found, ["mcp"]
    else:
        # -P: the host starts it in the agent's repository, which may hold a `memdesk`.
        command, args = sys.executable, ["-P", "-m", "memdesk", "mcp"]
    env = {"MEMDESK_DB": str(db_path), "MEMDESK_AGENT": AGENT_PLACEHOLDER}
    if socket:
        env[naming.SOCKET_ENV] = socket
    server = {"command": command, "args": args, "env": env}
    return json.dumps({"mcpServers": {"memdesk": server}}, indent=2)


LAYERS = [
    (
        "L0 · Identity",
        "Who you are and how you work, given to every agent (up to 1,000 characters).",
    ),
    (
        "L1 · Knowledge",
        "Facts, preferences and decisions that agents find by search when relevant.",
    ),
    ("L2 · Archive", "Summaries of finished sessions, kept to look back on and never lost."),
]
COPIED_FOR_MS = 1500


class EmptyStatePanel(QWidget):
    """Shown instead of the list while the database is empty."""

    demo_requested = Signal()
    attach_requested = Signal()

    def __init__(
        self, socket_path: str, db_path: str | Path, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        chosen = naming.chosen_socket(db_path, socket_path) if socket_path else None
        self.mcp_snippet = mcp_snippet(db_path, chosen)
        self.socket_path = socket_path

        column = QVBoxLayout()
        column.setSpacing(14)
        column.addLayout(self._title())
        column.addWidget(_heading("Three layers of memory"))
        column.addLayout(self._layers())
        # The first thing to try stays above the fold: below the MCP snippet it was cut in
        # half at the default window size.
        column.addLayout(self._demo_row())
        column.addWidget(_heading("Connect an agent"))
        column.addWidget(
            _text(
                "Add this to your agent's MCP configuration (Claude Desktop, Claude Code, "
                f"Cursor, …), change {AGENT_PLACEHOLDER} to the agent's name (memdesk shows "
                "who wrote each memory by it), then restart the agent:"
            )
        )
        self.copy_mcp_button = self._code_row(column, self.mcp_snippet)
        self.attach_button = QPushButton(
            "Attach to Claude Code, Cursor, Gemini CLI, Codex or opencode…"
        )
        self.attach_button.setToolTip("Writes this for you, after showing what it changes")
        self.attach_button.clicked.connect(self.attach_requested)
        column.addWidget(self.attach_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(_text("Tools that talk to memdesk directly use its socket:"))
        self.copy_socket_button = self._code_row(column, socket_path)
        column.addSpacing(8)
        column.addStretch(1)

        page = QWidget()
        page.setMaximumWidth(680)
        page.setLayout(column)
        centred = QWidget()
        centring = QHBoxLayout(centred)
        centring.setContentsMargins(24, 24, 24, 24)
        centring.addStretch(1)
        centring.addWidget(page, 100)
        centring.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(centred)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def _title(self) -> QHBoxLayout:
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(64, 64))
        title = QLabel("Welcome to memdesk")
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        title.setFont(font)
        words = QVBoxLayout()
        words.addWidget(title)
        words.addWidget(
            _text(
                "A memory for your AI agents that stays on this computer, where you can "
                "read it, correct it and undo any change."
            )
        )
        row = QHBoxLayout()
        row.setSpacing(16)
        row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(words, 1)
        return row

    def _layers(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        for row, (name, meaning) in enumerate(LAYERS):
            label = QLabel(f"<b>{name}</b>")
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(_text(meaning), row, 1)
        grid.setColumnStretch(1, 1)
        return grid

    def _code_row(self, column: QVBoxLayout, code: str) -> QPushButton:
        block = QLabel(code)
        block.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        block.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        block.setFrameShape(QFrame.Shape.StyledPanel)
        block.setBackgroundRole(QPalette.ColorRole.Base)
        block.setAutoFillBackground(True)
        block.setMargin(8)
        block.setWordWrap(True)
        copy = QPushButton("Copy")
        copy.setToolTip("Copy to the clipboard")
        copy.clicked.connect(lambda: self._copy(copy, code))
        row = QHBoxLayout()
        row.addWidget(block, 1)
        row.addWidget(copy, 0, Qt.AlignmentFlag.AlignTop)
        column.addLayout(row)
        return copy

    def _demo_row(self) -> QHBoxLayout:
        self.demo_button = QPushButton("Load demo data")
        self.demo_button.setDefault(True)
        self.demo_button.setMinimumHeight(32)
        self.demo_button.clicked.connect(self._on_demo_clicked)
        row = QHBoxLayout()
        row.addWidget(self.demo_button)
        row.addWidget(
            _text(
                f"{demo_data.SIZE} memories from two projects ({demo_data.RETIRED} of them "
                "corrected since: retired, under Inactive), to explore before your agents "
                "write their own (Ctrl+Z takes them away again). Or press Ctrl+N to add your "
                "first memory."
            ),
            1,
        )
        return row

    def _copy(self, button: QPushButton, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        button.setText("Copied")
        QTimer.singleShot(COPIED_FOR_MS, button, lambda: button.setText("Copy"))

    @Slot()
    def _on_demo_clicked(self) -> None:
        self.demo_button.setEnabled(False)  # one demo set is enough; the panel goes away next
        self.demo_requested.emit()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        """Back after the demo was undone: it may be loaded again."""
        self.demo_button.setEnabled(True)
        super().showEvent(event)


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 1.15)
    font.setBold(True)
    label.setFont(font)
    label.setContentsMargins(0, 8, 0, 0)
    return label


def _text(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label
