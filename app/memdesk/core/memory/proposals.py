"""Filing and changing what waits for the person's decision (the Inbox decides them: see
review/inbox.py). Every room that asks the person something files it here."""

from __future__ import annotations

import secrets
from typing import Any

import peewee

from memdesk.core import clock
from memdesk.core.desk import Desk
from memdesk.core.events import Change
from memdesk.store import Proposal

# How a proposal from an agent's own account of its session says so: no host heard the person
# say it (sessions/ending.py files it).
AGENTS_ACCOUNT = "'s account of the session says you said: "


def heard_from_person(p: Proposal) -> bool:
    """Whether a session end heard the person say it, from the host's transcript."""
    return p.session_id is not None and AGENTS_ACCOUNT not in (p.why or "")


def heard_from_persons() -> peewee.Expression:
    """`heard_from_person` as a query's condition."""
    return Proposal.session_id.is_null(False) & ~Proposal.why.contains(AGENTS_ACCOUNT)


class Proposals:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def propose(self, pending: list[Change], **fields: Any) -> Proposal:
        # A number drawn at random, not the next one: an agent that saw its own proposal
        # numbered 2, not 1, learned that its text had matched a private memory it may not
        # read (proposals about it were filed in between, for the person).
        number = _unused_number()
        row = Proposal.create(id=number, created_at=clock.now(), **fields)
        self.desk.touch_proposals([row.id], created=True)
        pending.append(Change("inbox", "", None, "system"))
        return row

    def replace(self, row: Proposal, pending: list[Change], **fields: Any) -> None:
        """`row`, still waiting, made to say what its writer sends now, as of now."""
        self.desk.touch_proposals([row.id])
        for name, value in {**fields, "created_at": clock.now()}.items():
            setattr(row, name, value)
        row.save()
        pending.append(Change("inbox", "", None, "system"))

    def set(self, row: Proposal, **fields: Any) -> None:
        with self.desk.write() as pending:
            self.desk.touch_proposals([row.id])
            for name, value in fields.items():
                setattr(row, name, value)
            row.save()
            pending.append(Change("inbox", "", None, "user"))


def _unused_number() -> int:
    while True:
        number = secrets.randbelow(MAX_NUMBER) + 1
        if not Proposal.select().where(Proposal.id == number).exists():
            return number


MAX_NUMBER = 2**53 - 1  # a JSON number every client reads exactly
