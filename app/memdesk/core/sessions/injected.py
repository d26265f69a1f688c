"""What a session's model was given, as the injections record keeps it: the person reads it
(View ▸ Injections, `memdesk injections`), and a session is not given again what its context
holds (a resumed conversation, a reminder before a tool call)."""

from __future__ import annotations

import json

import peewee

from memdesk.core import clock
from memdesk.core.actor import Actor
from memdesk.core.desk import Desk
from memdesk.store import Injection, Session


def record(desk: Desk, actor: Actor, row: Session, event: str, ids: list[str], chars: int) -> None:
    if actor.source == "user":
        # The person's own tools (`memdesk ingest`) gave no model anything: recorded, its
        # start read as a briefing of private memories to an agent called "ingest".
        return
    with desk.write():
        at = clock.now()
        given = Injection.create(
            session=row.id, at=at, event=event, memories=json.dumps(ids), chars=chars
        )
        desk.database.execute_sql(
            "INSERT INTO injected_memory (injection_id, session_id, memory, at) "
            "SELECT ?, ?, value, ? FROM json_each(?)",
            (given.id, row.id, at, json.dumps(ids)),
        )


def given_ids(row: Session) -> set[str]:
    """Every memory this session was given so far (briefing and earlier prompts)."""
    return _memories(Injection.session == row.id)


def was_briefed(row: Session) -> bool:
    return Injection.select().where(_starts(row)).exists()


def reminded(row: Session) -> set[str]:
    """The memories given before tool calls since the session's context began (its latest
    start: a compaction starts it anew)."""
    began = Injection.select(peewee.fn.MAX(Injection.id)).where(_starts(row)).scalar() or 0
    return _memories(
        (Injection.session == row.id) & (Injection.event == "action") & (Injection.id > began)
    )


def _starts(row: Session) -> peewee.Expression:
    return (Injection.session == row.id) & (Injection.event == "start")


def _memories(where: peewee.Expression) -> set[str]:
    found: set[str] = set()
    for (memories,) in Injection.select(Injection.memories).where(where).tuples():
        found.update(json.loads(memories))
    return found
