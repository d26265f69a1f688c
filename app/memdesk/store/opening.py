"""Opening the database: the one way the app, the CLI and the tests all use. Beside `db`
rather than in it because opening migrates, and the migrations need `db`'s handle."""

from __future__ import annotations

import errno
import os
import random
import stat
import time
from pathlib import Path

import peewee

from memdesk import paths
from memdesk.store.db import BUSY_TIMEOUT_MS, DB, PRAGMAS, SchemaError
from memdesk.store.migrations import migrate, refuse_newer
from memdesk.store.statistics import refresh_if_stale


def open_database(path: str | Path) -> peewee.SqliteDatabase:
    """Open (creating if needed) the database at `path`, migrate it, and bind the models.

    The models are bound process-wide, so a process works on one database at a time: opening
    a second file while another is open would silently redirect the first one's queries.
    """
    path = Path(path)
    current = DB.obj
    in_use = current is not None and not current.is_closed()
    if in_use and Path(current.database).resolve() != path.resolve():
        raise RuntimeError(
            f"{current.database} is still open in this process; close it before opening "
            f"{path} (memdesk works on one database per process)"
        )
    _refuse_a_folder(path)
    _refuse_what_is_no_database(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _refuse_read_only(path)
    _refuse_a_second_name(path)
    _private_file(path)
    refuse_newer(path)
    database = peewee.SqliteDatabase(str(path), pragmas=PRAGMAS, timeout=BUSY_TIMEOUT_MS / 1000)
    DB.initialize(database)
    try:
        _connect_and_migrate(database, path)
    except peewee.DatabaseError as exc:
        database.close()
        raise SchemaError(paths.unusable(path, exc)) from exc
    except SchemaError:
        database.close()
        raise
    paths.hold_database(path)
    return database


def _refuse_a_folder(path: Path) -> None:
    """A folder given as the database said "disk I/O error": say it is a folder."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a database file", str(path))


_HEADER = b"SQLite format 3\x00"


def _refuse_what_is_no_database(path: Path) -> None:
    """Opening narrows the file to its owner and puts a journal beside it: `--db /dev/null`
    (as root) made /dev/null 0600 for every user, `--db ~/site/index.html` hid the page from
    the web server. Only an empty file or an SQLite database is opened; a FIFO, a device or
    any other file is refused before anything touches it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return
    except OSError:
        return  # unreadable: the checks after this one say why
    with os.fdopen(fd, "rb") as held:
        status = os.fstat(held.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise SchemaError(f"{path} is not a usable memdesk database: not a regular file")
        head = held.read(len(_HEADER))
    if head and head != _HEADER:
        raise SchemaError(
            f"{path} is not a usable memdesk database: not an SQLite file (memdesk leaves it "
            "as it is). Give the path of a memdesk database, or of a file that does not exist yet"
        )


def _connect_and_migrate(database: peewee.SqliteDatabase, path: Path) -> None:
    """Connect and bring the schema up to date. Switching a new file to WAL takes a lock
    SQLite does not wait for: when several processes open the same new file at once, the
    losers get "locked" at once, so they wait a moment and try again (up to the busy timeout)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            database.connect(reuse_if_open=True)
            migrate(database, path)
            refresh_if_stale(database)
            return
        except peewee.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            database.close()
            time.sleep(0.02 + random.random() * 0.05)


def _refuse_read_only(path: Path) -> None:
    """memdesk writes on every change and keeps -wal/-shm files beside the database, so a
    file or folder it cannot write is refused at the start, with the reason, instead of
    failing on the first write (or reporting a false "index out of sync")."""
    for place, what in ((path, "the database file"), (path.parent, "its folder")):
        if place.exists() and not os.access(place, os.W_OK):
            raise SchemaError(
                f"{path} cannot be opened: {what} ({place}) is read-only for this user. "
                "memdesk needs to write there; fix the permissions, or copy the database to "
                "a writable folder and open that (--db or MEMDESK_DB)."
            )


def _refuse_a_second_name(path: Path) -> None:
    """SQLite names its journal after the name it was given: a file with two names (a hard
    link) gets two journals, and two memdesks writing through each name lost acknowledged
    writes and corrupted the file. A symbolic link is one file by one name, and is fine."""
    links = path.stat().st_nlink if path.exists() else 1
    if links > 1:
        raise SchemaError(
            f"{path} cannot be opened: the file has {links} names (hard links), and writes "
            "through two names corrupt it. Keep one name: remove the others (`find / -xdev "
            f"-samefile {path}` lists them), or make a copy instead of a link."
        )


def _private_file(path: Path) -> None:
    """Memories hold preferences and sometimes secrets: a folder memdesk creates is 0700 and
    the database 0600 (SQLite gives its -wal and -shm files the database's mode). An existing
    database readable by others is narrowed to its owner."""
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    status = path.stat()
    if status.st_mode & 0o077 and status.st_uid == os.getuid():
        path.chmod(status.st_mode & 0o700)
