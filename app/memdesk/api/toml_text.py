"""A host's TOML file (Codex's config.toml) edited as text around memdesk's one table, so that
every other byte stays as the person wrote it: memdesk's entry is one `[mcp_servers.NAME]`
table appended at the end, which TOML allows beside servers written as dotted keys
(`mcp_servers.docs.command = …`), and detach takes exactly that table (and the newline put
before it) away again. Every edit is parsed back and must change nothing but that one entry."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import tomlkit

# Possessive, each run read once: "[" and 20,000 spaces on one line of a multi-line string
# took the lazy name and the spaces around it cubic time (40 minutes for a 20 KB file).
_HEADER = re.compile(r"^[ \t]*+\[\[?+(?P<name>[^\]#\n]++)\]\]?+[ \t]*+(?:#[^\r\n]*+)?\r?$", re.M)
_QUIET = re.compile(r"(?:^[ \t]*(?:#.*)?\r?\n)*\Z", re.M)  # blank and comment lines only


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`, with a crafted file of nested brackets refused as invalid TOML (the
    parser recursed until Python gave up, and attach, detach and doctor died with a
    traceback)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("it is nested too deeply to be a host's settings") from None


def block(container: str, name: str, entry: dict[str, Any]) -> str:
    """memdesk's table as it is written: one header, its values on one line each."""
    lines = [f"[{container}.{_key(name)}]"]
    for field, value in entry.items():
        lines.append(f"{_key(field)} = {_value(value)}")
    return "\n".join(lines) + "\n"


def put(text: str, container: str, name: str, entry: dict[str, Any]) -> str:
    """`text` with memdesk's table `[container.name]` set to `entry`."""
    newline = "\r\n" if "\r\n" in text else "\n"
    table = block(container, name, entry).replace("\n", newline)
    span = _span(text, container, name)
    if span is not None:
        new = text[: span[0]] + table + text[span[1] :]
    else:
        new = text + (newline if text else "") + table
    _check(text, new, container, name, entry)
    return new


def remove(text: str, container: str, name: str) -> str:
    """`text` without memdesk's table `[container.name]` (and its sub-tables)."""
    span = _span(text, container, name)
    if span is None:
        raise ValueError(
            f"memdesk's entry is not written as its own [{container}.{name}] table; "
            "take it out by hand"
        )
    start, end = span
    if start > 0:  # the newline attach put before the table
        start -= 2 if text[start - 2 : start] == "\r\n" else 1
    new = text[:start] + text[end:]
    _check(text, new, container, name, None)
    return new


def _span(text: str, container: str, name: str) -> tuple[int, int] | None:
    """Where the table and its sub-tables are: from its header to the next other table's
    header, less the comments and blank lines that lead into that one."""
    ours = (f"{container}.{name}", f"{container}.{_key(name)}")
    start = None
    for match in _HEADER.finditer(text):
        header = re.sub(r"[ \t]*\.[ \t]*", ".", match.group("name").strip(" \t"))
        mine = header in ours or header.startswith(tuple(o + "." for o in ours))
        if start is None and mine and header in ours:
            start = match.start()
        elif start is not None and not mine:
            return start, _quiet_start(text, start, match.start())
    if start is None:
        return None
    return start, _quiet_start(text, start, len(text))


def _quiet_start(text: str, start: int, end: int) -> int:
    """Where the run of blank and comment lines just before `end` begins (not before the
    table's header line)."""
    lines = text[start:end].splitlines(keepends=True)
    cut = end
    for line in reversed(lines[1:]):
        if _QUIET.fullmatch(line if line.endswith("\n") else line + "\n"):
            cut -= len(line)
        else:
            break
    return cut


def _check(old: str, new: str, container: str, name: str, entry: dict[str, Any] | None) -> None:
    """The edit changed nothing but memdesk's entry, or it is refused with the reason."""
    try:
        before, after = loads(old), loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(
            f"memdesk's [{container}.{name}] table cannot be added to this file as it is "
            f"laid out ({exc}); add it by hand"
        ) from None
    servers = before.setdefault(container, {})
    if entry is None:
        servers.pop(name, None)
    else:
        servers[name] = entry
    for document in (before, after):  # an empty [container] is the same as none
        if document.get(container) == {}:
            del document[container]
    if before != after:
        raise ValueError(
            f"memdesk could not change only its [{container}.{name}] table in this file; "
            "change it by hand"
        )


def _key(word: str) -> str:
    return word if re.fullmatch(r"[A-Za-z0-9_-]+", word) else tomlkit.string(word).as_string()


def _value(value: Any) -> str:
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        table.update(value)
        return table.as_string()
    return tomlkit.item(value).as_string()
