"""The block an agent injects into its prompt: identity in full, then what is relevant."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memdesk.core import validate
from memdesk.core.actor import USER, Actor
from memdesk.core.errors import ValidationError

if TYPE_CHECKING:
    from memdesk.core.service import MemoryService

OPEN, CLOSE = "<memory-context>\n", "</memory-context>"
MIN_BUDGET, MAX_BUDGET = 200, 100_000


def build_context(
    service: MemoryService,
    query: str,
    *,
    project: str | None = None,
    k: int = 10,
    budget_chars: int = 4000,
    actor: Actor = USER,
) -> dict[str, Any]:
    """The L0 profile in full, then the top-`k` L1 memories for `query`, never over budget."""
    budget = validate.integer(budget_chars, "budget_chars", MIN_BUDGET, MAX_BUDGET)
    identity = service.identity()
    parts = [OPEN]
    if identity["text"]:
        parts.append(f"## Identity\n{identity['text']}\n")
    used = sum(map(len, parts)) + len(CLOSE)
    if used > budget:
        raise ValidationError(
            f"budget_chars {budget} is too small for the identity profile "
            f"({identity['size']} characters); use at least {used}",
            field="budget_chars",
        )
    found = service.search(query, k=k, layers=["L1"], project=project, actor=actor)
    ids: list[str] = []
    heading = "## Relevant memories\n"
    for hit in found["hits"]:
        line = f"- [{hit['kind']}, {hit['created_at'][:10]}] {hit['content']}\n"
        extra = len(line) + (len(heading) if not ids else 0)
        if used + extra > budget:
            continue  # a shorter memory further down may still fit
        if not ids:
            parts.append(heading)
        parts.append(line)
        ids.append(hit["id"])
        used += extra
    parts.append(CLOSE)
    text = "".join(parts)
    return {"text": text, "ids": ids, "size": len(text)}
