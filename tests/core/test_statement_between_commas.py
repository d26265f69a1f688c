"""A statement told between commas, after a reaction, a correction of the agent or a request,
is stored on its own; a clause cut from a question, a condition, a hedge, a request or a
report of the moment is not."""

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "careful there, order totals from the POS are in cents btw, the web ones are euros.",
            "cents",
        ),
        (
            "can you redo the chart, honestly, I'm colourblind so red and green look the "
            "same to me",
            "colourblind",
        ),
        (
            "it's not, the support desk is in Porto, opening hours are 8 to 17 Europe/Lisbon.",
            "europe/lisbon",
        ),
    ],
)
def test_a_statement_after_a_reaction_or_a_request_is_stored(message: str, word: str) -> None:
    assert any(word in content.lower() for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "if we ever move to k8s, the workers run on argo, but that's far off",
        "not sure, but the staging db is on 5433 I think",
        "yeah, the old api was on 8081, or was it 8082?",
        "we always run the migration check in CI, right? or did someone rip that out",
        "ok let's get this out, staging first",
        "fix that test too, use the fake clock like the others do",
        "so whatever you need to do with the session cookie, do it",
        "look at encode() in src/payload.c, I want the humidity in there too, right now it "
        "only sends weight",
        "synced staging to live with the migrate tool, all good",
        "rename OrderState to OrderStatus across the repo, incl. the json tags.",
        # a request for this once, with why: the why is of the moment too
        "dont push the router change until after 6pm, people are on calls all afternoon",
        "dont use the web installer for this batch, the laptop with chrome is at work",
    ],
)
def test_a_clause_cut_from_what_governs_it_is_not_stored(message: str) -> None:
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("don't put a real token in there, the tests talk to the fake smtp server on 2525", "2525"),
        (
            "let's go with your monorepo idea, terraform only bootstraps the cluster and "
            "everything else lives under apps/",
            "apps/",
        ),
        (
            "don't touch the dns zones, Ines owns DNS and she will lose it if terraform starts "
            "managing records she made by hand",
            "ines",
        ),
    ],
)
def test_a_request_with_a_lasting_statement_beside_it_is_stored_whole(
    message: str, word: str
) -> None:
    stored = _stored(message)
    assert any(word in content.lower() for content in stored)
    assert any(content.lower().startswith(message[:12].lower()) for content in stored)
