"""Changing memories: update, correct, revert, and links. Each change is a new version
(versions.py keeps the one before)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import NotAllowed, NotFound, ValidationError, VersionConflict
from memdesk.core.events import Change
from memdesk.core.memory import labels
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.identity_room import check_identity_room
from memdesk.core.memory.reads import Reads, visible_to
from memdesk.core.memory.records import EDITABLE_FIELDS, to_dict
from memdesk.core.memory.versions import Versions
from memdesk.core.memory.writes import Writes
from memdesk.store import Link, Memory, MemoryVersion

UNSET: Any = object()  # "not given", as opposed to None ("clear it")


class Edits:
    """update, update_many, correct, revert, link, unlink."""

    def __init__(self, desk: Desk, reads: Reads, versions: Versions, writes: Writes) -> None:
        self.desk = desk
        self.reads = reads
        self.versions = versions
        self.writes = writes  # a correction is a new memory that supersedes the old

    def update(
        self,
        memory_id: str,
        *,
        content: Any = UNSET,
        tags: Any = UNSET,
        kind: Any = UNSET,
        layer: Any = UNSET,
        importance: Any = UNSET,
        project: Any = UNSET,
        task: Any = UNSET,
        visibility: Any = UNSET,
        inject: Any = UNSET,
        expected_version: int | None = None,
        reason: str | None = None,
        actor: Actor = USER,
    ) -> dict[str, Any]:
        """Change fields of a memory as a new version; the previous state goes to history.

        With `expected_version`, a memory changed meanwhile raises VersionConflict instead of
        being overwritten.
        """
        given = {
            "content": content,
            "tags": tags,
            "kind": kind,
            "layer": layer,
            "importance": importance,
            "project": project,
            "task": task,
            "visibility": visibility,
            "inject": inject,
        }
        changes = _validate_edit({k: v for k, v in given.items() if v is not UNSET})
        if not changes:  # answered as a success, it told an agent its edit was made
            raise ValidationError(
                f"nothing to change: give one or more of {', '.join(given)}", field="id"
            )
        with self.desk.write() as pending:
            row = self.reads.row(memory_id, actor=actor)
            _check_version(row, expected_version)
            _check_in_use(row, actor)
            return self.apply(row, changes, actor, pending, change="update", reason=reason)

    def update_many(
        self,
        ids: Sequence[str],
        changes: dict[str, Any],
        *,
        reason: str | None = None,
        actor: Actor = USER,
    ) -> list[dict[str, Any]]:
        """The same field changes on several memories: all of them, or (on any refusal) none."""
        unknown = sorted(set(changes) - set(EDITABLE_FIELDS)) if isinstance(changes, dict) else 0
        if not isinstance(changes, dict) or unknown:
            raise ValidationError(
                f"changes must be an object of {', '.join(EDITABLE_FIELDS)}"
                + (f"; not {', '.join(unknown)}" if unknown else ""),
                field="changes",
            )
        changes = _validate_edit(changes)
        with self.desk.write() as pending:
            rows = self.reads.rows(ids)
            if changes.get("layer") == "L0":
                moving = [r for r in rows if r.status == "active" and r.layer != "L0"]
                sizes = [len(changes.get("content", r.content)) for r in moving]
                size = sum(sizes)
                check_identity_room(
                    sizes,
                    advice=f"or move fewer memories (these {len(moving):,} hold {size:,} "
                    "characters; {over} too many)",
                )
            return [
                self.apply(row, changes, actor, pending, change="update", reason=reason)
                for row in rows
            ]

    def apply(
        self,
        row: Memory,
        changes: dict[str, Any],
        actor: Actor,
        pending: list[Change],
        *,
        change: str,
        reason: str | None,
    ) -> dict[str, Any]:
        # whose it is first: an agent's revert of another's memory to the same words was
        # answered as done
        rules.check_may_change(actor, row)
        changes = {k: v for k, v in changes.items() if getattr(row, k) != v}
        if not changes:
            return to_dict(row)
        labels.check(actor, changes)
        rules.check_may_write(actor, row.layer)
        if "inject" in changes:
            rules.check_may_choose_injection(actor)
        new_layer = changes.get("layer", row.layer)
        rules.check_may_write(actor, new_layer)
        if new_layer == "L0" and row.status == "active":
            check_identity_room([len(changes.get("content", row.content))], exclude=row)
        self.versions.save(row, changes, actor, pending, change=change, reason=reason)
        return to_dict(row)

    def correct(
        self,
        memory_id: str,
        content: str,
        *,
        reason: str | None = None,
        actor: Actor = USER,
        **fields: Any,
    ) -> dict[str, Any]:
        """Replace a wrong memory with a new one. The old one turns inactive (kept for the
        audit trail, no longer retrieved) and is linked as superseded."""
        reason = validate.reason(reason)  # an agent's correction waits in the Inbox unversioned
        with self.desk.write() as pending:
            old = self.reads.row(memory_id, actor=actor)
            if old.status != "active":
                raise NotAllowed(
                    f"memory {old.uuid} is {old.status}; only an active memory "
                    "can be corrected (restore it first)",
                    field="id",
                )
            inherited = {
                "layer": old.layer,
                "kind": old.kind,
                "tags": json.loads(old.tags),
                "project": old.project,
                "task": old.task,
                "importance": old.importance,
                "visibility": old.visibility,  # a private memory's correction is as private
            }
            draft = Draft.parse({**inherited, **fields, "content": content})
            if draft.content == old.content and not fields:
                # it retired the memory for a copy of itself
                raise ValidationError(
                    f"the correction says what memory {old.uuid} already says; give the "
                    "corrected text",
                    field="content",
                )
            rules.check_may_write(actor, old.layer)
            if not rules.wrote(actor, old):
                return self.writes.propose_correction(old, draft, actor, pending)
            if draft.layer == "L0":
                check_identity_room([len(draft.content)], exclude=old)
            self.versions.set_status(
                old, "inactive", actor, pending, change="correct", reason=reason
            )
            new = self.writes.add_draft(draft, actor, pending, dedup=False, supersedes=old.uuid)
            if not old.inject:  # the person's "don't bring up unasked" holds for the correction
                Memory.update(inject=False).where(Memory.uuid == new["id"]).execute()
                new = {**new, "inject": False}
            Link.create(
                src=Memory.get(Memory.uuid == new["id"]),
                dst=old,
                relation="supersedes",
                created_at=clock.now(),
            )
            return new

    def revert(
        self,
        memory_id: str,
        version: int,
        *,
        expected_version: int | None = None,
        actor: Actor = USER,
    ) -> dict[str, Any]:
        """Make an earlier version's content current again, as a new version."""
        version = validate.integer(version, "version", 1)
        with self.desk.write() as pending:
            row = self.reads.row(memory_id, actor=actor)
            _check_version(row, expected_version)
            past = row.versions.where(MemoryVersion.version == version).first()
            if past is None:
                raise NotFound(
                    f"memory {row.uuid} has no earlier version {version} "
                    f"(it is at version {row.version})",
                    field="version",
                )
            if actor.source == "agent" and not self.reads.agent_may_read_version(
                row, actor, version
            ):
                raise NotAllowed(
                    f"version {version} of memory {row.uuid} is withheld from agents (it holds "
                    "what the guard withheld, predates the person's release or their last change "
                    "of its text, or was private to someone else); only the person may revert "
                    "to it",
                    field="version",
                )
            state = json.loads(past.state)
            # Its content and fields, not the person's standing choice whether it is injected
            # (versions from before that choice was kept do not hold it either).
            changes = {k: state[k] for k in EDITABLE_FIELDS if k != "inject"}
            changes["tags"] = validate.dump_tags(changes["tags"])
            return self.apply(
                row,
                changes,
                actor,
                pending,
                change="revert",
                reason=f"reverted to version {version}",
            )

    def link(
        self, src: str, dst: str, relation: str = "related", *, actor: Actor = USER
    ) -> dict[str, str]:
        relation = validate.one_of(relation, rules.RELATIONS, "relation")
        with self.desk.write() as pending:
            a, b = self.reads.row(src, "from", actor), self.reads.row(dst, "to", actor)
            if a.id == b.id:
                raise ValidationError("a memory cannot be linked to itself", field="to")
            # A memory's links are part of it: an agent links from its own memories only,
            # and judges none it did not write (superseded, a duplicate, possibly outdated).
            rules.check_may_change(actor, a)
            if relation in rules.JUDGING:
                rules.check_may_change(actor, b)
            self.desk.touch([a.uuid, b.uuid])
            same = (Link.src == a) & (Link.dst == b) & (Link.relation == relation)
            if not Link.select().where(same).exists():  # an existing link changes nothing
                Link.create(src=a, dst=b, relation=relation, created_at=clock.now())
                pending.append(Change("updated", a.uuid, a.version, actor.label))
            return {"from": a.uuid, "to": b.uuid, "relation": relation}

    def unlink(
        self, src: str, dst: str, relation: str | None = None, *, actor: Actor = USER
    ) -> int:
        if relation is not None:
            validate.one_of(relation, rules.RELATIONS, "relation")
        with self.desk.write() as pending:
            a, b = self.reads.row(src, "from", actor), self.reads.row(dst, "to", actor)
            # As `link`: the person's correction superseding their old rule, unlinked by an
            # agent, brought the old rule back to every briefing.
            rules.check_may_change(actor, a)
            if relation in rules.JUDGING:
                rules.check_may_change(actor, b)
            self.desk.touch([a.uuid, b.uuid])
            query = Link.delete().where((Link.src == a) & (Link.dst == b))
            if relation is not None:
                query = query.where(Link.relation == relation)
            elif not rules.wrote(actor, b):
                query = query.where(Link.relation.not_in(rules.JUDGING))
            removed = query.execute()
            if removed:
                pending.append(Change("updated", a.uuid, a.version, actor.label))
            return removed


def _check_in_use(row: Memory, actor: Actor) -> None:
    """An edit to a memory in the Trash or replaced reaches no one: the person's edit landed
    there, said "saved", and agents kept getting the replacement it was meant to overrule.
    The replacement is named to whoever may read it (its id told an agent that a private or
    withheld memory existed)."""
    if row.status == "active":
        return
    last = (
        MemoryVersion.select(MemoryVersion.changed_by, MemoryVersion.changed_at)
        .where(MemoryVersion.memory == row)
        .order_by(MemoryVersion.id.desc())
        .first()
    )
    by = f" by {last.changed_by} at {last.changed_at[:16].replace('T', ' ')}" if last else ""
    if row.status == "deleted":
        raise NotAllowed(
            f"memory {row.uuid} was moved to the Trash{by}, where an edit reaches no one; "
            f"restore it first (`memdesk restore {row.uuid[:8]}`), then edit it",
            field="id",
        )
    # a correction supersedes it; a merge made it a duplicate of its keeper
    newer = (
        Memory.select(Memory.uuid, Memory.flag, Memory.visibility, Memory.agent)
        .join(Link, on=Link.src)
        .where((Link.dst == row) & (Link.relation == "supersedes"))
        .first()
    ) or (
        Memory.select(Memory.uuid, Memory.flag, Memory.visibility, Memory.agent)
        .join(Link, on=Link.dst)
        .where((Link.src == row) & (Link.relation == "duplicate_of"))
        .first()
    )
    instead = f"; edit {newer.uuid} instead" if newer and visible_to(newer, actor) else ""
    raise NotAllowed(
        f"memory {row.uuid} was replaced{by}, so an edit to it reaches no one{instead}",
        field="id",
    )


def _check_version(row: Memory, expected: int | None) -> None:
    if expected is None:
        return
    expected = validate.integer(expected, "expected_version", 1)
    if expected != row.version:
        raise VersionConflict(
            f"memory {row.uuid} is at version {row.version}, not {expected}: it was changed "
            "meanwhile. Reload it and apply your change again.",
            field="expected_version",
            current_version=row.version,
        )


def _validate_edit(given: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "content" in given:
        out["content"] = validate.content(given["content"])
    if "tags" in given:
        out["tags"] = validate.dump_tags(validate.tags(given["tags"]))
    if "kind" in given:
        out["kind"] = validate.one_of(given["kind"], rules.KINDS, "kind")
    if "layer" in given:
        out["layer"] = validate.one_of(given["layer"], rules.LAYERS, "layer")
    if "importance" in given:
        out["importance"] = validate.importance(given["importance"])
    for name in ("project", "task"):
        if name in given:
            out[name] = validate.name(given[name], name)
    if "visibility" in given:
        out["visibility"] = validate.one_of(given["visibility"], rules.VISIBILITIES, "visibility")
    if "inject" in given:
        out["inject"] = validate.boolean(given["inject"], "inject")
    return out
