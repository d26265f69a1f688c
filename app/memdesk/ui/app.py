"""Starting the window app: one instance per database, the socket server inside it."""

from __future__ import annotations

import gc
import itertools
import logging
import os
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from memdesk.api import user_service
from memdesk.api.headless import start_serve
from memdesk.api.instance import hand_over, listen_as_owner
from memdesk.api.server import AlreadyRunning, ServerError, SocketServer
from memdesk.core import MemdeskError, MemoryService
from memdesk.core.files.backups import BackupSchedule
from memdesk.store import SchemaError
from memdesk.ui.ask import warn
from memdesk.ui.crash import install_excepthook, setup_logging
from memdesk.ui.icons import app_icon
from memdesk.ui.main_window import MainWindow
from memdesk.ui.tray import Tray

log = logging.getLogger(__name__)


YOUNG_EVERY_MS = 1000
FULL_EVERY = 30  # young collections per full one


def collect_on_the_gui_thread(app: QApplication) -> QTimer:
    """Python's cycle collector runs on whichever thread allocates when it triggers; run on
    a worker thread (a loader, the socket's bookkeeping) it may free a Qt object there and
    deadlock against the GUI thread. Collect here, on the GUI thread, instead.

    A full collection walks every object: with a 100k store's views loaded it took 60 ms,
    which every 2 s was a stutter while typing. What startup made lives as long as the app,
    so it is frozen out of collections (a full one then takes 11-21 ms), and the young
    generations, where cycles are mostly born and die, are collected every second (under
    a millisecond) with a full collection every 30 s."""
    gc.disable()
    gc.collect()
    gc.freeze()
    ticks = itertools.count(1)
    timer = QTimer(app)
    timer.timeout.connect(lambda: gc.collect(2 if next(ticks) % FULL_EVERY == 0 else 1))
    timer.start(YOUNG_EVERY_MS)
    return timer


def _has_display() -> bool:
    """On Linux without a display Qt aborts with xcb messages that do not say what to do."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(db_path: Path) -> int:
    """Open the window on `db_path`, or bring forward the memdesk that already has it open."""
    setup_logging()
    if not _has_display():
        print(
            "memdesk: error: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
            "not set). To serve agents without a window, run `memdesk serve`.",
            file=sys.stderr,
        )
        return 5
    if hand_over(db_path, show=True):
        print(f"memdesk is already open on {db_path}; brought its window to the front.")
        return 0
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setOrganizationName("memdesk")
    app.setApplicationName("memdesk")
    app.setDesktopFileName("memdesk")
    app.setWindowIcon(app_icon())
    install_excepthook()
    try:
        service = MemoryService.open(db_path)
    except (SchemaError, MemdeskError) as exc:
        warn(None, "memdesk", f"Cannot open the database.\n\n{exc}")
        return 2
    server = SocketServer(service)
    socket_path: str | None = server.socket_path
    try:
        listen_as_owner(server)
    except AlreadyRunning:
        service.close()
        return 0 if hand_over(db_path, show=True) else 1
    except ServerError as exc:
        # The window still works without the socket; agents just cannot connect.
        log.warning("socket server not started: %s", exc)
        warn(None, "memdesk", f"Agents cannot connect to this window:\n\n{exc}")
        socket_path = None
    window = MainWindow(service, socket_path=socket_path)
    server.clients_changed.connect(window.set_agent_count)
    server.agents_changed.connect(window.show_agent_names)
    server.show_requested.connect(window.bring_to_front)
    if QSystemTrayIcon.isSystemTrayAvailable():
        window.tray = Tray(window)
        window.tray.show()
    window.show()
    collect_on_the_gui_thread(app)  # the timer is the app's child: it lives as long
    schedule = BackupSchedule(service)
    schedule.start()
    window.sync.start()
    try:
        return app.exec()
    finally:
        schedule.stop()
        # Agents attached and the person chose so: a headless serve takes over, and the
        # goodbye tells the agents to wait for it instead of failing.
        keep = socket_path is not None and window.keep_serving and server.client_count > 0
        server.close("handover" if keep else "stopping")
        service.close()
        # The login service serves this database: it takes it back, as it had it.
        if not user_service.hand_back(db_path) and keep and socket_path is not None:
            start_serve(db_path, socket_path)
