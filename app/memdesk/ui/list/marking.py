"""Where the list marks the words of a search: the forms the search matched (its stemmer's,
its accent folding's: "resume" finds "résumé"), and where they are drawn, right-to-left
and mixed text included ("المستخدم" was marked at the other end of its row)."""

from __future__ import annotations

import functools
import re
import unicodedata

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextLayout, QTextOption

from memdesk.core.search.retrieval import terms
from memdesk.store.unspaced import WORD_REST, WORD_START

SUFFIXES = ("ing", "ies", "ed", "es", "ly", "s")


def _stem(word: str) -> str:
    """A crude stem, enough to mark the forms the search's Porter stemmer also matched."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def marked_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Where in `text` the words that match `query` (as search matches them) are."""
    pattern = _marking(query)
    if pattern is None:
        return []
    folded, source = _folded(text)
    # a span ends after the last character it covers, with the marks that character carries
    ends = [*source[1:], len(text)]
    return [(source[m.start()], ends[m.end() - 1]) for m in pattern.finditer(folded) if m.end()]


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` without its accents, as the search index reads it, and for each character left
    the index of the character of `text` it comes from."""
    kept: list[str] = []
    source: list[int] = []
    for at, char in enumerate(text):
        for part in unicodedata.normalize("NFD", char):
            if not unicodedata.combining(part):
                kept.append(part)
                source.append(at)
    return "".join(kept), source


@functools.lru_cache(maxsize=64)
def _marking(query: str) -> re.Pattern[str] | None:
    words = [_folded(w)[0] for w in terms(query)]
    if not any(words):
        return None
    # Search stems words (Porter): "test" finds "Tests" and "testing", so mark those too.
    stems = sorted({_stem(w) for w in words if w and " " not in w}, key=len, reverse=True)
    # A pair of Chinese, Japanese or Korean characters is found inside a run: no word edge.
    pairs = sorted({w.replace(" ", "") for w in words if " " in w})
    alternatives = (
        [f"{WORD_START}(?:{'|'.join(map(re.escape, stems))}){WORD_REST}"] if stems else []
    )
    alternatives += map(re.escape, pairs)
    return re.compile("|".join(alternatives), re.IGNORECASE)


def drawn_ranges(
    text: str, spans: list[tuple[int, int]], font: QFont, direction: Qt.LayoutDirection
) -> list[tuple[float, float]]:
    """Each span's left and right edge as `text` is drawn on one line from x = 0: laid out
    as Qt lays it out (the bidirectional algorithm), not measured left to right."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setTextDirection(direction)
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    if not line.isValid():
        return []
    ranges = []
    for start, end in spans:
        a, b = line.cursorToX(start)[0], line.cursorToX(end)[0]
        ranges.append((min(a, b), max(a, b)))
    return ranges
