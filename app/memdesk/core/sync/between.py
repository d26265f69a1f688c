"""The versions another machine made of a memory between two syncs of this one. The remote's
tree holds only the newest, and this machine's history lacked the others (their words, who
made them, why and when); the remote's history over the range pulled holds each. They are
read with `past` (one `git log` per sync, within the sync's budget) and checked as an
incoming file is: its fields, the guard, what the remote carries. A version the guard would
withhold is left out, as history keeps no flag to hold it back with; so is one that claims
the person's words where nothing confirms them: the newest passed `arriving`'s checks, but a
remote could put words in the person's name into the versions before it."""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from memdesk.core.authorship import Authorship
from memdesk.core.sync import moved, past, writers
from memdesk.core.sync.config import Remote
from memdesk.core.sync.files import Unit
from memdesk.core.sync.incoming import Incoming, checked_all
from memdesk.core.sync.sides import TreeSide


def attach_between(
    side: TreeSide,
    commits: str,
    takes: list[Incoming],
    here: dict[str, Unit],
    remote: Remote,
    excluded: set[str],
    authors: Authorship,
) -> None:
    """Give each of `takes` (the remote's newest state of a memory this machine holds as
    `here`) the versions the commits `commits` made in between, oldest first (`between`)."""
    if not takes:
        return
    newest = {take.id: take for take in takes}
    found = past.versions(side, commits, set(newest))
    chosen: dict[str, dict[int, Incoming]] = {}
    # one of each memory at a time (checked_all is by id); newest commit first, so of two
    # versions numbered alike the one written later is kept
    for units in zip_longest(*found.values()):
        for memory_id, state in checked_all([u for u in units if u is not None]).items():
            take, mine = newest[memory_id], here[memory_id].fields()
            if isinstance(state, Incoming) and _kept(state, take, mine, remote, excluded, authors):
                chosen.setdefault(memory_id, {}).setdefault(state.columns["version"], state)
    for memory_id, states in chosen.items():
        newest[memory_id].between = [states[v] for v in sorted(states)]


def _kept(
    state: Incoming,
    take: Incoming,
    mine: dict[str, Any],
    remote: Remote,
    excluded: set[str],
    authors: Authorship,
) -> bool:
    """Whether `state` goes into this machine's history between `mine` and `take`."""
    columns = state.columns
    if state.deleted or state.flag is not None:
        return False
    if not mine["version"] < columns["version"] < take.columns["version"]:
        return False  # history never goes back, nor numbers two versions alike
    if not remote.takes(columns["project"], columns["layer"], excluded):
        return False
    if writers.waiting_identity(state, authors):
        return False  # an identity line by a writer not known as the person's machine
    writer = columns["writer"]
    if writer == authors.mine and columns["content"] != mine.get("content"):
        return False  # words this machine never held, in its name
    if writer in authors.machines and not moved.is_own(remote):
        return False  # a team remote's version in their name: vouched for only when newest
    if columns.get("supersedes") != take.columns.get("supersedes"):
        columns["supersedes"] = None  # what the newest may name was checked; this one's not
    return True
