"""The session-start briefing: the standing rules and facts of this project and the global ones.

A rule must reach the model even when no prompt shares a word with it ("this repo uses pnpm
only" before "install a date library"), so a session starts with the knowledge most worth
standing by, whatever the task: the person's own words first, then what a session end heard
the user say, then what agents wrote; preferences, decisions and corrections before plain
facts; this project's before the global ones; reinforced and used ones before the rest; all
through the same decay as search. Within a character budget, ending with how many more exist.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

import peewee

from memdesk.core import decay
from memdesk.store import Memory

DEFAULT_BUDGET = 1500
MAX_BUDGET = 20_000
KINDS = ("preference", "decision", "fact", "learning")
CANDIDATES = 400  # read per briefing, best first by a coarse SQL order; ranked in Python
LINE_CHARS = 300

# What standing a memory has, by who wrote it and what kind it is.
TRUST = {"user": 1.0, "system": 0.9, "agent": 0.6}
KIND_WEIGHT = {"preference": 1.0, "decision": 1.0, "fact": 0.85, "learning": 0.7}
THIS_PROJECT = 1.15
HEADING = "## Standing rules and facts\n"


@dataclass(frozen=True)
class Briefing:
    text: str
    ids: list[str]
    more: int  # standing memories left out for the budget


def build(project: str | None, viewer: str | None, budget: int) -> Briefing:
    """The briefing for a session of `viewer` (an agent) in `project` (None: global only)."""
    if budget <= 0:
        return Briefing("", [], 0)
    where = standing_where(project, viewer)
    source_rank = peewee.Case(Memory.source, (("user", 0), ("system", 1)), 2)
    rows = list(
        Memory.select()
        .where(where)
        .order_by(
            source_rank,
            Memory.importance.desc(),
            Memory.reinforce_count.desc(),
            Memory.updated_at.desc(),
        )
        .limit(CANDIDATES)
    )
    now = datetime.now(UTC)
    rows.sort(key=lambda row: (score(row, project, now), row.updated_at), reverse=True)
    lines: list[str] = []
    ids: list[str] = []
    used = len(HEADING)
    for row in rows:
        line = _line(row)
        if used + len(line) > budget:
            continue  # a shorter one further down may still fit
        lines.append(line)
        ids.append(row.uuid)
        used += len(line)
    if not lines:
        return Briefing("", [], 0)
    total = Memory.select().where(where).count() if len(rows) >= CANDIDATES else len(rows)
    more = total - len(ids)
    text = HEADING + "".join(lines)
    if more:
        text += f"({more} more stored: ask memdesk's memory tool, op search)\n"
    return Briefing(text.rstrip("\n"), ids, more)


def standing_where(project: str | None, viewer: str | None) -> peewee.Expression:
    """Active knowledge of a standing kind that `viewer` may see, of `project` or of none."""
    where = (
        (Memory.layer == "L1")
        & (Memory.status == "active")
        & Memory.kind.in_(KINDS)
        & Memory.flag.is_null()
    )
    if viewer is not None:
        where &= (Memory.visibility == "shared") | (Memory.agent == viewer)
    if project is None:
        return where & Memory.project.is_null()
    return where & ((Memory.project == project) | Memory.project.is_null())


def score(row: Memory, project: str | None, now: datetime) -> float:
    kind = 1.0 if row.content.startswith("Correction:") else KIND_WEIGHT.get(row.kind, 0.7)
    here = THIS_PROJECT if project is not None and row.project == project else 1.0
    use = 1 + 0.25 * math.log1p(row.reinforce_count) + 0.15 * math.log1p(row.recall_count)
    alive = decay.multiplier(row.created_at, row.recall_count, row.last_recalled_at, now)
    return TRUST.get(row.source, 0.6) * kind * here * use * (0.5 + row.importance) * alive


def _line(row: Memory) -> str:
    text = " ".join(row.content.split())
    if len(text) > LINE_CHARS:
        text = text[: LINE_CHARS - 1] + "…"
    # What an agent wrote is its claim, not the person's word: the model is told whose it is.
    writer = f" (written by agent {row.agent})" if row.source == "agent" and row.agent else ""
    return f"- {text}{writer}\n"
