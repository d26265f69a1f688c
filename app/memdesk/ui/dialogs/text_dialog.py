"""Asking for a memory's text: a box as wide as a memory reads, wrapping its lines, growing
with the dialog, and Ctrl+Enter to accept (Enter makes a new line). QInputDialog's own
multi-line box was small and did not wrap: a paragraph ran off to the right. Tab moves on to
the buttons, and closing with the text changed asks first, as the other editors do."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from memdesk.ui.ask import Button, confirm


class TextDialog(QDialog):
    def __init__(self, parent: QWidget | None, title: str, label: str, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(640, 320)
        prompt = QLabel(label, self)
        prompt.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setPlainText(text)
        self.text.setTabChangesFocus(True)
        self.text.installEventFilter(self)
        self._given = text
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setToolTip("Ctrl+Enter")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(prompt)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.text and event.type() == QEvent.Type.KeyPress:
            key = QKeyEvent(event)
            ctrl = key.modifiers() & Qt.KeyboardModifier.ControlModifier
            if ctrl and key.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.accept()
                return True
        return super().eventFilter(watched, event)

    def reject(self) -> None:
        """Escape, Cancel or the title bar: words the person changed are not dropped unasked."""
        if self.text.toPlainText() == self._given or confirm(
            self, self.windowTitle(), "Discard your changes to the text?", Button.Discard
        ):
            super().reject()


def ask_text(parent: QWidget | None, title: str, label: str, text: str) -> tuple[str, bool]:
    """The text the person wrote and whether they accepted, as QInputDialog answers."""
    dialog = TextDialog(parent, title, label, text)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return dialog.text.toPlainText(), accepted
