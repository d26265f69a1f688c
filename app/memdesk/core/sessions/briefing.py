"""The session-start briefing: the standing rules and facts of this project and the global ones.

A rule must reach the model even when no prompt shares a word with it ("this repo uses pnpm
only" before "install a date library"), so a session starts with the knowledge most worth
standing by, whatever the task: the person's own words first (typed, or heard from them at
a session end), then what agents wrote; preferences, decisions and corrections before plain
facts; this project's before the global ones; restated ones before the rest; newer before
older by the same decay as search (recalls do not count: most are what injection showed).
Within a character budget, ending with how many more exist.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from memdesk.core.authorship import EVERYONE_ELSE, Authorship
from memdesk.core.memory import staleness
from memdesk.core.search import decay
from memdesk.core.sessions import quoting, workspace_fit
from memdesk.store import Memory
from memdesk.store.migrations import STANDING

DEFAULT_BUDGET = 1700  # SessionStart stays under ~2,000 characters with the identity
MAX_BUDGET = 20_000
PER_WRITER = 150  # candidates read per scope and writer, best first by the standing index
LINE_CHARS = 300
# Rows asked at once whether they may be out of date: only those that may still fit are
# asked (a crowded project's briefing ranked ~600 and asked of each).
_STALE_BLOCK = 64

# What standing a memory has, by who wrote it and what kind it is. What a session end heard
# (source "system") is the person's own words, taken from their side of the transcript: at
# 0.9 it sank below a year of the person's typed rules and most stored statements never came
# back (bench/roundtrip.py --year 2000: 29/60 delivered; 36/60 at 1.0).
TRUST = {"user": 1.0, "system": 1.0, "agent": 0.6}
KIND_WEIGHT = {"preference": 1.0, "decision": 1.0, "fact": 0.85, "learning": 0.7}
# What the person said in the last few days leads: the next session must know it, and in a
# year-old store a week-old preference of the same project outranked it (a new fact 0.85
# against 0.95). The fresh sessions of bench/roundtrip.py --fresh --year 2000 --oracle:
# 150/220 delivered without, 198/220 with.
JUST_SAID = timedelta(days=3)
JUST_SAID_BOOST = 1.5
# This project's rules before the person's global ones of the same age: a project fact
# (0.85) at 1.15 fell below every global preference (1.0), and with forty projects' global
# statements in one store most of a project's rules were left out (40 read sessions in one
# store, end to end: 164/367 delivered at 1.15, 211/367 at 1.3; global statements 50 -> 51
# of 81; a year's store per project unchanged, 41/72 and 55/60).
THIS_PROJECT = 1.3
# A memory synced from a writer not known as the person's machine (a teammate's): below the
# person's own words, never instead of them (#34 item 3).
SOMEONE_ELSE = 0.8
# The heading also asks the agent to save what the user states that lasts: the session end
# hears much, the agent hears in the moment (one line, paid for in every session).
HEADING = (
    "## Standing rules and facts\n"
    "(When the user states a new lasting preference, correction or fact, save it: "
    "memory_write action=add.)\n"
)
MORE = "({} more stored: ask memdesk's memory tool, op search)"
# A store with nothing to brief yet still asks the agent to save: the first sessions, when
# there is most to hear, were given no word of it (a tryout with the real Claude Code).
NONE_YET = "(None stored yet.)"

# Walks the partial index memory_standing: no sort, however many memories a project holds.
_CANDIDATES = f"""
SELECT uuid, content, source, agent, kind, project, importance, reinforce_count, created_at,
       updated_at, writer
FROM memory INDEXED BY memory_standing
WHERE {STANDING} AND inject AND project IS ? AND source = ?
  AND (? OR visibility = 'shared' OR agent IS ?)
ORDER BY importance DESC, updated_at DESC LIMIT ?
"""
# How many more there are, counted up to a cap: counting every standing memory of a crowded
# project read each of them (40 ms of a 60 ms SessionStart at 100k memories); the agent needs
# to know that there are more, not exactly how many.
COUNT_CAP = 1000
_COUNT = f"""
SELECT COUNT(*) FROM (SELECT 1 FROM memory INDEXED BY memory_standing
WHERE {STANDING} AND inject AND project IS ? AND (? OR visibility = 'shared' OR agent IS ?)
LIMIT ?)
"""


class Candidate(NamedTuple):
    """The columns a briefing ranks and shows: plain tuples, no model objects (a briefing
    reads up to 900 rows and keeps about 20)."""

    uuid: str
    content: str
    source: str
    agent: str | None
    kind: str
    project: str | None
    importance: float
    reinforce_count: int
    created_at: str
    updated_at: str
    writer: str | None


@dataclass(frozen=True)
class Briefing:
    text: str
    ids: list[str]
    more: int  # standing memories left out for the budget


def build(
    project: str | None,
    viewer: str | None,
    budget: int,
    signals: frozenset[str] = frozenset(),
    own: Authorship = EVERYONE_ELSE,
    given: Collection[str] = (),
) -> Briefing:
    """The briefing for a session of `viewer` (an agent; None: the person, who sees every
    private memory too) in `project` (None: the global memories only), ranked by how each
    rule fits the `signals` of where the agent works (`workspace_fit`); a memory that is not
    the person's own words by `own` (a teammate's, synced) ranks below theirs and is named as
    its writer's. Memories already `given` to the session are left out."""
    if budget <= 0:
        return Briefing("", [], 0)
    scopes = [None] if project is None else [project, None]
    database = Memory._meta.database
    person = viewer is None
    rows = [
        Candidate(*row)
        for scope in scopes
        for source in TRUST
        for row in database.execute_sql(_CANDIDATES, (scope, source, person, viewer, PER_WRITER))
    ]
    now = datetime.now(UTC)
    # The person's own words first, whatever an agent claims: an agent's notes marked
    # importance 0.99 in the project filled a briefing and left out every rule of the person's.
    rows.sort(
        key=lambda row: (
            row.source != "agent" and not _someone_else(row, own),
            score(row, project, now)
            * workspace_fit.fit(row.content, signals)
            * (SOMEONE_ELSE if _someone_else(row, own) else 1.0),
            row.updated_at,
        ),
        reverse=True,
    )
    counts = [
        database.execute_sql(_COUNT, (scope, person, viewer, COUNT_CAP)).fetchone()[0]
        for scope in scopes
    ]
    total, capped = sum(counts), max(counts) >= COUNT_CAP
    lines: list[str] = []
    chosen: list[str] = []
    used = len(HEADING) + len(MORE.format(total))  # room for the last line, if it is needed
    stale: dict[str, str] = {}
    said: set[str] = set()  # the same words twice (an agent's note the person restated)
    asked = 0
    for at, row in enumerate(rows):
        if row.uuid in given:
            total -= 1  # in the session's context already, not "more stored"
            continue
        if _words_of(row.content) in said:
            continue
        if used + len(_shown(row.content)) + 3 > budget:
            continue  # too long whatever its marks (its line is "- text\n" at the least)
        synced_from = _someone_else(row, own)
        if used + len(_line(row, None, synced_from)) > budget:
            continue  # a shorter one further down may still fit (a doubt only lengthens it)
        if at >= asked:  # whether it is stale, asked of the next rows together
            block = rows[at : at + _STALE_BLOCK]
            stale.update(
                staleness.why_stale({r.uuid: r.updated_at for r in block}, now, viewer=viewer)
            )
            asked = at + _STALE_BLOCK
        line = _line(row, stale.get(row.uuid), synced_from)
        if used + len(line) > budget:
            continue
        lines.append(line)
        chosen.append(row.uuid)
        said.add(_words_of(row.content))
        used += len(line)
    more = total - len(chosen)
    if not lines and not more and not given and len(HEADING + NONE_YET) <= budget:
        return Briefing(HEADING + NONE_YET, [], 0)
    if not lines:  # none fit: still say how many were left out
        return Briefing("", [], more)
    text = HEADING + "".join(lines)
    if more:
        text += MORE.format(f"{more:,}+" if capped else more)
    return Briefing(text.rstrip("\n"), chosen, more)


def score(row: Candidate, project: str | None, now: datetime) -> float:
    kind = 1.0 if row.content.startswith("Correction:") else KIND_WEIGHT.get(row.kind, 0.7)
    here = THIS_PROJECT if project is not None and row.project == project else 1.0
    # Restatements count, recalls do not: most recalls are what per-prompt injection showed,
    # and letting those raise a memory's standing fed noise back into every briefing (seen in
    # a crowded store: injected filler climbed past the project's rules within 50 sessions).
    reinforced = 1 + 0.25 * math.log1p(row.reinforce_count)
    alive = decay.multiplier(row.created_at, 0, None, now)
    if row.source != "agent" and now - datetime.fromisoformat(row.created_at) < JUST_SAID:
        alive *= JUST_SAID_BOOST
    return TRUST.get(row.source, 0.6) * kind * here * reinforced * (0.5 + row.importance) * alive


def _someone_else(row: Candidate, own: Authorship) -> str | None:
    return own.someone_else(row.writer, row.uuid, row.project, row.content)


@functools.lru_cache(maxsize=8192)
def _shown(content: str) -> str:
    """A memory's text on one line, cut to LINE_CHARS: each briefing lays out hundreds of
    the same standing rules again, most of them only to find they no longer fit."""
    text = " ".join(content.split())
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _words_of(content: str) -> str:
    return " ".join(content.casefold().split()).rstrip(".!")


def _line(row: Candidate, doubt: str | None, synced_from: str | None) -> str:
    text = _shown(row.content)
    mark = f"[may be outdated: {doubt}] " if doubt else ""
    return f"- {mark}{quoting.injected(text, row.source, row.agent, synced_from)}\n"
