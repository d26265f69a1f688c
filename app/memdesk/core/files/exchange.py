"""JSON or Markdown export, and importing an export (read: importing.py, written: applying.py)."""

from __future__ import annotations

from typing import Any, TextIO

from memdesk.core import rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import ValidationError
from memdesk.core.files import applying, export, importing
from memdesk.core.search.filters import Filters


class Exchange:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def export(
        self, format: str = "json", *, progress: export.Progress | None = None, **filters: Any
    ) -> str:
        """All memories (any status) matching `filters`, as JSON or Markdown text.

        `progress(done, total)` is called page by page; returning False cancels.
        """
        self.desk.settle()  # recall counts shown must include queued searches
        filters.setdefault("status", None)
        chosen = Filters.build(**filters)
        writer = {"json": export.export_json, "markdown": export.export_markdown}
        validate.one_of(format, writer, "format")
        with self.desk.database.atomic():  # one snapshot, even while agents write
            return writer[format](chosen, progress)

    def export_json_to(
        self, out: TextIO, *, progress: export.Progress | None = None, **filters: Any
    ) -> int:
        """The JSON export written to `out` page by page; returns how many memories it holds."""
        self.desk.settle()
        filters.setdefault("status", None)
        chosen = Filters.build(**filters)
        with self.desk.database.atomic():  # one snapshot, even while agents write
            return export.write_json(
                export.dict_pages(chosen, progress), lambda: export.links_among(chosen), out
            )

    def export_page(self, after: int = 0, **filters: Any) -> dict[str, Any]:
        """A part of the JSON export: the memories past `after` and where the next part
        starts; the last part (`after` None) holds the links too. A running memdesk gives a
        100k export in parts, serving everyone else between them."""
        validate.integer(after, "after", 0)
        filters.setdefault("status", None)
        chosen = Filters.build(**filters)
        with self.desk.database.atomic():
            memories, next_after = export.memory_page(chosen, after)
            links = export.links_among(chosen) if next_after is None else []
        return {"memories": memories, "after": next_after, "links": links}

    def plan_import(self, text: str) -> dict[str, Any]:
        """What `import_json(text)` would do, without writing: added, changed, errors."""
        try:
            records, links = importing.parse(text)
        except ValidationError as exc:
            return applying.nothing_planned(exc.data.get("errors", [exc.message]))
        return {**applying.plan(records), "errors": applying.refusals(records, links)}

    def import_json(
        self,
        text: str,
        *,
        progress: export.Progress | None = None,
        actor: Actor = USER,
        expected: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Import an export all-or-nothing; differing memories become new versions.

        Only the user (or memdesk itself) may import: an export holds every layer and names
        its own writers. `expected` (the plan `plan_import` gave, as the person was shown it)
        makes it fail with VersionConflict, the plan now in its `plan`, when the store changed
        since so that the import would do something else.
        """
        rules.check_person(
            actor,
            "import: an import writes a whole export (any layer, any writer). Agents may "
            "check a file with plan_import (dry_run)",
            field="text",
            or_memdesk=True,
        )
        records, links = importing.parse(text)
        with self.desk.write() as pending:
            return applying.apply(
                records,
                links,
                pending,
                touch=self.desk.touch,
                progress=progress,
                actor=actor,
                expected=expected,
            )
