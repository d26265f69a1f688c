"""The "Proposed" view: what session ends found but were not sure enough to store.

The person accepts (it becomes an L1 memory) or dismisses each; both are undoable (Ctrl+Z
reopens the proposal, and an accepted memory goes to the Trash until it is accepted again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService

COLUMNS = ("Proposed memory", "From", "Because the user said", "When")
ID_ROLE = Qt.ItemDataRole.UserRole + 1


class DecideCommand(QUndoCommand):
    """Accept or dismiss one proposal; undo reopens it."""

    def __init__(
        self,
        service: MemoryService,
        proposal: dict[str, Any],
        accept: bool,
        report: Callable[[MemdeskError], None],
    ) -> None:
        verb = "Accept" if accept else "Dismiss"
        super().__init__(f"{verb} proposal “{proposal['content'][:40]}”")
        self._service = service
        self._number = proposal["id"]
        self._accept = accept
        self._report = report

    def redo(self) -> None:
        self._run(lambda: self._service.decide_proposal(self._number, self._accept))

    def undo(self) -> None:
        self._run(lambda: self._service.reopen_proposal(self._number))

    def _run(self, call: Callable[[], object]) -> None:
        try:
            call()
        except MemdeskError as exc:  # e.g. decided meanwhile from the command line
            self.setObsolete(True)
            self._report(exc)


class ProposalsView(QWidget):
    """A table of pending proposals with Accept and Dismiss. `decided` after each."""

    decided = Signal()

    def __init__(
        self,
        service: MemoryService,
        undo_stack: QUndoStack,
        report: Callable[[MemdeskError], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._stack = undo_stack
        self._report = report
        self._rows: list[dict[str, Any]] = []
        intro = QLabel(
            "Session ends found these in what you told your agents, but not clearly enough to "
            "store them on their own. Accept to keep one as a memory, or dismiss it.",
            self,
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.accept_button = QPushButton("&Accept", self)
        self.dismiss_button = QPushButton("D&ismiss", self)
        self.accept_button.clicked.connect(lambda: self._decide(True))
        self.dismiss_button.clicked.connect(lambda: self._decide(False))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.dismiss_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.reload()

    @Slot()
    def reload(self) -> None:
        self._rows = self._service.proposals()
        self.table.setRowCount(len(self._rows))
        for row, proposal in enumerate(self._rows):
            if proposal["kind"] == "promote":  # a private memory, proposed for every agent
                content, why = f"Share with every agent: {proposal['content']}", proposal["why"]
            else:
                content, why = proposal["content"], proposal["why"].split(": ", 1)[-1]
            cells = (content, proposal["agent"] or "", why, proposal["created_at"][:16])
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text.replace("T", " ") if column == 3 else text)
                item.setToolTip(text)
                self.table.setItem(row, column, item)
        self._update_buttons()

    def _selected(self) -> list[dict[str, Any]]:
        return [self._rows[i.row()] for i in self.table.selectionModel().selectedRows()]

    def _decide(self, accept: bool) -> None:
        chosen = self._selected()
        if not chosen:
            return
        several = len(chosen) > 1
        if several:  # one undo step for what one click did
            self._stack.beginMacro(f"{'Accept' if accept else 'Dismiss'} {len(chosen)} proposals")
        for proposal in chosen:
            self._stack.push(DecideCommand(self._service, proposal, accept, self._report))
        if several:
            self._stack.endMacro()
        self.reload()
        self.decided.emit()

    def _update_buttons(self) -> None:
        chosen = bool(self.table.selectionModel().selectedRows())
        self.accept_button.setEnabled(chosen)
        self.dismiss_button.setEnabled(chosen)
