"""A unit from the remote, checked as an import checks a record before anything is written:
every field validated, the id matching its place, links to memories by id only."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from memdesk.core import clock, guard, rules, validate
from memdesk.core.errors import MemdeskError, ValidationError
from memdesk.core.files.importing import checked_state
from memdesk.core.guard import withhold
from memdesk.core.sync.files import SYNCED_COLUMNS, Unit
from memdesk.core.sync.local import LOCAL_RELATIONS

UNKNOWN_WRITER = "unknown"  # a file written by hand without one
_PART = 500  # units checked before their texts go to the guard: it reads while we check on
_RELATIONS = tuple(r for r in rules.RELATIONS if r not in LOCAL_RELATIONS)
_SYNCED = frozenset(SYNCED_COLUMNS)  # looked up for each field of each file


@dataclass
class Incoming:
    id: str
    deleted: bool
    # As stored; a tombstone has only its version and updated_at.
    columns: dict[str, Any] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)  # (to, relation)
    flag: str | None = None  # what the guard withholds it for, read before the write lock
    reason: str | None = None  # why its writer made this version
    # the versions made elsewhere between this machine's and it, oldest first (`between`)
    between: list[Incoming] = field(default_factory=list)


def checked(unit: Unit) -> Incoming:
    """The unit's memory, validated; raises ValidationError naming the field."""
    found = _fields_checked(unit, clock.latest_believable())
    if not found.deleted:
        found.flag = _flag(found)
    return found


def checked_all(units: list[Unit]) -> dict[str, Incoming | MemdeskError]:
    """`checked` of each unit (or why not); the guard reads the texts of one part while the
    fields of the next are checked."""
    found: dict[str, Incoming | MemdeskError] = {}
    memories: list[Incoming] = []
    latest = clock.latest_believable()
    with guard.reading(len(units)) as reading:
        for start in range(0, len(units), _PART):
            part = []
            for unit in units[start : start + _PART]:
                try:
                    memory = _fields_checked(unit, latest)
                except MemdeskError as exc:
                    found[unit.id] = exc
                    continue
                found[unit.id] = memory
                if not memory.deleted:
                    part.append(memory)
            reading.read([memory.columns["content"] for memory in part])
            memories += part
        for memory, reasons in zip(memories, reading.findings(), strict=True):
            memory.flag = _flag(memory, reasons)
    return found


def _flag(found: Incoming, scanned: list[str] | None = None) -> str | None:
    # A file's claimed writer does not excuse its doubt: "source: user" with confidence 0.1
    # reached agents unheld.
    columns = found.columns
    return withhold.reasons_for(
        columns["content"],
        "remote",
        confidence=columns["confidence"],
        scanned=scanned,
        labels=columns,
    )


def _fields_checked(unit: Unit, latest: str) -> Incoming:
    fields = unit.fields()
    if fields.get("id") != unit.id:
        raise ValidationError("its id does not match its file name", field="id")
    try:
        canonical = str(uuid.UUID(unit.id))
    except ValueError:
        raise ValidationError("id must be a UUID", field="id") from None
    if canonical != unit.id:  # "ABC…" beside "abc…" was a second memory that looked the same
        raise ValidationError(f"id must be a UUID as memdesk writes it ({canonical})", field="id")
    if "deleted" in fields:
        return Incoming(
            unit.id,
            True,
            {
                "updated_at": clock.parse_time(fields["deleted"], "deleted"),
                "version": validate.integer(
                    fields.get("version"), "version", 1, validate.MAX_VERSION
                ),
            },
        )
    record = {k: v for k, v in fields.items() if k in _SYNCED}
    record["created_at"] = fields.get("created")
    record["updated_at"] = fields.get("updated")
    state = checked_state(record)
    state["created_at"] = clock.set_back(state["created_at"], "created", latest)
    state["updated_at"] = clock.set_back(state["updated_at"], "updated", latest)
    if state["status"] == "deleted":
        raise ValidationError("status is deleted but the file is no tombstone", field="status")
    columns = {k: state[k] for k in SYNCED_COLUMNS}
    columns["tags"] = validate.dump_tags(columns["tags"])
    columns["writer"] = validate.writer(fields.get("writer"), "writer") or UNKNOWN_WRITER
    found = Incoming(unit.id, False, columns, _links(fields.get("links", [])))
    found.reason = validate.reason(fields.get("reason"))
    return found


def _links(links: object) -> list[tuple[str, str]]:
    if not isinstance(links, list):
        raise ValidationError("links must be a list", field="links")
    found = []
    for link in links:
        if (
            not isinstance(link, dict)
            or not isinstance(link.get("to"), str)
            or link.get("relation") not in _RELATIONS
        ):
            raise ValidationError(
                f"each link needs a memory id (to) and a relation: {', '.join(_RELATIONS)}",
                field="links",
            )
        found.append((link["to"], link["relation"]))
    return found
