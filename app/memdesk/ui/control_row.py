"""Rows of controls above a view that wrap onto a second line in a narrow window rather than
widen it (a window of 1,024 pixels must show every control whole)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget
from superqt import QFlowLayout


def wrapping_row(*widgets: QWidget) -> QFlowLayout:
    row = QFlowLayout()
    row.setHorizontalSpacing(6)
    row.setVerticalSpacing(4)
    for widget in widgets:
        row.addWidget(widget)
    return row


def kept_together(parent: QWidget, *parts: QWidget | str) -> QWidget:
    """Parts that wrap as one (a label and its box); a text becomes a label."""
    group = QWidget(parent)
    layout = QHBoxLayout(group)
    layout.setContentsMargins(0, 0, 0, 0)
    for part in parts:
        layout.addWidget(QLabel(part, group) if isinstance(part, str) else part)
    return group
