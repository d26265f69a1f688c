"""What one look at the memory list loads, captured so the worker thread runs it while the
model moves on: the filters, order and search (`Query`), the count and pages it gives
(`Snapshot`), and where memories the person keeps in sight went meanwhile (`Follow`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memdesk.core import MemoryService

PAGE_SIZE = 200
RELEVANCE = "relevance"  # a search's own order, best first: the default while one is active
SEARCH_K = 100  # search shows the best hits, not everything that matches a word


@dataclass(frozen=True)
class Query:
    """What to show, captured so a worker thread can run it while the model moves on."""

    service: MemoryService
    filters: dict[str, Any]
    order: str
    text: str

    def page(self, page: int) -> list[dict[str, Any]]:
        return self._marked(
            self.service.list_memories(
                offset=page * PAGE_SIZE, limit=PAGE_SIZE, order=self.order, **self.filters
            )
        )

    def _marked(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Rows with `stale`: why each may be outdated (None when it is not)."""
        why = self.service.stale(rows)
        for row in rows:
            row["stale"] = why.get(row["id"])
        return rows

    def hits(self, *, record: bool = False) -> list[dict[str, Any]]:
        filters = dict(self.filters)
        status = filters.pop("status", "active")
        found = self.service.search(
            self.text,
            k=SEARCH_K,
            record=record,
            typing=True,
            include_inactive=status != "active",
            in_trash=status == "deleted",
            **filters,
        )
        return _with_phrases(self.text, found["hits"])

    def hit_rows(self) -> list[dict[str, Any]]:
        ids = [h["id"] for h in self.hits()]
        if not ids:
            return []
        # Hits carry only the searchable fields; fetch whole rows (and sort them in SQL if asked).
        order = "-updated_at" if self.order == RELEVANCE else self.order
        rows = self.service.list_memories(ids=ids, status=None, limit=len(ids), order=order)
        if self.order == RELEVANCE:
            by_id = {r["id"]: r for r in rows}
            rows = [by_id[i] for i in ids if i in by_id]
        if self.filters.get("status", "active") == "inactive":
            rows = [r for r in rows if r["status"] == "inactive"]
        return self._marked(rows)


_PHRASE = re.compile(r'"([^"]*\S[^"]*)"')


def _with_phrases(text: str, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hits holding each "quoted phrase" of the search, as written: typed in quotes, a
    phrase matched any memory with one of its words, and Select All, Delete sent 45
    unrelated memories to the Trash."""
    phrases = [_words(p) for p in _PHRASE.findall(text)]
    return [h for h in hits if all(p in _words(h["content"]) for p in phrases)]


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Snapshot:
    """Everything one refresh shows: the row count and the pages (or the search hits)."""

    count: int
    pages: dict[int, list[dict[str, Any]]]
    hits: list[dict[str, Any]] | None
    followed_left: bool = False  # the first memory followed is no longer in this list

    @classmethod
    def load(
        cls, query: Query, pages: Iterable[int] = (0,), follow: Sequence[Follow] = ()
    ) -> Snapshot:
        if query.text:
            hits = query.hit_rows()
            return cls(len(hits), {}, hits)
        count = query.service.count(**query.filters)
        loaded = {p: query.page(p) for p in pages if p * PAGE_SIZE < count}
        found = [each.find(query, count, loaded) for each in follow]
        left = bool(found) and not found[0]
        return cls(count, loaded, None, left)


@dataclass(frozen=True)
class Follow:
    """A memory the person has open, or reads at the top of the list, on `row` of a list of
    `count` rows, found again in a fresh one: agents adding or editing nonstop move it by more
    rows between two refreshes than a page holds, and it was lost (selection gone, the detail
    panel blank)."""

    memory_id: str
    row: int
    count: int

    def find(self, query: Query, count: int, loaded: dict[int, list[dict[str, Any]]]) -> bool:
        """Load the page it is on now, if near; False when it left this list (deleted, or
        no longer matching its filters)."""
        if any(r["id"] == self.memory_id for rows in loaded.values() for r in rows):
            return True
        if not query.service.count(**query.filters, ids=[self.memory_id]):
            return False
        # Rows added above push it down by as many; edits move it either way: look where it
        # should be first, then ever further off, a bounded number of pages on the worker.
        guess = max(0, min(count - 1, self.row + count - self.count)) // PAGE_SIZE
        last = (count - 1) // PAGE_SIZE
        for step in range(FOLLOW_PAGES):
            for page in {guess + step, guess - step}:
                if 0 <= page <= last and page not in loaded:
                    loaded[page] = query.page(page)
                    if any(r["id"] == self.memory_id for r in loaded[page]):
                        return True
        return True


FOLLOW_PAGES = 8
