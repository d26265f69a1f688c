"""What a merge changes in the remote's tree: the files whose merged state differs from the
remote's, memories moved into or out of the identity profile, and the README."""

from __future__ import annotations

from memdesk.core.sync.files import IDENTITY, README, Unit, identity_file
from memdesk.core.sync.merge import Outcome
from memdesk.core.sync.sides import TreeSide

_README = """# memdesk memories

Kept by [memdesk](https://github.com/memdesk/memdesk) on every machine that syncs here.
{identity}
- `memories/`: one Markdown file per memory, named by its first words and its id; its front
  matter says what it is (layer, kind, tags, project, who wrote it, when, its version and
  links). A file with `deleted` in its front matter is a tombstone: the memory was deleted
  (machines move it to their Trash).

Private memories, memories held back from agents, the record of sessions (their prompts,
tool calls and what agents were given) and the retrieval log never leave the machine they
were made on; a finished session's summary does, as an archive (L2) memory. Edit a memory in
memdesk, or here keeping the front matter's shape (`key: <JSON value>`); the next sync of
each machine takes the change, except that the machine named as its `writer` asks you first
in its Inbox (it cannot tell your edit from someone else's).
"""
_IDENTITY_LINE = "\n- `identity.md`: the identity profile, given in full to every agent session."
_TEAM_LINE = (
    "\nA team's repository: only its projects' knowledge and archive, never anyone's identity "
    "profile."
)


def tree_changes(outcome: Outcome, theirs: TreeSide, *, team: bool) -> dict[str, bytes | None]:
    changes: dict[str, bytes | None] = {}
    for memory_id, unit in outcome.tree.items():
        path = theirs.paths.get(memory_id)
        if path is not None and (unit.in_identity or unit.path != path):
            changes[path] = None  # moved into the identity profile
        entry = theirs.tree.get(unit.path)
        if not unit.in_identity and (entry is None or entry.sha != unit.digest):
            changes.update((other, None) for other in theirs.others.get(memory_id, ()))
            changes[unit.path] = unit.text.encode()
    entries = sorted(
        [u for u in outcome.tree.values() if u.in_identity]
        + [theirs.identity[i] for i in outcome.kept if i in theirs.identity],
        key=lambda u: (u.fields().get("created") or "", u.id),
    )
    if entries or IDENTITY in theirs.tree:
        text = identity_file(entries).encode()
        entry = theirs.tree.get(IDENTITY)
        if entry is None or entry.sha != Unit("", text.decode()).digest:
            changes[IDENTITY] = text
    if README not in theirs.tree:
        about = _TEAM_LINE if team else _IDENTITY_LINE
        changes[README] = _README.format(identity=about).encode()
    return changes
