"""A memory's History tab: every version, what changed against the one before, and Restore."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from memdesk.ui.detail.diff_dialog import diff_html
from memdesk.ui.detail.markdown_view import SafeBrowser
from memdesk.ui.list.memory_table_model import short_time

FIELDS_SHOWN = ("layer", "kind", "tags", "project", "task", "importance", "status")


class HistoryView(QWidget):
    """Lists versions newest first; `restore_requested(version)` asks to make one current."""

    restore_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._versions: list[dict[str, Any]] = []
        self._memory_id = ""
        self.versions = QListWidget(self)
        self.diff = SafeBrowser(self)
        self.restore_button = QPushButton("Restore this version", self)
        self.restore_button.setEnabled(False)
        self.restore_button.clicked.connect(self._on_restore)
        self.versions.currentRowChanged.connect(self._on_version_chosen)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.versions)
        splitter.addWidget(self.diff)
        splitter.setSizes([140, 260])
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.restore_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)

    def load(self, versions: list[dict[str, Any]], memory_id: str = "") -> None:
        """`versions` of `memory_id` as `service.history` returns them: oldest first. The
        version the person picked stays picked when the same memory's history grows (an
        agent writing every second took it away before it could be read or restored)."""
        picked = self._entry(self.versions.currentRow())
        keep = memory_id == self._memory_id and picked is not None and self.versions.currentRow()
        self._memory_id = memory_id
        self._versions = versions
        self.versions.clear()
        for entry in reversed(versions):
            reason = f" — {entry['reason']}" if entry.get("reason") else ""
            text = (
                f"v{entry['version']}  {entry['change']} by {entry['by']}, "
                f"{short_time(entry['at'])}{reason}"
            )
            QListWidgetItem(text, self.versions)
        numbers = [entry["version"] for entry in reversed(versions)]
        if keep and picked["version"] in numbers:
            self.versions.setCurrentRow(numbers.index(picked["version"]))
        else:
            self.versions.setCurrentRow(0 if versions else -1)

    def _entry(self, row: int) -> dict[str, Any] | None:
        index = len(self._versions) - 1 - row
        return self._versions[index] if 0 <= index < len(self._versions) else None

    @Slot(int)
    def _on_version_chosen(self, row: int) -> None:
        entry = self._entry(row)
        self.restore_button.setEnabled(entry is not None and row > 0)
        if entry is None:
            self.diff.clear()
            return
        before = self._entry(row + 1)
        self.diff.setHtml(_describe(entry, before))

    @Slot()
    def _on_restore(self) -> None:
        entry = self._entry(self.versions.currentRow())
        if entry is not None:
            self.restore_requested.emit(int(entry["version"]))


def _describe(entry: dict[str, Any], before: dict[str, Any] | None) -> str:
    parts = []
    if before is None:
        parts.append("<p><i>First version.</i></p>")
        parts.append(diff_html(entry["content"], entry["content"]))
    else:
        for name in FIELDS_SHOWN:
            if before.get(name) != entry.get(name):
                old, new = _shown(before.get(name)), _shown(entry.get(name))
                parts.append(f"<p><b>{name}</b>: {old} → {new}</p>")
        if before["content"] != entry["content"]:
            parts.append(diff_html(before["content"], entry["content"]))
        else:
            parts.append("<p><i>Content unchanged.</i></p>")
    return "".join(parts)


def _shown(value: Any) -> str:
    """A field's value as a person reads it: tags as words, not a Python list."""
    if isinstance(value, list | tuple):
        return html.escape(", ".join(map(str, value))) if value else "<i>none</i>"
    return "<i>none</i>" if value is None else html.escape(str(value))
