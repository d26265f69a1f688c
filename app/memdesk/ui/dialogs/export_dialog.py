"""File ▸ Export: memories to a JSON or Markdown file, on a worker thread with progress."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from memdesk import paths, whole_file
from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.ask import confirm
from memdesk.ui.dialogs.transfer_job import JobCancelled, Progress, TransferDialog

FORMATS = {  # format -> (label, file suffix, file dialog filter)
    "json": ("JSON: complete, with history; can be imported again", ".json", "JSON (*.json)"),
    "markdown": ("Markdown: a readable document", ".md", "Markdown (*.md)"),
}


class ExportDialog(TransferDialog):
    """Choose a format, which memories (all / the selection / what the list shows) and a file.

    `ids` is the window's selection and `filters` what its list shows (as for
    `service.list_memories`: its view and chips, or the ids a search found); either may be
    None, which disables that choice.
    """

    exported = Signal(str, int)  # file path, number of memories

    def __init__(
        self,
        service: MemoryService,
        ids: Sequence[str] | None = None,
        filters: dict[str, Any] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(service, "Export", parent)
        self.setWindowTitle("Export memories")
        self.setMinimumWidth(520)
        self.exported_path: str | None = None
        self._scopes: dict[str, dict[str, Any]] = {"all": {}}
        if ids:
            self._scopes["selection"] = {"ids": list(ids), "status": None}
        if filters is not None:
            # The list shows active memories unless a view says otherwise; export counts
            # every status unless told, which offered "(12)" beside a list of 10.
            self._scopes["filter"] = {"status": "active", **filters}

        self.format_buttons = self._radio_group(
            {key: label for key, (label, _suffix, _filter) in FORMATS.items()}
        )
        self.scope_buttons = self._radio_group(
            {
                "all": f"All memories, retired and Trash included ({self._count('all')})",
                "selection": f"The selection ({len(ids or ())})",
                "filter": f"The memories the list shows ({self._count('filter')})",
            }
        )
        for key, button in self.scope_buttons.items():
            button.setEnabled(key in self._scopes)
        # One selected row is just where the cursor is, not a choice of what to export.
        several = len(ids or ()) > 1
        preferred = next(
            s
            for s in ("selection", "filter", "all")
            if s in self._scopes and (several or s != "selection")
        )
        self.scope_buttons[preferred].setChecked(True)
        self.format_buttons["json"].setChecked(True)

        self.path_edit = QLineEdit(str(_default_path(".json")))
        self.path_edit.textChanged.connect(self._on_path_changed)
        self.choose_button = QPushButton("Choose…")
        self.choose_button.setAutoDefault(False)  # Enter opened the file chooser, not the action
        self.choose_button.clicked.connect(self._on_choose_clicked)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.choose_button)

        form = QFormLayout(self.form)
        form.setVerticalSpacing(12)
        form.addRow("Format:", _stacked(self.format_buttons.values()))
        form.addRow("Memories:", _stacked(self.scope_buttons.values()))
        form.addRow("Save to:", path_row)
        for button in self.format_buttons.values():
            button.toggled.connect(self._on_format_toggled)
        # Focus left on Cancel, Enter closed the dialog with nothing exported and no word; on
        # the path, Enter exports (the default button) and what is typed names the file.
        self.path_edit.setFocus()

    def confirm_overwrite(self, path: Path) -> bool:
        return confirm(
            self, "Replace file?", f"{path.name} already exists in {path.parent}. Replace it?"
        )

    def _radio_group(self, labels: dict[str, str]) -> dict[str, QRadioButton]:
        group = QButtonGroup(self)
        buttons = {key: QRadioButton(label) for key, label in labels.items()}
        for button in buttons.values():
            group.addButton(button)
        return buttons

    def _count(self, scope: str) -> str:
        if scope not in self._scopes:
            return "none"
        try:
            return f"{self.service.count(**{'status': None, **self._scopes[scope]}):,}"
        except MemdeskError:
            return "?"

    def chosen(self, buttons: dict[str, QRadioButton]) -> str:
        return next(key for key, button in buttons.items() if button.isChecked())

    # -- slots -----------------------------------------------------------------------------

    @Slot(bool)
    def _on_format_toggled(self, checked: bool) -> None:
        if not checked:
            return
        suffix = FORMATS[self.chosen(self.format_buttons)][1]
        path = Path(self.path_edit.text())
        if path.suffix in {s for _label, s, _filter in FORMATS.values()}:
            self.path_edit.setText(str(path.with_suffix(suffix)))

    @Slot()
    def _on_choose_clicked(self) -> None:
        _label, _suffix, file_filter = FORMATS[self.chosen(self.format_buttons)]
        path, _selected = QFileDialog.getSaveFileName(
            self, "Export memories", self.path_edit.text(), file_filter
        )
        if path:
            self.path_edit.setText(path)

    @Slot(str)
    def _on_path_changed(self, text: str) -> None:
        self.action_button.setEnabled(bool(text.strip()))

    def _on_action_clicked(self) -> None:
        path = Path(self.path_edit.text().strip()).expanduser()
        if not path.parent.is_dir():
            self.show_status(f"The folder {path.parent} does not exist.", error=True)
            return
        try:  # renamed over the open store, the export would replace every memory
            paths.refuse_open_database(path)
        except paths.NotAFile as exc:
            self.show_status(f"{exc}; choose another file.", error=True)
            return
        if path.exists() and not self.confirm_overwrite(path):
            return
        fmt = self.chosen(self.format_buttons)
        filters = self._scopes[self.chosen(self.scope_buttons)]
        service = self.service

        def work(progress: Progress) -> tuple[str, int]:
            seen = {"total": 0}

            def report(done: int, total: int) -> bool:
                seen["total"] = total
                return progress(done, total)

            text = service.export(fmt, progress=report, **filters)
            if not progress(seen["total"], seen["total"]):
                raise JobCancelled
            with whole_file.writing(path) as out:
                out.write(text)
            return str(path), seen["total"]

        self.start_job(work, self._on_export_succeeded, f"Exporting to {path.name}…")

    @Slot(object)
    def _on_export_succeeded(self, result: tuple[str, int]) -> None:
        path, count = result
        self.exported_path = path
        self.show_status(f"Exported {count:,} memories to {path}.")
        self.exported.emit(path, count)
        self.accept()

    def job_ended(self) -> None:
        super().job_ended()
        self.action_button.setEnabled(bool(self.path_edit.text().strip()))


def _stacked(buttons: Any) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for button in buttons:
        layout.addWidget(button)
    return box


def _default_path(suffix: str) -> Path:
    return Path.home() / f"memdesk-export-{dt.date.today().isoformat()}{suffix}"
