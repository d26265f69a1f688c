"""A backup's memories read as an import reads a file, before any of them replaces the store.

The file's schema and search index are checked where it lies (store/backup.py); its rows can
still hold what memdesk never writes: tags that are not JSON, a date that is not one, an
unknown kind, an identity past its 1,000 characters. Restored, such a row broke every list,
search and export while `memdesk check` said the file was healthy. So a copy of the file is
opened as a store, exported, and that export checked by the import's rules, in a process of
its own: one process holds one open store, and a crafted file that makes the reading fail or
run long fails there, not in the process serving everyone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as WaitedTooLong
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from memdesk.core import rules
from memdesk.core.errors import MemdeskError, ValidationError
from memdesk.core.files import export, importing
from memdesk.core.search.filters import Filters
from memdesk.store import close_database, open_database
from memdesk.store.backup import private_copy

READ_SECONDS = 600  # a million memories with their histories, read and checked


def check(source: Path) -> None:
    """Raise ValidationError naming what an import of `source`'s memories would refuse."""
    # spawn, not fork: forking a process that runs Qt threads is unsafe.
    spawn = multiprocessing.get_context("spawn")
    try:
        with ProcessPoolExecutor(
            1, mp_context=spawn, initializer=end_with, initargs=(os.getpid(),)
        ) as pool:
            problem = pool.submit(_problem, str(source)).result(timeout=READ_SECONDS)
    except WaitedTooLong:
        problem = f"reading its memories took over {READ_SECONDS} s"
    except BrokenProcessPool:
        problem = "reading its memories stopped the process that read them"
    if problem is not None:
        raise ValidationError(
            f"{source} holds memories memdesk would not import: {problem}; nothing was changed",
            field="name",
        )


def end_with(parent: int) -> None:
    """Make this reading process end when the one that started it does: killed mid-restore,
    the CLI left its reader (83 MB) and multiprocessing's tracker running for good, holding
    the killed command's output open."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


# Columns beside the memories that memdesk reads as JSON of one shape: restored as other text,
# the Inbox, the proposals and the injections record failed with a traceback for good.
_JSON_COLUMNS = (
    ("proposal", "subject", "array"),
    ("injection", "memories", "array"),
    ("retrieval_log", "filters", "object"),
    ("retrieval_log", "results", "array"),
)


def _side_tables(database: Any) -> str | None:
    """(Read once the copy is opened, so migrated: an older backup's tables are the same.)"""
    for table, column, shape in _JSON_COLUMNS:
        (bad,) = database.execute_sql(
            f"SELECT COUNT(*) FROM {table} WHERE {column} IS NOT NULL AND NOT "
            f"(json_valid({column}) AND json_type({column}) = '{shape}')"
        ).fetchone()
        if bad:
            return f"{bad:,} rows of {table}.{column} are not a JSON {shape}"
    return None


def _ids_otherwise_spelt(database: Any) -> str | None:
    """An id in capitals was restored as it was: no command found that memory by its id, and
    importing the person's own export then made it twice (an import and a sync read ids
    lower-case, as memdesk writes them)."""
    row = database.execute_sql(
        "SELECT uuid FROM memory WHERE uuid != lower(uuid) OR length(uuid) != 36 "
        "OR uuid NOT GLOB '[0-9a-f]*-[0-9a-f]*-[0-9a-f]*-[0-9a-f]*-[0-9a-f]*' LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    return (
        f"memory id {str(row[0])[:40]!r} is not written as memdesk writes ids (36 lower-case "
        "characters)"
    )


def _problem(source: str) -> str | None:
    with private_copy(Path(source)) as copy:
        try:
            database = open_database(copy)
            try:
                if side := _side_tables(database) or _ids_otherwise_spelt(database):
                    return side
                text = export.export_json(Filters.build(status=None))
            finally:
                close_database(database)
            records, _links = importing.parse(text)
        except MemdeskError as exc:
            return "; ".join(exc.data.get("errors", [exc.message])[:3])
        except Exception as exc:  # noqa: BLE001 (whatever a crafted row makes fail is a refusal)
            return f"a memory that cannot be read ({type(exc).__name__}: {str(exc)[:200]})"
    identity = [len(r["content"]) for r in records if (r["layer"], r["status"]) == ("L0", "active")]
    size = rules.profile_size(identity)
    if size > rules.IDENTITY_LIMIT:
        return f"its identity (L0) is {size:,} characters; the limit is {rules.IDENTITY_LIMIT:,}"
    return None
