"""How much room the identity profile has: every write that adds to L0 asks here first."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memdesk.core import rules
from memdesk.core.errors import IdentityFull
from memdesk.store import Memory


def identity_rows() -> list[Memory]:
    """The profile's entries, oldest first."""
    # Sorted here, not by SQLite: asked to order, it walked every memory by date to skip
    # sorting the profile's few rows (linear in the store, at every session start).
    rows = Memory.select().where((Memory.layer == "L0") & (Memory.status == "active"))
    return sorted(rows, key=lambda row: (row.created_at, row.id))


def check_identity_room(
    adding: Sequence[int],
    exclude: Memory | None = None,
    advice: str = "or shorten this text by {over}",
    replacing: Collection[str] = (),
) -> None:
    """Refuse when the profile with entries of the lengths `adding` (and without `exclude`
    and the entries of the ids `replacing`) would pass the limit."""
    kept = [
        len(r.content)
        for r in identity_rows()
        if (exclude is None or r.id != exclude.id) and r.uuid not in replacing
    ]
    used = rules.profile_size(kept)
    total = rules.profile_size(kept + list(adding))
    if total > rules.IDENTITY_LIMIT:
        raise IdentityFull(
            f"Identity (L0) would be {total:,} characters; the limit is "
            f"{rules.IDENTITY_LIMIT:,} ({used:,} used by other entries, "
            f"{max(0, rules.IDENTITY_LIMIT - used):,} free). Merge or remove identity "
            f"entries first, {advice.format(over=_chars(total - rules.IDENTITY_LIMIT))}. "
            "Nothing was changed.",
            field="content",
            size=total,
            limit=rules.IDENTITY_LIMIT,
        )


def _chars(count: int) -> str:
    return f"{count:,} character{'' if count == 1 else 's'}"
