"""Starting `memdesk serve` in the background: for the MCP bridge when no memdesk runs, and
for the window when it closes with agents attached and the person asked it to keep serving."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from memdesk.api import naming

logger = logging.getLogger(__name__)


def log_path(socket_path: str) -> Path:
    """Where a background serve writes its log: beside its socket."""
    return Path(socket_path + ".log")


def start_serve(db: str | os.PathLike[str], socket_path: str) -> subprocess.Popen[bytes]:
    """Its own session, no pipes to the caller: it outlives the caller and never blocks on a
    pipe. A failed start leaves its reason as the last line of its log (`last_words`)."""
    logger.info("starting memdesk serve for %s", db)
    command = [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", socket_path]
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
