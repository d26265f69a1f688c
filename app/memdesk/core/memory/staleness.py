"""When a memory may be out of date, so that what agents are given says so.

Two signs: nobody has confirmed it for a long time (it was last written, restated or accepted
more than half a year ago: a person's facts and a project's conventions drift), or a newer
memory that may replace it waits for the person's review (a `possible_update` link from an
active memory whose writer may change it). Only knowledge (L1) goes stale: the identity is the
person's own profile, kept by them, and the archive is history.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

import peewee

from memdesk.core import clock
from memdesk.store import Link, Memory, among

STALE_AFTER = timedelta(days=183)


def why_stale(
    updated: Mapping[str, str], now: datetime | None = None, *, viewer: str | None = None
) -> dict[str, str]:
    """Of L1 memories (id -> when last written or restated), those to check before relying
    on them: id -> why, in words the agent `viewer` (None: the person) reads."""
    cutoff = clock.format_time((now or datetime.now(UTC)) - STALE_AFTER)
    waiting = _updates_waiting(list(updated), viewer)
    out = {}
    for memory_id, at in updated.items():
        if memory_id in waiting:
            out[memory_id] = "a possible update awaits review"
        elif at < cutoff:
            out[memory_id] = f"not confirmed since {at[:10]}"
    return out


def _updates_waiting(ids: list[str], viewer: str | None) -> set[str]:
    """CROSS JOIN fixes the order: the given memories, their incoming links, then the newer
    end by its key. Left to choose, SQLite (without statistics) walked every active memory
    through the status index for each one asked about."""
    newer = Memory.alias()
    # An update the viewer may not read casts no doubt it can see: the person's private note
    # near an agent's told every agent that a hidden memory existed, and when it was written.
    readable = (
        newer.id.is_null(False)
        if viewer is None
        else newer.flag.is_null() & ((newer.visibility == "shared") | (newer.agent == viewer))
    )
    query = (
        Memory.select(Memory.uuid)
        .join(Link, peewee.JOIN.CROSS)
        .join(newer, peewee.JOIN.CROSS)
        .where(
            Memory.uuid.in_(among(ids)),
            Link.dst == Memory.id,
            Link.src == newer.id,
            Link.relation == "possible_update",
            newer.status == "active",
            readable,
            # Only a writer who may change the older one casts doubt on it (rules.wrote): one
            # agent's near-opposite of the person's rule had every other agent told the rule
            # "may be outdated" before the person decided anything. It still waits in the Inbox.
            (newer.source != "agent")
            | (
                (Memory.source == "agent")
                & (Memory.agent == newer.agent)
                # of the same machine: another's agent of the same name is not this one
                & (
                    (Memory.writer == newer.writer)
                    | Memory.writer.is_null() & newer.writer.is_null()
                )
            ),
        )
    )
    return {uuid for (uuid,) in query.tuples()}
