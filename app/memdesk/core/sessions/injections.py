"""What memdesk gave each agent session's model: every session
start and prompt injection with the memories in it and its size, whether a later tool call of
the session acted on each (`acted_on`), and for one memory how often agents were given it and
acted on it. The person's view: the window reads it, agents are never told what other
sessions were given."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core import validate
from memdesk.core.desk import Desk
from memdesk.core.memory.reads import Reads
from memdesk.core.sessions.acted_on import acted_on, last_marks
from memdesk.store import Injection, Memory, Observation, Session, among

CHARS_PER_TOKEN = 4  # a rough rule for English text and code; "≈ tokens" says so
LINE = 120


class Injections:
    def __init__(self, desk: Desk, reads: Reads) -> None:
        self.desk = desk
        self.reads = reads

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
        calls: dict[str, list[tuple[str, str]]] = {row.id: [] for row in rows}
        for session_id, at, text in (
            Observation.select(Observation.session, Observation.at, Observation.text)
            .where(Observation.session.in_(list(calls)))
            .order_by(Observation.id)
            .tuples()
        ):
            calls[session_id].append((at, text))
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
                "events": _events(events[row.id], lines, calls[row.id]),
            }
            for row in rows
        ]

    def injected(self, memory_id: str) -> dict[str, Any]:
        """How often agents were given one memory, and the last time (session, agent, when)."""
        row = self.reads.row(memory_id)
        found = self.desk.database.execute_sql(
            "SELECT COUNT(*), COUNT(DISTINCT session_id), MAX(at) FROM injected_memory "
            "WHERE memory = ?",
            (row.uuid,),
        ).fetchone()
        times, in_sessions, last_at = found
        after: dict[str, list[str]] = {}
        for session_id, text in self.desk.database.execute_sql(
            _CALLS_AFTER_GIVEN, (row.uuid,)
        ).fetchall():
            after.setdefault(session_id, []).append(text)
        used = sum(acted_on(row.content, texts) for texts in after.values())
        latest = self.desk.database.execute_sql(
            "SELECT session_id FROM injected_memory WHERE memory = ? ORDER BY at DESC LIMIT 1",
            (row.uuid,),
        ).fetchone()
        last = Session.get_or_none(Session.id == latest[0]) if latest else None
        return {
            "given": times,
            "sessions": in_sessions,
            "acted_on": used,
            "last_at": last_at,
            "last_session": last.id if last else None,
            "last_agent": last.agent if last else None,
        }


# Each tool call a session made once it had been given the memory, by session. CROSS JOIN
# keeps the few sessions outermost, each reading its own calls through the session index;
# with statistics of a young store SQLite scanned every observation once per session.
_CALLS_AFTER_GIVEN = """
SELECT o.session_id, o.text FROM (
    SELECT session_id, MIN(at) AS first FROM injected_memory WHERE memory = ?
    GROUP BY session_id
) AS g CROSS JOIN observation AS o ON o.session_id = g.session_id WHERE o.at >= g.first
"""


_GONE = {"line": "(deleted permanently since)", "layer": "", "status": "purged", "content": ""}


def _events(
    events: list[Injection], lines: dict[str, dict[str, str]], calls: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """A session's events, each memory marked by the calls made after it was given: the
    session's calls are read once per memory (`last_marks`), not once per event."""
    texts = [text for _at, text in calls]
    marks: dict[str, tuple[int, int]] = {}
    out = []
    for event in events:
        first_later = next((n for n, (at, _text) in enumerate(calls) if at >= event.at), len(calls))
        memories = []
        for memory_id in json.loads(event.memories):
            found = lines.get(memory_id, _GONE)
            if memory_id not in marks:
                marks[memory_id] = last_marks(found["content"], texts)
            acted, against = (mark >= first_later for mark in marks[memory_id])
            memories.append(
                {
                    "id": memory_id,
                    "line": found["line"],
                    "layer": found["layer"],
                    "status": found["status"],
                    "acted_on": acted and not against,
                    "went_against": against,
                }
            )
        out.append(_event(event, memories))
    return out


def _event(event: Injection, memories: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "at": event.at,
        "event": event.event,
        "chars": event.chars,
        "tokens": event.chars // CHARS_PER_TOKEN,
        "memories": memories,
    }


def _lines(ids: list[str]) -> dict[str, dict[str, str]]:
    out = {}
    query = Memory.select(Memory.uuid, Memory.content, Memory.layer, Memory.status).where(
        Memory.uuid.in_(among(ids))
    )
    for uuid, content, layer, status in query.tuples():
        first = next((p.strip() for p in content.splitlines() if p.strip()), "")
        line = first if len(first) <= LINE else first[: LINE - 1] + "…"
        out[uuid] = {"line": line, "layer": layer, "status": status, "content": content}
    return out
