"""The figures of the Stats dashboard: activity per day, what
agents recall and never recall, search latency, and the file's size. Plain SQL aggregates,
meant to run off the GUI thread."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memdesk.core import clock, validate
from memdesk.core.desk import Desk
from memdesk.core.memory.records import to_dict
from memdesk.core.search.decay import DECAY
from memdesk.store import Memory

LATENCY_SEARCHES = 1000  # the newest searches the percentiles are taken over
TOP = 10


class Dashboard:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def dashboard(self, days: int = 30) -> dict[str, Any]:
        days = validate.integer(days, "days", 1, 3660)
        self.desk.settle_for_reading()
        since = (datetime.now(UTC) - timedelta(days=days - 1)).strftime("%Y-%m-%d")
        sql = self.desk.database.execute_sql
        added = dict(
            sql(
                "SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM memory "
                "WHERE created_at >= ? GROUP BY day",
                (since,),
            ).fetchall()
        )
        # A recall is a memory returned to an agent (the person's own searches do not count).
        recalled = dict(
            sql(
                "SELECT substr(at, 1, 10) AS day, SUM(json_array_length(results)) "
                "FROM retrieval_log WHERE at >= ? AND client NOT LIKE 'user%' GROUP BY day",
                (since,),
            ).fetchall()
        )
        took = sorted(
            t
            for (t,) in sql(
                "SELECT took_ms FROM retrieval_log ORDER BY id DESC LIMIT ?", (LATENCY_SEARCHES,)
            ).fetchall()
        )
        active = (Memory.status == "active") & (Memory.layer == "L1")
        most = Memory.select().where(active & (Memory.recall_count > 0))
        # Stale: decayed to the floor and never recalled by an agent. The person decides.
        stale_before = clock.format_time(datetime.now(UTC) - timedelta(days=DECAY.stale_after_days))
        stale = Memory.select().where(
            active & (Memory.recall_count == 0) & (Memory.created_at < stale_before)
        )
        every_day = _days(since, days)
        injected = _injected(sql, since, every_day)
        return {
            "days": every_day,
            "added": [added.get(day, 0) for day in every_day],
            "recalled": [recalled.get(day, 0) for day in every_day],
            "injected": injected,
            "latency_ms": {
                "searches": len(took),
                "p50": _percentile(took, 0.50),
                "p95": _percentile(took, 0.95),
            },
            "most_recalled": [
                to_dict(m) for m in most.order_by(Memory.recall_count.desc()).limit(TOP)
            ],
            "prune_candidates": {
                "count": stale.count(),
                "days": round(DECAY.stale_after_days),
                "oldest": [to_dict(m) for m in stale.order_by(Memory.created_at).limit(TOP)],
            },
            "file_bytes": _size(self.desk.path),
            "wal_bytes": _size(self.desk.path.with_name(self.desk.path.name + "-wal")),
        }


def _injected(sql: Any, since: str, days: list[str]) -> dict[str, dict[str, list[int]]]:
    """Characters given to agents' models per day (View ▸ Injections… has each one), by agent
    and by project ("(no project)" for sessions outside one). The period's injections come
    first (CROSS JOIN fixes the order), each finding its session by key: the other way round
    SQLite scanned every injection once per session."""
    rows = sql(
        "SELECT substr(i.at, 1, 10) AS day, s.agent, s.project, SUM(i.chars) "
        "FROM injection AS i CROSS JOIN session AS s ON s.id = i.session_id "
        "WHERE i.at >= ? GROUP BY day, s.agent, s.project",
        (since,),
    ).fetchall()
    index = {day: n for n, day in enumerate(days)}
    out: dict[str, dict[str, list[int]]] = {"agent": {}, "project": {}}
    for day, agent, project, chars in rows:
        if day not in index:
            continue
        for by, key in (("agent", agent), ("project", project or "(no project)")):
            out[by].setdefault(key, [0] * len(days))[index[day]] += chars
    return out


def _days(since: str, days: int) -> list[str]:
    start = datetime.strptime(since, "%Y-%m-%d")
    return [(start + timedelta(days=n)).strftime("%Y-%m-%d") for n in range(days)]


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, int(len(values) * share))], 2)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
