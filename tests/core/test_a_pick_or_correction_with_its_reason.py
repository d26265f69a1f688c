"""A pick or a correction told with a reason that holds beyond the moment is kept
(core/sessions/reasons.py); one whose words beside it only go on with the task, point back or
say it is of the moment stays the person's to confirm."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _confidence(message: str, word: str) -> str | None:
    found = [f for f in gapfill.find([message]) if word.casefold() in f.content.casefold()]
    return found[0].confidence if found else None


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("go with protobuf, the mobile clients already decode it natively", "protobuf"),
        (
            "let's go with sqlite for the local cache, the field tablets run offline half the day",
            "sqlite",
        ),
        (
            "meilisearch it is, the elastic cluster costs more than the whole app earns",
            "meilisearch",
        ),
    ],
)
def test_a_pick_with_a_reason_told_as_a_fact_is_kept(message, word):
    assert _confidence(message, word) == gapfill.HIGH


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("go with the appset, skip the helm hook", "appset"),
        ("yeah go with TimeWindowPartitionMapping, offset -1", "TimeWindowPartitionMapping"),
        ("ok random it is then, so we mock", "random"),
    ],
)
def test_a_pick_whose_words_beside_it_only_go_on_with_the_task_is_proposed(message, word):
    assert _confidence(message, word) == gapfill.MEDIUM


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("no, don't add a retry in the client, our gateway retries 5xx twice already", "gateway"),
        (
            "no, don't write a custom date picker, we've got one in ui/forms/DatePicker.tsx",
            "DatePicker.tsx",
        ),
        (
            "no, the invoices aren't in postgres, we keep them as pdfs in the s3 bucket "
            "acme-invoices",
            "acme-invoices",
        ),
        ("actually the worker isn't on heroku anymore, we moved it to fly.io in march", "fly.io"),
    ],
)
def test_a_correction_told_with_how_things_stay_here_is_kept(message, word):
    assert _confidence(message, word) == gapfill.HIGH


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("no, don't delete the fixtures yet, I want to diff them all first", "fixtures"),
        (
            "no, don't bump it in the lockfile today, the release branch is frozen for everyone",
            "lockfile",
        ),
        ("no, the other column, that one has a trailing space in every row", "column"),
    ],
)
def test_a_correction_of_the_moment_is_not_kept(message, word):
    assert _confidence(message, word) != gapfill.HIGH
