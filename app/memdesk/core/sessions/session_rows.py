"""Finding an agent's session by the host's id: an agent acts only on its own."""

from __future__ import annotations

import peewee

from memdesk.core import validate
from memdesk.core.actor import USER, Actor
from memdesk.core.errors import NotFound, ValidationError
from memdesk.store import Session


def find_session(session: str, actor: Actor = USER) -> Session:
    row = Session.get_or_none(Session.id == session_id(session))
    if row is None or not owns(actor, row):
        raise not_yours(session)
    return row


def owns(actor: Actor, row: Session) -> bool:
    """An agent acts only on its own sessions (the person and memdesk itself on any), and
    never on one a host's hooks opened: taking the host's name is not being the host."""
    if actor.source != "agent":
        return True
    return row.agent == actor.agent and (actor.host or not row.by_host)


def same_opener(row: Session) -> peewee.Expression:
    """Sessions opened as `row` was: by its host's hooks, or by an agent of that name."""
    return (Session.agent == row.agent) & (Session.by_host == row.by_host)


def not_yours(session: str) -> NotFound:
    # The same answer whether the session exists or is another agent's: ids are not revealed.
    return NotFound(f"no session {session!r} of yours; call session.start first", field="session")


def session_id(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ValidationError(
            "session must be the host's session id (text, 1..200 characters)", field="session"
        )
    # a line break in one forged lines of `memdesk injections` (red team 37)
    return validate.one_line(validate.text(value.strip(), "session"), "session", "a session id")
