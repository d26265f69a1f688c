"""The person's dislike told beside a request that says how ("Please format with deno fmt (I
don't use Prettier anywhere)", "keep it argparse, i never bother with click"): what the
dislike leaves to use is in the request, and both are one statement (`clauses.py` joins
them). A taste that names what to use stands alone."""

from __future__ import annotations

import re

_I = re.IGNORECASE


def how_asked_beside(said: str, chunks: list[str]) -> str | None:
    """The request's words that go with the dislike `said` in one of a sentence's `chunks`
    (lead-ins off), or None when `said` is no dislike of the person's or none is asked."""
    dislike = _ALWAYS_HAVE.sub("", said)
    if not _MINE.match(said) or not _AVOIDS.search(dislike) or _WHAT_TO_USE.search(dislike):
        return None
    folded = said.casefold()
    at = next((n for n, chunk in enumerate(chunks) if folded in chunk.casefold()), 0)
    # the request before it in its own chunk, else in the chunk before, else the first
    own = chunks[at]
    before = own[: max(0, own.casefold().find(folded))].strip(" ,;:-—–")
    asked = [before, chunks[at - 1] if at else "", chunks[0] if at else ""]
    request = next((r for r in asked if r and _ASKED_HOW.match(r) and "?" not in r), None)
    if request is None:
        return None
    how = _PLEASE.sub("", request)
    return how[:1].lower() + how[1:]


_MINE = re.compile(r"(?:i|i'm|i'd|my)\b", _I)
_PLEASE = re.compile(r"^(?:please|pls|plz)\s+", _I)
_ALWAYS_HAVE = re.compile(r",?\s*always ha(?:ve|s)(?: been)?\b", _I)
_AVOIDS = re.compile(
    r"\b(?:never|don'?t|do not|rather not|allergic|hate|can'?t stand)\b|"
    r"\bfind\b.*\b(?:shouty|ugly|unreadable|noisy|confusing|annoying|a mess|hard to read|"
    r"painful|clunky|misleading|distracting|bloated|brittle|overkill)\b",
    _I,
)
_WHAT_TO_USE = re.compile(
    r"\b(?:only|instead|rather than|over|always|i (?:use|want|prefer|like|go for|stick))\b|"
    r",\s*not\b(?! even\b)",
    _I,
)
# "please lint with ruff", "write the CTEs with lowercase keywords": a request and its how
_ASKED_HOW = re.compile(
    r"^(?:(?:please|pls|plz|can you|could you)\s+)?(?!(?:the|a|an|our|my|this|that|these|"
    r"those|we|i|it|they|you|there|here|all|every)\b)[a-z]+\b(?: [\w`'-]+){0,8}? "
    r"(?:with|via|using|without|instead of|rather than|in|as|only|not)\b|"
    r"^(?:(?:please|pls|plz)\s+)?(?:stick (?:to|with)|keep (?:it|them|to)|give me)\b|"
    r"^(?:(?:please|pls|plz)\s+)?(?:rename|convert|switch|change|move|migrate)\b.*\bto\b",
    _I,
)
