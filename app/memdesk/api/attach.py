"""`memdesk attach HOST` / `detach HOST`: memdesk's MCP server (and, for Claude Code, its
hooks) written into an agent host's own configuration, keeping every other entry there.

Each host keeps its MCP servers in its own file and shape (from each host's documentation):

| host        | user file                        | project file          | shape                |
|-------------|----------------------------------|-----------------------|----------------------|
| claude-code | ~/.claude.json                   | .mcp.json             | mcpServers.NAME      |
| cursor      | ~/.cursor/mcp.json               | .cursor/mcp.json      | mcpServers.NAME      |
| gemini-cli  | ~/.gemini/settings.json          | .gemini/settings.json | mcpServers.NAME      |
| codex       | ~/.codex/config.toml             | .codex/config.toml    | [mcp_servers.NAME]   |
| opencode    | ~/.config/opencode/opencode.json | opencode.json         | mcp.NAME, "local"    |

Claude Code also gets its hooks (session start, prompt, tool calls, end) in its settings.json:
memdesk reads Claude Code's hook payloads only; the other hosts get the MCP tools. Attaching
twice changes nothing; detaching removes memdesk's entry (and the file, when only memdesk's
entry was in it), nothing else. Qt-free, no rules: planning is pure, the command writes.
"""

from __future__ import annotations

import difflib
import json
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memdesk.api import hook_settings

NAME = "memdesk"  # the server's key in every host's file


@dataclass(frozen=True)
class Host:
    name: str
    user_file: str  # relative to the home folder
    project_file: str  # relative to the project folder
    container: tuple[str, ...]  # where the servers live in the document
    entry: Callable[[list[str], dict[str, str]], dict[str, Any]]  # (argv, env) -> its shape

    def path(self, project: bool, cwd: Path, home: Path) -> Path:
        return (cwd / self.project_file) if project else (home / self.user_file)


def _command_args(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    return {"command": argv[0], "args": argv[1:], "env": env}


def _opencode(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    return {"type": "local", "command": argv, "enabled": True, "environment": env}


HOSTS = {
    host.name: host
    for host in (
        Host("claude-code", ".claude.json", ".mcp.json", ("mcpServers",), _command_args),
        Host("cursor", ".cursor/mcp.json", ".cursor/mcp.json", ("mcpServers",), _command_args),
        Host(
            "gemini-cli",
            ".gemini/settings.json",
            ".gemini/settings.json",
            ("mcpServers",),
            _command_args,
        ),
        Host("codex", ".codex/config.toml", ".codex/config.toml", ("mcp_servers",), _command_args),
        Host(
            "opencode",
            ".config/opencode/opencode.json",
            "opencode.json",
            ("mcp",),
            _opencode,
        ),
    )
}


@dataclass(frozen=True)
class Change:
    """One file's new text (None: delete it) and the diff a person confirms."""

    path: Path
    new: str | None
    diff: str
    old: str | None = None  # the text the diff was made from; None: no file then


def plan_attach(
    host: str,
    *,
    project: bool,
    db: str | os.PathLike[str] | None,
    cwd: Path,
    home: Path,
    command: str | None = None,
) -> list[Change]:
    """The changes that attach memdesk to `host` (empty when it already is, exactly so)."""
    spec = HOSTS[host]
    argv = [*shlex.split(command or hook_settings.memdesk_command()), "mcp"]
    if db is not None:
        argv += ["--db", str(Path(db).expanduser().resolve())]
    entry = spec.entry(argv, {"MEMDESK_AGENT": host})
    path = spec.path(project, cwd, home)
    document = _read(path)
    _container(document, spec.container, create=True)[NAME] = entry
    changes = [_change(path, document)]
    if host == "claude-code":
        settings = (cwd if project else home) / ".claude" / "settings.json"
        hooks = hook_settings.with_hooks(
            _read(settings), command or hook_settings.memdesk_command(), db
        )
        changes.append(_change(settings, hooks))
    return [c for c in changes if c.diff]


def plan_detach(host: str, *, project: bool, cwd: Path, home: Path) -> list[Change]:
    """The changes that take memdesk out of `host` again (empty when it is not there)."""
    spec = HOSTS[host]
    path = spec.path(project, cwd, home)
    changes = []
    if path.exists():
        document = _read(path)
        servers = _container(document, spec.container, create=False)
        if servers is not None and NAME in servers and _is_ours(servers[NAME]):
            del servers[NAME]
            changes.append(_change(path, document))
    if host == "claude-code":
        settings = (cwd if project else home) / ".claude" / "settings.json"
        current = _read(settings) if settings.exists() else {}
        if (kept := _without_hooks(current)) != current:
            changes.append(_change(settings, kept))
    return [c for c in changes if c.diff]


def attached_command(host: str, path: Path) -> list[str] | None:
    """The command line memdesk's entry in `path` runs for `host` (None: no entry of ours)."""
    try:
        servers = _container(_read(path), HOSTS[host].container, create=False)
    except (OSError, ValueError):
        return None
    entry = servers.get(NAME) if servers is not None else None
    if not _is_ours(entry):
        return None
    command = entry["command"]
    return [
        str(w)
        for w in (command if isinstance(command, list) else [command, *entry.get("args", [])])
    ]


def apply(changes: list[Change]) -> None:
    """Write every file of one attach or detach, or none: each is checked first (not a
    symlink, the person's own, unchanged since its diff was shown), written beside itself,
    synced, and only then renamed over it. Raises ValueError saying what stopped it."""
    for change in changes:
        _check_writable(change)
    staged: list[tuple[Change, Path | None]] = []
    try:
        for change in changes:
            staged.append((change, _staged(change) if change.new is not None else None))
    except OSError as exc:
        for _, temp in staged:
            if temp is not None:
                temp.unlink(missing_ok=True)
        raise ValueError(
            f"could not write {exc.filename or 'a file'}: {exc.strerror}; nothing was changed"
        ) from None
    for change, temp in staged:
        if temp is None:
            change.path.unlink()
        else:
            os.replace(temp, change.path)


def _check_writable(change: Change) -> None:
    path = change.path
    if path.is_symlink():
        raise ValueError(
            f"{path} is a symbolic link; memdesk writes only a host's own file (edit the file "
            "it points to by hand, or replace the link with the file)"
        )
    if path.exists() and path.stat().st_uid != os.getuid():
        raise ValueError(f"{path} belongs to another user; memdesk does not write it")
    now = path.read_text(encoding="utf-8") if path.exists() else None
    if now != change.old:
        raise ValueError(f"{path} changed since its diff was shown; nothing was written, run again")


def _staged(change: Change) -> Path:
    """The new text in a file beside the target (same folder: the rename is atomic), synced,
    with the target's permissions."""
    path = change.path
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.memdesk-{os.getpid()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(change.new or "")
        out.flush()
        os.fsync(out.fileno())
    if path.exists():
        os.chmod(temp, path.stat().st_mode & 0o7777)
    return temp


def _read(path: Path) -> Any:
    """The file's document: a TOML document that keeps its comments and layout, or JSON."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if path.suffix == ".toml":
        import tomlkit  # here, not above: the `memdesk` command's start stays light

        try:
            return tomlkit.parse(text)
        except tomlkit.exceptions.ParseError as exc:
            raise ValueError(f"{path} is not valid TOML ({exc}); fix it by hand first") from None
    try:
        document = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise ValueError(
            f"{path} is not plain JSON ({exc}); memdesk does not rewrite a file with comments "
            "(JSONC): add the memdesk entry by hand, or remove the comments first"
        ) from None
    if not isinstance(document, dict):
        raise ValueError(f"{path} does not hold a JSON object; fix it by hand first")
    return document


def _container(document: Any, keys: tuple[str, ...], *, create: bool) -> Any:
    toml = _is_toml(document)
    node = document
    for key in keys:
        if key not in node:
            if not create:
                return None
            # A TOML container of tables gets no header of its own: [mcp_servers.memdesk].
            node[key] = _super_table() if toml else {}
        node = node[key]
        if not isinstance(node, dict):
            raise ValueError(f'"{key}" in the host\'s file is not a table/object; fix it by hand')
    return node


def _is_ours(entry: Any) -> bool:
    """An entry memdesk wrote: it runs `… mcp` of a memdesk command (never another server a
    person named "memdesk")."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    argv = command if isinstance(command, list) else [command, *entry.get("args", [])]
    words = [str(w) for w in argv if w is not None]
    return "mcp" in words and any("memdesk" in w for w in words)


def _without_hooks(settings: dict[str, Any]) -> dict[str, Any]:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return settings
    out = {**settings, "hooks": {}}
    for event, groups in hooks.items():
        kept = [
            group
            for group in groups
            if not any(
                hook_settings.MARK in str(h.get("command", "")) for h in group.get("hooks", [])
            )
        ]
        if kept:
            out["hooks"][event] = kept
    if not out["hooks"]:
        del out["hooks"]
    return out


def _change(path: Path, document: Any) -> Change:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if _is_toml(document):
        # tomlkit leaves the blank line before a removed table behind: one newline ends it.
        new: str | None = document.as_string().rstrip("\n") + "\n"
    else:
        new = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if path.exists() and _hollow(document):
        new = None  # nothing but memdesk's emptied container: memdesk made it, and takes it away
    diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            fromfile=str(path),
            tofile=str(path) if new is not None else "/dev/null",
        )
    )
    return Change(path, new, diff, old if path.exists() else None)


def _is_toml(document: Any) -> bool:
    return type(document).__name__ == "TOMLDocument"


def _super_table() -> Any:
    import tomlkit

    return tomlkit.table(is_super_table=True)


def _hollow(node: Any) -> bool:
    """Nothing in it but empty objects or tables."""
    return isinstance(node, dict) and all(_hollow(value) for value in node.values())
