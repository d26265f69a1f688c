"""The public method contract: every method, its parameters and what it does.

`system.describe` returns this table and the dispatcher checks parameter names against it,
so the documentation an agent reads and the checks it meets cannot drift apart. The methods of
agent sessions are in `methods_sessions`, those of the person's own tools in `methods_person`.
"""

from __future__ import annotations

from memdesk.api.method_spec import Method
from memdesk.api.methods_person import PERSON_METHODS
from memdesk.api.methods_sessions import SESSION_METHODS

_ID = "memory id (full UUID, or a unique prefix of at least 4 characters)"
_KINDS = "fact | preference | decision | learning | observation | context | summary"
_FILTERS = {
    "layer": "L0 | L1 | L2",
    "layers": "list of layers",
    "kind": _KINDS + ", or a list of them",
    "project": "project name",
    "task": "task name",
    "tags": "list of tags; all must match",
    "since": "created at or after: ISO 8601 time, or a time ago (30m, 24h, 7d, 2w)",
    "until": "created at or before: ISO 8601 time, or a time ago",
}
_NEW_FIELDS = {
    "layer": 'L0 | L1 | L2 (default "L1"); an agent writes L1 only (identity.set proposes an '
    "identity change, archive.add files a summary)",
    "kind": _KINDS + ' (default "fact")',
    "tags": "list of strings (at most 32, each at most 64 characters)",
    "project": "project name (optional)",
    "task": "task name (optional)",
    "importance": "number 0..1 (default 0.5)",
    "visibility": "shared (default: every agent sees it) | private (only the agent that "
    "wrote it, and the person)",
}


METHODS = [
    Method("system.ping", 'Check that the server answers; returns "pong".', {}),
    Method("system.describe", "Every method with its parameters (this table).", {}),
    Method(
        "system.hello",
        "Name this connection's agent; its writes and searches are attributed to it.",
        {
            "agent": "agent name, e.g. claude-code (at most 200 characters)",
            "role": 'agent (default) | hook | user: "user" is the person\'s own memdesk tools '
            "(the CLI; its writes follow the user's rules), \"hook\" an agent host's session "
            "hooks (`memdesk hook`); both need `key`",
            "key": "for role user or hook: the key in the file beside the socket "
            "(<socket>.key, readable by the person only)",
        },
        ("agent",),
    ),
    Method("system.show", "Ask the memdesk window to come to the front (no-op headless).", {}),
    Method(
        "system.handover",
        "Ask a headless `memdesk serve` to hand the database over (user role only: the window "
        "starting). It answers, sends every connection a system.closing notification and "
        "exits; a window refuses (-32005).",
        {},
    ),
    Method(
        "memory.add",
        "Add a memory. A restatement of an existing memory reinforces it instead (returned "
        "with duplicate_of); a similar text that differs in a number, negation or name is "
        "added and linked to the older one (returned with possible_update_of).",
        {
            "content": "text, at most 64 KiB",
            **_NEW_FIELDS,
            "created_at": "ISO 8601 time (default now)",
            "confidence": "number 0..1, how sure you are (optional); an agent's write below 0.8 "
            "waits in the person's inbox, withheld from agents until accepted",
            "dedup": "boolean (default true): reinforce a restatement instead of adding",
        },
        ("content",),
    ),
    Method(
        "memory.add_many",
        "Add several memories in one transaction, all or nothing; returns their ids in order.",
        {"items": "list of memory.add objects (without dedup)", "dedup": "boolean (default true)"},
        ("items",),
    ),
    Method(
        "memory.update",
        "Change fields of a memory as a new version; the old state goes to history. An agent "
        "changes only the memories it wrote.",
        {
            "id": _ID,
            "content": "new text",
            **_NEW_FIELDS,
            "expected_version": "the version you read; a stale one fails with version conflict",
            "reason": "why (kept in history)",
        },
        ("id",),
    ),
    Method(
        "memory.correct",
        "Replace a wrong memory with a new one; the old one turns inactive, linked as "
        "superseded. An agent correcting a memory it did not write adds its own, and the "
        "old one stays in force until the person accepts the Inbox item.",
        {"id": _ID, "content": "the corrected text", **_NEW_FIELDS, "reason": "why"},
        ("id", "content"),
    ),
    Method(
        "memory.remove",
        "Move a memory to the Trash (restorable); an agent, only one it wrote.",
        {"id": _ID, "reason": "why"},
        ("id",),
    ),
    Method(
        "memory.restore",
        "Make a removed or superseded memory active again; an agent, only one it wrote and "
        "put away itself.",
        {"id": _ID, "reason": "why"},
        ("id",),
    ),
    Method(
        "memory.revert",
        "Make an earlier version's content current again, as a new version.",
        {
            "id": _ID,
            "version": "the earlier version number (see memory.history)",
            "expected_version": "the version you read; a stale one fails with version conflict",
        },
        ("id", "version"),
    ),
    Method(
        "memory.purge",
        "Delete a memory that is in the Trash permanently, with its history; {purged: true}. "
        "The person's alone (agents: memory.remove moves to the Trash).",
        {"id": _ID},
        ("id",),
    ),
    Method(
        "memory.empty_trash",
        "Delete every memory in the Trash permanently; {purged: n}. The person's alone.",
        {},
    ),
    Method(
        "memory.get",
        "One memory with its first 200 links (more_links: true when it has more).",
        {"id": _ID},
        ("id",),
    ),
    Method(
        "memory.history",
        "Every version of a memory, oldest first, with who/when/why.",
        {"id": _ID},
        ("id",),
    ),
    Method(
        "memory.list",
        "A page of memories (newest change first by default).",
        {
            **_FILTERS,
            "source": "user | agent | system",
            "agent": "agent name",
            "changed_since": "changed (created or edited) at or after: as since",
            "status": "active (default) | inactive | deleted | all, or a list of them",
            "with_global": "boolean (default false): with project, also the memories of no "
            "project (what a session in that project sees)",
            "offset": "integer >= 0 (default 0)",
            "limit": "integer 1..10000 (default 50)",
            "order": 'field to sort by, prefix - for descending (default "-updated_at")',
        },
    ),
    Method(
        "memory.count",
        "How many memories match the filters of memory.list.",
        {
            **_FILTERS,
            "source": "user | agent | system",
            "agent": "agent name",
            "changed_since": "as memory.list",
            "status": "as memory.list",
        },
    ),
    Method(
        "memory.search",
        "The top k active memories for a query; returns {hits, took_ms}.",
        {
            "query": "any text, at most 4096 characters",
            "k": "integer 1..100 (default 10)",
            **_FILTERS,
            "include_inactive": "boolean (default false): also superseded memories",
            "with_global": "boolean (default false): with project, also the memories of no "
            "project (what a session in that project sees)",
        },
        ("query",),
    ),
    Method(
        "memory.link",
        "Link two memories.",
        {
            "from": _ID,
            "to": _ID,
            "relation": "related (default) | supersedes | duplicate_of | derived_from",
        },
        ("from", "to"),
    ),
    Method(
        "memory.unlink",
        "Remove links between two memories; returns {removed}.",
        {"from": _ID, "to": _ID, "relation": "only this relation (default: all)"},
        ("from", "to"),
    ),
    Method("identity.get", "The L0 identity profile: {text, size, limit, ids}.", {}),
    Method(
        "identity.set",
        "Replace the identity profile (at most 1,000 characters in total).",
        {
            "text": "the whole profile",
            "expected": "the ids from identity.get; fails if changed since",
        },
        ("text",),
    ),
    Method(
        "archive.add",
        "File the summary of a finished or crashed session in the L2 archive.",
        {
            "what": "what the session did",
            "decisions": "list of strings",
            "files": "list of strings",
            "unfinished": "list of strings",
            "commits": "list of strings",
            "project": "project name",
            "task": "task name",
        },
        ("what",),
    ),
    Method(
        "context.build",
        "The <memory-context> block for a prompt: identity, then the top-k L1 memories, "
        "searched with the query's related words too.",
        {
            "query": "what the agent is about to do",
            "project": "project name: that project's memories and those of no project",
            "k": "integer 1..100 (default 10)",
            "budget_chars": "integer 200..100000 (default 4000)",
        },
        ("query",),
    ),
    Method("events.subscribe", "Push memory.changed notifications on this connection.", {}),
    Method("events.unsubscribe", "Stop memory.changed notifications.", {}),
    Method("stats", "Counts by status, layer, kind, source, project and tag.", {}),
    Method(
        "export",
        "All matching memories (any status by default) as JSON or Markdown text (user role "
        "only: agents page with memory.list).",
        {
            "format": "json (default) | markdown",
            **_FILTERS,
            "status": "as memory.list (default any)",
        },
    ),
    Method(
        "export.page",
        "A part of the JSON export, for a large store: {memories (with versions), after, "
        "links}; call again with `after` until it is null, when links come (user role only).",
        {
            "after": "where this part starts: 0, then the last answer's after",
            **_FILTERS,
            "status": "as memory.list (default any)",
        },
    ),
    Method(
        "import",
        "Import a JSON export, all or nothing; dry_run only plans it (both user role only).",
        {
            "text": "the JSON export's text (the whole request line is at most 1 MiB)",
            "dry_run": "boolean (default false): return {added, changed, unchanged, errors} "
            "lists without writing",
        },
        ("text",),
    ),
    *SESSION_METHODS,
    *PERSON_METHODS,
]
BY_NAME = {m.name: m for m in METHODS}
