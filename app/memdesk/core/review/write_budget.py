"""How much an agent may write: a generous budget per agent, refilled continuously.

One agent wrote 10,000 memories a minute, and another 900 MB in 30 s, and both were taken:
the store and the person's Inbox are shared by every agent, so one runaway (or hostile)
agent must not fill them. Each agent has two token buckets, memories and bytes, that refill
at a steady rate up to their size: a burst the size of a bucket is fine (a session end, a
small import), a sustained flood is refused with the reason and when to retry. The person's
own tools and memdesk itself have no budget. Kept in memory: a restart forgives.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from memdesk.core.errors import TooMany

WRITES_PER_MINUTE = 2_000
BYTES_PER_MINUTE = 32 * 1024 * 1024
ALL_AGENTS = ""  # the budget every agent shares (no agent has an empty name)
# Together, agents may write 8 times what one may: 16 busy agents fit (16 clients wrote 500
# memories each at once), a flood under any number of names stops at 16,000 a minute.
ALL_AGENTS_FACTOR = 8


@dataclass
class _Bucket:
    size: float
    per_second: float
    level: float = -1.0  # full until first used
    at: float = 0.0

    def take(self, amount: float, now: float) -> float:
        """Take `amount`, or return how many seconds until it could be taken (0: taken)."""
        if self.level < 0:
            self.level, self.at = self.size, now
        self.level = min(self.size, self.level + (now - self.at) * self.per_second)
        self.at = now
        # More than the whole bucket at once is let through only when it is full.
        if amount <= self.level or self.level >= self.size:
            self.level = max(0.0, self.level - amount)
            return 0.0
        return (min(amount, self.size) - self.level) / self.per_second


@dataclass(frozen=True)
class _Short:
    """The budget a write did not fit, and the seconds until it would."""

    budget: str
    wait: float

    def __str__(self) -> str:
        return self.budget


@dataclass
class Overrun:
    """An agent that went over its budget: the person is told, once, how often and since."""

    agent: str
    first_at: float
    refused: int = 0


@dataclass
class WriteBudgets:
    writes_per_minute: int = WRITES_PER_MINUTE
    bytes_per_minute: int = BYTES_PER_MINUTE
    _buckets: dict[str, tuple[_Bucket, _Bucket]] = field(default_factory=dict)
    overruns: dict[str, Overrun] = field(default_factory=dict)
    _writers: dict[str, float] = field(default_factory=dict)  # agent name -> last write
    # When the shared budget refused the last write, the names writing that minute: for the
    # person's notice. An agent is not told them: every agent writing then, private writers
    # too, was named to whichever agent ran the budget down.
    sharing: list[str] = field(default_factory=list)

    def charge(self, agent: str, memories: int, size: int) -> None:
        """Take `memories` writes of `size` bytes from `agent`'s budget and from the one all
        agents share, or raise TooMany saying which budget and when to retry (nothing is
        taken then). The shared one holds however many names a flood gives itself: 68 names
        once wrote 129,200 memories in 30 s, each within its own budget."""
        now = time.monotonic()
        if len(self._writers) > 1024:  # a flood of names must not grow this for ever
            self._writers = {n: at for n, at in self._writers.items() if now - at <= 60}
        self._writers[agent] = now
        self.sharing = []
        own = self._take(agent, memories, size, now, 1)
        if own is not None:
            self._refused(agent, now)
            raise TooMany(
                f"agent {agent!r} is over its write budget of {own}; retry in "
                f"{own.wait:.0f} s (the person is told)",
                retry_after=round(own.wait, 1),
            )
        shared = self._take(ALL_AGENTS, memories, size, now, ALL_AGENTS_FACTOR)
        if shared is not None:
            self._give_back(agent, memories, size)
            self.sharing = sorted(n for n, at in self._writers.items() if now - at <= 60)
            self._refused(agent, now)
            raise TooMany(
                f"all agents together are over their shared write budget of {shared}; retry "
                f"in {shared.wait:.0f} s (the person is told which agents wrote this minute)",
                retry_after=round(shared.wait, 1),
            )

    def _take(self, key: str, memories: int, size: int, now: float, factor: int) -> _Short | None:
        """Both of `key`'s buckets, or neither: None when taken, else which was short."""
        writes, volume = self._buckets.setdefault(
            key,
            (
                _Bucket(factor * self.writes_per_minute, factor * self.writes_per_minute / 60),
                _Bucket(factor * self.bytes_per_minute, factor * self.bytes_per_minute / 60),
            ),
        )
        wait = writes.take(memories, now)
        if wait:
            return _Short(f"{factor * self.writes_per_minute:,} memories a minute", wait)
        before = writes.level
        wait = volume.take(size, now)
        if wait:
            writes.level = before + memories  # all or nothing: the writes are given back
            mib = factor * self.bytes_per_minute // (1024 * 1024)
            return _Short(f"{mib} MiB a minute", wait)
        return None

    def _give_back(self, key: str, memories: int, size: int) -> None:
        writes, volume = self._buckets[key]
        writes.level = min(writes.size, writes.level + memories)
        volume.level = min(volume.size, volume.level + size)

    def _refused(self, agent: str, now: float) -> None:
        self.overruns.setdefault(agent, Overrun(agent, now)).refused += 1
