"""A statement the person marks as theirs wherever they work ("I do conventional commits in
every repo I touch", "that's how I write sql everywhere, not a this-repo thing", "goes for any
repo"): kept whatever the message around it does (gives work, vents, answers a pick), unless
its own sentence asks, doubts or limits it to now.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TypeVar

from memdesk.core.sessions import heard
from memdesk.core.sessions.finding import Finding
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM

_I = re.IGNORECASE
_EVERY_REPO = re.compile(
    r"\b(?:(?:in|for|across) every (?:repo|project|codebase)\w*|"
    r"that's how i (?:write|work|do)\w*|"
    r"not (?:just|only) (?:this|in this|a this)[- ](?:repo|project)|"
    r"(?:a|just a) me thing|nowhere else|goes for (?:any|every) (?:repo|project))\b",
    _I,
)
_ONLY_NOW = re.compile(
    r"\b(?:for now|this time|today|yet|just this|for this (?:pr|one|task|ticket|branch|run))\b",
    _I,
)
_PICKS = ("decision", "accepted_decision")  # a pick's own rules say when it holds

F = TypeVar("F", bound=Finding)


def kept(finding: F) -> F:
    """`finding`, stored when its sentence says it holds wherever the person works."""
    sentence = finding.sentence
    if (
        finding.confidence != MEDIUM
        or finding.pattern in _PICKS
        or not _EVERY_REPO.search(sentence)
        or _ONLY_NOW.search(sentence)
        or "?" in sentence
        or heard.not_a_statement(sentence)
    ):
        return finding
    return replace(finding, confidence=HIGH)
