"""memdesk in the system tray: there for agents while the window is closed.

The icon's tooltip and menu say how many items wait in the Inbox and which agents are
connected, and offer Open, the Inbox, Pause All Agents (and back) and Quit; what `memdesk
doctor` finds wrong with the set-up shows there too. Closing the window
while agents are connected keeps serving them from here (said once); Quit ends memdesk. A
notification says when the Inbox gets new items or an agent goes over its write budget, once
each time, not once per item.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import QMenu, QMessageBox, QSystemTrayIcon, QWidget

from memdesk.api import doctor
from memdesk.core import MemdeskError
from memdesk.ui.icons import app_icon
from memdesk.ui.plain_text import tip

DOCTOR_EVERY_MS = 60_000  # hook failures and hosts' files are checked this often
STILL_SERVING = (
    "memdesk keeps serving your agents from the tray while they are connected. "
    "Choose Quit memdesk in the tray's menu to stop it."
)


class Tray(QSystemTrayIcon):
    def __init__(self, window: Any, parent: QWidget | None = None) -> None:
        super().__init__(app_icon(), parent or window)
        self._window = window
        self._inbox_seen = window.sidebar.count_of("inbox")  # no notice for what was there
        self._told_serving = False
        self._told_over_budget: set[str] = set()
        self._paused_from: dict[str, str] | None = None  # modes before Pause All Agents
        self._problems = ""  # what `memdesk doctor` found, one per line
        self.menu = QMenu(window)
        self.open_action = self.menu.addAction("Open memdesk", window.bring_to_front)
        self.inbox_action = self.menu.addAction("Inbox", self._open_inbox)
        self.agents_action = self.menu.addAction("No agent connected")
        self.agents_action.setEnabled(False)
        self.pause_action = self.menu.addAction("Pause All Agents")
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self._on_pause_toggled)
        self.problems_action = self.menu.addAction("No set-up problem found", self._show_problems)
        self.problems_action.setEnabled(False)
        self.menu.addSeparator()
        self.quit_action = self.menu.addAction("Quit memdesk", window.quit_for_real)
        self.setContextMenu(self.menu)
        self.activated.connect(self._on_activated)
        window.sidebar.counts_changed.connect(self.refresh)
        self._doctor = QTimer(self, interval=DOCTOR_EVERY_MS)
        self._doctor.timeout.connect(self.check_set_up)
        self._doctor.start()
        self.refresh()
        self.check_set_up()

    @Slot()
    def check_set_up(self) -> None:
        """What `memdesk doctor` finds wrong (hosts' entries, hooks, failed hook runs)."""
        report = doctor.examine(Path(self._window.service.path), serving=False)
        problems = [line[2:] for line in report.lines if line.startswith("!")]
        self.problems_action.setText(
            f"⚠ {len(problems)} set-up problem{'s' if len(problems) != 1 else ''} (memdesk doctor)"
            if problems
            else "No set-up problem found"
        )
        self.problems_action.setEnabled(bool(problems))
        self._problems = "\n".join(problems)
        self.problems_action.setToolTip(tip(self._problems))

    @Slot()
    def refresh(self) -> None:
        """Counts, connected agents and notices, from what the window knows now."""
        waiting = self._window.sidebar.count_of("inbox")
        names = self._window.agent_names
        self.inbox_action.setText(f"Inbox ({waiting:,})" if waiting else "Inbox (empty)")
        self.agents_action.setText(
            f"{len(names)} agent{'s' if len(names) != 1 else ''} connected: "
            + ", ".join(sorted(set(names)))
            if names
            else "No agent connected"
        )
        self.setToolTip(
            f"memdesk — {waiting:,} in the Inbox, {len(names)} agent"
            f"{'s' if len(names) != 1 else ''} connected"
        )
        if waiting > self._inbox_seen and not self._window.isActiveWindow():
            new = waiting - self._inbox_seen
            self.showMessage(
                "memdesk",
                f"{new:,} new item{'s' if new != 1 else ''} in the Inbox (what a session's end "
                "was not sure of, or withheld writes): yours to decide.",
            )
        self._inbox_seen = waiting
        for overrun in self._window.service.over_budget():
            if overrun.agent not in self._told_over_budget:
                self._told_over_budget.add(overrun.agent)
                self.showMessage(
                    "memdesk",
                    f"{overrun.agent} writes faster than its budget allows; its writes are "
                    "refused. Pause it from the tray or View ▸ Agents… if it is stuck.",
                    QSystemTrayIcon.MessageIcon.Warning,
                )

    def _show_problems(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "memdesk doctor",
            self._problems + "\n\nRun `memdesk doctor` for the whole report.",
            parent=self._window,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # paths and names from the person's files
        box.exec()

    def still_serving(self) -> None:
        """The window closed with agents connected: say once where memdesk went."""
        if not self._told_serving:
            self._told_serving = True
            self.showMessage("memdesk", STILL_SERVING)

    def _open_inbox(self) -> None:
        self._window.bring_to_front()
        self._window.sidebar.select_key("inbox")

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self._window.bring_to_front()

    @Slot(bool)
    def _on_pause_toggled(self, paused: bool) -> None:
        """Pause every agent memdesk knows; unpausing gives each the mode it had."""
        service = self._window.service
        try:
            if paused:
                before = service.agent_modes()
                known = {a["agent"] for a in service.agents()} | set(self._window.agent_names)
                for name in known:
                    service.set_agent_mode(name, "paused")
                self._paused_from = {name: before.get(name, "active") for name in known}
            else:
                for name, mode in (self._paused_from or {}).items():
                    service.set_agent_mode(name, mode)
                self._paused_from = None
        except MemdeskError as exc:
            self._window.show_error(exc)
        self._window.show_agent_names(self._window.agent_names)
