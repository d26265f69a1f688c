"""What an import does to the store: its plan (what is added, changed, left alone and why),
and its writes in the caller's one transaction. `importing.parse` reads and checks the file
first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memdesk.core import rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.errors import IdentityFull, MemdeskError, ValidationError, VersionConflict
from memdesk.core.events import Change
from memdesk.core.files.export import PAGE, Progress, report
from memdesk.core.guard import withhold
from memdesk.core.memory.records import PUBLIC_FIELDS, keep_version, to_dict
from memdesk.core.search import neighbours
from memdesk.store import Link, Memory, MemoryVersion, among


def _existing(uuids: list[str], columns: tuple = ()) -> dict[str, Memory]:
    """Rows by uuid."""
    query = Memory.select(*columns).where(Memory.uuid.in_(among(uuids)))
    return {row.uuid: row for row in query}


# What of the person's memory a file's change is named for: its words, and whether and where
# it stays (a crafted file retired the person's identity line, counted with no word of it).
_YOURS_SEEN = ("content", "status", "layer")


def plan(records: list[dict[str, Any]]) -> dict[str, Any]:
    """What an import would do: ids added, ids changed (`yours_reworded`: those of them that are
    the person's own here, reworded, retired or moved; they stay the person's), how many are
    already identical, ids the store holds a later version of (left as they are: an older
    export made the older text the next version, as if the person had gone back to it), and
    ids kept private: a file does not share what the person keeps private here (a crafted
    export bumped a private memory's version with `"visibility": "shared"`, and agents read
    it)."""
    existing = _existing([r["id"] for r in records])
    added, changed, older, kept_private, yours_reworded, unchanged = [], [], [], [], [], 0
    for record in records:
        row = existing.get(record["id"])
        if row is not None and row.source == "user":
            # A file does not give the person's memory away either: one handed their rule to
            # "evil-bot", which then rewrote it as its own.
            record["source"], record["agent"] = "user", None
        if row is None:
            added.append(record["id"])
        elif _state(to_dict(row)) == _state(record):
            unchanged += 1
        elif record["version"] < row.version:
            older.append(record["id"])
        elif row.visibility == "private" and record["visibility"] != "private":
            kept_private.append(record["id"])
        else:
            changed.append(record["id"])
            if row.source == "user" and any(getattr(row, f) != record[f] for f in _YOURS_SEEN):
                yours_reworded.append(record["id"])
    # The lines of the identity profile it writes, given in full to every agent session: named
    # apart, since a file adds them in the person's name (red team, stop 70).
    profile = [
        r["id"]
        for r in records
        if r["id"] in {*added, *changed}
        and (r["layer"] == "L0" or getattr(existing.get(r["id"]), "layer", None) == "L0")
    ]
    return {
        "added": added,
        "changed": changed,
        "changed_your_words": yours_reworded,
        "identity_lines": profile,
        "older": older,
        "kept_private": kept_private,
        "unchanged": unchanged,
    }


def nothing_planned(errors: list[str]) -> dict[str, Any]:
    """A plan of a file that cannot be imported: nothing to do, and why."""
    return {
        "added": [],
        "changed": [],
        "changed_your_words": [],
        "identity_lines": [],
        "older": [],
        "kept_private": [],
        "unchanged": 0,
        "errors": errors,
    }


# How often a memory was used is this store's own count: a file written before the last recall
# differed only there, and its import wrote a version of the same words and set the count to 0.
_USE = ("recall_count", "last_recalled_at", "reinforce_count")


def _state(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in PUBLIC_FIELDS if k not in _USE}


def apply(
    records: list[dict[str, Any]],
    links: list[dict[str, Any]],
    pending: list[Change],
    *,
    touch: Callable[[list[str]], None],
    progress: Progress | None = None,
    actor: Actor = USER,
    expected: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write parsed `records` and `links` inside the caller's write transaction; `touch` is
    told first which existing memories change (a recorded window action keeps their state).
    With `expected` (a plan shown to the person), nothing is written when the plan differs."""
    todo = plan(records)
    if expected is not None and any(todo[key] != expected.get(key) for key in todo):
        # an agent's edit or a sync between the preview and the click: what the person agreed
        # to is no longer what would happen
        raise VersionConflict(
            "the store changed since the import was previewed, so it would now do something "
            "else; look at the new preview and import again",
            field="expected",
            plan={**todo, "errors": []},
        )
    added, changed = set(todo["added"]), set(todo["changed"])
    _check_identity_after(records, added | changed)
    _check_links(links, {r["id"] for r in records})
    ends = {link["from"] for link in links} | {link["to"] for link in links}
    touch(sorted(changed | (ends - added)))
    total = len(records)
    for done, record in enumerate(records, 1):
        if record["id"] in added:
            _insert(record)
            pending.append(Change("created", record["id"], record["version"], actor.label))
        elif record["id"] in changed:
            _replace(record, actor, pending)
        if done % PAGE == 0:
            report(progress, done, total)
    _insert_links(links)
    for task in {r["task"] for r in records if r["task"] and r["id"] in added | changed}:
        neighbours.refresh_task(task)
    report(progress, total, total)
    return {
        "added": len(added),
        "changed": len(changed),
        "changed_your_words": len(todo["changed_your_words"]),
        "identity_lines": len(todo["identity_lines"]),
        "older": len(todo["older"]),
        "kept_private": len(todo["kept_private"]),
        "unchanged": todo["unchanged"],
        "ids": todo["added"],
    }


def refusals(records: list[dict[str, Any]], links: list[dict[str, Any]]) -> list[str]:
    """What `apply` would refuse beyond the file's own checks, found without writing."""
    found = []
    todo = plan(records)
    touched = set(todo["added"]) | set(todo["changed"])
    for check in (
        lambda: _check_identity_after(records, touched),
        lambda: _check_links(links, {r["id"] for r in records}),
    ):
        try:
            check()
        except MemdeskError as exc:
            found.append(exc.message)
    return found


def _check_identity_after(records: list[dict[str, Any]], touched: set[str]) -> None:
    kept = Memory.select().where(
        (Memory.layer == "L0") & (Memory.status == "active") & Memory.uuid.not_in(list(touched))
    )
    kept_sizes = [len(r.content) for r in kept]
    used = rules.profile_size(kept_sizes)
    size = rules.profile_size(
        kept_sizes
        + [
            len(r["content"])
            for r in records
            if r["id"] in touched and r["layer"] == "L0" and r["status"] == "active"
        ]
    )
    if size > rules.IDENTITY_LIMIT:
        raise IdentityFull(
            f"after this import the identity (L0) would be {size:,} characters; the limit is "
            f"{rules.IDENTITY_LIMIT:,} ({used:,} used by entries already here). Remove "
            "identity entries here or in the file first.",
            field="layer",
            size=size,
            limit=rules.IDENTITY_LIMIT,
        )


def _columns(record: dict[str, Any]) -> dict[str, Any]:
    values = {k: record[k] for k in PUBLIC_FIELDS}
    values["writer"] = record.get("writer")
    values["tags"] = validate.dump_tags(record["tags"])
    # The guard reads the text afresh (never trusted from the file); the doubt is kept.
    values["flag"] = withhold.reasons_for(
        record["content"], record["source"], earlier=json.dumps(record["doubt"]), labels=record
    )
    values["context"] = neighbours.own_context(record["content"])  # a task's: refreshed after
    return values


def _insert(record: dict[str, Any]) -> None:
    row = Memory.create(uuid=record["id"], **_columns(record))
    if record["versions"]:
        MemoryVersion.insert_many(
            [
                {
                    **v,
                    "memory": row.id,
                    "state": json.dumps(v["state"], ensure_ascii=False, sort_keys=True),
                }
                for v in record["versions"]
            ]
        ).execute()


def _replace(record: dict[str, Any], actor: Actor, pending: list[Change]) -> None:
    """An import that differs from what is here becomes a new version: nothing is lost."""
    row = Memory.get(Memory.uuid == record["id"])
    stamp = keep_version(row, actor, "import", None)
    values = _columns(record)
    values["version"] = row.version + 1
    values["updated_at"] = stamp
    for count in _USE:  # the higher of the two: counts of use are never taken back
        here, there = getattr(row, count), values.get(count)
        values[count] = here if there is None else there if here is None else max(here, there)
    if values.get("content", row.content) != row.content:
        values["writer"] = None  # the words are this machine's now (see memory/versions.py)
    Memory.update(**values).where(Memory.id == row.id).execute()
    pending.append(Change("updated", row.uuid, values["version"], actor.label))


def _check_links(links: list[dict[str, Any]], in_file: set[str]) -> None:
    """A file's links join memories it holds, as an export writes them: a crafted file of
    links alone, between two of the person's rules already here, marked one "may be
    outdated" for every agent while the import said nothing changed."""
    ends = {link["from"] for link in links} | {link["to"] for link in links}
    outside = sorted(ends - in_file)
    if outside:
        raise ValidationError(
            f"links join memories the file holds; {len(outside)} link end(s) name memories "
            f"that are not in it (first: {outside[0]}); nothing was imported",
            field="links",
        )


def _insert_links(links: list[dict[str, Any]]) -> None:
    wanted = {link["from"] for link in links} | {link["to"] for link in links}
    ids = {
        uuid_: row.id for uuid_, row in _existing(sorted(wanted), (Memory.id, Memory.uuid)).items()
    }
    for link in links:
        Link.insert(
            src=ids[link["from"]],
            dst=ids[link["to"]],
            relation=link["relation"],
            created_at=link["created_at"],
        ).on_conflict_ignore().execute()
