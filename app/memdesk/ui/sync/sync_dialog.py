"""File ▸ Sync…: where this database syncs, how the last sync went, Sync Now, and a form to
set up a remote (the person's own, or a team's for some projects) — as `memdesk sync`."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.sync.report import count
from memdesk.ui.sync.sync_control import SyncControl
from memdesk.ui.sync.sync_preview import SyncPreview, described

INTRO = (
    "Sync keeps this database's shared memories in a git repository, so your other machines "
    "(or your team) get them and you get theirs. Private memories, memories held back from "
    "agents, sessions and observations never leave this machine. When two machines changed "
    "the same memory, the Inbox asks which to keep."
)


class SyncDialog(QDialog):
    def __init__(self, service: MemoryService, control: SyncControl, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Sync")
        self.resize(640, 640)
        self._service, self._control = service, control
        intro = QLabel(INTRO, self)
        intro.setWordWrap(True)
        self.remotes = QLabel(self)
        self.remotes.setWordWrap(True)
        self.remotes.setTextFormat(self.remotes.textFormat().RichText)
        self.sync_now = QPushButton("&Sync Now", self)
        self.sync_now.clicked.connect(self._sync_now)
        self.preview = QPushButton("Pre&view", self)
        self.preview.setToolTip("Say what a sync would send, take and ask, changing nothing")
        self.preview.clicked.connect(self._preview)
        self.would = QLabel(self)
        self.would.setWordWrap(True)
        self.would.setTextFormat(self.would.textFormat().PlainText)
        self._previewing = SyncPreview(service, self)
        self._previewing.done.connect(self._previewed)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020;")
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("/media/usb/memories.git, me@host:memories.git or https://…")
        self.branch = QLineEdit(self)
        self.branch.setPlaceholderText("main")
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("origin")
        self.projects = QLineEdit(self)
        self.projects.setPlaceholderText("empty: your own memories; or the team's projects, a, b")
        self.set_up = QPushButton("Set &Up", self)
        self.set_up.clicked.connect(self._set_up)
        form = QFormLayout()
        form.addRow("&Remote:", self.url)
        form.addRow("&Branch:", self.branch)
        form.addRow("&Name:", self.name)
        form.addRow("Team &projects:", self.projects)
        form.addRow("", self.set_up)
        adding = QGroupBox("Add a remote", self)
        adding.setLayout(form)
        self.local = QLineEdit(self)
        self.local.setPlaceholderText("projects that never leave this machine: a, b")
        self.save_local = QPushButton("Sa&ve", self)
        self.save_local.clicked.connect(self._save_local)
        keep_form = QFormLayout()
        keep_form.addRow("&Projects:", self.local)
        keep_form.addRow("", self.save_local)
        keep = QGroupBox("Kept on this machine only", self)
        keep.setLayout(keep_form)
        self.met = QComboBox(self)  # plain text: the names come from a remote
        self.trust = QPushButton("It's &Mine", self)
        self.trust.setToolTip(
            "This writer is one of your machines: its memories count as yours and its identity "
            "lines are taken at the next sync"
        )
        self.trust.clicked.connect(self._trust)
        met_row = QHBoxLayout()
        met_row.addWidget(self.met, 1)
        met_row.addWidget(self.trust)
        met_note = QLabel(
            "Wrote to your own remote, not confirmed as one of your machines: its memories are "
            "shown as its own words and its identity lines wait.",
            self,
        )
        met_note.setWordWrap(True)
        met_layout = QVBoxLayout()
        met_layout.addWidget(met_note)
        met_layout.addLayout(met_row)
        self.unconfirmed = QGroupBox("Writers met", self)
        self.unconfirmed.setLayout(met_layout)
        now = QHBoxLayout()
        now.addWidget(self.sync_now)
        now.addWidget(self.preview)
        now.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.remotes)
        layout.addLayout(now)
        layout.addWidget(self.would)
        layout.addWidget(self.error)
        layout.addWidget(self.unconfirmed)
        layout.addWidget(adding)
        layout.addWidget(keep)
        layout.addStretch(1)
        layout.addWidget(close)
        control.finished.connect(self._finished)
        self.refresh()

    def refresh(self) -> None:
        status = self._service.sync_status()
        self.local.setText(", ".join(status["local"]))
        self.met.clear()
        self.met.addItems(status.get("unconfirmed", []))
        self.unconfirmed.setVisible(bool(status.get("unconfirmed")))
        idle = bool(status["remotes"]) and not self._control.schedule.busy
        self.sync_now.setEnabled(idle)
        self.preview.setEnabled(idle)
        if not status["remotes"]:
            self.remotes.setText("<p>Sync is not set up: add a remote below.</p>")
            return
        every = status["every_minutes"]
        rows = [_remote_html(r) for r in status["remotes"]]
        self.remotes.setText(
            "".join(rows) + f"<p>memdesk syncs every {every} minutes and when it closes.</p>"
        )

    @Slot()
    def _sync_now(self) -> None:
        self.error.clear()
        self.sync_now.setEnabled(False)
        self.sync_now.setText("Syncing…")
        self._control.sync_now()

    @Slot()
    def _preview(self) -> None:
        self.error.clear()
        self.preview.setEnabled(False)
        self.would.setText("Fetching each remote to see what a sync would do…")
        self._previewing.start()

    @Slot(object, object)
    def _previewed(self, result: dict[str, Any] | None, error: str | None) -> None:
        self.preview.setEnabled(True)
        self.would.setText(described(result) if result is not None else "")
        self.error.setText(error or "")

    def done(self, code: int) -> None:
        self._previewing.wait()  # a preview still fetching must not outlive the dialog
        super().done(code)

    @Slot(object, object)
    def _finished(self, _result: Any, error: str | None) -> None:
        self.would.clear()
        self.sync_now.setText("&Sync Now")
        self.error.setText(error or "")
        self.refresh()

    @Slot()
    def _save_local(self) -> None:
        wanted = {p.strip() for p in self.local.text().split(",") if p.strip()}
        now = set(self._service.sync_status()["local"])
        try:
            for project in sorted(wanted - now):
                self._service.sync_local(project)
            for project in sorted(now - wanted):
                self._service.sync_local(project, local=False)
        except MemdeskError as exc:
            self.error.setText(exc.message)
            return
        self.error.clear()
        self.refresh()

    @Slot()
    def _trust(self) -> None:
        try:
            self._service.sync_trust(self.met.currentText())
        except MemdeskError as exc:
            self.error.setText(exc.message)
            return
        self.error.clear()
        self.refresh()

    @Slot()
    def _set_up(self) -> None:
        projects = [p.strip() for p in self.projects.text().split(",") if p.strip()]
        options = {
            "branch": self.branch.text().strip() or None,
            "name": self.name.text().strip() or None,
            "projects": projects or None,
        }
        try:
            self._service.sync_init(self.url.text().strip(), **options)
        except MemdeskError as exc:
            self.error.setText(exc.message)
            return
        self.error.clear()
        for field in (self.url, self.branch, self.name, self.projects):
            field.clear()
        self.refresh()


def _remote_html(remote: dict[str, Any]) -> str:
    takes = (
        "projects " + ", ".join(remote["projects"]) if remote["projects"] else "your own memories"
    )
    last = remote["last"]
    if last is None:
        when = "never synced"
    elif last["ok"]:
        refused = f", refused {count(last, 'refused'):,}" if last["refused"] else ""
        when = f"last synced {last['at'][:16].replace('T', ' ')} UTC: sent {last['sent']}, took "
        when += f"{last['taken']}{refused}"
    else:
        when = f"<span style='color:#b00020'>last sync failed: {html.escape(last['error'])}</span>"
    waiting = f"<br>{remote['waiting']} conflict(s) wait in the Inbox" if remote["waiting"] else ""
    return (
        f"<p><b>{html.escape(remote['name'])}</b> — {html.escape(remote['url'])} "
        f"({html.escape(remote['branch'])}; {html.escape(takes)})<br>{when}{waiting}</p>"
    )
