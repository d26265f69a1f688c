"""Export to JSON (full fidelity, what import reads back) and Markdown (for people)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from memdesk.core import clock, rules
from memdesk.core.display import visible
from memdesk.core.errors import MemdeskError
from memdesk.core.guard import withhold
from memdesk.core.memory.records import to_dict
from memdesk.core.search.filters import Filters
from memdesk.store import Link, Memory, MemoryVersion, among

FORMAT = "memdesk-export"
FORMAT_VERSION = 1
PAGE = 1000

Progress = Callable[[int, int], bool]


class Cancelled(MemdeskError):
    code = "cancelled"


def report(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None and progress(done, total) is False:
        raise Cancelled("cancelled; nothing was written")


def _rows(filters: Filters, progress: Progress | None) -> Iterator[Memory]:
    """Memories in id order, a page at a time, so a 100k export never holds every row."""
    for page in _pages(filters, progress):
        yield from page


def _pages(filters: Filters, progress: Progress | None) -> Iterator[list[Memory]]:
    where = filters.where()
    total = Memory.select().where(where).count()
    done, last_id = 0, 0
    report(progress, 0, total)
    while True:
        page = _page(where, last_id)
        if not page:
            return
        yield page
        done += len(page)
        last_id = page[-1].id
        report(progress, done, total)


def export_json(filters: Filters, progress: Progress | None = None) -> str:
    out = io.StringIO()
    write_json(dict_pages(filters, progress), lambda: links_among(filters), out)
    return out.getvalue()


def dict_pages(filters: Filters, progress: Progress | None) -> Iterator[list[dict[str, Any]]]:
    for page in _pages(filters, progress):
        yield _with_versions(page)


def memory_page(filters: Filters, after: int) -> tuple[list[dict[str, Any]], int | None]:
    """The export's memories past row `after` (a page), and the row to go on after (None at
    the end): an export asked of a running memdesk in parts, each a moment of its work."""
    page = _page(filters.where(), after)
    return _with_versions(page), (page[-1].id if len(page) == PAGE else None)


def _page(where: Any, after: int) -> list[Memory]:
    return list(Memory.select().where(where & (Memory.id > after)).order_by(Memory.id).limit(PAGE))


def _with_versions(page: list[Memory]) -> list[dict[str, Any]]:
    # A page's versions in one query: asked memory by memory, a 100k export made 100k queries.
    versions: dict[int, list[dict[str, Any]]] = {row.id: [] for row in page}
    for v in (
        MemoryVersion.select()
        .where(MemoryVersion.memory.in_(among(versions)))
        .order_by(MemoryVersion.memory, MemoryVersion.version)
    ):
        versions[v.memory_id].append(
            {
                "version": v.version,
                "state": _state(v.state, v.version),
                "changed_by": v.changed_by,
                "changed_at": v.changed_at,
                "change": v.change,
                "reason": v.reason,
            }
        )
    return [{**to_dict(row), "versions": versions[row.id]} for row in page]


# A memory's state is its fields: text under 64 KiB, tags. A crafted backup's one state of
# 30 million empty lists took its check to 2.9 GB.
_MAX_STATE_CHARS = 1 << 20


def _state(text: str, version: int) -> dict[str, Any]:
    """A stored version's state, parsed only when it can be a memory's fields, and kept only
    when it is: each read is bounded, and nothing else piles up."""
    if len(text) > _MAX_STATE_CHARS:
        raise MemdeskError(
            f"version {version} of a memory holds {len(text):,} characters, far past a "
            "memory's fields",
            field="versions",
        )
    state = json.loads(text)
    if not isinstance(state, dict) or not all(
        not isinstance(value, dict | list)
        or isinstance(value, list)
        and all(isinstance(item, str) for item in value)
        for value in state.values()
    ):
        raise MemdeskError(
            f"version {version} of a memory is not a memory's fields", field="versions"
        )
    return state


def links_among(filters: Filters) -> list[dict[str, Any]]:
    """Every link whose two ends the export holds."""
    ids = dict(Memory.select(Memory.id, Memory.uuid).where(filters.where()).tuples())
    return [
        {"from": ids[src], "to": ids[dst], "relation": relation, "created_at": created_at}
        for src, dst, relation, created_at in Link.select(
            Link.src, Link.dst, Link.relation, Link.created_at
        )
        .order_by(Link.id)
        .tuples()
        if src in ids and dst in ids
    ]


def write_json(
    pages: Iterable[list[dict[str, Any]]],
    links: Callable[[], list[dict[str, Any]]],
    out: TextIO,
) -> int:
    """Write the export document page by page, as `json.dumps(document, indent=1)` would (a
    100k export built whole took 2.6 GB for a 289 MB file), and return how many memories it
    holds. Only links between memories written are kept (parts asked of a running memdesk
    may meet a memory added between them)."""
    head = {"format": FORMAT, "version": FORMAT_VERSION, "exported_at": clock.now()}
    out.write(json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "memories": [')
    written: set[str] = set()
    for page in pages:
        for memory in page:
            out.write(",\n" if written else "\n")
            out.write(_nested(memory))
            written.add(memory["id"])
    out.write("\n ],\n" if written else "],\n")
    kept = [link for link in links() if link["from"] in written and link["to"] in written]
    out.write(' "links": [' + ("" if kept else "]"))
    for n, link in enumerate(kept):
        out.write((",\n" if n else "\n") + _nested(link))
    out.write("\n ]\n}" if kept else "\n}")
    return len(written)


def _nested(value: dict[str, Any]) -> str:
    """A list item two levels into the document, indented as json.dumps(indent=1) does."""
    return "  " + json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n  ")


def export_markdown(filters: Filters, progress: Progress | None = None) -> str:
    by_layer: dict[str, list[str]] = {layer: [] for layer in rules.LAYERS}
    count = 0
    for row in _rows(filters, progress):
        by_layer[row.layer].append(_markdown_entry(to_dict(row)))
        count += 1
    out = [f"# memdesk export\n\nExported {clock.now()}: {count} memories.\n"]
    for layer, entries in by_layer.items():
        if entries:
            out.append(f"## {layer} · {rules.LAYER_NAMES[layer]} ({len(entries)})\n")
            out.extend(entries)
    # a document to read: an agent's escape sequences set the person's clipboard and erased
    # the lines above when the export was printed to a terminal
    return visible("\n".join(out))


def _markdown_entry(m: dict[str, Any]) -> str:
    title = m["content"].splitlines()[0][:80]
    writer = f"{m['source']} ({m['agent']})" if m["agent"] else m["source"]
    meta = [
        f"- id: `{m['id']}` · kind: {m['kind']} · by: {writer} · status: {m['status']}",
        f"- created: {m['created_at']} · updated: {m['updated_at']} · version {m['version']}"
        f" · importance {m['importance']:g} · recalled {m['recall_count']}×",
    ]
    if m["project"] or m["task"]:
        meta.append(f"- project: {m['project'] or '—'} · task: {m['task'] or '—'}")
    if m["tags"]:
        meta.append("- tags: " + ", ".join(f"`{t}`" for t in m["tags"]))
    if m["supersedes"]:
        meta.append(f"- supersedes: `{m['supersedes']}`")
    meta += _held_back(m)
    # A blockquote keeps headings or lists inside a memory from breaking the document's shape.
    body = "\n".join(f"> {line}".rstrip() for line in m["content"].splitlines())
    return f"### {_escape_heading(title)}\n\n" + "\n".join(meta) + f"\n\n{body}\n"


def _held_back(m: dict[str, Any]) -> list[str]:
    """What keeps a memory from agents, said where a reader of the document sees it."""
    out = []
    if m["flag"]:
        kind = "held as unsure" if withhold.only_unsure(m["flag"]) else "withheld from agents"
        out.append(f"- **{kind}**: " + "; ".join(m["flag"]))
    if not m["inject"]:
        out.append("- **not brought up unasked** (found by search only)")
    if m["visibility"] != "shared":
        out.append(f"- visibility: {m['visibility']}")
    return out


def _escape_heading(text: str) -> str:
    return text.replace("\\", "\\\\").replace("#", "\\#").replace("*", "\\*").replace("_", "\\_")
