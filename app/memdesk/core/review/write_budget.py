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

    def charge(self, agent: str, memories: int, size: int) -> None:
        """Take `memories` writes of `size` bytes from `agent`'s budget, or raise TooMany
        saying which budget and when to retry (nothing is taken then)."""
        now = time.monotonic()
        writes, volume = self._buckets.setdefault(
            agent,
            (
                _Bucket(self.writes_per_minute, self.writes_per_minute / 60),
                _Bucket(self.bytes_per_minute, self.bytes_per_minute / 60),
            ),
        )
        wait = writes.take(memories, now)
        if wait:
            self._refused(agent, now)
            raise TooMany(
                f"agent {agent!r} is over its write budget of {self.writes_per_minute:,} "
                f"memories a minute; retry in {wait:.0f} s (the person is told)",
                retry_after=round(wait, 1),
            )
        before = writes.level
        wait = volume.take(size, now)
        if wait:
            writes.level = before + memories  # all or nothing: the writes are given back
            self._refused(agent, now)
            raise TooMany(
                f"agent {agent!r} is over its write budget of "
                f"{self.bytes_per_minute // (1024 * 1024)} MiB a minute; retry in {wait:.0f} s "
                "(the person is told)",
                retry_after=round(wait, 1),
            )

    def _refused(self, agent: str, now: float) -> None:
        self.overruns.setdefault(agent, Overrun(agent, now)).refused += 1
