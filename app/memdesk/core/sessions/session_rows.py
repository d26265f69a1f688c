"""Finding an agent's session by the host's id: an agent acts only on its own."""

from __future__ import annotations

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
    """An agent acts only on its own sessions (the person and memdesk itself on any)."""
    return actor.source != "agent" or row.agent == actor.agent


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
