"""Search bookkeeping waits while searches keep coming and is written once they pause."""

from __future__ import annotations

import sqlite3
import time

from memdesk.api.bookkeeper import Bookkeeper


def _logged(db_path) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT count(*) FROM retrieval_log").fetchone()[0]


def test_bookkeeping_is_written_once_a_tick_passes_without_a_search(service, db_path):
    service.add("The deploy script lives in tools/deploy.sh")
    keeper = Bookkeeper(service)
    for _ in range(3):  # a search in every tick: the server stays busy answering
        service.search("deploy script")
        keeper.tick()
        assert _logged(db_path) == 0
    keeper.tick()  # no search since the last tick
    assert _logged(db_path) == 3
    assert service.queued_recalls() == 0


def test_idle_ticks_merge_the_search_index_and_searches_still_find_everything(service):
    for n in range(40):  # one transaction each: the index is left as many b-trees
        service.add(f"merge note number {n}", dedup=False)
    keeper = Bookkeeper(service)
    for _ in range(50):
        keeper.tick()
    assert service.tidy_index() is False  # nothing left to merge
    assert len(service.search("merge note", k=100)["hits"]) == 40
    assert service.check() == []


def test_no_merging_while_changes_keep_coming(service):
    for n in range(40):
        service.add(f"merge note number {n}", dedup=False)
    keeper = Bookkeeper(service)
    for _ in range(50):
        keeper.note_changes(1)  # an agent writing in every tick
        keeper.tick()
    assert service.tidy_index() is True


def test_idle_work_never_waits_for_another_writer_and_loses_nothing(service, db_path):
    """The server's thread does this work between requests: waiting there for a writer's lock
    (a sync taking a remote's files) kept the person waiting for seconds."""
    service.add("The deploy script lives in tools/deploy.sh")
    keeper = Bookkeeper(service)
    service.search("deploy script")
    keeper.tick()
    writer = sqlite3.connect(db_path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another writer holds the store
    try:
        started = time.monotonic()
        keeper.tick()  # idle: it would write the search's bookkeeping now
        for _ in range(5):
            keeper.tick()  # and merge the index
        assert time.monotonic() - started < 1.0  # the busy timeout is 5 s a try
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert service.queued_recalls() == 1
    keeper.tick()
    assert _logged(db_path) == 1


def test_a_merge_step_that_takes_long_stops_the_merging_till_later(service, monkeypatch):
    """On a store of an agent's 60 KB memories of random words each idle merge step took
    ~0.5 s (one SQLite statement: no time limit stops it), and step after step held every
    client for over a minute."""
    from memdesk.api import bookkeeper

    for n in range(40):
        service.add(f"merge note number {n}", dedup=False)
    steps = []

    def slow_step(pages: int) -> bool:
        steps.append(pages)
        time.sleep(bookkeeper.MAX_STEP_S + 0.05)
        return True  # there would be more to merge

    monkeypatch.setattr(service, "tidy_index", slow_step)
    keeper = Bookkeeper(service)
    for _ in range(5):
        keeper.tick()
    assert len(steps) == 1


def test_idle_work_failing_every_tick_is_logged_once(service, monkeypatch, caplog):
    """Red team, stop 65: over a damaged index every tick's merge failed and the server wrote
    2,400 tracebacks to its log in 15 s."""

    def broken(_pages):
        raise RuntimeError("invalid fts5 file format (found 99, expected 4)")

    monkeypatch.setattr(service, "tidy_index", broken)
    keeper = Bookkeeper(service)
    for _ in range(50):
        keeper._untidy = True  # the merge is tried at every tick
        keeper.tick()
    failed = [r for r in caplog.records if "idle work failed" in r.getMessage()]
    assert len(failed) == 1
