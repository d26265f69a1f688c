"""Sync: set up, pull, merge and push through git (writing what
came in: writing.py; the inbox items a merge leaves: asking.py).

One sync with one remote: fetch; merge this machine's shared memories with the remote's and
the base; write what came in (one transaction, one undoable step in the window); commit the
merged state on the remote's head and push; only then move the base. Killed at any point, the
next sync finds the same or a later state and loses nothing: a push never happened (the base
still says what to send), or happened (the remote already holds the merge).
"""

from __future__ import annotations

import fcntl
import json
import shutil
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.authorship import Authorship
from memdesk.core.desk import Desk
from memdesk.core.errors import Busy, MemdeskError, ValidationError
from memdesk.core.memory.steps import Step
from memdesk.core.memory.undo import Undo
from memdesk.core.sync import (
    announced,
    arriving,
    git,
    joining,
    mending,
    moved,
    report,
    vouching,
    writers,
)
from memdesk.core.sync import config as sync_config
from memdesk.core.sync.asking import SyncQuestions
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.files import IDENTITY, Unit
from memdesk.core.sync.incoming import Incoming, checked
from memdesk.core.sync.local import kept_local_notice, render, state
from memdesk.core.sync.merge import HELD, KINDS, Outcome, Side, merge
from memdesk.core.sync.sides import TreeSide
from memdesk.core.sync.tree import tree_changes
from memdesk.core.sync.writing import SyncWrites
from memdesk.store import Forgotten, Memory, Proposal, among

TRIES = 5  # fetch-merge-push rounds while others push at the same moment


class Sync:
    """sync_init, sync, sync_remove, sync_local, sync_status."""

    def __init__(self, desk: Desk, undo: Undo, takes: SyncWrites, questions: SyncQuestions) -> None:
        self.desk = desk
        self.undo = undo
        self.takes = takes
        self.questions = questions

    def authorship(self) -> Authorship:
        """Whose synced memories are the person's own words: this machine's, and those of the
        person's other machines (in a team project, only as those machines vouched for them);
        any other writer's are someone else's."""
        return vouching.authorship(self.desk.path, sync_config.load(self.desk.path))

    def machine_names(self) -> frozenset[str]:
        """The writer names the person's machines go by, this one's first set up or not."""
        config = sync_config.load(self.desk.path)
        return frozenset({config.writer, *config.own_writers})

    def sync_init(
        self,
        url: str,
        *,
        branch: str | None = None,
        name: str | None = None,
        projects: list[str] | None = None,
        writer: str | None = None,
        actor: Actor = USER,
    ) -> dict[str, Any]:
        """Set up a remote: a bare repository path (made if absent), ssh or https. Nothing
        is sent until the first sync. `writer` names who this machine's memories are by."""
        rules.check_person(actor, "set up sync", field="remote", or_memdesk=True)
        config = sync_config.load(self.desk.path)
        if writer is not None:
            config.writer = writers.machine_name(writer) or config.writer
        remote = sync_config.checked_remote(url, branch, name, projects, config)
        if remote.projects is None and any(r.projects is None for r in config.remotes):
            raise ValidationError(
                "a remote for your own memories is already set up; a second one must name the "
                "team's projects it takes (--project)",
                field="projects",
            )
        made = joining.made_if_absent(remote.url, remote.branch)
        sync_config.private_folder(self.desk.path)
        mirror_path = sync_config.mirror_path(self.desk.path, remote)
        shutil.rmtree(mirror_path, ignore_errors=True)  # a failed earlier init's leftovers
        try:
            mirror = git.Mirror.create(mirror_path, remote.url, remote.branch)
            head = mirror.fetch()
            joining.check_only_ours(mirror, remote.url, head)
            joining.check_name_free(mirror, head, remote.url, config.writer, _known_here)
        except MemdeskError:
            shutil.rmtree(mirror_path, ignore_errors=True)
            raise
        config.remotes.append(remote)
        sync_config.save(self.desk.path, config)
        status = self.sync_status(actor=actor)
        return status | {"created": made is not None} | ({"notice": made} if made else {})

    def sync(
        self,
        remote: str | None = None,
        *,
        actor: Actor = USER,
        on_step: Callable[[Step], None] | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Sync with one remote, or every remote in turn. `on_step` (the window) is given
        what each sync wrote here, to undo. One remote failing does not keep the others from
        syncing: its entry says why (`ok` false); when every one failed, the first failure is
        raised. With `dry_run`, each remote is fetched and merged in memory only: what would
        be sent, taken, put in the Trash, asked and refused, nothing written or pushed."""
        rules.check_person(actor, "sync", field="remote", or_memdesk=True)
        config = sync_config.load(self.desk.path)
        chosen = [config.remote(remote)] if remote or not config.remotes else config.remotes
        results, failures = [], []
        for each in chosen:
            try:
                results.append(self._sync_remote(config, each, on_step, dry_run))
            except MemdeskError as exc:
                failures.append(exc)
                results.append({"remote": each.name, "ok": False, "error": exc.message})
        if len(failures) == len(chosen):
            raise failures[0]
        return {"remotes": results}

    def sync_remove(self, name: str, *, actor: Actor = USER) -> dict[str, Any]:
        """Stop syncing with a remote: its set-up and this machine's mirror of it go; the
        remote itself and every memory here stay as they are."""
        rules.check_person(actor, "stop syncing", field="remote", or_memdesk=True)
        config = sync_config.load(self.desk.path)
        remote = config.remote(validate.name(name, "name"))
        with _only_one(sync_config.folder(self.desk.path) / f"{remote.name}.lock"):
            config.remotes.remove(remote)
            sync_config.save(self.desk.path, config)
            shutil.rmtree(sync_config.mirror_path(self.desk.path, remote), ignore_errors=True)
            sync_config.forget_result(self.desk.path, remote)
        return self.sync_status(actor=actor)

    def forget_agreed(self) -> None:
        """After this machine's store went back to a backup: nothing is agreed with any
        remote any more. The base (the state both sides last agreed on) described a store
        that no longer exists: merged against it, memories added since the backup counted
        as deleted here and were neither taken back nor sent away, and the two machines
        stayed different for good. Without it the next sync compares every memory afresh:
        what a remote holds that the backup lacks comes back, what differs is a conflict."""
        config = sync_config.load(self.desk.path)
        for remote in config.remotes:
            with _only_one(sync_config.folder(self.desk.path) / f"{remote.name}.lock"):
                path = sync_config.mirror_path(self.desk.path, remote)
                if path.exists():
                    git.Mirror(path, remote.branch).forget_base()
                sync_config.forget_result(self.desk.path, remote)

    def sync_local(
        self, project: str, *, local: bool = True, actor: Actor = USER
    ) -> dict[str, Any]:
        """Keep a project's memories on this machine only (or let them sync again). Memories
        of it already in a repository stay there, no longer updated from here."""
        rules.check_person(actor, "choose what syncs", field="remote", or_memdesk=True)
        name = validate.name(project, "project")
        if name is None:
            raise ValidationError("name the project to keep on this machine", field="project")
        said = kept_local_notice(name) if local else None
        config = sync_config.load(self.desk.path)
        config.local = sorted(set(config.local) | {name} if local else set(config.local) - {name})
        sync_config.save(self.desk.path, config)
        return self.sync_status(actor=actor) | ({"notice": said} if said else {})

    def sync_status(self, *, actor: Actor = USER) -> dict[str, Any]:
        rules.check_person(actor, "see the sync set-up", field="remote", or_memdesk=True)
        config = sync_config.load(self.desk.path)
        waiting = _waiting_by_remote()
        lasts = {r.name: sync_config.last_result(self.desk.path, r) for r in config.remotes}
        for last in lasts.values():
            if last and last.get("notices"):
                last["notices"] = writers.current(last["notices"], config)
        return {
            "every_minutes": config.every_minutes if config.remotes else None,
            "local": config.local,
            "writer": config.writer,
            "machines": config.own_writers,
            "unconfirmed": config.met_writers,
            "remotes": [
                {
                    "name": r.name,
                    "url": r.url,
                    "branch": r.branch,
                    "projects": r.projects,
                    "last": lasts[r.name],
                    "waiting": waiting.get(r.name, 0),
                }
                for r in config.remotes
            ],
        }

    # -- one remote --------------------------------------------------------------------------

    def _sync_remote(
        self,
        config: Config,
        remote: Remote,
        on_step: Callable[[Step], None] | None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        started = clock.now()
        try:
            with _only_one(sync_config.folder(self.desk.path) / f"{remote.name}.lock"):
                mirror = git.Mirror(sync_config.mirror_path(self.desk.path, remote), remote.branch)
                for _ in range(TRIES):
                    try:
                        result = self._sync_once(config, remote, mirror, on_step, dry_run)
                        break
                    except git.Rejected:
                        continue
                else:
                    raise git.SyncFailed(
                        f"the remote changed {TRIES} times while syncing; sync again later"
                    )
        except MemdeskError as exc:
            result = {"ok": False, "error": exc.message}
            if not dry_run:
                sync_config.save_result(self.desk.path, remote, {**result, "at": started})
            raise
        result = {"ok": True, "remote": remote.name, "at": started, **result}
        if not dry_run:
            sync_config.save_result(self.desk.path, remote, result)
        return result

    def _sync_once(
        self,
        config: Config,
        remote: Remote,
        mirror: git.Mirror,
        on_step: Callable[[Step], None] | None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        head = mirror.fetch()
        last_base = mirror.base()
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
        if not dry_run and head is not None and head == last_base:
            quiet = sync_config.quiet(self.desk.path, remote)
            # (files waiting for a voucher are looked at again: it may have come meanwhile)
            if (
                quiet
                and not quiet["result"].get("waiting")
                and quiet["commit"] == head
                and quiet["local"] == self._state(config, remote)
            ):
                return quiet["result"]  # the last sync found nothing to do, and nothing moved
        theirs = TreeSide.read(mirror, head)
        base = theirs if head == last_base else TreeSide.read(mirror, last_base)
        base_side, remote_side = base.side(), theirs.side()
        changed = {i for i, d in remote_side.digests.items() if base_side.digests.get(i) != d}
        # Refused earlier and not changed since: held, or this machine's older state would go
        # out over the remote's as if it were new; those waiting (for a voucher of the person's
        # other machine, or for room past an earlier sync's budget) are looked at again (only
        # those: a crafted remote's thousands of refused files would be read again at every
        # sync). Read together within one budget.
        last = sync_config.last_result(self.desk.path, remote) or {}
        was_held = {i for i in last.get("held", []) if i not in changed}
        self.desk.settle()
        with self.desk.database.atomic():  # one snapshot to render
            known = base.ids | theirs.ids
            local = render(remote, config.excluded(remote), known, config.writer)
            state = None if dry_run else self._state(config, remote)
        # Kept here (private, or its project kept local) when they were refused, shared again
        # since: held for good, neither side's edits went anywhere and no one was told.
        was_unshared = set(last.get("unshared", [])) & was_held
        shared_again = {i for i in was_unshared if i in local and i in theirs.ids}
        looked_again = {i for i in last.get("waiting", []) if i in was_held and i in theirs.ids}
        looked_again |= shared_again
        read = theirs.within_budget(changed | looked_again)
        changed, again = changed & read, looked_again & read
        theirs.prefetch(read)
        authors = self.authorship()
        arrived = arriving.checked_changes(theirs, base, read, remote, config, authors)
        incoming, refused, kept, waiting, older = (
            arrived.incoming,
            arrived.refused,
            arrived.kept,
            arrived.waiting,
            arrived.older,
        )
        # an older state is no opinion: as if the file were gone, this machine's goes back
        remote_side = Side(
            {i: d for i, d in remote_side.digests.items() if i not in older}, remote_side.load
        )
        waiting |= theirs.deferred
        still = was_held - again
        broken_before = last.get("broken", {})
        if mended := mending.mended(broken_before, still, local):
            still -= mended
            for memory_id in mended:
                refused.pop(memory_id, None)
            base_side = mending.sent_over(base_side, remote_side, mended)
        if taken_now := (again - shared_again) & incoming.keys():
            # never taken here: the state both sides last agreed on is this machine's
            agreed = {i: local[i].digest if i in local else None for i in taken_now}
            base_side = Side({**base_side.digests, **agreed}, base_side.load)
        if afresh := again & shared_again:
            # what both last agreed on is not known: alike is kept, unlike is asked
            base_side = Side({**base_side.digests, **dict.fromkeys(afresh)}, base_side.load)
        asked = _held(remote) | (arrived.unsigned & local.keys()) | arrived.new_unsigned
        held = asked | set(refused) | set(kept) | still
        outcome = merge(base_side, local, remote_side, held, asked)
        outcome.conflicts += arriving.unsigned_asked(arrived, local, theirs)
        arriving.teammates_changes(remote, outcome, incoming, local, authors)
        for unit in outcome.take:  # a state made of both sides is checked like any other
            if unit.id in outcome.merged:
                incoming[unit.id] = checked(unit)
        unshared = arriving.stopped_sharing(
            remote, config.excluded(remote), incoming, local, theirs.paths
        )
        kept.update(unshared)
        told_older = [f"{k}: {why}" for k, why in sorted(older.items())]
        incoming = {i: found for i, found in incoming.items() if i not in unshared}
        teams_now, teams = announced.team_moves(mirror, theirs, remote, config)
        if dry_run:
            refused.update(
                self.takes.identity_refusals(
                    [incoming[u.id] for u in outcome.take if u.id in incoming]
                )
            )
            incoming = {i: found for i, found in incoming.items() if i not in refused}
            return {
                **report.preview(outcome, incoming, refused, kept),
                "notices": moved.notices(teams, config),
            }
        told = []
        if moved.is_own(remote):
            met = {i.columns.get("writer") for i in incoming.values() if not i.deleted}
            told += writers.meet_kept(
                self.desk.path, config, met | set(teams) | arrived.met, joining=last_base is None
            )
        broken = mending.broken(arrived.unreadable, broken_before, still, local)
        told = moved.notices(teams, config) + told + mending.notices(broken, refused, remote.name)
        told += arriving.new_unsigned_notices(arrived, theirs, config.writer)
        vouched_now, vouched = announced.vouchers(
            mirror, theirs, remote, config, moved.of_machines(teams, config)
        )
        taken = self._write_merge(remote, outcome, incoming, local, refused, on_step)
        held_now = ((set(refused) | set(kept)) - {IDENTITY}) | still
        changes = tree_changes(outcome, theirs, team=remote.projects is not None)
        if teams != teams_now:
            changes[moved.TEAMS] = moved.text(teams)
        if vouched != vouched_now:
            changes[vouching.VOUCHED] = vouching.text(vouched)
        if moved.is_own(remote):
            vouching.keep(self.desk.path, vouched)
        if changes or head is None:
            message = f"memdesk sync: {outcome.sent} from {_machine()}"
            commit = mirror.commit(head, changes, message)
            mirror.push(commit)
        else:
            commit = head
        mirror.set_base(commit)
        result = {
            "sent": outcome.sent,
            "taken": taken,
            # said, as the dry run says it: "took 1" hid a memory gone to the Trash
            "to_trash": sum(incoming[u.id].deleted for u in outcome.take if u.id in incoming),
            "conflicts": len(outcome.conflicts),
            "refused": report.reported(refused, told_older),
            # the person's choice, not a failed check: told apart, and only counted in text
            "kept_here": report.reported(kept, word="kept here"),
            "held": sorted(held_now),
            # held while this machine kept them to itself: compared afresh once shared again
            "unshared": sorted(_held_here(held_now - local.keys())),
            "waiting": sorted(waiting),
            "broken": broken,
            "commit": commit,
            "notices": told,
        }
        nothing_done = commit == head and not (taken or outcome.conflicts or told)
        sync_config.save_quiet(
            self.desk.path,
            remote,
            {"commit": commit, "local": state, "result": result} if nothing_done else None,
        )
        return result

    def _state(self, config: Config, remote: Remote) -> str:
        """What this machine holds for `remote`, as a digest (local.state), read at once."""
        with self.desk.database.atomic():
            return state(remote, config.excluded(remote), config.writer, _held(remote))

    def sync_trust(
        self, writer: str, *, unmet: bool = False, trusted: bool = True, actor: Actor = USER
    ) -> dict[str, Any]:
        """Confirm a writer met in the person's own remote as one of their machines: its
        memories count as the person's words and its identity lines are taken at the next
        sync. `unmet`: a name no remote has shown writing yet, meant; `trusted` false takes
        the trust back."""
        rules.check_person(actor, "confirm a machine", field="writer", or_memdesk=True)
        config = sync_config.load(self.desk.path)
        seen = {w for (w,) in Memory.select(Memory.writer).distinct().tuples() if w}
        if trusted:
            writers.trust(config, writer, seen, unmet=unmet)
        else:
            writers.untrust(config, writer, seen)
        sync_config.save(self.desk.path, config)
        return self.sync_status(actor=actor)

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


# -- helpers -----------------------------------------------------------------------------------


@contextmanager
def _only_one(lock_path: Path) -> Iterator[None]:
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy("a sync of this database with that remote is running; wait for it") from None
        yield


def _known_here(ids: set[str]) -> set[str]:
    """Of `ids`, those this machine holds or deleted for good."""
    forgotten = Forgotten.select(Forgotten.uuid).where(Forgotten.uuid.in_(among(ids))).tuples()
    return _held_here(ids) | {u for (u,) in forgotten}


def _held_here(ids: set[str]) -> set[str]:
    """Of `ids`, those this machine holds."""
    return {u for (u,) in Memory.select(Memory.uuid).where(Memory.uuid.in_(among(ids))).tuples()}


def _held(remote: Remote) -> set[str]:
    """Memories waiting for the person: two machines disagreed, or a teammate deleted one the
    person wrote."""
    query = Proposal.select(Proposal.subject).where(
        (Proposal.status == "pending") & Proposal.kind.in_(HELD) & (Proposal.agent == remote.name)
    )
    return {json.loads(p.subject)[0] for p in query}


def _waiting_by_remote() -> dict[str, int]:
    counts: dict[str, int] = {}
    query = Proposal.select(Proposal.agent).where(
        (Proposal.status == "pending") & Proposal.kind.in_(KINDS)
    )
    for proposal in query:
        counts[proposal.agent] = counts.get(proposal.agent, 0) + 1
    return counts


def _machine() -> str:
    return socket.gethostname() or "this machine"
