"""Where the person is as they type (on a train, on hotel wifi, on vpn) is of the moment: a
session end stored "The user is on the train with crappy wifi …" as lasting (batch 20)."""

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        "I'm on the train with crappy wifi so the build is gonna be slow, bear with me.",
        "I'm on vpn so it should work from my shell.",
        "im on my phone hotspot so don't pull the big images",
        "I'm on plane wifi, keep the answers short",
    ],
)
def test_where_the_person_is_now_is_not_stored(message):
    assert _stored(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("i'm on my phone most mornings so keep replies short", "phone"),
        ("I'm on fish, not bash, so give me fish syntax", "fish"),
        ("I'm always on vpn at work, so internal hosts resolve", "vpn"),
    ],
)
def test_a_habit_or_a_tool_the_person_is_on_still_is(message, word):
    assert any(word in s.lower() for s in _stored(message)), gapfill.find([message])
