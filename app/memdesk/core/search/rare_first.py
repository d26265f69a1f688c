"""Rare words first: in a big store, rank only the memories that hold a rare query word.

FTS5's bm25() scores every memory that holds any query word. A word held by a large share of
a big store ("go", "support" in a million chat turns) makes it score hundreds of thousands of
rows, ~1 µs each, for a word whose IDF barely moves a score. So the query words are split by
how many memories hold them: the *rare* ones, rarest first, until their postings would pass
BUDGET (the rarest always), and the *common* ones. Only memories holding a rare word are
ranked, each by its whole score (every query word's part, FTS5's own bm25): one query ranks
them by the rare words alone, a second ranks those that also hold a common word
(`rare AND common`) by all the words. Memories holding only common words are ranked only when
fewer than `limit` memories hold a rare word (then the ranking is exact); otherwise they are
left out: the approximation, relevance-ordered (by document frequency), whose cost
bench/retrieval.py shows (none on LoCoMo inside 100k and 1M other memories).

Merging is exact for what is ranked: a memory's whole score is at least its rare part, so the
best `limit` of the union of both queries' best `limit` are the best `limit` rare-word holders.
Common words held by more than half the store are left out: FTS5 gives them an IDF of 1e-6,
so they change no score, only the cost.
"""

from __future__ import annotations

from collections.abc import Callable

from memdesk.core.search import frequency

# Postings of the rare words, at most (the rarest word always). The cost of a search is about
# this many bm25 scores; 20,000 lost no answer on LoCoMo inside 100k and 1M other memories,
# 10,000 lost 0.005 R@10 at 100k (docs/benchmarks.md).
BUDGET = 20_000


def split(words: list[str], counts: frequency.Counts) -> tuple[list[str], list[str]] | None:
    """(rare, common) words, rarest first, or None when splitting would not pay."""
    held = {word: counts.held(word, BUDGET + 1) for word in words}
    half = counts.stored() // 2
    if min(held.values()) > BUDGET:  # all common: order them by their true counts
        held = {word: counts.held(word, half + 1) for word in words}
    order = sorted(words, key=held.__getitem__)
    rare: list[str] = []
    postings = 0
    for word in order:
        if rare and postings + held[word] > BUDGET:
            break
        rare.append(word)
        postings += held[word]
    common = order[len(rare) :]
    if not common:
        return None
    counted = {word: counts.held(word, half + 1) for word in common}
    # Scoring a posting costs ~20x walking one: worth it while the rare words' postings are
    # at most half the common words'.
    if 2 * postings > sum(counted.values()):
        return None
    return rare, [word for word in common if counted[word] <= half]


def ranked(
    words: list[str],
    limit: int,
    rank: Callable[[str, int], list[tuple]],
    quoted: Callable[[list[str]], str],
    bonus: float = 0.0,
    *,
    narrowing: bool = False,
    newest: Callable[[str, int], list[tuple] | None] | None = None,
) -> list[tuple]:
    """The best `limit` rows for `words`: `rank(match, n)` gives the best n rows of an FTS5
    match expression, each row's first column a unique key and its last the rank (lower is
    better, at most `bonus` below bm25); `quoted(words)` is the OR of words as a match.

    With `narrowing` (the person typing in the window) a search box narrows as words are
    added: the memories holding every word, when there are `limit` of them. A word held by
    more than BUDGET memories ("dep" in a big store) has nothing rare to rank by cheaply (a
    scan of every holder, 50-100 ms at 100k, at each key): then `newest(match, n)` (None: it
    cannot) gives the newest holders, ranked with those holding every word, until the next
    letters narrow the search."""
    counts = frequency.Counts()
    if narrowing:
        typed = _typed(words, limit, rank, newest, quoted, counts)
        if typed is not None:
            return typed
    if counts.stored() <= BUDGET:
        return rank(quoted(words), limit)  # no word can be common
    every = _holding_every_word(words, limit, rank, bonus, counts)
    if every is not None:
        return every
    parts = split(words, counts)
    if parts is None:
        return rank(quoted(words), limit)
    rare, common = parts
    best = {row[0]: row for row in rank(quoted(rare), limit)}
    if common:
        # A memory also holding a common word: its full score replaces its rare part.
        best |= {row[0]: row for row in rank(f"({quoted(rare)}) AND ({quoted(common)})", limit)}
    if len(best) < limit:
        # Every rare-word holder is in: the best of the others complete the ranking exactly.
        others = [w for w in words if w not in rare]
        for row in rank(quoted(others), limit):
            if row[0] not in best or row[-1] < best[row[0]][-1]:
                best[row[0]] = row
    return sorted(best.values(), key=lambda row: row[-1])[:limit]


def _typed(
    words: list[str],
    limit: int,
    rank: Callable[[str, int], list[tuple]],
    newest: Callable[[str, int], list[tuple] | None] | None,
    quoted: Callable[[list[str]], str],
    counts: frequency.Counts,
) -> list[tuple] | None:
    """The rows for the person's typing, or None for the exact ranking. A row's rank is its
    bm25 for the same words whichever query found it, so rows of both queries sort together."""
    every: list[tuple] = []
    if len(words) > 1:
        every = rank(" AND ".join(frequency.term(w) for w in words), limit)
        if len(every) >= limit:
            return every
    elif not words[0].endswith(frequency.PREFIX):
        return None
    broad = counts.stored() > BUDGET and any(counts.held(w, BUDGET + 1) > BUDGET for w in words)
    more = newest(quoted(words), limit) if broad and newest is not None else None
    if more is None:
        return None
    best = {row[0]: row for row in more} | {row[0]: row for row in every}
    return sorted(best.values(), key=lambda row: row[-1])[:limit]


def _holding_every_word(
    words: list[str],
    limit: int,
    rank: Callable[[str, int], list[tuple]],
    bonus: float,
    counts: frequency.Counts,
) -> list[tuple] | None:
    """The best `limit` memories holding every word, when they provably are the best of all:
    a few common words typed in the window ("pytest cache"), whose OR matches much of a big
    store but whose AND matches plenty. A word adds at most (k1 + 1) * IDF = 2.2 * IDF to a
    score, so a memory lacking one word scores at most the sum of the others' ceilings."""
    if len(words) < 2 or any(counts.held(w, BUDGET + 1) <= BUDGET for w in words):
        return None
    rows = rank(" AND ".join(frequency.term(w) for w in words), limit)
    if len(rows) < limit:
        return None
    store = counts.stored()
    ceilings = [2.2 * frequency.idf(store, counts.held(w, store // 2 + 1)) for w in words]
    # 5% above: the counts may be a generation (1% of the store) old.
    lacking_one = 1.05 * (sum(ceilings) - min(ceilings)) + bonus
    return rows if -rows[-1][-1] >= lacking_one else None
