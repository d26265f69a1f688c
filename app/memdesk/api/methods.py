"""The public method contract: every method, its parameters and what it does.

`system.describe` returns this table and the dispatcher checks parameter names against it,
so the documentation an agent reads and the checks it meets cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Method:
    name: str
    summary: str
    params: dict[str, str]
    required: tuple[str, ...] = ()

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.params)

    def describe(self) -> dict[str, object]:
        return {"summary": self.summary, "params": self.params, "required": list(self.required)}


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
    Method(
        "session.start",
        "Open (or resume) an agent session; returns {text} to inject: the identity, the "
        "briefing (this project's standing rules and facts and the global ones, best first), "
        "this task's working memory, and a recovery block if this agent's previous session on "
        "the task ended without session.end (that one is then archived as interrupted, unless "
        "its host process still runs); also {project, briefed: ids, more}, and for a host's "
        "hook, when a session opens, {waiting: {count, said, message}}: what the person said "
        "at the project's session ends since its previous session that waits in the Inbox.",
        {
            "session": "the host's session id",
            "agent": "agent name (default: the name given in system.hello)",
            "project": "project name: the session sees this project's memories and those of "
            "no project",
            "task": "task name",
            "cwd": "working folder",
            "host_pid": "process id of the agent host (a session whose host runs is live)",
            "briefing_chars": "integer 0..20000 (default 1700): the briefing's size; 0: none",
            "signals": "words of where the agent works (tools its manifests and lock files "
            "name, dependencies, branch, folder; at most 300): rules about what it uses rank "
            "higher, rules about a tool it does without lower",
            "resumed": "true when the host resumed the conversation (its context holds what "
            "the session was given): only what is new is returned",
        },
        ("session",),
    ),
    Method(
        "session.prompt",
        "The relevant-knowledge block for one user prompt, of the session's project or of "
        "none, searched with the prompt's related words too; leaves out the identity and "
        "what this session was already given. Logged against the session.",
        {
            "session": "session id",
            "prompt": "the user's prompt",
            "k": "integer 1..100 (default 5)",
            "budget_chars": "integer 200..100000 (default 1200)",
        },
        ("session", "prompt"),
    ),
    Method(
        "session.action",
        "Before a tool call: the standing rules that name what it runs or touches (a "
        "program of a shell command; a file's folder, name, extension or language), as a "
        "block to give the model, and deny: the reason to refuse the call when one of the "
        "user's own rules forbids exactly it (else null). Logged as an action injection.",
        {
            "session": "session id",
            "tool": "tool name (Bash, Edit, Write, …)",
            "args": "the tool's input (object): command, or file_path",
        },
        ("session", "tool"),
    ),
    Method(
        "observe",
        "Record one tool call; returns the observation {kind, importance, text}.",
        {
            "session": "session id",
            "tool": "tool name (Edit, Write, Read, Bash, Grep, TodoWrite, Task, …)",
            "args": "the tool's input (object)",
            "result": "the tool's result (any JSON)",
        },
        ("session", "tool"),
    ),
    Method(
        "working_memory",
        "The working-memory block of a session: current task, plan, modified files, recent "
        "errors, key decisions; rebuilt from every observation, never over the budget.",
        {"session": "session id", "budget_chars": "integer 100..100000 (default 2000)"},
        ("session",),
    ),
    Method(
        "session.end",
        "Close a session: corrections and preferences in the user's messages are stored "
        "(high confidence) or proposed (medium), and an L2 summary is filed. Returns "
        "{stored, proposed, skipped (each with why), summary}; ending again adds nothing new.",
        {
            "session": "session id",
            "transcript": "list of {role: user|assistant, content: text}",
            "summary": "what the session did, in the agent's words (optional)",
        },
        ("session",),
    ),
    Method(
        "agents.list",
        "Every agent that opened a session: last session, last seen, a one-line summary.",
        {},
    ),
    Method(
        "agents.control",
        "Pause an agent (it may neither read nor write), make it read-only, let its updates "
        "of its own notes replace them without an Inbox item, or let it act again (user role "
        "only).",
        {"agent": "agent name", "mode": "active | paused | read_only | updates_fine"},
        ("agent", "mode"),
    ),
    Method(
        "proposals.list",
        "What session ends proposed, newest first.",
        {"status": "pending (default) | accepted | dismissed | all"},
    ),
    Method(
        "proposals.decide",
        "Accept (stored as an L1 memory) or dismiss a proposal (user role only).",
        {"id": "proposal number", "accept": "true to store it, false to dismiss it"},
        ("id", "accept"),
    ),
    Method(
        "injections",
        "What memdesk gave each agent session's model (user role only), newest session "
        "first: each session start, prompt and tool-call injection with its characters, "
        "≈ tokens and memories, each marked acted_on or went_against by a later tool call.",
        {"sessions": "how many of the newest sessions (1..10000, default 50)"},
    ),
    Method(
        "inbox.list",
        "What waits for the person's decision (user role only): proposals, possible updates, "
        "merges, withheld writes; each with its key, type, why, support and the memories it "
        "concerns, most supported first.",
        {"status": "pending (default) | rejected"},
    ),
    Method(
        "inbox.accept",
        "Accept inbox items, all or none (user role only).",
        {
            "keys": "list of item keys (memory:<id> or proposal:<number>)",
            "content": "the text to accept instead (one key only)",
            "as_shown": "{key: the item's content as the person was shown it}: an item whose "
            "words changed since is refused (-32003), not decided",
        },
        ("keys",),
    ),
    Method(
        "inbox.reject",
        "Reject inbox items, kept with the reason (user role only): a proposal as rejected, a "
        "withheld memory in the Trash.",
        {
            "keys": "list of item keys",
            "reason": "why (optional)",
            "as_shown": "as for inbox.accept",
        },
        ("keys",),
    ),
    Method(
        "inbox.reconsider",
        "Put rejected inbox items back (user role only).",
        {"keys": "list of item keys"},
        ("keys",),
    ),
    Method(
        "inbox.find_duplicates",
        "Propose merging memories that say the same thing (user role only); returns how many "
        "memories were read and the new proposals' keys.",
        {"project": "only this project (optional)"},
    ),
    Method(
        "system.backup",
        "Back up the database now (user role only); returns the backup's name, path, "
        "taken_at, kind, bytes and memories.",
        {},
    ),
    Method(
        "system.backups",
        "The database's backups, newest first (as system.backup). User role only.",
        {},
    ),
    Method(
        "sync.init",
        "Set up a git remote to sync with (user role only): a bare repository path (made if "
        "absent), ssh or https. Nothing is sent until sync.run. Returns sync.status.",
        {
            "url": "the remote",
            "branch": "its branch (default main)",
            "name": "the remote's name (default origin for the first)",
            "projects": "a team remote: only these projects (and no identity) go there",
            "writer": "who this machine's memories are by (default user@host#xxxx)",
        },
        ("url",),
    ),
    Method(
        "sync.run",
        "Pull, merge and push (user role only), with one remote or each in turn; returns per "
        "remote what was sent, taken, refused (with why) and the conflicts left in the inbox.",
        {
            "remote": "a remote's name (default: every remote)",
            "dry_run": "true: say what it would send, take, trash, ask and refuse; change nothing",
        },
    ),
    Method(
        "sync.remove",
        "Stop syncing with a remote (user role only): its set-up and this machine's mirror of "
        "it go; the remote and every memory here stay. Returns sync.status.",
        {"name": "the remote's name"},
        ("name",),
    ),
    Method(
        "sync.local",
        "Keep a project on this machine only, never synced (user role only); local=false lets "
        "it sync again. Returns sync.status.",
        {"project": "the project", "local": "true (default) or false"},
        ("project",),
    ),
    Method(
        "sync.trust",
        "Confirm a writer met in your own remote as one of your machines (user role only): its "
        "memories count as yours, its identity lines are taken at the next sync; trusted=false "
        "takes that back. A name no remote has shown writing is refused unless unmet=true. "
        "Returns sync.status (`machines` lists yours, `unconfirmed` the writers met).",
        {
            "writer": "the writer's name, as sync.status lists it",
            "unmet": "true to trust a name that has not written to any remote yet",
            "trusted": "true (default), or false to take the trust back",
        },
        ("writer",),
    ),
    Method(
        "sync.status",
        "The sync set-up (user role only): each remote, its last sync and the conflicts "
        "waiting in the inbox.",
        {},
    ),
    Method(
        "system.restore_backup",
        "Replace every memory with a backup's (user role only). The current state is backed "
        'up first (returned as "before"); subscribers get one memory.changed event "reset".',
        {"name": "a name from system.backups, or an absolute path to a backup file"},
        ("name",),
    ),
    Method(
        "system.check",
        "Check the database file and the search index (user role only); returns {ok, problems}.",
        {"rebuild": "boolean (default false): rebuild the search index first"},
    ),
]
BY_NAME = {m.name: m for m in METHODS}
