"""Text in scripts written without spaces between words (Chinese, Japanese) and in Korean
(whose endings attach to the word: 배포는 is 배포 + 는).

FTS5's unicode61 tokenizer reads such a run as one token: in "我们用pnpm安装依赖" neither 安装
nor even "pnpm" could be found. The index therefore also holds the text with each of these
characters apart (in the derived `context` column), and a query's run becomes its overlapping
pairs of characters, each a phrase ("安装" → "安 装"): how search engines have long read CJK
without a dictionary (Lucene's CJK bigrams).
"""

from __future__ import annotations

import itertools
import re

RANGES = (
    ("\u3040", "\u30ff"),  # hiragana, katakana
    ("\u31f0", "\u31ff"),  # katakana extensions
    ("\u3005", "\u3007"),  # 々 (repeats the ideograph before it), 〆, 〇
    ("\u3400", "\u4dbf"),  # ideographs, extension A
    ("\u4e00", "\u9fff"),  # ideographs
    ("\uf900", "\ufaff"),  # compatibility ideographs
    ("\uff66", "\uff9f"),  # half-width katakana
    ("\u1100", "\u11ff"),  # hangul jamo
    ("\u3130", "\u318f"),  # hangul compatibility jamo
    ("\uac00", "\ud7af"),  # hangul syllables
    ("\U00020000", "\U0003134f"),  # ideographs, extensions B to G
)
_CLASS = "".join(f"{low}-{high}" for low, high in RANGES)
_CHAR = re.compile(f"[{_CLASS}]")
_RUN = re.compile(f"([{_CLASS}]+)")
# The same characters for SQLite's GLOB, which compares code points in a [...] range.
GLOB = f"*[{_CLASS}]*"
# Where the index starts a word (not after a letter or digit, unless one of these), and the
# rest of the word (letters and digits up to one of these).
WORD_START = f"(?<![^\\W{_CLASS}])"
WORD_REST = f"[^\\W{_CLASS}]*"


def present(text: str) -> bool:
    return _CHAR.search(text) is not None


def spaced(text: str) -> str:
    """`text` with each such character a word of its own, and the words glued to them apart
    ("用pnpm安装" → "用 pnpm 安 装"); other text as it was."""
    if not present(text):
        return text
    return _CHAR.sub(lambda m: f" {m.group()} ", text)


def query_words(word: str) -> list[str]:
    """A query word as the index holds it: a run of such characters becomes its overlapping
    pairs, each two words apart as an FTS5 phrase ("安装依赖" → "安 装", "装 依", "依 赖"); a
    single character stays one; letters and digits glued to a run are words of their own."""
    if not present(word):
        return [word]
    found: list[str] = []
    for part in _RUN.split(word):
        if present(part):
            found += [" ".join(pair) for pair in itertools.pairwise(part)] or [part]
        elif part:
            found.append(part)
    return found
