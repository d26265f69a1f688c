"""The three-way merge, memory by memory: this machine, the remote, and the state both last
agreed on (the base). Pure: it reads units and decides; the caller writes.

- Changed on one side only: that side's state.
- The same change on both, or the same words with other version stamps: one agreed state.
- Changed on both, in different fields (tags here, the text there): both changes, merged,
  go to both sides without asking.
- Changed on both, in the same field, differently: "two machines disagree". The remote's
  state goes into the repository, this machine keeps its own and the person decides (the
  memory is held out of later syncs until then, so neither side overwrites the other
  unasked).
- Deleted on one side, edited on the other: the edit is kept everywhere and the person is
  asked whether to delete it after all.

"No opinion" (a memory this machine does not share: private, withheld, waiting in a conflict,
or not here) counts as unchanged, so it never deletes or overwrites anything elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memdesk.core.sync.files import Unit, record_unit

# Kinds of the inbox items a merge leaves (proposal.kind)
DISAGREE = "sync_disagree"
DELETED_THERE = "sync_deleted_there"
DELETED_HERE = "sync_deleted_here"
DELETED_BY_TEAM = "sync_deleted_by_team"  # the person's memory, deleted on a team remote
# A memory new to this machine, in its name, in the person's own remote: this machine never
# wrote it (a file added there by hand, or by someone else who can write it)
NEW_UNSIGNED = "sync_new_unsigned"
KINDS = (DISAGREE, DELETED_THERE, DELETED_HERE, DELETED_BY_TEAM, NEW_UNSIGNED)
# kept out of syncs with that remote until answered
HELD = (DISAGREE, DELETED_BY_TEAM, NEW_UNSIGNED)
# of the version, not its words
_STAMPS = ("version", "updated", "successor", "writer", "reason")


@dataclass
class Conflict:
    kind: str
    id: str
    mine: Unit | None  # None: this machine never held it (NEW_UNSIGNED)
    theirs: Unit
    # Who changed it, where the Inbox says more than "two machines disagree": UNSIGNED, new
    # words in this machine's name that it never wrote; TEAMMATE, a change of the person's
    # memory made on a team; SHARED_AGAIN, the remote's alone, made while this machine did
    # not share the memory with it and left it as it was.
    by: str | None = None


UNSIGNED = "unsigned"
TEAMMATE = "teammate"
SHARED_AGAIN = "shared_again"


@dataclass
class Outcome:
    tree: dict[str, Unit] = field(default_factory=dict)  # merged states that differ from theirs
    kept: set[str] = field(default_factory=set)  # ids whose remote state is the merged one
    take: list[Unit] = field(default_factory=list)  # remote states to write here
    conflicts: list[Conflict] = field(default_factory=list)
    sent: int = 0  # memories whose state here goes to the remote
    merged: set[str] = field(default_factory=set)  # taken states made of both sides' fields


@dataclass(frozen=True)
class Side:
    """One side's digest per memory id, and a way to read a unit's text when needed."""

    digests: dict[str, str]
    load: Callable[[str], Unit]


def merge(
    base: Side,
    local: dict[str, Unit],
    remote: Side,
    held: set[str],
    asked: frozenset[str] | set[str] = frozenset(),
) -> Outcome:
    """`local`: this machine's shared memories; `held`: ids waiting for the person (or
    refused), whose remote changes stay in the repository until decided; `asked`: of those,
    the ones whose words the person is asked about, the rest of whose fields still come."""
    out = Outcome()
    ids = base.digests.keys() | local.keys() | remote.digests.keys()
    for memory_id in sorted(ids):
        b = base.digests.get(memory_id)
        gone = b is not None and memory_id not in remote.digests
        r = remote.digests.get(memory_id, b)  # a file gone from the remote: no opinion
        mine = local.get(memory_id)
        here = mine.digest if mine is not None and memory_id not in held else b
        if r is None and here is None:
            continue
        if here in (b, r):
            if r is not None:
                out.kept.add(memory_id)
                if gone and mine is not None and memory_id not in held:
                    # Not deleted (that is a tombstone): lost there, by hand or a force-push
                    # of a branch without it. This machine still shares it, so it goes back.
                    out.tree[memory_id] = mine
                    out.sent += 1
                elif r != b and here == b and memory_id not in held:
                    out.take.append(remote.load(memory_id))
                elif r != b and memory_id in asked and mine is not None and b is not None:
                    # the person has yet to decide the words: what else the remote changed
                    # meanwhile (another machine's tags) comes now, or the decision lost it
                    theirs = remote.load(memory_id)
                    agreed = base.load(memory_id)
                    beside = _theirs_beside(agreed, mine.fields(), theirs.fields())
                    if beside is not None:
                        out.take.append(beside)
                        out.merged.add(memory_id)
                    if _reworded(agreed.fields(), theirs.fields()):
                        # asked again with their newest words: left showing the first, the
                        # person's "keep mine" went out over an edit nobody had seen
                        out.conflicts.append(Conflict(DISAGREE, memory_id, beside or mine, theirs))
            continue
        assert mine is not None
        if r == b:
            out.tree[memory_id] = mine
            out.sent += 1
            continue
        agreed = base.load(memory_id) if b is not None else None
        _both_changed(out, mine, remote.load(memory_id), agreed)
    return out


def _both_changed(out: Outcome, mine: Unit, theirs: Unit, agreed: Unit | None) -> None:
    mine_fields, their_fields = mine.fields(), theirs.fields()
    mine_gone, theirs_gone = "deleted" in mine_fields, "deleted" in their_fields
    if mine_gone and theirs_gone or same_words(mine_fields, their_fields):
        newest = max((mine, theirs), key=lambda u: (u.fields()["version"], u.digest))
        if newest is theirs:
            out.kept.add(theirs.id)
            out.take.append(theirs)
        else:
            out.tree[mine.id] = mine
            out.sent += 1
    elif theirs_gone and _as_agreed(agreed, mine_fields):
        # Not edited here, only written out otherwise than the file it came from (one
        # written by hand names fewer fields): a deletion of the person's own memory by their
        # other machine was asked here as "edited here", and the two kept it apart.
        out.kept.add(theirs.id)
        out.take.append(theirs)
    elif theirs_gone:  # edited here, deleted there: the edit stays, everywhere
        out.tree[mine.id] = mine
        out.sent += 1
        out.conflicts.append(Conflict(DELETED_THERE, mine.id, mine, theirs))
    elif mine_gone and agreed is None and _version(mine_fields) > _version(their_fields):
        # Nothing agreed with this remote yet, and its state is older than this deletion: it
        # came from a machine that had not seen it deleted (a memory deleted at version 2
        # came back at version 1, its deletion undone unasked).
        out.tree[mine.id] = mine
        out.sent += 1
    elif mine_gone:  # deleted here, edited there: the edit comes back here
        out.kept.add(theirs.id)
        out.take.append(theirs)
        out.conflicts.append(Conflict(DELETED_HERE, mine.id, mine, theirs))
    elif (both := _fields_merged(agreed, mine_fields, their_fields)) is not None:
        out.tree[mine.id] = both
        out.take.append(both)
        out.merged.add(mine.id)
        out.sent += 1
    else:
        out.kept.add(theirs.id)
        # What only they changed beside the disagreement (the tags, where both changed the
        # text) is taken now, and the person is asked only of the rest: kept out until the
        # person chose, a third machine's tags were lost everywhere when the person kept this
        # machine's words.
        beside = _theirs_beside(agreed, mine_fields, their_fields)
        if beside is not None:
            out.take.append(beside)
            out.merged.add(mine.id)
        out.conflicts.append(Conflict(DISAGREE, mine.id, beside or mine, theirs))


def _fields_merged(agreed: Unit | None, mine: dict, theirs: dict) -> Unit | None:
    """Both sides' changes in one state when they changed different fields of the state both
    last agreed on (None: they changed one field differently, or there is nothing to merge
    against)."""
    if agreed is None or agreed.in_identity or "deleted" in agreed.fields():
        return None
    base = agreed.fields()
    keys = (set(base) | set(mine) | set(theirs)) - set(_STAMPS) - {"id"}
    ours = {k for k in keys if mine.get(k) != base.get(k)}
    other = {k for k in keys if theirs.get(k) != base.get(k)}
    if ours & other or not ours or not other:
        return None
    if _retired_beside_reworded(ours, mine, other, theirs):
        return None
    newer = max((mine, theirs), key=lambda f: str(f.get("updated") or ""))
    fields = {**base, **{k: mine[k] for k in ours}, **{k: theirs[k] for k in other}}
    # The writer is whoever wrote the words: the newer side's, a teammate's rewording merged
    # with the person's new tags went out as the person's own rule.
    words_by = mine if "content" in ours else theirs if "content" in other else base
    fields.update(
        version=max(int(mine.get("version") or 0), int(theirs.get("version") or 0)) + 1,
        updated=newer.get("updated"),
        writer=words_by.get("writer"),
        reason=None,  # each side's reason stays in its own history
        successor=base.get("successor"),
    )
    return record_unit({**fields, "id": agreed.id}, fields.pop("content", ""))


def _retired_beside_reworded(ours: set, mine: dict, other: set, theirs: dict) -> bool:
    """One side retired it (a correction replaced it), the other reworded it: merged, the
    new words sat in the retired memory, reaching no one, and nobody was asked."""
    return any(
        "status" in a and x.get("status") != "active" and "content" in b
        for a, x, b in ((ours, mine, other), (other, theirs, ours))
    )


# Asked of the person on their own when a teammate changes them (`arriving`): never taken
# beside a disagreement.
_ASKED_ALONE = ("status", "inject")


def _theirs_beside(agreed: Unit | None, mine: dict, theirs: dict) -> Unit | None:
    """This machine's state with the fields only the other side changed since both last
    agreed, when both changed another field differently (None: nothing to take beside)."""
    if agreed is None or agreed.in_identity or "deleted" in agreed.fields():
        return None
    base = agreed.fields()
    keys = (set(base) | set(mine) | set(theirs)) - set(_STAMPS) - {"id"} - set(_ASKED_ALONE)
    ours = {k for k in keys if mine.get(k) != base.get(k)}
    only_theirs = {k for k in keys if theirs.get(k) != base.get(k)} - ours
    if not ours or not only_theirs:  # nothing in dispute here, or nothing else to take
        return None
    fields = {**mine, **{k: theirs[k] for k in only_theirs if k in theirs}}
    for gone in only_theirs - set(theirs):
        fields.pop(gone, None)
    fields["version"] = max(int(mine.get("version") or 0), int(theirs.get("version") or 0)) + 1
    fields.pop("id", None)
    fields.pop("reason", None)  # a version of both: this machine's reason is its own history's
    return record_unit({**fields, "id": agreed.id}, fields.pop("content", ""))


def _reworded(before: dict, after: dict) -> bool:
    """Whether `after` has other words than `before`, or is deleted where it was not."""
    return before.get("content") != after.get("content") or ("deleted" in before) != (
        "deleted" in after
    )


def _as_agreed(agreed: Unit | None, mine: dict) -> bool:
    """Whether `mine` has the words and the version both sides last agreed on."""
    if agreed is None or "deleted" in (base := agreed.fields()):
        return False
    return _version(mine) == _version(base) and mine.get("content") == base.get("content")


def _version(fields: dict) -> int:
    return int(fields.get("version") or 0)


def same_words(a: dict, b: dict) -> bool:
    if "deleted" in a or "deleted" in b:
        return False
    return {k: v for k, v in a.items() if k not in _STAMPS} == {
        k: v for k, v in b.items() if k not in _STAMPS
    }
