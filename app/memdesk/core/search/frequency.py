"""How many memories hold a word, and how many there are: the store's statistics for ranking.

Counting a word walks its postings (~40 ns each): free for a rare word, tens of milliseconds
for a common one in a million memories. Counts are therefore remembered for one generation of
the store (see `_generation`).
"""

from __future__ import annotations

import functools
import math

from memdesk.store import Memory

# A term ending in it matches every word it begins: the word the person is still typing.
PREFIX = "*"
SMALL = 10_000
GROWTH = 0.01  # counted again once the store grew by 1%: an IDF (a logarithm) moves by ~0.01


def count(word: str, cap: int) -> int:
    """How many memories hold `word` (in any indexed column), counting no further than `cap`."""
    return Memory._meta.database.execute_sql(
        "SELECT count(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)",
        (term(word), cap),
    ).fetchone()[0]


def term(word: str) -> str:
    """`word` as an FTS5 match: a string (whatever it holds is plain text), or a prefix."""
    if word.endswith(PREFIX):
        return f'"{word[: -len(PREFIX)]}"*'
    return f'"{word}"'


def idf(total: int, holding: int) -> float:
    """FTS5's IDF (fts5_bm25.c), with its floor for a word in more than half the rows."""
    value = math.log((total - holding + 0.5) / (holding + 0.5))
    return value if value > 0 else 1e-6


class Counts:
    """The store's counts for one search: its generation is read once, then each count comes
    from the cache when that generation already took it."""

    def __init__(self) -> None:
        self._path = Memory._meta.database.database
        self._generation = _generation()

    def held(self, word: str, cap: int) -> int:
        """`count(word, cap)`, remembered until the store's generation changes."""
        return _remembered(self._path, word, cap, self._generation)

    def stored(self) -> int:
        """How many memories the store holds (any status)."""
        return _stored(self._path, self._generation)


def _generation() -> int:
    """Changes with every memory added to a small store, and in a large one (10,000 or more)
    each time it has grown by another 1% (the newest id costs nothing to read)."""
    newest = Memory._meta.database.execute_sql("SELECT max(id) FROM memory").fetchone()[0] or 0
    if newest < SMALL:
        return newest
    return SMALL + int(math.log(newest / SMALL) / math.log(1 + GROWTH))


@functools.lru_cache(maxsize=4)
def _stored(_path: str, _generation: int) -> int:
    return Memory.select().count()


@functools.lru_cache(maxsize=8192)
def _remembered(_path: str, word: str, cap: int, _generation: int) -> int:
    return count(word, cap)
