"""What each of the person's machines wrote in team projects, vouched for in their own remote.

A team remote cannot say who wrote a file: a teammate may name the person's other machine as
a file's writer, or edit that machine's memory (its file keeps its author's name). So each
machine lists, in `vouched.json` of the person's own remote and under its writer's name, the
memories it wrote in team projects with a digest of their text as it wrote them; another
machine of the person's counts a team memory as the person's words only when it matches
(`core/authorship.py`). The file is the remote's: read as untrusted, its shape checked, and
what is not that shape left out.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Any

from memdesk.core.authorship import DIGEST_CHARS, VERSION_FIELDS, Authorship, voucher
from memdesk.core.sync.config import Config, folder
from memdesk.core.sync.files import remote_object
from memdesk.store import Memory

VOUCHED = "vouched.json"
MAX_BYTES = 8 * 1024 * 1024  # ~100,000 memories a machine wrote in team projects
_PLAIN = re.compile(r"[^\x00-\x1f\x7f]{1,500}")
_ID = re.compile(r"[0-9a-f-]{36}")
_VOUCHER = re.compile(rf"[0-9a-f]{{{DIGEST_CHARS}}}\.[0-9a-f]{{{DIGEST_CHARS}}}")

# The memories this machine wrote in team projects, as it last wrote them: a teammate's edit
# arrives by sync, and what a sync wrote is not this machine's to vouch for.
_WRITTEN_HERE = """
SELECT m.uuid, {columns} FROM memory m
WHERE m.project IN ({projects}) AND (m.writer IS NULL OR m.writer = ?)
  AND NOT EXISTS (SELECT 1 FROM memory_version v
                  WHERE v.memory_id = m.id AND v.version = m.version - 1 AND v.change = 'sync')
"""


def team_projects(config: Config) -> frozenset[str]:
    return frozenset(p for r in config.remotes if r.projects is not None for p in r.projects)


def announced(data: bytes | None) -> dict[str, dict[str, str]]:
    """{writer: {memory id: voucher}} from the file's bytes (`authorship.voucher`)."""
    found = remote_object(data, MAX_BYTES)
    out: dict[str, dict[str, str]] = {}
    for writer, memories in found.items():
        if not (isinstance(writer, str) and _PLAIN.fullmatch(writer)):
            continue
        if isinstance(memories, dict):
            out[writer] = {
                i: d
                for i, d in memories.items()
                if isinstance(d, str) and _ID.fullmatch(i) and _VOUCHER.fullmatch(d)
            }
    return out


def with_mine(
    current: dict[str, dict[str, str]], config: Config, teams: dict[str, dict[str, str]]
) -> dict[str, dict[str, str]]:
    """The vouchers with this machine's brought up to date: what it wrote in its team
    projects, and in those another machine of the person's syncs with a team (`teams`, from
    `moved`): a memory this machine wrote there reached that machine through the person's own
    remote before the project became a team's."""
    announced_teams = {project for projects in teams.values() for project in projects}
    projects = sorted(team_projects(config) | announced_teams)
    mine: dict[str, str] = {}
    if projects:
        sql = _WRITTEN_HERE.format(
            columns=", ".join(f"m.{c}" for c in VERSION_FIELDS),
            projects=", ".join("?" * len(projects)),
        )
        rows = Memory._meta.database.execute_sql(sql, (*projects, config.writer))
        mine = {uuid: voucher(dict(zip(VERSION_FIELDS, rest, strict=True))) for uuid, *rest in rows}
    out = {w: m for w, m in current.items() if w != config.writer}
    if mine:
        out[config.writer] = mine
    return out


def text(vouchers: dict[str, dict[str, str]]) -> bytes | None:
    if not vouchers:
        return None
    return (json.dumps(vouchers, indent=1, sort_keys=True) + "\n").encode()


def keep(database: Path, vouchers: dict[str, dict[str, str]]) -> None:
    """This machine's copy, read whenever a session is briefed."""
    path = folder(database) / VOUCHED
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{VOUCHED}.{os.getpid()}")
    temporary.write_bytes(text(vouchers) or b"{}\n")
    temporary.replace(path)
    with _cache_lock:  # two writes within the clock's tick have one mtime and may be one size
        _cache[path] = (_key(path.stat()), vouchers)


_cache: dict[Path, tuple[tuple[int, int, int], dict[str, dict[str, str]]]] = {}
_cache_lock = threading.Lock()


def kept(database: Path) -> dict[str, dict[str, str]]:
    """The copy `keep` wrote, read again only when it changed (it is asked at each prompt)."""
    path = folder(database) / VOUCHED
    try:
        stat = path.stat()
    except OSError:
        return {}
    key = _key(stat)
    with _cache_lock:
        hit = _cache.get(path)
    if hit is not None and hit[0] == key:
        return hit[1]
    try:
        found = announced(path.read_bytes())
    except OSError:
        return {}
    with _cache_lock:
        _cache[path] = (key, found)
    return found


def _key(stat: os.stat_result) -> tuple[int, int, int]:
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)  # `keep` replaces the file: a new inode


def authorship(database: Path, config: Config) -> Authorship:
    projects = team_projects(config)
    machines = frozenset(config.own_writers) - {config.writer}
    vouched: dict[str, Any] = kept(database) if projects and machines else {}
    return Authorship(config.writer, machines, projects, vouched)
