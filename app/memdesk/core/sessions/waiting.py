"""What the person said last time that waits for their word: the session end proposed it
instead of storing it, so no agent is told it until the person accepts it in the Inbox. About
a quarter of what people state in a session ends up there (bench/roundtrip.py: stored 0.48,
stored or proposed 0.74 on sessions nobody had read), and an Inbox nobody opens loses it all
the same. The next session's start tells the person (never the model), once.
"""

from __future__ import annotations

from typing import Any

import peewee

from memdesk.core.display import visible
from memdesk.core.memory.proposals import heard_from_persons
from memdesk.store import Proposal, Session

SHOWN = 3  # quoted in the message; the rest are counted
QUOTE_CHARS = 90


def since_last_time(row: Session) -> dict[str, Any] | None:
    """The person's words heard at the session ends of `row`'s project (and their global
    ones) since the previous session there started, still waiting: {count, said (the first
    few, quoted), message (a line for the person)}. None when nothing waits, or when this is
    the project's first session."""
    before = (
        Session.select(peewee.fn.MAX(Session.started_at))
        # a host's sessions only: an agent starting one between hid what waited (red team)
        .where(_same_project(row.project) & Session.by_host & (Session.id != row.id))
        .scalar()
    )
    if before is None:
        return None
    project = Proposal.project.is_null()
    if row.project is not None:
        project |= Proposal.project == row.project
    heard = (
        Proposal.select(Proposal.content)
        .where(
            (Proposal.status == "pending")
            & (Proposal.created_at >= before)
            & heard_from_persons()  # an agent's account of its session is not their word
            & project
        )
        .order_by(Proposal.created_at, Proposal.id)
    )
    count = heard.count()
    if not count:
        return None
    said = [_quoted(visible(p.content)) for p in heard.limit(SHOWN)]
    return {"count": count, "said": said, "message": _message(count, said, row.project)}


def _message(count: int, said: list[str], project: str | None) -> str:
    """One line for the person, naming where to decide."""
    one = count == 1
    things = (
        "1 thing you said last time waits" if one else f"{count} things you said last time wait"
    )
    where = f" ({project})" if project else ""
    quoted = "; ".join(f"“{s}”" for s in said)
    more = f" and {count - len(said)} more" if count > len(said) else ""
    them = "it" if one else "them"
    return (
        f"memdesk{where}: {things} for your OK before agents are told: {quoted}{more}. "
        f"Keep or drop {them} with `memdesk inbox --heard --ask` or in memdesk's Inbox."
    )


def _same_project(project: str | None) -> peewee.Expression:
    return Session.project.is_null() if project is None else Session.project == project


def _quoted(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= QUOTE_CHARS else line[: QUOTE_CHARS - 1].rstrip() + "…"
