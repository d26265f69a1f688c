"""This machine's side of a merge: each shared memory as the repository would hold it.

A memory leaves the machine only when it is shared (not private to an agent), not withheld
(not flagged by the guard, not unsure), and its project belongs to the remote. Anything else
has no opinion in the merge. A memory in the Trash, or deleted for good, becomes a tombstone
once the repository knows it; one it never knew stays here.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections import defaultdict
from typing import Any

from memdesk.core import validate
from memdesk.core.errors import ValidationError
from memdesk.core.sync.config import Remote
from memdesk.core.sync.files import SYNCED_COLUMNS, Unit, record_unit, tombstone_unit
from memdesk.store import Forgotten, Memory, among

LOCAL_RELATIONS = ("possible_update",)  # a hint for this machine's inbox, not knowledge
_COLUMNS = ("uuid", *SYNCED_COLUMNS, "visibility", "flag", "writer")
# With the reason of the change that made each memory's version (kept with the version before
# it), so another machine's history says why. A sync's own record from before files carried
# reasons ("from origin, written by …", by the system) is no reason to pass on.
_ROWS = f"""SELECT {", ".join(f"m.{c}" for c in _COLUMNS)}, v.reason FROM memory m
LEFT JOIN memory_version v ON v.memory_id = m.id AND v.version = m.version - 1
  AND NOT (v.change = 'sync' AND v.changed_by = 'system')
ORDER BY m.id"""


def _tombstoned(row: dict, remote: Remote, excluded: set[str]) -> bool:
    """Whether a deletion here goes out: of a shared memory the remote takes, even when the
    guard holds its last words (a tombstone carries none; a token pasted by mistake, then the
    memory deleted, left the old text with every other machine's agents)."""
    return row["visibility"] == "shared" and remote.takes(row["project"], row["layer"], excluded)


def render(remote: Remote, excluded: set[str], known: set[str], writer: str) -> dict[str, Unit]:
    """Memory id -> unit for every memory this machine shares with `remote`; `known`: the ids
    the repository holds (a tombstone or a link is written only for one it can resolve);
    `writer`: who the memories made here are by."""
    rows = [
        dict(zip((*_COLUMNS, "reason"), row, strict=True))
        for row in Memory._meta.database.execute_sql(_ROWS)
    ]
    shared = {
        r["uuid"]
        for r in rows
        if r["visibility"] == "shared"
        and r["flag"] is None
        and remote.takes(r["project"], r["layer"], excluded)
    }
    resolvable = shared | known
    links, successors = _links(resolvable), _successors(rows, resolvable)
    units: dict[str, Unit] = _forgotten(known - {r["uuid"] for r in rows})
    for row in rows:
        memory_id = row["uuid"]
        if row["status"] == "deleted" and memory_id in known and _tombstoned(row, remote, excluded):
            units[memory_id] = tombstone_unit(memory_id, row["updated_at"], row["version"])
            continue
        if memory_id not in shared or row["status"] == "deleted":
            continue
        fields = _fields(row, links.get(memory_id, []), successors.get(memory_id))
        # what it replaced, only when the remote carries that too: a correction of a private
        # or another project's memory told a team remote that one exists, and its id
        if fields["supersedes"] not in resolvable:
            fields["supersedes"] = None
        # (a name taken before names were checked goes out as one now: refused elsewhere)
        named = validate.as_name(row["writer"] or writer, "-")
        units[memory_id] = record_unit({**fields, "writer": named}, row["content"])
    return units


def state(remote: Remote, excluded: set[str], writer: str, held: set[str]) -> str:
    """A digest of everything `render` and the merge read on this machine: equal digests
    (with the same remote commit) make the same sync. The store counts each change to what
    render reads (migrations v14); the totals beside the count tell a restored backup (its
    count may come back to the same number) from the store that was synced."""
    totals = Memory._meta.database.execute_sql(_TOTALS).fetchone()
    return hashlib.sha1(
        repr((remote, sorted(excluded), writer, sorted(held), totals)).encode()
    ).hexdigest()


_TOTALS = """SELECT (SELECT n FROM change_count),
    (SELECT count(*) || ' ' || max(id) || ' ' || total(version) || ' ' || max(updated_at)
     FROM memory),
    (SELECT count(*) || ' ' || max(id) FROM link),
    (SELECT count(*) || ' ' || max(at) FROM forgotten)"""


def _fields(row: dict[str, Any], links: list[dict[str, str]], successor: str | None) -> dict:
    return {
        "id": row["uuid"],
        "layer": row["layer"],
        "kind": row["kind"],
        "status": row["status"],
        "source": row["source"],
        "agent": row["agent"],
        "project": row["project"],
        "task": row["task"],
        "tags": json.loads(row["tags"]),
        "importance": row["importance"],
        "confidence": row["confidence"],
        "inject": bool(row["inject"]),
        "created": row["created_at"],
        "updated": row["updated_at"],
        "version": row["version"],
        "reason": row["reason"],
        "supersedes": row["supersedes"],
        "successor": successor,
        "links": links,
    }


def _links(resolvable: set[str]) -> dict[str, list[dict[str, str]]]:
    found: dict[str, list[dict[str, str]]] = defaultdict(list)
    query = Memory._meta.database.execute_sql(
        "SELECT s.uuid, d.uuid, l.relation FROM link l JOIN memory s ON s.id = l.src_id "
        "JOIN memory d ON d.id = l.dst_id WHERE l.relation NOT IN "
        f"({', '.join('?' for _ in LOCAL_RELATIONS)}) ORDER BY d.uuid, l.relation",
        LOCAL_RELATIONS,
    )
    for src, dst, relation in query:
        if dst in resolvable:
            found[src].append({"to": dst, "relation": relation})
    return found


def _successors(rows: list[dict[str, Any]], resolvable: set[str]) -> dict[str, str]:
    """Retired memory -> the memory that replaced it (the first by id, if several did)."""
    found: dict[str, str] = {}
    for r in sorted(rows, key=lambda r: r["uuid"], reverse=True):  # the same on every machine
        if r["supersedes"] and r["uuid"] in resolvable and r["status"] != "deleted":
            found[r["supersedes"]] = r["uuid"]
    return found


def _forgotten(known: set[str]) -> dict[str, Unit]:
    """Tombstones for what the person deleted for good here and the repository still knows
    (a memory back here since, through a sync, is a row again and written as one)."""
    return {
        memory_id: tombstone_unit(memory_id, at, version)
        for memory_id, version, at in Forgotten.select(
            Forgotten.uuid, Forgotten.version, Forgotten.at
        ).tuples()
        if memory_id in known
    }


def held_here(ids: set[str]) -> set[str]:
    """Of `ids`, those this machine holds."""
    return {u for (u,) in Memory.select(Memory.uuid).where(Memory.uuid.in_(among(ids))).tuples()}


def kept_local_notice(name: str) -> str | None:
    """What keeping project `name` local should say when no memory has it: a project spelt
    otherwise (`SecretProj` for `secretproj`) is refused, as its memories would still go out;
    a new one is kept from its first memory on, with a word to check its spelling."""
    projects = [p for (p,) in Memory.select(Memory.project).distinct().tuples() if p]
    if name in projects:
        return None
    if same := [p for p in projects if p.casefold() == name.casefold()]:
        raise ValidationError(
            f"no memory has project {name!r}; project names match exactly, and "
            f"{same[0]!r} is here: keep that one local (`memdesk sync local {same[0]}`)",
            field="project",
        )
    close = difflib.get_close_matches(name, projects, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "; check its spelling"
    return f"no memory has project {name!r} yet: it is kept local from its first memory on{hint}"
