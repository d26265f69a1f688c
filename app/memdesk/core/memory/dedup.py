"""Near-duplicate detection by word-set Jaccard similarity.

Jaccard(a, b) >= t means b holds at least ceil(t * n) of a's n words: it misses at most
spare = n - ceil(t * n) of them, so of any r of a's words it holds at least r - spare. Taking
the rarest r words a posting budget allows, the memories that hold r - spare of them are every
possible twin, and usually a handful; only those are compared word by word (when there are
too many, the ones holding most of those words).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable

from memdesk.core.search.retrieval import STOPWORDS

_WORD = re.compile(r"\w+")
# Postings read per new memory (the rarest words' memory lists); more means a common-worded
# memory is compared by ranking instead (see Writes._near_duplicate).
POSTINGS_BUDGET = 3000
# Candidates compared one by one at most.
MAX_CANDIDATES = 200
_COUNTS_KEPT = 50_000


def word_set(text: str) -> frozenset[str]:
    return _word_set(text) if len(text) <= _REMEMBERED_CHARS else _read_word_set(text)


def _read_word_set(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold()))


# A batch's drafts are each compared with the ones before them: remembered, a text's words
# are read once, not once per comparison (an add_many of 100 held the write lock 330 ms,
# most of it reading the same texts again). Bounded: 4,096 texts of at most 4 KB.
_REMEMBERED_CHARS = 4096
_word_set = functools.lru_cache(maxsize=4096)(_read_word_set)


# Who said it is not what was said: "I prefer pytest" and "The user prefers pytest" are one
# fact, told by the person and heard by a session end.
_PERSON = frozenset("user users user's".split())


def key_words(text: str) -> frozenset[str]:
    """The words that carry a text's meaning: stopwords and the user's name for themself
    dropped, endings folded."""
    return _key_words(text) if len(text) <= _REMEMBERED_CHARS else _read_key_words(text)


def _read_key_words(text: str) -> frozenset[str]:
    return frozenset(
        _stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS and w not in _PERSON
    )


_key_words = functools.lru_cache(maxsize=4096)(_read_key_words)


def similarity(a: str, b: str) -> float:
    """Jaccard of the words, or of the meaning-carrying words when that is higher."""
    return likeness_to(a)(b)


def likeness_to(text: str) -> Callable[[str], float]:
    """`similarity(text, other)` for many others, reading `text` once."""
    words, keys = word_set(text), key_words(text)
    return lambda other: max(jaccard(words, word_set(other)), jaccard(keys, key_words(other)))


# Words that flip or qualify a statement: two texts differing in one of them say different
# things however alike they look ("Always deploy on Fridays" / "Never deploy on Fridays").
# "t" is what \w+ leaves of n't (don't -> don, t).
POLARITY = frozenset(
    """not no never nor none nothing neither without t don doesn didn isn aren wasn weren
    won can cannot shouldn mustn couldn wouldn always sometimes rarely often usually only
    enable enabled enables disable disabled disables true false allow allowed allows deny
    denied denies on off yes include included exclude excluded before after above below
    increase decrease more less min max minimum maximum first last old new public private
    required optional must should may""".split()
)
_NAME = re.compile(r"\b[A-Z]\w*")
# Capitalised only because they open a sentence; any other capitalised word may be a name.
_OPENERS = frozenset(
    "the a an this that these those it its we i you our my your they he she".split()
)


def restates(a: str, b: str) -> bool:
    """Whether `b` says what `a` says, given that their word sets are alike: no word that
    only one of them holds is a number, a date or version (any digit), a negation or
    opposite (POLARITY), or a name (capitalised: at a sentence's start too, since a name can
    open one; a few plain openers excepted); and one does not swap a word of the other for
    another ("the blue theme" / "the green theme"), though it may add words or change a
    word's ending."""
    words_a, words_b = word_set(a), word_set(b)
    differing = words_a ^ words_b
    if any(any(c.isdigit() for c in w) or w in POLARITY for w in differing):
        return False
    names = {m.casefold() for m in _NAME.findall(a) + _NAME.findall(b)} - _OPENERS
    if names & differing:
        return False
    # the same numbers and names in another order say another thing: "backups run at 2 and
    # are kept 30 days" was taken for "… at 30 and are kept 2 days", and dropped
    if _in_order(a, names) != _in_order(b, names):
        return False
    only_a = {_stem(w) for w in words_a - words_b if w not in STOPWORDS}
    only_b = {_stem(w) for w in words_b - words_a if w not in STOPWORDS}
    return not (only_a - only_b and only_b - only_a)


def only_values_differ(old: str, new: str) -> bool:
    """Whether the words only one of them holds are all numbers: the same thing, set to
    another value ("… on 5433" / "… on 5432")."""
    differing = word_set(old) ^ word_set(new)
    return bool(differing) and all(any(c.isdigit() for c in w) for w in differing)


def about_another(old: str, new: str) -> bool:
    """Whether `new` says the same of another thing: a word `old` says twice or more is
    replaced by another word at each place ("the orion backup runs at 1 am on the orion
    host" / "the vega backup … on the vega host"). Such a note is news, not an update: taken
    for one, accepting a red team agent's note retired six of the person's hosts."""
    said_old, said_new = _WORD.findall(old.casefold()), _WORD.findall(new.casefold())
    if len(said_old) != len(said_new):
        return False
    renamed: dict[str, set[str]] = {}
    for before, after in zip(said_old, said_new, strict=True):
        if before != after:
            renamed.setdefault(before, set()).add(after)
    return any(
        len(into) == 1 and said_old.count(word) > 1 and not any(c.isdigit() for c in word)
        for word, into in renamed.items()
    )


def _in_order(text: str, names: set[str]) -> list[str]:
    """The text's numbers and names, in the order it first says them."""
    words = _WORD.findall(text.casefold())
    return list(dict.fromkeys(w for w in words if w in names or any(c.isdigit() for c in w)))


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_NAMES_REPLACED = re.compile(
    r"\s*[,(]\s*(?:not|no longer|instead of|rather than)\s+(?P<was>[\w.:/-]+)\)?", re.IGNORECASE
)


def differences(old: str, new: str) -> str:
    """What a newer, alike text says differently, in words a person reads at a glance."""
    # naming what it replaces is no news: "6000, not 5000" read as now “6000 not”
    new = _NAMES_REPLACED.sub(lambda m: "" if m["was"].casefold() in old.casefold() else m[0], new)
    before, after = word_set(old), word_set(new)
    # in the order they are said: sorted, "(version 9)" read as "9 version"
    gone = list(dict.fromkeys(w for w in _WORD.findall(old.casefold()) if w not in after))[:6]
    came = list(dict.fromkeys(w for w in _WORD.findall(new.casefold()) if w not in before))[:6]
    parts = ([f"no longer “{' '.join(gone)}”"] if gone else []) + (
        [f"now “{' '.join(came)}”"] if came else []
    )
    return ", ".join(parts) or "the same words in another order"


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
