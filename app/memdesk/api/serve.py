"""`memdesk serve`: the socket server without a window (QCoreApplication).

Prints `listening on <socket path>` as its first stdout line once it accepts connections, so
a parent process can wait for that line. SIGTERM and SIGINT stop it cleanly: requests are
answered one at a time on the event loop, so the loop only returns between requests, and
every write that started has committed by then.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QSocketNotifier, QTimer

from memdesk import paths
from memdesk.api.connection import Limits
from memdesk.api.server import AlreadyRunning, ServerError, SocketServer
from memdesk.core import MemoryService
from memdesk.core.files.backups import BackupSchedule
from memdesk.core.sync.schedule import SyncSchedule
from memdesk.store import SchemaError

logger = logging.getLogger(__name__)

IDLE_TIMEOUT_ENV = "MEMDESK_IDLE_TIMEOUT"  # seconds a half-sent line may wait (tests use less)


def run(args: argparse.Namespace) -> int:
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    try:
        service = MemoryService.open(args.db)
    except (SchemaError, OSError) as exc:
        why = paths.describe(exc) if isinstance(exc, OSError) else str(exc)
        print(f"memdesk serve: {why}", file=sys.stderr)
        # as every command: an unusable database, a full or read-only disk are the legend's
        # 5; a path in the way is the caller's to fix (2)
        return 5 if not isinstance(exc, OSError) or paths.unavailable(exc) else 2
    server = SocketServer(service, getattr(args, "socket", None), limits=_limits(), headless=True)
    try:
        server.listen()
    except AlreadyRunning as exc:
        service.close()
        print(f"memdesk serve: {exc}; nothing to do", file=sys.stderr)
        return 0
    except ServerError as exc:
        service.close()
        print(f"memdesk serve: {exc}", file=sys.stderr)
        return 2
    # The handlers are in place before the line is printed (a parent may signal as soon as it
    # reads it) and stay until cleanup is done, so a second signal cannot cut it short.
    schedule = BackupSchedule(service)
    syncing = SyncSchedule(service)
    reason = ["stopping"]

    def hand_over() -> None:
        # Queued: the answer to system.handover is written before the loop stops.
        reason[0] = "handover"
        QTimer.singleShot(0, app.quit)

    server.handover_requested.connect(hand_over)
    with _quit_on_signals(app):
        try:
            print(f"listening on {server.socket_path}", flush=True)
            schedule.start()
            syncing.start()
            app.exec()
        finally:
            schedule.stop()
            syncing.stop()  # one last sync, when sync is set up
            server.close(reason[0])
            service.close()
    logger.info("stopped (%s)", reason[0])
    return 0


def _limits() -> Limits:
    idle = os.environ.get(IDLE_TIMEOUT_ENV)
    return Limits(idle_timeout_s=float(idle)) if idle else Limits()


@contextmanager
def _quit_on_signals(app: QCoreApplication) -> Iterator[None]:
    """Let SIGTERM/SIGINT quit the Qt loop.

    Python runs signal handlers only when the interpreter gets control; while Qt waits in
    C++ it does not. The wakeup fd makes the signal wake Qt through a socket notifier,
    whose slot hands control back to Python, and the handler quits the loop.
    """
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: _drain(reader))
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    # Posted, not direct: a signal that lands before exec() starts must still stop the loop.
    previous = {
        sig: signal.signal(sig, lambda *_: QTimer.singleShot(0, app.quit)) for sig in _SIGNALS
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(previous_fd)
        notifier.setEnabled(False)
        notifier.deleteLater()
        reader.close()
        writer.close()


_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _drain(reader: socket.socket) -> None:
    try:
        while reader.recv(512):
            pass
    except BlockingIOError:
        pass
