"""Writing memories: add, dedup, update, correct, remove, restore, revert, links."""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Sequence
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.errors import (
    NotAllowed,
    NotFound,
    ValidationError,
    VersionConflict,
)
from memdesk.core.events import Change
from memdesk.core.guard import withhold
from memdesk.core.memory import dedup
from memdesk.core.memory import dedup as dedup_rules
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.records import EDITABLE_FIELDS, keep_version, to_dict
from memdesk.core.search import neighbours, retrieval
from memdesk.core.search.filters import Filters
from memdesk.store import Link, Memory, MemoryVersion, Proposal, time_limit
from memdesk.store.bulk import insert_rows

UNSET: Any = object()  # "not given", as opposed to None ("clear it")


class Writes:
    """Mixin of MemoryService: every change runs inside `self._write()`."""

    def add(
        self, content: str, *, dedup: bool = True, actor: Actor = USER, **fields: Any
    ) -> dict[str, Any]:
        """Add one memory. A restatement of an active memory in the same layer and project
        reinforces it instead, returned with `duplicate_of` set; a text alike but differing in
        a number, a negation or a name is added, linked to the older one as
        `possible_update`, and returned with `possible_update_of` set."""
        draft = Draft.parse({"content": content, **fields})
        with self._write() as pending:
            return self._add(draft, actor, pending, dedup=dedup)

    def add_many(
        self, items: Sequence[dict[str, Any]], *, dedup: bool = True, actor: Actor = USER
    ) -> list[dict[str, Any]]:
        """Add several memories in one transaction: all of them, or (on any error) none."""
        if not isinstance(items, list | tuple) or not all(isinstance(i, dict) for i in items):
            raise ValidationError("items must be a list of memory objects", field="items")
        drafts = [Draft.parse(item, where=f"items[{n}]") for n, item in enumerate(items)]
        with self._write() as pending:
            if dedup:
                added = [self._add(d, actor, pending, dedup=True, refresh=False) for d in drafts]
            else:
                added = self._insert_all(drafts, actor, pending)
            for task in {d.task for d in drafts if d.task is not None}:
                neighbours.refresh_task(task)
            return added

    def _add(
        self,
        draft: Draft,
        actor: Actor,
        pending: list[Change],
        *,
        dedup: bool,
        supersedes: str | None = None,
        refresh: bool = True,
    ) -> dict[str, Any]:
        rules.check_may_write(actor, draft.layer)
        alike: Memory | None = None
        if dedup:
            alike = self._near_duplicate(draft)
            if alike is not None and dedup_rules.restates(alike.content, draft.content):
                return self._reinforce(alike, actor, pending)
        if draft.layer == "L0":
            self._check_identity_room([len(draft.content)])
        replacing = alike if alike is not None and self._updates_fine(actor, alike) else None
        if replacing is not None:
            supersedes, alike = replacing.uuid, None
        values = _new_row(draft, actor, clock.now(), supersedes)
        cursor = self.database.cursor()
        cursor.execute(_insert_sql(tuple(values)), tuple(values.values()))
        row = Memory(id=cursor.lastrowid, **values)
        if refresh and row.task is not None:
            neighbours.refresh_around(row)
        pending.append(Change("created", row.uuid, row.version, actor.label))
        out = to_dict(row)
        if replacing is not None:
            # The person let this agent's updates of its own notes through: the newer one
            # replaces the older, kept retired, as accepting the Inbox item would.
            self._touch([replacing.uuid])
            why = f"replaced by {row.uuid}: {actor.agent}'s updates are fine (View ▸ Agents)"
            self._set_status(replacing, "inactive", actor, pending, change="correct", reason=why)  # type: ignore[attr-defined]
            Link.create(src=row, dst=replacing, relation="supersedes", created_at=clock.now())
            out["replaced"] = replacing.uuid
        if alike is not None:
            # Alike but saying something else (another number, a negation, a name): stored,
            # and linked so the person can retire the stale one.
            self._touch([alike.uuid])
            Link.create(src=row, dst=alike, relation="possible_update", created_at=clock.now())
            self._propose_update(row, alike, actor, pending)
            out["possible_update_of"] = alike.uuid
        return out

    def _updates_fine(self, actor: Actor, alike: Memory) -> bool:
        """The person chose that this agent's updates of its own notes need no review."""
        return (
            actor.source == "agent"
            and alike.agent == actor.agent
            and alike.source == "agent"
            and self.agent_modes().get(actor.agent) == rules.UPDATES_FINE  # type: ignore[attr-defined]
        )

    def _propose_update(
        self, row: Memory, alike: Memory, actor: Actor, pending: list[Change]
    ) -> None:
        """One Inbox item per memory and its newer versions: a note that differs from the
        last only by a number joins the item already waiting for it (an agent writing such
        notes filled the Inbox with 263 items in a minute); accepting it keeps the newest."""
        waiting = next(
            (
                p
                for p in Proposal.select().where(
                    (Proposal.status == "pending")
                    & (Proposal.kind == "update")
                    & Proposal.subject.contains(alike.uuid)
                )
                if json.loads(p.subject)[0] == alike.uuid
            ),
            None,
        )
        if waiting is None:
            self._propose(  # type: ignore[attr-defined]
                pending,
                agent=actor.agent,
                kind="update",
                content=row.content,
                why="may replace an older memory: "
                + dedup_rules.differences(alike.content, row.content),
                memory=row.uuid,
                subject=json.dumps([row.uuid, alike.uuid]),
            )
            return
        newest_first = [row.uuid, *json.loads(waiting.subject)]
        oldest = Memory.get(Memory.uuid == newest_first[-1])
        older = len(newest_first) - 1
        self._set_proposal(  # type: ignore[attr-defined]
            waiting,
            content=row.content,
            memory=row.uuid,
            subject=json.dumps(newest_first),
            support=waiting.support + 1,
            why=f"may replace {older} older memories: "
            + dedup_rules.differences(oldest.content, row.content),
        )

    def _insert_all(
        self, drafts: list[Draft], actor: Actor, pending: list[Change]
    ) -> list[dict[str, Any]]:
        """Many new memories in bulk: one statement per chunk instead of one per memory."""
        for layer in {d.layer for d in drafts}:
            rules.check_may_write(actor, layer)
        identity = [len(d.content) for d in drafts if d.layer == "L0"]
        if identity:
            self._check_identity_room(identity)
        stamp = clock.now()
        rows = [_new_row(d, actor, stamp) for d in drafts]
        if not rows:
            return []
        insert_rows(self.database, "memory", tuple(rows[0]), [tuple(r.values()) for r in rows])
        pending.extend(Change("created", r["uuid"], 1, actor.label) for r in rows)
        return [to_dict(Memory(**row)) for row in rows]

    def _near_duplicate(self, draft: Draft) -> Memory | None:
        """The most similar active memory in the draft's layer and project, if at least
        DEDUP_JACCARD alike (a restatement first, then the newest of equals)."""
        words = dedup.word_set(draft.content)
        filters = Filters(layers=(draft.layer,), statuses=("active",), project=draft.project)
        ids = dedup.candidates(words, rules.DEDUP_JACCARD, self._word_counts, retrieval.postings)
        if ids is not None:
            rows = retrieval.rows_passing(ids, filters)
        else:  # words too common to read every memory holding them: the best-ranked ones
            spare = dedup.spare(words, rules.DEDUP_JACCARD)
            probe = dedup.rarest(words, self._word_counts)[: spare + 1]
            hits = retrieval.containing_any(probe, filters, k=20)
            rows = [(hit["uuid"], hit["content"], hit["project"]) for hit in hits]
        best, best_rank = None, (False, 0.0)
        likeness = dedup.likeness_to(draft.content)
        for memory_id, content, project in rows:
            if project != draft.project:  # no project is a project of its own here
                continue
            similarity = likeness(content)
            if similarity < rules.DEDUP_JACCARD:
                continue
            rank = (dedup.restates(content, draft.content), similarity)
            if rank > best_rank:
                best, best_rank = memory_id, rank
        return None if best is None else Memory.get(Memory.uuid == best)

    def _reinforce(self, row: Memory, actor: Actor, pending: list[Change]) -> dict[str, Any]:
        # Not a new version: the content is unchanged, only the evidence for it grew.
        self._touch([row.uuid])
        row.reinforce_count += 1
        row.updated_at = clock.now()
        row.save(only=[Memory.reinforce_count, Memory.updated_at])
        if row.visibility == "private":
            self._consider_sharing(row, actor, pending)  # type: ignore[attr-defined]
        pending.append(Change("updated", row.uuid, row.version, actor.label))
        return {**to_dict(row), "duplicate_of": row.uuid}

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
        with self._write() as pending:
            row = self._row(memory_id, actor=actor)
            _check_version(row, expected_version)
            return self._apply(row, changes, actor, pending, change="update", reason=reason)

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
        with self._write() as pending:
            rows = self._rows(ids)
            if changes.get("layer") == "L0":
                moving = [r for r in rows if r.status == "active" and r.layer != "L0"]
                sizes = [len(changes.get("content", r.content)) for r in moving]
                size = sum(sizes)
                self._check_identity_room(
                    sizes,
                    advice=f"or move fewer memories (these {len(moving):,} hold {size:,} "
                    "characters; {over} too many)",
                )
            return [
                self._apply(row, changes, actor, pending, change="update", reason=reason)
                for row in rows
            ]

    def _apply(
        self,
        row: Memory,
        changes: dict[str, Any],
        actor: Actor,
        pending: list[Change],
        *,
        change: str,
        reason: str | None,
    ) -> dict[str, Any]:
        changes = {k: v for k, v in changes.items() if getattr(row, k) != v}
        if not changes:
            return to_dict(row)
        rules.check_may_write(actor, row.layer)
        if "inject" in changes:
            rules.check_may_choose_injection(actor)
        new_layer = changes.get("layer", row.layer)
        rules.check_may_write(actor, new_layer)
        if new_layer == "L0" and row.status == "active":
            self._check_identity_room([len(changes.get("content", row.content))], exclude=row)
        self._save(row, changes, actor, pending, change=change, reason=reason)
        return to_dict(row)

    def _save(
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
        if "content" in fields and "flag" not in fields:  # new words are read again
            flag = withhold.reasons_for(fields["content"], actor.source, earlier=row.flag)
            fields = {**fields, "flag": flag}
        self._record(row, actor, change, reason)
        old_task = row.task
        for key, value in fields.items():
            setattr(row, key, value)
        columns = [*fields, "version", "updated_at"]
        # A prepared statement: peewee's save() cost more to build than SQLite took to run it.
        self.database.execute_sql(
            f"UPDATE memory SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
            (*(getattr(row, c) for c in columns), row.id),
        )
        if "content" in fields or "task" in fields:
            neighbours.refresh_around(row)
            if old_task is not None and old_task != row.task:
                neighbours.refresh_task(old_task)
        event = {"deleted": "deleted", "active": "restored"}.get(fields.get("status", ""))
        pending.append(Change(event or "updated", row.uuid, row.version, actor.label))

    def _record(self, row: Memory, actor: Actor, change: str, reason: str | None) -> None:
        """Keep the state before a change, then bump the version and the change time."""
        self._touch([row.uuid])
        stamp = keep_version(row, actor, change, reason)
        row.version += 1
        row.updated_at = stamp

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
        with self._write() as pending:
            old = self._row(memory_id, actor=actor)
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
            }
            draft = Draft.parse({**inherited, **fields, "content": content})
            rules.check_may_write(actor, old.layer)
            if draft.layer == "L0":
                self._check_identity_room([len(draft.content)], exclude=old)
            self._set_status(old, "inactive", actor, pending, change="correct", reason=reason)
            new = self._add(draft, actor, pending, dedup=False, supersedes=old.uuid)
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
        with self._write() as pending:
            row = self._row(memory_id, actor=actor)
            _check_version(row, expected_version)
            past = row.versions.where(MemoryVersion.version == version).first()
            if past is None:
                raise NotFound(
                    f"memory {row.uuid} has no earlier version {version} "
                    f"(it is at version {row.version})",
                    field="version",
                )
            if actor.source == "agent" and version not in self._versions_agents_see(row):
                raise NotAllowed(
                    f"version {version} of memory {row.uuid} is withheld from agents (it holds "
                    "what the guard withheld, or predates the person's release); only the "
                    "person may revert to it",
                    field="version",
                )
            state = json.loads(past.state)
            # Its content and fields, not the person's standing choice whether it is injected
            # (versions from before that choice was kept do not hold it either).
            changes = {k: state[k] for k in EDITABLE_FIELDS if k != "inject"}
            changes["tags"] = validate.dump_tags(changes["tags"])
            return self._apply(
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
        with self._write() as pending:
            a, b = self._row(src, "from", actor), self._row(dst, "to", actor)
            if a.id == b.id:
                raise ValidationError("a memory cannot be linked to itself", field="to")
            self._touch([a.uuid, b.uuid])
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
        with self._write() as pending:
            a, b = self._row(src, "from", actor), self._row(dst, "to", actor)
            self._touch([a.uuid, b.uuid])
            query = Link.delete().where((Link.src == a) & (Link.dst == b))
            if relation is not None:
                query = query.where(Link.relation == relation)
            removed = query.execute()
            if removed:
                pending.append(Change("updated", a.uuid, a.version, actor.label))
            return removed


@functools.cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    # A prepared statement: building the INSERT in the query builder cost more than SQLite
    # took to store the row.
    return f"INSERT INTO memory ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _new_row(
    draft: Draft, actor: Actor, stamp: str, supersedes: str | None = None
) -> dict[str, Any]:
    # Every new memory costs a guard scan and maybe a near-duplicate check: a batch of them
    # is where a request out of time stops (and its transaction rolls back).
    time_limit.checkpoint()
    return {
        "uuid": str(uuid.uuid4()),
        "layer": draft.layer,
        "kind": draft.kind,
        "content": draft.content,
        "source": actor.source,
        "agent": actor.agent,
        "created_at": draft.created_at or stamp,
        "updated_at": stamp,
        "project": draft.project,
        "task": draft.task,
        "tags": validate.dump_tags(draft.tags),
        "importance": draft.importance,
        "supersedes": supersedes,
        "visibility": draft.visibility,
        "flag": withhold.reasons_for(draft.content, actor.source, confidence=draft.confidence),
        "confidence": draft.confidence,
    }


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
