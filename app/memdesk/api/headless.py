"""Starting `memdesk serve` in the background: for the MCP bridge when no memdesk runs, and
for the window when it closes with agents attached and the person asked it to keep serving."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.api import naming
from memdesk.api.client import Client, NoAnswer, ServerUnavailable

if TYPE_CHECKING:
    import subprocess


def log_path(socket_path: str) -> Path:
    """Where a background serve writes its log: beside its socket."""
    return Path(socket_path + ".log")


def start_serve(db: str | os.PathLike[str], socket_path: str) -> subprocess.Popen[bytes]:
    """Its own session, no pipes to the caller: it outlives the caller and never blocks on a
    pipe. A failed start leaves its reason as the last line of its log (`last_words`)."""
    # Imported here: every SessionStart hook imports this module, and almost none starts serve.
    import logging
    import subprocess

    logging.getLogger(__name__).info("starting memdesk serve for %s", db)
    # The desktop bundle's executable is memdesk itself; elsewhere it is Python.
    frozen = getattr(sys, "frozen", False)
    # -P: a hook runs in the agent's repository, which may hold a `memdesk` package of its
    # own; `-m` would otherwise import that one, from the current folder, first.
    program = [sys.executable] if frozen else [sys.executable, "-P", "-m", "memdesk"]
    command = [*program, "serve", "--db", str(db), "--socket", socket_path]
    naming.prepare_dir(socket_path)
    with log_path(socket_path).open("wb") as sink:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=sink,
            start_new_session=True,
        )


def last_words(socket_path: str) -> str:
    log = log_path(socket_path)
    lines = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
    return lines[-1].removeprefix("memdesk serve: ") if lines else ""


class StartFailed(Exception):
    """`memdesk serve` could not be started; the message is its own reason."""


def connect_starting_serve(
    db: str | os.PathLike[str],
    socket_path: str,
    agent: str,
    *,
    timeout: float = 30.0,
    wait_s: float = 15.0,
    role: str | None = None,
) -> Client:
    """A client of the memdesk that owns `db`, starting `memdesk serve` when none does. A
    serve that exits at once (an unusable database) is reported with its reason, not waited
    for; one that exits 0 lost a race to another starter, which then serves."""
    try:
        return Client(socket_path=socket_path, agent=agent, timeout=timeout, role=role)
    except NoAnswer:
        raise  # one is there, stopped or hung: another would not start beside it
    except ServerUnavailable:
        server = start_serve(db, socket_path)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return Client(socket_path=socket_path, agent=agent, timeout=timeout, role=role)
        except ServerUnavailable as exc:
            code = server.poll()
            if code not in (None, 0):
                why = last_words(socket_path) or f"exit code {code}"
                raise StartFailed(f"memdesk serve could not start: {why}") from None
            if time.monotonic() > deadline:
                raise StartFailed(f"memdesk could not be started: {exc.message}") from None
            time.sleep(0.05)
