"""A file the person asked for (an export), written whole or not at all.

It is written beside the target under a hidden name and moved in place when complete, so a
stopped or failed write never leaves half a file where the person looks. A process killed
mid-way (kill -9, power loss) cannot remove its own copy: the next write into that folder
clears the copies such writers left, so hidden partial exports do not pile up. The copy is
private (0600) from its first byte: it holds the person's memories.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

_SUFFIX = ".memdesk-partial"
# A copy is cleared once nothing has written to it for a while and its writer is gone from
# this machine, or after an hour whoever it was: a writer in a container or on another machine
# sharing the folder is not a process here, and its export was deleted under it.
_IDLE_S, _STALE_AFTER_S = 120, 3600


@contextlib.contextmanager
def writing(path: Path) -> Iterator[TextIO]:
    """`with writing(path) as out:` write the file's text to `out`; `path` is replaced only
    once the block ends without an error."""
    sweep(path.parent)
    # the process id names the writer; the token keeps a copy left by an earlier process of
    # the same id (ids are reused) from being taken for this one's
    partial = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{_SUFFIX}")
    try:
        fd = os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        with open(fd, "w", encoding="utf-8") as out:
            yield out
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def sweep(folder: Path) -> None:
    """Remove the copies that killed writers left in `folder`: only files as this module
    makes them (this user's, private, not a link), none another writer may still be at."""
    now = time.time()
    with contextlib.suppress(OSError):
        for left in folder.glob(f".*{_SUFFIX}"):
            with contextlib.suppress(OSError, ValueError):
                seen = left.lstat()
                if not _made_here(seen):
                    continue
                writer = int(left.name.removesuffix(_SUFFIX).rsplit(".", 1)[1].split("-")[0])
                idle = now - seen.st_mtime
                if idle > _STALE_AFTER_S or idle > _IDLE_S and not _alive(writer):
                    left.unlink()


def _made_here(seen: os.stat_result) -> bool:
    mine = not hasattr(os, "getuid") or seen.st_uid == os.getuid()
    return stat.S_ISREG(seen.st_mode) and mine and not seen.st_mode & 0o077


def _alive(pid: int) -> bool:
    if os.name == "nt":  # there signal 0 would end the process: the copy's age decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, another user's
        return True
    return True
