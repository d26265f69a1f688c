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
import subprocess
from pathlib import Path
from urllib.parse import unquote

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
    """Why a local remote is refused: it is not the folder it was set up as (a link to
    another, a file, nothing), a file git reads there is not a plain file (a pipe, a device),
    its config includes other files, or there is too much to look at; None when it may be
    read."""
    root = path_of(url)
    if why := _not_the_folder(root):
        return why
    git_dir = root / ".git" if (root / ".git").is_dir() else root
    if why := _elsewhere(root, git_dir):
        return why
    for name in _FILES:
        if why := _not_plain(git_dir / name, root):
            return why
    for name in ("config", "config.worktree"):
        if why := _includes(git_dir / name, root):
            return why
    looked = [0]
    for folder in _FOLDERS:
        if why := _walked(git_dir / folder, root, looked):
            return why
    return _alternates(git_dir / "objects", root, looked, _ALTERNATES)


def path_of(url: str) -> Path:
    """The folder git opens for `url`: a file:// URL's %-escapes decoded, as git decodes
    them ("file:///…/%6dem.git" reached a folder the check had not looked at)."""
    return Path(unquote(url[len("file://") :]) if url.startswith("file://") else url)


def _not_the_folder(root: Path) -> str | None:
    """Where a folder is missing, or is a file, git looks for another repository beside it
    (`<path>.git`) or where the file points ("gitdir: …"); a link swapped in for the folder
    points anywhere. Each sent the person's memories into another repository of theirs, and
    read one this check had not looked at."""
    if root.is_symlink():
        return (
            f"the remote {root} is now a link to {os.readlink(root)}, not the folder it was "
            "set up as; if that is where your memories live, sync with it by its own path"
        )
    if not root.exists():
        return f"the remote {root} is not there (is its disk connected?)"
    if not root.is_dir():
        return f"the remote {root} is a file, not the repository folder it was set up as"
    return None


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


def _elsewhere(root: Path, git_dir: Path) -> str | None:
    """A `.git` file ("gitdir: …") or a `commondir` sends git to another repository, one this
    check would not have looked at: the person is asked to name that one."""
    for pointer, said in ((root / ".git", "gitdir:"), (git_dir / "commondir", "")):
        if not pointer.is_file():
            continue  # a folder, or nothing; a pipe there is refused as not a file
        try:
            with pointer.open("rb") as read:
                line = read.read(4096).decode("utf-8", "replace").strip()
        except OSError:
            line = ""
        target = line.removeprefix(said).strip() or "another folder"
        return (
            f"the remote {root} sends git to {target} ({pointer.name}); sync with that "
            "repository itself, by its own path"
        )
    return None


# git reads a config's includes wherever they point (a pipe, /dev/stdin: the transfer's own
# input), and no option turns that off for a repository's config. git itself reads the file
# here (includes not followed): a byte order mark or a section on the same line passed a
# pattern of ours.
_CONFIG_BYTES = 1 << 20
_READ_SECONDS = 10


def _includes(config: Path, root: Path) -> str | None:
    try:
        size = config.stat().st_size
    except OSError:
        return None  # no config: git says so itself
    if size > _CONFIG_BYTES:
        return f"the remote {root} has a config of more than 1 MiB; memdesk reads none so large"
    try:
        listed = subprocess.run(
            ["git", "config", "--file", str(config), "--no-includes", "--name-only", "--list"],
            capture_output=True,
            timeout=_READ_SECONDS,
            env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return f"the remote {root}: git could not read its {config.name} in time"
    if listed.returncode != 0:
        said = [*listed.stderr.decode("utf-8", "replace").strip().splitlines(), "no reason given"]
        return f"the remote {root}: its {config.name} is not one git reads ({said[0]})"
    names = listed.stdout.decode("utf-8", "replace").lower().splitlines()
    if any(name.startswith(("include.", "includeif.")) for name in names):
        return (
            f"the remote {root} has a {config.name} that includes other files ([include] or "
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
