"""The memory service: the one way in to the store, and where the rules of memory live."""

from __future__ import annotations

import atexit
import logging
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import peewee

from memdesk.core import validate
from memdesk.core.actor import SYSTEM, USER, Actor
from memdesk.core.errors import (
    Busy,
    DiskFull,
    NotAllowed,
    ReadOnly,
    TooSlow,
    ValidationError,
    VersionConflict,
)
from memdesk.core.events import Change, ChangeFeed
from memdesk.core.files import transfer
from memdesk.core.files.backups import Backups
from memdesk.core.guard import apart
from memdesk.core.memory import dedup, steps
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.identity import Identity
from memdesk.core.memory.reads import Reads
from memdesk.core.memory.status import StatusChanges
from memdesk.core.memory.writes import Writes
from memdesk.core.review.agent_controls import AgentControls
from memdesk.core.review.consolidate import Consolidation
from memdesk.core.review.inbox import Inbox
from memdesk.core.search import frequency
from memdesk.core.search.filters import Filters
from memdesk.core.search.recall import Recall
from memdesk.core.sessions import archive, context
from memdesk.core.sessions.injections import Injections
from memdesk.core.sessions.lifecycle import Sessions
from memdesk.core.sync import config as sync_config
from memdesk.core.sync.syncing import Sync
from memdesk.core.views.as_of import AsOf
from memdesk.core.views.dashboard import Dashboard
from memdesk.core.views.graph import Graph
from memdesk.store import (
    Link,
    Memory,
    MemoryVersion,
    Proposal,
    RetrievalLog,
    close_database,
    not_waiting,
    open_database,
    time_limit,
)
from memdesk.store import fts as store_fts
from memdesk.store.db import write_transaction
from memdesk.store.statistics import optimize as optimize_statistics

logger = logging.getLogger(__name__)
T = TypeVar("T")
# An import, a sync or a bulk add this large can change the store's shape: let SQLite look.
BULK_CHANGES = 1000

# Searches queue their bookkeeping; a script that ends without close() must not lose it.
_open_services: weakref.WeakSet[MemoryService] = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for service in list(_open_services):
        try:
            service.flush_recalls()
        except Exception:  # exiting anyway: say so, do not hide the original exit
            logger.exception("could not write queued search bookkeeping at exit")


class MemoryService(  # each mixin is one room of rules (reads, writes, sessions, …)
    Reads,
    Writes,
    StatusChanges,
    Identity,
    Recall,
    Backups,
    Sessions,
    Dashboard,
    AsOf,
    Graph,
    Injections,
    AgentControls,
    Inbox,
    Consolidation,
    Sync,
):
    """Add, change, find and remove memories. Plain Python: no Qt, safe to call from any thread.

    Every write runs in one IMMEDIATE transaction and, once committed, is announced on
    `changes` so windows and subscribed agents see it.
    """

    def __init__(self, database: peewee.SqliteDatabase) -> None:
        self.database = database
        self.changes = ChangeFeed()
        self._recalls: list[dict[str, Any]] = []
        self._recalls_lock = threading.Lock()
        self._word_counts = dedup.WordCounts(frequency.count)
        self._local = threading.local()  # this thread's Recorder while `record` runs
        _open_services.add(self)

    @classmethod
    def open(cls, path: str | Path) -> MemoryService:
        return cls(open_database(path))

    @property
    def path(self) -> Path:
        return Path(self.database.database)

    @contextmanager
    def serving(self) -> Iterator[None]:
        """While a server answers clients from this service: the guard reads long texts in a
        process of its own, so scanning them never holds up another client's request."""
        with apart.serving():
            yield

    @contextmanager
    def not_waiting(self) -> Iterator[None]:
        """Writes in the block raise Busy at once while another writer holds the store (idle
        bookkeeping on the server's thread: the person's requests must not queue behind it)."""
        with not_waiting(self.database):
            yield

    def release_thread(self) -> None:
        """Close the calling thread's own connection: a worker thread calls this when done."""
        self.database.close()

    def close(self) -> None:
        _open_services.discard(self)
        self.flush_recalls()
        close_database(self.database)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        try:
            with write_transaction():
                yield
        except (peewee.OperationalError, sqlite3.OperationalError) as exc:
            # Raw statements raise sqlite3's error, the query builder peewee's: both count.
            # SQLite rolls back by itself on a full disk; peewee's own rollback then fails
            # with "no transaction is active", hiding the cause: look at both.
            why = f"{exc} {exc.__context__ or ''}"
            if "locked" in why or "busy" in why:
                raise Busy(
                    "the database is busy with another writer; try again in a moment"
                ) from exc
            if "full" in why:
                raise DiskFull(
                    f"disk full: the disk holding {self.path} has no room, so nothing was "
                    "written; reading still works. Free some space and try again."
                ) from exc
            if "readonly" in why:
                raise ReadOnly(
                    f"{self.path} is read-only (file or folder permissions, or a read-only "
                    "disk), so nothing was written; reading still works"
                ) from exc
            raise

    @contextmanager
    def time_limit(self, seconds: float, what: str) -> Iterator[None]:
        """Stop `what` once it has run `seconds`: the statement or batch running then is
        rolled back and the caller told, so one request cannot hold the store."""
        try:
            with time_limit.time_limit(seconds):
                yield
        except time_limit.Interrupted:
            raise TooSlow(
                f"{what} was stopped after {seconds:g} s, the longest one request may take; "
                "what it was writing when stopped was rolled back. Ask for less: a narrower "
                "query or filter, a smaller limit, fewer items at once.",
                limit_s=seconds,
            ) from None

    @contextmanager
    def _write(self) -> Iterator[list[Change]]:
        """A write transaction whose changes are announced once it has committed (inside
        `record`, a savepoint of the recording's transaction, announced when that commits)."""
        self.flush_recalls()
        pending: list[Change] = []
        recorder = getattr(self._local, "recorder", None)
        with self._transaction():
            yield pending
            if recorder is not None:
                recorder.note(pending)
        if recorder is None:
            self.changes.publish(pending)
        if len(pending) >= BULK_CHANGES:
            optimize_statistics(self.database)

    def _touch(self, uuids: Iterable[str]) -> None:
        """About to change these memories: while recording, keep their state from before."""
        recorder = getattr(self._local, "recorder", None)
        if recorder is not None:
            recorder.touch(uuids)

    def record(self, action: Callable[[], T]) -> tuple[T, steps.Step]:
        """Run `action` (one or more writing calls) as one transaction, all or nothing, and
        return its result with the Step that undoes it exactly."""
        recorder = steps.Recorder()
        self._local.recorder = recorder
        try:
            with self._transaction():
                result = action()
                recorder.finish()
        finally:
            self._local.recorder = None
        self.changes.publish(recorder.pending)
        if len(recorder.pending) >= BULK_CHANGES:
            optimize_statistics(self.database)
        return result, recorder.step

    def apply_step(self, step: steps.Step, *, undo: bool, actor: Actor = USER) -> None:
        """Undo (or redo) a recorded step in one transaction. Refused as a whole, with the
        reason, when a memory it touched no longer holds what the step left there."""
        expect, target = (step.after, step.before) if undo else (step.before, step.after)
        proposals_expect, proposals_target = (
            (step.proposals_after, step.proposals_before)
            if undo
            else (step.proposals_before, step.proposals_after)
        )
        with self._write() as pending:
            now = steps.capture(step.ids)
            proposals_now = steps.capture_proposals(list(proposals_expect))
            why = steps.conflicts(step, expect, target, now) or steps.proposal_conflict(
                proposals_expect, proposals_now
            )
            if why:
                raise VersionConflict(why)
            steps.write(
                step,
                (expect, target, now),
                actor,
                pending,
                "undo" if undo else "redo",
                save=self._save,
            )
            self._check_identity_room([])
            steps.write_proposals(proposals_target, proposals_now)
            if proposals_target:
                pending.append(Change("inbox", "", None, actor.label))

    def archive_session(
        self,
        *,
        what: str,
        decisions: Sequence[str] | None = None,
        files: Sequence[str] | None = None,
        unfinished: Sequence[str] | None = None,
        commits: Sequence[str] | None = None,
        project: str | None = None,
        task: str | None = None,
        actor: Actor = SYSTEM,
    ) -> dict[str, Any]:
        """File the structured summary of a finished (or crashed) session in the L2 archive.

        The archive is the system's to write, so an agent's summary is filed as the system,
        still naming the agent.
        """
        content = archive.render_summary(what, decisions, files, unfinished, commits)
        writer = actor if actor.source == "user" else Actor("system", actor.agent)
        fields = {"layer": "L2", "kind": "summary", "project": project, "task": task}
        draft = Draft.parse({"content": content, **fields, "tags": ["session"]})
        with self._write() as pending:
            return self._add(draft, writer, pending, dedup=False)

    def build_context(self, query: str, **options: Any) -> dict[str, Any]:
        """The prompt block for an agent; see `memdesk.core.sessions.context.build_context`."""
        return context.build_context(self, query, **options)

    def export(
        self, format: str = "json", *, progress: transfer.Progress | None = None, **filters: Any
    ) -> str:
        """All memories (any status) matching `filters`, as JSON or Markdown text.

        `progress(done, total)` is called page by page; returning False cancels.
        """
        self.flush_recalls()  # recall counts shown must include queued searches
        filters.setdefault("status", None)
        chosen = Filters.build(**filters)
        writer = {"json": transfer.export_json, "markdown": transfer.export_markdown}
        validate.one_of(format, writer, "format")
        with self.database.atomic():  # one snapshot, even while agents write
            return writer[format](chosen, progress)

    def plan_import(self, text: str) -> dict[str, Any]:
        """What `import_json(text)` would do, without writing: added, changed, errors."""
        try:
            records, links = transfer.parse(text)
        except ValidationError as exc:
            return {
                "added": [],
                "changed": [],
                "unchanged": 0,
                "errors": exc.data.get("errors", [exc.message]),
            }
        return {**transfer.plan(records), "errors": transfer.refusals(records, links)}

    def import_json(
        self, text: str, *, progress: transfer.Progress | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Import an export all-or-nothing; differing memories become new versions.

        Only the user (or memdesk itself) may import: an export holds every layer and names
        its own writers.
        """
        if actor.source == "agent":
            raise NotAllowed(
                "import writes a whole export (any layer, any writer); only the user may "
                "import. Agents may check a file with plan_import (dry_run).",
                field="text",
            )
        records, links = transfer.parse(text)
        with self._write() as pending:
            return transfer.apply(
                records, links, pending, touch=self._touch, progress=progress, actor=actor
            )

    def stats(self, *, actor: Actor = USER) -> dict[str, Any]:
        """Counts of the memories `actor` may see: an agent's leave out others' private
        memories and what the guard withholds (their tags and projects are not its to learn)."""
        self.flush_recalls()  # recall counts shown must include queued searches

        def visible(table: Any) -> peewee.Expression:
            if actor.source != "agent":
                return table.id.is_null(False)
            mine = (table.visibility == "shared") | (table.agent == actor.agent)
            return mine & table.flag.is_null()

        seen = visible(Memory)

        def grouped(column: peewee.Field, where: peewee.Expression) -> dict[str, int]:
            query = (
                Memory.select(column, peewee.fn.COUNT(Memory.id).alias("n"))
                .where(where & seen)
                .group_by(column)
                .tuples()
            )
            return {str(key): n for key, n in query}

        active = Memory.status == "active"
        tags = peewee.fn.json_each(Memory.tags).alias("j")
        tag_counts = (
            Memory.select(peewee.SQL("j.value"), peewee.fn.COUNT(Memory.id))
            .from_(Memory, tags)
            .where(active & seen)
            .group_by(peewee.SQL("j.value"))
            .order_by(peewee.fn.COUNT(Memory.id).desc())
            .tuples()
        )
        identity = self.identity()
        if actor.source == "agent":
            counts = {
                "total": Memory.select(Memory.id).where(seen).count(),
                "by_status": grouped(Memory.status, Memory.id.is_null(False)),
                "by_layer": grouped(Memory.layer, active),
                "by_kind": grouped(Memory.kind, active),
                "by_source": grouped(Memory.source, active),
                "projects": grouped(Memory.project, active & Memory.project.is_null(False)),
                "agents": grouped(Memory.agent, active & Memory.agent.is_null(False)),
                "versions": MemoryVersion.select()
                .join(Memory, on=MemoryVersion.memory == Memory.id)
                .where(seen)
                .count(),
                "links": _visible_links(visible),
            }
        else:
            counts = _everything_counted(self.database)
        return {
            **counts,
            "tags": dict(tag_counts),
            "identity": {"size": identity["size"], "limit": identity["limit"]},
            "searches": RetrievalLog.select().count(),
            "proposals": Proposal.select().where(Proposal.status == "pending").count(),
            "inbox": self.inbox_count(),
            "path": str(self.path),
        }

    def own_writers(self) -> frozenset[str]:
        """The writers whose synced memories are the person's own words (this machine and
        the person's others); any other writer's are someone else's."""
        return sync_config.writers_of_mine(self.path)

    def check(self) -> list[str]:
        """Problems in the file or the search index; an empty list means healthy."""
        return store_fts.check(self.database)

    def rebuild_index(self) -> None:
        with write_transaction():
            store_fts.rebuild(self.database)

    def tidy_index(self, pages: int = 100) -> bool:
        """One short step of merging the search index; True while there is more to merge.
        For idle moments: each step is a write transaction of ~10 ms per 100 pages."""
        with self._transaction():
            return store_fts.merge_step(self.database, pages)


_WRITTEN = (
    "SELECT kind, source, agent, COUNT(*) FROM memory WHERE status = 'active' "
    "GROUP BY kind, source, agent"
)


def _everything_counted(database: peewee.SqliteDatabase) -> dict[str, Any]:
    """The person's counts (the person sees everything): status, layer and project by their
    indexes, kind, writer and agent in one pass instead of three, and the link and version
    tables counted whole, without joining every row to its memory (every row has its ends).
    They took 0.34 s of a 0.48 s window start at 100k memories with 100k links."""
    sql = database.execute_sql
    by_kind: dict[str, int] = {}
    by_source: dict[str, int] = {}
    agents: dict[str, int] = {}
    for kind, source, agent, n in sql(_WRITTEN):
        by_kind[kind] = by_kind.get(kind, 0) + n
        by_source[source] = by_source.get(source, 0) + n
        if agent is not None:
            agents[agent] = agents.get(agent, 0) + n
    by_status = dict(sql("SELECT status, COUNT(*) FROM memory GROUP BY status").fetchall())
    by_layer = sql("SELECT layer, COUNT(*) FROM memory WHERE status = 'active' GROUP BY layer")
    projects = sql(
        "SELECT project, COUNT(*) FROM memory WHERE status = 'active' AND project IS NOT NULL "
        "GROUP BY project"
    )
    versions, links = sql(
        "SELECT (SELECT COUNT(*) FROM memory_version), (SELECT COUNT(*) FROM link)"
    ).fetchone()
    return {
        "total": sum(by_status.values()),
        "by_status": by_status,
        "by_layer": dict(by_layer.fetchall()),
        "by_kind": dict(sorted(by_kind.items())),
        "by_source": dict(sorted(by_source.items())),
        "projects": dict(projects.fetchall()),
        "agents": dict(sorted(agents.items())),
        "versions": versions,
        "links": links,
    }


def _visible_links(visible: Callable[[Any], peewee.Expression]) -> int:
    """Links whose two ends the caller may see. Joined on the ends' keys: `IN (all visible
    ids)` on both ends made SQLite's plan grow with the square of the store (1,006 s at 100k)."""
    src, dst = Memory.alias(), Memory.alias()
    return (
        Link.select()
        .join(src, on=Link.src == src.id)
        .switch(Link)
        .join(dst, on=Link.dst == dst.id)
        .where(visible(src) & visible(dst))
        .count()
    )
