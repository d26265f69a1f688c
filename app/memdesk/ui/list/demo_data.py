"""A demo data set to explore memdesk with: a developer, two projects, three writers.

Plain data plus one function that writes it through the service, as agents would: an
identity profile (L0), preferences and project conventions (L1), corrections that left a
history, session summaries in the archive (L2) and links. Only memories: the window loads it
as one undoable step, and undo takes back exactly what it added (no searches in the log).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from memdesk.core import USER, Actor, MemoryService, agent

YOU, CLAUDE, CURSOR = "you", "claude-code", "cursor"

# fmt: off

IDENTITY = [  # (writer, days ago, text) — kept well under the 1,000-character limit
    (YOU, 30, "Name: Sam Okafor. Backend developer in Lisbon (UTC+0/+1), works in English."),
    (YOU, 30, "Prefers short answers with the code first, then one line of why."),
    (YOU, 12, "Uses Linux (Fedora) with zsh and Neovim; Python 3.11+ and Go daily."),
]

# (key, writer, days ago, project, kind, tags, content); the key names it for links below.
KNOWLEDGE: list[tuple[str, str, int, str | None, str, list[str], str]] = [
    ("uv", CLAUDE, 28, None, "preference", ["python", "tooling"],
     "Uses uv for Python environments and dependencies; never plain pip install."),
    ("ruff", YOU, 27, None, "preference", ["python", "style"],
     "Python style: ruff check and ruff format, line length 100, type hints everywhere."),
    ("pytest", CLAUDE, 26, None, "preference", ["python", "testing"],
     "Tests with pytest: small function-scoped fixtures on tmp_path, no mocks of own code."),
    ("commits", YOU, 25, None, "preference", ["git"],
     "Commit messages: imperative mood, 50-character subject, body says why."),
    (None, CURSOR, 24, None, "preference", ["go", "style"],
     "Go: errors wrapped with fmt.Errorf(\"...: %w\", err); no panics in libraries."),
    (None, YOU, 22, None, "preference", ["review"],
     "Wants a short list of risks at the end of every code review."),
    (None, CLAUDE, 21, None, "learning", ["shell"],
     "On this machine `python` is 3.9; always call `python3.11` or use `uv run`."),
    (None, CURSOR, 20, None, "observation", ["editor"],
     "Keeps Neovim config in ~/dotfiles/nvim; asks before changing keymaps."),
    ("ledger-stack", CLAUDE, 19, "ledger", "fact", ["architecture"],
     "Project ledger: FastAPI + PostgreSQL 16 + SQLAlchemy 2 (async); deployed on Fly.io."),
    ("ledger-money", CLAUDE, 18, "ledger", "decision", ["architecture", "money"],
     "Money is stored as integer cents with a currency code; never floats."),
    (None, CLAUDE, 17, "ledger", "fact", ["testing"],
     "ledger tests need `docker compose up db` first; the test database is ledger_test."),
    (None, CURSOR, 16, "ledger", "decision", ["api"],
     "API errors follow RFC 9457 problem+json; the `type` URIs live in docs/errors.md."),
    (None, CLAUDE, 15, "ledger", "learning", ["migrations"],
     "Alembic autogenerate misses enum changes; write those migrations by hand."),
    (None, YOU, 14, "ledger", "context", ["release"],
     "ledger v2 ships on the first Monday of next month; freeze two days before."),
    ("trail-stack", YOU, 13, "trailmap", "fact", ["architecture"],
     "Project trailmap: Go 1.22 service + SQLite (WAL) + a small htmx front end."),
    (None, CURSOR, 12, "trailmap", "decision", ["geo"],
     "Coordinates stored as WGS84 with 6 decimals; distances via the haversine formula."),
    (None, CLAUDE, 11, "trailmap", "learning", ["testing", "go"],
     "Run `go test -race ./...` before every push; the tile cache had a data race once."),
    (None, CURSOR, 10, "trailmap", "fact", ["build"],
     "`make dev` starts the server with live reload on port 8080."),
    (None, CLAUDE, 9, "trailmap", "preference", ["dependencies"],
     "Keep trailmap dependency-light: standard library first, no ORM."),
    (None, YOU, 8, "trailmap", "context", ["users"],
     "Main users are hiking club volunteers on old Android phones: keep pages under 100 KB."),
    (None, CLAUDE, 6, None, "observation", ["workflow"],
     "Sam reviews diffs in the terminal with `git add -p`; keep commits small."),
    (None, CURSOR, 4, None, "learning", ["docker"],
     "Docker on this machine is rootless Podman; use `podman compose`, not `docker compose`."),
    (None, CLAUDE, 3, "ledger", "fact", ["ci"],
     "CI runs on GitHub Actions; the slow integration job only runs on main."),
    (None, YOU, 2, None, "preference", ["docs"],
     "Docs in Markdown next to the code; one README per service, no wiki."),
    (None, CLAUDE, 2, "ledger", "fact", ["config"],
     "ledger settings come from environment variables via pydantic-settings; see .env.example."),
    (None, CURSOR, 2, "trailmap", "learning", ["sqlite"],
     "trailmap: open SQLite with busy_timeout=5000, or imports fail while the server runs."),
    (None, YOU, 1, None, "preference", ["communication"],
     "Ask before running anything that deletes files or rewrites git history."),
    (None, CLAUDE, 1, "ledger", "decision", ["api", "pagination"],
     "List endpoints use cursor pagination (`?after=`), never offsets."),
    (None, CURSOR, 1, "trailmap", "observation", ["performance"],
     "The trail search endpoint is slow above 5,000 trails; an FTS5 index is planned."),
    (None, CLAUDE, 0, None, "learning", ["tooling"],
     "Sam's GitHub CLI is logged in; use `gh pr create --fill` for pull requests."),
    (None, YOU, 0, None, "preference", ["python"],
     "Prefers dataclasses over dicts for structured data; pydantic only at API edges."),
    (None, CURSOR, 0, "trailmap", "fact", ["deploy"],
     "trailmap is deployed as one binary behind Caddy on a Raspberry Pi 5."),
]

# (key of the memory, writer, days ago, corrected content, reason): the old text stays inactive.
CORRECTIONS = [
    ("ledger-stack", CLAUDE, 5,
     "Project ledger: FastAPI + PostgreSQL 16 + SQLAlchemy 2 (async); deployed on Hetzner "
     "with Kamal since the move from Fly.io.",
     "Sam said the Fly.io deployment was retired last week"),
    ("commits", YOU, 3,
     "Commit messages: Conventional Commits (feat:, fix:, docs:), imperative mood, body says why.",
     "switched to Conventional Commits for the changelog generator"),
]

# (key, writer, reason, new content): edits in place, kept as versions in the History tab.
EDITS = [
    ("pytest", CLAUDE, "added the coverage habit",
     "Tests with pytest: small function-scoped fixtures on tmp_path, no mocks of own code; "
     "runs `pytest --cov` before asking for review."),
]

LINKS = [("ledger-money", "ledger-stack"), ("uv", "ruff"), ("trail-stack", "uv")]

ARCHIVE: list[dict[str, Any]] = [
    {
        "by": CLAUDE, "project": "ledger",
        "what": "Added multi-currency balances to the ledger API.",
        "decisions": ["Money as integer cents plus currency code", "Rates cached for 1 hour"],
        "files": ["ledger/models/balance.py", "ledger/api/balances.py", "tests/test_balances.py"],
        "unfinished": ["Rounding rules for JPY (no minor unit)"],
        "commits": ["a41c9e2 feat: multi-currency balances"],
    },
    {
        "by": CURSOR, "project": "trailmap",
        "what": "Made the trail list usable offline on phones.",
        "decisions": ["Service worker caches the last 20 trails", "No map tiles offline"],
        "files": ["web/sw.js", "internal/tiles/cache.go"],
        "unfinished": [],
        "commits": ["5be01d7 feat: offline trail list", "9c2f3a0 fix: race in tile cache"],
    },
]

# fmt: on

# What the first-run panel promises: a correction adds a memory, its old text stays (retired,
# under Inactive), so the list shows SIZE - RETIRED.
SIZE = len(IDENTITY) + len(KNOWLEDGE) + len(CORRECTIONS) + len(ARCHIVE)
RETIRED = len(CORRECTIONS)


def load_demo(service: MemoryService) -> int:
    """Write the demo set through `service`; returns the number of memories added."""
    now = datetime.now(UTC)
    keyed: dict[str, str] = {}
    added = 0
    for writer, days, text in IDENTITY:
        service.add(
            text,
            layer="L0",
            kind="preference",
            created_at=now - timedelta(days=days),
            dedup=False,
            actor=_actor(writer),
        )
        added += 1
    for key, writer, days, project, kind, tags, content in KNOWLEDGE:
        memory = service.add(
            content,
            kind=kind,
            tags=tags,
            project=project,
            dedup=False,
            actor=_actor(writer),
            created_at=now - timedelta(days=days, hours=days % 7),
        )
        added += 1
        if key:
            keyed[key] = memory["id"]
    for key, writer, reason, content in EDITS:
        service.update(keyed[key], content=content, reason=reason, actor=_actor(writer))
    for key, writer, days, content, reason in CORRECTIONS:
        # Links below should reach the corrected memory, not the superseded one.
        keyed[key] = service.correct(
            keyed[key],
            content,
            reason=reason,
            actor=_actor(writer),
            created_at=now - timedelta(days=days),
        )["id"]
        added += 1
    for src, dst in LINKS:
        service.link(keyed[src], keyed[dst])
    for summary in ARCHIVE:
        fields = {k: v for k, v in summary.items() if k != "by"}
        # filed as a session end files them: by memdesk, naming the agent whose session it was
        service.archive_session(**fields, actor=Actor("system", summary["by"]))
        added += 1
    return added


def _actor(writer: str) -> Actor:
    return USER if writer == YOU else agent(writer)
