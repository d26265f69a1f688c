"""One sync with one remote: fetch; merge this machine's shared memories with the remote's and
the base; write what came in (one transaction, one undoable step in the window); commit the
merged state on the remote's head and push; only then move the base. Killed at any point, the
next sync finds the same or a later state and loses nothing: a push never happened (the base
still says what to send), or happened (the remote already holds the merge).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

from memdesk.core.authorship import Authorship
from memdesk.core.desk import Desk
from memdesk.core.memory.steps import Step
from memdesk.core.memory.undo import Undo
from memdesk.core.sync import announced, arriving, git, mending, moved, report, vouching, writers
from memdesk.core.sync import config as sync_config
from memdesk.core.sync.asking import SyncQuestions
from memdesk.core.sync.between import attach_between
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.files import IDENTITY, Unit
from memdesk.core.sync.incoming import Incoming, checked
from memdesk.core.sync.inputs import Inputs, held_before, merge_inputs
from memdesk.core.sync.local import held_here, render, state
from memdesk.core.sync.merge import DISAGREE, HELD, SHARED_AGAIN, Outcome, merge
from memdesk.core.sync.past import unchanged_here
from memdesk.core.sync.sides import TreeSide
from memdesk.core.sync.tree import tree_changes
from memdesk.core.sync.writing import SyncWrites
from memdesk.store import Proposal


class Exchange:
    """One sync with one remote, from the fetch to the result; `Sync` holds the remote's lock
    and tries again when another machine pushed first (git.Rejected)."""

    def __init__(
        self,
        desk: Desk,
        undo: Undo,
        takes: SyncWrites,
        questions: SyncQuestions,
        authorship: Callable[[], Authorship],
    ) -> None:
        self.desk = desk
        self.undo = undo
        self.takes = takes
        self.questions = questions
        self.authorship = authorship

    def once(
        self,
        config: Config,
        remote: Remote,
        mirror: git.Mirror,
        on_step: Callable[[Step], None] | None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        head = mirror.fetch()
        last_base = mirror.base()
        _check_same_history(remote, mirror, head, last_base)
        quiet = None if dry_run else self._nothing_moved(config, remote, head, last_base)
        if quiet is not None:
            return quiet
        ins, state = self._read_changes(config, remote, mirror, head, last_base, dry_run)
        outcome, incoming = self._merge(config, remote, ins)
        teams_now, teams = announced.team_moves(mirror, ins.theirs, remote, config)
        if dry_run:
            return self._preview(config, ins, outcome, incoming, teams)
        _told_shared_again(outcome, ins, head)
        if last_base is not None and head is not None:  # (a first pull takes the states alone)
            takes = _taken_over(outcome, incoming, ins.local)
            excluded = config.excluded(remote)
            commits = f"{last_base}..{head}"
            attach_between(ins.theirs, commits, takes, ins.local, remote, excluded, ins.authors)
        told, broken = self._notices(config, remote, ins, incoming, teams, last_base is None)
        vouched_now, vouched = announced.vouchers(
            mirror, ins.theirs, remote, config, moved.of_machines(teams, config)
        )
        taken = self._write_merge(
            remote, outcome, incoming, ins.local, ins.arrived.refused, on_step
        )
        changes = tree_changes(outcome, ins.theirs, team=remote.projects is not None)
        if teams != teams_now:
            changes[moved.TEAMS] = moved.text(teams)
        if vouched != vouched_now:
            changes[vouching.VOUCHED] = vouching.text(vouched)
        if moved.is_own(remote):
            vouching.keep(self.desk.path, vouched)
        commit = _pushed(mirror, head, changes, outcome.sent)
        result = _result(ins, outcome, incoming, taken, broken, commit, told)
        nothing_done = commit == head and not (taken or outcome.conflicts or told)
        sync_config.save_quiet(
            self.desk.path,
            remote,
            {"commit": commit, "local": state, "result": result} if nothing_done else None,
        )
        return result

    def _nothing_moved(
        self, config: Config, remote: Remote, head: str | None, last_base: str | None
    ) -> dict[str, Any] | None:
        """The last sync's result when it found nothing to do and nothing moved since."""
        if head is None or head != last_base:
            return None
        quiet = sync_config.quiet(self.desk.path, remote)
        # (files waiting for a voucher are looked at again: it may have come meanwhile)
        if (
            quiet
            and not quiet["result"].get("waiting")
            and quiet["commit"] == head
            and quiet["local"] == self._state(config, remote)
        ):
            return quiet["result"]
        return None

    def _read_changes(
        self,
        config: Config,
        remote: Remote,
        mirror: git.Mirror,
        head: str | None,
        last_base: str | None,
        dry_run: bool,
    ) -> tuple[Inputs, str | None]:
        """What the remote changed since the last sync, read and checked, with this
        machine's memories: the merge's inputs, and this machine's state (none in a dry run)."""
        theirs = TreeSide.read(mirror, head)
        base = theirs if head == last_base else TreeSide.read(mirror, last_base)
        base_side, remote_side = base.side(), theirs.side()
        changed = {i for i, d in remote_side.digests.items() if base_side.digests.get(i) != d}
        last = sync_config.last_result(self.desk.path, remote) or {}
        self.desk.settle()
        with self.desk.database.atomic():  # one snapshot to render
            known = base.ids | theirs.ids
            local = render(remote, config.excluded(remote), known, config.writer)
            state = None if dry_run else self._state(config, remote)
        before = held_before(last, changed, local, theirs.ids)
        # those changed and those looked at again: read together within one budget
        read = theirs.within_budget(changed | before.looked_again, base)
        theirs.prefetch(read)
        authors = self.authorship()
        arrived = arriving.checked_changes(theirs, base, read, remote, config, authors)
        arrived.waiting |= theirs.deferred
        again = before.looked_again & read
        broken_before = last.get("broken", {})
        sides = base_side, remote_side
        ins = merge_inputs(theirs, arrived, local, authors, sides, before, again, broken_before)
        return ins, state

    def _merge(
        self, config: Config, remote: Remote, ins: Inputs
    ) -> tuple[Outcome, dict[str, Incoming]]:
        """The merge, and what of the remote's it takes here."""
        arrived, local, incoming = ins.arrived, ins.local, ins.arrived.incoming
        asked = _held(remote) | (arrived.unsigned & local.keys()) | arrived.new_unsigned
        held = asked | set(arrived.refused) | set(arrived.kept) | ins.still
        outcome = merge(ins.base, local, ins.remote, held, asked)
        outcome.conflicts += arriving.unsigned_asked(arrived, local, ins.theirs)
        arriving.teammates_changes(remote, outcome, incoming, local, ins.authors)
        for unit in outcome.take:  # a state made of both sides is checked like any other
            if unit.id in outcome.merged:
                incoming[unit.id] = checked(unit)
        unshared = arriving.stopped_sharing(
            remote, config.excluded(remote), incoming, local, ins.theirs.paths
        )
        arrived.kept.update(unshared)
        return outcome, {i: found for i, found in incoming.items() if i not in unshared}

    def _preview(
        self,
        config: Config,
        ins: Inputs,
        outcome: Outcome,
        incoming: dict[str, Incoming],
        teams: announced.Announced,
    ) -> dict[str, Any]:
        refused, kept = ins.arrived.refused, ins.arrived.kept
        refused.update(
            self.takes.identity_refusals([incoming[u.id] for u in outcome.take if u.id in incoming])
        )
        incoming = {i: found for i, found in incoming.items() if i not in refused}
        return {
            **report.preview(outcome, incoming, refused, kept),
            "notices": moved.notices(teams, config),
        }

    def _notices(
        self,
        config: Config,
        remote: Remote,
        ins: Inputs,
        incoming: dict[str, Incoming],
        teams: announced.Announced,
        joining: bool,
    ) -> tuple[list[str], dict[str, str]]:
        """What the sync tells, and the memories held for a file that cannot be read."""
        arrived, told = ins.arrived, []
        if moved.is_own(remote):
            met = {i.columns.get("writer") for i in incoming.values() if not i.deleted}
            told += writers.meet_kept(
                self.desk.path, config, met | set(teams) | arrived.met, joining=joining
            )
        broken = mending.broken(arrived.unreadable, ins.broken_before, ins.still, ins.local)
        told = (
            moved.notices(teams, config)
            + told
            + mending.notices(broken, arrived.refused, remote.name)
        )
        told += arriving.new_unsigned_notices(arrived, ins.theirs, config.writer)
        return told, broken

    def _state(self, config: Config, remote: Remote) -> str:
        """What this machine holds for `remote`, as a digest (local.state), read at once."""
        with self.desk.database.atomic():
            return state(remote, config.excluded(remote), config.writer, _held(remote))

    def _write_merge(
        self,
        remote: Remote,
        outcome: Outcome,
        incoming: dict[str, Incoming],
        local: dict[str, Unit],
        refused: dict[str, str],
        on_step: Callable[[Step], None] | None,
    ) -> int:
        takes = [incoming[u.id] for u in outcome.take if u.id in incoming]
        if not takes and not outcome.conflicts:
            return 0

        def write() -> int:
            with self.desk.write() as pending:
                done = self.takes.take_all(remote, takes, local, refused, pending)
                for conflict in outcome.conflicts:
                    self.questions.ask(remote, conflict, pending)
                return done

        if on_step is None:
            return write()
        taken, step = self.undo.record(write)
        on_step(step)
        return taken


def _check_same_history(
    remote: Remote, mirror: git.Mirror, head: str | None, last_base: str | None
) -> None:
    if last_base is not None and not mirror.descends(head, last_base):
        # A folder remote swapped for another repository of the person's took a push of
        # their memories onto that repository's history.
        gone = "is gone" if head is None else "holds another history"
        raise git.SyncFailed(
            f"the remote {remote.name} no longer holds what this machine last synced with "
            f"it (its branch {remote.branch} {gone}): it was replaced or rewritten. Nothing "
            "was sent or taken. If you replaced it on purpose, set it up again: "
            f"`memdesk sync remove {remote.name}`, then `memdesk sync init <remote>`"
        )


def _taken_over(
    outcome: Outcome, incoming: dict[str, Incoming], local: dict[str, Unit]
) -> list[Incoming]:
    """The remote's states taken as they are over a memory this machine holds and shares
    (not one made of both sides' fields, nor one over a deletion here)."""
    return [
        incoming[unit.id]
        for unit in outcome.take
        if unit.id in incoming
        and unit.id not in outcome.merged
        and unit.id in local
        and not local[unit.id].deleted
    ]


def _told_shared_again(outcome: Outcome, ins: Inputs, head: str | None) -> None:
    """The memories asked because they were shared again, that this machine left as they
    were while it did not share them, asked as that (not as "changed here")."""
    asked = {c.id for c in outcome.conflicts if c.kind == DISAGREE and c.by is None}
    if head is None or not (afresh := asked & ins.shared_again):
        return
    unchanged = unchanged_here(ins.theirs, head, ins.local, afresh)
    for conflict in outcome.conflicts:
        if conflict.id in unchanged and conflict.kind == DISAGREE and conflict.by is None:
            conflict.by = SHARED_AGAIN


def _pushed(
    mirror: git.Mirror, head: str | None, changes: dict[str, bytes | None], sent: int
) -> str | None:
    """The merged state committed on the remote's head and pushed (or the head, when the
    merge changes nothing there), then agreed as the base."""
    if changes or head is None:
        commit = mirror.commit(head, changes, f"memdesk sync: {sent} from {_machine()}")
        mirror.push(commit)
    else:
        commit = head
    mirror.set_base(commit)
    return commit


def _result(
    ins: Inputs,
    outcome: Outcome,
    incoming: dict[str, Incoming],
    taken: int,
    broken: dict[str, str],
    commit: str | None,
    told: list[str],
) -> dict[str, Any]:
    refused, kept = ins.arrived.refused, ins.arrived.kept
    held_now = ((set(refused) | set(kept)) - {IDENTITY}) | ins.still
    return {
        "sent": outcome.sent,
        "taken": taken,
        # said, as the dry run says it: "took 1" hid a memory gone to the Trash
        "to_trash": sum(incoming[u.id].deleted for u in outcome.take if u.id in incoming),
        "conflicts": len(outcome.conflicts),
        "refused": report.reported(
            refused, [f"{k}: {why}" for k, why in sorted(ins.arrived.older.items())]
        ),
        # how many in all: the list names the first report.REPORTED
        "refused_count": len(refused) + len(ins.arrived.older),
        # the person's choice, not a failed check: told apart, and only counted in text
        "kept_here": report.reported(kept, word="kept here"),
        "kept_here_count": len(kept),
        "held": sorted(held_now),
        # held while this machine kept them to itself: compared afresh once shared again
        "unshared": sorted(held_here(held_now - ins.local.keys())),
        "waiting": sorted(ins.arrived.waiting),
        "broken": broken,
        "commit": commit,
        "notices": told,
    }


def _held(remote: Remote) -> set[str]:
    """Memories waiting for the person: two machines disagreed, or a teammate deleted one the
    person wrote."""
    query = Proposal.select(Proposal.subject).where(
        (Proposal.status == "pending") & Proposal.kind.in_(HELD) & (Proposal.agent == remote.name)
    )
    return {json.loads(p.subject)[0] for p in query}


def _machine() -> str:
    return socket.gethostname() or "this machine"
