"""Near-duplicate detection by word-set Jaccard similarity.

Jaccard(a, b) >= t means b holds at least ceil(t * n) of a's n words: it misses at most
spare = n - ceil(t * n) of them, so of any r of a's words it holds at least r - spare. Taking
the rarest r words a posting budget allows, the memories that hold r - spare of them are every
possible twin, and usually a handful; only those are compared word by word (when there are
too many, the ones holding most of those words).
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable

_WORD = re.compile(r"\w+")
# Postings read per new memory (the rarest words' memory lists); more means a common-worded
# memory is compared by ranking instead (see Writes._near_duplicate).
POSTINGS_BUDGET = 3000
# Candidates compared one by one at most.
MAX_CANDIDATES = 200
_COUNTS_KEPT = 50_000


def word_set(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def spare(words: frozenset[str], threshold: float) -> int:
    """How many of `words` a memory may lack and still be `threshold` alike."""
    return len(words) - math.ceil(threshold * len(words))


class WordCounts:
    """How many memories hold each word, capped at the budget, remembered between adds.

    A count gone stale only makes a poorer choice of words to read, never a missed twin:
    the candidates come from the postings themselves, which are always read fresh.
    """

    def __init__(self, count: Callable[[str, int], int]) -> None:
        self._count = count
        self._known: dict[str, int] = {}

    def __getitem__(self, word: str) -> int:
        known = self._known.get(word)
        if known is None:
            if len(self._known) >= _COUNTS_KEPT:
                self._known.clear()
            known = self._known[word] = self._count(word, POSTINGS_BUDGET + 1)
        return known

    def learn(self, word: str, count: int) -> None:
        self._known[word] = count


def rarest(words: frozenset[str], counts: WordCounts) -> list[str]:
    """`words`, those held by the fewest memories first."""
    return sorted(words, key=lambda w: (counts[w], w))


def candidates(
    words: frozenset[str],
    threshold: float,
    counts: WordCounts,
    postings: Callable[[str, int], list[int]],
) -> list[int] | None:
    """Row ids of the memories that may be `threshold` alike to `words`: every one, or when
    more qualify, the MAX_CANDIDATES holding most of the rarest words. None when the words are
    too common to read within the budget."""
    chosen, total = [], 0
    for word in rarest(words, counts):
        if total + counts[word] > POSTINGS_BUDGET:
            break
        chosen.append(word)
        total += counts[word]
    need = len(chosen) - spare(words, threshold)
    if need < 1:
        return None
    lists = {word: postings(word, POSTINGS_BUDGET + 1) for word in chosen}
    for word, ids in lists.items():
        counts.learn(word, len(ids))
    if sum(len(ids) for ids in lists.values()) > POSTINGS_BUDGET:
        return None  # the counts were stale; ranking decides this time
    held = Counter(itertools.chain.from_iterable(lists.values()))
    found = [row for row, times in held.items() if times >= need]
    if len(found) > MAX_CANDIDATES:
        found = heapq.nlargest(MAX_CANDIDATES, found, key=held.__getitem__)
    return found
