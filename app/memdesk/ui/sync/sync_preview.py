"""What a sync would do, before it does it: the Sync dialog's Preview runs `sync(dry_run=True)`
off the window's thread (it fetches every remote) and says per remote what would be sent,
taken, put in the Trash, asked and refused — as `memdesk sync --dry-run`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.sync.report import WOULD, count, would_count


class _Job(QRunnable):
    def __init__(self, preview: SyncPreview) -> None:
        super().__init__()
        self._preview = preview

    def run(self) -> None:
        service = self._preview.service
        try:
            result = service.sync(dry_run=True)
        except MemdeskError as exc:
            self._preview.done.emit(None, exc.message)
        else:
            self._preview.done.emit(result, None)
        finally:
            service.release_thread()


class SyncPreview(QObject):
    done = Signal(object, object)  # the dry run's result or None, the error's words or None

    def __init__(self, service: MemoryService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)

    def start(self) -> None:
        self._pool.start(_Job(self))

    def wait(self) -> None:
        self._pool.waitForDone()


SHOWN = 5  # named of each, per remote


def described(result: dict[str, Any]) -> str:
    """The dry run in a few lines, a remote each."""
    lines = []
    for remote in result["remotes"]:
        if not remote["ok"]:
            lines.append(f"{remote['remote']}: cannot sync now: {remote['error']}")
            continue
        text = f"{remote['remote']}: would send {remote['sent']}, take {remote['taken']}"
        if remote["to_trash"]:
            text += f" ({remote['to_trash']} of them to the Trash)"
        if remote["conflicts"]:
            text += f", ask you about {remote['conflicts']} conflict(s) in the Inbox"
        lines.append(text + ".")
        for key, verb in WOULD.items():
            named = remote.get("would", {}).get(key, [])
            lines += [f"  would {verb} {line}" for line in named[:SHOWN]]
            if (total := would_count(remote, key)) > SHOWN:
                lines.append(f"  … and {total - SHOWN:,} more to {verb}")
        lines += [f"  would refuse {why}" for why in remote["refused"][:5]]
        if (refused := count(remote, "refused")) > 5:
            lines.append(f"  … and {refused - 5:,} more refused")
        lines += [f"  note: {said}" for said in remote.get("notices", [])]
    return "\n".join(lines) + "\nNothing has changed yet: Sync Now does it."
