"""What session end heard in a message, and where it holds: about the user (global) or about
the project the session worked in."""

from __future__ import annotations

from dataclasses import dataclass

GLOBAL, PROJECT = "global", "project"


@dataclass(frozen=True)
class Finding:
    pattern: str
    confidence: str
    kind: str
    content: str  # the memory, in words that stand without the conversation
    sentence: str  # the user's own words it came from
    scope: str = PROJECT
