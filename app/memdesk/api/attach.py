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
| copilot-cli | ~/.copilot/mcp-config.json       | .github/mcp.json      | mcpServers.NAME      |

Claude Code also gets its hooks (session start, prompt, tool calls, end) in its settings.json,
Gemini CLI in the same settings.json as its servers (`memdesk hook EVENT --agent
gemini-cli`), Codex in the hooks.json beside its config.toml, Copilot CLI in
~/.copilot/settings.json (.github/copilot/settings.json for a project), opencode as a plugin
listed in its opencode.json (api/opencode_plugin.py), Cursor in the hooks.json beside its
mcp.json. Attaching
twice changes nothing; detaching removes memdesk's entry (and the file, when only memdesk's
entry was in it), nothing else. Qt-free, no rules: planning is pure, the command writes.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import shlex
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memdesk import paths
from memdesk.api import hook_settings, json_text, toml_text

NAME = "memdesk"  # the server's key in every host's file
# A project file meant to be committed names no one's paths: `memdesk` as each person's PATH
# finds it, on each person's default database.
PORTABLE = "memdesk"


@dataclass(frozen=True)
class Host:
    name: str
    user_file: str  # relative to the home folder
    project_file: str  # relative to the project folder
    container: tuple[str, ...]  # where the servers live in the document
    entry: Callable[[list[str], dict[str, str]], dict[str, Any]]  # (argv, env) -> its shape
    project_first: str = ""  # what the host asks before it loads a project's file
    user_first: str = ""  # what it asks before it runs what the person's own file holds

    def first(self, project: bool) -> str:
        """What the person does in the host before memdesk's entry takes effect."""
        return self.project_first if project else self.user_first

    def path(self, project: bool, cwd: Path, home: Path) -> Path:
        return (cwd / self.project_file) if project else (home / self.user_file)


# Codex skips hooks it was not told to trust, without a word.
_CODEX_HOOKS = "trust memdesk's hooks in Codex's /hooks screen (it runs no hook until you do)"


def _command_args(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    return {"command": argv[0], "args": argv[1:], "env": env}


def _copilot(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    # Copilot CLI lists a local server's tools to allow: all of memdesk's.
    return {"type": "local", "command": argv[0], "args": argv[1:], "env": env, "tools": ["*"]}


def _opencode(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    return {"type": "local", "command": argv, "enabled": True, "environment": env}


HOSTS = {
    host.name: host
    for host in (
        Host(
            "claude-code",
            ".claude.json",
            ".mcp.json",
            ("mcpServers",),
            _command_args,
            "approve the servers in .mcp.json when Claude Code asks on its next start here",
        ),
        Host("cursor", ".cursor/mcp.json", ".cursor/mcp.json", ("mcpServers",), _command_args),
        Host(
            "gemini-cli",
            ".gemini/settings.json",
            ".gemini/settings.json",
            ("mcpServers",),
            _command_args,
            "trust this folder when Gemini CLI asks (it reads .gemini/settings.json, and runs "
            "memdesk's hooks, only in a trusted folder)",
            "trust each folder you work in when it asks (it runs hooks only there)",
        ),
        Host(
            "codex",
            ".codex/config.toml",
            ".codex/config.toml",
            ("mcp_servers",),
            _command_args,
            "trust this project in Codex (it reads .codex/ only in a trusted one), then "
            + _CODEX_HOOKS,
            _CODEX_HOOKS,
        ),
        Host(
            "copilot-cli",
            ".copilot/mcp-config.json",
            ".github/mcp.json",
            ("mcpServers",),
            _copilot,
            "trust this folder in Copilot CLI (it reads .github/ servers and hooks only in a "
            "trusted folder)",
        ),
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
    note: str = ""  # what a person should know beyond the diff
    # Folders between the host's base folder and the file, deepest first: a detach that
    # deletes the file takes away those it leaves empty (attach made them).
    folders: tuple[Path, ...] = ()


def plan_attach(
    host: str,
    *,
    project: bool,
    db: str | os.PathLike[str] | None,
    cwd: Path,
    home: Path,
    command: str | None = None,
    socket: str | None = None,
) -> list[Change]:
    """The changes that attach memdesk to `host` (empty when it already is, exactly so);
    `socket`: the one memdesk serves on, when not the one derived from the database (the
    host, without the person's MEMDESK_SOCKET, would look for that one)."""
    spec = HOSTS[host]
    command = command or hook_settings.memdesk_command()
    argv = [*shlex.split(command), "mcp"]
    if db is not None:
        argv += ["--db", str(Path(db).expanduser().resolve())]
    if socket:
        argv += ["--socket", socket]
    entry = spec.entry(argv, {"MEMDESK_AGENT": host})
    path = spec.path(project, cwd, home)
    old = _text(path)
    servers = _servers(spec, path, old)
    ours = [name for name, value in servers.items() if _is_ours(value, command)]
    name = ours[0] if ours else _free_name(servers)
    note = ""
    if name != NAME:
        note = (
            f'{path} already has a server named "{NAME}" that is not this memdesk; it is '
            f'left as it is, and this one is named "{name}"'
        )
    new = _with_server(spec, path, old, name, entry)
    hooks = hooks_file(host, path, project, cwd, home)
    if project:
        refuse_leaving(cwd, path, hooks)
    if host == "opencode" and command == PORTABLE:
        hooks = None  # its plugin is a file of this install: not a portable line
        note = note or (
            "opencode's session hooks are a plugin file of this install, left out of the "
            "portable form: each person runs `memdesk attach opencode` for their own"
        )
    if hooks == path:  # Gemini CLI, opencode: hooks and servers in one settings file
        new = _parsed(path, hook_settings.with_hooks, new, command, db, False, host, socket)
    changes = [_change(path, old, new, note)]
    if hooks is not None and hooks != path:
        text = _text(hooks)
        hooked = _parsed(hooks, hook_settings.with_hooks, text, command, db, False, host, socket)
        changes.append(_change(hooks, text, hooked))
    return [c for c in changes if c.diff]


def refuse_leaving(project: Path, *paths: Path | None) -> None:
    """A repository shipping `.claude -> ~/.claude` had `attach --project` rewrite the
    person's global settings while the diff named the repository's file: inside a project,
    no folder on the way may be a link."""
    for path in paths:
        for folder in path.parents if path is not None else ():
            if folder == project or project not in folder.parents:
                break
            if folder.is_symlink():
                raise ValueError(
                    f"{folder} is a symbolic link (to {os.path.realpath(folder)}): a project's "
                    "settings are written inside the project only; replace the link with a "
                    "folder, or attach without --project"
                )


def hooks_file(host: str, path: Path, project: bool, cwd: Path, home: Path) -> Path | None:
    """Where `host` reads memdesk's session hooks (None: it gets the MCP tools only)."""
    if host == "claude-code":
        return (cwd if project else home) / ".claude" / "settings.json"
    if host in ("gemini-cli", "opencode"):  # hooks (opencode: its plugin) beside the servers
        return path
    if host == "codex":  # hooks.json beside config.toml
        return path.with_name("hooks.json")
    if host == "cursor":  # hooks.json beside mcp.json, in ~/.cursor or the project's .cursor
        return path.with_name("hooks.json")
    if host == "copilot-cli":
        return (
            cwd / ".github" / "copilot" / "settings.json"
            if project
            else path.with_name("settings.json")
        )
    return None


def plan_detach(
    host: str, *, project: bool, cwd: Path, home: Path, command: str | None = None
) -> list[Change]:
    """The changes that take memdesk out of `host` again (empty when it is not there)."""
    spec = HOSTS[host]
    command = command or hook_settings.memdesk_command()
    path = spec.path(project, cwd, home)
    base = cwd if project else home
    hooks = hooks_file(host, path, project, cwd, home)
    if project:
        refuse_leaving(cwd, path, hooks)
    changes = []
    if (old := _text(path)) is not None:
        new = old
        for name, value in _servers(spec, path, old).items():
            if _is_ours(value, command):
                new = _without_server(spec, path, new, name)
        if hooks == path:
            new = _parsed(path, hook_settings.without_hooks, new)
        changes.append(_removal(path, old, _unless_only_memdesks(path, old, new), base))
    if hooks is not None and hooks != path and (text := _text(hooks)) is not None:
        kept = _parsed(hooks, hook_settings.without_hooks, text)
        changes.append(_removal(hooks, text, _unless_only_memdesks(hooks, text, kept), base))
    return [c for c in changes if c.diff]


def _removal(path: Path, old: str, new: str | None, base: Path) -> Change:
    change = _change(path, old, new)
    if new is not None:
        return change
    folders = tuple(p for p in path.parents if p != base and base in p.parents)
    return dataclasses.replace(change, folders=folders)


def attached_servers(host: str, path: Path) -> dict[str, list[str]]:
    """Each server in `path` that runs a memdesk's `mcp` (this install's or another's): its
    name and command line. ValueError: the file cannot be read as the host's format."""
    old = _text(path)
    if old is None:
        return {}
    return {
        name: _argv(value)
        for name, value in _servers(HOSTS[host], path, old).items()
        if _runs_memdesk(value)
    }


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
            _remove_empty(change.folders)
        else:
            os.replace(temp, change.path)


def _remove_empty(folders: tuple[Path, ...]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): it stays, and so do its parents
            return


def _check_writable(change: Change) -> None:
    path = change.path
    if path.is_symlink():
        raise ValueError(
            f"{path} is a symbolic link; memdesk writes only a host's own file (edit the file "
            "it points to by hand, or replace the link with the file)"
        )
    if path.exists() and path.stat().st_uid != os.getuid():
        raise ValueError(f"{path} belongs to another user; memdesk does not write it")
    now = _text(path)
    if now != change.old:
        raise ValueError(f"{path} changed since its diff was shown; nothing was written, run again")


def _staged(change: Change) -> Path:
    """The new text in a file beside the target (same folder: the rename is atomic), synced,
    with the target's permissions."""
    path = change.path
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.memdesk-{os.getpid()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write((change.new or "").encode("utf-8"))
        out.flush()
        os.fsync(out.fileno())
    if path.exists():
        os.chmod(temp, path.stat().st_mode & 0o7777)
    return temp


def _text(path: Path) -> str | None:
    """The file's text exactly, CRLF and all (None: no file)."""
    return paths.read_config(path)


def _is_toml(path: Path) -> bool:
    return path.suffix == ".toml"


def _servers(spec: Host, path: Path, text: str | None) -> dict[str, Any]:
    """The host's servers in the file (empty when it has none)."""
    if not text or not text.strip():
        return {}
    if _is_toml(path):
        try:
            document = toml_text.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path} is not valid TOML ({exc}); fix it by hand first") from None
    else:
        document = _parsed(path, lambda t: json_text.parse(t).value, text)
        if not isinstance(document, dict):
            raise ValueError(f"{path} does not hold a JSON object; fix it by hand first")
    servers = document
    for key in spec.container:
        servers = servers.get(key, {}) if isinstance(servers, dict) else None
    if not isinstance(servers, dict):
        raise ValueError(f'"{spec.container[-1]}" in {path} is not a table/object; fix it by hand')
    return servers


def _with_server(spec: Host, path: Path, text: str | None, name: str, entry: dict[str, Any]) -> str:
    container = spec.container[0]
    if _is_toml(path):
        if text is None:
            return toml_text.block(container, name, entry)
        if text == "":  # the person's empty file: the newline before tells detach to keep it
            return "\n" + toml_text.block(container, name, entry)
        return toml_text.put(text, container, name, entry)
    if text is None or not text.strip():
        return json_text.new_file({container: {name: entry}})
    return _parsed(path, json_text.put, text, (container,), name, entry)


def _without_server(spec: Host, path: Path, text: str, name: str) -> str:
    if _is_toml(path):
        return toml_text.remove(text, spec.container[0], name)
    return _parsed(path, json_text.remove, text, spec.container, name)


def _unless_only_memdesks(path: Path, old: str, new: str) -> str | None:
    """`new`, or None (delete the file) when memdesk created the file and nothing but its
    entry was ever put in it."""
    if _is_toml(path):
        return None if new == "" and old.startswith("[") else new
    left = json_text.parse(new).value
    # Cursor's hooks.json as memdesk made it holds its required version beside the hooks
    if json_text.made_by_memdesk(old) and left in ({}, {"version": 1}):
        return None
    return new


def _parsed(path: Path, edit: Callable[..., Any], *args: Any) -> Any:
    """`edit`'s result, its complaint about the file's JSON named with the file."""
    try:
        return edit(*args)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _free_name(servers: dict[str, Any]) -> str:
    if NAME not in servers:
        return NAME
    return next(f"{NAME}-{n}" for n in range(2, len(servers) + 3) if f"{NAME}-{n}" not in servers)


def _argv(entry: dict[str, Any]) -> list[str]:
    command = entry.get("command")
    words = command if isinstance(command, list) else [command, *(entry.get("args") or [])]
    return [str(w) for w in words if w is not None]


def _runs_memdesk(entry: Any) -> bool:
    """Any memdesk's MCP server, by the look of its command line."""
    if not isinstance(entry, dict):
        return False
    words = _argv(entry)
    return "mcp" in words and any("memdesk" in w for w in words)


def _is_ours(entry: Any, command: str) -> bool:
    """An entry this memdesk wrote: it runs `COMMAND mcp` (the portable `memdesk mcp` only
    when COMMAND is that too: a server of the person's own, or another install's, named
    "memdesk" is never changed or removed)."""
    if not isinstance(entry, dict):
        return False
    prefix = [*shlex.split(command), "mcp"]
    return _argv(entry)[: len(prefix)] == prefix


def _change(path: Path, old: str | None, new: str | None, note: str = "") -> Change:
    if new == old:
        return Change(path, new, "", old)
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            fromfile=str(path),
            tofile=str(path) if new is not None else "/dev/null",
        )
    )
    return Change(path, new, diff, old, note)
