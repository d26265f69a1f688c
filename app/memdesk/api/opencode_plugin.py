"""memdesk's plugin in opencode's settings: one entry of opencode.json's "plugin" list,
`["file:///…/memdesk/api/hosts/opencode.js", {"command": [...], "db": …, "deny": …}]`, kept or
taken out with every other byte of the file as it was. opencode passes the options to the
plugin, which runs `memdesk hook … --agent opencode` for each step of a session (the file's
own comment says what it does, tests/data/opencode-1.18.33/ what opencode does with it)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from memdesk.api import json_text

PLUGIN = Path(__file__).resolve().parent / "hosts" / "opencode.js"
KEY = "plugin"


def entry(
    command: str, db: str | os.PathLike[str] | None, deny: bool, socket: str | None = None
) -> list[Any]:
    options: dict[str, Any] = {"command": shlex.split(command)}
    if db is not None:
        options["db"] = str(Path(db).expanduser().resolve())
    if socket:
        options["socket"] = socket
    if deny:
        options["deny"] = True
    return [PLUGIN.as_uri(), options]


def with_plugin(
    text: str | None,
    command: str,
    db: str | os.PathLike[str] | None,
    deny: bool,
    socket: str | None = None,
) -> str:
    """opencode.json's text (None: no file yet) with memdesk's plugin listed once, as given."""
    wanted = entry(command, db, deny, socket)
    if text is None:
        return json_text.new_file({KEY: [wanted]})
    plugins = _document(text).get(KEY)
    if plugins is None:
        return json_text.put(text, (), KEY, [wanted], made=True)
    if not isinstance(plugins, list):
        raise ValueError(f'the file\'s "{KEY}" is not a list; fix it by hand first')
    ours = [n for n, value in enumerate(plugins) if is_ours(value)]
    if not ours:
        return json_text.append(text, (KEY,), wanted)
    for extra in reversed(ours[1:]):
        text = json_text.remove(text, (KEY,), extra)
    if plugins[ours[0]] != wanted:
        text = json_text.replace(text, (KEY,), ours[0], wanted)
    return text


def without_plugin(text: str) -> str:
    """opencode.json's text with memdesk's plugin (and a list memdesk made for it) taken out."""
    plugins = _document(text).get(KEY)
    for index in reversed(range(len(plugins) if isinstance(plugins, list) else 0)):
        if is_ours(plugins[index]):
            text = json_text.remove(text, (KEY,), index)
    return text


def is_ours(value: Any) -> bool:
    """A memdesk's plugin entry (this install's or another's: its file is named so)."""
    spec = value[0] if isinstance(value, list) and value else value
    return isinstance(spec, str) and spec.endswith("/memdesk/api/hosts/opencode.js")


def commands(settings: Any) -> list[tuple[str, str, str]]:
    """For each memdesk plugin entry: its file, and the hook line it runs (for doctor)."""
    plugins = settings.get(KEY) if isinstance(settings, dict) else None
    found = []
    for value in plugins if isinstance(plugins, list) else ():
        if not is_ours(value):
            continue
        options = value[1] if isinstance(value, list) and len(value) > 1 else {}
        options = options if isinstance(options, dict) else {}
        argv = [str(w) for w in options.get("command", ["memdesk"]) if isinstance(w, str)]
        db = options.get("db")
        line = shlex.join([*argv, "hook", "SessionStart", *(["--db", str(db)] if db else [])])
        found.append((str(value[0] if isinstance(value, list) else value), "SessionStart", line))
    return found


def _document(text: str) -> dict[str, Any]:
    document = json_text.parse(text).value
    if not isinstance(document, dict):
        raise ValueError("the file does not hold a JSON object; fix it by hand first")
    return document
