"""Filling the gaps an agent left: corrections and stated preferences in the user's own
messages, found by a table of patterns, no model.

Each pattern has a confidence: high is stored as an L1 memory, medium becomes a proposal the
person accepts or dismisses, low is dropped. High is kept for phrasings that state something
lasting about the user ("I prefer …", "always …", "my editor is …", "remember that …");
anything that may only concern the task at hand ("don't …", "actually …", "no, it's …") is
medium. Measured on a labelled set by `bench/gapfill.py` (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

HIGH, MEDIUM, LOW = "high", "medium", "low"


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: re.Pattern[str]
    confidence: str
    kind: str  # the memory kind it would be stored as
    render: Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class Finding:
    pattern: str
    confidence: str
    kind: str
    content: str  # the memory, in words that stand without the conversation
    sentence: str  # the user's own words it came from


def _p(name: str, regex: str, confidence: str, kind: str, render: Callable) -> Pattern:
    return Pattern(name, re.compile(regex, re.IGNORECASE), confidence, kind, render)


def _cap(text: str) -> str:
    text = text.strip().rstrip(".!;,")
    return text[:1].upper() + text[1:]


# After "always"/"never", words that show a description ("always the same error", "never
# again"), not an instruction.
_NOT_A_VERB = (
    r"(?:mind|the|a|an|this|that|these|those|my|your|it|again|ever|something|anything|"
    r"everything|nothing|so|too|been|was|is|works?|seen|heard|done|had|gone|thought|"
    # an imperative takes the base form: "never used this" describes, "never use" instructs
    r"\w+ed)\b"
)
_ROLES = (
    r"engineer|developer|programmer|designer|manager|scientist|researcher|student|lead|"
    r"architect|analyst|administrator|admin|writer|founder|cto|ceo|consultant|teacher|sre"
)
_MINE = (
    r"name|e-?mail|role|job|title|time ?zone|github(?: handle| username)?|username|handle|"
    r"pronouns|company|employer|team|editor|ide|shell|os|operating system|laptop|machine|"
    r"location|city|(?:preferred|favou?rite|default|main|primary) [a-z ]{2,24}"
)

PATTERNS: tuple[Pattern, ...] = (
    _p(
        "remember_to",  # "remember to update the docs": a to-do for now, not a fact
        r"^(?:please\s+)?remember\s+to\s+(?P<x>.{3,240})$",
        MEDIUM,
        "fact",
        lambda m: f"Remember to {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "remember",
        r"^(?:please\s+)?(?:always\s+)?remember(?:\s+that)?[:,]?\s+(?P<x>.{4,240})$",
        HIGH,
        "fact",
        lambda m: _cap(m["x"]),
    ),
    _p(
        "prefer_choice",  # "I prefer the second option": a choice in this conversation
        r"^(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?prefer\s+(?P<x>(?:the|this|that|these|those|"
        r"it|option|one|yours|mine)\b.{0,200})$",
        MEDIUM,
        "preference",
        lambda m: f"The user prefers {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "prefer",
        r"^(?P<who>i|we)(?:'d|\s+would)?\s+(?:really\s+|generally\s+|usually\s+|always\s+|much\s+)?"
        r"prefer\s+(?P<x>(?!if\b|it\s+if\b|that\s+you\b).{3,200})$",
        HIGH,
        "preference",
        lambda m: (
            f"{'The user prefers' if m['who'].lower() == 'i' else 'The team prefers'} "
            f"{m['x'].strip().rstrip('.!')}"
        ),
    ),
    _p(
        "always_never",
        # An imperative, not a description ("always the same error"): no article first.
        r"^(?:please\s+)?(?P<w>always|never)\s+(?!" + _NOT_A_VERB + r")(?P<x>[a-z].{3,200})$",
        HIGH,
        "preference",
        lambda m: f"{m['w'].capitalize()} {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "from_now_on",
        r"^(?:from now on|going forward|in (?:the )?future|for future reference)[,:]?\s+"
        r"(?P<x>.{4,200})$",
        HIGH,
        "preference",
        lambda m: _cap(m["x"]),
    ),
    _p(
        "we_use",
        r"^(?:in this (?:project|repo|team),?\s+|here,?\s+)?we(?:\s+always)?"
        r"(?:\s+use|\s+are\s+using|'re\s+using|\s+standardi[sz]ed\s+on|\s+deploy\s+with|"
        r"\s+build\s+with)\s+"
        # "we use this helper to …" speaks of the code at hand, not of the team
        r"(?P<x>(?!this\b|that\b|these\b|those\b|it\b|the\b).{2,200})$",
        HIGH,
        "fact",
        lambda m: f"The team uses {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "we_always",
        r"^we\s+(?P<w>always|usually|never|normally)\s+(?!" + _NOT_A_VERB + r")(?P<x>\w.{3,200})$",
        HIGH,
        "fact",
        lambda m: f"The team {m['w'].lower()} {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "my_is",
        rf"^my\s+(?P<k>{_MINE})\s+(?:is|are)\s+(?P<x>[^?]{{1,120}})$",
        HIGH,
        "fact",
        lambda m: f"The user's {m['k'].lower()} is {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "prefer_that",
        r"^i(?:'d|\s+would)?\s+(?:really\s+)?prefer\s+(?:it\s+)?(?:if|that)\s+(?:you\s+)?"
        r"(?P<x>.{3,200})$",
        MEDIUM,
        "preference",
        lambda m: f"The user prefers that the agent {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "call_me",
        r"^(?:please\s+)?(?:call me|address me as)\s+(?P<x>[\w][\w .'-]{0,40})$",
        HIGH,
        "preference",
        lambda m: f"The user wants to be called {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "i_am_role",
        rf"^i(?:'m|\s+am)\s+(?:a|an|the)\s+(?P<x>[\w +/-]{{0,40}}?(?:{_ROLES}))\b.{{0,80}}$",
        HIGH,
        "fact",
        lambda m: f"The user is a {m['x'].strip()}",
    ),
    _p(
        "i_use",
        r"^i\s+(?:always\s+|usually\s+|mostly\s+)?use\s+(?P<x>.{2,160})$",
        MEDIUM,
        "preference",
        lambda m: f"The user uses {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "like_hate",
        r"^i\s+(?:really\s+)?(?P<v>like|love|hate|dislike|can't stand|cannot stand)\s+"
        r"(?P<x>.{3,160})$",
        MEDIUM,
        "preference",
        lambda m: f"The user {m['v'].lower()}s {m['x'].strip().rstrip('.!')}".replace(
            "can't stands", "can't stand"
        ).replace("cannot stands", "cannot stand"),
    ),
    _p(
        "dont",
        r"^(?:please\s+)?(?:don't|do not|dont)\s+(?P<x>(?!worry\b|bother\b).{3,200})$",
        MEDIUM,
        "preference",
        lambda m: f"Don't {m['x'].strip().rstrip('.!')}",
    ),
    _p(
        "no_its",
        r"^no[,.!:]?\s+(?P<x>(?!problem\b|thanks\b|worries\b|need\b|way\b|idea\b|more\b)"
        r"\w.{8,200})$",
        MEDIUM,
        "fact",
        lambda m: f"Correction: {_cap(m['x'])}",
    ),
    _p(
        "actually",
        r"^actually[,:]?\s+(?P<x>(?!no\b|yes\b|never mind\b|let's\b|let us\b|ok\b|okay\b|fine\b)"
        r".{6,200})$",
        MEDIUM,
        "fact",
        lambda m: f"Correction: {_cap(m['x'])}",
    ),
    _p(
        "thats_wrong",
        r"^(?:that's|that is|this is|it's|it is)\s+(?:wrong|incorrect|not right|not correct)"
        r"[,.;:!-]*\s*(?P<x>.*)$",
        MEDIUM,
        "fact",
        lambda m: f"Correction: {_cap(m['x'])}",
    ),
)

_QUESTION = re.compile(
    r"^(?:do(?!\s+not\b)|does|did|can|could|would|will|should|shall|is|are|was|were|have|has|"
    r"what|why|how|when|where|which|who)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"^(?:if|when|unless|maybe|perhaps|i think|i guess|i wonder)\b", re.I)
_TRAILING_HEDGE = re.compile(r",?\s+(?:i guess|i think|maybe|probably|i suppose)$", re.I)
# Sentences, and clauses that start a new statement ("…, and we use Poetry"; "…; never …").
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+|;\s+|,?\s+(?:and|but)\s+(?=(?:i|we|my)\b)", re.I)


def sentences(text: str) -> list[str]:
    """A message's sentences, each trimmed; code blocks and quoted lines left out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith((">", "$ ", "    "))]
    out = []
    for part in _SPLIT.split("\n".join(lines)):
        part = part.strip().strip("*_`\"'").strip()
        part = re.sub(
            r"^(?:ok(?:ay)?|so|and|but|also|oh|hey|btw|fyi|note|ps)[,:]?\s+", "", part, flags=re.I
        )
        if part:
            out.append(part)
    return out


def find(messages: Iterable[str]) -> list[Finding]:
    """Every finding in the user's messages, at most one per sentence (the first pattern that
    matches: the table is ordered from the most to the least specific)."""
    found: list[Finding] = []
    for message in messages:
        for sentence in sentences(message):
            finding = _match(sentence)
            if finding is not None:
                found.append(finding)
    return found


def _match(sentence: str) -> Finding | None:
    if len(sentence) > 300 or sentence.endswith("?") or _QUESTION.match(sentence):
        return None
    if _HEDGE.match(sentence) or _TRAILING_HEDGE.search(sentence.rstrip(".!")):
        return None
    body = sentence.rstrip(".!")
    for pattern in PATTERNS:
        match = pattern.regex.match(body)
        if match is None:
            continue
        content = pattern.render(match).strip()
        words = content.split()
        confidence = pattern.confidence
        if len(words) < 3 or content.endswith((":", "Correction:")):
            confidence = LOW  # nothing said that stands on its own
        return Finding(pattern.name, confidence, pattern.kind, content, sentence)
    return None
