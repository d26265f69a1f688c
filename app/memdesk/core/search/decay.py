"""Decay: how much a memory's importance counts in ranking now, from its age and its recalls.

    multiplier = clamp(0.5 ** (age_days / half_life_days) + recall_boost, floor, ceiling)
    recall_boost = boost * min(recalls, RECALLS_FOR_FULL_BOOST) / RECALLS_FOR_FULL_BOOST
                   * 0.5 ** (days_since_last_recall / recall_half_life_days)

Age counts from when the memory was written (`created_at`: for a memory taken from an old
transcript, the transcript's date). A memory never falls below `floor`: decay is a soft bias
in ranking and never a filter, so an exact query still finds a fully decayed memory. Every
parameter lives in `DECAY`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class DecayParams:
    half_life_days: float = 90.0
    recall_half_life_days: float = 30.0
    # Added, not multiplied: a memory agents still recall stays alive however old it is.
    boost: float = 1.0
    recalls_for_full_boost: int = 5
    floor: float = 0.3
    ceiling: float = 1.5

    @property
    def stale_after_days(self) -> float:
        """The age at which an unrecalled memory reaches the floor (a prune candidate)."""
        return self.half_life_days * math.log2(1 / self.floor)


DECAY = DecayParams()


def multiplier(
    created_at: str,
    recall_count: int,
    last_recalled_at: str | None,
    now: datetime,
    params: DecayParams = DECAY,
) -> float:
    aged = 0.5 ** (_days(now, created_at) / params.half_life_days)
    boost = 0.0
    if recall_count and last_recalled_at:
        share = min(recall_count, params.recalls_for_full_boost) / params.recalls_for_full_boost
        fresh = 0.5 ** (_days(now, last_recalled_at) / params.recall_half_life_days)
        boost = params.boost * share * fresh
    return min(params.ceiling, max(params.floor, aged + boost))


def _days(now: datetime, stamp: str) -> float:
    return max(0.0, (now - datetime.fromisoformat(stamp)).total_seconds() / 86400)
