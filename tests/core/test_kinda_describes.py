""" "Kinda" that describes what is in front of the person ("the ctes are kinda messy") leaves
the rules told beside it standing (core/sessions/undecided.py); it made every statement of
its message only proposed. A leaning ("kinda want …") or an agent's idea weighed ("that idea
is kinda nice but …") is still undecided."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "the ctes in that model are kinda messy. we spell out every column in the logic "
            "ctes, select * only in the import ones. clean that one up",
            "spell out every column",
        ),
        (
            "the error text is kinda harsh. anything users read goes past Joan first, she owns "
            "the wording. put my version in for now",
            "Joan",
        ),
    ],
)
def test_a_rule_beside_a_description_is_stored(message, evidence):
    assert any(evidence in content for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "I kinda want every service on its own database eventually",
        "the queue idea is kinda nice but the workers will never keep up with it",
    ],
)
def test_a_leaning_or_a_weighed_idea_is_not_stored(message):
    assert _stored(message) == []
