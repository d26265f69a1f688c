"""Asking the person to confirm an action or acknowledge an error: one way, so every such
question reads alike, and what it quotes (a memory, a file, a remote) shows as plain text."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from memdesk.ui.plain_text import tip

Button = QMessageBox.StandardButton


def confirm(parent: QWidget, title: str, text: str, accept: Button = Button.Yes) -> bool:
    """True when the person chose `accept`; Cancel is the default (Escape and Return)."""
    answer = QMessageBox.question(parent, title, tip(text), accept | Button.Cancel, Button.Cancel)
    return answer == accept


def warn(parent: QWidget | None, title: str, text: str) -> None:
    """An error or warning to acknowledge; `text` may quote a memory, a file or a remote."""
    QMessageBox.warning(parent, title, tip(text))
