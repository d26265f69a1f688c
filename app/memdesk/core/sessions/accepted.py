"""A decision the assistant proposed ("I'd suggest we keep the cache per tenant") that the
user's next message accepts ("yes, do that"): the decision is the user's too."""

from __future__ import annotations

import re

from memdesk.core.sessions import markers, pasted
from memdesk.core.sessions.finding import Finding
from memdesk.core.sessions.message_sentences import sentences
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_ACCEPT = re.compile(
    r"^(?:yes|yep|yeah|sure|ok(?:ay)?|agreed|sounds good|good idea|great idea|perfect|"
    r"let's do (?:that|it)|do (?:it|that)|go (?:ahead|for it)|please do|let's (?:stick|go) with "
    r"(?:that|it)|makes sense|lgtm)\b(?![^.!]*\b(?:but|no|not|don't)\b)",
    re.IGNORECASE,
)
_PROPOSAL = re.compile(
    r"\b(?:i(?:'d| would)? (?:suggest|recommend|propose)|my suggestion is|we should|"
    r"let's)\s+(?:that\s+)?(?:we\s+)?(?P<x>[a-z][^.?!]{6,200})",
    re.IGNORECASE,
)
_LASTING = re.compile(
    r"\b(?:all|every|always|never|any|from now on|going forward|instead of|rather than|"
    r"for (?:all|every|everything)|new|whenever)\b",
    re.IGNORECASE,
)


def accepts(reply: str) -> bool:
    """Whether the user's reply opens by accepting what the assistant just proposed."""
    return bool(_ACCEPT.match(next(iter(sentences(reply)), "")))


def asked_after(proposal: str, sentence: str) -> bool:
    """Whether `proposal` asks another question after `sentence`: "yes" to "I'll go with X.
    Should I also fix the typo in the README?" answers the typo, not X (red team 37). A short
    one ("OK?", "Sound good?") asks about what came before."""
    after = proposal[proposal.find(sentence) + len(sentence) :]
    return any(
        asked.rstrip().endswith("?") and len(asked.split()) > _ASKS_ABOUT_IT
        for asked in _SENTENCE_OR_LINE.split(after)
    )


_SENTENCE_OR_LINE = re.compile(r"(?<=[.!?])\s+|\n+")
_ASKS_ABOUT_IT = 4


def decisions(proposal: str, reply: str) -> list[Finding]:
    """The decision in an assistant's proposal, when the user's reply accepts it."""
    if not accepts(reply):
        return []
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", pasted.prose(proposal)):
        match = _PROPOSAL.search(sentence)
        if match is None or sentence.rstrip().endswith("?") and "shall" not in sentence.lower():
            continue
        if asked_after(proposal, sentence):
            continue
        what = re.split(r"\s+(?:so that|so|because|since)\s+", match["x"].strip())[0]
        if markers.DEICTIC_START.match(what):
            continue  # "I'd suggest it as the rule": what "it" is was said before, not kept
        confidence = HIGH if _LASTING.search(what) else MEDIUM
        content = "Decision: " + person(what[:1].upper() + what[1:])
        out.append(Finding("accepted_decision", confidence, "decision", content, sentence))
    return out
