"""The memory service: the one way in to the store, and where the rules of memory live."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import peewee

from memdesk.core import clock, retrieval, rules, validate
from memdesk.core.actor import SYSTEM, USER, Actor
from memdesk.core.dedup import jaccard, word_set
from memdesk.core.draft import Draft
from memdesk.core.errors import (
    Busy,
    IdentityFull,
    NotAllowed,
    NotFound,
    ValidationError,
    VersionConflict,
)
from memdesk.core.events import Change, ChangeFeed
from memdesk.core.filters import Filters, order_by
from memdesk.core.records import EDITABLE_FIELDS, snapshot, to_dict
from memdesk.store import Link, Memory, MemoryVersion, RetrievalLog, open_database
from memdesk.store import fts as store_fts
from memdesk.store.db import write_transaction

UNSET: Any = object()  # "not given", as opposed to None ("clear it")


class MemoryService:
    """Add, change, find and remove memories. Plain Python: no Qt, safe to call from any thread.

    Every write runs in one IMMEDIATE transaction and, once committed, is announced on
    `changes` so windows and subscribed agents see it.
    """

    def __init__(self, database: peewee.SqliteDatabase) -> None:
        self.database = database
        self.changes = ChangeFeed()

    @classmethod
    def open(cls, path: str | Path) -> MemoryService:
        return cls(open_database(path))

    @property
    def path(self) -> Path:
        return Path(self.database.database)

    def close(self) -> None:
        self.database.close()

    @contextmanager
    def _write(self) -> Iterator[list[Change]]:
        pending: list[Change] = []
        try:
            with write_transaction():
                yield pending
        except peewee.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise Busy(
                    "the database is busy with another writer; try again in a moment"
                ) from exc
            raise
        self.changes.publish(pending)

    # -- reading -----------------------------------------------------------------------------

    def _row(self, memory_id: object, field: str = "id") -> Memory:
        """Find a memory by its id, or by a unique prefix of at least 4 characters."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise ValidationError(f"{field} must be a memory id (text)", field=field)
        memory_id = memory_id.strip().lower()
        row = Memory.get_or_none(Memory.uuid == memory_id)
        if row is None and len(memory_id) >= 4:
            matches = list(
                Memory.select()
                .where((Memory.uuid >= memory_id) & (Memory.uuid < memory_id + "\uffff"))
                .limit(2)
            )
            if len(matches) > 1:
                raise ValidationError(
                    f"{field} {memory_id!r} matches several memories; give more characters",
                    field=field,
                )
            row = matches[0] if matches else None
        if row is None:
            raise NotFound(f"no memory with id {memory_id!r}", field=field)
        return row

    def get(self, memory_id: str) -> dict[str, Any]:
        row = self._row(memory_id)
        out = to_dict(row)
        out["links"] = self._links_of(row)
        return out

    def _links_of(self, row: Memory) -> list[dict[str, str]]:
        links = []
        for link in Link.select(Link, Memory).join(Memory, on=Link.dst).where(Link.src == row):
            links.append({"id": link.dst.uuid, "relation": link.relation, "direction": "out"})
        for link in Link.select(Link, Memory).join(Memory, on=Link.src).where(Link.dst == row):
            links.append({"id": link.src.uuid, "relation": link.relation, "direction": "in"})
        return links

    def list_memories(
        self, *, offset: int = 0, limit: int = 50, order: str = "-updated_at", **filters: Any
    ) -> list[dict[str, Any]]:
        """A page of memories matching `filters` (see `Filters.build`), sorted in SQL."""
        offset = validate.integer(offset, "offset", 0)
        limit = validate.integer(limit, "limit", 1, 10_000)
        query = (
            Memory.select()
            .where(Filters.build(**filters).where())
            .order_by(*order_by(order))
            .offset(offset)
            .limit(limit)
        )
        return [to_dict(row) for row in query]

    def count(self, **filters: Any) -> int:
        return Memory.select().where(Filters.build(**filters).where()).count()

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """Every version, oldest first, each with the change that produced it (who, when, why)."""
        row = self._row(memory_id)
        past = list(row.versions.order_by(MemoryVersion.version))
        states = [json.loads(v.state) for v in past] + [to_dict(row)]
        made_by = [
            {
                "change": "add",
                "by": Actor(row.source, row.agent).label,
                "at": row.created_at,
                "reason": None,
            }
        ]
        made_by += [
            {"change": v.change, "by": v.changed_by, "at": v.changed_at, "reason": v.reason}
            for v in past
        ]
        entries = []
        for state, made in zip(states, made_by, strict=True):
            state.pop("id", None)
            entries.append({**state, **made})
        return entries

    # -- writing -----------------------------------------------------------------------------

    def add(
        self, content: str, *, dedup: bool = True, actor: Actor = USER, **fields: Any
    ) -> dict[str, Any]:
        """Add one memory. A near-duplicate in the same layer and project is reinforced instead,
        and returned with `duplicate_of` set."""
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
            return [self._add(d, actor, pending, dedup=dedup) for d in drafts]

    def _add(
        self,
        draft: Draft,
        actor: Actor,
        pending: list[Change],
        *,
        dedup: bool,
        supersedes: str | None = None,
    ) -> dict[str, Any]:
        rules.check_may_write(actor, draft.layer)
        if dedup:
            twin = self._near_duplicate(draft)
            if twin is not None:
                return self._reinforce(twin, actor, pending)
        if draft.layer == "L0":
            self._check_identity_room(len(draft.content))
        stamp = clock.now()
        row = Memory.create(
            uuid=_new_uuid(),
            layer=draft.layer,
            kind=draft.kind,
            content=draft.content,
            source=actor.source,
            agent=actor.agent,
            created_at=draft.created_at or stamp,
            updated_at=stamp,
            project=draft.project,
            task=draft.task,
            tags=validate.dump_tags(draft.tags),
            importance=draft.importance,
            supersedes=supersedes,
        )
        pending.append(Change("created", row.uuid, row.version, actor.label))
        return to_dict(row)

    def _near_duplicate(self, draft: Draft) -> Memory | None:
        words = word_set(draft.content)
        filters = Filters(layers=(draft.layer,), statuses=("active",))
        candidates = retrieval.search(draft.content, filters, k=20)
        for hit in candidates:
            same_project = hit.row.project == draft.project
            if same_project and jaccard(words, word_set(hit.row.content)) >= rules.DEDUP_JACCARD:
                return hit.row
        return None

    def _reinforce(self, row: Memory, actor: Actor, pending: list[Change]) -> dict[str, Any]:
        # Not a new version: the content is unchanged, only the evidence for it grew.
        row.reinforce_count += 1
        row.updated_at = clock.now()
        row.save(only=[Memory.reinforce_count, Memory.updated_at])
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
        }
        changes = _validate_edit({k: v for k, v in given.items() if v is not UNSET})
        with self._write() as pending:
            row = self._row(memory_id)
            _check_version(row, expected_version)
            return self._apply(row, changes, actor, pending, change="update", reason=reason)

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
        new_layer = changes.get("layer", row.layer)
        rules.check_may_write(actor, new_layer)
        if new_layer == "L0" and row.status == "active":
            self._check_identity_room(len(changes.get("content", row.content)), exclude=row)
        self._record(row, actor, change, reason)
        for key, value in changes.items():
            setattr(row, key, value)
        row.save()
        pending.append(Change("updated", row.uuid, row.version, actor.label))
        return to_dict(row)

    def _record(self, row: Memory, actor: Actor, change: str, reason: str | None) -> None:
        """Keep the state before a change, then bump the version and the change time."""
        stamp = clock.now()
        MemoryVersion.create(
            memory=row,
            version=row.version,
            state=snapshot(row),
            changed_by=actor.label,
            changed_at=stamp,
            change=change,
            reason=reason,
        )
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
            old = self._row(memory_id)
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
                self._check_identity_room(len(draft.content), exclude=old)
            self._set_status(old, "inactive", actor, pending, change="correct", reason=reason)
            new = self._add(draft, actor, pending, dedup=False, supersedes=old.uuid)
            Link.create(
                src=Memory.get(Memory.uuid == new["id"]),
                dst=old,
                relation="supersedes",
                created_at=clock.now(),
            )
            return new

    def remove(
        self, memory_id: str, *, reason: str | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Move a memory to the Trash (restorable)."""
        with self._write() as pending:
            row = self._row(memory_id)
            rules.check_may_write(actor, row.layer)
            self._set_status(row, "deleted", actor, pending, change="remove", reason=reason)
            return to_dict(row)

    def restore(
        self, memory_id: str, *, reason: str | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Bring a deleted or superseded memory back to active."""
        with self._write() as pending:
            row = self._row(memory_id)
            rules.check_may_write(actor, row.layer)
            if row.layer == "L0" and row.status != "active":
                self._check_identity_room(len(row.content))
            self._set_status(row, "active", actor, pending, change="restore", reason=reason)
            return to_dict(row)

    def _set_status(
        self,
        row: Memory,
        status: str,
        actor: Actor,
        pending: list[Change],
        *,
        change: str,
        reason: str | None,
    ) -> None:
        if row.status == status:
            return
        self._record(row, actor, change, reason)
        row.status = status
        row.save()
        event = {"deleted": "deleted", "active": "restored"}.get(status, "updated")
        pending.append(Change(event, row.uuid, row.version, actor.label))

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
            row = self._row(memory_id)
            _check_version(row, expected_version)
            past = row.versions.where(MemoryVersion.version == version).first()
            if past is None:
                raise NotFound(
                    f"memory {row.uuid} has no earlier version {version} "
                    f"(it is at version {row.version})",
                    field="version",
                )
            state = json.loads(past.state)
            changes = {k: state[k] for k in EDITABLE_FIELDS}
            changes["tags"] = validate.dump_tags(changes["tags"])
            return self._apply(
                row,
                changes,
                actor,
                pending,
                change="revert",
                reason=f"reverted to version {version}",
            )

    def purge(self, memory_id: str, *, actor: Actor = USER) -> None:
        """Delete a memory from the Trash for good, with its history and links."""
        with self._write() as pending:
            row = self._row(memory_id)
            if row.status != "deleted":
                raise NotAllowed(
                    f"memory {row.uuid} is {row.status}; only memories in the "
                    "Trash can be deleted permanently (remove it first)",
                    field="id",
                )
            row.delete_instance()
            pending.append(Change("deleted", row.uuid, None, actor.label, purged=True))

    def empty_trash(self, *, actor: Actor = USER) -> int:
        with self._write() as pending:
            uuids = [r.uuid for r in Memory.select(Memory.uuid).where(Memory.status == "deleted")]
            Memory.delete().where(Memory.status == "deleted").execute()
            pending.extend(Change("deleted", u, None, actor.label, purged=True) for u in uuids)
            return len(uuids)

    def link(
        self, src: str, dst: str, relation: str = "related", *, actor: Actor = USER
    ) -> dict[str, str]:
        relation = validate.one_of(relation, rules.RELATIONS, "relation")
        with self._write() as pending:
            a, b = self._row(src, "from"), self._row(dst, "to")
            if a.id == b.id:
                raise ValidationError("a memory cannot be linked to itself", field="to")
            Link.insert(
                src=a, dst=b, relation=relation, created_at=clock.now()
            ).on_conflict_ignore().execute()
            pending.append(Change("updated", a.uuid, a.version, actor.label))
            return {"from": a.uuid, "to": b.uuid, "relation": relation}

    def unlink(
        self, src: str, dst: str, relation: str | None = None, *, actor: Actor = USER
    ) -> int:
        if relation is not None:
            validate.one_of(relation, rules.RELATIONS, "relation")
        with self._write() as pending:
            a, b = self._row(src, "from"), self._row(dst, "to")
            query = Link.delete().where((Link.src == a) & (Link.dst == b))
            if relation is not None:
                query = query.where(Link.relation == relation)
            removed = query.execute()
            if removed:
                pending.append(Change("updated", a.uuid, a.version, actor.label))
            return removed

    # -- identity (L0) -----------------------------------------------------------------------

    def _identity_rows(self) -> list[Memory]:
        return list(
            Memory.select()
            .where((Memory.layer == "L0") & (Memory.status == "active"))
            .order_by(Memory.created_at, Memory.id)
        )

    def _check_identity_room(self, adding: int, exclude: Memory | None = None) -> None:
        used = sum(
            len(r.content) for r in self._identity_rows() if exclude is None or r.id != exclude.id
        )
        total = used + adding
        if total > rules.IDENTITY_LIMIT:
            raise IdentityFull(
                f"Identity (L0) would be {total:,} characters; the limit is "
                f"{rules.IDENTITY_LIMIT:,} ({used:,} used by other entries, "
                f"{max(0, rules.IDENTITY_LIMIT - used):,} free). Merge or remove identity "
                f"entries first, or shorten this text by {total - rules.IDENTITY_LIMIT:,} "
                "characters.",
                field="content",
                size=total,
                limit=rules.IDENTITY_LIMIT,
            )

    def identity(self) -> dict[str, Any]:
        """The whole profile: active L0 entries joined by newlines, with its size and limit."""
        rows = self._identity_rows()
        return {
            "text": "\n".join(r.content for r in rows),
            "size": sum(len(r.content) for r in rows),
            "limit": rules.IDENTITY_LIMIT,
            "ids": [r.uuid for r in rows],
        }

    def set_identity(
        self, text: str, *, expected: Sequence[str] | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Replace the profile with `text` as one entry; former entries go to history/Trash.

        `expected` (the ids from `identity()`) makes it fail if an agent changed the
        profile since it was read, rather than overwrite that change.
        """
        if not isinstance(text, str):
            raise ValidationError("text must be text", field="text")
        text = text.strip()
        if len(text) > rules.IDENTITY_LIMIT:
            raise IdentityFull(
                f"Identity (L0) text is {len(text):,} characters; the limit is "
                f"{rules.IDENTITY_LIMIT:,}. Cut {len(text) - rules.IDENTITY_LIMIT:,} characters.",
                field="text",
                size=len(text),
                limit=rules.IDENTITY_LIMIT,
            )
        rules.check_may_write(actor, "L0")
        with self._write() as pending:
            rows = self._identity_rows()
            if expected is not None and [r.uuid for r in rows] != list(expected):
                raise VersionConflict(
                    "the identity profile changed since it was read; "
                    "reload it and apply your edit again",
                    field="text",
                )
            keep, *others = rows or [None]
            for row in others:
                self._set_status(
                    row,
                    "deleted",
                    actor,
                    pending,
                    change="remove",
                    reason="merged into the identity profile",
                )
            if keep is None and text:
                self._add(
                    Draft(content=text, layer="L0", kind="preference"), actor, pending, dedup=False
                )
            elif keep is not None and not text:
                self._set_status(
                    keep,
                    "deleted",
                    actor,
                    pending,
                    change="remove",
                    reason="identity profile cleared",
                )
            elif keep is not None:
                self._apply(
                    keep,
                    {"content": text},
                    actor,
                    pending,
                    change="update",
                    reason="identity profile edited",
                )
        return self.identity()

    # -- search ------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        layers: Sequence[str] | None = None,
        include_inactive: bool = False,
        record: bool = True,
        actor: Actor = USER,
        **filters: Any,
    ) -> dict[str, Any]:
        """The top `k` memories for `query`. Any text is a valid query.

        Each search counts as a recall of the memories it returns and is written to the
        retrieval log (unless `record` is False, e.g. for a person typing in the search box).
        """
        started = time.perf_counter()
        query = validate.query(query)
        k = validate.integer(k, "k", 1, rules.MAX_K)
        statuses = ("active", "inactive") if include_inactive else ("active",)
        found = Filters.build(layers=layers, status=statuses, **filters)
        hits = retrieval.search(query, found, k)
        took_ms = (time.perf_counter() - started) * 1000
        out = [{**_hit_fields(h.row), "score": round(h.score, 4)} for h in hits]
        if record:
            self._record_search(query, found, out, took_ms, actor)
        return {"hits": out, "took_ms": round(took_ms, 3)}

    def _record_search(
        self, query: str, found: Filters, hits: list[dict[str, Any]], took_ms: float, actor: Actor
    ) -> None:
        stamp = clock.now()
        with write_transaction():
            if hits:
                (
                    Memory.update(recall_count=Memory.recall_count + 1, last_recalled_at=stamp)
                    .where(Memory.uuid.in_([h["id"] for h in hits]))
                    .execute()
                )
            RetrievalLog.create(
                at=stamp,
                client=actor.label,
                query=query,
                filters=json.dumps(found.to_dict(), ensure_ascii=False),
                results=json.dumps([[h["id"], h["score"]] for h in hits]),
                took_ms=took_ms,
            )

    def retrieval_log(self, *, offset: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        rows = (
            RetrievalLog.select()
            .order_by(RetrievalLog.id.desc())
            .offset(validate.integer(offset, "offset", 0))
            .limit(validate.integer(limit, "limit", 1, 10_000))
        )
        return [
            {
                "at": r.at,
                "client": r.client,
                "query": r.query,
                "filters": json.loads(r.filters),
                "results": json.loads(r.results),
                "took_ms": r.took_ms,
            }
            for r in rows
        ]

    # -- the archive and the whole database --------------------------------------------------

    def archive(
        self,
        summary: str,
        *,
        project: str | None = None,
        task: str | None = None,
        tags: Sequence[str] = (),
        actor: Actor = SYSTEM,
    ) -> dict[str, Any]:
        """File an L2 session or task summary (the archive is written as the system)."""
        writer = actor if actor.source == "user" else Actor("system", actor.agent)
        draft = Draft.parse(
            {
                "content": summary,
                "layer": "L2",
                "kind": "summary",
                "project": project,
                "task": task,
                "tags": list(tags),
            }
        )
        with self._write() as pending:
            return self._add(draft, writer, pending, dedup=False)

    def stats(self) -> dict[str, Any]:
        def grouped(column: peewee.Field, where: peewee.Expression) -> dict[str, int]:
            query = (
                Memory.select(column, peewee.fn.COUNT(Memory.id).alias("n"))
                .where(where)
                .group_by(column)
                .tuples()
            )
            return {str(key): n for key, n in query}

        active = Memory.status == "active"
        tag_counts = self.database.execute_sql(
            "SELECT j.value, COUNT(*) FROM memory, json_each(memory.tags) j "
            "WHERE memory.status = 'active' GROUP BY j.value ORDER BY COUNT(*) DESC"
        ).fetchall()
        identity = self.identity()
        return {
            "total": Memory.select().count(),
            "by_status": grouped(Memory.status, Memory.id.is_null(False)),
            "by_layer": grouped(Memory.layer, active),
            "by_kind": grouped(Memory.kind, active),
            "by_source": grouped(Memory.source, active),
            "projects": grouped(Memory.project, active & Memory.project.is_null(False)),
            "tags": dict(tag_counts),
            "identity": {"size": identity["size"], "limit": identity["limit"]},
            "versions": MemoryVersion.select().count(),
            "links": Link.select().count(),
            "searches": RetrievalLog.select().count(),
            "path": str(self.path),
        }

    def check(self) -> list[str]:
        """Problems in the file or the search index; an empty list means healthy."""
        return store_fts.check(self.database)

    def rebuild_index(self) -> None:
        with write_transaction():
            store_fts.rebuild(self.database)


def _new_uuid() -> str:
    return str(uuid.uuid4())


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
    return out


def _hit_fields(row: Memory) -> dict[str, Any]:
    record = to_dict(row)
    keys = (
        "id",
        "content",
        "layer",
        "kind",
        "tags",
        "project",
        "task",
        "created_at",
        "source",
        "agent",
        "importance",
    )
    return {k: record[k] for k in keys}
