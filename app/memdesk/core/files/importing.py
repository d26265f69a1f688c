"""Reading an export (export.py writes them) for an import, all-or-nothing.

An import is validated completely before anything is written (here), then applied in one
transaction (`applying`): a bad file changes nothing and its errors name the record and the
field.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.errors import MemdeskError, ValidationError
from memdesk.core.files.export import FORMAT, FORMAT_VERSION
from memdesk.core.guard import withhold
from memdesk.store import MAX_COUNT

MAX_ERRORS = 50
MAX_IMPORT_BYTES = 1024 * 1024 * 1024  # a million memories with their histories fit


class _GivenTwice(ValueError):
    pass


# An export holds one JSON object or list per ~150 characters (measured: 159–185); each
# costs Python ~64 bytes however short its text. A file of "[]," items took 26 times its size
# (2.6 GB for 100 MB) before any check: refused when it holds more than one per this many.
_CHARS_PER_CONTAINER = 32
_SPARE_CONTAINERS = 10_000


def _check_density(text: str | bytes) -> None:
    if not isinstance(text, str | bytes):
        return  # not text at all: json.loads says so
    brace, bracket = ("{", "[") if isinstance(text, str) else (b"{", b"[")
    containers = text.count(brace) + text.count(bracket)  # type: ignore[arg-type]
    if containers > len(text) // _CHARS_PER_CONTAINER + _SPARE_CONTAINERS:
        raise ValidationError(
            f"the file holds {containers:,} JSON objects and lists in {len(text):,} characters, "
            f"more than one per {_CHARS_PER_CONTAINER} (an export has one per ~150): it is not "
            "a memdesk export",
            field="file",
        )


def _each_key_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A field given twice read as its last value: `"layer": "L1", "layer": "L0"` put a
    memory into the identity given to every agent, while a reader of the file saw L1."""
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    keys = [key for key, _ in pairs]
    twice = next(key for n, key in enumerate(keys) if key in keys[:n])
    raise _GivenTwice(
        f"the field {twice!r} is given twice in one object; an export gives each once"
    )


def parse(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Check the whole file; return (memory records, links) or raise one ValidationError
    listing every problem found (record index, id and field)."""
    _check_density(text)
    try:
        document = json.loads(text, object_pairs_hook=_each_key_once)
    except _GivenTwice as exc:
        raise ValidationError(str(exc), field="file") from None
    except RecursionError:
        raise ValidationError(
            "the file nests JSON deeper than an export ever does; it is not a memdesk export",
            field="file",
        ) from None
    except (ValueError, TypeError) as exc:
        if isinstance(exc, ValueError) and not isinstance(exc, json.JSONDecodeError):
            raise ValidationError(
                "the file holds a number longer than any export has; it is not a memdesk export",
                field="file",
            ) from None
        if isinstance(text, str) and text.lstrip().startswith("# memdesk export"):
            raise ValidationError(
                "this is a Markdown export, which is for reading; import the JSON export "
                "(Export → JSON) instead: it is the complete, re-importable format",
                field="file",
            ) from None
        raise ValidationError(f"the file is not valid JSON: {exc}", field="file") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValidationError(
            f'not a memdesk export: expected an object with "format": "{FORMAT}"', field="format"
        )
    if document.get("version") != FORMAT_VERSION:
        raise ValidationError(
            f"export format version {document.get('version')!r} is not supported; "
            f"this memdesk reads version {FORMAT_VERSION}",
            field="version",
        )
    memories, links = document.get("memories"), document.get("links", [])
    if not isinstance(memories, list) or not isinstance(links, list):
        raise ValidationError('"memories" and "links" must be lists', field="memories")
    errors: list[str] = []
    latest = clock.latest_believable()
    # Checking stops at MAX_ERRORS problems: a 100 MB file of 52 million bare numbers took
    # 6.3 GB for one error line each, and the window's Import dialog reads files the same way.
    records = _until_too_many(
        memories, errors, lambda n, record: _checked(n, record, errors, latest)
    )
    seen: set[str] = set()
    for n, record in enumerate(records):
        if record and record["id"] in seen:
            errors.append(f"memories[{n}] (id {record['id']}): id appears twice in the file")
        elif record:
            seen.add(record["id"])
    checked_links = _until_too_many(links, errors, lambda n, link: _checked_link(n, link, errors))
    if errors:
        stopped = "\n… checking stopped there" if len(errors) >= MAX_ERRORS else ""
        raise ValidationError(
            f"{len(errors)}{'+' if stopped else ''} problem(s) in the file; nothing was "
            "imported:\n" + "\n".join(errors[:MAX_ERRORS]) + stopped,
            field="memories",
            errors=errors[:MAX_ERRORS],
        )
    return records, checked_links  # type: ignore[return-value]


def _until_too_many(
    items: list[Any], errors: list[str], check: Callable[[int, Any], dict[str, Any] | None]
) -> list[dict[str, Any] | None]:
    """`check(n, item)` of each item, until the problems found reach MAX_ERRORS."""
    checked = []
    for n, item in enumerate(items):
        if len(errors) >= MAX_ERRORS:
            break
        checked.append(check(n, item))
    return checked


def _checked(n: int, record: object, errors: list[str], latest: str) -> dict[str, Any] | None:
    where = f"memories[{n}]"
    if not isinstance(record, dict):
        errors.append(f"{where}: must be an object")
        return None
    where = f"{where} (id {record.get('id')})"
    try:
        out = checked_state(record)
        for field in ("created_at", "updated_at", "last_recalled_at"):
            if out[field] is not None:
                out[field] = clock.set_back(out[field], field, latest)
        try:
            out["id"] = str(uuid.UUID(str(record.get("id"))))
        except ValueError:
            raise ValidationError("id must be a UUID", field="id") from None
        if out["supersedes"] is not None and out["supersedes"].lower() == out["id"]:
            raise ValidationError("a memory cannot replace itself", field="supersedes")
        out["doubt"] = _doubt(record, out)
        # a teammate's words stay theirs: without it an export read back made them the person's
        out["writer"] = validate.writer(record.get("writer"), "writer")
        versions = record.get("versions", [])
        if not isinstance(versions, list):
            raise ValidationError("versions must be a list", field="versions")
        out["versions"] = [_checked_version(v) for v in versions]
        numbers = [v["version"] for v in out["versions"]]
        if len(set(numbers)) != len(numbers) or any(n >= out["version"] for n in numbers):
            # a history past the current version was scrambled by the next edit
            raise ValidationError(
                f"versions must be earlier versions, each once (the memory is at version "
                f"{out['version']}; the file lists {sorted(numbers)})",
                field="versions",
            )
    except MemdeskError as exc:
        errors.append(f"{where}: field {exc.field}: {exc.message}")
        return None
    return out


def checked_state(record: dict[str, Any]) -> dict[str, Any]:
    missing = [f for f in ("content", "layer", "kind", "source", "created_at") if f not in record]
    if missing:
        raise ValidationError(f"missing {', '.join(missing)}", field=missing[0])
    created = clock.parse_time(record["created_at"], "created_at")
    state = {
        "content": validate.content(record["content"]),
        "layer": validate.one_of(record["layer"], rules.LAYERS, "layer"),
        "kind": validate.one_of(record["kind"], rules.KINDS, "kind"),
        "source": validate.one_of(record["source"], rules.SOURCES, "source"),
        "agent": validate.not_the_persons(validate.writer(record.get("agent"), "agent"), "agent"),
        "status": validate.one_of(record.get("status", "active"), rules.STATUSES, "status"),
        "created_at": created,
        "updated_at": clock.parse_time(record.get("updated_at") or created, "updated_at"),
        "project": validate.name(record.get("project"), "project"),
        "task": validate.name(record.get("task"), "task"),
        "tags": validate.tags(record.get("tags", [])),
        "importance": validate.importance(record.get("importance", 0.5)),
        "recall_count": validate.integer(
            record.get("recall_count", 0), "recall_count", 0, MAX_COUNT
        ),
        "last_recalled_at": (
            clock.parse_time(record["last_recalled_at"], "last_recalled_at")
            if record.get("last_recalled_at")
            else None
        ),
        "reinforce_count": validate.integer(
            record.get("reinforce_count", 0), "reinforce_count", 0, MAX_COUNT
        ),
        "version": validate.integer(record.get("version", 1), "version", 1, validate.MAX_VERSION),
        "supersedes": validate.name(record.get("supersedes"), "supersedes"),
        "visibility": validate.one_of(
            record.get("visibility", "shared"), rules.VISIBILITIES, "visibility"
        ),
        "confidence": (
            validate.importance(record["confidence"], "confidence")
            if record.get("confidence") is not None
            else None
        ),
        "inject": validate.boolean(record.get("inject", True), "inject"),
    }
    if state["layer"] == "L0" and (state["source"] != "user" or state["visibility"] != "shared"):
        # the profile is the person's, given to every agent: no file makes an agent's line of
        # it, nor memdesk's (memdesk writes none)
        raise ValidationError(
            "an identity (L0) entry is the person's own and shared: this one says "
            f"source {state['source']}, visibility {state['visibility']}",
            field="layer",
        )
    return state


def _doubt(record: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """The writer's doubt that holds a memory from agents, as the file has it: an export
    says it in `flag` (a hold the person lifted stays lifted). A file without `flag` (by hand,
    or from before it was exported) holds an agent's memory below the confident level."""
    flag = record.get("flag")
    if flag is None:
        held = withhold.reasons_for("", state["source"], confidence=state["confidence"])
        return json.loads(held) if held else []
    if not isinstance(flag, list) or not all(isinstance(r, str) for r in flag):
        raise ValidationError("flag must be a list of reasons (text)", field="flag")
    return [r for r in flag if r.startswith(withhold.UNSURE)][:1]


def _checked_version(v: object) -> dict[str, Any]:
    if not isinstance(v, dict) or not isinstance(v.get("state"), dict):
        raise ValidationError("each version must be an object with a state", field="versions")
    for key in ("changed_by", "change"):
        if not isinstance(v.get(key), str):
            raise ValidationError(f"a version lacks {key}", field="versions")
    try:
        # history and revert read these states back as memories: check them like one
        state = checked_state(v["state"])
    except MemdeskError as exc:
        raise ValidationError(
            f"version {v.get('version')!r} state: {exc.message}",
            field=f"versions.{exc.field}",
        ) from None
    return {
        "version": validate.integer(v.get("version"), "versions.version", 1, validate.MAX_VERSION),
        "state": state,
        "changed_by": v["changed_by"],
        "changed_at": clock.set_back(
            clock.parse_time(v.get("changed_at"), "versions.changed_at"),
            "versions.changed_at",
            clock.latest_believable(),
        ),
        "change": v["change"],
        "reason": v.get("reason") if isinstance(v.get("reason"), str) else None,
    }


def _checked_link(n: int, link: object, errors: list[str]) -> dict[str, Any] | None:
    if not isinstance(link, dict) or not all(isinstance(link.get(k), str) for k in ("from", "to")):
        errors.append(f"links[{n}]: must be an object with from and to ids")
        return None
    if link.get("relation") not in rules.RELATIONS:
        errors.append(
            f"links[{n}]: field relation: {link.get('relation')!r} is not one of "
            + ", ".join(rules.RELATIONS)
        )
        return None
    return {
        "from": link["from"],
        "to": link["to"],
        "relation": link["relation"],
        "created_at": link.get("created_at") or clock.now(),
    }
