"""The memory service: the one way in to the store for api/ and ui/.

A thin facade. The rules live in rooms (core/memory, search, review, sessions, files,
views, sync), each an object given, when it is built, the desk and the other rooms it
uses: its constructor lists its doors. `Rooms` below builds them in dependency order,
and MemoryService exposes the methods callers use (`ANSWERED_BY`), so the socket API, the CLI
and the window call `service.add(...)` as before. docs/architecture.md draws the rooms.
"""

from __future__ import annotations

import atexit
import logging
import sqlite3
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import peewee

from memdesk.core.desk import Desk
from memdesk.core.errors import Busy
from memdesk.core.files.backups import Backups
from memdesk.core.files.exchange import Exchange
from memdesk.core.guard import apart
from memdesk.core.memory.edits import Edits
from memdesk.core.memory.identity import Identity
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import Reads
from memdesk.core.memory.status import StatusChanges
from memdesk.core.memory.undo import Undo
from memdesk.core.memory.versions import Versions
from memdesk.core.memory.writes import Writes
from memdesk.core.review.agent_controls import AgentControls
from memdesk.core.review.consolidate import Consolidation
from memdesk.core.review.inbox import Inbox
from memdesk.core.search.recall import Recall
from memdesk.core.sessions import ending
from memdesk.core.sessions.ending import Endings
from memdesk.core.sessions.injections import Injections
from memdesk.core.sessions.lifecycle import Sessions
from memdesk.core.sync.asking import SyncQuestions
from memdesk.core.sync.syncing import Sync
from memdesk.core.sync.writing import SyncWrites
from memdesk.core.views.as_of import AsOf
from memdesk.core.views.dashboard import Dashboard
from memdesk.core.views.graph import Graph
from memdesk.core.views.stats import Stats
from memdesk.store import backup as store_backup
from memdesk.store import close_database, open_database
from memdesk.store import fts as store_fts

logger = logging.getLogger(__name__)

# Searches queue their bookkeeping; a script that ends without close() must not lose it.
_open_services: weakref.WeakSet[MemoryService] = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for service in list(_open_services):
        try:
            service.flush_recalls()
        except Exception:  # exiting anyway: say so, do not hide the original exit
            logger.exception("could not write queued search bookkeeping at exit")


@dataclass(frozen=True)
class Rooms:
    """Every room, in the order it is built: each is given only rooms above it."""

    desk: Desk
    recall: Recall
    reads: Reads
    versions: Versions
    proposing: Proposals
    undo: Undo
    status: StatusChanges
    controls: AgentControls
    writes: Writes
    edits: Edits
    identity: Identity
    consolidation: Consolidation
    takes: SyncWrites
    questions: SyncQuestions
    sync: Sync
    inbox: Inbox
    endings: Endings
    sessions: Sessions
    injections: Injections
    backups: Backups
    exchange: Exchange
    stats: Stats
    dashboard: Dashboard
    as_of: AsOf
    graph: Graph

    @classmethod
    def build(cls, database: peewee.SqliteDatabase) -> Rooms:
        desk = Desk(database)
        recall = Recall(desk)
        reads = Reads(desk)
        versions = Versions(desk)
        proposing = Proposals(desk)
        undo = Undo(desk, versions)
        status = StatusChanges(desk, reads, versions)
        controls = AgentControls(desk, proposing)
        writes = Writes(desk, versions, proposing, controls.updates_fine)
        edits = Edits(desk, reads, versions, writes)
        identity = Identity(desk, writes, edits, versions, proposing)
        consolidation = Consolidation(desk, reads, versions, proposing, undo)
        takes = SyncWrites(desk)
        questions = SyncQuestions(desk, reads, edits, status, versions, proposing, takes)
        sync = Sync(desk, undo, takes, questions)
        inbox = Inbox(
            desk,
            reads,
            writes,
            edits,
            status,
            versions,
            proposing,
            undo,
            identity=identity,
            consolidation=consolidation,
            questions=questions,
        )

        endings = Endings(desk, writes, edits, proposing, undo)
        sessions = Sessions(desk, recall, identity, controls, endings, sync.authorship)
        return cls(
            desk=desk,
            recall=recall,
            reads=reads,
            versions=versions,
            proposing=proposing,
            undo=undo,
            status=status,
            controls=controls,
            writes=writes,
            edits=edits,
            identity=identity,
            consolidation=consolidation,
            takes=takes,
            questions=questions,
            sync=sync,
            inbox=inbox,
            endings=endings,
            sessions=sessions,
            injections=Injections(desk, reads),
            backups=Backups(desk),
            exchange=Exchange(desk),
            stats=Stats(desk, inbox.inbox_count),
            dashboard=Dashboard(desk),
            as_of=AsOf(desk),
            graph=Graph(desk),
        )


# The methods api/ and ui/ call, by the room that answers them.
ANSWERED_BY: dict[str, tuple[str, ...]] = {
    "desk": ("database", "changes", "path", "not_waiting", "time_limit"),
    "recall": ("search", "queued_recalls", "queued_rows", "flush_recalls", "retrieval_log"),
    "reads": (
        "get",
        "stale",
        "list_memories",
        "count",
        "memory_ids",
        "timeline",
        "history",
        "readable_by",
        "heard_of_by",
        "as_seen_by",
    ),
    "undo": ("record", "apply_step"),
    "status": (
        "remove",
        "remove_many",
        "restore",
        "restore_many",
        "clear_flag",
        "purge",
        "empty_trash",
    ),
    "controls": ("agent_modes", "set_agent_mode", "admit", "over_budget"),
    "writes": ("add", "add_many"),
    "edits": ("update", "update_many", "correct", "revert", "link", "unlink"),
    "identity": ("identity", "identity_size", "set_identity"),
    "consolidation": ("find_duplicates",),
    "sync": (
        "sync_init",
        "sync",
        "sync_remove",
        "sync_local",
        "sync_trust",
        "sync_status",
        "authorship",
        "as_told",
        "machine_names",
    ),
    "inbox": (
        "inbox",
        "inbox_count",
        "accept",
        "reject",
        "reconsider",
        "proposals",
        "decide_proposal",
    ),
    "sessions": (
        "session_start",
        "session_prompt",
        "session_action",
        "observe",
        "working_memory",
        "build_context",
        "agents",
    ),
    "endings": ("session_end", "archive_session"),
    "injections": ("injections", "injected"),
    "backups": ("backup_folder", "backup", "backups", "backup_due"),
    "exchange": ("export", "export_json_to", "export_page", "plan_import", "import_json"),
    "stats": ("stats",),
    "dashboard": ("dashboard",),
    "as_of": ("as_of",),
    "graph": ("graph",),
}


class MemoryService:
    """Add, change, find and remove memories. Plain Python: no Qt, safe to call from any thread.

    Every write runs in one IMMEDIATE transaction and, once committed, is announced on
    `changes` so windows and subscribed agents see it.
    """

    def __init__(self, database: peewee.SqliteDatabase) -> None:
        self.rooms = Rooms.build(database)
        for room, names in ANSWERED_BY.items():
            answering = getattr(self.rooms, room)
            for name in names:
                setattr(self, name, getattr(answering, name))
        _open_services.add(self)

    @classmethod
    def open(cls, path: str | Path) -> MemoryService:
        return cls(open_database(path))

    @contextmanager
    def serving(self) -> Iterator[None]:
        """While a server answers clients from this service: the guard reads long texts in a
        process of its own, so scanning them never holds up another client's request."""
        with apart.serving():
            yield

    def warm_up(self) -> None:
        """Load what reads a session's statements (~0.6 s of compiling patterns), which a
        `memdesk` command that only opens the service never needs. A server calls this before
        it listens: loaded in the first session end, a long session's end paid it inside its
        time limit and failed on a loaded machine; loaded on a thread beside the first
        requests, it slowed them (`tests/api/test_crash_loop.py` in CI: 68 writes
        acknowledged where it wants over 100)."""
        ending.hearing()

    def release_thread(self) -> None:
        """Close the calling thread's own connection: a worker thread calls this when done."""
        self.database.close()

    def close(self) -> None:
        _open_services.discard(self)
        self.flush_recalls()
        close_database(self.database)

    def restore_backup(self, name: str, **how: Any) -> dict[str, Any]:
        """`Backups.restore_backup`, and then nothing is agreed with a sync remote any more
        (`Sync.forget_agreed`): the store went back in time under the sync."""
        restored = self.rooms.backups.restore_backup(name, **how)
        self.rooms.sync.forget_agreed()
        return restored

    def check(self) -> list[str]:
        """Problems in the file or the search index; an empty list means healthy."""
        try:
            problems = store_fts.check(self.database)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                # read as a broken index, a script watching `check` raised a false alarm
                raise Busy(
                    "the database is busy with another writer, so its search index cannot be "
                    "checked now; try again in a moment"
                ) from exc
            raise
        # a trigger rewriting every new memory was reported healthy (red team 67)
        return problems + [
            f"the schema is not memdesk's: {difference}; "
            + (
                "rebuild the index with `memdesk check --rebuild`"
                if "memory_fts" in difference
                else "restore a backup memdesk made"
            )
            for difference in store_backup.foreign_schema(self.database.connection())
        ]

    def rebuild_index(self) -> None:
        with self.rooms.desk.transaction():
            store_fts.rebuild(self.database)

    def tidy_index(self, pages: int = 100) -> bool:
        """One short step of merging the search index; True while there is more to merge.
        For idle moments: each step is a write transaction of ~10 ms per 100 pages."""
        with self.rooms.desk.transaction():
            return store_fts.merge_step(self.database, pages)
