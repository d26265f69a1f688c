"""The threads beside the server's own: the person's long calls on one, their syncs (which
wait on a remote) on another, agents' requests on a third, so the server's thread stays free
to read and answer everyone. All run below it (`give_way`): what they do, nobody is waiting
on at that moment."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from memdesk.core import MemoryService, give_way

AGENT_THREADS = 16
_BARRIER_SECONDS = 10  # a request still running past its time limit lets the others go


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
        """Run an agent's request on the agents' own threads, in the order their turns came:
        the server's thread stays free for the person's requests, which read beside the
        agents' writer (WAL). One `memory.add_many` of 100 held the person's search 0.3-1.2 s
        when both ran on one thread. A few threads, not one: one agent listing 10,000
        memories in a loop held every other agent's search behind each of its calls
        (1.8 s each with four of them); a connection has one request running at a time, so
        each agent's requests still run in the order it sent them."""
        if self._agents is None:
            self._agents = ThreadPoolExecutor(
                AGENT_THREADS, thread_name_prefix="memdesk-agents", initializer=give_way
            )

        def run() -> Any:
            if self._closing:
                raise NotRun  # never started: the client sends it to the next owner
            value = work()
            return value.result() if isinstance(value, Future) else value

        return self._agents.submit(run)

    def _release_with(self, everyone: threading.Barrier) -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            everyone.wait()
        self._service.release_thread()

    @property
    def closing(self) -> bool:
        return self._closing

    def shutdown(self) -> None:
        """Let the work running off the server's thread end (at most one request's time
        limit), skip what waits behind it, and close those threads' database connections:
        the database closes after them."""
        self._closing = True
        for lane, threads in (
            (self._agents, AGENT_THREADS),
            (self._persons, 1),
            (self._network, 1),
        ):
            if lane is not None:
                # each thread its own release: all wait at the barrier, so none takes two
                everyone = threading.Barrier(threads, timeout=_BARRIER_SECONDS)
                for _ in range(threads):
                    lane.submit(self._release_with, everyone)
                lane.shutdown(wait=True)
        self._agents = self._persons = self._network = None
