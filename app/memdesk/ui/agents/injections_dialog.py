"""View ▸ Injections…: what memdesk gave each agent session's model, newest session first.

A session opens to its injections (the session start's briefing, each prompt's relevant
memories) with their size in characters and approximate tokens; an injection opens to the
memories in it, each marked when a later tool call of the session acted on it. Double-click
(or Return on) a memory to make it the window's current one.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemoryService
from memdesk.ui.list.memory_table_model import short_time
from memdesk.ui.plain_text import tip

COLUMNS = ("Session / injection / memory", "When (UTC)", "Characters", "≈ Tokens", "Acted on")
ACTED_ON_TIP = (
    "A later tool call of the session ran the command, program, path, name or number the "
    "memory gives (core/sessions/acted_on.py): sure when it says yes, silent on prose"
)
ID_ROLE = Qt.ItemDataRole.UserRole
EVENTS = {
    "start": "Session start: briefing",
    "prompt": "Prompt: relevant memories",
    "action": "Before a tool call: its rules",
}


class InjectionsDialog(QDialog):
    memory_activated = Signal(str)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Injections: what agents were given")
        self.resize(900, 560)
        sessions = service.injections()
        self.summary = QLabel(_summary(sessions), self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # names agents and projects
        self.summary.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        for session in sessions:
            self.tree.addTopLevelItem(_session_item(session))
        if self.tree.topLevelItemCount():
            first = self.tree.topLevelItem(0)
            first.setExpanded(True)
            self.tree.setCurrentItem(first)
        self.tree.itemActivated.connect(self._on_activated)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)

    def _on_activated(self, item: QTreeWidgetItem) -> None:
        memory_id = item.data(0, ID_ROLE)
        if memory_id:
            self.memory_activated.emit(memory_id)


def _summary(sessions: list[dict[str, Any]]) -> str:
    if not sessions:
        return (
            "No agent session has been given memories yet. Once an agent host's hooks are "
            "attached (memdesk hook install), each session start and prompt shows here."
        )
    chars = sum(s["chars"] for s in sessions)
    by_agent: dict[str, int] = {}
    for session in sessions:
        by_agent[session["agent"]] = by_agent.get(session["agent"], 0) + session["chars"]
    agents = ", ".join(f"{a} {c:,}" for a, c in sorted(by_agent.items(), key=lambda p: -p[1]))
    return (
        f"The last {len(sessions):,} sessions were given {chars:,} characters "
        f"(≈ {chars // 4:,} tokens): {agents}. Tokens are estimated at four characters each."
    )


def _session_item(session: dict[str, Any]) -> QTreeWidgetItem:
    where = " · ".join(x for x in (session["project"], session["task"]) if x)
    title = f"{session['agent']} — session {session['session']}" + (f" ({where})" if where else "")
    item = QTreeWidgetItem(
        [
            title,
            short_time(session["started_at"]),
            f"{session['chars']:,}",
            f"{session['tokens']:,}",
        ]
    )
    for event in session["events"]:
        count = len(event["memories"])
        acted = sum(m["acted_on"] for m in event["memories"])
        child = QTreeWidgetItem(
            [
                f"{EVENTS.get(event['event'], event['event'])} — {count} memor"
                + ("y" if count == 1 else "ies"),
                short_time(event["at"]),
                f"{event['chars']:,}",
                f"{event['tokens']:,}",
                f"{acted} of {count}" if count else "",
            ]
        )
        for memory in event["memories"]:
            leaf = QTreeWidgetItem([f"{memory['layer']}  {memory['line']}".strip()])
            if memory["acted_on"]:
                leaf.setText(4, "✓ acted on")
                leaf.setToolTip(4, ACTED_ON_TIP)
            elif memory.get("went_against"):
                leaf.setText(4, "✗ went against")
                leaf.setToolTip(4, "A later command ran what this memory says not to")
            leaf.setData(0, ID_ROLE, memory["id"] if memory["status"] != "purged" else None)
            leaf.setToolTip(0, tip(memory["line"]))
            if memory["status"] != "active":
                leaf.setForeground(0, Qt.GlobalColor.gray)
            child.addChild(leaf)
        _align_numbers(child)
        item.addChild(child)
    _align_numbers(item)
    return item


def _align_numbers(item: QTreeWidgetItem) -> None:
    for column in (2, 3):
        item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
