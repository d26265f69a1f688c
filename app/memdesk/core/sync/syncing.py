"""Sync: set up, pull, merge and push through git (one sync with one remote: exchange.py;
writing what came in: writing.py; the inbox items a merge leaves: asking.py)."""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.authorship import Authorship, as_told
from memdesk.core.desk import Desk
from memdesk.core.errors import Busy, MemdeskError, ValidationError
from memdesk.core.memory.steps import Step
from memdesk.core.memory.undo import Undo
from memdesk.core.sync import config as sync_config
from memdesk.core.sync import git, joining, moved, vouching, writers
from memdesk.core.sync.asking import SyncQuestions
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.exchange import Exchange
from memdesk.core.sync.local import held_here, kept_local_notice
from memdesk.core.sync.merge import KINDS
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
        self.exchange = Exchange(desk, undo, takes, questions, self.authorship)

    def authorship(self) -> Authorship:
        """Whose synced memories are the person's own words: this machine's, and those of the
        person's other machines (in a team project, only as those machines vouched for them);
        any other writer's are someone else's."""
        return vouching.authorship(self.desk.path, sync_config.load(self.desk.path))

    def as_told(self, memories: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """`memories`, each in the person's name but someone else's words marked so
        (`authorship.as_told`). Most were written here: then the sync files are not read."""
        if all(m.get("writer") is None for m in memories):
            return memories
        own = self.authorship()
        return [as_told(m, own) for m in memories]

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
            moved.leave(config, remote)
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
                        result = self.exchange.once(config, remote, mirror, on_step, dry_run)
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
    return held_here(ids) | {u for (u,) in forgotten}


def _waiting_by_remote() -> dict[str, int]:
    counts: dict[str, int] = {}
    query = Proposal.select(Proposal.agent).where(
        (Proposal.status == "pending") & Proposal.kind.in_(KINDS)
    )
    for proposal in query:
        counts[proposal.agent] = counts.get(proposal.agent, 0) + 1
    return counts
