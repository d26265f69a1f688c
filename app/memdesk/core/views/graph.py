"""The memory graph: memories as nodes, their typed links as edges,
and hub nodes for projects and tags so memories without links still have a place.

A node budget keeps the picture readable and fast: the most recently changed memories are
shown, the rest counted in `left_out`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memdesk.core import validate
from memdesk.core.desk import Desk
from memdesk.core.search.filters import Filters

BUDGET = 500
MAX_BUDGET = 5000
HUB_KINDS = ("project", "tag", "task", "agent")
# A project and a tag of the same name ("api") drew two hubs read as one
_HUB_LABEL = {"project": "{}", "tag": "#{}", "task": "task {}", "agent": "@{}"}


class Graph:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def graph(
        self, *, budget: int = BUDGET, hubs: Sequence[str] = ("project", "tag"), **filters: Any
    ) -> dict[str, Any]:
        """{nodes, edges, left_out}: nodes are memories ({id, label, layer, kind, status,
        recall_count, importance, created_at}) and, with `hubs`, projects and tags ({id:
        "project:x" / "tag:x", label, hub}); edges are (from, to, relation), relation "hub"
        for a memory's project, tag, task or agent (the `hubs` kinds asked for)."""
        budget = validate.integer(budget, "budget", 1, MAX_BUDGET)
        kinds = {validate.one_of(kind, HUB_KINDS, "hubs") for kind in hubs}
        found = Filters.build(**filters)
        database = self.desk.database
        where, params = database.get_sql_context().sql(found.where()).query()
        sql = database.execute_sql
        total = sql(f"SELECT COUNT(*) FROM memory AS t1 WHERE {where}", params).fetchone()[0]
        rows = sql(
            f"SELECT {_COLUMNS} FROM memory t1 "
            f"WHERE {where} ORDER BY t1.updated_at DESC, t1.id DESC LIMIT ?",
            (*params, budget),
        ).fetchall()
        # The most recent memories alone rarely link to each other in a large store (100k
        # memories, 2,000 links showed "related 0"): a fifth of the budget goes to what they
        # link to, so the links are seen.
        linked = _linked(sql, [r[0] for r in rows], where, params, budget // 5)
        if linked:
            rows = rows[: budget - len(linked)] + linked
        nodes, edges, by_row = [], [], {}
        hub_nodes: dict[str, dict[str, Any]] = {}
        for row in rows:
            row_id, uuid, content, layer, kind, status, recalls, importance, created = row[:9]
            project, tags, task, agent = row[9:]
            by_row[row_id] = uuid
            nodes.append(
                {
                    "id": uuid,
                    "label": _first_line(content),
                    "layer": layer,
                    "kind": kind,
                    "status": status,
                    "recall_count": recalls,
                    "importance": importance,
                    "created_at": created,
                }
            )
            names = {"project": [project], "task": [task], "agent": [agent]}
            names["tag"] = json.loads(tags) if "tag" in kinds else []
            for kind_of_hub in kinds:
                for hub in (f"{kind_of_hub}:{n}" for n in names[kind_of_hub] if n):
                    label = _HUB_LABEL[kind_of_hub].format(hub.split(":", 1)[1])
                    hub_nodes.setdefault(hub, {"id": hub, "label": label, "hub": kind_of_hub})
                    edges.append((uuid, hub, "hub"))
        if by_row:
            # The chosen ids drive the join (CROSS JOIN keeps them outermost) and the link
            # table's (src_id, …) index does the rest; the far end is checked here.
            for src, dst, relation in sql(
                "SELECT l.src_id, l.dst_id, l.relation FROM json_each(?) AS chosen "
                "CROSS JOIN link AS l ON l.src_id = chosen.value",
                (json.dumps(list(by_row)),),
            ).fetchall():
                if dst in by_row:
                    edges.append((by_row[src], by_row[dst], relation))
        return {
            "nodes": nodes + list(hub_nodes.values()),
            "edges": edges,
            "left_out": total - len(rows),
        }


_COLUMNS = (
    "t1.id, t1.uuid, t1.content, t1.layer, t1.kind, t1.status, t1.recall_count, "
    "t1.importance, t1.created_at, t1.project, t1.tags, t1.task, t1.agent"
)


def _linked(sql: Any, ids: list[int], where: str, params: Sequence[Any], room: int) -> list:
    """Up to `room` memories matching the filters that `ids` link to or from, not among
    them; by the link tables' indexes from the chosen ids (CROSS JOIN keeps them outermost)."""
    if not ids or room <= 0:
        return []
    chosen = json.dumps(ids)
    return sql(
        f"SELECT {_COLUMNS} FROM ("
        "SELECT l.dst_id AS other FROM json_each(?) AS c CROSS JOIN link AS l "
        "ON l.src_id = c.value UNION "
        "SELECT l.src_id FROM json_each(?) AS c CROSS JOIN link AS l ON l.dst_id = c.value"
        ") AS n CROSS JOIN memory AS t1 ON t1.id = n.other "
        f"WHERE t1.id NOT IN (SELECT value FROM json_each(?)) AND {where} LIMIT ?",
        (chosen, chosen, chosen, *params, room),
    ).fetchall()


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= 60 else line[:59] + "…"
