"""Search bookkeeping waits while searches keep coming and is written once they pause."""

from __future__ import annotations

import sqlite3

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
