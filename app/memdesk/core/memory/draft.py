"""A new memory's fields, validated before anything is written (so batches are all-or-nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memdesk.core import rules, validate
from memdesk.core.clock import latest_believable, not_ahead, parse_time
from memdesk.core.errors import MemdeskError, ValidationError
from memdesk.core.memory.records import EDITABLE_FIELDS

# A new memory's: the editable ones, its date, and how sure its writer is (an agent below
# withhold.CONFIDENT waits in the inbox). Every new memory may be injected: leaving one out is
# the person's later choice (rules.check_may_choose_injection).
FIELDS = (*(f for f in EDITABLE_FIELDS if f != "inject"), "created_at", "confidence")


@dataclass
class Draft:
    content: str
    layer: str = "L1"
    kind: str = "fact"
    tags: list[str] = field(default_factory=list)
    project: str | None = None
    task: str | None = None
    importance: float = 0.5
    created_at: str | None = None
    visibility: str = "shared"
    confidence: float | None = None

    @classmethod
    def parse(cls, params: dict[str, Any], where: str = "") -> Draft:
        """Validate a dict of new-memory fields; errors name the field (and `where`, if any)."""
        prefix = f"{where}: " if where else ""
        unknown = sorted(set(params) - set(FIELDS))
        if unknown:
            raise ValidationError(
                f"{prefix}unknown field(s) {', '.join(unknown)}; allowed: {', '.join(FIELDS)}",
                field=unknown[0],
            )
        try:
            return cls(
                content=validate.content(params.get("content")),
                layer=validate.one_of(params.get("layer", "L1"), rules.LAYERS, "layer"),
                kind=validate.one_of(params.get("kind", "fact"), rules.KINDS, "kind"),
                tags=validate.tags(params.get("tags")),
                project=validate.name(params.get("project"), "project"),
                task=validate.name(params.get("task"), "task"),
                importance=validate.importance(params.get("importance", 0.5)),
                created_at=_believable(params.get("created_at")),
                visibility=validate.one_of(
                    params.get("visibility", "shared"), rules.VISIBILITIES, "visibility"
                ),
                confidence=(
                    validate.importance(params["confidence"], "confidence")
                    if params.get("confidence") is not None
                    else None
                ),
            )
        except MemdeskError as exc:
            if prefix:
                exc.message = prefix + exc.message
                exc.args = (exc.message,)
            raise


def _believable(value: object) -> str | None:
    """When it was said, if given: not ahead of this machine's clock by a day or more, as
    import and sync read dates (an agent's "2099" won every merge and made every later backup
    one memdesk would not restore)."""
    if value is None:
        return None
    stamp = parse_time(value, "created_at")
    not_ahead(stamp, "created_at", latest_believable())
    return stamp
