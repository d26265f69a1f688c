"""Asking the person to confirm an action: one way, so every such question reads alike."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

Button = QMessageBox.StandardButton


def confirm(parent: QWidget, title: str, text: str, accept: Button = Button.Yes) -> bool:
    """True when the person chose `accept`; Cancel is the default (Escape and Return)."""
    answer = QMessageBox.question(parent, title, text, accept | Button.Cancel, Button.Cancel)
    return answer == accept
