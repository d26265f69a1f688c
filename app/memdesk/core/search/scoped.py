"""BM25 inside a project or task with that subset's own statistics.

FTS5's bm25() takes a term's IDF from the whole table: in a store of many projects, a word
rare in this project but common elsewhere loses its weight here, and a filtered search stops
returning the project's best (LoCoMo R@10 0.794 alone, 0.759 inside 100k other memories).
FTS5 gives no per-subset statistics, but a one-term query gives each matching memory its
score IDF_store(t) · tf-part(t, memory); the subset's own score is the sum over the terms of
that score times IDF_subset(t) / IDF_store(t), with IDF_subset counted from the rows the
one-term query returned. Used when the subset is small enough for its matches to be read
(SUBSET_MAX) and a minority of the store; otherwise the store's statistics stand for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import peewee

from memdesk.core.search import frequency
from memdesk.core.search.filters import Filters
from memdesk.store import Memory

SUBSET_MAX = 20_000


def ranked(
    words: list[str],
    filters: Filters,
    match: Callable[[str, Filters], str],
    columns: tuple[float, ...],
    date_bonus: float,
    wanted: int,
    named: peewee.Expression | None,
    selected: str,
) -> list[tuple] | None:
    """The best `wanted` rows (`selected` columns, then the rank: lower is better) of the
    subset `filters` names; None when the subset is larger than SUBSET_MAX, or at least half
    the store (its statistics are then mostly the store's own)."""
    subset = Memory.select(Memory.id).where(filters.where()).limit(SUBSET_MAX + 1).count()
    counts = frequency.Counts()
    store = counts.stored()
    if subset > SUBSET_MAX or 2 * subset >= store:
        return None
    sql = Memory._meta.database.execute_sql
    relevance: dict[int, float] = {}
    for word in words:
        rows = sql(
            "SELECT rowid, bm25(memory_fts, ?, ?, ?, ?) FROM memory_fts WHERE memory_fts MATCH ?",
            (*columns, match(frequency.term(word), filters)),
        ).fetchall()
        if not rows:
            continue
        # Past half the store the IDF is at its floor: no need to count further.
        everywhere = counts.held(word, store // 2 + 1)
        ratio = frequency.idf(subset, len(rows)) / frequency.idf(store, max(everywhere, len(rows)))
        for rowid, score in rows:
            relevance[rowid] = relevance.get(rowid, 0.0) - score * ratio
    if named is not None and relevance:
        dated = Memory.select(Memory.id).where(filters.where() & named).tuples()
        for (rowid,) in dated:
            if rowid in relevance:
                relevance[rowid] += date_bonus
    best = sorted(relevance, key=relevance.__getitem__, reverse=True)[:wanted]
    found = sql(
        f"SELECT t1.id, {selected} FROM json_each(?) AS chosen "
        "CROSS JOIN memory AS t1 ON t1.id = chosen.value",
        (json.dumps(best),),
    ).fetchall()
    return sorted(((*row[1:], -relevance[row[0]]) for row in found), key=lambda r: r[-1])
