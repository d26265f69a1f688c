"""Filing and changing what waits for the person's decision (the Inbox decides them: see
review/inbox.py). Every room that asks the person something files it here."""

from __future__ import annotations

from typing import Any

from memdesk.core import clock
from memdesk.core.desk import Desk
from memdesk.core.events import Change
from memdesk.store import Proposal


class Proposals:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def propose(self, pending: list[Change], **fields: Any) -> Proposal:
        row = Proposal.create(created_at=clock.now(), **fields)
        self.desk.touch_proposals([row.id], created=True)
        pending.append(Change("inbox", "", None, "system"))
        return row

    def set(self, row: Proposal, **fields: Any) -> None:
        with self.desk.write() as pending:
            self.desk.touch_proposals([row.id])
            for name, value in fields.items():
                setattr(row, name, value)
            row.save()
            pending.append(Change("inbox", "", None, "user"))
