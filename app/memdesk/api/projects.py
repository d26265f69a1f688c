"""Which project an agent works in: from the folder it works in, standard library only (the
hooks import it on every prompt).

`MEMDESK_PROJECT` names it outright; otherwise the git repository holding the folder (its
root folder's name), else the folder's own name. So a session started anywhere inside a
repository belongs to that repository, and its memories are seen there and nowhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ENV = "MEMDESK_PROJECT"
MAX_DEPTH = 64  # folders walked up looking for .git


def project_of(cwd: str | os.PathLike[str] | None) -> str | None:
    named = os.environ.get(PROJECT_ENV, "").strip()
    if named:
        return named
    if not cwd:
        return None
    try:
        folder = Path(cwd).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    root = git_root(folder) or folder
    # The home folder or / is where an agent starts when it works on nothing in particular.
    if root == root.parent or root == Path.home():
        return None
    return root.name or None


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
