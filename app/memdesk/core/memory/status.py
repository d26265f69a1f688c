"""Moving memories between active, retired and the Trash, and deleting from the Trash."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memdesk.core import clock, rules
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import NotAllowed
from memdesk.core.events import Change
from memdesk.core.memory.identity_room import check_identity_room
from memdesk.core.memory.reads import Reads
from memdesk.core.memory.records import to_dict
from memdesk.core.memory.versions import Versions
from memdesk.store import Forgotten, Memory, MemoryVersion

# What an agent may do instead, told when it asks for what only the person may.
_TRASH_IS_THEIRS = (
    "an agent may move a memory to the Trash (memory.remove), where the person decides"
)


class StatusChanges:
    """remove, restore, purge, empty the Trash."""

    def __init__(self, desk: Desk, reads: Reads, versions: Versions) -> None:
        self.desk = desk
        self.reads = reads
        self.versions = versions

    def remove(
        self, memory_id: str, *, reason: str | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Move a memory to the Trash (restorable)."""
        return self._remove([memory_id], "id", reason, actor)[0]

    def remove_many(
        self, ids: Sequence[str], *, reason: str | None = None, actor: Actor = USER
    ) -> list[dict[str, Any]]:
        """Move memories to the Trash: all of them, or (on any refusal) none."""
        return self._remove(ids, "ids", reason, actor)

    def _remove(
        self, ids: Sequence[str], field: str, reason: str | None, actor: Actor
    ) -> list[dict[str, Any]]:
        with self.desk.write() as pending:
            rows = self.reads.rows(ids, field, actor)
            for row in rows:
                rules.check_may_change(actor, row)
                rules.check_may_write(actor, row.layer)
                self.versions.set_status(
                    row, "deleted", actor, pending, change="remove", reason=reason
                )
            return [to_dict(row) for row in rows]

    def restore(
        self, memory_id: str, *, reason: str | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Take a memory out of the Trash to the status it had before (a corrected memory
        stays retired), or bring a retired memory back to active."""
        return self._restore([memory_id], "id", reason, actor)[0]

    def restore_many(
        self, ids: Sequence[str], *, reason: str | None = None, actor: Actor = USER
    ) -> list[dict[str, Any]]:
        """`restore` for several memories: all of them, or (on any refusal) none."""
        return self._restore(ids, "ids", reason, actor)

    def _restore(
        self, ids: Sequence[str], field: str, reason: str | None, actor: Actor
    ) -> list[dict[str, Any]]:
        with self.desk.write() as pending:
            rows = self.reads.rows(ids, field, actor)
            earlier = _statuses_before_trash([r for r in rows if r.status == "deleted"])
            for row in rows:
                rules.check_may_change(actor, row)
                _check_undoes_only_itself(actor, row)
                rules.check_may_write(actor, row.layer)
                status = earlier.get(row.id, "active")
                if row.layer == "L0" and status == "active" and row.status != "active":
                    check_identity_room([len(row.content)])
                self.versions.set_status(
                    row, status, actor, pending, change="restore", reason=reason
                )
            return [to_dict(row) for row in rows]

    def clear_flag(self, memory_id: str, *, actor: Actor = USER) -> dict[str, Any]:
        """Release a memory the injection guard withheld: agents may see it again. Only the
        person decides that; the reasons stay in its history."""
        rules.check_person(actor, "release a withheld memory", field="id")
        with self.desk.write() as pending:
            row = self.reads.row(memory_id)
            self.desk.touch([row.uuid])
            if row.flag:
                self.versions.save(
                    row, {"flag": None}, actor, pending, change="release", reason=None
                )
            return to_dict(row)

    def purge(self, memory_id: str, *, actor: Actor = USER) -> None:
        """Delete a memory from the Trash for good, with its history and links. The person's
        alone: nothing an agent or the person was told is stored may be lost by an agent."""
        rules.check_person(actor, f"delete a memory permanently; {_TRASH_IS_THEIRS}", field="id")
        with self.desk.write() as pending:
            row = self.reads.row(memory_id, actor=actor)
            if row.status != "deleted":
                raise NotAllowed(
                    f"memory {row.uuid} is {row.status}; only memories in the "
                    "Trash can be deleted permanently (remove it first)",
                    field="id",
                )
            self.desk.touch([row.uuid])
            _forget([(row.uuid, row.version)])
            row.delete_instance()
            pending.append(Change("deleted", row.uuid, None, actor.label, purged=True))

    def empty_trash(self, *, actor: Actor = USER) -> int:
        """Delete for good every memory in the Trash (the person's alone)."""
        rules.check_person(actor, f"empty the Trash; {_TRASH_IS_THEIRS}", field="id")
        trash = Memory.status == "deleted"
        with self.desk.write() as pending:
            purged = list(Memory.select(Memory.uuid, Memory.version).where(trash).tuples())
            uuids = [memory_id for memory_id, _version in purged]
            self.desk.touch(uuids)
            _forget(purged)
            Memory.delete().where(trash).execute()
            pending.extend(Change("deleted", u, None, actor.label, purged=True) for u in uuids)
            return len(uuids)


def _forget(purged: list[tuple[str, int]]) -> None:
    """Keep the ids (and versions) of memories deleted for good: a sync tells other machines."""
    at = clock.now()
    rows = [{"uuid": u, "version": v, "at": at} for u, v in purged]
    for start in range(0, len(rows), 500):  # SQLite caps the bound variables of a statement
        Forgotten.insert_many(rows[start : start + 500]).on_conflict_replace().execute()


def _statuses_before_trash(rows: list[Memory]) -> dict[int, str]:
    """The status each memory in the Trash had before it was removed: its newest earlier
    state that was not deleted (active when none is)."""
    found: dict[int, str] = {}
    ids = [r.id for r in rows]
    for start in range(0, len(ids), 500):
        query = (
            MemoryVersion.select(MemoryVersion.memory, MemoryVersion.state)
            .where(MemoryVersion.memory.in_(ids[start : start + 500]))
            .order_by(MemoryVersion.memory, MemoryVersion.version.desc())
            .tuples()
        )
        for memory_id, state in query:
            status = json.loads(state).get("status", "active")
            if memory_id not in found and status != "deleted":
                found[memory_id] = status
    return found


def _check_undoes_only_itself(actor: Actor, row: Memory) -> None:
    """An agent brings back only what it put away itself: the person's removal or
    correction of the agent's memory stands (a restore by the agent undid it)."""
    if actor.source != "agent":
        return
    last = row.versions.order_by(MemoryVersion.id.desc()).first()
    if last is not None and last.changed_by != actor.label:
        raise NotAllowed(
            f"memory {row.uuid} was put away by {last.changed_by}, not by {actor.agent}: only "
            "the person may bring it back",
            field="id",
        )
