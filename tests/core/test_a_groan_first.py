"""A groan opening a message ("ugh.", "ugh that test is from the old template.") is at what
the agent found, not at the person's own way told after it (core/sessions/matters.py): "we
only ship inside canada so everything is CAD" after it was only proposed. What follows a
groan told of others or of things is the complaint itself, and stays out."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "ugh that snapshot is from the starter kit. we only sell inside norway so every "
            "price is NOK, just fix the fixture",
            "NOK",
        ),
        (
            "ugh. keep every timestamp we write in UTC, same as the upstream feed. then rerun "
            "the export",
            "UTC",
        ),
    ],
)
def test_the_persons_way_after_a_groan_is_stored(message, evidence):
    assert any(evidence in content for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "ugh. every single september the account requests pile up and nobody helps",
        "ugh, hydration mismatch again. somebody ALWAYS puts new Date() in a template",
    ],
)
def test_a_complaint_after_a_groan_is_not_stored(message):
    assert _stored(message) == []
