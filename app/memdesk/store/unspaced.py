"""Text in scripts written without spaces between words (Chinese, Japanese) and in Korean
(whose endings attach to the word: 배포는 is 배포 + 는), and text in compatibility forms.

FTS5's unicode61 tokenizer reads such a run as one token: in "我们用pnpm安装依赖" neither 安装
nor even "pnpm" could be found. The index therefore also holds the text with each of these
characters apart (in the derived `context` column), and a query's run becomes its overlapping
pairs of characters, each a phrase ("安装" → "安 装"): how search engines have long read CJK
without a dictionary (Lucene's CJK bigrams).
"""

from __future__ import annotations

import itertools
import re
import unicodedata

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
_WORDS = re.compile(r"[^\W_]+")
# Where the index starts a word (not after a letter or digit, unless one of these), and the
# rest of the word (letters and digits up to one of these).
WORD_START = f"(?<![^\\W{_CLASS}])"
WORD_REST = f"[^\\W{_CLASS}]*"


def present(text: str) -> bool:
    return _CHAR.search(text) is not None


def indexable(text: str) -> str:
    """What the index holds beside `text` so that its words are found: the text with its
    compatibility forms unified (full-width Ｐｎｐｍ, half-width ｶﾀｶﾅ, the ligature in "ﬁle",
    a decomposed "é") and the characters of unspaced scripts apart; "" when FTS5 reads the
    words of `text` as they are."""
    normal = (
        text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)
    )
    # (a text already in NFKC has the same words: reading them twice took 0.13 s of CPU in a
    # first pull of 20,000 memories)
    if not present(normal) and (normal is text or _WORDS.findall(normal) == _WORDS.findall(text)):
        return ""
    return spaced(normal)


def spaced(text: str) -> str:
    """`text` with each such character a word of its own, and the words glued to them apart
    ("用pnpm安装" → "用 pnpm 安 装"); other text as it was."""
    if not present(text):
        return text
    return _CHAR.sub(lambda m: f" {m.group()} ", text)


def query_words(word: str) -> list[str]:
    """A query word as the index holds it: a run of such characters becomes itself and its
    overlapping pairs, each two words apart as an FTS5 phrase ("安装依赖" → "安装依赖", "安 装",
    "装 依", "依 赖"); letters and digits glued to a run are words of their own."""
    if not present(word):
        return [word]
    found: list[str] = []
    for part in _RUN.split(word):
        if present(part):
            # the run itself too: a tag or a text that is just this run holds it whole
            found += [part, *(" ".join(pair) for pair in itertools.pairwise(part))]
        elif part:
            found.append(part)
    return found
