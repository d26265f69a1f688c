"""What the person's own remote announces beside the memories: the projects moved to team
remotes (`moved`) and what each of the person's machines vouches for (`vouching`), each read
as the remote holds it and as this machine brings it up to date. A team remote announces
nothing: it is not to be believed about authors or the person's remotes."""

from __future__ import annotations

from memdesk.core.sync import git, moved, vouching
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.sides import TreeSide

Announced = dict[str, dict[str, str]]


def team_moves(
    mirror: git.Mirror, theirs: TreeSide, remote: Remote, config: Config
) -> tuple[Announced, Announced]:
    if not moved.is_own(remote):
        return {}, {}
    now = moved.announced(_read(mirror, theirs, moved.TEAMS, moved.MAX_BYTES))
    return now, moved.with_mine(now, config)


def vouchers(
    mirror: git.Mirror, theirs: TreeSide, remote: Remote, config: Config, teams: Announced
) -> tuple[Announced, Announced]:
    if not moved.is_own(remote):
        return {}, {}
    now = vouching.announced(_read(mirror, theirs, vouching.VOUCHED, vouching.MAX_BYTES))
    return now, vouching.with_mine(now, config, teams)


def _read(mirror: git.Mirror, theirs: TreeSide, name: str, limit: int) -> bytes | None:
    """The file's bytes, unless it is missing or far larger than memdesk ever writes it."""
    entry = theirs.tree.get(name)
    if entry is None or entry.size > limit:
        return None
    return mirror.read([entry.sha])[entry.sha]
