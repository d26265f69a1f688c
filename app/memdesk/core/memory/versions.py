"""Writing a memory's next version: the state before kept in its history, the new fields
read again by the guard, the change announced. Every room that changes a memory's fields or
status does it here, so no change skips the history."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.events import Change
from memdesk.core.guard import withhold
from memdesk.core.memory.records import keep_version
from memdesk.core.search import neighbours
from memdesk.store import Memory, MemoryVersion


class Versions:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def save(
        self,
        row: Memory,
        fields: dict[str, Any],
        actor: Actor,
        pending: list[Change],
        *,
        change: str,
        reason: str | None,
    ) -> None:
        """Keep the state before, then write `fields` (column values) as the next version."""
        labels = {k: fields.get(k, getattr(row, k)) for k in ("tags", "project", "task")}
        if "content" in fields and "flag" not in fields:  # new words are read again
            flag = withhold.reasons_for(
                fields["content"], actor.source, earlier=row.flag, labels=labels
            )
            fields = {**fields, "flag": flag}
        elif fields.keys() & labels.keys() and "flag" not in fields:
            fields = {**fields, "flag": withhold.relabelled(row.flag, labels)}
        if row.flag and fields.get("flag", row.flag) is None and change not in ("undo", "redo"):
            # Withheld until now (the guard's find, an unsure writer): whatever makes it
            # readable is its release, and agents read no version from before it (the
            # person's accept in other words once left the withheld words in history).
            change = "release"
        if row.writer is not None and fields.get("content", row.content) != row.content:
            # The words are this machine's now: a synced file names who wrote its words, so a
            # teammate's rewording of the person's memory goes out in the teammate's name (a
            # change of its tags or status leaves the words, and their author, as they were).
            fields = {**fields, "writer": None}
        if (
            actor.source == "user"
            and row.source == "agent"
            and row.visibility == "shared"
            and fields.get("content", row.content) != row.content
            and change not in ("undo", "redo")  # which put back whose words they were
        ):
            # The person's rewording is the person's words: left the agent's, the agent could
            # revert it unasked and briefings quoted it as the agent's. (History keeps whose
            # each earlier version was; a private note stays its agent's to see.)
            fields = {**fields, "source": "user", "agent": None}
        if (
            actor.source == "user"
            and row.source == "agent"
            and row.visibility == "private"
            and fields.get("visibility") == "shared"
            and change not in ("undo", "redo")
            and _last_words_by_the_person(row)
        ):
            # Reworded by the person while private (its agent's to see then), then shared: the
            # words are the person's, as a rewording of a shared note makes them; left the
            # agent's, the agent could overwrite or revert them once shared.
            fields = {**fields, "source": "user", "agent": None}
        if actor.source == "user" and fields.get("layer") == "L0" and row.layer != "L0":
            # Moved into the identity by the person: the profile is the person's own, given to
            # every agent (left an agent's line, its export was refused on import).
            fields = {**fields, "source": "user", "agent": None, "visibility": "shared"}
        self._record(row, actor, change, reason)
        old_task = row.task
        for key, value in fields.items():
            setattr(row, key, value)
        columns = [*fields, "version", "updated_at"]
        # A prepared statement: peewee's save() cost more to build than SQLite took to run it.
        self.desk.database.execute_sql(
            f"UPDATE memory SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
            (*(getattr(row, c) for c in columns), row.id),
        )
        if "content" in fields or "task" in fields:
            neighbours.refresh_around(row)
            if old_task is not None and old_task != row.task:
                neighbours.refresh_task(old_task)
        event = {"deleted": "deleted", "active": "restored"}.get(fields.get("status", ""))
        pending.append(Change(event or "updated", row.uuid, row.version, actor.label))

    def set_status(
        self,
        row: Memory,
        status: str,
        actor: Actor,
        pending: list[Change],
        *,
        change: str,
        reason: str | None,
    ) -> None:
        if row.status != status:
            self.save(row, {"status": status}, actor, pending, change=change, reason=reason)

    def _record(self, row: Memory, actor: Actor, change: str, reason: str | None) -> None:
        """Keep the state before a change, then bump the version and the change time."""
        self.desk.touch([row.uuid])
        stamp = keep_version(row, actor, change, reason)
        row.version += 1
        row.updated_at = stamp


def _last_words_by_the_person(row: Memory) -> bool:
    """Whether the change that gave `row` its present words was the person's."""
    for past in row.versions.order_by(MemoryVersion.version.desc()):
        if json.loads(past.state).get("content") != row.content:
            return past.changed_by == USER.label
    return False
