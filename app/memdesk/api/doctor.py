"""`memdesk doctor`: is memdesk there for the agents? Qt-free; reads, never changes anything.

For the database: whether a memdesk serves it. For each Claude Code settings file (the user's
and this folder's): whether memdesk's hooks point at a command that exists and at this
database; the same for memdesk's MCP entry of every agent host it is attached to (`attach`).
Then the hook runs that failed lately, with their reasons (`hook_failures`), and how the last
sync with each remote went. A problem is a line starting with "!"; the exit code is 0 only
when there is none.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memdesk.api import attach, hook_failures, hook_settings, naming
from memdesk.api.client import Client, MemdeskError
from memdesk.core.sync import config as sync_config

RECENT_S = 24 * 3600  # failures older than a day are history, not a problem


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    problems: int = 0

    def ok(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"! {text}")
        self.problems += 1


def examine(db: Path, cwd: Path | None = None, *, serving: bool = True) -> Report:
    """Every check; `serving=False` for the window, which serves the database itself (asking
    its own socket from its GUI thread would wait on itself)."""
    report = Report()
    if serving:
        _serving(db, report)
    files = {hook_settings.settings_path(project, cwd) for project in (False, True)}
    for path in sorted(files):
        _hooks(path, db, report)
    for host, spec in attach.HOSTS.items():
        # In the home folder, the project's file is the person's own: checked once.
        for path in sorted({spec.path(p, cwd or Path.cwd(), Path.home()) for p in (False, True)}):
            if path.exists():
                _mcp(host, path, db, report)
    _failures(db, report)
    _sync(db, report)
    return report


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


def _hooks(path: Path, db: Path, report: Report) -> None:
    try:
        settings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError) as exc:
        report.bad(f"{path} cannot be read ({exc}); Claude Code will not run memdesk's hooks")
        return
    commands = _memdesk_commands(settings)
    if not commands:
        report.ok(f"{path}: no memdesk hooks")
        return
    for event, command in commands:
        words = _split(command)
        wrong, target = _wrong_with(words, db, "run `memdesk hook install` again")
        if wrong:
            report.bad(f"{path}: the {event} hook {wrong}")
            continue
        report.ok(f"{path}: {event} runs {words[0]}" + (f" on {target}" if target else ""))


def _mcp(host: str, path: Path, db: Path, report: Report) -> None:
    try:
        servers = attach.attached_servers(host, path)
    except ValueError as exc:
        report.bad(f"{host} cannot read {exc}")
        return
    for name, words in servers.items():
        wrong, target = _wrong_with(words, db, f"run `memdesk attach {host}` again")
        if wrong:
            called = "" if name == attach.NAME else f' (named "{name}")'
            report.bad(f"{path}: {host}'s memdesk MCP server{called} {wrong}")
            continue
        report.ok(f"{path}: {host} runs memdesk's MCP server" + (f" on {target}" if target else ""))


def _wrong_with(words: list[str], db: Path, fix: str) -> tuple[str | None, str | None]:
    """(what is wrong with a command line memdesk wrote, or None; the database it names)."""
    program = words[0] if words else ""
    if not (os.path.isabs(program) and os.access(program, os.X_OK)):
        return f"runs {program!r}, which is not an executable file by absolute path; {fix}", None
    target = words[words.index("--db") + 1] if "--db" in words[:-1] else None
    if target is not None and Path(target).expanduser().resolve() != db:
        return f"uses the database {target}, not {db}", target
    return None, target


def _memdesk_commands(settings: Any) -> list[tuple[str, str]]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    found = []
    for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            for hook in group.get("hooks", []) if isinstance(group, dict) else ():
                command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
                if hook_settings.MARK in command:
                    found.append((str(event), command))
    return found


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
