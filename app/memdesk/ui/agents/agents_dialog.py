"""View ▸ Agents…: every agent that opened a session, last seen first, with its last work."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemoryService

COLUMNS = ("Agent", "Last seen (UTC)", "Session", "Task", "Last work")


class AgentsDialog(QDialog):
    def __init__(self, service: MemoryService, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Agents")
        self.resize(760, 320)
        roster = service.agents()
        self.table = QTableWidget(len(roster), len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        for row, entry in enumerate(roster):
            state = " (open)" if entry["open"] else ""
            cells = (
                entry["agent"],
                entry["last_seen"][:16].replace("T", " "),
                entry["session"][:8] + state,
                entry["task"] or "",
                entry["last"],
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, column, item)
        empty = QLabel(
            "No agent has opened a session yet. Connect one with `memdesk hook install` "
            "(Claude Code) or the session methods of the socket API.",
            self,
        )
        empty.setWordWrap(True)
        empty.setVisible(not roster)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(empty)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
