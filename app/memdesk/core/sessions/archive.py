"""Session and task summaries for the L2 archive, written from structured parts."""

from __future__ import annotations

from typing import Any

from memdesk.core.errors import ValidationError

MAX_ITEMS = 200


def _items(value: object, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError(f"{field} must be a list of strings", field=field)
    if len(value) > MAX_ITEMS:
        raise ValidationError(f"{field} has {len(value)} entries; at most {MAX_ITEMS}", field=field)
    return [v.strip() for v in value if v.strip()]


def render_summary(
    what: object,
    decisions: Any = None,
    files: Any = None,
    unfinished: Any = None,
    commits: Any = None,
) -> str:
    """The Markdown text of a summary; each list becomes a section when not empty."""
    if not isinstance(what, str) or not what.strip():
        raise ValidationError("what must say what the session did (non-empty text)", field="what")
    sections = [what.strip()]
    for title, field, value in (
        ("Decisions", "decisions", decisions),
        ("Files", "files", files),
        ("Unfinished", "unfinished", unfinished),
        ("Commits", "commits", commits),
    ):
        items = _items(value, field)
        if items:
            sections.append(f"{title}:\n" + "\n".join(f"- {item}" for item in items))
    return "\n\n".join(sections)
