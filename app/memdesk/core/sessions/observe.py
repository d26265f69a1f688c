"""What a tool call leaves behind: one observation per call, by rules, no model.

Pure functions of (tool name, its arguments, its result). Tool names are Claude Code's
(Edit, Write, Read, Bash, Grep, Glob, TodoWrite, Task, WebFetch, WebSearch …) with common
synonyms from other hosts. Importance follows the observational-memory design: a failed
command 8, an edit or a new file 7, a plan change 6, a delegation 5, a command 4, a read or
a search 3, anything else 2.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, replace
from typing import Any

LINE = 120  # characters of a command, an error or a change kept in an observation
# An observation is a line or two, and a path names a file only up to PATH_MAX: an agent's
# calls with 900 KB paths made each later working memory of its task take 38 s (every agent
# waiting behind it) and its next session start fail.
TEXT = 1_000
PATH = 4_096


@dataclass(frozen=True)
class Seen:
    kind: str  # edit | write | read | command | search | todo | delegate | other
    importance: int
    text: str
    path: str | None = None
    failed: bool = False


# Claude Code's names, then Gemini CLI's (run_shell_command, replace, write_file, …),
# Codex's (shell, exec_command, apply_patch, update_plan) and Copilot CLI's (bash, view, …).
_EDIT = {"edit", "multiedit", "notebookedit", "str_replace", "apply_patch", "replace"}
_WRITE = {"write", "create", "create_file", "write_file"}
_READ = {"read", "view", "read_file", "notebookread", "read_many_files"}
_COMMAND = {
    "bash",
    "shell",
    "run",
    "exec",
    "execute",
    "terminal",
    "run_command",
    "run_shell_command",
    "exec_command",
    "local_shell",
}
_SEARCH = {
    "grep",
    "glob",
    "search",
    "find",
    "ls",
    "websearch",
    "codebase_search",
    "search_file_content",
    "list_directory",
    "google_web_search",
}
_FETCH = {"webfetch", "fetch", "web_fetch"}
_TODO = {"todowrite", "todo", "update_plan", "plan", "write_todos"}
_DELEGATE = {"task", "agent", "subagent", "delegate"}


def observe(tool: str, args: Any, result: Any) -> Seen:
    seen = _observed(tool, args, result)
    path = seen.path if seen.path is None or len(seen.path) <= PATH else None
    return replace(seen, text=_clip(seen.text, TEXT), path=path)


def _observed(tool: str, args: Any, result: Any) -> Seen:
    name = tool.strip().lower()
    args = args if isinstance(args, dict) else {}
    for names, extract in _EXTRACTORS:
        if name in names:
            return extract(args, result)
    if name.startswith("mcp__"):
        return Seen("other", 2, f"called {tool}")
    return Seen("other", 2, f"used {tool}")


def _edit(args: dict[str, Any], result: Any) -> Seen:
    path = _path(args)
    new = _given_text(args, "new_string", "new_str")
    edits = args.get("edits")
    if isinstance(edits, list) and edits:
        new = _given_text(edits[0], "new_string") if isinstance(edits[0], dict) else ""
        what = f"{len(edits)} changes"
    elif patch := _patch(args):
        lines = patch.splitlines()
        added = [ln[1:] for ln in lines if ln.startswith("+") and not ln.startswith("+++")]
        removed = [ln for ln in lines if ln.startswith("-") and not ln.startswith("---")]
        new = "\n".join(added)
        what = f"-{len(removed)} +{len(added)} lines"
    else:
        old = _given_text(args, "old_string", "old_str")
        what = f"-{_lines(old)} +{_lines(new)} lines"
    first = _first_line(new)
    return Seen("edit", 7, f"edited {short(path)} ({what})" + (f": {first}" if first else ""), path)


def _write(args: dict[str, Any], result: Any) -> Seen:
    path = _path(args)
    content = _given_text(args, "content", "file_text")
    return Seen("write", 7, f"wrote {short(path)} ({_lines(content)} lines)", path)


def _read(args: dict[str, Any], result: Any) -> Seen:
    path = _path(args)
    return Seen("read", 3, f"read {short(path)}", path)


_EXIT = re.compile(r"exit (?:code|status)[:= ]*(-?\d+)", re.IGNORECASE)


def _command(args: dict[str, Any], result: Any) -> Seen:
    command = _first_line(_command_line(args.get("command") or args.get("cmd") or ""))
    code = _exit_code(result)
    error = _error_text(result)
    if code not in (None, 0) or (code is None and error is not None):
        why = f" (exit {code})" if code not in (None, 0) else ""
        detail = f": {error}" if error else ""
        return Seen("command", 8, f"`{command}` failed{why}{detail}", failed=True)
    return Seen("command", 4, f"ran `{command}`")


def _command_line(command: Any) -> str:
    """A command as typed: Codex gives argv (`["bash", "-lc", "pytest -q"]`), the script
    inside a shell's -c is what the agent ran."""
    if isinstance(command, list):
        words = [str(w) for w in command]
        if len(words) >= 3 and words[1] in ("-c", "-lc") and _SHELL_NAME.search(words[0]):
            return words[2]
        return shlex.join(words)
    return str(command)


_SHELL_NAME = re.compile(r"(?:^|/)(?:ba|z|da|k)?sh$")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.M)


def _search(args: dict[str, Any], result: Any) -> Seen:
    query = args.get("pattern") or args.get("query") or args.get("path") or ""
    where = args.get("path") if args.get("pattern") or args.get("query") else None
    count = _count(result)
    text = f"searched {_clip(str(query), 60)!r}" + (f" in {short(where)}" if where else "")
    return Seen("search", 3, text + (f": {count} results" if count is not None else ""))


def _fetch(args: dict[str, Any], result: Any) -> Seen:
    return Seen("read", 3, f"fetched {_clip(str(args.get('url', '')), LINE)}")


def _todo(args: dict[str, Any], result: Any) -> Seen:
    todos = args.get("todos") or args.get("plan") or []
    items = []
    for todo in todos if isinstance(todos, list) else []:
        if isinstance(todo, dict):
            text = todo.get("content") or todo.get("step") or todo.get("text") or ""
            items.append(f"[{todo.get('status', 'pending')}] {_clip(str(text), 80)}")
    return Seen("todo", 6, "plan: " + "; ".join(items) if items else "plan cleared")


def _delegate(args: dict[str, Any], result: Any) -> Seen:
    who = args.get("subagent_type") or args.get("agent") or "a subagent"
    what = args.get("description") or _first_line(str(args.get("prompt", "")))
    return Seen("delegate", 5, f"delegated to {who}: {_clip(str(what), LINE)}")


_EXTRACTORS = (
    (_EDIT, _edit),
    (_WRITE, _write),
    (_READ, _read),
    (_COMMAND, _command),
    (_SEARCH, _search),
    (_FETCH, _fetch),
    (_TODO, _todo),
    (_DELEGATE, _delegate),
)


def short(path: object, keep: int = 3) -> str:
    """The last `keep` parts of a path: enough to recognise, short enough to read."""
    parts = [p for p in str(path or "?").replace("\\", "/").split("/") if p]
    return "/".join(parts[-keep:]) if parts else "?"


def _path(args: dict[str, Any]) -> str | None:
    for key in ("file_path", "absolute_path", "path", "notebook_path", "filename", "file"):
        if isinstance(args.get(key), str):
            return args[key]
    if (patch := _patch(args)) and (found := _PATCH_FILE.search(patch)):
        return found[1].strip()
    return None


def _patch(args: dict[str, Any]) -> str | None:
    """Codex's apply_patch text, which names its files inside (its hooks pass it as
    "command"; an editor tool's "command" is a verb like str_replace)."""
    for key in ("input", "patch", "command"):
        text = args.get(key)
        if isinstance(text, str) and "*** Begin Patch" in text:
            return text
    return None


def _exit_code(result: Any) -> int | None:
    if isinstance(result, dict):
        for key in ("exit_code", "exitCode", "returncode", "return_code", "code"):
            if isinstance(result.get(key), int) and not isinstance(result.get(key), bool):
                return result[key]
        if result.get("interrupted") is True:
            return -1
    found = _EXIT.search(_as_text(result))
    return int(found[1]) if found else None


def _error_text(result: Any) -> str | None:
    if isinstance(result, dict):
        for key in ("error", "stderr"):
            text = result.get(key)
            if isinstance(text, str) and text.strip():
                return _error_line(text)
        failed = result.get("result_type") in ("failure", "error")  # Copilot CLI's result
        if result.get("is_error") or result.get("isError") or failed:
            return _error_line(_as_text(result)) or "error"
        return None
    if isinstance(result, str) and re.search(r"\b(error|failed|traceback)\b", result, re.I):
        return _error_line(result)
    return None


def _error_line(text: str) -> str:
    """The line of an error output that says most: the last one naming an error, else the
    last non-empty one (a traceback ends with its cause)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not _EXIT.fullmatch(ln)]
    named = [ln for ln in lines if re.search(r"error|failed|denied|not found|fatal", ln, re.I)]
    return _clip((named or lines or [""])[-1], LINE)


def _count(result: Any) -> int | None:
    if isinstance(result, dict):
        for key in ("numFiles", "numMatches", "num_results", "count", "total"):
            if isinstance(result.get(key), int):
                return result[key]
        for key in ("filenames", "files", "results", "matches"):
            if isinstance(result.get(key), list):
                return len(result[key])
    if isinstance(result, list):
        return len(result)
    if isinstance(result, str):
        return len([ln for ln in result.splitlines() if ln.strip()])
    return None


def _given_text(args: dict[str, Any], *keys: str) -> str:
    """The first of `keys` the tool call gives, as text: an agent's number where an edit's
    text goes answered "internal"."""
    value = next((args[k] for k in keys if args.get(k)), "")
    return _as_text(value)


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)[:4000]


def _lines(text: str) -> int:
    return len(text.splitlines()) if text else 0


def _first_line(text: str) -> str:
    return _clip(next((ln.strip() for ln in text.splitlines() if ln.strip()), ""), LINE)


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
