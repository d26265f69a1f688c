"""Notes of failed hook runs, beside the database: a hook fails open (the agent carries on), so
without these the person would never learn that memdesk was not there for a session. The
window and `memdesk doctor` read them. Standard library only (the hooks write them)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from memdesk import paths

KEPT = 50  # the newest notes kept
_MAX_BYTES = 64 * 1024


def notes_paths(db: str | os.PathLike[str] | None) -> list[Path]:
    """Beside the database; in the log folder when the database's folder is unusable (then the
    failure may be that very folder)."""
    database = paths.resolve_db_path(db)
    return [
        database.with_name(database.name + ".hook-failures.jsonl"),
        paths.log_dir() / "hook-failures.jsonl",
    ]


def note(
    db: str | os.PathLike[str] | None, event: str, why: str, session: str | None = None
) -> None:
    """Keep one failure; never raises (a hook that cannot note its failure still fails open)."""
    entry = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "event": event}
    entry["why"] = why[:500]
    if session:
        entry["session"] = session[:200]
    with contextlib.suppress(OSError, ValueError):
        entry["db"] = str(paths.resolve_db_path(db))  # the shared log holds every database's
    try:
        beside, fallback = notes_paths(db)
        path = beside
        if not beside.parent.is_dir():
            fallback.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = fallback
        lines = _lines(path)[-(KEPT - 1) :] + [json.dumps(entry, ensure_ascii=False)]
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass


def recent(db: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """The kept failures of this database, oldest first."""
    beside, shared = notes_paths(db)
    database = str(paths.resolve_db_path(db))
    out = []
    for path in (beside, shared):
        for line in _lines(path):
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not (isinstance(entry, dict) and {"at", "event", "why"} <= entry.keys()):
                continue
            if path == shared and entry.get("db") != database:
                continue  # another database's failure (or one too old to say whose)
            out.append({k: str(entry[k]) for k in ("at", "event", "why", "session") if k in entry})
    return sorted(out, key=lambda e: e["at"])


def clear(db: str | os.PathLike[str] | None) -> None:
    for path in notes_paths(db):
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            path.unlink()


def _lines(path: Path) -> list[str]:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES * 4:
            return []
        return [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except (OSError, UnicodeDecodeError):
        return []
