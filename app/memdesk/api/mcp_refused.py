"""Lines the MCP bridge answers itself, because its SDK would set them aside without a word
and a host waits on an unanswered id until it times out (red team, stop 70): a batch (MCP
has none since 2025-06-18), a line that is no JSON object (`null`, `5`), an id that is
neither a string nor an integer (`1.5`), a line that is not JSON at all. Each gets JSON-RPC's
"invalid request" or "parse error", with the request's own id where one can be read."""

from __future__ import annotations

import json
from typing import Any

INVALID_REQUEST, PARSE_ERROR = -32600, -32700


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
    return []


def _named(value: object) -> bool:
    return isinstance(value, str) or isinstance(value, int) and not isinstance(value, bool)


def _error(named: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": named, "error": {"code": code, "message": message}}
