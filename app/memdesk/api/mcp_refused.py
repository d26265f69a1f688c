"""Lines the MCP bridge answers itself, because its SDK would set them aside without a word
and a host waits on an unanswered id until it times out (red team, stop 70): a batch (MCP
has none since 2025-06-18), a line that is no JSON object (`null`, `5`), an id that is
neither a string nor an integer (`1.5`), a line that is not JSON at all. Each gets JSON-RPC's
"invalid request" or "parse error", with the request's own id where one can be read."""

from __future__ import annotations

import json
import re
from typing import Any

INVALID_REQUEST, INVALID_PARAMS, PARSE_ERROR = -32600, -32602, -32700


def refusals(line: str) -> list[dict[str, Any]]:
    """The error answers `line` gets from the bridge itself; none when its SDK answers it."""
    line = line.removeprefix("\ufeff")
    if not line.strip():
        return []
    try:
        message = json.loads(line)
    except RecursionError:
        return []  # nested too deep: the bridge reads its id and answers "invalid params"
    except ValueError:
        return [_error(None, PARSE_ERROR, "parse error: each line is one JSON-RPC message")]
    if isinstance(message, list):
        said = "batches are not supported (MCP has none): send each request on a line of its own"
        ids = [m["id"] for m in message if isinstance(m, dict) and _named(m.get("id"))]
        return [_error(named, INVALID_REQUEST, said) for named in ids or [None]]
    if not isinstance(message, dict):
        return [_error(None, INVALID_REQUEST, "invalid request: a message is a JSON object")]
    if "id" in message and not _named(message["id"]):
        return [_error(None, INVALID_REQUEST, "invalid request: id is a string or an integer")]
    if _named(message.get("id")) and "\\ud" in line.lower():
        where = _surrogate_at(message.get("params"), "params")
        if where is not None:
            # refused, not read as U+FFFD: the text was stored altered, and the agent not told
            said = (
                f"invalid params: {where} holds an unpaired surrogate (a lone \\ud800-"
                "\\udfff escape); text must be Unicode"
            )
            return [_error(message["id"], INVALID_PARAMS, said)]
    return []


def _surrogate_at(value: Any, where: str) -> str | None:
    """Where in `value` a string (or key) holds a lone surrogate, as a path; None: nowhere."""
    if isinstance(value, str):
        return where if any("\ud800" <= ch <= "\udfff" for ch in value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _surrogate_at(key, where) or _surrogate_at(item, f"{where}.{key}")
            if found is not None:
                return found
    if isinstance(value, list):
        for n, item in enumerate(value):
            if (found := _surrogate_at(item, f"{where}[{n}]")) is not None:
                return found
    return None


def _named(value: object) -> bool:
    return isinstance(value, str) or isinstance(value, int) and not isinstance(value, bool)


def _error(named: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": named, "error": {"code": code, "message": message}}


# A request's id where a line past the limit opens or ends with it (read no further)
_ID_FIRST = re.compile(
    rb'^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,200}"\s*,\s*)*'
    rb'"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")'
)
_ID_LAST = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")\s*\}\s*$')


def too_long(head: bytes, tail: bytes, limit: int) -> list[dict[str, Any]]:
    """The answer to a line past `limit` bytes, skipped unread: to its id when the line opens
    or ends with it (a tool call of 1.1 MB was never answered and its host waited)."""
    found = _ID_FIRST.match(head) or _ID_LAST.search(tail)
    if found is None:
        return []
    said = (
        f"request too large: memdesk reads at most {limit:,} bytes a message; "
        "send less text (a memory holds at most 64 KiB)"
    )
    return [_error(json.loads(found[1]), INVALID_REQUEST, said)]
