"""View ▸ Agents…: every agent that opened a session (or was restricted), last seen first,
with its last work, and the control the person keeps over it: active, read-only or paused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.agents.attach_dialog import AttachDialog
from memdesk.ui.plain_text import tip

COLUMNS = ("Agent", "Control", "Last seen (UTC)", "Session", "Task", "Last work")
MODES = {
    "active": "Active",
    "updates_fine": "Active, its updates fine",  # its own notes replaced without an Inbox item
    "read_only": "Read-only",
    "paused": "Paused",
}


class ModeCommand(QUndoCommand):
    """Set an agent's control; undo puts the previous one back."""

    def __init__(
        self,
        service: MemoryService,
        agent: str,
        mode: str,
        before: str,
        report: Callable[[MemdeskError], None],
    ) -> None:
        super().__init__(f"Set {agent} to {MODES[mode].lower()}")
        self._service, self._agent, self._mode, self._before = service, agent, mode, before
        self._report = report

    def redo(self) -> None:
        self._set(self._mode)

    def undo(self) -> None:
        self._set(self._before)

    def _set(self, mode: str) -> None:
        try:
            self._service.set_agent_mode(self._agent, mode)
        except MemdeskError as exc:
            self.setObsolete(True)
            self._report(exc)


class AgentsDialog(QDialog):
    def __init__(
        self,
        service: MemoryService,
        undo_stack: QUndoStack,
        report: Callable[[MemdeskError], None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Agents")
        self.resize(860, 340)
        roster = service.agents()
        self.controls: dict[str, QComboBox] = {}
        self.table = QTableWidget(len(roster), len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        # The control's longest choice in full ("Active, its u…" said nothing).
        self.table.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents
        )
        for row, entry in enumerate(roster):
            state = " (open)" if entry["open"] else ""
            cells = (
                entry["agent"],
                "",
                entry["last_seen"][:16].replace("T", " "),
                entry["session"][:8] + state,
                entry["task"] or "",
                entry["last"],
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip(text))
                self.table.setItem(row, column, item)
            control = QComboBox(self.table)
            for mode, label in MODES.items():
                control.addItem(label, mode)
            control.setCurrentIndex(list(MODES).index(entry["mode"]))
            control.setToolTip(
                "Active, its updates fine: a note of its own that updates an older one of its "
                "own replaces it without asking you in the Inbox. Read-only: it may search and "
                "read but not change memories. Paused: it may do neither until you set it back "
                "to Active. Undo with Ctrl+Z."
            )
            control.currentIndexChanged.connect(
                lambda _=0, a=entry["agent"], c=control: self._on_control(a, c)
            )
            self.table.setCellWidget(row, 1, control)
            self.controls[entry["agent"]] = control
        self._modes = {entry["agent"]: entry["mode"] for entry in roster}
        self._service, self._stack, self._report = service, undo_stack, report
        empty = QLabel(
            "No agent has opened a session yet. Connect one with `memdesk hook install` "
            "(Claude Code) or the session methods of the socket API.",
            self,
        )
        empty.setWordWrap(True)
        empty.setVisible(not roster)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        self.attach_button = buttons.addButton(
            "Attach to an Agent Host…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.attach_button.clicked.connect(lambda: AttachDialog(Path(service.path), self).exec())
        layout = QVBoxLayout(self)
        layout.addWidget(empty)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    def _on_control(self, agent: str, control: QComboBox) -> None:
        mode = control.currentData()
        before = self._modes[agent]
        if mode == before:
            return
        self._stack.push(ModeCommand(self._service, agent, mode, before, self._report))
        self._modes[agent] = mode
