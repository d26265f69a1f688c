"""Undoable window actions: every edit, delete, restore, bulk change, identity save and import.

A command's action is run once by `perform()` before it is pushed, so a refused action (a
validation error, a version conflict) is reported and never lands on the stack. Undo and redo
pass version numbers to the service too: if an agent changed a memory since, the undo is
refused with a readable message instead of overwriting the agent's change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QUndoCommand, QUndoStack

from memdesk.core import MemdeskError, MemoryService, VersionConflict
from memdesk.ui.memory_table_model import first_line

Reporter = Callable[[MemdeskError], None]
EDITABLE = ("content", "tags", "kind", "layer", "project", "task", "importance")


def perform(stack: QUndoStack, command: MemoryCommand) -> None:
    """Run `command` now and, if the service accepted it, push it for undo.

    Raises the service's MemdeskError when the action is refused.
    """
    command.execute()
    command.skip_next_redo = True
    stack.push(command)


class MemoryCommand(QUndoCommand):
    """Base: runs `execute` once, then `_undo` / `_redo`, reporting refusals instead of raising
    (Qt calls undo/redo; an exception there would be lost)."""

    def __init__(self, service: MemoryService, text: str, report: Reporter) -> None:
        super().__init__(text)
        self.service = service
        self.skip_next_redo = False
        self._report = report

    def execute(self) -> None:
        self._redo()

    def redo(self) -> None:
        if self.skip_next_redo:
            self.skip_next_redo = False
            return
        self._guarded(self._redo)

    def undo(self) -> None:
        self._guarded(self._undo)

    def _guarded(self, action: Callable[[], None]) -> None:
        try:
            action()
        except MemdeskError as exc:
            # Qt drops a command made obsolete during undo/redo: it cannot be replayed safely.
            self.setObsolete(True)
            self._report(exc)

    def _redo(self) -> None:
        raise NotImplementedError

    def _undo(self) -> None:
        raise NotImplementedError


@dataclass
class Edit:
    """One memory's fields before and after, and the version the change was made against."""

    id: str
    before: dict[str, Any]
    after: dict[str, Any]
    version: int | None


def edit_of(record: dict[str, Any], changes: dict[str, Any]) -> Edit:
    """The Edit that turns `record` into `record` with `changes` (only what differs)."""
    after = {k: v for k, v in changes.items() if record.get(k) != v}
    return Edit(record["id"], {k: record.get(k) for k in after}, after, record["version"])


class EditCommand(MemoryCommand):
    """Field changes to one or many memories (edit in place, retag, move layer, set project)."""

    def __init__(
        self, service: MemoryService, text: str, edits: Iterable[Edit], report: Reporter
    ) -> None:
        super().__init__(service, text, report)
        self.edits = [e for e in edits if e.after]

    def execute(self) -> None:
        for edit in self.edits:
            self.service.update(edit.id, expected_version=edit.version, **edit.after)

    def _apply(self, forward: bool) -> None:
        # Other steps on the stack bump versions too, so what must hold is the fields: only if
        # each memory still has the values this step left, put the other side back.
        steps = [(e, e.after, e.before) if forward else (e, e.before, e.after) for e in self.edits]
        current = {e.id: self.service.get(e.id) for e in self.edits}
        for edit, _put, expect in steps:
            now = current[edit.id]
            if any(now.get(k) != v for k, v in expect.items()):
                raise VersionConflict(
                    f"“{first_line(now['content'])[:60]}” was changed since (now version "
                    f"{now['version']}), so this step was not undone or redone over that change."
                )
        for edit, put, _expect in steps:
            self.service.update(edit.id, expected_version=current[edit.id]["version"], **put)

    def _redo(self) -> None:
        self._apply(forward=True)

    def _undo(self) -> None:
        self._apply(forward=False)


class RevertCommand(EditCommand):
    """History's Restore: an earlier version's content becomes current, as a new version."""

    def __init__(
        self, service: MemoryService, record: dict[str, Any], version: int, report: Reporter
    ) -> None:
        super().__init__(service, f"Restore version {version}", [], report)
        self._record = record
        self._target = version

    def execute(self) -> None:
        rec = self.service.revert(
            self._record["id"], self._target, expected_version=self._record["version"]
        )
        self.edits = [edit_of(self._record, {k: rec[k] for k in EDITABLE})]


class StatusCommand(MemoryCommand):
    """Moving memories to the Trash and back. `forward` is what redo does."""

    def __init__(
        self,
        service: MemoryService,
        text: str,
        ids: list[str],
        report: Reporter,
        *,
        forward: str = "remove",
    ) -> None:
        super().__init__(service, text, report)
        self.ids = list(ids)
        self._forward = forward

    def _move(self, action: str) -> None:
        do = self.service.remove if action == "remove" else self.service.restore
        for memory_id in self.ids:
            do(memory_id)

    def _redo(self) -> None:
        self._move(self._forward)

    def _undo(self) -> None:
        self._move("restore" if self._forward == "remove" else "remove")


class ImportCommand(StatusCommand):
    """An import that already happened: undo moves the added memories to the Trash."""

    def __init__(self, service: MemoryService, ids: list[str], report: Reporter) -> None:
        super().__init__(service, f"Import {noun(len(ids))}", ids, report, forward="restore")

    def execute(self) -> None:
        """The import dialog already wrote them."""


class AddCommand(MemoryCommand):
    """A new memory written by the person; undo moves it to the Trash."""

    def __init__(self, service: MemoryService, fields: dict[str, Any], report: Reporter) -> None:
        super().__init__(service, f"New memory “{first_line(fields['content'])[:40]}”", report)
        self.fields = fields
        self.id: str | None = None

    def execute(self) -> None:
        self.id = self.service.add(dedup=False, **self.fields)["id"]

    def _redo(self) -> None:
        assert self.id is not None
        self.service.restore(self.id)

    def _undo(self) -> None:
        assert self.id is not None
        self.service.remove(self.id)


class IdentityCommand(MemoryCommand):
    """A saved identity profile; undo puts the previous text back (unless an agent changed it)."""

    def __init__(self, service: MemoryService, before: str, after: str, report: Reporter) -> None:
        super().__init__(service, "Edit identity", report)
        self.before, self.after = before, after

    def execute(self) -> None:
        """The identity editor saved it (it handles conflicts itself)."""

    def _set(self, expect: str, put: str) -> None:
        current = self.service.identity()
        if current["text"] != expect.strip():
            raise VersionConflict(
                "the identity profile was changed since, so this step was not undone or redone "
                "over that change"
            )
        self.service.set_identity(put, expected=current["ids"])

    def _redo(self) -> None:
        self._set(self.before, self.after)

    def _undo(self) -> None:
        self._set(self.after, self.before)


def noun(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"
