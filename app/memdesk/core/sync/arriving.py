"""What a remote changed, as this machine takes it: each file checked, and refused when this
remote does not carry it, when it claims this machine's name for a memory this machine never
sent, or when it changes a memory this machine stopped sharing with that remote."""

from __future__ import annotations

from typing import Any

from memdesk.core.errors import MemdeskError
from memdesk.core.sync import moved
from memdesk.core.sync.config import Remote
from memdesk.core.sync.files import IDENTITY, Unit
from memdesk.core.sync.incoming import Incoming, checked_all
from memdesk.core.sync.sides import TreeSide
from memdesk.store import Memory, among


def checked_changes(
    theirs: TreeSide, ids: set[str], remote: Remote, excluded: set[str], mine: str
) -> tuple[dict[str, Incoming], dict[str, str]]:
    """Each changed memory checked, and only what this remote carries: a team remote sends
    its projects' knowledge and archive, never the identity profile nor another project's
    memories (a team remote's identity.md once became the person's profile for every agent),
    nor a memory new here in the name of this machine (`mine`): it made only what it holds.
    (A file's writer is its memory's author: a teammate's edit of this machine's memory keeps
    this machine's name.)"""
    incoming, refused = {}, dict(theirs.refused)
    held = {u for (u,) in Memory.select(Memory.uuid).where(Memory.uuid.in_(among(ids))).tuples()}
    for memory_id, found in checked_all([theirs.load(i) for i in sorted(ids)]).items():
        where = theirs.paths.get(memory_id, IDENTITY)
        if isinstance(found, MemdeskError):
            refused[memory_id] = f"{where}: field {found.field}: {found.message}"
            continue
        if not found.deleted and not remote.takes(
            found.columns["project"], found.columns["layer"], excluded
        ):
            refused[memory_id] = f"{where}: {_not_carried(remote, found.columns)}"
            continue
        if (
            not moved.is_own(remote)
            and found.columns.get("writer") == mine
            and memory_id not in held
        ):
            # A teammate read this machine's name in the files it pushed and wrote a rule
            # under it, as the person's own.
            refused[memory_id] = (
                f"{where}: claims to be written by this machine ({mine}), which did not send "
                "it; a team remote cannot speak for you"
            )
            continue
        incoming[memory_id] = found
    return incoming, refused


def stopped_sharing(
    remote: Remote, excluded: set[str], incoming: dict[str, Incoming], local: dict[str, Unit]
) -> dict[str, str]:
    """Of what the remote changed, the memories this machine holds but no longer shares with
    it (made private, its project kept local or moved to a team remote): a sync never changes
    them (another machine's edit overwrote them, the version went backwards, and a team got
    the overwritten text), it says why."""
    candidates = [i for i in incoming if i not in local]
    out = {}
    for uuid, visibility, project, layer in (
        Memory.select(Memory.uuid, Memory.visibility, Memory.project, Memory.layer)
        .where(Memory.uuid.in_(among(candidates)))
        .tuples()
    ):
        if visibility != "shared":
            out[uuid] = f"{uuid}: changed on {remote.name}, but private here: not applied"
        elif not remote.takes(project, layer, excluded):
            out[uuid] = (
                f"{uuid}: changed on {remote.name}, but {project or 'its project'} is not "
                "synced with it from here: not applied"
            )
    return out


def _not_carried(remote: Remote, columns: dict[str, Any]) -> str:
    project = columns["project"] or "no project"
    if remote.projects is None:
        return f"{project} is synced through another remote or kept on this machine"
    if columns["layer"] == "L0":
        return "a team remote carries no identity profile"
    return f"{project} is not among this remote's projects ({', '.join(remote.projects)})"
