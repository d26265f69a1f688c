"""The detail panel: one memory rendered as Markdown with all its metadata, edit in place,
and its History. Links to superseded and related memories open them."""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import Change, MemdeskError, MemoryService
from memdesk.core.display import visible, written_by
from memdesk.core.search import decay
from memdesk.ui.detail.history_view import HistoryView
from memdesk.ui.detail.markdown_view import SafeBrowser, render_markdown
from memdesk.ui.detail.memory_editor import MemoryEditor
from memdesk.ui.list.memory_table_model import short_time
from memdesk.ui.plain_text import tip

LINK_SCHEME = "memory"
PAGE_VIEW, PAGE_EDIT = 0, 1
# The Markdown stylesheet borders table cells; the metadata table is a plain list.
LABEL_CELL = "border: none; padding: 1px 12px 1px 0px; color: gray"
VALUE_CELL = "border: none; padding: 1px 0px"


class DetailPanel(QWidget):
    """Shows the memory chosen in the list. Edits and restores are requested, not written,
    so the window can run them through its undo stack."""

    edit_requested = Signal(dict, dict)  # record as it was loaded, changed fields
    restore_and_save_requested = Signal(dict, dict)  # record as it is now, changed fields
    save_as_new_requested = Signal(dict)  # the fields of a new memory
    revert_requested = Signal(dict, int)  # record, version to restore
    memory_link_activated = Signal(str)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._service = service
        self._record: dict[str, Any] | None = None
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.edit_button = QPushButton("Edit", self)
        self.edit_button.setToolTip("Edit this memory (Ctrl+E)")
        self.edit_button.clicked.connect(self.start_editing)
        self.browser = SafeBrowser(self)
        self.browser.anchorClicked.connect(self._on_anchor_clicked)
        self.browser.highlighted.connect(self._on_link_hovered)
        self.editor = MemoryEditor(self)
        self.editor.save_requested.connect(self._on_save_requested)
        self.editor.cancelled.connect(self.stop_editing)
        self.editor.restore_and_save_requested.connect(self._on_restore_and_save_requested)
        self.editor.save_as_new_requested.connect(self.save_as_new_requested)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.browser)
        self.pages.addWidget(self.editor)
        self.history = HistoryView(self)
        self.history.restore_requested.connect(self._on_restore_requested)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.pages, "Memory")
        self.tabs.addTab(self.history, "History")
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        self.show_memory("")

    @property
    def memory_id(self) -> str:
        return self._record["id"] if self._record else ""

    @property
    def injected(self) -> bool:
        """Whether the current memory may be brought up unasked (True when there is none)."""
        return bool(self._record["inject"]) if self._record else True

    @property
    def editing(self) -> bool:
        return self.pages.currentIndex() == PAGE_EDIT

    def show_memory(self, memory_id: str) -> None:
        """Show `memory_id` ("" for none). An open edit of another memory is left unsaved."""
        self._record = None
        if memory_id:
            try:
                self._record = self._service.get(memory_id)
                self._record["injected"] = self._service.injected(memory_id)
            except MemdeskError:
                self._record = None  # purged meanwhile: show the empty state
        self.pages.setCurrentIndex(PAGE_VIEW)
        self._render()

    def _render(self) -> None:
        rec = self._record
        self.edit_button.setEnabled(rec is not None and rec["status"] == "active")
        self.tabs.setTabEnabled(1, rec is not None)
        if rec is None:
            self.title.setText("<span style='color: gray'>No memory selected</span>")
            self.browser.setHtml(
                "<p style='color: gray'>Choose a memory in the list to see it here.</p>"
            )
            self.history.load([])
            return
        status = "" if rec["status"] == "active" else f" · <b>{rec['status']}</b>"
        # Who wrote it is said above the text too, where nothing the text holds can reach:
        # below it, an agent's own "Written by | user" table could stand before the real one.
        self.title.setText(
            f"<b>{rec['layer']} · {rec['kind']}</b>{status} · v{rec['version']}"
            f" · by {html.escape(visible(_writer(rec)))}"
            f" · <span style='color: gray'>{rec['id'][:8]}</span>"
        )
        # and once more rendered: "&#x202E;" in the text became a real right-to-left override
        body = visible(render_markdown(visible(rec["content"]))).replace(
            "</body>", _metadata_html(rec) + "</body>"
        )
        self.browser.setHtml(body)
        self.history.load(self._service.history(rec["id"]), rec["id"])

    @Slot()
    def start_editing(self) -> None:
        if self._record is not None and self._record["status"] == "active":
            self.editor.load(self._record)
            self.tabs.setCurrentIndex(0)
            self.pages.setCurrentIndex(PAGE_EDIT)

    @Slot()
    def stop_editing(self) -> None:
        self.show_memory(self.memory_id)

    def on_changes(self, changes: list[Change]) -> None:
        """Someone wrote: re-render, or, mid-edit, tell the person their memory moved on."""
        touched = {c.id for c in changes}
        reset = any(c.event == "reset" for c in changes)  # a restored backup: any may differ
        if not self._record or not (reset or self._record["id"] in touched):
            return
        if not self.editing:
            self.show_memory(self.memory_id)
            return
        try:
            theirs = self._service.get(self.memory_id)
        except MemdeskError:
            theirs = None
        purged = next((c for c in changes if c.id == self.memory_id and c.purged), None)
        if theirs is None:
            self.editor.show_gone(None, html.escape(purged.by if purged else "someone"))
            return
        if theirs["version"] == self.editor.base_version:
            return
        who = html.escape(self._service.history(self.memory_id)[-1]["by"])
        if theirs["status"] != "active":
            self.editor.show_gone(theirs, who)
        elif not self.editor.has_unsaved_changes():
            # nothing typed yet: nothing to choose between (and the cursor stays put)
            self.editor.load(theirs, focus=False)
        else:
            self.editor.show_conflict(theirs, who)

    def has_unsaved_edit(self) -> bool:
        return self.editing and self.editor.has_unsaved_changes()

    def conflict(self) -> None:
        """A save was refused because the memory changed: show the choice in the editor."""
        self.on_changes([Change("updated", self.memory_id, None, "")])

    @Slot(dict)
    def _on_save_requested(self, changes: dict[str, Any]) -> None:
        if changes:
            self.edit_requested.emit(self.editor.record, changes)
        else:
            self.stop_editing()

    @Slot(dict)
    def _on_restore_and_save_requested(self, changes: dict[str, Any]) -> None:
        self.restore_and_save_requested.emit(self.editor.record, changes)

    @Slot(int)
    def _on_restore_requested(self, version: int) -> None:
        if self._record:
            self.revert_requested.emit(self._record, version)

    @Slot(QUrl)
    def _on_anchor_clicked(self, url: QUrl) -> None:
        if url.scheme() == LINK_SCHEME:
            self.memory_link_activated.emit(url.path() or url.host())
        elif url.scheme() in ("http", "https") and self.ask_to_open(url):
            QDesktopServices.openUrl(url)

    @Slot(QUrl)
    def _on_link_hovered(self, url: QUrl) -> None:
        # a link's words are the writer's: "docs/RELEASE.md" or "supersedes 1a2b3c4d" led to
        # a host of an agent's choosing, which learns when the person reads the note
        web = url.scheme() in ("http", "https")
        self.browser.setToolTip(tip(url.toString()) if web else "")

    def ask_to_open(self, url: QUrl) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, "Open a web page", "", parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            f"Open this address in your browser?\n\n{visible(url.toString())}\n\n"
            "The link is part of the memory's text; the site learns that it was opened."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Open


def _times(count: int) -> str:
    return f"{count} time{'' if count == 1 else 's'}"


def _seen_by(rec: dict[str, Any]) -> str:
    if rec.get("flag"):
        return "no agent — withheld: " + "; ".join(rec["flag"]) + " (accept it in the Inbox)"
    if rec.get("visibility", "shared") == "shared":
        return "every agent"
    return f"only {rec['agent']} (private)" if rec["agent"] else "no agent (private)"


def _importance(rec: dict[str, Any]) -> str:
    """The importance as written, and what it counts in ranking now (see core.decay)."""
    now = decay.multiplier(
        rec["created_at"], rec["recall_count"], rec["last_recalled_at"], datetime.now(UTC)
    )
    return f"{rec['importance']:.2f} × {now:.2f} now (age and recalls)"


def _given(injected: dict[str, Any] | None) -> str:
    """How often session starts and prompts gave it to an agent (View ▸ Injections…)."""
    if not injected or not injected["given"]:
        return "never injected"
    return (
        f"{_times(injected['given'])} in {injected['sessions']:,} session"
        f"{'s' if injected['sessions'] != 1 else ''} (acted on in {injected['acted_on']:,}), "
        f"last {short_time(injected['last_at'])} "
        f"({injected['last_agent']}, session {injected['last_session']})"
    )


def _writer(rec: dict[str, Any]) -> str:
    writer = written_by(rec)
    if rec.get("writer"):  # made on another machine (or by a teammate) and synced here
        writer += f", on {rec['writer']} (synced)"
    return writer


def _metadata_html(rec: dict[str, Any]) -> str:
    writer = _writer(rec)
    rows = [
        ("Tags", ", ".join(rec["tags"]) or "—"),
        ("Project", rec["project"] or "—"),
        ("Task", rec["task"] or "—"),
        ("Importance", _importance(rec)),
        ("Written by", writer),
        ("Seen by", _seen_by(rec)),
        ("Created", short_time(rec["created_at"])),
        ("Updated", short_time(rec["updated_at"])),
        *(
            [("May be outdated", f"{rec['stale']} (agents are told so)")]
            if rec.get("stale")
            else []
        ),
        ("Version", str(rec["version"])),
        ("Recalled by agents", _times(rec["recall_count"])),
        ("Last recalled", short_time(rec["last_recalled_at"]) or "never"),
        ("Reinforced", _times(rec["reinforce_count"])),
        ("Given to agents", _given(rec.get("injected"))),
        *(
            []
            if rec["inject"]
            else [("Brought up unasked", "no: you chose not to (Edit ▸ Don't Bring Up Unasked)")]
        ),
    ]
    cells = "".join(
        f"<tr><td style='{LABEL_CELL}'>{k}</td><td style='{VALUE_CELL}'>{html.escape(v)}</td></tr>"
        for k, v in rows
    )
    links = [
        (f"supersedes {rec['supersedes'][:8]}", rec["supersedes"]) if rec["supersedes"] else None,
        *[
            (
                f"{link['relation']} {'→' if link['direction'] == 'out' else '←'} {link['id'][:8]}",
                link["id"],
            )
            for link in rec.get("links", [])
            if link["id"] != rec["supersedes"]
        ],
    ]
    anchors = " · ".join(
        f"<a href='{LINK_SCHEME}:{i}'>{html.escape(text)}</a>" for text, i in filter(None, links)
    )
    if rec.get("more_links"):
        anchors += f" · and more (the first {len(rec['links'])} are listed)"
    if anchors:
        cells += (
            f"<tr><td style='{LABEL_CELL}'>Links</td><td style='{VALUE_CELL}'>{anchors}</td></tr>"
        )
    return f"<hr><table style='font-size: small'>{cells}</table>"
