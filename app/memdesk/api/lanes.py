"""The threads beside the server's own: the person's long calls on one, their syncs (which
wait on a remote) on another, agents' requests on a third, so the server's thread stays free
to read and answer everyone. All run below it (`give_way`): what they do, nobody is waiting
on at that moment."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from memdesk.core import MemdeskError, MemoryService, give_way

# Rows of search bookkeeping the agents' thread writes at once (16 searches of k=100, ~150 of
# k=10), and so about the most a write of the person's writes first. One search at a time
# cost 20 agents searching k=100 40% of their searches a second (66 against 105); 16 searches
# at a time cost 40 agents searching k=10 2-16% (a batch of few rows writes a page a row).
AGENTS_BOOKKEEPING_ROWS = 1600


class NotRun(Exception):
    """An agent's request still waiting its turn when the server closed: it was not run."""


class Lanes:
    def __init__(self, service: MemoryService) -> None:
        self._service = service
        self._persons: ThreadPoolExecutor | None = None
        self._network: ThreadPoolExecutor | None = None
        self._agents: ThreadPoolExecutor | None = None
        self._closing = False

    def persons(self, work: Callable[[], Any]) -> Future:
        """Run `work` (seconds of it: a check of a 100k store) on a thread of its own; the
        connection answers when it ends and meanwhile the server answers everyone else."""
        if self._persons is None:
            self._persons = self._lane("memdesk-rpc-work")
        return self._persons.submit(self._released(work))

    def network(self, work: Callable[[], Any]) -> Future:
        """As `persons`, for a call that waits on a remote: a remote answering slowly held the
        person's next check, stats and backup behind it for minutes (red team 39)."""
        if self._network is None:
            self._network = self._lane("memdesk-sync")
        return self._network.submit(self._released(work))

    @staticmethod
    def _lane(name: str) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(1, thread_name_prefix=name, initializer=give_way)

    def _released(self, work: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            try:
                return work()
            finally:
                self._service.release_thread()

        return run

    def agents(self, work: Callable[[], Any]) -> Future:
        """Run an agent's request on the agents' own thread, one at a time in the order their
        turns came: the server's thread stays free for the person's requests, which read
        beside the agents' writer (WAL). One `memory.add_many` of 100 held the person's
        search 0.3-1.2 s when both ran on one thread."""
        if self._agents is None:
            self._agents = self._lane("memdesk-agents")

        def run() -> Any:
            if self._closing:
                raise NotRun  # never started: the client sends it to the next owner
            try:
                value = work()
                return value.result() if isinstance(value, Future) else value
            finally:
                self._write_bookkeeping()

        return self._agents.submit(run)

    def _write_bookkeeping(self) -> None:
        """Write the searches' queued recall counts and log rows on this thread once
        AGENTS_BOOKKEEPING_ROWS wait. Left to grow, the queue was written by the next
        write to come, the person's among them: under 20 agents searching nonstop the person's
        `memory.add` wrote their searches first and took p95 120 ms (7 ms alone)."""
        if self._service.queued_rows() < AGENTS_BOOKKEEPING_ROWS:
            return
        # Never waits: a write of the person's holding the lock has taken the queue with it.
        with contextlib.suppress(MemdeskError), self._service.not_waiting():
            self._service.flush_recalls()

    @property
    def closing(self) -> bool:
        return self._closing

    def shutdown(self) -> None:
        """Let the work running off the server's thread end (at most one request's time
        limit), skip what waits behind it, and close those threads' database connections:
        the database closes after them."""
        self._closing = True
        for lane in (self._agents, self._persons, self._network):
            if lane is not None:
                lane.submit(self._service.release_thread)
                lane.shutdown(wait=True)
        self._agents = self._persons = self._network = None
