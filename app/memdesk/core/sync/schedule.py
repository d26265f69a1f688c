"""Syncs on a schedule, on a thread of its own: every `every_minutes` (10 by default) once a
remote is set up, whenever asked (Sync Now), and once more at close. Off until `sync init`.

A failed sync is logged and kept as the remote's last result (the status bar and `sync status`
show it); the next round tries again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memdesk.core.actor import SYSTEM
from memdesk.core.errors import MemdeskError
from memdesk.core.giving_way import give_way
from memdesk.core.memory.steps import Step
from memdesk.core.sync import config as sync_config

logger = logging.getLogger(__name__)
Done = Callable[[dict[str, Any] | None, str | None], None]  # (result, or the error's words)


def due(database: Path, now: datetime | None = None) -> bool:
    config = sync_config.load(database)
    now = now or datetime.now(UTC)
    for remote in config.remotes:
        last = sync_config.last_result(database, remote)
        if last is None:
            return True
        at = datetime.fromisoformat(last["at"].replace("Z", "+00:00"))
        if now - at >= timedelta(minutes=config.every_minutes):
            return True
    return False


class SyncSchedule:
    def __init__(
        self,
        service: Any,
        *,
        on_step: Callable[[Step], None] | None = None,
        on_done: Done | None = None,
        check_every_s: float = 30.0,
    ) -> None:
        self._service = service
        self._on_step = on_step
        self._on_done = on_done
        self._every = check_every_s
        self._stop = threading.Event()
        self._asked = threading.Event()
        self._running = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="memdesk-sync", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def sync_now(self) -> None:
        """Sync at once on the schedule's thread (one sync at a time, never two)."""
        self._asked.set()

    @property
    def busy(self) -> bool:
        return self._running.locked()

    def stop(self, *, sync_first: bool = True) -> None:
        """Stop; with `sync_first`, one last sync when sync is set up (at close)."""
        self._stop.set()
        self._asked.set()
        if self._thread.is_alive():
            self._thread.join()
        if sync_first and sync_config.load(self._service.path).remotes:
            self._sync()

    def _run(self) -> None:
        give_way()
        while not self._stop.is_set():
            if self._asked.is_set() or due(self._service.path):
                self._asked.clear()
                if not self._stop.is_set():
                    self._sync()
            self._asked.wait(self._every)
        self._service.release_thread()

    def _sync(self) -> None:
        # reported once the sync is over: a window asked "done" must not find it still busy
        with self._running:
            result, error = self._outcome()
        self._report(result, error)

    def _outcome(self) -> tuple[dict[str, Any] | None, str | None]:
        try:
            return self._service.sync(actor=SYSTEM, on_step=self._on_step), None
        except MemdeskError as exc:
            logger.warning("sync failed: %s", exc.message)
            return None, exc.message
        except Exception as exc:  # a failed sync must not stop the app; it is retried
            logger.exception("sync failed")
            return None, f"unexpected error ({type(exc).__name__}: {exc})"

    def _report(self, result: dict[str, Any] | None, error: str | None) -> None:
        if self._on_done is not None:
            self._on_done(result, error)
