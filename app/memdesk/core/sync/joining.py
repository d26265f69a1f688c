"""What `sync init` checks before it takes a repository as a remote: a new one on this
machine is made only where its folder exists, and said; an existing one must hold memdesk's
files alone. A project's repository taken by a slip of the URL had memories pushed into its
history for good (a public one publishes them), and a typo in a folder made a new remote that
synced alone, without a word."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from memdesk.core.errors import ValidationError
from memdesk.core.sync import git
from memdesk.core.sync.files import IDENTITY, MEMORIES, README, id_of_path
from memdesk.core.sync.moved import TEAMS
from memdesk.core.sync.vouching import VOUCHED

_OURS = {IDENTITY, README, TEAMS, VOUCHED}
# What a git host puts in a repository it makes for you
_HOSTS_FILES = {".gitignore", ".gitattributes", "LICENSE", "LICENSE.md", "LICENSE.txt"}
_NAMED = 3


def made_if_absent(url: str, branch: str) -> str | None:
    """A local path that does not exist yet becomes an empty bare repository, when the folder
    it goes in exists; the sentence saying so (None: nothing made)."""
    if "://" in url or ":" in url.split("/")[0] or Path(url).exists():
        return None
    if not git.available():
        raise git.SyncFailed("git is not installed; sync keeps memories in a git repository")
    folder = Path(url).parent
    if not folder.is_dir():
        raise ValidationError(
            f"no folder {folder} on this machine, so no repository is there to join; check "
            "the path for a typo, or make the folder first to start a new remote there",
            field="remote",
        )
    git.create_bare(Path(url), branch)
    return f"made a new empty repository at {url}: nothing was there yet"


def check_only_ours(mirror: git.Mirror, url: str, head: str | None) -> None:
    """Refuse a repository whose branch holds files memdesk does not write."""
    files, _ = mirror.tree(head)
    foreign = sorted(p for p in files if not _ours(p))
    if not foreign:
        return
    named = ", ".join(foreign[:_NAMED]) + (" …" if len(foreign) > _NAMED else "")
    raise ValidationError(
        f"{url} holds files memdesk does not write ({named}): it looks like a project's "
        "repository, and a sync would put your memories in its history for good. Give a "
        "repository made for memdesk alone: an empty one, or a new path on this machine",
        field="remote",
    )


def check_name_free(
    mirror: git.Mirror,
    head: str | None,
    url: str,
    writer: str,
    held_here: Callable[[set[str]], set[str]],
) -> None:
    """Refuse a machine name another machine already writes under in this remote: memories
    there by that name that this machine does not hold were written elsewhere (two machines
    set up `--as ada@laptop` each took the other's files for an intruder's)."""
    paths = mirror.files_holding(head, f"writer: {json.dumps(writer)}")
    ids = {i for i in map(id_of_path, paths) if i is not None}
    if not ids or not (elsewhere := ids - held_here(ids)):
        return
    raise ValidationError(
        f"{writer} already writes to {url} from another machine ({len(elsewhere):,} "
        "memories there are by that name and not on this one); each machine needs a name of "
        "its own: sync init … --as NAME",
        field="writer",
    )


def _ours(path: str) -> bool:
    return path.startswith(f"{MEMORIES}/") or path in _OURS or path in _HOSTS_FILES
