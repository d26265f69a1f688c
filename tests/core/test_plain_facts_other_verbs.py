"""Plain facts told with the verbs people use for units and pins, and a request that only
points at how something is done, which states nothing."""

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # the unit a value is recorded or measured in
        (
            "ugh yes. dbh is recorded in inches, the form literally doesn't have a unit "
            "picker. can you coerce the junk to NaN",
            "inches",
        ),
        ("fyi distances are measured in km across the whole pipeline.", "km"),
        ("Rainfall is recorded in tenths of a millimetre, so 25 means 2.5 mm.", "tenths"),
        # a version the project is held at, said without the product's name
        (
            "careful, that syntax won't even parse for us. we're stuck on 4.2.2 — CI image "
            "and the Deck build both, so nothing newer than that",
            "4.2.2",
        ),
    ],
)
def test_a_fact_told_with_another_verb_is_stored(message: str, word: str) -> None:
    assert any(word in content.lower() for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "I'm stuck on step 3 of the setup guide, help",
        "im stuck on 2.3 of the tutorial, what does it want",
        "the run was measured in seconds yesterday, weird",
    ],
)
def test_being_stuck_or_a_measure_of_the_moment_is_not_stored(message: str) -> None:
    assert _stored(message) == []


def test_a_request_to_copy_how_something_is_done_is_not_a_fact() -> None:
    stored = _stored(
        "while that's cooking can you write the checkout test? e2e stuff is all maestro, "
        "lives in .maestro/ - copy how order_flow.yaml is laid out"
    )
    assert not any("copy how" in content.lower() for content in stored)


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("the experiment tracker is http://tracking.geo.internal:5000", "tracking.geo.internal"),
        ("the dev compose maps mysql to 3307 not 3306", "3307"),
        ("the rate limit redis is rl-cache.internal:6380, kept apart from the cache", "6380"),
    ],
)
def test_where_a_service_is_reached_is_stored(message: str, word: str) -> None:
    assert any(word in content.lower() for content in _stored(message))


def test_an_address_in_a_pasted_error_on_this_machine_is_not_stored() -> None:
    assert not _stored(
        "compose is up but the frontend can't reach the api: `Access to fetch at "
        "'http://localhost:8000/api/me' from origin 'http://localhost:5173' has been blocked`"
    )


def test_which_one_a_thing_is_said_with_its_verb_is_a_statement_not_an_answer() -> None:
    stored = _stored("the test db is the docker one on 5434, not my brew postgres")
    assert any("5434" in content for content in stored)
    assert _stored("yes the sliding window one, not fixed window") == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("deploys go out with kamal.", "kamal"),
        ("releases go out via Envoyer.", "envoyer"),
        ("images are built with kaniko in CI", "kaniko"),
    ],
)
def test_how_things_ship_is_a_convention(message: str, word: str) -> None:
    assert any(word in content.lower() for content in _stored(message))


def test_a_version_locked_with_a_build_suffix_is_a_pin() -> None:
    stored = _stored("we're locked on 2022.3.21f1 because the water asset breaks on anything newer")
    assert any("2022.3.21f1" in content for content in stored)
