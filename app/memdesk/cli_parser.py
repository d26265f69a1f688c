"""The `memdesk` command's arguments: every subcommand, its options and its help (cli.py runs
them)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import shtab

from memdesk import __version__
from memdesk import cli_commands as commands
from memdesk import cli_setup as setup
from memdesk.api import naming
from memdesk.api.attach import HOSTS
from memdesk.api.hooks import ALL_EVENTS as HOOK_EVENTS
from memdesk.api.hooks import HOST_EVENTS
from memdesk.core import rules
from memdesk.paths import resolve_db_path

Handler = Callable[[Any, argparse.Namespace], Any]


class UsageError(Exception):
    """A bad argument or value, said as every memdesk error is (a JSON object under --json)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see {self.prog} --help)")


# -- the parser --------------------------------------------------------------------------------


EXIT_CODES = """exit codes:
  0  done
  1  memdesk check or memdesk doctor found problems
  2  usage: a bad argument or value (the message says what is allowed)
  3  not found: no such memory or backup
  4  refused: not allowed, changed since you read it, identity full, too large
  5  unavailable: memdesk busy, the disk full or read-only, the database unusable
  6  sync: a remote could not be reached or refused (any others synced)"""


def _where() -> str:
    """Where the default database and the agents' socket are (what agent setups ask for)."""
    try:
        db = resolve_db_path()
    except (OSError, ValueError) as exc:  # a bad MEMDESK_DB is reported when it is used
        return f"where:\n  database  unknown ({exc})"
    return (
        f"where:\n  database  {db}  (--db PATH or MEMDESK_DB to change)\n"
        f"  socket    {naming.socket_path(db)}  (agents connect here; MEMDESK_SOCKET to change)"
    )


def parser() -> argparse.ArgumentParser:
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--db",
        default=argparse.SUPPRESS,
        help="database file (default: $MEMDESK_DB or the user data folder)",
    )
    common = argparse.ArgumentParser(add_help=False, parents=[database])
    common.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print machine-readable JSON (errors too, on standard error)",
    )
    parser = _Parser(
        prog="memdesk",
        description="Long-term memory for AI agents that you can "
        "see and correct. Without a command, opens the window.",
        epilog=f"{_where()}\n\n{EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"memdesk {__version__}")
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(
        name: str, handler: Handler, help_: str, parent: argparse.ArgumentParser = common, **kw: Any
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[parent], help=help_, description=help_, **kw)
        p.set_defaults(handler=handler)
        return p

    def filters(
        p: argparse.ArgumentParser,
        many_layers: bool = True,
        tags: str = "repeatable; all must match",
    ) -> None:
        p.add_argument(
            "--layer",
            action="append",
            choices=rules.LAYERS,
            help="L0 identity, L1 knowledge, L2 archive" + (" (repeatable)" if many_layers else ""),
        )
        p.add_argument("--project")
        p.add_argument("--task")
        p.add_argument(
            "--tag",
            action="append",
            help=tags,
        )

    def dates(p: argparse.ArgumentParser) -> None:
        p.add_argument("--since", help="created at or after (ISO 8601 date or time)")
        p.add_argument("--until", help="created at or before (ISO 8601 date or time)")

    def fields(p: argparse.ArgumentParser, tags: str) -> None:
        filters(p, many_layers=False, tags=tags)
        p.add_argument("--kind", choices=rules.KINDS)
        p.add_argument("--importance", type=float, help="0..1")

    p = command("add", commands.add, "add a memory")
    p.add_argument("content", help="the text to remember ('-' reads standard input)")
    fields(p, tags="repeatable; each is added")
    p.add_argument(
        "--no-dedup", action="store_true", help="add even if a near-identical memory exists"
    )

    p = command("search", commands.search, "find the memories most relevant to a query")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=10, help="how many results (1..100, default 10)")
    filters(p)
    dates(p)
    p.add_argument("--all", action="store_true", help="include superseded (inactive) memories")

    p = command("list", commands.list_, "list memories, newest change first")
    filters(p)
    dates(p)
    p.add_argument("--kind", action="append", choices=rules.KINDS)
    p.add_argument("--status", default="active", choices=(*rules.STATUSES, "all"))
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument(
        "--order",
        default="-updated_at",
        help="a field such as created_at; prefix - for descending, written --order=-importance",
    )

    command("show", commands.show, "show one memory in full").add_argument("id")

    p = command("edit", commands.edit, "change a memory (the old state stays in its history)")
    p.add_argument("id")
    p.add_argument("--content", help="new text ('-' reads standard input)")
    # (it said "each is added", and a tryout lost a tag: the list given is the tags there are)
    fields(p, tags="repeatable; the memory's tags become exactly these")
    p.add_argument(
        "--expected-version",
        type=int,
        help="fail instead of overwriting if the memory changed since this version",
    )
    p.add_argument("--reason", help="why (kept in the history)")
    p.add_argument(
        "--visibility",
        choices=("shared", "private"),
        help="private: agents other than its writer never see it, and sync never sends it",
    )
    p.add_argument(
        "--correct",
        action="store_true",
        help="replace by a new memory; the old one turns inactive and is linked",
    )

    p = command("rm", commands.rm, "move a memory to the Trash (restorable)")
    p.add_argument("id")
    p.add_argument(
        "--purge",
        action="store_true",
        help="delete a memory that is already in the Trash, permanently",
    )

    command("restore", commands.restore, "bring a memory back from the Trash").add_argument("id")
    command("history", commands.history, "every version of a memory").add_argument("id")

    p = command("identity", commands.identity, "show or set the identity profile (L0, 1,000 chars)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--set", metavar="TEXT", help="replace the profile ('-' reads stdin)")
    group.add_argument("--file", help="replace the profile with a file's text")

    p = command(
        "export", commands.export, "export memories as JSON (complete) or Markdown (readable)"
    )
    p.add_argument("--format", choices=("json", "markdown"), default="json")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.add_argument("--layer", action="append", choices=rules.LAYERS)
    p.add_argument("--project")

    p = command("import", commands.import_, "import a JSON export (all or nothing)")
    p.add_argument("file")
    p.add_argument("--dry-run", action="store_true", help="only say what would change")

    command("stats", commands.stats, "counts by layer, kind, source, project and tag")
    p = command("check", commands.check, "check the database file and the search index")
    p.add_argument("--rebuild", action="store_true", help="rebuild the search index first")

    p = command(
        "backup",
        commands.backup,
        "back up the database now (daily backups are automatic; the newest 7 are kept)",
    )
    p.add_argument("--list", action="store_true", help="list the backups instead, newest first")
    p = command(
        "restore-backup",
        commands.restore_backup,
        "replace every memory with a backup's; the current state is backed up first",
    )
    p.add_argument("name", help="a backup's name (memdesk backup --list) or a backup file")
    p = command(
        "sync",
        commands.sync,
        "sync with your other machines or a team through git: `sync init REMOTE` sets a "
        "remote up (a bare repository path is made if absent; ssh and https work too), "
        "`sync` pulls, merges and pushes, `sync status` says how it went, `sync local "
        "PROJECT` keeps a project on this machine only, `sync remove NAME` stops syncing "
        "with a remote, `sync trust WRITER` confirms a writer met in your own remote as one "
        "of your machines (--yes for one that has not synced yet), `sync untrust WRITER` takes "
        "that back. Private and withheld memories never leave this machine; conflicts "
        "wait in the inbox",
    )
    p.add_argument(
        "action",
        nargs="?",
        choices=("init", "status", "local", "remove", "trust", "untrust"),
        help="what to do",
    )
    p.add_argument(
        "url",
        nargs="?",
        metavar="REMOTE|PROJECT|NAME|WRITER",
        help="init: the git remote; local: a project; remove: the remote's name; trust, "
        "untrust: a writer",
    )
    p.add_argument("--shared", action="store_true", help="with local: let the project sync again")
    p.add_argument(
        "--yes",
        action="store_true",
        help="with trust: trust a name that has not written to any remote yet",
    )
    p.add_argument("--branch", help="with init: the branch (default main)")
    p.add_argument(
        "--name",
        help="with init: the remote's name (default origin; once origin is taken, a team "
        "remote's one project); else which",
    )
    p.add_argument(
        "--project",
        action="append",
        dest="projects",
        help="with init: a team remote taking only this project (repeatable)",
    )
    p.add_argument(
        "--as",
        dest="writer",
        help="with init: who your memories are by (default user@host#xxxx; letters, digits, "
        "spaces and . @ + : / # ' _ - only)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="say what a sync would send, take, put in the Trash, ask and refuse; change nothing",
    )

    p = command(
        "hook",
        setup.hook,
        "agent hosts' session hooks: `hook EVENT` reads the hook's JSON on stdin (Claude "
        "Code's SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, "
        "PreCompact, SessionEnd; with --agent gemini-cli, codex or copilot-cli, that host's "
        "events, as `memdesk attach HOST` writes them); `hook install` writes Claude Code's "
        "into its settings after showing the diff",
        database,
    )
    p.add_argument("event", choices=(*HOOK_EVENTS, "install"))
    p.add_argument(
        "--agent",
        choices=sorted(HOST_EVENTS),
        help="the host running the hook: its protocol, and who its writes are by "
        "(default claude-code)",
    )
    p.add_argument(
        "--socket",
        help="the socket memdesk serves on (default: $MEMDESK_SOCKET, else derived from the "
        "database)",
    )
    p.add_argument("--project", action="store_true", help="install: .claude/settings.json here")
    p.add_argument("--yes", action="store_true", help="install: write without asking")
    p.add_argument(
        "--deny-forbidden",
        action="store_true",
        help="PreToolUse: have the agent host refuse a tool call one of your own rules forbids "
        "(the default reminds the agent of the rule)",
    )

    p = command(
        "ingest",
        commands.ingest,
        "read a finished session's transcript (Claude Code JSONL, or JSON/JSONL of "
        "{role, content}): store what the user stated, propose what is uncertain, archive a "
        "summary",
    )
    p.add_argument("file")
    p.add_argument("--agent", default="ingest", help="the agent the session belonged to")
    p.add_argument("--session", help="session id (default: the transcript's, or the file name)")
    p.add_argument("--project")

    p = command(
        "proposals", commands.proposals, "what session ends proposed; accept or dismiss one"
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument("--accept", type=int, metavar="N", help="store proposal N as a memory")
    group.add_argument("--dismiss", type=int, metavar="N", help="dismiss proposal N")
    group.add_argument("--all", action="store_true", help="also accepted and dismissed ones")

    p = command(
        "inbox",
        commands.inbox,
        "what waits for your decision (proposals, updates, merges, withheld writes); decide",
    )
    group = p.add_mutually_exclusive_group()
    keys = {"nargs": "+", "metavar": "KEY", "help": "item keys, as listed (memory:…, proposal:…)"}
    group.add_argument("--accept", **keys)
    group.add_argument("--reject", **keys)
    group.add_argument("--reconsider", **keys)
    group.add_argument("--find-duplicates", action="store_true", help="propose merges")
    group.add_argument("--rejected", action="store_true", help="list what was rejected")
    group.add_argument(
        "--ask",
        action="store_true",
        help="put each item to you in turn: keep, drop, edit, skip or quit (with --heard: "
        "only what you said)",
    )
    group.add_argument(
        "--reject-all", action="store_true", help="with --agent: reject every item of that agent"
    )
    p.add_argument("--agent", help="only this agent's items")
    p.add_argument(
        "--heard", action="store_true", help="only what a session end heard you say and proposed"
    )
    p.add_argument("--text", help="with --accept (one key): accept these words instead")
    p.add_argument("--reason", help="with --reject: why (kept with it)")
    p.add_argument("--project", help="with --find-duplicates: only this project")

    command(
        "agents",
        commands.agents,
        "the agents that opened sessions or wrote memories, last seen first",
    )
    p = command(
        "injections",
        commands.injections,
        "what memdesk gave each agent session (briefing, per prompt, before a tool call), "
        "newest first, each memory marked when a later tool call acted on it or went "
        "against it",
    )
    p.add_argument("--sessions", type=int, default=10, help="how many sessions (default 10)")

    socket_help = "socket path (default: $MEMDESK_SOCKET, else derived from the database)"
    p = command(
        "serve", setup.serve, "serve agents over the local socket, without a window", database
    )
    p.add_argument("--socket", help=socket_help)
    p = command(
        "mcp",
        setup.mcp,
        "run the MCP bridge on stdio (for agent hosts); starts `memdesk serve` if none runs",
        database,
        epilog="environment: MEMDESK_AGENT names the agent its writes are attributed to "
        "(default mcp); MEMDESK_DB and MEMDESK_SOCKET as --db and --socket",
    )
    p.add_argument("--socket", help=socket_help)
    for verb, handler, what in (
        ("attach", setup.attach, "write memdesk's MCP server into"),
        ("detach", setup.detach, "take memdesk's entries out of"),
    ):
        p = command(
            verb,
            handler,
            f"{what} an agent host's configuration (MCP; Claude Code, Gemini CLI, Codex and "
            "Copilot CLI also get their session hooks); shows the diff and asks; every other "
            "byte of the file is kept (with --json: written only with --yes, else listed)",
            common,
        )
        p.add_argument("host", choices=sorted(HOSTS), help="the agent host")
        p.add_argument("--project", action="store_true", help="this folder's file, not yours")
        p.add_argument("--yes", action="store_true", help="write without asking")
        p.add_argument(
            "--portable",
            action="store_true",
            help="for a file a team commits: `memdesk` from PATH on each person's default "
            "database, not this machine's absolute paths (detach: take that form out)",
        )
        if verb == "attach":
            p.add_argument(
                "--socket",
                help="the socket memdesk serves on, written into the host's entry and hooks "
                "(default: $MEMDESK_SOCKET, except with --portable)",
            )
    p = command(
        "desktop",
        setup.desktop,
        "`install`: put memdesk in the desktop's application menu (an XDG desktop entry and "
        "its icon); `remove` takes it out",
    )
    p.add_argument("action", choices=("install", "remove"))
    p = command(
        "service",
        setup.service,
        "`install`: run `memdesk serve` at every login (a systemd user unit, else an XDG "
        "autostart entry), so agents never wait for it; `remove` undoes that",
        common,
    )
    p.add_argument("action", choices=("install", "remove"))
    command(
        "doctor",
        setup.doctor,
        "is memdesk there for agents: who serves the database, whether Claude Code's hooks "
        "point at an existing command and this database, which hook runs failed lately "
        "(exit 1 when anything is wrong)",
        common,
    )
    shtab.add_argument_to(parser, ["--print-completion"], help="print a shell completion script")
    return parser
