"""The status bar: which database, where agents connect, how many are connected, counts,
agent hooks that failed (a hook fails open: without this the person would never know), and
agents refused for flooding memdesk with writes."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget
from superqt import QElidingLabel

from memdesk.api import hook_failures
from memdesk.ui.plain_text import tip

FAILURES_CHECK_MS = 30_000
RECENT_S = 24 * 3600
MESSAGE_SHARE = 0.5  # of the bar's width a message may claim before it is shortened


class StatusBar(QStatusBar):
    """Permanent labels on the right; transient messages (e.g. "Undone") on the left.

    The messages are a label of ours rather than QStatusBar's own painting, which ran into the
    counts and was cut; the database and socket paths give up room first, shortened in the
    middle, their whole path in the tooltip."""

    def __init__(
        self,
        db_path: Path,
        parent: QWidget | None = None,
        over_budget: Callable[[], Sequence[Any]] = list,
    ) -> None:
        super().__init__(parent)
        self._over_budget = over_budget
        self.counts = QLabel(self)
        self.agents = QLabel(self)
        self.message = QElidingLabel(self)
        self.message.setMinimumWidth(0)
        self._message_timer = QTimer(self, singleShot=True)
        self._message_timer.timeout.connect(self.clearMessage)
        self.addWidget(self.message, 1)
        self.socket = _PathLabel(self)
        self.database = _PathLabel(self)
        self.database.setText(f"Database: {_home_relative(db_path)}")
        self.database.setToolTip(tip(str(db_path)))
        self.hook_problems = QLabel(self)
        self.hook_problems.setStyleSheet("color: #b00020; font-weight: bold;")
        self.hook_problems.hide()
        self.flooding = QLabel(self)
        self.flooding.setStyleSheet("color: #b00020; font-weight: bold;")
        self.flooding.hide()
        self.sync = QLabel(self)
        self.sync.hide()
        for label in (self.flooding, self.hook_problems, self.sync, self.counts, self.agents):
            label.setTextFormat(Qt.TextFormat.PlainText)  # agents' names and remotes' errors
            label.setContentsMargins(8, 0, 8, 0)
            self.addPermanentWidget(label)
        for label in (self.socket, self.database):  # eliding measures its whole width: no margin
            self.addPermanentWidget(label)
        self.set_socket(None)
        self.set_agents(0)
        self._db_path = db_path
        self._failures_timer = QTimer(self)
        self._failures_timer.timeout.connect(self._on_check_failures)
        self._failures_timer.start(FAILURES_CHECK_MS)
        self._on_check_failures()

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 (Qt's name)
        """Say `text` until the next message, or for `timeout` ms."""
        self.message.setText(text)
        self.message.setToolTip(tip(text))
        self._fit_message()
        if timeout:
            self._message_timer.start(timeout)
        else:
            self._message_timer.stop()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_message()

    def _fit_message(self) -> None:
        """Room for the message, whole when it fits in most of the bar: the paths shorten
        to make it, and the window can still be made narrower."""
        wanted = self.message.fontMetrics().horizontalAdvance(self.message.text()) + 8
        self.message.setMinimumWidth(min(wanted, int(self.width() * MESSAGE_SHARE)))

    def clearMessage(self) -> None:  # noqa: N802 (Qt's name)
        self.showMessage("")

    def currentMessage(self) -> str:  # noqa: N802 (Qt's name)
        return self.message.text()

    @Slot()
    def _on_check_failures(self) -> None:
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - RECENT_S))
        self.set_hook_failures([f for f in hook_failures.recent(self._db_path) if f["at"] >= since])
        self.set_over_budget(self._over_budget())

    def set_sync(self, text: str, detail: str, failed: bool) -> None:
        """How the last sync went (shown once sync is set up); the details in the tooltip."""
        self.sync.setText(text)
        self.sync.setToolTip(tip(f"{detail}\nFile ▸ Sync… for more"))
        self.sync.setStyleSheet("color: #b00020; font-weight: bold;" if failed else "")
        self.sync.show()

    def set_over_budget(self, overruns: Sequence[Any]) -> None:
        """Name the agents whose writes were refused for going over their write budget."""
        if not overruns:
            self.flooding.hide()
            return
        names = ", ".join(o.agent for o in overruns)
        refused = sum(o.refused for o in overruns)
        self.flooding.setText(f"⚠ {names}: over the write budget")
        self.flooding.setToolTip(
            f"{refused:,} write(s) refused since memdesk started: an agent wrote faster than "
            "its budget allows (memdesk/core/review/write_budget.py). Pause it in View ▸ "
            "Agents… if it is stuck in a loop."
        )
        self.flooding.show()

    def set_hook_failures(self, failures: list[dict[str, str]]) -> None:
        """Show how many agent hook runs failed lately, the last reason in the tooltip."""
        if not failures:
            self.hook_problems.hide()
            return
        last = failures[-1]
        self.hook_problems.setText(f"⚠ {len(failures)} hook failure{'s' * (len(failures) > 1)}")
        self.hook_problems.setToolTip(
            tip(
                f"Agent hooks failed {len(failures)} time(s) in the last 24 hours; the agents "
                f"carried on without memory.\nLast: {last['event']} at {last['at']}: "
                f"{last['why']}\nRun `memdesk doctor` for the whole picture."
            )
        )
        self.hook_problems.show()

    def set_socket(self, path: str | None) -> None:
        self.socket.setText(f"Socket: {_home_relative(Path(path))}" if path else "Socket: off")
        self.socket.setToolTip(
            f"Agents connect at {path}" if path else "Agents cannot connect (no socket server)"
        )

    def set_agents(self, count: int) -> None:
        self.agents.setText(f"{count} agent{'s' if count != 1 else ''} connected")

    def set_agent_names(self, names: list[str], modes: dict[str, str] | None = None) -> None:
        """Which agents are connected: the first few by name, every one in the tooltip; a
        paused or read-only one says so."""
        modes = modes or {}
        count = Counter(names)
        listed = [
            (f"{name} ×{n}" if n > 1 else name)
            + (f" ({modes[name].replace('_', '-')})" if name in modes else "")
            for name, n in sorted(count.items())
        ]
        shown = ", ".join(listed[:3]) + (f" +{len(listed) - 3}" if len(listed) > 3 else "")
        self.agents.setText(f"{len(names)} connected: {shown}" if names else "0 agents connected")
        self.agents.setToolTip(tip("\n".join(listed) or "No agent is connected"))

    def set_counts(self, shown: int, active: int | None) -> None:
        """`active` None: still being counted."""
        counted = "…" if active is None else f"{active:,}"
        self.counts.setText(f"{shown:,} shown · {counted} active")


class _PathLabel(QElidingLabel):
    """A path that gives up room from its start (the file's name stays in view), and asks for
    room for all of it: superqt's label asks for what it shows, so one squeezed once stayed
    squeezed, and the socket and database disappeared from the bar."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setElideMode(Qt.TextElideMode.ElideLeft)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.updateGeometry()  # the whole text's room, not the shown text's, changed

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        whole = self.fontMetrics().horizontalAdvance(self.text()) + 4
        return QSize(whole, super().sizeHint().height())


def _home_relative(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)
