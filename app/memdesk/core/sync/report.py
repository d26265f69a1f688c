"""What a sync says it did, or would do: the refusals named (a crafted remote can give a
million of them), and a dry run's lists of what would be sent, taken, trashed and asked."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from memdesk.core.sync.files import Unit
from memdesk.core.sync.incoming import Incoming
from memdesk.core.sync.merge import Outcome


def preview(
    outcome: Outcome, incoming: dict[str, Incoming], refused: dict[str, str], kept: dict[str, str]
) -> dict:
    """What a sync would do, from its merge in memory."""
    takes = [u for u in outcome.take if u.id in incoming]
    return {
        "dry_run": True,
        "sent": outcome.sent,
        "taken": len(takes),
        "to_trash": sum(u.deleted for u in takes),
        "conflicts": len(outcome.conflicts),
        "refused": reported(refused),
        "refused_count": len(refused),
        "kept_here": reported(kept, word="kept here"),
        "kept_here_count": len(kept),
        # which ones, not only how many: a project kept local under a misspelt name showed
        # as "would send 1", and its secret went out at the next sync
        "would": {
            "send": _named(outcome.tree.values()),
            "take": _named(u for u in takes if not u.deleted),
            "trash": _named(u for u in takes if u.deleted),
            "ask": _named(c.theirs for c in outcome.conflicts),
        },
        # how many in all: the lists above name the first REPORTED
        "would_count": {
            "send": len(outcome.tree),
            "take": len(takes) - sum(u.deleted for u in takes),
            "trash": sum(u.deleted for u in takes),
            "ask": len(outcome.conflicts),
        },
    }


# What a dry run's `would` lists mean, as the CLI and the window say it
WOULD = {"send": "send", "take": "take", "trash": "put in the Trash", "ask": "ask about"}


def _named(units: Iterable[Unit]) -> list[str]:
    """Each memory as "id: its first words", the first REPORTED of them."""
    named = []
    for unit in itertools.islice(units, REPORTED):
        words = " ".join(str(unit.fields().get("content") or "(deleted)").split())
        named.append(f"{unit.id[:8]}: {words[:70]}{'…' if len(words) > 70 else ''}")
    return named


REPORTED = 1_000  # refusals a sync names one by one; a crafted remote can give a million


def reported(refused: dict[str, str], more: Sequence[str] = (), word: str = "refused") -> list[str]:
    """The refusals (or what else `word` says) as the report names them, "key: why", sorted:
    the first REPORTED of them, and how many more."""
    keys = sorted(refused)
    lines = sorted([*(f"{k}: {refused[k]}" for k in keys[:REPORTED]), *more])
    total = len(keys) + len(more)
    if total <= REPORTED:
        return lines
    return [*lines[:REPORTED], f"… and {total - REPORTED:,} more ({total:,} {word} in all)"]


def count(result: dict, key: str) -> int:
    """How many `key` ("refused", "kept_here") a sync's result holds in all: its list names
    the first REPORTED (a result saved before the counts were kept holds only the list)."""
    return result.get(f"{key}_count", len(result.get(key, [])))


def would_count(result: dict, key: str) -> int:
    """How many a dry run would `key` ("send", "take", "trash", "ask") in all."""
    return result.get("would_count", {}).get(key, len(result.get("would", {}).get(key, [])))
