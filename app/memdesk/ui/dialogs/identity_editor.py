"""The identity (L0) editor: the whole profile as Markdown, a live size counter, a preview.

Identity is what every agent reads first, so it has a hard size limit. The counter turns amber
near the limit and red over it; Save is disabled over it, with a message saying how much to cut.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService, Step, VersionConflict
from memdesk.ui.ask import confirm, warn
from memdesk.ui.detail.diff_dialog import DiffDialog
from memdesk.ui.detail.markdown_view import SafeBrowser, render_markdown

NEAR_LIMIT = 0.9
AMBER, RED = "#d48806", "#d4380d"


class IdentityEditor(QDialog):
    """Edits and saves the profile. After `accept()`, `step` is what the save changed (for
    the window's undo stack; None if nothing) and `after` the profile as saved."""

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Identity (L0)")
        self.resize(900, 560)
        self._service = service
        profile = service.identity()
        self._limit = int(profile["limit"])
        self.before = profile["text"]
        self.after = profile["text"]
        self.ids: list[str] = list(profile["ids"])
        self.step: Step | None = None  # what the save did, for the window's undo
        intro = QLabel(
            "Who you are and how you like to work: every agent reads this first. "
            "Markdown; keep it short.",
            self,
        )
        intro.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setPlainText(profile["text"])
        # a tab in a profile line means nothing to an agent; Tab reaches Save and Cancel
        self.text.setTabChangesFocus(True)
        self.preview = SafeBrowser(self)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.text)
        splitter.addWidget(self.preview)
        self.counter = QLabel(self)
        self.message = QLabel(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self._on_save)
        self.buttons.rejected.connect(super().reject)  # Cancel says it discards
        self.save_button.setToolTip("Save (Ctrl+Enter, Ctrl+S)")
        # Enter makes a new line in the text, so saving takes Ctrl (as the memory editor's);
        # the text box would take Ctrl+Enter for itself, so the keys are read before it.
        self.text.installEventFilter(self)
        footer = QHBoxLayout()
        footer.addWidget(self.counter)
        footer.addWidget(self.message, 1)
        footer.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(splitter, 1)
        layout.addLayout(footer)
        self.text.textChanged.connect(self._on_text_changed)
        self._on_text_changed()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.text and event.type() == QEvent.Type.KeyPress and _saves(event):
            if self.save_button.isEnabled():
                self._on_save()
            return True
        return super().eventFilter(watched, event)

    def reject(self) -> None:
        """Escape, or the title bar's close: what was typed is not thrown away unasked."""
        if self.text.toPlainText() == self.before or confirm(
            self,
            "Unsaved profile",
            "Discard your changes to the profile?",
            QMessageBox.StandardButton.Discard,
        ):
            super().reject()

    def size_used(self) -> int:
        """The profile's size as it will be saved (blank lines between entries are not)."""
        return self._service.identity_size(self.text.toPlainText())

    @Slot()
    def _on_text_changed(self) -> None:
        size = self.size_used()
        color = RED if size > self._limit else AMBER if size >= NEAR_LIMIT * self._limit else ""
        style = f"color: {color}; font-weight: 600" if color else ""
        self.counter.setText(f"<span style='{style}'>{size:,} / {self._limit:,}</span>")
        over = size - self._limit
        self.save_button.setEnabled(over <= 0)
        self.message.setText(
            f"<span style='color: {RED}'>Over the limit: cut {over:,} "
            f"character{'s' if over != 1 else ''} to save.</span>"
            if over > 0
            else ""
        )
        self.preview.setHtml(render_markdown(self.text.toPlainText(), by_line=True))

    @Slot()
    def _on_save(self) -> None:
        mine = self.text.toPlainText()
        current = self._service.identity()
        if current["text"] != self.before or current["ids"] != self.ids:
            if not self._resolve_conflict(mine, current["text"]):
                return
            self.before, self.ids = current["text"], list(current["ids"])
        try:
            saved, step = self._service.record(
                lambda: self._service.set_identity(mine, expected=self.ids)
            )
        except VersionConflict:
            self._on_save()  # changed again between our check and the write: ask again
            return
        except MemdeskError as exc:
            warn(self, "Identity not saved", exc.message)
            return
        self.after, self.ids = saved["text"], list(saved["ids"])
        self.step = None if step.empty else step
        self.accept()

    def _resolve_conflict(self, mine: str, theirs: str) -> bool:
        """The profile changed while it was open (a sync from another machine, the CLI). True
        means save mine anyway."""
        while (choice := self.ask_conflict()) == "diff":
            DiffDialog(
                "Their profile against yours",
                mine,
                theirs,
                "Green: in their version only. Struck red: in yours only.",
                self,
            ).exec()
        if choice == "take":
            self._take(theirs)
        return choice == "keep"

    def ask_conflict(self) -> str:
        """Ask keep mine / take theirs / view diff: "keep", "take", "diff" or "cancel"."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Identity changed meanwhile")
        box.setText(
            "Your identity profile changed while you were editing it (a sync from another "
            "machine, or the command line)."
        )
        box.setInformativeText("Keep your text, take theirs, or look at the difference.")
        keep = box.addButton("Keep mine", QMessageBox.ButtonRole.AcceptRole)
        take = box.addButton("Take theirs", QMessageBox.ButtonRole.DestructiveRole)
        diff = box.addButton("View diff", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        choices = {id(keep): "keep", id(take): "take", id(diff): "diff"}
        return choices.get(id(box.clickedButton()), "cancel")

    def _take(self, theirs: str) -> None:
        current = self._service.identity()
        self.before, self.ids = current["text"], list(current["ids"])
        self.text.setPlainText(theirs)


def _saves(event: QKeyEvent) -> bool:
    """Ctrl+Enter (either Enter key) or Ctrl+S."""
    ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
    return bool(ctrl) and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_S)
