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
import re
import resource
import stat
from pathlib import Path

# What git reads of a repository before and while it sends or takes objects: these files,
# and every file in these folders (the refs, reflogs, packs and their indexes, worktrees).
_FILES = (
    "config",
    "config.worktree",
    "HEAD",
    "packed-refs",
    "commondir",
    "shallow",
    "info/grafts",
    "info/alternates",
)
_FOLDERS = ("refs", "logs", "worktrees", "objects/info", "objects/pack")
_LOOKED_AT = 20_000  # entries checked in those folders; a remote with more is refused
_ALTERNATES = 5  # object stores reached through objects/info/alternates, one from another
# Address space a git process may take: mmap windows are kept small (`git._BOUNDED`), so a
# first pull of a million memories fits; what /dev/zero read as a path list does not.
MEMORY_BYTES = 2 * 1024**3


def refusal(url: str) -> str | None:
    """Why a local remote is refused: a file git reads there is not a plain file (a pipe, a
    device), its config includes other files, or there is too much to look at; None when it
    may be read."""
    root = Path(url.removeprefix("file://"))
    git_dir = root / ".git" if (root / ".git").is_dir() else root
    for name in _FILES:
        if why := _not_plain(git_dir / name, root):
            return why
    if why := _includes(git_dir / "config", root):
        return why
    looked = [0]
    for folder in _FOLDERS:
        if why := _walked(git_dir / folder, root, looked):
            return why
    return _alternates(git_dir / "objects", root, looked, _ALTERNATES)


def _walked(folder: Path, root: Path, looked: list[int]) -> str | None:
    # through linked folders too, as git goes (the count bounds a loop of links)
    for where, dirs, files in os.walk(folder, followlinks=True):
        looked[0] += len(dirs) + len(files)
        if looked[0] > _LOOKED_AT:
            return f"the remote {root} holds more than {_LOOKED_AT:,} refs, logs and packs"
        for name in files:
            if why := _not_plain(Path(where) / name, root):
                return why
    return None


def _alternates(objects: Path, root: Path, looked: list[int], left: int) -> str | None:
    """The object stores `objects` borrows from, checked as its own are."""
    listed = objects / "info" / "alternates"
    if why := _not_plain(listed, root):
        return why
    try:
        with listed.open("rb") as read:
            lines = read.read(65536).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in (ln.strip() for ln in lines):
        if not line or line.startswith("#"):
            continue
        if left == 0:
            return f"the remote {root} borrows objects more than {_ALTERNATES} stores deep"
        store = (objects / line).resolve() if not Path(line).is_absolute() else Path(line)
        for folder in ("info", "pack"):
            if why := _walked(store / folder, root, looked):
                return why
        if why := _alternates(store, root, looked, left - 1):
            return why
    return None


# git reads a config's includes wherever they point (a pipe, /dev/stdin: the transfer's own
# input), and no option turns that off for a repository's config.
_INCLUDE = re.compile(rb"^\s*\[\s*include(?:if)?\b", re.IGNORECASE | re.MULTILINE)
_CONFIG_BYTES = 1 << 20


def _includes(config: Path, root: Path) -> str | None:
    try:
        with config.open("rb") as read:
            text = read.read(_CONFIG_BYTES + 1)
    except OSError:
        return None  # no config: git says so itself
    if len(text) > _CONFIG_BYTES:
        return f"the remote {root} has a config of more than 1 MiB; memdesk reads none so large"
    if _INCLUDE.search(text):
        return (
            f"the remote {root} has a config that includes other files ([include] or "
            "[includeIf]); memdesk reads no repository whose settings come from elsewhere"
        )
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
    shown = path.relative_to(root) if path.is_relative_to(root) else path
    return (
        f"the remote {root} holds {shown}, which is not a file (a pipe, a device or a "
        "socket); memdesk reads no repository set up so"
    )


def bound(pid: int) -> None:
    """Cap the memory of git process `pid` (and of what it starts from now on), where the
    system lets one process do that for another (Linux; not macOS)."""
    prlimit = getattr(resource, "prlimit", None)
    if prlimit is not None:
        with contextlib.suppress(OSError, ValueError):  # exited already, or a lower hard limit
            prlimit(pid, resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def is_local(url: str) -> bool:
    """Whether git reaches `url` as a path on this machine (git's own rule: a URL with a
    scheme other than file://, or "host:path" with the colon before any slash, is remote)."""
    if url.startswith("file://"):
        return True
    if "://" in url:
        return False
    colon, slash = url.find(":"), url.find("/")
    return colon < 0 or 0 <= slash < colon
