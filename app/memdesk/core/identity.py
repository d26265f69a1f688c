"""The L0 identity profile and its 1,000-character limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memdesk.core import rules
from memdesk.core.actor import USER, Actor
from memdesk.core.draft import Draft
from memdesk.core.errors import (
    IdentityFull,
    ValidationError,
    VersionConflict,
)
from memdesk.store import Memory


class Identity:
    """Mixin of MemoryService: the profile is all active L0 entries together."""

    def _identity_rows(self) -> list[Memory]:
        return list(
            Memory.select()
            .where((Memory.layer == "L0") & (Memory.status == "active"))
            .order_by(Memory.created_at, Memory.id)
        )

    def _check_identity_room(self, adding: int, exclude: Memory | None = None) -> None:
        used = sum(
            len(r.content) for r in self._identity_rows() if exclude is None or r.id != exclude.id
        )
        total = used + adding
        if total > rules.IDENTITY_LIMIT:
            raise IdentityFull(
                f"Identity (L0) would be {total:,} characters; the limit is "
                f"{rules.IDENTITY_LIMIT:,} ({used:,} used by other entries, "
                f"{max(0, rules.IDENTITY_LIMIT - used):,} free). Merge or remove identity "
                f"entries first, or shorten this text by {total - rules.IDENTITY_LIMIT:,} "
                "characters.",
                field="content",
                size=total,
                limit=rules.IDENTITY_LIMIT,
            )

    def identity(self) -> dict[str, Any]:
        """The whole profile: active L0 entries joined by newlines, with its size and limit."""
        rows = self._identity_rows()
        return {
            "text": "\n".join(r.content for r in rows),
            "size": sum(len(r.content) for r in rows),
            "limit": rules.IDENTITY_LIMIT,
            "ids": [r.uuid for r in rows],
        }

    def set_identity(
        self, text: str, *, expected: Sequence[str] | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Replace the profile with `text` as one entry; former entries go to history/Trash.

        `expected` (the ids from `identity()`) makes it fail if an agent changed the
        profile since it was read, rather than overwrite that change.
        """
        if not isinstance(text, str):
            raise ValidationError("text must be text", field="text")
        text = text.strip()
        if len(text) > rules.IDENTITY_LIMIT:
            raise IdentityFull(
                f"Identity (L0) text is {len(text):,} characters; the limit is "
                f"{rules.IDENTITY_LIMIT:,}. Cut {len(text) - rules.IDENTITY_LIMIT:,} characters.",
                field="text",
                size=len(text),
                limit=rules.IDENTITY_LIMIT,
            )
        rules.check_may_write(actor, "L0")
        with self._write() as pending:
            rows = self._identity_rows()
            if expected is not None and [r.uuid for r in rows] != list(expected):
                raise VersionConflict(
                    "the identity profile changed since it was read; "
                    "reload it and apply your edit again",
                    field="text",
                )
            keep, *others = rows or [None]
            for row in others:
                self._set_status(
                    row,
                    "deleted",
                    actor,
                    pending,
                    change="remove",
                    reason="merged into the identity profile",
                )
            if keep is None and text:
                self._add(
                    Draft(content=text, layer="L0", kind="preference"), actor, pending, dedup=False
                )
            elif keep is not None and not text:
                self._set_status(
                    keep,
                    "deleted",
                    actor,
                    pending,
                    change="remove",
                    reason="identity profile cleared",
                )
            elif keep is not None:
                self._apply(
                    keep,
                    {"content": text},
                    actor,
                    pending,
                    change="update",
                    reason="identity profile edited",
                )
        return self.identity()
