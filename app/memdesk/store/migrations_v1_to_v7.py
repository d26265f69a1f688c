"""Schema steps 1 to 7, as they shipped: the first tables, agent sessions, private memories,
agent controls, the injection guard's flag and the Inbox. `migrations.MIGRATIONS` runs them
first, in this order; never edit or reorder them."""

from __future__ import annotations

from collections.abc import Callable

import peewee

from memdesk.store import fts


def _v1_initial(db: peewee.SqliteDatabase) -> None:
    statements = [
        """CREATE TABLE memory (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            layer TEXT NOT NULL CHECK (layer IN ('L0', 'L1', 'L2')),
            kind TEXT NOT NULL,
            content TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('user', 'agent', 'system')),
            agent TEXT,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'inactive', 'deleted')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            project TEXT,
            task TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            importance REAL NOT NULL DEFAULT 0.5,
            recall_count INTEGER NOT NULL DEFAULT 0,
            last_recalled_at TEXT,
            reinforce_count INTEGER NOT NULL DEFAULT 0,
            version INTEGER NOT NULL DEFAULT 1,
            supersedes TEXT,
            context TEXT NOT NULL DEFAULT '',
            scope TEXT GENERATED ALWAYS AS (
                's' || status || ' l' || layer ||
                CASE WHEN project IS NULL THEN '' ELSE ' p' || hex(project) END ||
                CASE WHEN task IS NULL THEN '' ELSE ' t' || hex(task) END
            ) VIRTUAL
        )""",
        "CREATE INDEX memory_status_layer ON memory (status, layer, updated_at)",
        "CREATE INDEX memory_project ON memory (project, status)",
        "CREATE INDEX memory_task ON memory (task, created_at)",
        "CREATE INDEX memory_created ON memory (created_at)",
        "CREATE INDEX memory_updated ON memory (updated_at)",
        # The window lists one status at a time, newest change first, a page at a time.
        "CREATE INDEX memory_status_updated ON memory (status, updated_at, id)",
        """CREATE TABLE memory_version (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_id INTEGER NOT NULL REFERENCES memory (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            changed_by TEXT NOT NULL,
            changed_at TEXT NOT NULL,
            change TEXT NOT NULL,
            reason TEXT
        )""",
        "CREATE INDEX memory_version_memory ON memory_version (memory_id, version)",
        """CREATE TABLE link (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            src_id INTEGER NOT NULL REFERENCES memory (id) ON DELETE CASCADE,
            dst_id INTEGER NOT NULL REFERENCES memory (id) ON DELETE CASCADE,
            relation TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (src_id, dst_id, relation)
        )""",
        "CREATE INDEX link_dst ON link (dst_id)",
        """CREATE TABLE retrieval_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            client TEXT,
            query TEXT NOT NULL,
            filters TEXT NOT NULL DEFAULT '{}',
            results TEXT NOT NULL DEFAULT '[]',
            took_ms REAL NOT NULL
        )""",
        "CREATE INDEX retrieval_log_at ON retrieval_log (at)",
        fts.CREATE_FTS,
        *fts.CREATE_TRIGGERS,
    ]
    for sql in statements:
        db.execute_sql(sql)


def _v2_sessions(db: peewee.SqliteDatabase) -> None:
    """Agent sessions, the tool calls observed in them, and what session ends proposed."""
    statements = [
        """CREATE TABLE session (
            id TEXT PRIMARY KEY,
            agent TEXT NOT NULL,
            project TEXT,
            task TEXT,
            cwd TEXT,
            started_at TEXT NOT NULL,
            last_seen_at TEXT NOT NULL,
            ended_at TEXT,
            summary TEXT
        )""",
        "CREATE INDEX session_agent_task ON session (agent, task, started_at)",
        "CREATE INDEX session_last_seen ON session (last_seen_at)",
        """CREATE TABLE observation (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            tool TEXT NOT NULL,
            kind TEXT NOT NULL,
            importance INTEGER NOT NULL,
            text TEXT NOT NULL,
            path TEXT,
            failed INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX observation_session ON observation (session_id, id)",
        """CREATE TABLE proposal (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created_at TEXT NOT NULL,
            session_id TEXT,
            agent TEXT,
            kind TEXT NOT NULL,
            content TEXT NOT NULL,
            why TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'accepted', 'dismissed')),
            memory TEXT
        )""",
        "CREATE INDEX proposal_status ON proposal (status, created_at)",
    ]
    for sql in statements:
        db.execute_sql(sql)


def _v3_visibility(db: peewee.SqliteDatabase) -> None:
    """A memory is shared by every agent, or private to the agent that wrote it."""
    db.execute_sql(
        "ALTER TABLE memory ADD COLUMN visibility TEXT NOT NULL DEFAULT 'shared' "
        "CHECK (visibility IN ('shared', 'private'))"
    )
    # Few memories are private: a partial index finds them (to hide them) at once.
    db.execute_sql("CREATE INDEX memory_private ON memory (agent) WHERE visibility = 'private'")


def _v4_agent_controls(db: peewee.SqliteDatabase) -> None:
    """Agents the person paused or made read-only (an agent without a row may do anything)."""
    db.execute_sql(
        """CREATE TABLE agent_control (
            agent TEXT PRIMARY KEY,
            mode TEXT NOT NULL CHECK (mode IN ('paused', 'read_only')),
            changed_at TEXT NOT NULL
        )"""
    )


def _v5_guard_flag(db: peewee.SqliteDatabase) -> None:
    """Why the injection guard withholds a memory from agents (JSON list; NULL: it does not)."""
    db.execute_sql("ALTER TABLE memory ADD COLUMN flag TEXT")


def _v6_flagged_index(db: peewee.SqliteDatabase) -> None:
    """Every agent search looks up the withheld memories: few, so a partial index finds them
    without reading the table."""
    db.execute_sql("CREATE INDEX memory_flagged ON memory (id) WHERE flag IS NOT NULL")


def _v7_inbox(db: peewee.SqliteDatabase) -> None:
    """The inbox: an agent's own confidence in a write; proposals about existing memories
    (possible updates, merges) with the memories they concern, how many sessions or agents
    support them, and why the person rejected one."""
    for sql in (
        "ALTER TABLE memory ADD COLUMN confidence REAL",
        "ALTER TABLE proposal ADD COLUMN subject TEXT",  # JSON list of memory uuids
        "ALTER TABLE proposal ADD COLUMN support INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE proposal ADD COLUMN reason TEXT",
        "ALTER TABLE proposal ADD COLUMN decided_at TEXT",
        # Possible updates found before the inbox existed wait in it like new ones.
        """INSERT INTO proposal (created_at, agent, kind, content, why, status, memory, subject)
        SELECT l.created_at, new.agent, 'update', new.content,
               'alike to an older memory but not the same', 'pending', new.uuid,
               json_array(new.uuid, old.uuid)
        FROM link AS l JOIN memory AS new ON new.id = l.src_id
        JOIN memory AS old ON old.id = l.dst_id
        WHERE l.relation = 'possible_update' AND new.status = 'active'
          AND old.status = 'active'""",
    ):
        db.execute_sql(sql)


MIGRATIONS_V1_TO_V7: list[Callable[[peewee.SqliteDatabase], None]] = [
    _v1_initial,
    _v2_sessions,
    _v3_visibility,
    _v4_agent_controls,
    _v5_guard_flag,
    _v6_flagged_index,
    _v7_inbox,
]
