"""Where memdesk keeps its files: one place, so the app, the CLI and agents agree."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

APP_NAME = "memdesk"
DB_ENV = "MEMDESK_DB"


# platformdirs is imported where it is asked: a hook starts on every prompt, and with
# XDG_RUNTIME_DIR set it never needs it.


def data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    return data_dir() / "memdesk.db"


def resolve_db_path(cli_value: str | os.PathLike[str] | None = None) -> Path:
    """`--db` wins over `MEMDESK_DB`, which wins over the data folder default."""
    chosen = cli_value or os.environ.get(DB_ENV) or default_db_path()
    return Path(chosen).expanduser().resolve()


def describe(exc: OSError) -> str:
    """An operating-system error as a sentence that says what is wrong and what to do."""
    where = f" {exc.filename}" if exc.filename else ""
    if isinstance(exc, FileExistsError):
        return (
            f"cannot create the folder{where}: a file of that name is in the way; move or "
            "delete it, or choose another place with --db"
        )
    if isinstance(exc, NotADirectoryError):
        return f"cannot use{where}: part of that path is a file, not a folder"
    if isinstance(exc, PermissionError):
        return f"no permission to use{where}; check who owns it and its permissions"
    if isinstance(exc, IsADirectoryError):
        return f"{where.strip() or 'that path'} is a folder, not a file"
    if isinstance(exc, FileNotFoundError) and exc.filename:
        folder = Path(exc.filename).parent
        if not folder.exists():  # not the hidden file written first, the folder it needed
            return f"the folder {folder} does not exist; create it, or choose another place"
    if exc.errno == 28:  # ENOSPC
        return f"the disk is full{(' at' + where) if where else ''}; free some space"
    return f"{exc.strerror or exc}{(':' + where) if where else ''}"


def unavailable(exc: OSError) -> bool:
    """A full or read-only disk: nothing the caller typed is wrong (exit 5, not 2)."""
    return exc.errno in (errno.ENOSPC, errno.EROFS, errno.EDQUOT)


_ROOM = 1 << 20  # below a MiB free, SQLite's journal and -shm cannot be made


def disk_full(path: Path, error: BaseException) -> bool:
    """Whether `error` from the database at `path` came of its disk being full: SQLite says
    "database or disk is full", or only "disk I/O error" when not even its -shm fits."""
    if "full" in str(error):
        return True
    try:
        return shutil.disk_usage(path.parent).free < _ROOM
    except OSError:
        return False


def unusable(path: Path, error: BaseException) -> str:
    """Why the database at `path` cannot be used, a full disk told as such: "not a usable
    database" sent the person to restore a backup over a healthy file."""
    if disk_full(path, error):
        return (
            f"the disk holding {path} is full, so memdesk cannot use it ({error}); free some "
            "space and try again (the file itself is not damaged)"
        )
    return f"{path} is not a usable memdesk database: {error}"


class NotAFile(ValueError):
    """A path given as a file to read is not a regular file, or is larger than allowed."""


# The databases this process has open through SQLite. SQLite locks a database with POSIX
# locks, which belong to the process: closing any descriptor of the file here drops them
# all, and another process may then take itself for the last one and remove the -wal under
# this one (writes lost, the file corrupted). A path this process reads as a plain file
# (an import, a transcript, a program a hook names) is first checked against them.
_OPEN_DATABASES: set[str] = set()
# and the lock a server holds on it: replaced, a second server owned the same file
_DATABASE_SUFFIXES = ("", "-wal", "-shm", "-journal", ".lock")


def hold_database(path: str | os.PathLike[str]) -> None:
    _OPEN_DATABASES.add(str(Path(path).resolve()))


def release_database(path: str | os.PathLike[str]) -> None:
    _OPEN_DATABASES.discard(str(Path(path).resolve()))


def refuse_open_database(
    path: str | os.PathLike[str], also: tuple[str | os.PathLike[str], ...] = ()
) -> None:
    """NotAFile when `path` is, or links to, a database this process has open (or one of
    `also`: the store another process serves), or its -wal, -shm or -journal file. Asked of
    the name, before any descriptor is opened; a file written there would replace the store."""
    try:
        target = os.stat(path)
    except OSError:
        return  # the read itself says what is wrong
    for database in _OPEN_DATABASES | {str(Path(d).resolve()) for d in also}:
        for suffix in _DATABASE_SUFFIXES:
            try:
                held = os.stat(database + suffix)
            except OSError:
                continue
            if (held.st_dev, held.st_ino) == (target.st_dev, target.st_ino):
                raise NotAFile(
                    f"{path} is memdesk's open database{f' ({suffix[1:]} file)' if suffix else ''}"
                )


@contextlib.contextmanager
def _regular(path: str | os.PathLike[str]) -> Iterator[tuple[int, os.stat_result]]:
    """A descriptor of the regular file at `path` and its status. A FIFO would hang a reader
    and /dev/zero never ends, so anything else is refused, without waiting; so is the open
    store, before a descriptor of it exists."""
    refuse_open_database(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO must not wait
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile(f"{path} is not a regular file")
        yield fd, info
    finally:
        os.close(fd)


MAX_CONFIG_BYTES = 16 * 1024 * 1024  # a host's settings file: a few KiB in practice


def read_config(path: str | os.PathLike[str]) -> str | None:
    """The text of a host's config file, None when there is none. A FIFO there hung attach,
    detach and doctor; a FIFO, a device, a folder or a file past MAX_CONFIG_BYTES is refused
    (NotAFile), text that is not UTF-8 too (ValueError)."""
    if not os.path.lexists(path):
        return None
    data = read_regular_file(path, MAX_CONFIG_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text; fix it by hand first") from None


def read_file_start(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The first `max_bytes` of the regular file at `path` (a program's first line)."""
    with _regular(path) as (fd, _info):
        return os.read(fd, max_bytes)


def read_regular_file(
    path: str | os.PathLike[str],
    max_bytes: int,
    *,
    newest_lines: bool = False,
    oldest_bytes: int = 0,
) -> bytes:
    """The bytes of the regular file at `path` (see `_regular`). Past `max_bytes` the file is
    refused, or with `newest_lines` only its last `max_bytes` are read, from the first whole
    line, after its first `oldest_bytes` up to their last whole line (a long session's
    transcript: how it began and how it ended)."""
    with _regular(path) as (fd, info):
        cut = info.st_size > max_bytes
        if cut and not newest_lines:
            raise NotAFile(f"{path} is {info.st_size:,} bytes; at most {max_bytes:,} are read")
        head = b""
        if cut and oldest_bytes:
            with os.fdopen(os.dup(fd), "rb") as file:
                head = file.read(oldest_bytes).rpartition(b"\n")[0] + b"\n"
        os.lseek(fd, max(0, info.st_size - max_bytes + len(head)), os.SEEK_SET)
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(max_bytes - len(head))
        return head + data.split(b"\n", 1)[-1] if cut else data
