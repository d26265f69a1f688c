"""The method table's part for the person's own tools (user role only): deciding the
Inbox, backing up and restoring, syncing with git remotes, checking the database."""

from __future__ import annotations

from memdesk.api.method_spec import Method

PERSON_METHODS = [
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
