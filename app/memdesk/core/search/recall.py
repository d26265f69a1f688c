"""Searching memories, counting recalls, and the retrieval log."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import Busy, ValidationError
from memdesk.core.search import concepts, retrieval
from memdesk.core.search.filters import Filters
from memdesk.store import MAX_COUNT, Memory, RetrievalLog

logger = logging.getLogger(__name__)

# A bound on memory and on what a crash can lose: the socket server writes when searches pause.
RECALL_BATCH = 4096
# The retrieval log is the person's view of what agents searched, not an archive: searches
# are reads, no write budget applies, and an agent's 4 KB queries grew the file 140 MB a
# minute. The newest LOG_KEEP searches are kept, each query to LOG_QUERY_CHARS.
LOG_KEEP = 20_000
LOG_QUERY_CHARS = 500


class Recall:
    """Search, and what it records: its bookkeeping is queued and written in batches, before
    any other write and before any read that shows it (the desk settles it)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self._recalls: list[dict[str, Any]] = []
        self._recalls_lock = threading.Lock()
        desk.settle_first(self.flush_recalls)

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        layers: Sequence[str] | None = None,
        include_inactive: bool = False,
        in_trash: bool = False,
        record: bool = True,
        typing: bool = False,
        actor: Actor = USER,
        **filters: Any,
    ) -> dict[str, Any]:
        """The top `k` memories for `query`. Any text is a valid query. With `typing` (the
        window's search box), the word being typed matches every word it begins.

        Each search is written to the retrieval log (unless `record` is False); an agent's
        (or the system's, building an agent's context) also counts as a recall of the memories
        it returns. The person's own searches never count: recall_count means agent recalls.
        `in_trash` searches the Trash instead (the person's alone: agents never see it).
        """
        started = time.perf_counter()
        query = validate.query(query)
        k = validate.integer(k, "k", 1, rules.MAX_K)
        if in_trash and actor.source != "user":
            raise ValidationError("only the person searches the Trash", field="in_trash")
        statuses = ("active", "inactive") if include_inactive else ("active",)
        # (a memory found in the Trash was deleted by hand among hundreds an agent cleaned up)
        statuses = ("deleted",) if in_trash else statuses
        found = Filters.build(layers=layers, status=statuses, **filters)
        hidden = _hidden_from(actor)
        # Others' private memories are few: rank as usual, then drop them (asking for as many
        # more), instead of a filter that would take every agent search off the index path.
        ranked = retrieval.search(query, found, k + len(hidden), typing=typing is True)
        hits = [h for h in ranked if h["uuid"] not in hidden][:k]
        related = [] if hits or typing is True else concepts.related_words(query)
        if related:
            # No memory holds the words asked: those of their group in the concept map
            # ("which test framework?" found nothing of "Prefers pytest over unittest").
            wider = retrieval.search(f"{query}\n{' '.join(related)}", found, k + len(hidden))
            hits = [h for h in wider if h["uuid"] not in hidden][:k]
        took_ms = (time.perf_counter() - started) * 1000
        out = [_public(hit) for hit in hits]
        if record:
            self._record_search(query, found, out, took_ms, actor)
        answer: dict[str, Any] = {"hits": out, "took_ms": round(took_ms, 3)}
        if related and out:
            answer["by_related_words"] = True
        return answer

    def _record_search(
        self, query: str, found: Filters, hits: list[dict[str, Any]], took_ms: float, actor: Actor
    ) -> None:
        # Queued, not written: the answer goes out first and the bookkeeping follows in
        # batches. Every read that shows recall counts or the log flushes the queue first.
        # Plain values: turning them into JSON text is the flush's work, off the answer's path.
        entry = {
            "at": clock.now(),
            "client": actor.label,
            "query": query if len(query) <= LOG_QUERY_CHARS else query[: LOG_QUERY_CHARS - 1] + "…",
            "filters": found.to_dict(),
            "results": [[h["id"], h["score"]] for h in hits],
            "took_ms": took_ms,
            "recalls": actor.source != "user",
        }
        with self._recalls_lock:
            self._recalls.append(entry)
            full = len(self._recalls) >= RECALL_BATCH
        if full:
            with contextlib.suppress(Busy), self.desk.not_waiting():
                self.flush_recalls()  # else the next search tries again

    def queued_recalls(self) -> int:
        """Searches whose bookkeeping is not written yet."""
        with self._recalls_lock:
            return len(self._recalls)

    def queued_rows(self) -> int:
        """Rows writing the queue takes: a log row per search and a recall count per hit.
        What a flush costs, and so how long it holds the write lock, grows with them."""
        with self._recalls_lock:
            return sum(1 + len(entry["results"]) for entry in self._recalls)

    def flush_recalls(self) -> None:
        """Write the queued searches: recall counters and retrieval-log rows, one transaction."""
        with self._recalls_lock:
            batch, self._recalls = self._recalls, []
        if not batch:
            return
        recalled: dict[str, tuple[int, str]] = {}
        for entry in (e for e in batch if e["recalls"]):
            for memory_id, _score in entry["results"]:
                count, _last = recalled.get(memory_id, (0, ""))
                recalled[memory_id] = (count + 1, entry["at"])
        rows = [
            {
                **entry,
                "filters": json.dumps(entry["filters"], ensure_ascii=False),
                "results": json.dumps(entry["results"]),
            }
            for entry in batch
        ]
        counts = [(count, last, memory_id) for memory_id, (count, last) in recalled.items()]
        try:
            self._write_bookkeeping(counts, rows)
        except Busy:
            with self._recalls_lock:  # written by a later flush, not lost
                self._recalls[:0] = batch
            raise
        except (UnicodeError, ValueError, sqlite3.Error):
            # One bad row must cost only itself, never the batch or another client's write.
            logger.exception("search bookkeeping batch refused; writing its rows one by one")
            for one in [([c], []) for c in counts] + [([], [r]) for r in rows]:
                try:
                    self._write_bookkeeping(*one)
                except (UnicodeError, ValueError, sqlite3.Error):
                    logger.warning("dropped one search bookkeeping row: %r", one)

    def _write_bookkeeping(self, counts: list[tuple], rows: list[dict[str, Any]]) -> None:
        # Two statements run in C: thousands of rows cost milliseconds, not tens of them.
        with self.desk.transaction():
            cursor = self.desk.database.cursor()
            cursor.executemany(
                f"UPDATE memory SET recall_count = MIN(recall_count + ?, {MAX_COUNT}), "
                "last_recalled_at = ? WHERE uuid = ?",
                counts,
            )
            cursor.executemany(
                "INSERT INTO retrieval_log (at, client, query, filters, results, took_ms) "
                "VALUES (:at, :client, :query, :filters, :results, :took_ms)",
                rows,
            )
            if rows:  # (the rowid's own index: a seek, not a scan)
                cursor.execute(
                    "DELETE FROM retrieval_log WHERE id <= (SELECT MAX(id) FROM retrieval_log) - ?",
                    (LOG_KEEP,),
                )

    def retrieval_log(self, *, offset: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        self.flush_recalls()
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


def _public(hit: dict[str, Any]) -> dict[str, Any]:
    out = {"id": hit.pop("uuid"), **hit}
    out["tags"] = [] if out["tags"] == "[]" else json.loads(out["tags"])
    out["inject"] = bool(out["inject"])
    # four significant digits: BM25 of words in most memories is tiny, and rounding it to
    # four places showed every hit as 0.0
    out["score"] = float(f"{out['score']:.4g}")
    return out


def _hidden_from(actor: Actor) -> frozenset[str]:
    """What an agent's search must not return: other agents' private memories and what the
    injection guard withholds (none of it for the person)."""
    if actor.source != "agent":
        return frozenset()
    others_private = (Memory.visibility == "private") & (
        Memory.agent.is_null() | (Memory.agent != actor.agent)
    )
    # Two lookups, each on its partial index; one OR of both would read the whole table.
    private = Memory.select(Memory.uuid).where(others_private)
    # Rejected in the inbox (in the Trash) is never searched: leave it out of the over-fetch.
    flagged = Memory.select(Memory.uuid).where(
        Memory.flag.is_null(False) & (Memory.status != "deleted")
    )
    return frozenset(uuid for query in (private, flagged) for (uuid,) in query.tuples())
