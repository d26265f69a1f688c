"""Memory as it was at a moment: active then, with the content it had then."""

from __future__ import annotations

import time

from memdesk.core import clock


def _moment() -> str:
    now = clock.now()
    time.sleep(0.01)  # the next change is stamped strictly later
    return now


def test_an_edit_and_a_correction_are_seen_as_they_were(service):
    port = service.add("The staging port is 8080")
    shell = service.add("The user's shell is bash")
    before = _moment()
    service.update(port["id"], content="The staging port is 8443")
    fixed = service.correct(shell["id"], "The user's shell is fish")
    after = _moment()
    gone = service.add("A note removed later")
    service.remove(gone["id"])

    then = service.as_of(before)
    assert then[port["id"]]["content"] == "The staging port is 8080"
    assert then[shell["id"]]["content"] == "The user's shell is bash"  # before its correction
    assert fixed["id"] not in then  # written after that moment

    later = service.as_of(after)
    assert later[port["id"]]["content"] == "The staging port is 8443"
    assert shell["id"] not in later  # retired by the correction
    assert later[fixed["id"]]["content"] == "The user's shell is fish"
    assert gone["id"] not in service.as_of(clock.now())  # in the Trash now


def test_as_of_takes_the_list_filters(service):
    service.add("shop fact", project="shop")
    service.add("infra fact", project="infra")
    assert [s["content"] for s in service.as_of(clock.now(), project="shop").values()] == [
        "shop fact"
    ]
