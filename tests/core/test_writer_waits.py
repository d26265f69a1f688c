"""What another writer's transaction may hold up: the person's reads never, and an agent's
batch only while it writes, not while it compares (red team 38: one agent's add_many of 100
notes held the person's `memory.get` 1.5 s)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from memdesk.core import MemoryService, agent
from memdesk.core.errors import Busy
from memdesk.core.memory import dedup

WRITER = agent("writer")


@pytest.fixture
def lane(service: MemoryService):
    """A thread of its own, as the server's agents lane is."""
    worker = ThreadPoolExecutor(1)
    yield worker
    worker.submit(service.release_thread).result()
    worker.shutdown()


def _holding_the_lock(service: MemoryService, lane: ThreadPoolExecutor):
    """Another thread's write transaction, held until the returned event is set."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with service.rooms.desk.write():
            service.database.execute_sql("UPDATE memory SET importance = importance")
            holding.set()
            release.wait(20)

    done = lane.submit(hold)
    assert holding.wait(10)
    return release, done


def test_the_persons_read_does_not_wait_for_another_writer(service, lane):
    memory = service.add("The staging database listens on port 5433")
    release, done = _holding_the_lock(service, lane)
    try:
        service.search("staging database", actor=WRITER)  # a recall count queued to write
        shown = service.get(memory["id"])  # waited the lock out, then failed Busy, before
        listed = service.list_memories(limit=5)
    finally:
        release.set()
        done.result()
    assert shown["content"] == memory["content"]
    assert [m["id"] for m in listed] == [memory["id"]]
    assert service.get(memory["id"])["recall_count"] == 1  # written by the next settle


def test_an_agents_batch_compares_before_it_takes_the_write_lock(service, lane, monkeypatch):
    for n in range(5):
        service.add(f"Deploys of service {n} go through the blue green pipeline")
    seen: list[str] = []
    compare = dedup.likeness_to
    person = ThreadPoolExecutor(1)

    def person_writes() -> str:
        try:
            with service.rooms.desk.not_waiting():
                service.add("The person writes while the agent compares", dedup=False)
            return "written"
        except Busy:
            return "busy"
        finally:
            service.release_thread()

    def likeness_to(text: str):
        if not seen:  # the first comparison: may the person write meanwhile?
            seen.append(person.submit(person_writes).result())
        return compare(text)

    monkeypatch.setattr(dedup, "likeness_to", likeness_to)
    items = [
        {"content": f"Deploys of service {n} go via the blue green pipeline"} for n in range(5)
    ]
    try:
        added = lane.submit(service.add_many, items, actor=WRITER).result()
    finally:
        person.shutdown()
    assert seen == ["written"]
    assert all(a.get("duplicate_of") for a in added)  # still compared with what was there
