"""A remote that is a folder on this machine (a USB disk, a share, another account's folder):
git runs both sides of the transfer here, as the person, reading that folder's own files.
Whoever wrote the folder chose what git finds there: a named pipe where a file should be held
a sync (and every later sync of that remote) until its time limit; `objects/info/alternates`
linked to /dev/zero grew the other side of a fetch 200 MB a second until the machine's memory
ran out. Such files are refused before git reads them, and every git this process starts is
bounded in memory."""

from __future__ import annotations

import contextlib
import os
import resource
import stat
from pathlib import Path

# What git reads of a repository before and while it sends or takes objects.
_READ = (
    "config",
    "HEAD",
    "packed-refs",
    "commondir",
    "shallow",
    "info/grafts",
    "info/alternates",
    "objects/info/alternates",
    "objects/info/http-alternates",
    "objects/info/packs",
)
_REFS_LOOKED_AT = 10_000  # files under refs/ checked; a remote with more is refused
# Address space a git process may take: mmap windows are kept small (`git._BOUNDED`), so a
# first pull of a million memories fits; what /dev/zero read as a path list does not.
MEMORY_BYTES = 2 * 1024**3


def refusal(url: str) -> str | None:
    """Why a local remote is refused: its git files are not plain files (a pipe, a device),
    or there are too many to look at; None when it may be read."""
    root = Path(url.removeprefix("file://"))
    git_dir = root / ".git" if (root / ".git").is_dir() else root
    for name in _READ:
        if why := _not_plain(git_dir / name, root):
            return why
    looked = 0
    for folder, dirs, files in os.walk(git_dir / "refs"):
        looked += len(dirs) + len(files)
        if looked > _REFS_LOOKED_AT:
            return f"the remote {root} holds more than {_REFS_LOOKED_AT:,} refs; memdesk syncs one"
        for name in files:
            if why := _not_plain(Path(folder) / name, root):
                return why
    return None


def _not_plain(path: Path, root: Path) -> str | None:
    try:
        mode = path.stat().st_mode  # through a link: what git would open
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"the remote {root}: {path.name} cannot be read ({exc.strerror})"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return (
        f"the remote {root} holds {path.relative_to(root)}, which is not a file (a pipe, a "
        "device or a socket); memdesk reads no repository set up so"
    )


def bound(pid: int) -> None:
    """Cap the memory of git process `pid` (and of what it starts from now on), where the
    system lets one process do that for another (Linux; not macOS)."""
    prlimit = getattr(resource, "prlimit", None)
    if prlimit is not None:
        with contextlib.suppress(OSError, ValueError):  # exited already, or a lower hard limit
            prlimit(pid, resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
