"""The window's actions as steps that undo and redo exactly (the states kept: steps.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import VersionConflict
from memdesk.core.events import Change
from memdesk.core.memory import steps
from memdesk.core.memory.identity_room import check_identity_room
from memdesk.core.memory.versions import Versions

T = TypeVar("T")


class Undo:
    def __init__(self, desk: Desk, versions: Versions) -> None:
        self.desk = desk
        self.versions = versions

    def record(self, action: Callable[[], T]) -> tuple[T, steps.Step]:
        """Run `action` (one or more writing calls) as one transaction, all or nothing, and
        return its result with the Step that undoes it exactly."""
        recorder = steps.Recorder()
        result = self.desk.recording(recorder, action)
        return result, recorder.step

    def as_one(self, action: Callable[[], T]) -> T:
        """Several writing calls as one transaction, announced once it commits (inside a
        window's recorded action, part of that action)."""
        if self.desk.recorder is not None:
            return action()
        return self.record(action)[0]

    def apply_step(self, step: steps.Step, *, undo: bool, actor: Actor = USER) -> None:
        """Undo (or redo) a recorded step in one transaction. Refused as a whole, with the
        reason, when a memory it touched no longer holds what the step left there."""
        expect, target = (step.after, step.before) if undo else (step.before, step.after)
        proposals_expect, proposals_target = (
            (step.proposals_after, step.proposals_before)
            if undo
            else (step.proposals_before, step.proposals_after)
        )
        with self.desk.write() as pending:
            now = steps.capture(step.ids)
            proposals_now = steps.capture_proposals(list(proposals_expect))
            why = steps.conflicts(step, expect, target, now) or steps.proposal_conflict(
                proposals_expect, proposals_now
            )
            if why:
                raise VersionConflict(why)
            steps.write(
                step,
                (expect, target, now),
                actor,
                pending,
                "undo" if undo else "redo",
                save=self.versions.save,
            )
            check_identity_room([])
            steps.write_proposals(proposals_target, proposals_now)
            if proposals_target:
                pending.append(Change("inbox", "", None, actor.label))
