"""Converting memory rows to the plain dicts every caller sees, and back for snapshots."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core import clock, validate
from memdesk.core.actor import Actor
from memdesk.store import Memory, MemoryVersion

PUBLIC_FIELDS = (
    "layer",
    "kind",
    "content",
    "source",
    "agent",
    "status",
    "created_at",
    "updated_at",
    "project",
    "task",
    "tags",
    "importance",
    "recall_count",
    "last_recalled_at",
    "reinforce_count",
    "version",
    "supersedes",
    "visibility",
    "confidence",
    "inject",
)
# What a version snapshot restores; counters and status history are not content.
EDITABLE_FIELDS = (
    "content",
    "layer",
    "kind",
    "tags",
    "project",
    "task",
    "importance",
    "visibility",
    "inject",
)


def to_dict(row: Memory) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.uuid}
    for field in PUBLIC_FIELDS:
        out[field] = getattr(row, field)
    out["tags"] = json.loads(row.tags)
    out["flag"] = json.loads(row.flag) if row.flag else []  # why agents do not see it
    out["writer"] = row.writer  # person@machine whose version came through sync; None: here
    return out


def snapshot(row: Memory) -> str:
    state = to_dict(row)
    del state["id"]
    del state["flag"]  # derived from the content: read again, never kept as history
    del state["writer"]  # whose version it is: set when it arrives, cleared by an edit here
    return json.dumps(state, ensure_ascii=False, sort_keys=True)


def keep_version(
    row: Memory,
    actor: Actor,
    change: str,
    reason: str | None,
    *,
    by: str | None = None,
    at: str | None = None,
) -> str:
    """Store the state `row` has now as a past version, before `change`; returns its time.
    `by` and `at`: who made the change and when, for one made elsewhere (on the person's
    other machine, taken by a sync): not "the system, when this machine synced"."""
    reason = validate.reason(reason)
    stamp = at or clock.now()
    MemoryVersion._meta.database.execute_sql(
        "INSERT INTO memory_version (memory_id, version, state, changed_by, changed_at, change,"
        " reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (row.id, row.version, snapshot(row), by or actor.label, stamp, change, reason),
    )
    return stamp
