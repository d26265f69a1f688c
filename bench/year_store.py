"""A store used for a year, for bench/roundtrip.py --year N: each session's project holds N
other memories, a third each written by the person, heard at session ends and written by
agents, and the person's global ones beside them.

The first of each project's share are crowd.jsonl's (frozen, written by an author who never
saw the ranking: the same kinds of rules as the statements under test, none restating or
contradicting them); the rest are made from templates of the same kinds, dated over the past
year. Nothing in it holds a statement's evidence.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memdesk.core import SYSTEM, USER, MemoryService, agent

DATA = Path(__file__).resolve().parent / "data" / "roundtrip"
WRITERS = {"person": USER, "session-end": SYSTEM, "agent": agent("crowd-agent")}
# crowd.jsonl's kinds as memdesk's (a correction is stored as the fact it states).
KINDS = {"convention": "fact", "correction": "fact"}
_TEMPLATES = (
    "The {noun} service runs on port {port} in {env}",
    "Run {check} before pushing changes to the {noun} package",
    "Keep {concern} settings for {noun} in config/{noun}.toml, not in code",
    "The {noun} job runs every night at {hour}:00 UTC",
    "{Person} owns the {noun} module; ask before changing its API",
    "The {noun} client retries three times with exponential backoff",
    "Name {noun} handlers after the event they handle",
    "Every {noun} change needs a note in the {noun} runbook",
    "The {env} {noun} endpoint sits behind the internal gateway",
    "Logs of the {noun} worker are kept for {days} days",
    "The user prefers {concern} reviews of the {noun} module in small pull requests",
    "In this project the {noun} fixtures live next to the tests that use them",
)
_NOUNS = (
    "billing auth search inventory catalog payments gateway reports notifications ingest "
    "scheduler profile orders analytics export media webhook accounts audit sessions"
).split()
_CONCERNS = "logging tracing caching retry timeout metrics alerting feature-flag".split()
_CHECKS = ("the unit suite", "the smoke checks", "the schema check", "the contract tests")
_PEOPLE = "Maria Dev Chen Ola Sam Priya Tom Ines Kofi Lena".split()


def fill(db: Path, projects: list[str], per_project: int, more: list[dict] = ()) -> int:
    """Fill `db` (before any session) and return how many memories it holds. `more`: crowd
    rows of sessions written elsewhere (bench/data/roundtrip_fresh/), first in their project."""
    rng = random.Random(11)
    crowd = [*more]
    crowd += [json.loads(line) for line in (DATA / "crowd.jsonl").read_text().splitlines() if line]
    by_writer: dict[str, list[dict]] = {writer: [] for writer in WRITERS}
    now = datetime.now(UTC)
    for project in [*projects, None]:
        own = [row for row in crowd if row["project"] == project]
        for n in range(per_project if project else len(own)):
            row = own[n] if n < len(own) else _made(rng, project, n)
            by_writer[row["writer"]].append(
                {
                    "content": row["content"],
                    "kind": KINDS.get(row["kind"], row["kind"]),
                    "project": project,
                    "created_at": (now - timedelta(days=rng.uniform(1, 365))).isoformat(),
                }
            )
    service = MemoryService.open(db)
    for writer, items in by_writer.items():
        for start in range(0, len(items), 5000):
            service.add_many(items[start : start + 5000], dedup=False, actor=WRITERS[writer])
    total = service.count()
    service.close()
    return total


def _made(rng: random.Random, project: str | None, n: int) -> dict:
    text = rng.choice(_TEMPLATES).format(
        noun=rng.choice(_NOUNS),
        port=rng.randrange(1024, 9999),
        env=rng.choice(["staging", "prod", "dev"]),
        check=rng.choice(_CHECKS),
        concern=rng.choice(_CONCERNS),
        hour=rng.randrange(24),
        Person=rng.choice(_PEOPLE),
        days=rng.choice([7, 14, 30, 90]),
    )
    return {
        "content": f"{text} (#{n})",
        "writer": ("person", "session-end", "agent")[n % 3],
        "kind": rng.choice(["fact", "preference", "decision"]),
        "project": project,
    }
