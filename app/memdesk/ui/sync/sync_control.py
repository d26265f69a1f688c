"""The window's side of the sync schedule: each sync that wrote here becomes one step on the
undo stack ("Sync"), and its outcome shows in the status bar. The schedule runs on its own
thread; its reports cross to the window's thread as queued signals."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QMainWindow

from memdesk.core import MemoryService, Step
from memdesk.core.sync import config as sync_config
from memdesk.core.sync.report import count
from memdesk.core.sync.schedule import SyncSchedule
from memdesk.ui.undo_commands import push


class SyncControl(QObject):
    stepped = Signal(object)  # a Step, from the schedule's thread
    finished = Signal(object, object)  # the result or None, the error's words or None
    started = Signal()

    def __init__(self, service: MemoryService, window: QMainWindow) -> None:
        super().__init__(window)
        self._service = service
        self._window = window
        self.schedule = SyncSchedule(service, on_step=self._stepped, on_done=self.finished.emit)
        self.stepped.connect(self._push)
        self.finished.connect(self._show)
        self._started = False
        self._show_last()

    def start(self) -> None:
        self.schedule.start()
        self._started = True

    def stop(self) -> None:
        """At close: one last sync when sync is set up."""
        if self._started:
            self._started = False
            self.schedule.stop()

    def sync_now(self) -> None:
        if not sync_config.load(self._service.path).remotes:
            # where to set it up, not "⚠ Sync failed" and a command for a terminal
            self._window.show_sync()  # type: ignore[attr-defined]
            return
        self.started.emit()
        self._window.status.set_sync("Syncing…", "A sync is running", failed=False)  # type: ignore[attr-defined]
        self.schedule.sync_now()  # asked before the thread starts: its first round is this one
        if not self._started:
            self.start()

    def _stepped(self, step: Step) -> None:
        self.stepped.emit(step)

    @Slot(object)
    def _push(self, step: Step) -> None:
        w = self._window
        push(w.undo_stack, self._service, "Sync", step, w.show_error)  # type: ignore[attr-defined]
        w.hub.flush()  # type: ignore[attr-defined]

    @Slot(object, object)
    def _show(self, result: dict[str, Any] | None, error: str | None) -> None:
        if error is not None:
            self._window.status.set_sync("⚠ Sync failed", error, failed=True)  # type: ignore[attr-defined]
            return
        assert result is not None
        lines = [_line(r) for r in result["remotes"]]
        if not all(r["ok"] for r in result["remotes"]):
            self._window.status.set_sync("⚠ Sync failed", "\n".join(lines), failed=True)  # type: ignore[attr-defined]
            return
        at = result["remotes"][0]["at"][11:16] if result["remotes"] else ""
        conflicts = sum(r["conflicts"] for r in result["remotes"])
        text = f"Synced {at} UTC" + (f" · {conflicts} to decide" if conflicts else "")
        self._window.status.set_sync(text, "\n".join(lines), failed=False)  # type: ignore[attr-defined]

    def _show_last(self) -> None:
        config = sync_config.load(self._service.path)
        lasts = [sync_config.last_result(self._service.path, r) for r in config.remotes]
        known = [last for last in lasts if last is not None]
        if not config.remotes:
            return
        if not known:
            self._window.status.set_sync("Not synced yet", "File ▸ Sync… to sync now", False)  # type: ignore[attr-defined]
        elif any(not last["ok"] for last in known):
            error = next(last["error"] for last in known if not last["ok"])
            self._window.status.set_sync("⚠ Sync failed", error, failed=True)  # type: ignore[attr-defined]
        else:
            at = max(last["at"] for last in known)
            self._window.status.set_sync(f"Synced {at[11:16]} UTC", at, failed=False)  # type: ignore[attr-defined]


def _line(result: dict[str, Any]) -> str:
    if not result["ok"]:
        return f"{result['remote']}: failed: {result['error']}"
    text = f"{result['remote']}: sent {result['sent']}, took {result['taken']}"
    if result["conflicts"]:
        text += f", {result['conflicts']} conflict(s) in the Inbox"
    if result["refused"]:
        text += f", refused {count(result, 'refused'):,}: " + "; ".join(result["refused"][:3])
    return text
