"""Searching memories, counting recalls, and the retrieval log."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from memdesk.core import clock, retrieval, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.filters import Filters
from memdesk.core.records import to_dict
from memdesk.store import Memory, RetrievalLog


class Recall:
    """Mixin of MemoryService: search and what it records."""

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        layers: Sequence[str] | None = None,
        include_inactive: bool = False,
        record: bool = True,
        actor: Actor = USER,
        **filters: Any,
    ) -> dict[str, Any]:
        """The top `k` memories for `query`. Any text is a valid query.

        Each search counts as a recall of the memories it returns and is written to the
        retrieval log (unless `record` is False, e.g. for a person typing in the search box).
        """
        started = time.perf_counter()
        query = validate.query(query)
        k = validate.integer(k, "k", 1, rules.MAX_K)
        statuses = ("active", "inactive") if include_inactive else ("active",)
        found = Filters.build(layers=layers, status=statuses, **filters)
        hits = retrieval.search(query, found, k)
        took_ms = (time.perf_counter() - started) * 1000
        out = [{**_hit_fields(h.row), "score": round(h.score, 4)} for h in hits]
        if record:
            self._record_search(query, found, out, took_ms, actor)
        return {"hits": out, "took_ms": round(took_ms, 3)}

    def _record_search(
        self, query: str, found: Filters, hits: list[dict[str, Any]], took_ms: float, actor: Actor
    ) -> None:
        stamp = clock.now()
        with self._write():  # a lock held too long is a Busy error, like any write
            if hits:
                (
                    Memory.update(recall_count=Memory.recall_count + 1, last_recalled_at=stamp)
                    .where(Memory.uuid.in_([h["id"] for h in hits]))
                    .execute()
                )
            RetrievalLog.create(
                at=stamp,
                client=actor.label,
                query=query,
                filters=json.dumps(found.to_dict(), ensure_ascii=False),
                results=json.dumps([[h["id"], h["score"]] for h in hits]),
                took_ms=took_ms,
            )

    def retrieval_log(self, *, offset: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        rows = (
            RetrievalLog.select()
            .order_by(RetrievalLog.id.desc())
            .offset(validate.integer(offset, "offset", 0))
            .limit(validate.integer(limit, "limit", 1, 10_000))
        )
        return [
            {
                "at": r.at,
                "client": r.client,
                "query": r.query,
                "filters": json.loads(r.filters),
                "results": json.loads(r.results),
                "took_ms": r.took_ms,
            }
            for r in rows
        ]


def _hit_fields(row: Memory) -> dict[str, Any]:
    record = to_dict(row)
    keys = (
        "id",
        "content",
        "layer",
        "kind",
        "tags",
        "project",
        "task",
        "created_at",
        "source",
        "agent",
        "importance",
    )
    return {k: record[k] for k in keys}
