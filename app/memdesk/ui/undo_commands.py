"""Undoable window actions: each is one recorded service call (see `memdesk.core.memory.steps`).

The action runs once, before its command is pushed, so a refused action (a validation error,
a full identity, a version conflict) is reported and never lands on the stack. Undo and redo
hand the recorded step back to the service, which puts back exactly what the action changed,
or refuses as a whole, with the reason, when an agent (or Empty Trash) changed it since.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtGui import QUndoCommand, QUndoStack

from memdesk.core import MemdeskError, MemoryService, Step

Reporter = Callable[[MemdeskError], None]
T = TypeVar("T")


def perform(
    stack: QUndoStack,
    service: MemoryService,
    text: str,
    action: Callable[[], T],
    report: Reporter,
) -> T:
    """Run `action` (one writing service call) now and push what it did for undo.

    Raises the service's MemdeskError when the action is refused; nothing is pushed then.
    """
    result, step = service.record(action)
    push(stack, service, text, step, report)
    return result


def push(
    stack: QUndoStack, service: MemoryService, text: str, step: Step, report: Reporter
) -> None:
    """Put an already applied step on the stack (a step that changed nothing is not kept)."""
    if not step.empty:
        stack.push(StepCommand(service, text, step, report))


class StepCommand(QUndoCommand):
    """One applied step. Qt calls redo() on push: the action already ran, so that first call
    does nothing. Refusals are reported, not raised (an exception inside undo() is lost)."""

    def __init__(self, service: MemoryService, text: str, step: Step, report: Reporter) -> None:
        # Qt shows the text in the Edit menu, where "&" marks a shortcut letter: doubled, it
        # is shown ("Undo Edit & accept", not "Undo Edit  accept").
        super().__init__(text.replace("&", "&&"))
        self.title = text
        self.service = service
        self.step = step
        self._report = report
        self._applied = True

    def redo(self) -> None:
        if not self._applied:
            self._apply(undo=False)

    def undo(self) -> None:
        self._apply(undo=True)

    def _apply(self, *, undo: bool) -> None:
        try:
            self.service.apply_step(self.step, undo=undo)
        except MemdeskError as exc:
            # Qt drops a command made obsolete during undo/redo: it cannot be replayed safely.
            # Say so, or the next Ctrl+Z silently undoes an older step.
            self.setObsolete(True)
            verb = "undo" if undo else "redo"
            then = "Undo now goes to the step before it" if undo else "nothing is left to redo"
            self._report(
                MemdeskError(
                    f"Could not {verb} “{self.title}”: {exc.message.rstrip('. ')}. It was taken "
                    f"off the undo history; {then}."
                )
            )
            return
        self._applied = not undo


def discard_redo(stack: QUndoStack) -> None:
    """Forget the steps undone so far, as any new action does: after Empty Trash they could
    name memories that no longer exist, and a Redo offered then would only be refused.

    Qt has no call for it; a push drops the redo steps first, and an obsolete command is then
    deleted rather than kept, so the undo side stays as it was. Qt announces nothing then (the
    index did not move): the Redo action stayed enabled, offering a step that was gone."""
    command = QUndoCommand()
    command.setObsolete(True)
    stack.push(command)
    stack.canRedoChanged.emit(stack.canRedo())
    stack.redoTextChanged.emit(stack.redoText())


def noun(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"
