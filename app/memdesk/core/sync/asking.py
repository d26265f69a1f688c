"""The inbox's sync items: one per memory two machines
could not merge alone, kept up to date by later syncs, and what accepting or rejecting each
does."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core import word_diff
from memdesk.core.actor import Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import MemdeskError, NotAllowed
from memdesk.core.events import Change
from memdesk.core.memory.edits import Edits
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import Reads
from memdesk.core.memory.status import StatusChanges
from memdesk.core.memory.versions import Versions
from memdesk.core.sync import config as sync_config
from memdesk.core.sync import git
from memdesk.core.sync.config import Remote
from memdesk.core.sync.incoming import Incoming, checked
from memdesk.core.sync.merge import (
    DELETED_BY_TEAM,
    DELETED_HERE,
    DELETED_THERE,
    DISAGREE,
    NEW_UNSIGNED,
    SHARED_AGAIN,
    TEAMMATE,
    UNSIGNED,
)
from memdesk.core.sync.sides import TreeSide
from memdesk.core.sync.writing import SyncWrites
from memdesk.store import Memory, Proposal


class SyncQuestions:
    """`ask` leaves an Inbox item for what a sync could not merge alone; `accept` and `reject`
    are the Inbox's answer to it."""

    def __init__(
        self,
        desk: Desk,
        reads: Reads,
        edits: Edits,
        status: StatusChanges,
        versions: Versions,
        proposing: Proposals,
        takes: SyncWrites,
    ) -> None:
        self.desk = desk
        self.reads = reads
        self.edits = edits
        self.status = status
        self.versions = versions
        self.proposing = proposing
        self.takes = takes
        self._read: tuple[tuple[str, str | None], TreeSide] | None = None

    def ask(self, remote: Remote, conflict: Any, pending: list[Change]) -> None:
        """One inbox item per memory and kind: a later sync updates it, never adds another."""
        mine = conflict.mine.fields() if conflict.mine is not None else {}
        theirs = conflict.theirs.fields()
        shown = theirs if conflict.kind != DELETED_THERE else mine
        content = shown.get("content") or mine.get("content") or "(deleted)"
        subject = json.dumps([conflict.id])
        existing = Proposal.get_or_none(
            (Proposal.status == "pending")
            & (Proposal.kind == conflict.kind)
            & (Proposal.subject == subject)
        )
        # asked again with the remote's newer words, an item still says who changed what
        # (it went back to "changed here and on …" for a teammate's change, or one made
        # while this machine kept the memory to itself)
        by = conflict.by or (_said_by(existing.why, remote.name) if existing else None)
        why = _why(by or conflict.kind, remote.name, mine, theirs)
        if existing is not None:
            self.proposing.set(existing, content=content, why=why, agent=remote.name)
            return
        self.proposing.propose(
            pending,
            kind=conflict.kind,
            content=content,
            why=why,
            subject=subject,
            agent=remote.name,
            memory=conflict.id,
        )

    def accept(self, proposal: Proposal, content: str | None, actor: Actor) -> None:
        memory_id = json.loads(proposal.subject)[0]
        if proposal.kind in (DELETED_THERE, DELETED_HERE, DELETED_BY_TEAM):
            self.status.remove(memory_id, reason=f"deleted on {proposal.agent} too", actor=actor)
            return
        theirs = self._synced_state(proposal.agent, memory_id)
        if proposal.kind == NEW_UNSIGNED:
            self._take_new(proposal.agent, theirs, content, actor)
            return
        with self.desk.write() as pending:
            here = self.reads.row(memory_id).version
            if not theirs.deleted and theirs.columns["version"] <= here:
                # this machine took the other side's other fields meanwhile (its version is
                # past theirs): the history goes on, never back to an earlier number
                theirs.columns["version"] = here + 1
            self.takes.take(proposal.agent, [theirs], {}, pending)
            if content is None:
                # the person's own act, as keeping is: left a take "by sync", this machine did
                # not vouch for the version, and the person's other machines refused it
                row = self.reads.row(memory_id)
                why = f"took {proposal.agent}'s version"
                self.versions.save(row, {}, actor, pending, change="keep", reason=why)
        if content is not None:
            self.edits.update(memory_id, content=content, actor=actor)

    def _take_new(
        self, remote: str | None, theirs: Incoming, content: str | None, actor: Actor
    ) -> None:
        """The person's yes to a new memory in this machine's name: it is theirs now, a
        version of this machine's that the next sync sends."""
        with self.desk.write() as pending:
            self.takes.take(remote, [theirs], {}, pending)
            row = self.reads.row(theirs.id)
            why = f"taken from {remote} as yours"
            self.versions.save(row, {}, actor, pending, change="keep", reason=why)
        if content is not None:
            self.edits.update(theirs.id, content=content, actor=actor)

    def _delete_new(self, proposal: Proposal, actor: Actor) -> None:
        """The person's no: the memory goes to the Trash here, numbered past the remote's
        file, so the next sync sends its deletion and the person's other machines, which
        took it as the person's, put it in their Trash too."""
        try:
            theirs = self._synced_state(proposal.agent, json.loads(proposal.subject)[0])
        except MemdeskError:  # no longer synced, or gone from there: nothing left to delete
            return
        with self.desk.write() as pending:
            self.takes.take(proposal.agent, [theirs], {}, pending)
            row = self.reads.row(theirs.id)
            why = f"rejected: new on {proposal.agent} in this machine's name, which never wrote it"
            self.versions.set_status(row, "deleted", actor, pending, change="remove", reason=why)

    def reject(self, proposal: Proposal, actor: Actor) -> None:
        """Keeping this machine's version makes it the newest, so the next sync sends it (a
        version no newer than the remote's deletion would be refused there as taken back)."""
        if proposal.kind == NEW_UNSIGNED:
            self._delete_new(proposal, actor)
            return
        if proposal.kind not in (DISAGREE, DELETED_THERE, DELETED_BY_TEAM):
            return
        with self.desk.write() as pending:
            row = self.reads.row(json.loads(proposal.subject)[0])
            what = "version" if proposal.kind == DISAGREE else "deletion"
            why = f"kept over {proposal.agent}'s {what}"
            # the person's own act: recorded as a "sync" (what another machine wrote), the
            # memory was no longer vouched for as this machine's in the team, and the person's
            # other machines refused it
            self.versions.save(row, {}, actor, pending, change="keep", reason=why)
            past = self._remote_version(proposal.agent, row.uuid)
            if row.version <= past:
                # numbered past the remote's: at the same number, the other machine kept its
                # own as a version 3 and took this one as version 3 too
                row.version = past + 1
                row.save(only=[Memory.version])

    def _remote_version(self, remote_name: str | None, memory_id: str) -> int:
        """The version the remote last held of a memory, a deletion's too (0: not held there,
        or not readable)."""
        try:
            return int(self._synced_state(remote_name, memory_id).columns["version"])
        except MemdeskError:
            return 0

    def _synced_state(self, remote_name: str | None, memory_id: str) -> Incoming:
        config = sync_config.load(self.desk.path)
        try:
            remote = config.remote(remote_name)
        except MemdeskError:
            raise NotAllowed(
                f"sync with {remote_name} is no longer set up, so its version cannot be "
                "read; reject the item to keep this machine's",
                field="keys",
            ) from None
        side = self._tree(remote)
        if memory_id not in side.ids:
            raise NotAllowed(f"{remote.name} no longer holds memory {memory_id}", field="keys")
        return checked(side.load(memory_id))

    def _tree(self, remote: Remote) -> TreeSide:
        """The remote's tree at the base, read once for every item decided against it (a
        tree of 20,000 files was listed again for each item of a bulk reject)."""
        mirror = git.Mirror(sync_config.mirror_path(self.desk.path, remote), remote.branch)
        key = (str(mirror.path), mirror.base())
        if self._read is None or self._read[0] != key:
            self._read = (key, TreeSide.read(mirror, key[1]))
        return self._read[1]


def _why(kind: str, remote: str, mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    if kind == DELETED_THERE:
        return (
            f"Deleted on {remote}, but edited here since the last sync: the edit is kept on "
            "every machine. Accept to delete it here too (it goes to the Trash); reject to keep it."
        )
    if kind == DELETED_BY_TEAM:
        return (
            f"Deleted on {remote} by someone on the team, but you wrote it: this machine keeps "
            "it until you decide. Accept to delete it here too (it goes to the Trash); reject "
            f"to keep it (it goes back to {remote} at the next sync)."
        )
    if kind == DELETED_HERE:
        return (
            f"You deleted this here, but it was edited on {remote} since the last sync, so it "
            "is back with that edit. Accept to delete it again; reject to keep it."
        )
    if kind == NEW_UNSIGNED:
        return (
            f"New on {remote} in this machine's name ({theirs.get('writer')}), but this machine "
            "never wrote it: added there by hand, or by someone else who can write that "
            "repository. Your other machines may already have taken it as your words. It is "
            "not used here until you decide. Accept to take it as yours; reject to delete it "
            "on every machine (the next sync sends its deletion; it waits in the Trash here)."
        )
    if kind == UNSIGNED:
        return (
            f"Changed on {remote} in this machine's name, but this machine never wrote these "
            "words: edited there by hand, or by someone else who can write that repository. "
            "This machine keeps its version until you decide. Accept to take the new words; "
            f"reject to keep this one. Words: {_word_diff(mine, theirs)}"
        )
    if kind == SHARED_AGAIN:
        return (
            f"Changed on {remote} while this machine did not share it there (it was private, "
            "or its project kept on this machine only or synced through a team remote); shared "
            "again now, it is unchanged here. This machine keeps its version until you decide. "
            "Accept to take the other version; "
            f"reject to keep this one (it goes back to {remote} at the next sync). "
            f"Words: {_word_diff(mine, theirs)}"
        )
    if kind == TEAMMATE:
        return (
            f"Changed on {remote} by someone on the team, but you wrote it: this machine keeps "
            "its version until you decide. Accept to take the team's version; reject to keep "
            f"this one (it goes back to {remote} at the next sync). "
            f"Words: {_word_diff(mine, theirs)}"
        )
    return (
        f"Two machines disagree: this memory changed here and on {remote} since the last "
        "sync. This machine keeps its version until you decide. Accept to take the other "
        f"version; reject to keep this one. Words: {_word_diff(mine, theirs)}"
    )


def _said_by(why: str, remote: str) -> str | None:
    """Who an item's text says changed the memory, where it names anyone."""
    for by in (SHARED_AGAIN, TEAMMATE, UNSIGNED):
        if why.startswith(_why(by, remote, {}, {}).split(";")[0].split(":")[0]):
            return by
    return None


def _word_diff(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """What the other version changed, word by word: [-here-] {+there+}."""
    a, b = str(mine.get("content", "")).split(), str(theirs.get("content", "")).split()
    out = []
    for op, i1, i2, j1, j2 in word_diff.opcodes(a, b):
        if op == "equal":
            out.append(" ".join(a[i1:i2]) if i2 - i1 <= 6 else f"{a[i1]} … {a[i2 - 1]}")
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    words = " ".join(out)
    others = sorted(
        k
        for k in theirs
        if k not in ("content", "version", "updated", "reason", "writer")
        and mine.get(k) != theirs[k]
    )
    fields = "; ".join(f"{k}: [-{_shown(mine.get(k))}-] {{+{_shown(theirs[k])}+}}" for k in others)
    # who wrote the other version is said as such, not as a field of the memory that differs
    by = theirs.get("writer")
    written = f" The other version is by {by}." if by and by != mine.get("writer") else ""
    return words + (f" (also differs: {fields})" if others else "") + written


def _shown(value: Any) -> str:
    """A field's value as a person reads it in the diff: a list as its items."""
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 80 else text[:79] + "…"
