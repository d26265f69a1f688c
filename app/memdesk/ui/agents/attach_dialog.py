"""Attach memdesk to an agent host from the window: the same plan as `memdesk attach HOST`
(api/attach.py), its diff shown before anything is written, and Detach beside it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.api import attach
from memdesk.ui.ask import warn

NAMES = {
    "claude-code": "Claude Code (MCP and hooks)",
    "cursor": "Cursor",
    "gemini-cli": "Gemini CLI",
    "codex": "Codex CLI",
    "opencode": "opencode",
}


class AttachDialog(QDialog):
    """`socket`: the one this window serves on, when the person chose it (None: the one
    derived from the database, which the host finds by itself)."""

    def __init__(
        self,
        db: Path,
        parent: QWidget | None = None,
        home: Path | None = None,
        socket: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Attach memdesk to an agent host")
        self.resize(760, 520)
        self._db, self._home, self._socket = db, home or Path.home(), socket
        self.host = QComboBox(self)
        for key, name in NAMES.items():
            self.host.addItem(name, key)
        self.host.currentIndexChanged.connect(lambda _: self.refresh())
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.diff = QPlainTextEdit(self)
        self.diff.setReadOnly(True)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.attach_button = QPushButton("&Attach", self)
        self.attach_button.clicked.connect(lambda: self._write(self._attach_plan()))
        self.detach_button = QPushButton("&Detach", self)
        self.detach_button.clicked.connect(lambda: self._write(self._detach_plan()))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        # Enter closes: the dialog reads as a preview, and Enter on it wrote the host's config
        for button in (self.attach_button, self.detach_button):
            button.setAutoDefault(False)
        close.button(QDialogButtonBox.StandardButton.Close).setDefault(True)
        choose = QHBoxLayout()
        choose.addWidget(QLabel("Host:", self))
        choose.addWidget(self.host, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.attach_button)
        buttons.addWidget(self.detach_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(choose)
        layout.addWidget(self.summary)
        layout.addWidget(self.diff, 1)
        layout.addLayout(buttons)
        self.refresh()

    @property
    def host_key(self) -> str:
        return str(self.host.currentData())

    def _attach_plan(self) -> list[attach.Change]:
        return attach.plan_attach(
            self.host_key,
            project=False,
            db=self._db,
            cwd=Path.cwd(),
            home=self._home,
            socket=self._socket,
        )

    def _detach_plan(self) -> list[attach.Change]:
        return attach.plan_detach(self.host_key, project=False, cwd=Path.cwd(), home=self._home)

    def refresh(self) -> None:
        """What Attach would change (or that it is attached already), before any write."""
        try:
            attaching, detaching = self._attach_plan(), self._detach_plan()
        except ValueError as exc:
            self.summary.setText(f"Cannot change this host's file: {exc}")
            self.diff.clear()
            self.attach_button.setEnabled(False)
            self.detach_button.setEnabled(False)
            return
        name = self.host.currentText()
        where = f"{self._db}" + (f", served on {self._socket}" if self._socket else "")
        if attaching:
            files = ", ".join(str(c.path) for c in attaching)
            self.summary.setText(
                f"Attach writes memdesk into {name}'s configuration ({files}); every other "
                f"entry stays. On this database: {where}. Then restart {name}."
                + "".join(f"\n{c.note}" for c in attaching if c.note)
            )
        else:
            self.summary.setText(f"memdesk is attached to {name} on {where}.")
        self.diff.setPlainText("".join(c.diff for c in attaching))
        self.attach_button.setEnabled(bool(attaching))
        self.detach_button.setEnabled(bool(detaching))

    def _write(self, changes: list[attach.Change]) -> None:
        try:
            attach.apply(changes)
        except ValueError as exc:  # a link, another user's file, or changed since shown
            warn(self, "Nothing was written", str(exc))
        self.refresh()
