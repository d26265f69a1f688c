"""A habit told under a condition: "When I can't reproduce a finding I mark it needs-info", "if
a test is flaky, we quarantine it". The condition names no fault of now, nor makes the sentence
a hedge; a plan, a guess or a story under one is none of these (`heard.py` reads the rest)."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# I or we, then a verb of habit: not what will, could or did happen then ("…, we'll need a
# driver"), nor what the person thinks or knows ("each time I think I understand it, …").
HABIT_WHEN = re.compile(
    r"^(?:when(?:ever)?|if|each time|every time|any ?time)\s+(?P<cond>[^,;?]{3,80}?),?\s+"
    r"(?P<main>(?:i|we)\s+"
    r"(?:always\s+|usually\s+|normally\s+|just\s+|first\s+|still\s+|also\s+)?"
    r"(?!(?:will|would|could|might|may|can|should|shall|must|had|have|has|was|were|did|got|"
    r"went|saw|ran|made|found|said|told|took|came|thought|felt|knew|kept|left|lost|wanted|"
    r"need|needed|want|am|are|'m|'re|'ll|'d|'ve|do|don't|do not|think|understand|know|feel|"
    r"guess|believe|remember|see|wonder|hope|expect|mean|suppose|realize|notice|get)\b)"
    r"[a-z]+(?<!ed)\b)(?![^?]*\?\s*$)",
    _I,
)
# a story or a guess under the condition ("when it finally printed …", "if a tenant got huge
# would we …"), a guess in what follows ("… and we treat it as seconds that would explain")
_TOLD_ONCE = re.compile(
    r"\b(?:would|could|should|might|will|did|got|was|were|had|finally|yesterday|ago|last)\b|"
    r"\b(?:i|we|it|he|she|they|you)\s+(?:\w+ly\s+)?\w+ed\b",
    _I,
)
_MAYBE = re.compile(r"\b(?:would|could|might)\b", _I)


def habit_when(text: str) -> re.Match[str] | None:
    """`HABIT_WHEN`'s match, when neither side is a story or a guess."""
    found = HABIT_WHEN.match(text)
    if (
        found
        and not _TOLD_ONCE.search(found["cond"])
        and not _MAYBE.search(text, found.start("main"))
    ):
        return found
    return None
