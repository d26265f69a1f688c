"""Agents' requests share their lane: one agent's long call does not hold another's."""

from __future__ import annotations

import threading

from memdesk.api.lanes import Lanes


def test_one_agents_long_call_does_not_hold_another_agents_short_one(service):
    """Red team 71: one agent listing 10,000 memories in a loop made every other agent's
    search wait behind each of its calls (1.8 s with four such agents, 7-13 s with eight)."""
    lanes = Lanes(service)
    release = threading.Event()
    try:
        long_calls = [lanes.agents(lambda: release.wait(30)) for _ in range(8)]
        assert lanes.agents(lambda: "answered").result(5) == "answered"
        assert not any(call.done() for call in long_calls)
    finally:
        release.set()
        lanes.shutdown()


def test_the_lane_closes_every_thread_it_opened(service, monkeypatch):
    lanes = Lanes(service)
    opened: set[int] = set()
    released: set[int] = set()
    monkeypatch.setattr(service, "release_thread", lambda: released.add(threading.get_ident()))
    gate = threading.Barrier(4)

    def work() -> None:
        gate.wait(10)
        service.search("anything")
        opened.add(threading.get_ident())

    for call in [lanes.agents(work) for _ in range(4)]:
        call.result(10)
    lanes.shutdown()
    assert len(opened) == 4
    assert opened <= released
