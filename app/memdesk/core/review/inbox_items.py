"""How the Inbox shows an item: a proposal's row, or a withheld memory, with the memories it
concerns (one query for all of them) and the person's reason for a rejection."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core.display import quoted_start
from memdesk.core.guard import withhold
from memdesk.core.memory.identity import IDENTITY_PROPOSAL, proposal_why
from memdesk.core.memory.proposals import heard_from_person
from memdesk.core.memory.records import to_dict
from memdesk.store import Memory, MemoryVersion, Proposal, among

MEMORY, PROPOSAL = "memory:", "proposal:"
REJECTED = "rejected in the inbox"  # a withheld memory's removal, with the person's reason


def concerned(p: Proposal) -> list[str]:
    return json.loads(p.subject) if p.subject else ([p.memory] if p.memory else [])


_BRIEF = ("id", "content", "status", "source", "agent", "created_at")


def memories(uuids: set[str]) -> dict[str, dict[str, Any]]:
    """What an item shows of each memory with these ids, in one query (a JSON list of ids:
    no cap on how many)."""
    query = Memory.select(*(getattr(Memory, "uuid" if f == "id" else f) for f in _BRIEF)).where(
        Memory.uuid.in_(among(uuids))
    )
    return {row[0]: dict(zip(_BRIEF, row, strict=True)) for row in query.tuples()}


def why(p: Proposal) -> str | None:
    return proposal_why(p) if p.kind == IDENTITY_PROPOSAL else p.why


def proposal_item(p: Proposal, uuids: list[str], rows: dict[str, dict]) -> dict[str, Any]:
    return {
        "key": f"{PROPOSAL}{p.id}",
        "type": kind_of(p),
        "content": p.content,
        "why": why(p),
        "agent": p.agent,
        "session": p.session_id,
        "heard": heard_from_person(p),  # the person's words, heard at a session end
        "project": p.project,
        "created_at": p.created_at,
        "support": p.support,
        "reason": p.reason,
        "memories": [rows[u] for u in uuids if u in rows],
        "waits": waits(kind_of(p), [rows[u] for u in uuids if u in rows]),
    }


# What an update or merge replaces, and by what, must all still be in force: one of them put
# in the Trash since left an item whose Accept could only fail.
_GONE = {"deleted": "is in the Trash", "inactive": "was retired"}


def waits(kind: str, concerned: list[dict[str, Any]]) -> str | None:
    """Why accepting the item cannot be done now (None: it can)."""
    if kind not in ("update", "merge"):
        return None
    gone = next((m for m in concerned if m["status"] != "active"), None)
    if gone is None:
        return None
    return f"{gone_now(gone['content'], gone['status'])}: restore it to accept this, or reject it"


def gone_now(content: str, status: str) -> str:
    """A memory no longer in force, named by its words (an id told the person nothing)."""
    return f"{quoted_start(' '.join(content.split()), 60)} {_GONE.get(status, f'is {status}')}"


def rejections(rows: list[Memory]) -> dict[int, str]:
    """The person's reason for each rejected withheld memory, from the history entry its
    rejection left (a withheld memory has no proposal row to keep it)."""
    found: dict[int, str] = {}
    for number in range(0, len(rows), 500):
        ids = [row.id for row in rows[number : number + 500]]
        removals = (
            MemoryVersion.select(MemoryVersion.memory, MemoryVersion.reason)
            .where(MemoryVersion.memory.in_(ids) & MemoryVersion.reason.startswith(REJECTED))
            .order_by(MemoryVersion.version)
            .tuples()
        )
        for memory, reason in removals:
            found[memory] = reason.removeprefix(REJECTED).removeprefix(": ")
    return {memory: reason for memory, reason in found.items() if reason}


def memory_item(row: Memory, reason: str | None = None) -> dict[str, Any]:
    flag = json.loads(row.flag)
    return {
        "key": f"{MEMORY}{row.uuid}",
        "type": "unsure" if withhold.only_unsure(flag) else "flagged",
        "content": row.content,
        "why": "; ".join(flag),
        "agent": row.agent,
        "session": None,
        "project": row.project,
        "created_at": row.created_at,
        "support": 1 + row.reinforce_count,
        "reason": reason,
        "memories": [brief(row)],
        "waits": None,
    }


def brief(row: Memory) -> dict[str, Any]:
    out = to_dict(row)
    return {k: out[k] for k in _BRIEF}


def kind_of(p: Proposal) -> str:
    known = p.kind in ("promote", "update", "merge", "overrun", IDENTITY_PROPOSAL)
    known = known or p.kind.startswith("sync_")
    return p.kind if known else "extract"


def proposal(p: Proposal) -> dict[str, Any]:
    return {
        "id": p.id,
        "created_at": p.created_at,
        "session": p.session_id,
        "agent": p.agent,
        "kind": p.kind,
        "content": p.content,
        "why": why(p),
        "status": p.status,
        "memory": p.memory,
        "subject": json.loads(p.subject) if p.subject else [],
        "support": p.support,
        "reason": p.reason,
        "decided_at": p.decided_at,
    }
