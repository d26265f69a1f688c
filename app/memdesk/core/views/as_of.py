"""Memory as it was: which memories were active at a moment, with their content then.

Each version row keeps the state a memory had *before* a change, stamped with the change's
time, so a memory's state at a moment is the state kept by its first change after that
moment, or its current state when it has not changed since. Memories deleted for good are
gone from the past too.
"""

from __future__ import annotations

import json
from typing import Any

from memdesk.core.clock import parse_time
from memdesk.core.desk import Desk
from memdesk.core.search.filters import Filters

SHOWN = ("content", "layer", "kind", "status", "version", "project", "tags", "visibility")


class AsOf:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def as_of(self, moment: Any, **filters: Any) -> dict[str, dict[str, Any]]:
        """{id: state} of the memories matching `filters` that were active at `moment`
        (ISO 8601, or a time ago such as "7d"). Filters other than status apply to what the
        memories are now; the status is the one they had then."""
        at = parse_time(moment, "moment")
        filters.pop("status", None)
        where, params = (
            self.desk.database.get_sql_context()
            .sql(Filters.build(status=None, **filters).where())
            .query()
        )
        rows = self.desk.database.execute_sql(
            "SELECT t1.uuid, t1.content, t1.layer, t1.kind, t1.status, t1.version, t1.project, "
            "t1.tags, t1.visibility, (SELECT v.state FROM memory_version AS v "
            "WHERE v.memory_id = t1.id AND v.changed_at > ? ORDER BY v.version LIMIT 1) "
            f"FROM memory AS t1 WHERE t1.created_at <= ? AND {where}",
            (at, at, *params),
        ).fetchall()
        out: dict[str, dict[str, Any]] = {}
        for uuid, *now, kept in rows:
            state = dict(zip(SHOWN, now, strict=True))
            state["tags"] = json.loads(state["tags"])
            if kept is not None:
                then = json.loads(kept)
                state = {field: then.get(field, state[field]) for field in SHOWN}
            if state["status"] == "active":
                out[uuid] = state
        return out
