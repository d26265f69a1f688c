"""What an answer tells an agent of the memories it holds, past what the agent may read: not
how often or when some client searched its way to one (`recall_count`, `last_recalled_at`),
nor the id of a memory it may not read that one replaced (`supersedes`). Each of those told an
agent that a hidden memory exists, or what other clients looked for."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from memdesk.core.actor import Actor

_RECALLS = ("recall_count", "last_recalled_at")
_DEPTH = 8  # answers nest memories a few levels down (search hits, history entries)


def as_seen_by(
    answer: Any, actor: Actor, readable_by: Callable[[Collection[str], Actor], set[str]]
) -> Any:
    """`answer` as `actor` is told it: the same to the person; to an agent, a copy whose
    memories carry no recall counts, and name as replaced only a memory it may read."""
    if actor.source != "agent":
        return answer
    named: set[str] = set()
    _named(answer, named, 0)
    readable = readable_by(named, actor) if named else set()
    return _told(answer, readable, 0)


def _is_memory(value: dict[str, Any]) -> bool:
    return "content" in value and ("supersedes" in value or "recall_count" in value)


def _named(value: Any, named: set[str], depth: int) -> None:
    if depth > _DEPTH:
        return
    if isinstance(value, dict):
        if _is_memory(value) and isinstance(value.get("supersedes"), str):
            named.add(value["supersedes"])
        for inner in value.values():
            _named(inner, named, depth + 1)
    elif isinstance(value, list):
        for inner in value:
            _named(inner, named, depth + 1)


def _told(value: Any, readable: set[str], depth: int) -> Any:
    if depth > _DEPTH:
        return value
    if isinstance(value, dict):
        told = {k: _told(v, readable, depth + 1) for k, v in value.items()}
        if _is_memory(value):
            for key in _RECALLS:
                told.pop(key, None)
            if told.get("supersedes") is not None and told["supersedes"] not in readable:
                told["supersedes"] = None
        return told
    if isinstance(value, list):
        return [_told(inner, readable, depth + 1) for inner in value]
    return value
