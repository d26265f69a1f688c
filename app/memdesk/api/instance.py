"""Single instance: a second memdesk on the same database hands over to the running one."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from memdesk.api import naming
from memdesk.api.client import Client, MemdeskError

logger = logging.getLogger(__name__)


def hand_over(db_path: str | os.PathLike[str], show: bool) -> bool:
    """True if a live memdesk already owns `db_path` (asked to raise its window if `show`).

    The caller then exits. A stale socket file (its process is gone) counts as not running;
    the next server's `listen()` replaces it.
    """
    path = naming.socket_path(Path(db_path).expanduser().resolve())
    if not Path(path).exists():
        return False
    try:
        with Client(socket_path=path, timeout=5.0) as client:
            if show:
                client.call("system.show")
    except MemdeskError as exc:
        logger.info("no live memdesk on %s: %s", path, exc.message)
        return False
    return True
