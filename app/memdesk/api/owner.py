"""Finding the memdesk that owns a database, for the person's own tools (the CLI): its
client when one is running and serves that database, else None so the tool opens the file.
Standard library only, as the client."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memdesk import paths
from memdesk.api import naming
from memdesk.api.client import INVALID_PARAMS, Client, MemdeskError, NoAnswer, ServerUnavailable

BUSY = -32006  # the server's "too many connections" (api/errors.py; no Qt import here)
BUSY_RETRIES = 8  # ~3 s of backoff


def connect_if_running(
    db_path: str | os.PathLike[str] | None = None,
    agent: str | None = None,
    role: str | None = None,
) -> Client | None:
    """A client of the memdesk that owns `db_path`, or None if none is running.

    For the CLI: use the returned client when it is not None, else open the file directly.
    """
    database = paths.resolve_db_path(db_path)
    path = naming.socket_path(database)
    if not Path(path).exists() or not naming.is_live(path):
        return None  # no owner (a stale socket file): the caller may open the file
    # An owner is running: busy is not absent. Opening the file under it would write behind
    # its back (its window and subscribers would never hear), so retry, then fail clearly.
    delay = 0.05
    for attempt in range(BUSY_RETRIES):
        try:
            return _serving(
                Client(socket_path=path, agent=agent, timeout=30.0, role=role), database
            )
        except NoAnswer:
            raise  # a stopped server: each try waited the whole time again (minutes in all)
        except ServerUnavailable:
            if not naming.is_live(path):
                return None  # it has just exited
        except MemdeskError as exc:
            if exc.code != BUSY:
                raise
        if attempt < BUSY_RETRIES - 1:
            time.sleep(delay)
            delay = min(1.0, delay * 2)
    raise ServerUnavailable(
        f"memdesk on {path} is running but busy (every connection in use) and did not let "
        "this command in after several tries; close an agent or try again in a moment"
    )


def _serving(client: Client, database: Path) -> Client:
    """`client`, if its memdesk serves `database`: with MEMDESK_SOCKET set, `--db OTHER`
    reached the person's main store, and `rm` meant for a scratch copy removed a real
    memory."""
    served = client.greeting.get("database") if isinstance(client.greeting, dict) else None
    if served is None or Path(served).resolve() == database.resolve():
        return client
    client.close()
    raise MemdeskError(
        INVALID_PARAMS,
        f"the memdesk on {client.socket_path} serves {served}, not {database}; to reach "
        f"{database}, unset MEMDESK_SOCKET (or give --socket for the memdesk serving it)",
        {"type": "invalid", "field": "db"},
    )
