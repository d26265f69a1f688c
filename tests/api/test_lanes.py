"""The agents' lane: their requests run on a thread of their own, and so does writing what
their searches record."""

from __future__ import annotations

import sqlite3

from memdesk.api import lanes
from memdesk.api.lanes import Lanes
from memdesk.core.actor import agent

SEARCHES = 100
BATCH_ROWS = 20  # ten searches of the one memory: its log row and its recall count each


def _written(db_path) -> tuple[int, int]:
    """Retrieval-log rows and the one memory's recall count, as the file holds them."""
    with sqlite3.connect(db_path) as db:
        logged = db.execute("SELECT count(*) FROM retrieval_log").fetchone()[0]
        recalls = db.execute("SELECT recall_count FROM memory").fetchone()[0]
    return logged, recalls


def test_agents_searches_are_written_by_their_thread_not_left_for_the_persons_next_write(
    service, db_path, monkeypatch
):
    """Left queued, a flood of agents' searches was written by whichever write came next: the
    person's `memory.add` wrote dozens of them first and took p95 120 ms (7 ms alone)."""
    monkeypatch.setattr(lanes, "AGENTS_BOOKKEEPING_ROWS", BATCH_ROWS, raising=False)
    service.add("The deploy script lives in tools/deploy.sh")
    searcher = agent("searcher")
    lane = Lanes(service)
    try:
        for _ in range(SEARCHES):
            lane.agents(lambda: service.search("deploy script", actor=searcher)).result(10)
        left = service.queued_recalls()
    finally:
        lane.shutdown()
    assert 2 * left < BATCH_ROWS  # what the person's next write would write first
    assert _written(db_path) == (SEARCHES - left, SEARCHES - left)
    service.flush_recalls()
    assert _written(db_path) == (SEARCHES, SEARCHES)  # nothing lost
