"""The New Memory dialog: the same form as Edit (content, tags, kind, layer, project,
importance), submitted with Ctrl+Enter as well as the Save button."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialog, QMessageBox, QVBoxLayout, QWidget

from memdesk.ui.ask import confirm
from memdesk.ui.detail.memory_editor import MemoryEditor


class NewMemoryDialog(QDialog):
    """Asks for a new memory; after `exec()` returns Accepted, `fields` holds it."""

    def __init__(self, layer: str, project: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New memory")
        self.resize(560, 380)
        self.fields: dict[str, Any] = {}
        self.editor = MemoryEditor(self)
        self.editor.load(
            {
                "content": "",
                "tags": [],
                "kind": "fact",
                "layer": layer,
                "project": project,
                "importance": 0.5,
                "version": 0,
            }
        )
        self.editor.content.setPlaceholderText("What should be remembered?  (Ctrl+Enter saves)")
        self.editor.save_requested.connect(self._on_save)
        self.editor.cancelled.connect(super().reject)  # Cancel, or Escape and "Discard"
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.editor)

    def reject(self) -> None:
        """Closed by its title bar: what was typed is not thrown away unasked."""
        if not self.editor.has_unsaved_changes() or confirm(
            self, "Unsaved memory", "Discard this new memory?", QMessageBox.StandardButton.Discard
        ):
            super().reject()

    @Slot(dict)
    def _on_save(self, _changes: dict) -> None:
        values = self.editor.values()
        if values["content"].strip():
            self.fields = values
            self.accept()

    @classmethod
    def ask(cls, parent: QWidget, layer: str, project: str | None) -> dict[str, Any] | None:
        """The new memory's fields, or None when the person cancelled."""
        dialog = cls(layer, project, parent)
        return dialog.fields if dialog.exec() else None  # exec() gives 1 (an int) on accept
