"""The New Memory dialog: the same form as Edit (content, tags, kind, layer, project,
importance), submitted with Ctrl+Enter as well as the Save button. It stays open until the
memory is saved: a save refused (a full identity, a busy database) keeps what was typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialog, QMessageBox, QVBoxLayout, QWidget

from memdesk.ui.ask import confirm
from memdesk.ui.detail.memory_editor import MemoryEditor

Submit = Callable[[dict[str, Any]], bool]


class NewMemoryDialog(QDialog):
    """Asks for a new memory and hands it to `submit`, which saves it (True) or has shown why
    it could not (False: the dialog stays open with what was typed)."""

    def __init__(
        self, layer: str, project: str | None, submit: Submit, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New memory")
        self.resize(560, 380)
        self._submit = submit
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
        if values["content"].strip() and self._submit(values):
            self.accept()

    @classmethod
    def ask(cls, parent: QWidget, layer: str, project: str | None, submit: Submit) -> bool:
        """Whether a memory was submitted and saved (False when the person cancelled)."""
        return bool(cls(layer, project, submit, parent).exec())  # exec() gives 1 on accept
