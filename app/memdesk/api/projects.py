"""Which project an agent works in: from the folder it works in, standard library only (the
hooks import it on every prompt).

`MEMDESK_PROJECT` names it outright; otherwise the git repository holding the folder (its
root folder's name), else the folder's own name. So a session started anywhere inside a
repository belongs to that repository, and its memories are seen there and nowhere else.

Two unrelated repositories of one name (`clientX/api`, `oss/api`) are two projects: a red
team's fact about a client's staging server reached the other `api`'s briefing. Each root
folder's name is kept in a small file (`MEMDESK_PROJECTS_FILE`, else `projects.json` in
memdesk's data folder); a second root whose name is taken is named with its parent folder
("oss/api"), unless it is a clone of the same repository (the same `origin`) or the first
root is gone (moved).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
import unicodedata
import zlib
from collections.abc import Iterator
from pathlib import Path

PROJECT_ENV = "MEMDESK_PROJECT"
PROJECTS_FILE_ENV = "MEMDESK_PROJECTS_FILE"
MAX_DEPTH = 64  # folders walked up looking for .git
MAX_ROOTS = 10_000  # a registry this full takes no more: a new root's name is its own
MAX_REGISTRY_BYTES = 4 * 1024 * 1024
MAX_PATH = 4096  # a longer working folder is no folder of this system's
MAX_NAME = 200  # as the server's `validate.name`
LOCK_S = 2.0
_ORIGIN = re.compile(r'\[remote "origin"\][^\[]*?\burl\s*=\s*(\S+)', re.S)


def project_of(cwd: str | os.PathLike[str] | None) -> str | None:
    named = os.environ.get(PROJECT_ENV, "").strip()
    if named:
        return named
    if not cwd or len(os.fspath(cwd)) > MAX_PATH:
        return None
    try:
        folder = Path(cwd).expanduser().resolve()
        # a file is no project (/proc/self/fd/0 named the hook's own stdin); a folder that
        # is not there is named, never written down
        if folder.exists() and not folder.is_dir():
            return None
        there = folder.is_dir()
    except (OSError, RuntimeError, ValueError):
        return None
    root = _main_worktree(git_root(folder)) or folder
    # The home folder or / is where an agent starts when it works on nothing in particular.
    if root == root.parent or root == Path.home() or not _plain(root.name):
        return None
    return _registered(root, kept=there)


def _plain(name: str) -> str:
    """A folder's name as the server keeps a project's (validate.name): "api " and "api"
    with a no-break space are "api", so they are checked against the "api" already taken."""
    return unicodedata.normalize("NFKC", name).strip()


def _main_worktree(root: Path | None) -> Path | None:
    """For a git worktree (its `.git` a file: "gitdir: <repo>/.git/worktrees/<name>"), the
    repository it belongs to: Claude Code's `.claude/worktrees/<name>` was a project of its
    own, without the person's rules."""
    if root is None or not (root / ".git").is_file():
        return root
    from memdesk import paths

    try:
        line = paths.read_regular_file(root / ".git", 4096).decode("utf-8", "replace")
    except (OSError, paths.NotAFile):
        return root
    gitdir = Path(line.removeprefix("gitdir:").strip())
    if not gitdir.is_absolute():
        gitdir = root / gitdir
    repository = gitdir.parent.parent.parent
    if gitdir.parent.name != "worktrees" or gitdir.parent.parent.name != ".git":
        return root
    # The repository names its worktrees back, as git checks: a folder from an archive whose
    # one-line .git named another repository's worktree got that project's briefing.
    try:
        back = paths.read_regular_file(gitdir / "gitdir", 4096).decode("utf-8", "replace")
        linked = Path(back.strip()).resolve() == (root / ".git").resolve()
    except (OSError, RuntimeError, paths.NotAFile):
        linked = False
    return repository.resolve() if linked and repository.is_dir() else root


def _registered(root: Path, *, kept: bool = True) -> str:
    """The name `root` was given (or is given now, and kept): its folder's name, or with its
    parent's when another repository took that name first. Read, chosen and written under a
    lock: two sessions starting at once in two unrelated `api` repositories both took "api"
    (red team 37)."""
    path = _registry_path()
    with _locked(path):
        known = _read_registry(path)
        key = str(root)
        if known is not None and isinstance(known.get(key), str):
            return known[key]
        if known is None or len(known) >= MAX_ROOTS:
            # An unreadable or full registry is never taken for an empty one (a 4 MiB file
            # read as empty gave an unrelated repository the person's project): a name
            # only this folder has, for this session.
            return _shortened(f"{_plain(root.name)}-{_digest(key)}")
        names = {name: other for other, name in known.items() if isinstance(name, str)}
        name = _shortened(_plain(root.name))
        for candidate in (
            name,
            _shortened(f"{_plain(root.parent.name)}/{name}"),
            _shortened(f"{name}-{_digest(key)}"),
        ):
            other = names.get(candidate)
            if other is None or not Path(other).exists() or _same_repository(root, Path(other)):
                name = candidate
                break
        if kept:
            known[key] = name
            _write_registry(path, known)
    return name


def _shortened(name: str) -> str:
    """A name the server takes (at most MAX_NAME characters): a folder named longer kept its
    agent from every rule of the person's."""
    if len(name) <= MAX_NAME:
        return name
    return f"{name[: MAX_NAME - 9].rstrip()}-{_digest(name)}"


def _registry_path() -> Path:
    named = os.environ.get(PROJECTS_FILE_ENV, "").strip()
    if named:
        return Path(named)
    from memdesk import paths

    return paths.data_dir() / "projects.json"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """The registry's lock, held while it is read and written (within LOCK_S, else the name
    is chosen without it)."""
    try:
        # the person's data folder, as the database makes it: the registry names their repos
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_S
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)
        yield
    finally:
        os.close(handle)  # the lock goes with it


def _read_registry(path: Path) -> dict[str, object] | None:
    """The registry, {} when there is none yet, None when it cannot be read as one."""
    from memdesk import paths

    try:
        known = json.loads(paths.read_regular_file(path, MAX_REGISTRY_BYTES))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, paths.NotAFile):
        return None
    return known if isinstance(known, dict) else None


def _write_registry(path: Path, known: dict[str, object]) -> None:
    """Written whole and swapped in, readable by the person only (it lists every repository
    they work in)."""
    spare = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        text = json.dumps(known, indent=0, ensure_ascii=False)
        if len(text.encode("utf-8")) > MAX_REGISTRY_BYTES:
            return  # unkept: the name holds for this session, the file stays as it was
        handle = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(spare, path)
    except OSError:
        pass  # unkept, the name holds for this session; the next one names it again


def _same_repository(root: Path, other: Path) -> bool:
    mine = _origin(root)
    return mine is not None and mine == _origin(other)


def _origin(root: Path) -> str | None:
    from memdesk import paths

    try:
        config = paths.read_regular_file(root / ".git" / "config", 1024 * 1024)
    except (OSError, paths.NotAFile):
        return None
    found = _ORIGIN.search(config.decode("utf-8", "replace"))
    return found[1] if found else None


def _digest(text: str) -> str:
    # not hashlib: the hook would load OpenSSL at every session start for six characters
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def git_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` holding `.git` (a folder, or a worktree's file)."""
    for depth, candidate in enumerate((folder, *folder.parents)):
        if depth >= MAX_DEPTH:
            break
        try:
            if (candidate / ".git").exists():
                return candidate
        except OSError:
            return None
    return None
