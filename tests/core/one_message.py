"""What session end hears in one user message, as the tests of its shapes read it."""

from __future__ import annotations

from memdesk.core.sessions import gapfill


def stored(message: str) -> list[str]:
    """The memories stored from `message` alone."""
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


def heard(message: str) -> list[str]:
    """The memories stored or proposed from `message` alone."""
    return [f.content for f in gapfill.find([message]) if f.confidence != gapfill.LOW]
