"""A plan the person drops as they say it ("I was going to rename Orders to Purchases while
we're at it, but nah, forget it"): nothing to keep. What they say once it is dropped ("…, but
never mind: we use ruff for everything here") is read on its own."""

from __future__ import annotations

import re

_I = re.IGNORECASE

_DISMISSALS = (
    "never mind",
    "nevermind",
    "forget it",
    "forget that",
    "scratch that",
    "scrap that",
    "but nah",
    "but no",
    "but nope",
)
# Where a dismissal ends and the next clause starts afresh. Each word is its own look-behind,
# since Python's look-behinds are of a fixed width.
AFTER_DISMISSAL = (
    "(?:" + "|".join(rf"(?<=\b{word})" for word in _DISMISSALS) + r")\s*[,:;—–]\s+(?=\w)"
)
# (a dot inside a name, "Dispatch.Offers", ends no sentence)
DROPPED = re.compile(
    r"\b(?:i|we)(?:'d|'ve| was| were| had)?\s+(?:been\s+|half\s+)?(?:going to|gonna|about to|"
    r"planning (?:to|on)|thinking (?:of|about|(?:i|we)\b)|meaning to|tempted to)\b"
    r"(?:[^.;!?]|[.!?](?=\S))*?(?:\bbut\b|,|\s[—–])\s*(?:(?:actually|ok|okay|hmm|eh|oh)[,\s]+)?"
    r"(?:nah|no|nope|nvm|never ?mind|maybe not|on second thought|"
    r"(?:scrap|scratch|forget|drop|skip|ditch) (?:that|it|th(?:e|at) [\w -]{1,40}?idea))\b",
    _I,
)
