"""The search box: searches as you type, after a short pause so each keystroke is not a query."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

TYPING_PAUSE_MS = 50
SETTLED_PAUSE_MS = 1000


class SearchBox(QLineEdit):
    """Emits `query_changed(text)` shortly after typing stops, and `query_settled(text)`
    once the person has stopped for a second (the search worth logging)."""

    query_changed = Signal(str)
    query_settled = Signal(str)
    down_pressed = Signal()  # the person wants the results: the list takes the keyboard

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("Search memories  (Ctrl+F)")
        self.setClearButtonEnabled(True)
        self.setMinimumWidth(260)
        self._typing = _single_shot(self, TYPING_PAUSE_MS, self._on_typing_paused)
        self._settling = _single_shot(self, SETTLED_PAUSE_MS, self._on_settled)
        self.textChanged.connect(self._on_text_changed)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            return
        if event.key() == Qt.Key.Key_Down:
            self.down_pressed.emit()
            return
        super().keyPressEvent(event)

    def reset(self) -> None:
        """Empty the box without announcing it (the caller reloads once)."""
        self.blockSignals(True)
        self.clear()
        self.blockSignals(False)
        self._typing.stop()
        self._settling.stop()

    def finish(self) -> None:
        """The window is closing: a search still settling is recorded now, while the database
        is open, and no timer fires afterwards."""
        self._typing.stop()
        if self._settling.isActive():
            self._settling.stop()
            self._on_settled()

    @Slot(str)
    def _on_text_changed(self, _text: str) -> None:
        self._typing.start()
        self._settling.start()

    @Slot()
    def _on_typing_paused(self) -> None:
        self.query_changed.emit(self.text().strip())

    @Slot()
    def _on_settled(self) -> None:
        if self.text().strip():
            self.query_settled.emit(self.text().strip())


def _single_shot(parent: QWidget, interval: int, slot: object) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval)
    timer.timeout.connect(slot)
    return timer
