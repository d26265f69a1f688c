"""`memdesk doctor`: is memdesk there for the agents? Qt-free; reads, never changes anything.

For the database: whether a memdesk serves it. For each Claude Code settings file (the user's
and this folder's): whether memdesk's hooks point at a command that exists and at this
database; the same for memdesk's MCP entry of every agent host it is attached to (`attach`).
Then the hook runs that failed lately, with their reasons (`hook_failures`), and how the last
sync with each remote went. A problem is a line starting with "!"; the exit code is 0 only
when there is none.
"""

from __future__ import annotations

import os
import re
import shlex
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from memdesk import paths
from memdesk.api import attach, hook_failures, hook_settings, json_text, naming, opencode_plugin
from memdesk.api.client import Client, MemdeskError
from memdesk.api.hooks import ALL_EVENTS
from memdesk.core.sync import config as sync_config

RECENT_S = 24 * 3600  # failures older than a day are history, not a problem


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    problems: int = 0
    entries: int = 0  # files found holding memdesk's hooks or MCP entry

    def ok(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"! {text}")
        self.problems += 1


def examine(db: Path, cwd: Path | None = None, *, serving: bool = True) -> Report:
    """Every check; `serving=False` for the window, which serves the database itself (asking
    its own socket from its GUI thread would wait on itself) and is used without agents too
    (no host set up is not a problem there). A file that cannot be read is a problem found,
    never a crash of the doctor."""
    report = Report()
    here = cwd or Path.cwd()
    checks: list[tuple[str, Any]] = [(str(db), lambda: _database(db, report))]
    if serving:
        checks.append((str(db), lambda: _serving(db, report)))
    hook_files: set[Path] = set()
    for host, spec in attach.HOSTS.items():
        # In the home folder, the project's file is the person's own: checked once.
        places = {spec.path(p, here, Path.home()): p for p in (False, True)}
        for path in sorted(places):
            checks.append((str(path), lambda h=host, p=path: _mcp(h, p, db, here, report)))
            hooks = attach.hooks_file(host, path, places[path], here, Path.home())
            if hooks is not None and hooks not in hook_files:
                hook_files.add(hooks)
                checks.append((str(hooks), lambda h=host, p=hooks: _hooks(h, p, db, here, report)))
    if serving:
        checks.append(("the agent hosts", lambda: _any_host(report)))
    checks.append(("the hook failure notes", lambda: _failures(db, report)))
    checks.append(("the sync set-up", lambda: _sync(db, report)))
    for what, check in checks:
        try:
            check()
        except OSError as exc:
            report.bad(f"{what} could not be read: {paths.describe(exc)}")
    return report


def _any_host(report: Report) -> None:
    """Nothing set up anywhere read "all is well" while no agent would ever use memdesk."""
    if not report.entries:
        report.bad(
            "no agent host is set up to use memdesk here or in your home folder: run "
            "`memdesk hook install` (Claude Code) or `memdesk attach HOST`"
        )


def _database(db: Path, report: Report) -> None:
    """The database path itself: a folder, or a file that is not SQLite, fails every
    session while the rest of the set-up looks right."""
    if db.is_dir():
        report.bad(
            f"{db} is a folder, not a database file; every agent session fails: give memdesk "
            "a file path (--db FILE, or MEMDESK_DB)"
        )
    elif db.exists() and not _is_sqlite(db):
        report.bad(
            f"{db} is not a memdesk database (not SQLite); every agent session fails: "
            "move it away, or give memdesk another --db"
        )
    elif not db.parent.is_dir() and any(p.exists() and not p.is_dir() for p in db.parents):
        report.bad(f"{db} lies under a file, not a folder; memdesk cannot make it there")


def _is_sqlite(db: Path) -> bool:
    """Asked of SQLite, never read here as a plain file: the window runs this check on its
    own open database, and closing a descriptor of it would drop SQLite's locks on it."""
    if not db.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as peek:
            peek.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError:
        return False
    return True


def _serving(db: Path, report: Report) -> None:
    socket = naming.socket_path(db)
    try:
        with Client(socket_path=socket, agent="doctor", timeout=3.0) as client:
            client.call("system.ping")
        report.ok(f"memdesk serves {db} (socket {socket})")
    except (MemdeskError, OSError):
        where = "exists" if db.exists() else "does not exist yet"
        report.ok(
            f"no memdesk serves {db} now ({where}); the first agent session starts one, or "
            "run `memdesk` / `memdesk serve`"
        )


def _hooks(host: str, path: Path, db: Path, cwd: Path, report: Report) -> None:
    try:
        text = paths.read_config(path)
        if text is None:
            return
        settings = json_text.parse(text).value
    except (OSError, ValueError) as exc:
        report.bad(f"{path} cannot be read ({exc}); {host} will not run memdesk's hooks")
        return
    commands = _memdesk_commands(settings)
    for plugin, event, line in opencode_plugin.commands(settings):
        if not Path(url2pathname(urlparse(plugin).path)).is_file():
            report.bad(
                f"{path}: opencode's memdesk plugin {plugin} is not there (memdesk moved or "
                f"was uninstalled); run `memdesk attach {host}` again"
            )
        commands.append((event, line))
    if not commands:
        return
    found = [(event, _split(command)) for event, command in commands]
    again = "memdesk hook install" if host == "claude-code" else f"memdesk attach {host}"
    _judge(path, "hooks", [words for _, words in found], db, cwd, again, report)
    if host == "codex":
        _codex_trust(path, [event for event, _ in found], report)


def _codex_trust(hooks: Path, events: list[str], report: Report) -> None:
    """Codex runs a hook only once the person trusted it (its /hooks screen writes
    `[hooks.state."<hooks.json>:<event>:…"]` into config.toml); untrusted, it skips it
    without a word."""
    import tomllib

    from memdesk.api import toml_text

    config = hooks.with_name("config.toml")
    try:
        state = toml_text.loads(paths.read_config(config) or "").get("hooks", {}).get("state", {})
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        state = {}
    trusted = {key.rsplit(":", 3)[1] for key in state if key.startswith(f"{hooks}:")}
    untrusted = [e for e in events if re.sub(r"(?<!^)([A-Z])", r"_\1", e).lower() not in trusted]
    if untrusted:
        report.bad(
            f"{hooks}: Codex has not been told to trust memdesk's hooks "
            f"({', '.join(sorted(set(untrusted)))}), so it runs none of them: open Codex, "
            "go to /hooks and trust them"
        )


def _mcp(host: str, path: Path, db: Path, cwd: Path, report: Report) -> None:
    if not path.exists():
        return
    try:
        servers = attach.attached_servers(host, path)
    except ValueError as exc:
        report.bad(f"{host} cannot use memdesk: {exc}")
        return
    if servers:
        what = f"{host}'s memdesk MCP server"
        _judge(path, what, list(servers.values()), db, cwd, f"memdesk attach {host}", report)


def _judge(
    path: Path,
    what: str,
    commands: list[list[str]],
    db: Path,
    cwd: Path,
    again: str,
    report: Report,
) -> None:
    """One line for a file's memdesk entries: all is well, what is wrong with them, or (a
    project's file naming its own database, as `attach --project --db` writes) deliberate."""
    report.entries += 1
    project = path.is_relative_to(cwd) and cwd != Path.home()
    fix = f"run `{again}{' --project' if project else ''}` again"
    wrongs = {w for w in (_wrong_program(words, fix) for words in commands) if w}
    if wrongs:
        for wrong in sorted(wrongs):
            report.bad(f"{path}: {what} {wrong}")
        return
    targets = {_database_of(words) for words in commands}
    other = {t for t in targets if t is not None and Path(t).expanduser().resolve() != db}
    if not other:
        target = next((t for t in targets if t), None)
        doing = "run memdesk" if what == "hooks" else "runs"
        report.ok(f"{path}: {what} {doing} {commands[0][0]}" + (f" on {target}" if target else ""))
        return
    if project and len(targets) == 1:
        (target,) = other
        report.ok(
            f"{path}: this project's {what} use the database {target} (as `attach --project "
            f"--db` writes); `memdesk doctor --db {target}` checks that one"
        )
        return
    report.bad(
        f"{path}: {what} use{'s' if len(commands) == 1 else ''} the database "
        f"{', '.join(sorted(other))}, not {db}: {fix} (or pass that --db to doctor)"
    )


def _wrong_program(words: list[str], fix: str) -> str | None:
    """What is wrong with the program a command line memdesk wrote runs, or None."""
    program = words[0] if words else ""
    if not (os.path.isabs(program) and os.access(program, os.X_OK)):
        return f"runs {program!r}, which is not an executable file by absolute path; {fix}"
    if not _is_memdesk(words):
        return f"runs {program}, which is not memdesk; {fix}"
    if words[1:3] == ["-m", "memdesk"]:
        return (
            f"runs `{program} -m memdesk` without -P: run in a repository that holds a "
            f"`memdesk` folder, that folder is what runs; {fix}"
        )
    return None


def _is_memdesk(words: list[str]) -> bool:
    """The program is memdesk: `python -m memdesk`, a script that loads memdesk, or
    memdesk's own executable (read, never run: the window checks this on a timer)."""
    if words[1:3] == ["-m", "memdesk"] or words[1:4] == ["-P", "-m", "memdesk"]:
        return True
    try:
        head = paths.read_file_start(words[0], 8192)
    except (OSError, paths.NotAFile):
        return False
    if head.startswith(b"#!"):
        return b"memdesk" in head
    return "memdesk" in Path(words[0]).name.lower()


def _database_of(words: list[str]) -> str | None:
    return words[words.index("--db") + 1] if "--db" in words[:-1] else None


def _memdesk_commands(settings: Any) -> list[tuple[str, str]]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    found = []
    for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            flat = isinstance(group, dict) and "hooks" not in group  # Cursor's entries
            for hook in (
                ([group] if flat else group.get("hooks", [])) if isinstance(group, dict) else ()
            ):
                command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
                if hook_settings.MARK in command or _hook_shaped(command):
                    found.append((str(event), command))
    return found


def _hook_shaped(command: str) -> bool:
    """`PROGRAM hook EVENT …`: memdesk's hook line, even once its program was changed."""
    words = _split(command)
    return any(a == "hook" and b in ALL_EVENTS for a, b in zip(words, words[1:], strict=False))


def _split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return []


def _failures(db: Path, report: Report) -> None:
    failures = hook_failures.recent(db)
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - RECENT_S))
    lately = [f for f in failures if f["at"] >= since]
    if not lately:
        report.ok("no hook failed in the last 24 hours")
        return
    last = lately[-1]
    report.bad(
        f"{len(lately)} hook run(s) failed in the last 24 hours; the last, {last['event']} at "
        f"{last['at']}: {last['why']}"
    )


def _sync(db: Path, report: Report) -> None:
    for remote in sync_config.load(db).remotes:
        last = sync_config.last_result(db, remote)
        if last is None:
            report.ok(f"sync with {remote.name} ({remote.url}) is set up; not synced yet")
        elif last["ok"]:
            report.ok(f"synced with {remote.name} at {last['at']}")
        else:
            report.bad(
                f"the last sync with {remote.name} ({remote.url}), at {last['at']}, failed: "
                f"{last['error']}"
            )
