"""A few words first about what is in front of the person, then a statement in the same
sentence: "that won't fly, the app ships in English, German and Dutch, every user-facing
string goes in strings.xml …", "pls revert your atlantis.yaml edit, atlantis.yaml is generated
by terragrunt-atlantis-config, nobody edits it by hand". Read whole, the sentence is about
this change ("that …", a request) and is only proposed; what follows the head holds alone."""

from __future__ import annotations

import re

_I = re.IGNORECASE
# "that 3.6 stuff is ancient btw", "that can't stay like that" (not "that applies to …")
_POINTED_AT = re.compile(r"^(?:that|this|those|these)\b(?!\s+applies)", _I)
_POINTED_WORDS = 6
# "there's no amount field", "while you're in there", "swap the theme at least"
_ASKED_OF_THIS = re.compile(
    r"^(?:there(?:'s| is) no|while (?:you're|ur|you are))\b|"
    r"^(?:(?:pls|please)\s+)?[a-z]+ (?:your|the|that|this)\b[^,]*\b(?:edit|at least|in there)\b",
    _I,
)
_ASKED_WORDS = 8
_A_STATEMENT = 4  # words
# what goes on from the head rather than standing alone ("…, by the way, never the …",
# "…, it's still the previous one", "…, Niamh owns that file")
_GOES_ON = re.compile(
    r"^(?:by the way|btw|fyi|it|its|it's|they|them|that|this|not|otherwise|so|and|but|or|"
    r"always|never)\b",
    _I,
)
_POINTS_BACK = re.compile(
    r"\b(?:that|this|those|these) (?:file|folder|dir|directory|one|code|module|function|"
    r"class|table)s?\b",
    _I,
)


def after_the_head(chunk: str) -> str:
    """What `chunk` states after a head about the thing at hand, or "" when it has no such
    head or what follows does not stand alone."""
    head, comma, rest = chunk.partition(", ")
    words = len(head.split())
    at_hand = (
        _POINTED_AT.match(head)
        and words <= _POINTED_WORDS
        or _ASKED_OF_THIS.match(head)
        and words <= _ASKED_WORDS
    )
    if (
        not comma
        or not at_hand
        or len(rest.split()) < _A_STATEMENT
        or _GOES_ON.match(rest)
        or _POINTS_BACK.search(rest)
        or rest.rstrip().endswith(":")  # "…, repeated roughly every ten seconds:" leads in
    ):
        return ""
    return rest
