"""File ▸ Import: show what a memdesk JSON export would add or change, then apply it.

Nothing is written until the person has seen the plan and pressed Import; a file with
validation errors cannot be imported at all (the import is all-or-nothing).
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk import paths
from memdesk.core import USER, MemoryService, Step, VersionConflict
from memdesk.core.files.applying import nothing_planned
from memdesk.core.files.importing import MAX_IMPORT_BYTES
from memdesk.ui.dialogs.transfer_job import Progress, TransferDialog
from memdesk.ui.plain_text import tip

SHOWN_PER_GROUP = 200  # a plan of 100k rows is summarised, not listed in full
TYPING_PAUSE_MS = 400  # a typed path is looked at once the typing pauses this long
CHOOSE = "Choose a file to see what it would add and change."
_ERROR = re.compile(
    r"^(?P<record>(?:memories|links)\[\d+\](?: \(id [^)]*\))?): "
    r"(?:field (?P<field>[\w.]+): )?(?P<problem>.+)$",
    re.DOTALL,
)


class ImportDialog(TransferDialog):
    """Pick an export file, review the plan and its errors, import with progress.

    After a successful import `applied` holds the service's result (`added`, `changed`,
    `unchanged`, `ids` of the added memories) so the window can push an undo command.
    """

    imported = Signal(dict)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(service, "Import", parent)
        self.setWindowTitle("Import memories")
        self.resize(640, 460)
        self.applied: dict[str, Any] | None = None
        self.step: Step | None = None  # what the import did, for the window's undo
        self.plan: dict[str, Any] | None = None
        self._text = ""
        self._titles: dict[str, str] = {}
        self.action_button.setEnabled(False)

        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("A JSON file exported from memdesk: type or paste a path")
        self.path_edit.installEventFilter(self)
        # Only Enter read a typed path: a person who typed or pasted one and waited saw
        # nothing, with no word whether the path was even right.
        self._typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._on_typing_paused)
        self.path_edit.textEdited.connect(lambda _text: self._typing.start())
        self._refocus_path = False
        self.choose_button = QPushButton("Choose…")
        self.choose_button.setAutoDefault(False)  # Enter opened the file chooser, not the action
        self.choose_button.clicked.connect(self._on_choose_clicked)
        self.summary = QLabel(CHOOSE)
        self.summary.setTextFormat(Qt.TextFormat.RichText)  # a path is escaped into it
        self.summary.setWordWrap(True)
        self.plan_tree = _tree(["Memory"])
        self.plan_tree.setHeaderHidden(True)
        self.error_list = _tree(["Record", "Field", "Problem"])
        self.plan_tree.hide()
        self.error_list.hide()

        file_row = QHBoxLayout()
        file_row.addWidget(QLabel("File:"))
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.choose_button)
        layout = QVBoxLayout(self.form)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(file_row)
        layout.addWidget(self.summary)
        layout.addWidget(self.plan_tree, 1)
        layout.addWidget(self.error_list, 1)
        # Opened from the keyboard (Ctrl+Shift+I), the path is what the person types next: the
        # focus sat on Cancel, so the typed path went nowhere and Enter closed the dialog.
        self.path_edit.setFocus()

    # -- choosing and planning -------------------------------------------------------------

    @Slot()
    def _on_choose_clicked(self) -> None:
        path, _selected = QFileDialog.getOpenFileName(
            self, "Import memories", str(Path.home()), "memdesk export (*.json);;All files (*)"
        )
        if path:
            self.load(Path(path))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Enter in the path field reads that file; the dialog took it for Cancel (the
        default button, Import, waits for a file)."""
        if (
            watched is self.path_edit
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self._typing.stop()
            if typed := self.path_edit.text().strip():
                self.load(Path(typed).expanduser())
            return True
        return super().eventFilter(watched, event)

    @Slot()
    def _on_typing_paused(self) -> None:
        """The typed path, read once it names a file; until then, what is wrong with it."""
        typed = self.path_edit.text().strip()
        path = Path(typed).expanduser()
        if typed and path.is_file():
            self._refocus_path = self.path_edit.hasFocus()  # reading locks the field
            self._read(path)
            return
        self._forget_plan()
        self.summary.setText(CHOOSE if not typed else _not_found(path))

    def load(self, path: Path) -> None:
        """Read and check `path` in the background, then show the plan."""
        self.path_edit.setText(str(path))
        self._read(path)

    def _forget_plan(self) -> None:
        self.plan, self._text, self._titles = None, "", {}
        self.plan_tree.hide()
        self.error_list.hide()
        self.action_button.setEnabled(False)

    def _read(self, path: Path) -> None:
        self._forget_plan()
        service = self.service

        def work(_progress: Progress) -> tuple[str, dict[str, Any], dict[str, str]]:
            if not path.is_file():  # a folder, or a FIFO that would never end
                return "", _file_error(f"{path} is not a file; choose a memdesk export"), {}
            try:
                text = paths.read_regular_file(path, MAX_IMPORT_BYTES).decode("utf-8")
            except paths.NotAFile as exc:  # too large, or memdesk's own open database
                return "", _file_error(f"{exc}; choose a memdesk export"), {}
            except UnicodeDecodeError:
                return "", _file_error("the file is not UTF-8 text; is it a memdesk export?"), {}
            except OSError as exc:
                return "", _file_error(f"cannot read {path}: {exc.strerror or exc}"), {}
            plan = service.plan_import(text)
            return text, plan, {} if plan["errors"] else _titles(text)

        self.start_job(work, self._on_plan_ready, f"Checking {path.name}…")

    @Slot(object)
    def _on_plan_ready(self, result: tuple[str, dict[str, Any], dict[str, str]]) -> None:
        self._text, self.plan, titles = result
        self._titles = titles
        self.show_status("")
        if not_an_export := _file_problem(self.plan["errors"]):
            self.summary.setText(
                f"<b>Nothing can be imported from this file:</b> {escape(not_an_export)}"
            )
        elif self.plan["errors"]:
            self._show_errors(self.plan["errors"])
        else:
            self._show_plan(self.plan, titles)

    def _show_errors(self, errors: list[str]) -> None:
        self.summary.setText(
            f"<b>The file has {len(errors):,} problem{'s' if len(errors) != 1 else ''}.</b> "
            "Nothing can be imported until the file is fixed."
        )
        self.error_list.clear()
        for error in errors:
            found = _ERROR.match(error)
            record, field, problem = (
                found.group("record", "field", "problem") if found else ("file", "", error)
            )
            item = QTreeWidgetItem([_short_record(record), field or "", problem])
            for column in range(3):
                item.setToolTip(column, tip(error))
            self.error_list.addTopLevelItem(item)
        self.error_list.show()

    def _show_plan(self, plan: dict[str, Any], titles: dict[str, str]) -> None:
        added, changed, unchanged = plan["added"], plan["changed"], plan["unchanged"]
        older, private = plan.get("older", []), plan.get("kept_private", [])
        if not added and not changed:
            said = f"all {unchanged:,} memories in the file are already here, unchanged."
            if older or private:
                said = _left_alone(len(older), len(private), unchanged)
            self.summary.setText(f"<b>Nothing to import:</b> {said}")
            return
        parts = []
        if added:
            parts.append(f"<b>{_memories(len(added))} will be added.</b>")
        if changed:
            parts.append(
                f"<b>{_memories(len(changed))} will change</b> "
                "(the current text stays in their history)."
            )
        if yours := plan.get("changed_your_words", []):
            parts.append(f"<b>Of them, {_memories(len(yours))} of your own.</b>")
        if profile := plan.get("identity_lines", []):
            lines = "line" if len(profile) == 1 else "lines"
            parts.append(
                f"<b>{len(profile):,} {lines} of your identity profile</b>, given in full to "
                "every agent session, in your name."
            )
        if older:
            parts.append(
                f"{_memories(len(older))} older than here, left as they are (a later version "
                "of each is kept)."
            )
        if private:
            them, are = ("it", "is") if len(private) == 1 else ("them", "they are")
            parts.append(
                f"{_memories(len(private))} kept private, left as {are} (the file would share "
                f"{them}; share {them} from the detail first if you mean to)."
            )
        if unchanged:
            parts.append(f"{_memories(unchanged)} already here, unchanged.")
        self.summary.setText(" ".join(parts))
        self.plan_tree.clear()
        yours = set(plan.get("changed_your_words", []))
        for heading, ids in (
            ("Will be added", added),
            ("Will change your own", [i for i in changed if i in yours]),
            ("Will change", [i for i in changed if i not in yours]),
            ("Kept private, left as they are", private),
        ):
            if ids:
                self.plan_tree.addTopLevelItem(_group(f"{heading} ({len(ids):,})", ids, titles))
        self.plan_tree.expandAll()
        self.plan_tree.show()

    # -- importing -------------------------------------------------------------------------

    def _on_action_clicked(self) -> None:
        text, service, shown = self._text, self.service, self.plan

        def work(progress: Progress) -> tuple[dict[str, Any], Step] | dict[str, Any]:
            try:
                # recorded on the worker thread that runs it, so the window can undo it exactly
                return service.record(
                    lambda: service.import_json(text, progress=progress, actor=USER, expected=shown)
                )
            except VersionConflict as exc:
                return exc.data["plan"]  # what importing does now: shown, not done

        self.start_job(work, self._on_import_done, "Importing…")

    @Slot(object)
    def _on_import_done(self, result: tuple[dict[str, Any], Step] | dict[str, Any]) -> None:
        if isinstance(result, dict):
            self.plan = result
            self._show_plan(result, self._titles)
            self.show_status(
                "Nothing was imported: the store changed since the preview (an agent or a "
                "sync). Above is what importing does now; import again to apply it.",
                error=True,
            )
            return
        self.applied, self.step = result
        self.imported.emit(self.applied)
        self.accept()

    def job_ended(self) -> None:
        super().job_ended()
        if self._refocus_path:  # typing goes on where it was
            self._refocus_path = False
            self.path_edit.setFocus()
        plan = self.plan
        ready = plan is not None and not plan["errors"] and bool(plan["added"] or plan["changed"])
        self.action_button.setEnabled(ready)


def _tree(headers: list[str]) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setHeaderLabels(headers)
    tree.setRootIsDecorated(len(headers) == 1)
    tree.setAlternatingRowColors(len(headers) > 1)
    tree.setWordWrap(True)
    header = tree.header()
    header.setStretchLastSection(True)
    for column in range(len(headers) - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return tree


def _group(heading: str, ids: list[str], titles: dict[str, str]) -> QTreeWidgetItem:
    group = QTreeWidgetItem([heading])
    bold = QFont(group.font(0))
    bold.setBold(True)
    group.setFont(0, bold)
    for memory_id in ids[:SHOWN_PER_GROUP]:
        child = QTreeWidgetItem([titles.get(memory_id, memory_id)])
        child.setToolTip(0, tip(memory_id))
        group.addChild(child)
    if len(ids) > SHOWN_PER_GROUP:
        group.addChild(QTreeWidgetItem([f"… and {len(ids) - SHOWN_PER_GROUP:,} more"]))
    return group


def _left_alone(older: int, private: int, unchanged: int) -> str:
    parts = [
        f"{_memories(older)} older than here (a later version of each is kept)" if older else "",
        f"{_memories(private)} kept private here (the file would share them)" if private else "",
        f"{_memories(unchanged)} unchanged" if unchanged else "",
    ]
    return "; ".join(part for part in parts if part) + "."


def _memories(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"


def _short_record(record: str) -> str:
    """`memories[2] (id 3732…-full-uuid)` -> `memories[2] · 37327fae`: the index is what
    a person looks up in the file; the full id stays in the tooltip."""
    index, _sep, rest = record.partition(" (id ")
    return f"{index} · {rest[:8]}" if rest else index


def _not_found(path: Path) -> str:
    if not path.exists():
        return f"There is no file at {escape(str(path))}."
    if path.is_dir():
        return f"{escape(str(path))} is a folder, not a file: choose a memdesk export in it."
    # a device or a pipe (/dev/zero, a FIFO) is never read: it may not end
    return f"{escape(str(path))} is not a file; choose a memdesk export."


def _file_problem(errors: list[str]) -> str | None:
    """The problem of a file that is not an export at all (not JSON, not memdesk's, not a
    file): said as that, not as records to fix. None when the errors are its records'."""
    if len(errors) == 1 and not _ERROR.match(errors[0]):
        return errors[0]
    return None


def _file_error(message: str) -> dict[str, Any]:
    return nothing_planned([message])


def _titles(text: str) -> dict[str, str]:
    """The first line of each memory in a file the service already found valid."""
    memories = json.loads(text).get("memories", [])
    return {
        str(m["id"]).lower(): m["content"].strip().splitlines()[0][:120]
        for m in memories
        if isinstance(m, dict) and m.get("content", "").strip()
    }
