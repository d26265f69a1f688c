"""Counts of the store, as the person or an agent may see them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import peewee

from memdesk.core import rules
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.store import Link, Memory, MemoryVersion, Proposal, RetrievalLog

TOP_TAGS = 5000  # tags counted by name in stats (the sidebar lists them); the rest only counted
_REMEMBERED = 64  # counts kept for this many askers


class Stats:
    def __init__(self, desk: Desk, inbox_count: Callable[[], int]) -> None:
        self.desk = desk
        # What waits in the Inbox (review/inbox.py counts it).
        self.inbox_count = inbox_count
        # (who asked, on which connection) -> (the store's state then, the counts): agents
        # calling stats in a loop held every other agent's search 0.14-0.6 s at 20k memories
        self._counted: dict[tuple[Any, ...], tuple[tuple[int, int], dict[str, Any]]] = {}

    def stats(self, *, actor: Actor = USER) -> dict[str, Any]:
        """Counts of the memories `actor` may see: an agent's leave out others' private
        memories, what the guard withholds (their tags and projects are not its to learn) and
        what others put in the Trash. Counted again only once the store changed."""
        self.desk.settle_for_reading()  # recall counts shown must include queued searches
        if actor.source != "agent":
            return self._counted_now(actor)  # with the searches made, which move on each
        connection = self.desk.database.connection()
        # what this process wrote (the desk's generation), and what another wrote (SQLite's
        # data_version moves when another connection commits)
        state = (self.desk.generation, connection.execute("PRAGMA data_version").fetchone()[0])
        key = (id(connection), _seen_apart(actor))
        if (counted := self._counted.get(key)) and counted[0] == state:
            return copy.deepcopy(counted[1])
        shown = self._counted_now(actor)
        if len(self._counted) >= _REMEMBERED:
            self._counted.clear()  # many agent names: each counts afresh, none piles up
        self._counted[key] = (state, shown)
        return copy.deepcopy(shown)

    def _counted_now(self, actor: Actor) -> dict[str, Any]:

        def visible(table: Any) -> peewee.Expression:
            if actor.source != "agent":
                return table.id.is_null(False)
            mine = (table.visibility == "shared") | (table.agent == actor.agent)
            # of the Trash only its own, as reads.visible_to: a count that grew told it when
            # the person trashed something
            others = table.agent.is_null() | (table.agent != actor.agent)
            trashed_by_others = (table.status == "deleted") & others
            return mine & table.flag.is_null() & ~trashed_by_others

        seen = visible(Memory)

        def grouped(column: peewee.Field, where: peewee.Expression) -> dict[str, int]:
            query = (
                Memory.select(column, peewee.fn.COUNT(Memory.id).alias("n"))
                .where(where & seen)
                .group_by(column)
                .tuples()
            )
            return {str(key): n for key, n in query}

        active = Memory.status == "active"
        tags = peewee.fn.json_each(Memory.tags).alias("j")
        tag_counts = (
            Memory.select(peewee.SQL("j.value"), peewee.fn.COUNT(Memory.id))
            .from_(Memory, tags)
            .where(active & seen)
            .group_by(peewee.SQL("j.value"))
            .order_by(peewee.fn.COUNT(Memory.id).desc())
        )
        # The most used only: agents' 512,000 distinct tags made an answer of 32 MB, past what
        # the server sends, and the person's `memdesk stats` failed.
        distinct_tags = tag_counts.count()
        top_tags = dict(tag_counts.limit(TOP_TAGS).tuples())
        # of the entries it may read: the person's private lines are not the agent's to count
        profile = rules.profile_size(
            len(content)
            for (content,) in Memory.select(Memory.content)
            .where((Memory.layer == "L0") & active & seen)
            .tuples()
        )
        if actor.source == "agent":
            counts = {
                "total": Memory.select(Memory.id).where(seen).count(),
                "by_status": grouped(Memory.status, Memory.id.is_null(False)),
                "by_layer": grouped(Memory.layer, active),
                "by_kind": grouped(Memory.kind, active),
                "by_source": grouped(Memory.source, active),
                "projects": grouped(Memory.project, active & Memory.project.is_null(False)),
                "agents": grouped(Memory.agent, active & Memory.agent.is_null(False)),
                "versions": MemoryVersion.select()
                .join(Memory, on=MemoryVersion.memory == Memory.id)
                .where(seen)
                .count(),
                "links": _visible_links(visible),
            }
        else:
            counts = _everything_counted(self.desk.database)
        shown = {
            **counts,
            "tags": top_tags,
            "more_tags": distinct_tags - len(top_tags),
            "identity": {"size": profile, "limit": rules.IDENTITY_LIMIT},
        }
        if actor.source == "agent":
            # What waits for the person told an agent that withheld memories exist, and where
            # the database lives.
            return shown
        return {
            **shown,
            "searches": RetrievalLog.select().count(),
            "proposals": Proposal.select().where(Proposal.status == "pending").count(),
            "inbox": self.inbox_count(),
            "path": str(self.desk.path),
        }


_WRITTEN = (
    "SELECT kind, source, agent, COUNT(*) FROM memory WHERE status = 'active' "
    "GROUP BY kind, source, agent"
)


def _everything_counted(database: peewee.SqliteDatabase) -> dict[str, Any]:
    """The person's counts (the person sees everything): status, layer and project by their
    indexes, kind, writer and agent in one pass instead of three, and the link and version
    tables counted whole, without joining every row to its memory (every row has its ends).
    They took 0.34 s of a 0.48 s window start at 100k memories with 100k links."""
    sql = database.execute_sql
    by_kind: dict[str, int] = {}
    by_source: dict[str, int] = {}
    agents: dict[str, int] = {}
    for kind, source, agent, n in sql(_WRITTEN):
        by_kind[kind] = by_kind.get(kind, 0) + n
        by_source[source] = by_source.get(source, 0) + n
        if agent is not None:
            agents[agent] = agents.get(agent, 0) + n
    by_status = dict(sql("SELECT status, COUNT(*) FROM memory GROUP BY status").fetchall())
    by_layer = sql("SELECT layer, COUNT(*) FROM memory WHERE status = 'active' GROUP BY layer")
    projects = sql(
        "SELECT project, COUNT(*) FROM memory WHERE status = 'active' AND project IS NOT NULL "
        "GROUP BY project"
    )
    versions, links = sql(
        "SELECT (SELECT COUNT(*) FROM memory_version), (SELECT COUNT(*) FROM link)"
    ).fetchone()
    return {
        "total": sum(by_status.values()),
        "by_status": by_status,
        "by_layer": dict(by_layer.fetchall()),
        "by_kind": dict(sorted(by_kind.items())),
        "by_source": dict(sorted(by_source.items())),
        "projects": dict(projects.fetchall()),
        "agents": dict(sorted(agents.items())),
        "versions": versions,
        "links": links,
    }


def _visible_links(visible: Callable[[Any], peewee.Expression]) -> int:
    """Links whose two ends the caller may see. Joined on the ends' keys: `IN (all visible
    ids)` on both ends made SQLite's plan grow with the square of the store (1,006 s at 100k)."""
    src, dst = Memory.alias(), Memory.alias()
    return (
        Link.select()
        .join(src, on=Link.src == src.id)
        .switch(Link)
        .join(dst, on=Link.dst == dst.id)
        .where(visible(src) & visible(dst))
        .count()
    )


def _seen_apart(actor: Actor) -> str | None:
    """The agent whose counts differ from any agent's (None: they are everyone's): only its
    private memories and what it put in the Trash are its alone. Counts kept per agent name,
    a flood of names made each call count afresh."""
    own = Memory.agent == actor.agent
    alone = Memory.select(Memory.id).where(
        own & ((Memory.visibility == "private") | (Memory.status == "deleted"))
    )
    return actor.agent if alone.exists() else None
