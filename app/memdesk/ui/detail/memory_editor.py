"""Editing one memory in place: content, tags, kind, layer, project and importance.

The editor remembers the version it was opened on. When someone else (an agent) changes the
memory meanwhile, a banner says so and offers: keep mine, take theirs, or view the diff. When
they remove, retire or purge it, the typed text stays and the banner offers: restore and save,
save as a new memory, or discard. Saving never overwrites silently: it passes that version to
the service.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from superqt import QFlowLayout

from memdesk.core.display import visible
from memdesk.core.rules import KINDS, LAYER_NAMES
from memdesk.ui.ask import confirm
from memdesk.ui.detail.diff_dialog import DiffDialog

BANNER_STYLE = (
    "QFrame#conflict { background: rgba(255, 170, 0, 60); border: 1px solid rgba(255,170,0,160);"
    " border-radius: 4px; }"
)


class MemoryEditor(QWidget):
    """Form for one memory. `save_requested(changes)` carries only the fields that differ;
    `base_version` is the version those changes apply to."""

    save_requested = Signal(dict)
    restore_and_save_requested = Signal(dict)  # changes, to apply after restoring it
    save_as_new_requested = Signal(dict)  # every field of the form
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._record: dict[str, Any] = {}
        self._theirs: dict[str, Any] | None = None
        self.content = QPlainTextEdit(self)
        self.content.setTabChangesFocus(True)  # keyboard-only use: Tab moves to the next field
        self.tags = QLineEdit(self)
        self.tags.setPlaceholderText("comma-separated, e.g. python, style")
        self.kind = QComboBox(self)
        self.kind.addItems(KINDS)
        self.layer = QComboBox(self)
        for key, title in LAYER_NAMES.items():
            self.layer.addItem(f"{key} {title}", key)
        self.project = QLineEdit(self)
        self.importance = QDoubleSpinBox(self)
        self.importance.setRange(0.0, 1.0)
        self.importance.setSingleStep(0.1)
        self.importance.setDecimals(2)
        self.save_button = QPushButton("Save", self)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self._on_save)
        cancel = QPushButton("Cancel", self)
        cancel.clicked.connect(self.cancelled)
        QShortcut(QKeySequence("Ctrl+Return"), self, self._on_save)
        # A line edit takes Return (Ctrl+Return too) for itself: there it saves the form.
        self.tags.returnPressed.connect(self._on_save)
        self.project.returnPressed.connect(self._on_save)
        self.importance.installEventFilter(self)  # its Return only reformatted the number
        QShortcut(QKeySequence("Ctrl+S"), self, self._on_save)
        QShortcut(QKeySequence("Escape"), self, self._on_escape)

        form = QFormLayout()
        form.addRow("Tags", self.tags)
        form.addRow("Kind", self.kind)
        form.addRow("Layer", self.layer)
        form.addRow("Project", self.project)
        form.addRow("Importance", self.importance)
        # Saving an agent's memory makes it the person's, and that agent's next updates are
        # refused: said before the save, not learnt from the agent's errors.
        self.taken_note = QLabel(self)
        self.taken_note.setWordWrap(True)
        self.taken_note.setStyleSheet("color: gray")
        self.taken_note.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QHBoxLayout()
        buttons.addWidget(self.taken_note, 1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self._build_banner())
        layout.addWidget(self.content, 1)
        layout.addLayout(form)
        layout.addLayout(buttons)

    def _build_banner(self) -> QFrame:
        self.banner = QFrame(self)
        self.banner.setObjectName("conflict")
        self.banner.setStyleSheet(BANNER_STYLE)
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.keep_mine = QPushButton("Keep mine", self.banner)
        self.keep_mine.setToolTip("Save the fields you changed over their version")
        self.take_theirs = QPushButton("Take theirs", self.banner)
        self.view_diff = QPushButton("View diff", self.banner)
        self.restore_save = QPushButton("Restore and save", self.banner)
        self.save_new = QPushButton("Save as new memory", self.banner)
        self.discard = QPushButton("Discard", self.banner)
        self.keep_mine.clicked.connect(self._on_keep_mine)
        self.take_theirs.clicked.connect(self._on_take_theirs)
        self.view_diff.clicked.connect(self._on_view_diff)
        self.restore_save.clicked.connect(self._on_restore_and_save)
        self.save_new.clicked.connect(self._on_save_as_new)
        self.discard.clicked.connect(self.cancelled)
        # The text above, its buttons wrapping below: a banner in one row widened the panel
        # (and the window) for good.
        layout = QVBoxLayout(self.banner)
        layout.addWidget(self.banner_label)
        buttons = QFlowLayout()
        for button in self._banner_buttons():
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.banner.hide()
        return self.banner

    def _banner_buttons(self) -> tuple[QPushButton, ...]:
        return (
            self.keep_mine,
            self.take_theirs,
            self.view_diff,
            self.restore_save,
            self.save_new,
            self.discard,
        )

    def _show_banner(self, text: str, *buttons: QPushButton) -> None:
        self.banner_label.setText(text)
        for button in self._banner_buttons():
            button.setVisible(button in buttons)
        self.save_button.setEnabled(False)
        self.banner.show()

    @property
    def base_version(self) -> int:
        return int(self._record.get("version", 0))

    @property
    def record(self) -> dict[str, Any]:
        """The memory as it was when editing started (or as theirs, after "keep mine")."""
        return dict(self._record)

    @property
    def memory_id(self) -> str:
        return str(self._record.get("id", ""))

    def load(self, record: dict[str, Any], *, focus: bool = True) -> None:
        """Fill the form from `record` and forget any conflict."""
        self._record = record
        self._theirs = None
        self.banner.hide()
        self.save_button.setEnabled(True)
        self.content.setPlainText(record["content"])
        self.tags.setText(", ".join(record["tags"]))
        self.kind.setCurrentText(record["kind"])
        self.layer.setCurrentIndex(max(0, self.layer.findData(record["layer"])))
        self.project.setText(record["project"] or "")
        self.importance.setValue(float(record["importance"] or 0.0))
        agent = record.get("agent") if record.get("source") == "agent" else None
        self.taken_note.setText(
            f"Saving makes this memory yours: {visible(agent)} can then only propose changes to it."
            if agent
            else ""
        )
        if focus:
            self.content.setFocus()

    def values(self) -> dict[str, Any]:
        return {
            "content": self.content.toPlainText(),
            "tags": [t.strip() for t in self.tags.text().split(",") if t.strip()],
            "kind": self.kind.currentText(),
            "layer": self.layer.currentData(),
            "project": self.project.text().strip() or None,
            "importance": round(self.importance.value(), 2),
        }

    def changes(self) -> dict[str, Any]:
        return {k: v for k, v in self.values().items() if self._record.get(k) != v}

    def show_conflict(self, theirs: dict[str, Any], who: str) -> None:
        """`who` saved `theirs` while the person was editing: let them choose."""
        self._theirs = theirs
        self._show_banner(
            f"<b>{who}</b> changed this memory while you were editing "
            f"(now version {theirs['version']}, you started from {self.base_version}). "
            "Saving is paused until you choose.",
            self.keep_mine,
            self.take_theirs,
            self.view_diff,
        )

    def show_gone(self, theirs: dict[str, Any] | None, who: str) -> None:
        """`who` removed or retired the memory (`theirs` None: purged) mid-edit. The typed
        text stays; the person chooses what becomes of it."""
        self._theirs = theirs
        if theirs is None:
            what, can_restore = "This memory was deleted permanently", False
        elif theirs["status"] == "deleted":
            what, can_restore = f"<b>{who}</b> moved this memory to the Trash", True
        else:
            what, can_restore = f"<b>{who}</b> retired this memory (corrected or replaced)", True
        buttons = (self.restore_save,) if can_restore else ()
        self._show_banner(
            f"{what} while you were editing. Your text is kept here until you choose.",
            *buttons,
            self.save_new,
            self.discard,
        )

    @Slot()
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if (
            watched is self.importance
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)  # type: ignore[attr-defined]
        ):
            self.importance.interpretText()  # the number typed, not the last one shown
            self._on_save()
            return True
        return super().eventFilter(watched, event)

    def _on_save(self) -> None:
        if self.save_button.isEnabled():
            self.save_requested.emit(self.changes())

    @Slot()
    def _on_keep_mine(self) -> None:
        # Mine now deliberately applies on top of theirs: compare and version against theirs.
        # Only the fields the person changed: the rest of the form still holds the version
        # opened, and "keep mine" after a new tag put an agent's text back six versions.
        assert self._theirs is not None
        mine = self.changes()
        self._record, self._theirs = self._theirs, None
        self.banner.hide()
        self.save_button.setEnabled(True)
        self._on_save_with(mine)

    def _on_save_with(self, mine: dict[str, Any]) -> None:
        self.save_requested.emit({k: v for k, v in mine.items() if self._record.get(k) != v})

    @Slot()
    def _on_restore_and_save(self) -> None:
        assert self._theirs is not None
        mine = self.changes()
        self._record, self._theirs = self._theirs, None
        self.restore_and_save_requested.emit(
            {k: v for k, v in mine.items() if self._record.get(k) != v}
        )

    @Slot()
    def _on_save_as_new(self) -> None:
        self.save_as_new_requested.emit(self.values())

    def has_unsaved_changes(self) -> bool:
        return bool(self._record) and bool(self.changes())

    @Slot()
    def _on_escape(self) -> None:
        # pressed by mistake, it threw typed words away unasked (Cancel says what it does)
        if not self.has_unsaved_changes() or confirm(
            self,
            "Unsaved edit",
            "Discard your unsaved changes?",
            QMessageBox.StandardButton.Discard,
        ):
            self.cancelled.emit()

    @Slot()
    def _on_take_theirs(self) -> None:
        assert self._theirs is not None
        self.load(self._theirs)

    @Slot()
    def _on_view_diff(self) -> None:
        assert self._theirs is not None
        DiffDialog(
            "Their change against yours",
            self.content.toPlainText(),
            self._theirs["content"],
            "Green: in their version only. Struck red: in yours only.",
            self,
        ).exec()
