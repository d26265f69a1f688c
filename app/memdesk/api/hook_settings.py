"""Writing memdesk's hooks into a Claude Code settings file, keeping everything else in it."""

from __future__ import annotations

import copy
import difflib
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from memdesk.api.hooks import DENY_FLAG, EVENTS

ACTION_TOOLS = "Bash|Edit|Write|MultiEdit|NotebookEdit"
MARK = "memdesk hook"  # how memdesk recognises its own entries (to update, never duplicate)


def settings_path(project: bool, cwd: Path | None = None) -> Path:
    """The user's settings (~/.claude/settings.json) or the project's (.claude/settings.json)."""
    base = (cwd or Path.cwd()) if project else Path.home()
    return base / ".claude" / "settings.json"


def memdesk_command() -> str:
    """This memdesk, by absolute path: an agent host runs hooks without the person's virtual
    environment on PATH (a bare `memdesk` exits 127 there)."""
    script = Path(sys.executable).with_name("memdesk" + (".exe" if os.name == "nt" else ""))
    if script.exists():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m memdesk"


def hook_command(
    event: str, command: str, db: str | os.PathLike[str] | None, deny: bool = False
) -> str:
    where = f" --db {shlex.quote(str(Path(db).expanduser().resolve()))}" if db else ""
    if deny and event == "PreToolUse":
        where += f" {DENY_FLAG}"
    return f"{command} hook {event}{where}"


def with_hooks(
    settings: dict[str, Any],
    command: str = "memdesk",
    db: str | os.PathLike[str] | None = None,
    deny: bool = False,
) -> dict[str, Any]:
    """`settings` with one memdesk hook per event (on the database `db`, when given); other
    hooks are left as they are. With `deny`, a tool call one of the person's rules forbids is
    refused (the default reminds the agent of the rule)."""
    out = copy.deepcopy(settings)
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError('the settings file\'s "hooks" is not an object; fix it by hand first')
    for event in EVENTS:
        groups = [
            group
            for group in hooks.get(event, [])
            if not any(MARK in str(h.get("command", "")) for h in group.get("hooks", []))
        ]
        entry: dict[str, Any] = {
            "hooks": [
                {
                    "type": "command",
                    "command": hook_command(event, command, db, deny),
                    "timeout": 30,
                }
            ]
        }
        if event.startswith("PostToolUse"):
            entry = {"matcher": "*", **entry}
        if event == "PreToolUse":  # the calls a standing rule can be about
            entry = {"matcher": ACTION_TOOLS, **entry}
        hooks[event] = [*groups, entry]
    return out


def mcp_snippet(command: str, db: str | os.PathLike[str] | None) -> str:
    """How to attach memdesk's MCP server to Claude Code, on the same database as the hooks."""
    where = f" --db {shlex.quote(str(Path(db).expanduser().resolve()))}" if db else ""
    return f"claude mcp add memdesk -- {command} mcp{where}"


def plan(
    path: Path,
    command: str = "memdesk",
    db: str | os.PathLike[str] | None = None,
    deny: bool = False,
) -> tuple[str, str]:
    """(new text, unified diff) for installing the hooks into the file at `path`."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        current = json.loads(old) if old.strip() else {}
    except ValueError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); fix it by hand first") from None
    if not isinstance(current, dict):
        raise ValueError(f"{path} does not hold a JSON object; fix it by hand first")
    new = json.dumps(with_hooks(current, command, db, deny), indent=2, ensure_ascii=False) + "\n"
    diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=str(path),
            tofile=str(path),
        )
    )
    return new, diff
