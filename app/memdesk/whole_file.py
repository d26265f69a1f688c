"""A file the person asked for (an export), written whole or not at all.

It is written beside the target under a hidden name and moved in place when complete, so a
stopped or failed write never leaves half a file where the person looks. A process killed
mid-way (kill -9, power loss) cannot remove its own copy: the next write into that folder
clears any copy whose writer is gone, so hidden partial exports do not pile up. The copy is
private (0600) from its first byte: it holds the person's memories.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

_SUFFIX = ".memdesk-partial"
# A copy is left alone while its writer may still be at work: its process is alive here, or
# it was written to in the last hour (a writer on another machine sharing the folder).
_STALE_AFTER_S = 3600


@contextlib.contextmanager
def writing(path: Path) -> Iterator[TextIO]:
    """`with writing(path) as out:` write the file's text to `out`; `path` is replaced only
    once the block ends without an error."""
    sweep(path.parent)
    partial = path.with_name(f".{path.name}.{os.getpid()}{_SUFFIX}")
    try:
        fd = os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        with open(fd, "w", encoding="utf-8") as out:
            yield out
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def sweep(folder: Path) -> None:
    """Remove the copies that killed writers left in `folder`."""
    now = time.time()
    with contextlib.suppress(OSError):
        for left in folder.glob(f".*{_SUFFIX}"):
            with contextlib.suppress(OSError, ValueError):
                writer = int(left.name.removesuffix(_SUFFIX).rsplit(".", 1)[1])
                gone = not _alive(writer) and writer != os.getpid()
                if gone or now - left.lstat().st_mtime > _STALE_AFTER_S:
                    left.unlink()


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
