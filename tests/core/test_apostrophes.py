"""A contraction typed with a curly apostrophe (phones, macOS) or none ("dont", "cant", "im")
is heard as if typed with a straight one (core/sessions/apostrophes.py): "i really cant stand
unwrap() outside of tests" and "I’m on node 20" gave nothing. Words of their own ("lets",
"its", "were") and names in code ("im.show", "--dont-ask") stay as typed."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill
from memdesk.core.sessions.apostrophes import straight


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("typed", "evidence"),
    [
        ("i really {cant} stand unwrap() outside of tests", "unwrap() outside of tests"),
        ("I really {dont} like var when you {cant} tell the type", "var when"),
        ("{im} on node 20", "node 20"),
        ("we {dont} use make here", "make here"),
    ],
)
@pytest.mark.parametrize("apostrophe", ["'", "’", ""])
def test_a_statement_is_heard_however_its_apostrophes_are_typed(typed, evidence, apostrophe):
    words = {"cant": "can't", "dont": "don't", "im": "I'm"}
    message = typed.format(**{k: v.replace("'", apostrophe) for k, v in words.items()})
    assert any(evidence in content for content in _stored(message)), message


@pytest.mark.parametrize(
    "text",
    [
        "the flag lets you skip the cache",
        "its config lives in im.show and --dont-ask",
        "we were told thats_it is the name",
        "it's 'quoted’ text",
    ],
)
def test_words_of_their_own_and_names_in_code_stay_as_typed(text):
    assert straight(text) == text


def test_the_restored_contraction_keeps_the_case_it_was_typed_in():
    assert straight("Dont. DONT. dont. im. Im.") == "Don't. DON'T. don't. I'm. I'm."
