"""A statement of several clauses before the story, reason or step of the work told after it
is kept whole (core/sessions): "we don't use terraform cloud, state lives in the
infra-tfstate bucket, so ignore the login step in the old wiki" was stored as "We don't use
terraform cloud", without where the state lives. A fault of the moment stays out."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (
            "oh and fyi we don't use terraform cloud, state lives in the infra-tfstate bucket "
            "in the shared account, so ignore the `terraform login` step in the old wiki",
            ("terraform cloud", "infra-tfstate"),
        ),
        (
            "One more thing, for the future: every release goes to Ines Duarte, the clinic's "
            "data officer, for review before it is deployed. Please write the notes with her in "
            "mind.",
            ("ines duarte", "data officer"),
        ),
        (
            "every feed in the export runs on Europe/Lisbon, no exceptions, so anything else in "
            "that column means the export is broken and should be an error.",
            ("europe/lisbon", "no exceptions"),
        ),
    ],
)
def test_every_clause_of_the_statement_is_kept(message, words):
    kept = _kept(message)
    assert any(all(word in content.lower() for word in words) for content in kept), kept


def test_a_fault_of_the_moment_before_a_guess_stays_out():
    message = (
        "the eval loss is exactly 0.69 every epoch which is suspicious, i think the targets "
        "get shuffled apart from the inputs"
    )
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("i'll merge it after lunch, we squash every PR into one commit on main", "squash"),
        (
            "I'll deal with the changelog later — we always tag releases as vX.Y.Z, never with "
            "a date",
            "vX.Y.Z",
        ),
        (
            "I'll take care of the release myself — prod deploys only ever go out through the "
            "release workflow, nobody runs kubectl apply against prod by hand",
            "release workflow",
        ),
    ],
)
def test_a_statement_after_the_persons_next_step_is_heard(message, word):
    """Before, the whole sentence was refused as not decided, for its "I'll …" alone."""
    heard = [f.content for f in gapfill.find([message])]
    assert any(word in content for content in heard), heard
