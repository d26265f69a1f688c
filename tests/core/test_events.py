"""Change events: published after the commit, with the right names, never for a failed write."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing

import pytest

from memdesk.core import Change, IdentityFull, NotAllowed, VersionConflict, agent


@pytest.fixture
def events(service):
    seen: list[Change] = []
    unsubscribe = service.changes.subscribe(seen.extend)
    yield seen
    unsubscribe()


def test_each_write_announces_what_changed(service, events):
    memory = service.add("Watch me", actor=agent("claude"))
    mid = memory["id"]
    service.update(mid, content="Watch me change")
    service.remove(mid)
    service.restore(mid)
    service.remove(mid)
    service.purge(mid)
    assert events == [
        Change("created", mid, 1, "agent:claude"),
        Change("updated", mid, 2, "user"),
        Change("deleted", mid, 3, "user"),
        Change("restored", mid, 4, "user"),
        Change("deleted", mid, 5, "user"),
        Change("deleted", mid, None, "user", purged=True),
    ]


def test_a_correction_announces_the_old_one_updated_and_the_new_one_created(service, events):
    old = service.add("Wrong fact")
    events.clear()
    new = service.correct(old["id"], "Right fact")
    assert events == [
        Change("updated", old["id"], 2, "user"),
        Change("created", new["id"], 1, "user"),
    ]


def test_a_batch_is_announced_once_with_every_change(service):
    batches: list[list[Change]] = []
    service.changes.subscribe(batches.append)
    added = service.add_many([{"content": "one"}, {"content": "two"}], dedup=False)
    assert batches == [[Change("created", m["id"], 1, "user") for m in added]]


def test_listeners_run_after_the_commit(service, db_path):
    seen_by_another_connection = []

    def listener(changes: list[Change]) -> None:
        with closing(sqlite3.connect(db_path)) as other:
            row = other.execute(
                "SELECT content FROM memory WHERE uuid = ?", (changes[0].id,)
            ).fetchone()
        seen_by_another_connection.append(row)

    service.changes.subscribe(listener)
    service.add("Committed before anyone hears of it")
    assert seen_by_another_connection == [("Committed before anyone hears of it",)]


def test_failed_writes_announce_nothing(service, events):
    memory = service.add("Stable")
    events.clear()
    with pytest.raises(NotAllowed):
        service.add("Agent archive", layer="L2", actor=agent("claude"))
    with pytest.raises(VersionConflict):
        service.update(memory["id"], content="Stale", expected_version=7)
    with pytest.raises(NotAllowed):
        service.purge(memory["id"])
    with pytest.raises(IdentityFull):
        service.add_many(
            [{"content": "a" * 600, "layer": "L0"}, {"content": "b" * 600, "layer": "L0"}]
        )
    assert events == []


def test_searching_announces_nothing(service, events):
    service.add("Quiet search target")
    events.clear()
    service.search("quiet target")
    assert events == []


def test_unsubscribe_stops_the_events(service):
    seen: list[Change] = []
    unsubscribe = service.changes.subscribe(seen.extend)
    unsubscribe()
    service.add("Nobody listens")
    assert seen == []


def test_a_broken_listener_does_not_undo_the_write_or_silence_others(service, events, caplog):
    def broken(changes: list[Change]) -> None:
        raise RuntimeError("view crashed")

    service.changes.subscribe(broken)
    after: list[Change] = []
    service.changes.subscribe(after.extend)
    with caplog.at_level(logging.ERROR):
        memory = service.add("Still saved")
    assert service.get(memory["id"])["content"] == "Still saved"
    assert [c.id for c in after] == [memory["id"]]
    assert "change listener failed" in caplog.text


def test_linking_twice_announces_one_change(service):
    a, b = service.add("first fact"), service.add("second fact")
    seen = []
    service.changes.subscribe(seen.extend)
    service.link(a["id"], b["id"])
    service.link(a["id"], b["id"])
    assert len(seen) == 1
