"""What a hook sends to memdesk, bounded: a prompt with a pasted log, a file written whole or a
command's output of megabytes went past the request's limits, and the hook failed: no knowledge
given, no rule before the action, nothing observed. A text's start and end say what it is."""

from __future__ import annotations

import json
from typing import Any

PROMPT_KEPT = 16 * 1024  # characters from each end of a prompt (the query limit is 64 KiB)
TOOL_TEXT_KEPT = (4 * 1024, 256)  # from each end of a tool's text; the second if still large
TOOL_BYTES = 256 * 1024  # a tool call's arguments or result, as JSON
_MAX_ITEMS = 200


def prompt(text: str) -> str:
    return _ends(text, PROMPT_KEPT)


def tool_call(value: Any) -> Any:
    """A tool call's arguments or result as the hook sends them: each text cut to its ends,
    lists and objects to their first items; what is still too large is named, not sent."""
    for kept in TOOL_TEXT_KEPT:
        bounded = _cut(value, kept, 0)
        if len(json.dumps(bounded, ensure_ascii=False, default=str)) <= TOOL_BYTES:
            return bounded
    return {"memdesk": "too large to send"}


def _ends(text: str, kept: int) -> str:
    return text if len(text) <= 2 * kept else f"{text[:kept]}\n…\n{text[-kept:]}"


def _cut(value: Any, kept: int, depth: int) -> Any:
    if isinstance(value, str):
        return _ends(value, kept)
    if depth > 20:
        return None
    if isinstance(value, dict):
        return {k: _cut(v, kept, depth + 1) for k, v in list(value.items())[:_MAX_ITEMS]}
    if isinstance(value, list):
        return [_cut(v, kept, depth + 1) for v in value[:_MAX_ITEMS]]
    return value
