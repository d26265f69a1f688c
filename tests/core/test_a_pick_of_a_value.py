"""A pick of a value or of something named with "a" ("go with 30d retention", "let's go with 1
request every 4 seconds per domain", "go with a dedicated queue") is a pick, not an answer
naming the agent's option 2 or option A (core/sessions/transient.py read the value's first
digit or the article as the option)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        ("go with 30d retention, the disk on that VM is only 64G anyway", "30d retention"),
        (
            "let's go with 1 request every 4 seconds per domain, across the whole process not "
            "per scraper instance",
            "every 4 seconds",
        ),
    ],
)
def test_a_pick_of_a_value_is_stored(message, evidence):
    assert any(evidence in content for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "yeah go with option 2",
        "go with 2, the other one is too slow",
        "let's go with b, it reads better",
        "yes go with 1 pls",
        "go with a",
    ],
)
def test_an_answer_naming_the_agents_option_is_not_stored(message):
    assert _stored(message) == []
