"""What memdesk gave each agent session's model (mixed into MemoryService): every session
start and prompt injection with the memories in it and its size, and for one memory how often
agents were given it. The person's view: the window reads it, agents are never told what other
sessions were given."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core import validate
from memdesk.store import Injection, Memory, Session

CHARS_PER_TOKEN = 4  # a rough rule for English text and code; "≈ tokens" says so
CHUNK = 500  # SQLite caps bound variables per statement
LINE = 120


class Injections:
    def injections(self, sessions: int = 50) -> list[dict[str, Any]]:
        """The newest `sessions` that were given anything, newest first: each with its
        events in order (when, start or prompt, characters, ≈ tokens, the memories)."""
        sessions = validate.integer(sessions, "sessions", 1, 10_000)
        newest = (
            Session.select()
            .where(Session.id.in_(Injection.select(Injection.session)))
            .order_by(Session.started_at.desc())
            .limit(sessions)
        )
        rows = list(newest)
        events: dict[str, list[Injection]] = {row.id: [] for row in rows}
        for event in (
            Injection.select().where(Injection.session.in_(list(events))).order_by(Injection.id)
        ):
            events[event.session_id].append(event)
        given = {u for evs in events.values() for e in evs for u in json.loads(e.memories)}
        lines = _lines(sorted(given))
        return [
            {
                "session": row.id,
                "agent": row.agent,
                "project": row.project,
                "task": row.task,
                "started_at": row.started_at,
                "ended_at": row.ended_at,
                "chars": sum(e.chars for e in events[row.id]),
                "tokens": sum(e.chars for e in events[row.id]) // CHARS_PER_TOKEN,
                "events": [_event(e, lines) for e in events[row.id]],
            }
            for row in rows
        ]

    def injected(self, memory_id: str) -> dict[str, Any]:
        """How often agents were given one memory, and the last time (session, agent, when)."""
        row = self._row(memory_id)  # type: ignore[attr-defined]
        found = self.database.execute_sql(  # type: ignore[attr-defined]
            "SELECT COUNT(*), COUNT(DISTINCT i.session_id), MAX(i.at) FROM injection AS i, "
            "json_each(i.memories) AS given WHERE given.value = ?",
            (row.uuid,),
        ).fetchone()
        times, in_sessions, last_at = found
        last = None
        if times:
            last = (
                Session.select(Session.id, Session.agent)
                .join(Injection, on=Injection.session == Session.id)
                .where(Injection.at == last_at)
                .first()
            )
        return {
            "given": times,
            "sessions": in_sessions,
            "last_at": last_at,
            "last_session": last.id if last else None,
            "last_agent": last.agent if last else None,
        }


def _event(event: Injection, lines: dict[str, dict[str, str]]) -> dict[str, Any]:
    ids = json.loads(event.memories)
    gone = {"line": "(deleted permanently since)", "layer": "", "status": "purged"}
    return {
        "at": event.at,
        "event": event.event,
        "chars": event.chars,
        "tokens": event.chars // CHARS_PER_TOKEN,
        "memories": [{"id": i, **lines.get(i, gone)} for i in ids],
    }


def _lines(ids: list[str]) -> dict[str, dict[str, str]]:
    out = {}
    for start in range(0, len(ids), CHUNK):
        query = Memory.select(Memory.uuid, Memory.content, Memory.layer, Memory.status).where(
            Memory.uuid.in_(ids[start : start + CHUNK])
        )
        for uuid, content, layer, status in query.tuples():
            first = next((p.strip() for p in content.splitlines() if p.strip()), "")
            line = first if len(first) <= LINE else first[: LINE - 1] + "…"
            out[uuid] = {"line": line, "layer": layer, "status": status}
    return out
