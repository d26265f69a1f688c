"""Reading memories: by id, by page, and their history."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from operator import itemgetter
from typing import Any

from memdesk.core import guard, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import (
    NotFound,
    ValidationError,
)
from memdesk.core.guard import withhold
from memdesk.core.memory import agents_see, staleness
from memdesk.core.memory.records import to_dict
from memdesk.core.rules import KINDS, LAYERS, SOURCES
from memdesk.core.search.filters import Filters, order_by
from memdesk.store import Link, Memory, MemoryVersion, among

MAX_PREFIXED = 1_000  # rows read for one prefix of 4+ characters (1M memories: ~15 each)

# Links a memory is given with; the rest are reached through the Graph (and `more_links`).
MAX_LINKS = 200


class Reads:
    """Lookups that never write."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def row(self, memory_id: object, field: str = "id", actor: Actor | None = None) -> Memory:
        """Find a memory by its id, or by a unique prefix of at least 4 characters. To an
        agent (`actor`), another agent's private memory does not exist."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise ValidationError(f"{field} must be a memory id (text)", field=field)
        memory_id = memory_id.strip().lower()
        row = Memory.get_or_none(Memory.uuid == memory_id)
        if row is None and len(memory_id) >= 4:
            # only what the caller may read counts: "matches several" for a prefix shared
            # with a hidden memory told an agent that one exists
            prefixed = (
                Memory.select()
                .where((Memory.uuid >= memory_id) & (Memory.uuid < memory_id + "\uffff"))
                .limit(MAX_PREFIXED)
            )
            matches = [r for r in prefixed if visible_to(r, actor)][:2]
            if len(matches) > 1:
                raise ValidationError(
                    f"{field} {memory_id!r} matches several memories; give more characters",
                    field=field,
                )
            row = matches[0] if matches else None
        if row is None and len(memory_id) < 4:
            raise ValidationError(
                f"{field} {memory_id!r} is too short: give the whole id or at least its first "
                "4 characters",
                field=field,
            )
        if row is None or not reachable_by_id(row, actor):
            raise NotFound(f"no memory with id {memory_id!r}", field=field)
        return row

    def rows(
        self, ids: Sequence[str], field: str = "ids", actor: Actor | None = None
    ) -> list[Memory]:
        """The memories named by `ids` (each once, in order); their states kept if recording."""
        if not isinstance(ids, list | tuple) or not ids:
            raise ValidationError(f"{field} must be a non-empty list of memory ids", field=field)
        exact: dict[str, Memory] = {}
        for start in range(0, len(ids), 500):  # one query per chunk: bulk actions of thousands
            chunk = [i for i in ids[start : start + 500] if isinstance(i, str)]
            exact.update((r.uuid, r) for r in Memory.select().where(Memory.uuid.in_(chunk)))
        unique: dict[int, Memory] = {}
        for memory_id in ids:  # prefixes and unknown ids: found, or refused, one by one
            row = exact.get(memory_id) if isinstance(memory_id, str) else None
            if row is None or not reachable_by_id(row, actor):
                row = self.row(memory_id, field, actor)
            unique.setdefault(row.id, row)
        rows = list(unique.values())
        self.desk.touch([row.uuid for row in rows])
        return rows

    def get(self, memory_id: str, *, actor: Actor = USER) -> dict[str, Any]:
        self.desk.settle_for_reading()  # recall counts shown must include queued searches
        row = self.row(memory_id, actor=actor)
        out = to_dict(row)
        out["links"] = self._links_of(row, actor)
        out["more_links"] = len(out["links"]) > MAX_LINKS
        del out["links"][MAX_LINKS:]
        out["stale"] = self.stale([out], actor=actor).get(row.uuid)
        return out

    def stale(self, memories: Sequence[dict[str, Any]], *, actor: Actor = USER) -> dict[str, str]:
        """Of these memories (as `get` or `list_memories` give them), the ones to check
        before relying on them, as `actor` may be told: id -> why. Only active knowledge (L1)
        goes stale."""
        return staleness.why_stale(
            {
                m["id"]: m["updated_at"]
                for m in memories
                if (m["layer"], m["status"]) == ("L1", "active")
            },
            viewer=actor.agent if actor.source == "agent" else None,
        )

    def _links_of(self, row: Memory, actor: Actor = USER) -> list[dict[str, str]]:
        """Its first MAX_LINKS + 1 links, each to a memory `actor` may see (another agent's
        private memory's id is not for it to learn through a link). An agent's memory linked
        to 70,000 others froze the window 6 s each time it was shown, and at each new link."""
        links: list[dict[str, str]] = []
        ends = ((Link.dst, Link.src, "out"), (Link.src, Link.dst, "in"))
        for other, this, direction in ends:
            # in the order of the link index, which SQLite reads as it goes: ordered by id,
            # all 70,000 were sorted before the first was given
            query = Link.select(Link, Memory).join(Memory, on=other).where(this == row).iterator()
            for link in query:
                memory = link.dst if direction == "out" else link.src
                if visible_to(memory, actor):
                    links.append(
                        {"id": memory.uuid, "relation": link.relation, "direction": direction}
                    )
                    if len(links) > MAX_LINKS:
                        return links
        return links

    def list_memories(
        self, *, offset: int = 0, limit: int = 50, order: str = "-updated_at", **filters: Any
    ) -> list[dict[str, Any]]:
        """A page of memories matching `filters` (see `Filters.build`), sorted in SQL."""
        self.desk.settle_for_reading()  # recall counts shown must include queued searches
        offset = validate.integer(offset, "offset", 0)
        limit = validate.integer(limit, "limit", 1, 10_000)
        query = (
            Memory.select()
            .where(Filters.build(**filters).where())
            .order_by(*order_by(order, agent=filters.get("viewer") is not None))
            .offset(offset)
            .limit(limit)
        )
        return [to_dict(row) for row in query]

    def count(self, **filters: Any) -> int:
        return Memory.select().where(Filters.build(**filters).where()).count()

    def memory_ids(self, **filters: Any) -> set[str]:
        """The ids of every memory matching `filters`, without their rows."""
        query = Memory.select(Memory.uuid).where(Filters.build(**filters).where())
        return {uuid for (uuid,) in query.tuples()}

    def timeline(self, **filters: Any) -> dict[str, Sequence[Any]]:
        """Every memory matching `filters` as columns for a timeline, oldest first: id, t
        (created, seconds since 1970 UTC), code (see `timeline_code`), agent, project, task,
        supersedes; and `edits`: (id, t) of every later edit (update or revert) in the store,
        whether its memory is among these or not. One statement each, the seconds computed
        by SQLite, the rows transposed in C (zip)."""
        where, params = (
            self.desk.database.get_sql_context().sql(Filters.build(**filters).where()).query()
        )
        # Creation times are only drawn: unrounded (40 ms less of 100,000). Edit times are
        # compared with an As-of moment, so they keep whole milliseconds. Each column read is
        # ~20 ms of Python objects at 100,000 rows: only those the Timeline draws, and the
        # layer, kind and source as one small number (Python keeps one object of each).
        seconds = "(julianday({}) - 2440587.5) * 86400.0"
        rows = self.desk.database.execute_sql(
            f"SELECT uuid, {seconds.format('created_at')}, {_CODE_SQL}, agent, project, task,"
            f" supersedes FROM memory AS t1 WHERE {where}",
            params,
        ).fetchall()
        # Sorted here: SQLite's plan for ORDER BY (the status index, then a sort of every
        # row) took 0.38 s of 100,000; the rows unordered 0.25 s, their sort 0.02 s.
        rows.sort(key=itemgetter(1))
        names = ("id", "t", "code", "agent", "project", "task", "supersedes")
        columns = zip(*rows, strict=True) if rows else (() for _ in names)
        out: dict[str, Sequence[Any]] = dict(zip(names, columns, strict=True))
        # Every edit of every memory, from the index of edits alone (the caller keeps those
        # of the memories it shows): asked memory by memory, or with the filters (which made
        # SQLite scan every memory for a Bloom filter), they cost work in proportion to the
        # store, not to its edits.
        out["edits"] = self.desk.database.execute_sql(
            f"SELECT t1.uuid, ROUND({seconds.format('v.changed_at')}, 3) "
            "FROM memory_version AS v INDEXED BY memory_version_edits "
            "CROSS JOIN memory AS t1 ON t1.id = v.memory_id "
            "WHERE v.change IN ('update', 'revert')"
        ).fetchall()
        return out

    def readable_by(self, memory_ids: Collection[str], actor: Actor) -> set[str]:
        """Which of `memory_ids` `actor` may read (all that exist, to the person)."""
        rows = Memory.select().where(Memory.uuid.in_(among(memory_ids)))
        return {row.uuid for row in rows if visible_to(row, actor)}

    def heard_of_by(self, memory_ids: Collection[str], actor: Actor) -> set[str]:
        """Which of `memory_ids` `actor` may hear changed (`known_to`)."""
        rows = Memory.select().where(Memory.uuid.in_(among(memory_ids)))
        return {row.uuid for row in rows if known_to(row, actor)}

    def as_seen_by(self, answer: Any, actor: Actor) -> Any:
        """`answer` as `actor` may be told it (`agents_see`)."""
        return agents_see.as_seen_by(answer, actor, self.readable_by)

    def history(self, memory_id: str, *, actor: Actor = USER) -> list[dict[str, Any]]:
        """Every version, oldest first, each with the change that produced it (who, when, why);
        to an agent, the newest of those it may read (`AGENT_HISTORY`, and as many as fit in
        `AGENT_HISTORY_CHARS` of text, one at least)."""
        self.desk.settle_for_reading()  # recall counts shown must include queued searches
        row = self.row(memory_id, actor=actor)
        entries = _versions(row)
        if actor.source != "agent":
            return entries
        return _seen_by(actor, entries, newest=AGENT_HISTORY)

    def agent_may_read_version(self, row: Memory, actor: Actor, version: int) -> bool:
        """Whether the agent `actor` may read version `version` of `row`, and so revert to it."""
        entries = _versions(row)
        return any(e["version"] == version for e in _seen_by(actor, entries, only=version))


def _versions(row: Memory) -> list[dict[str, Any]]:
    """Every version of `row`, oldest first, each with the change that produced it."""
    past = list(row.versions.order_by(MemoryVersion.version))
    states = [json.loads(v.state) for v in past] + [to_dict(row)]
    first = states[0]  # who wrote it first, not who holds it now
    made_by = [
        {
            "change": "add",
            "by": Actor(first.get("source", row.source), first.get("agent", row.agent)).label,
            "at": row.created_at,
            # one that came through sync: "add by user" hid that a teammate wrote it
            "reason": f"written by {first['writer']}" if first.get("writer") else None,
        }
    ]
    made_by += [
        {"change": v.change, "by": v.changed_by, "at": v.changed_at, "reason": v.reason}
        for v in past
    ]
    entries = []
    # A past version keeps neither its writer nor the guard's flag (`snapshot`): each entry
    # still has every key, None there, so a script reads every version alike.
    for state in states:
        state.pop("id", None)
    unkept = dict.fromkeys(states[-1])
    for state, made in zip(states, made_by, strict=True):
        entries.append({**unkept, **state, **made})
    return entries


# An agent's history of a memory holds its newest versions, to a number and to a length of
# text: each is read by the guard again, and an agent that wrote 1,500 versions of 20 KB had
# every other agent wait 20 s per call (50 versions of 63 KB still cost 1.7 s).
AGENT_HISTORY = 50
AGENT_HISTORY_CHARS = 200_000


def _seen_by(
    actor: Actor,
    entries: list[dict[str, Any]],
    *,
    newest: int | None = None,
    only: int | None = None,
) -> list[dict[str, Any]]:
    """The versions an agent may read (the `newest` of them, or the one numbered `only`):
    none from before the person last released the memory (what the guard withheld then, such
    as a secret the person redacted while accepting it) or last changed its text (what they
    took out may be what no agent should read: a passphrase the guard did not know for one),
    none whose text the guard withholds now (an imported or crafted history), and none that
    was private to someone else when written (made shared later, its private past stays so)."""
    since = max(
        (n for n, entry in enumerate(entries) if _the_persons_past_ends(entries, n)), default=0
    )
    seen: list[dict[str, Any]] = []
    read = 0
    for entry in reversed(entries[since:]):
        if len(seen) == newest or seen and newest and read >= AGENT_HISTORY_CHARS:
            break
        if only is not None and entry["version"] != only:
            continue
        read += len(entry["content"])
        if _readable_then(entry, actor) and not guard.scan(entry["content"]):
            seen.append(entry)
    return seen[::-1]


def _the_persons_past_ends(entries: list[dict[str, Any]], n: int) -> bool:
    entry = entries[n]
    if entry["change"] == "release":
        return True
    return n > 0 and entry["by"] == USER.label and entry["content"] != entries[n - 1]["content"]


def _readable_then(entry: dict[str, Any], actor: Actor) -> bool:
    return (
        entry.get("visibility") != "private"
        or entry.get("source") == "agent"
        and entry.get("agent") == actor.agent
    )


def visible_to(row: Memory, actor: Actor | None) -> bool:
    """Whether `actor` may see `row`: the person sees everything; an agent sees shared memories
    and its own private ones, none that the injection guard withholds, and of the Trash only
    what it put there itself (red team 38 read the person's trashed notes and reasons)."""
    if actor is None or actor.source != "agent":
        return True
    return known_to(row, actor) and (row.status != "deleted" or row.agent == actor.agent)


def reachable_by_id(row: Memory, actor: Actor | None) -> bool:
    """Whether `actor` may read, correct or withdraw `row` by its id: what it may see, and a
    write of its own it was unsure of (an agent's cleanup of its unsure notes answered "no
    memory with id", and they piled up in the Inbox). Searches, briefings and the comparison
    of new writes still leave that one out until the person accepts it."""
    if visible_to(row, actor):
        return True
    own = actor is not None and row.agent == actor.agent and row.source == "agent"
    return own and row.status != "deleted" and withhold.only_unsure(json.loads(row.flag or "[]"))


def known_to(row: Memory, actor: Actor | None) -> bool:
    """Whether `actor` may hear of `row` (that it changed, that it went to the Trash): what it
    may read, and what it could read before another put it in the Trash."""
    if actor is None or actor.source != "agent":
        return True
    if row.flag:  # withheld by the injection guard until the person clears it
        return False
    return row.visibility == "shared" or row.agent == actor.agent


def hidden_from_agents(row: Memory) -> bool:
    """Whether some agent may not read `row` (its writer aside): private, or withheld."""
    return row.visibility == "private" or row.flag is not None


def timeline_code(layer: str, source: str, kind: str) -> int:
    """A memory's layer, writer and kind as the Timeline's one number: the position of each in
    LAYERS, SOURCES and KINDS, as layer * 32 + source * 8 + kind (an unknown kind reads as
    the first)."""
    kind_code = KINDS.index(kind) if kind in KINDS else 0
    return LAYERS.index(layer) * 32 + SOURCES.index(source) * 8 + kind_code


def _case(column: str, values: Sequence[str]) -> str:
    whens = " ".join(f"WHEN '{value}' THEN {n}" for n, value in enumerate(values))
    return f"(CASE {column} {whens} ELSE 0 END)"


# The same number in SQL (the values are this module's constants, never a caller's text).
_CODE_SQL = (
    f"({_case('layer', LAYERS)} * 32 + {_case('source', SOURCES)} * 8 + {_case('kind', KINDS)})"
)
