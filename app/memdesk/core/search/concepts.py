"""What a prompt means beyond its words: developer vocabulary and identifiers.

A prompt rarely names the tool a stored convention names ("write tests for the parser" and
"the user prefers pytest"). `related_words` adds, for each word of the prompt, the other words
of its group in the reviewed concept map (`data/concepts.txt`), and the parts of identifiers
(`StreamParser` -> stream, parser). `only_by_sql_keyword` tells a hit that matched only
because Porter stemming made an SQL keyword ("UPDATE") of an ordinary word ("updated").
"""

from __future__ import annotations

import functools
import re
from importlib import resources

_TOKEN = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
MAX_RELATED = 24  # words added to one prompt: the prompt's own words stay the strongest
SQL_KEYWORDS = frozenset(
    "select insert update delete join where order group create drop alter index limit union "
    "merge grant values having returning commit rollback begin truncate".split()
)


def _key(word: str) -> str:
    """A light stem, so "tests" finds the group of "test" (the map lists base forms)."""
    for suffix in ("ing", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@functools.cache
def groups() -> dict[str, tuple[str, ...]]:
    """Each word of the map (by its light stem) -> the words of every group holding it."""
    text = resources.files("memdesk.core.search").joinpath("data/concepts.txt").read_text("utf-8")
    index: dict[str, list[str]] = {}
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        for word in words:
            index.setdefault(_key(word), []).extend(w for w in words if w != word)
    return {key: tuple(dict.fromkeys(words)) for key, words in index.items()}


def related_words(prompt: str) -> list[str]:
    """Words to search for beside the prompt's own: identifier parts, then group members."""
    own = [w.casefold() for w in _TOKEN.findall(prompt)]
    parts = [
        part.casefold()
        for token in _TOKEN.findall(prompt)
        for part in _CAMEL.findall(token)
        if part.casefold() != token.casefold() and len(part) > 2
    ]
    known = groups()
    added = [w for word in (*own, *parts) for w in known.get(_key(word), ())]
    seen = set(own)
    out = []
    for word in (*parts, *added):
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out[:MAX_RELATED]


def only_by_sql_keyword(content: str, prompt: str) -> bool:
    """Whether every prompt word found in `content` is found only as an upper-case SQL keyword
    that is not the word itself ("UPDATE" for "updated"): a match stemming made, not a
    meaning the prompt had. A hit matched some other way (tags, context) is not judged."""
    tokens = _TOKEN.findall(content)
    if not any(t.isupper() and t.casefold() in SQL_KEYWORDS for t in tokens):
        return False  # most texts hold no keyword: matching each word took most of a prompt
    words = {w.casefold() for w in _TOKEN.findall(prompt)}
    matched_plain = matched_keyword = False
    for token in tokens:
        folded = token.casefold()
        hits = [w for w in words if w == folded or _key(w) == _key(folded) or _near(w, folded)]
        if not hits:
            continue
        if token.isupper() and folded in SQL_KEYWORDS and folded not in hits:
            matched_keyword = True
        else:
            matched_plain = True
    return matched_keyword and not matched_plain


def _near(word: str, token: str) -> bool:
    """Porter's kind of match, roughly: one is the other with an ending ("update"/"updated")."""
    short, long = sorted((word, token), key=len)
    return len(short) >= 4 and long.startswith(short.rstrip("e")) and len(long) - len(short) <= 4
