"""A contraction as typed reads as the rules of memory are written: with a straight apostrophe.

Phones and macOS type "don’t" with a curly one, and quick typing drops it ("dont", "cant",
"im"): every rule that waits for "don't" or "I'm" missed such a sentence whole ("i really
cant stand unwrap() outside of tests", "I’m on node 20" gave nothing). Only contractions
that are no other word are restored: "lets" (the flag lets you …), "its", "were", "well",
"ill", "id", "hes", "shed" are words of their own, and stay as typed.
"""

from __future__ import annotations

import re

# what comes before n't: "ca" and "wo" for can't and won't
_NOT = "do does did is are was were have has had ca wo should would could must need ai".split()
_MISSING = {f"{head}nt": f"{head}n't" for head in _NOT} | {
    "im": "i'm",
    "ive": "i've",
    "youre": "you're",
    "youve": "you've",
    "theyre": "they're",
    "theyve": "they've",
    "weve": "we've",
    "thats": "that's",
    "theres": "there's",
    "whats": "what's",
    "shouldve": "should've",
    "wouldve": "would've",
    "couldve": "could've",
}
# A word standing alone in prose: not part of a path, an identifier or a flag ("im.show",
# "--dont-ask", "thats_it").
_WORDS = "|".join(sorted(_MISSING, key=len, reverse=True))
_TYPED = re.compile(
    rf"(?<![\w.'’/\\@#$-])(?:{_WORDS})(?![\w'’/@-]|\.\w)",
    re.IGNORECASE,
)
_CURLY = re.compile(r"(?<=[A-Za-z])’(?=(?:t|m|s|re|ve|ll|d)\b)")


def straight(text: str) -> str:
    """`text` with its contractions written with a straight apostrophe."""
    if "’" in text:
        text = _CURLY.sub("'", text)
    return _TYPED.sub(_restored, text)


def _restored(match: re.Match[str]) -> str:
    typed = match.group()
    written = _MISSING[typed.casefold()]
    if typed.isupper() and len(typed) > 2:
        return written.upper()
    if typed[0].isupper() or written.startswith("i'"):
        return written[0].upper() + written[1:]
    return written
