"""Writing memdesk's hooks into a host's settings file (Claude Code's settings.json, Gemini
CLI's settings.json), keeping every other byte of it."""

from __future__ import annotations

import difflib
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from memdesk import paths
from memdesk.api import json_text, opencode_plugin
from memdesk.api.hooks import AGENT_FLAG, DENY_FLAG, HOST_EVENTS, SOCKET_FLAG

ACTION_TOOLS = "Bash|Edit|Write|MultiEdit|NotebookEdit"
GEMINI_ACTION_TOOLS = "run_shell_command|write_file|replace"
CODEX_ACTION_TOOLS = "Bash|apply_patch"  # its shell reaches hooks as "Bash"
CURSOR_ACTION_TOOLS = "Shell|Write|Edit|Delete"
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
    # -P: hooks run in the agent's repository, which may hold a `memdesk` package.
    return f"{shlex.quote(sys.executable)} -P -m memdesk"


def hook_command(
    event: str,
    command: str,
    db: str | os.PathLike[str] | None,
    deny: bool = False,
    host: str = "claude-code",
    socket: str | None = None,
) -> str:
    where = f" --db {shlex.quote(str(Path(db).expanduser().resolve()))}" if db else ""
    if socket:
        where += f" {SOCKET_FLAG} {shlex.quote(socket)}"
    if host != "claude-code":
        where = f" {AGENT_FLAG} {host}{where}"
    if deny and HOST_EVENTS[host].get(event) == "PreToolUse":
        where += f" {DENY_FLAG}"
    return f"{command} hook {event}{where}"


def hook_entry(
    event: str,
    command: str,
    db: str | os.PathLike[str] | None,
    deny: bool = False,
    host: str = "claude-code",
    socket: str | None = None,
) -> dict[str, Any]:
    """memdesk's group for `event` in the host's settings file."""
    line = hook_command(event, command, db, deny, host, socket)
    if host == "cursor":  # flat entries; its matcher is a regex of tool names
        flat: dict[str, Any] = {"command": line, "timeout": 30}
        return {**flat, "matcher": CURSOR_ACTION_TOOLS} if event == "preToolUse" else flat
    if host == "gemini-cli":  # its timeouts are in milliseconds; a name shows in its logs
        hook = {"name": "memdesk", "type": "command", "command": line, "timeout": 30_000}
        entry: dict[str, Any] = {"hooks": [hook]}
        if event == "BeforeTool":
            entry = {"matcher": GEMINI_ACTION_TOOLS, **entry}
        return entry
    # Codex cuts a SessionEnd hook at 3 s whatever it is given (and warns at each run).
    seconds = 3 if host == "codex" and event == "SessionEnd" else 30
    entry = {"hooks": [{"type": "command", "command": line, "timeout": seconds}]}
    if event.startswith("PostToolUse"):
        entry = {"matcher": "*", **entry}
    if event == "PreToolUse":  # the calls a standing rule can be about
        entry = {"matcher": CODEX_ACTION_TOOLS if host == "codex" else ACTION_TOOLS, **entry}
    return entry


def host_events(host: str, deny: bool) -> list[str]:
    """The events memdesk hooks on `host`: Gemini CLI's and Copilot CLI's before-tool hook
    only to refuse (they cannot carry a reminder)."""
    events = list(HOST_EVENTS[host])
    before_tool = {
        "gemini-cli": "BeforeTool",
        "copilot-cli": "PreToolUse",
        "cursor": "preToolUse",
    }.get(host)
    if before_tool and not deny:
        events.remove(before_tool)
    return events


def with_hooks(
    text: str | None,
    command: str = "memdesk",
    db: str | os.PathLike[str] | None = None,
    deny: bool = False,
    host: str = "claude-code",
    socket: str | None = None,
) -> str:
    """The settings file's text (None: no file yet) with one memdesk hook per event of
    `host` (on the database `db`, and the `socket` it is served on, when given), every other
    byte as it was. With `deny`, a
    tool call one of the person's rules forbids is refused (the default reminds the agent of
    the rule, where the host can carry it). opencode's hooks are a plugin it loads."""
    if host == "opencode":
        return opencode_plugin.with_plugin(text, command, db, deny, socket)
    entries = {e: hook_entry(e, command, db, deny, host, socket) for e in host_events(host, deny)}
    if text is None:
        head = {"version": 1} if host == "cursor" else {}  # Cursor requires its version
        return json_text.new_file({**head, "hooks": {e: [g] for e, g in entries.items()}})
    document = _document(text)
    if "hooks" not in document:
        return json_text.put(text, (), "hooks", {e: [g] for e, g in entries.items()}, made=True)
    hooks = document["hooks"]
    # (a null too: filled in, detach could not give back the null it replaced)
    if not isinstance(hooks, dict):
        raise ValueError('the settings file\'s "hooks" is not an object; fix it by hand first')
    for event, entry in entries.items():
        if event not in hooks:
            text = json_text.put(text, ("hooks",), event, [entry], made=True)
            continue
        groups = hooks[event]
        if not isinstance(groups, list):
            raise ValueError(f'the settings file\'s hooks "{event}" is not a list; fix it by hand')
        ours = [i for i, group in enumerate(groups) if _is_ours(group)]
        if not ours:
            text = json_text.append(text, ("hooks", event), entry)
            continue
        for extra in reversed(ours[1:]):
            text = json_text.remove(text, ("hooks", event), extra)
        if groups[ours[0]] != entry:
            text = json_text.replace(text, ("hooks", event), ours[0], entry)
    return text


def without_hooks(text: str) -> str:
    """The settings file's text with memdesk's hooks (and the lists and object memdesk made
    for them) taken out, every other byte as it was."""
    text = opencode_plugin.without_plugin(text)
    hooks = _document(text).get("hooks")
    if not isinstance(hooks, dict):
        return text
    for event, groups in hooks.items():
        for index in reversed(range(len(groups) if isinstance(groups, list) else 0)):
            if _is_ours(groups[index]):
                text = json_text.remove(text, ("hooks", event), index)
    return text


def _is_ours(group: Any) -> bool:
    if not isinstance(group, dict):
        return False
    hooks = group.get("hooks")
    if not isinstance(hooks, list):  # Cursor's entries are flat
        return MARK in str(group.get("command", ""))
    return any(isinstance(h, dict) and MARK in str(h.get("command", "")) for h in hooks)


def _document(text: str) -> dict[str, Any]:
    document = json_text.parse(text).value
    if not isinstance(document, dict):
        raise ValueError("the settings file does not hold a JSON object; fix it by hand first")
    return document


def mcp_snippet(command: str, db: str | os.PathLike[str] | None, socket: str | None = None) -> str:
    """How to attach memdesk's MCP server to Claude Code, on the same database (and socket)
    as the hooks."""
    where = f" --db {shlex.quote(str(Path(db).expanduser().resolve()))}" if db else ""
    if socket:
        where += f" --socket {shlex.quote(socket)}"
    return f"claude mcp add memdesk -- {command} mcp{where}"


def plan(
    path: Path,
    command: str = "memdesk",
    db: str | os.PathLike[str] | None = None,
    deny: bool = False,
    socket: str | None = None,
) -> tuple[str, str]:
    """(new text, unified diff) for installing the hooks into the file at `path`."""
    old = paths.read_config(path)
    try:
        new = with_hooks(old, command, db, deny, socket=socket)
    except ValueError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); fix it by hand first") from None
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=str(path),
            tofile=str(path),
        )
    )
    return new, diff
