"""One owner per database: a second window defers to the first; a window takes the database
over from a headless `memdesk serve`."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from memdesk.api import errors, naming
from memdesk.api.client import Client, MemdeskError
from memdesk.api.server import AlreadyRunning, SocketServer

logger = logging.getLogger(__name__)

TAKEOVER_WAIT_S = 5.0


def hand_over(db_path: str | os.PathLike[str], show: bool) -> bool:
    """True if a memdesk window already owns `db_path` (asked to come forward if `show`);
    the caller then exits.

    A headless `memdesk serve` is asked to hand the database over instead (it answers what
    it has read, tells its clients, and exits), and this returns False: the caller becomes
    the owner with `listen_as_owner`. A stale socket file counts as no owner.
    """
    path = naming.socket_path(Path(db_path).expanduser().resolve())
    if not Path(path).exists():
        return False
    try:
        with Client(socket_path=path, timeout=5.0, agent="memdesk window", role="user") as client:
            try:
                client.call("system.handover")
                logger.info("memdesk serve on %s is handing the database over", path)
                return False
            except MemdeskError as exc:
                if exc.code != errors.NOT_ALLOWED:
                    raise
            if show:
                client.call("system.show")
    except MemdeskError as exc:
        logger.info("no live memdesk on %s: %s", path, exc.message)
        return False
    return True


def listen_as_owner(server: SocketServer, wait_s: float = TAKEOVER_WAIT_S) -> None:
    """`server.listen()`, waiting up to `wait_s` for a previous owner that is letting go."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            server.listen()
            return
        except AlreadyRunning:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)
