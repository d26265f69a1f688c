"""What a hook sends to memdesk, bounded: a prompt with a pasted log, a file written whole or a
command's output of megabytes went past the request's limits, and the hook failed: no knowledge
given, no rule before the action, nothing observed. A text's start and end say what it is."""

from __future__ import annotations

import itertools
import json
from typing import Any

PROMPT_KEPT = 16 * 1024  # characters from each end of a prompt (the query limit is 64 KiB)
TOOL_TEXT_KEPT = (4 * 1024, 256)  # from each end of a tool's text; the second if still large
TOOL_BYTES = 256 * 1024  # a tool call's arguments or result, as JSON
ACTION_TEXT_KEPT = (120 * 1024, *TOOL_TEXT_KEPT)
_MAX_ITEMS = 200
# values walked in all: 15 MB of nested numbers (200 × 200 × 200) cost a hook 5 s to cut
_MAX_VALUES = 20_000
CUT = "\n…\n"  # what the server reads as a part it was not sent (core/sessions/action_cues.py)


def prompt(text: str) -> str:
    return _ends(text, PROMPT_KEPT)


def action(value: Any) -> Any:
    """A call's arguments before it runs, checked against the person's rules: a command is
    sent whole as far as the request allows (cut, it is refused unread when the person
    denies forbidden calls)."""
    return tool_call(value, ACTION_TEXT_KEPT)


def tool_call(value: Any, keep: tuple[int, ...] = TOOL_TEXT_KEPT) -> Any:
    """A tool call's arguments or result as the hook sends them: each text cut to its ends,
    lists and objects to their first items, at most _MAX_VALUES values in all; what is still
    too large is named, not sent."""
    for kept in keep:
        bounded = _cut(value, kept, 0, [_MAX_VALUES])
        if len(json.dumps(bounded, ensure_ascii=False, default=str)) <= TOOL_BYTES:
            return bounded
    return {"memdesk": "too large to send"}


def _ends(text: str, kept: int) -> str:
    return text if len(text) <= 2 * kept else f"{text[:kept]}{CUT}{text[-kept:]}"


def _cut(value: Any, kept: int, depth: int, left: list[int]) -> Any:
    left[0] -= 1
    if isinstance(value, str):
        return _ends(value, kept)
    if not isinstance(value, dict | list):
        return value
    if depth > 20 or left[0] < 0:
        return None
    if isinstance(value, dict):  # every key (a text beside a huge list: the command) is kept
        items = itertools.islice(value.items(), _MAX_ITEMS)
        return {k: _cut(v, kept, depth + 1, left) for k, v in items}
    return [_cut(v, kept, depth + 1, left) for v in value[:_MAX_ITEMS] if left[0] > 0]
