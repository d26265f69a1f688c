"""Sync (mixed into MemoryService): pull, merge and push through git, and the inbox decisions
a merge leaves.

One sync with one remote: fetch; merge this machine's shared memories with the remote's and
the base; write what came in (one transaction, one undoable step in the window); commit the
merged state on the remote's head and push; only then move the base. Killed at any point, the
next sync finds the same or a later state and loses nothing: a push never happened (the base
still says what to send), or happened (the remote already holds the merge).
"""

from __future__ import annotations

import difflib
import fcntl
import json
import shutil
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memdesk.core import clock, validate
from memdesk.core.actor import SYSTEM, USER, Actor
from memdesk.core.errors import Busy, IdentityFull, MemdeskError, NotAllowed, ValidationError
from memdesk.core.events import Change
from memdesk.core.guard import withhold
from memdesk.core.memory.records import keep_version
from memdesk.core.memory.steps import Step
from memdesk.core.search import neighbours
from memdesk.core.sync import config as sync_config
from memdesk.core.sync import git
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.files import IDENTITY, README, Unit, identity_file
from memdesk.core.sync.incoming import Incoming, checked
from memdesk.core.sync.local import LOCAL_RELATIONS, render
from memdesk.core.sync.merge import DELETED_HERE, DELETED_THERE, DISAGREE, KINDS, Outcome, merge
from memdesk.core.sync.sides import TreeSide
from memdesk.store import Link, Memory, Proposal

TRIES = 5  # fetch-merge-push rounds while others push at the same moment
CHUNK = 500  # rows per statement: SQLite caps the bound variables of one
# The links a memory's file lists: to what this machine shares, not its inbox's hints.
_SHARED_LINKS_FROM = (
    "SELECT l.id, d.uuid FROM link l JOIN memory d ON d.id = l.dst_id WHERE l.src_id = ? "
    f"AND l.relation NOT IN ({', '.join('?' for _ in LOCAL_RELATIONS)}) "
    "AND d.visibility = 'shared' AND d.flag IS NULL"
)
_README = """# memdesk memories

Kept by [memdesk](https://github.com/memdesk/memdesk) on every machine that syncs here.

- `identity.md`: the identity profile, given in full to every agent session.
- `memories/`: one Markdown file per memory; its front matter says what it is (layer, kind,
  tags, project, who wrote it, when, its version and links). A file with `deleted` in its
  front matter is a tombstone: the memory was deleted (machines move it to their Trash).

Private memories, memories held back from agents, sessions and observations never leave the
machine they were made on. Edit a memory in memdesk, or here keeping the front matter's
shape (`key: <JSON value>`); the next sync of each machine takes the change.
"""


class Sync:
    """sync_init, sync, sync_status; the inbox's sync items are decided here."""

    path: Path

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
        _person_only(actor, "set up sync")
        config = sync_config.load(self.path)
        if writer is not None:
            config.writer = validate.name(writer, "writer") or config.writer
        remote = sync_config.checked_remote(url, branch, name, projects, config)
        if remote.projects is None and any(r.projects is None for r in config.remotes):
            raise ValidationError(
                "a remote for your own memories is already set up; a second one must name the "
                "team's projects it takes (--project)",
                field="projects",
            )
        _bare_repository_at(remote.url, remote.branch)
        mirror_path = self._mirror_path(remote)
        shutil.rmtree(mirror_path, ignore_errors=True)  # a failed earlier init's leftovers
        try:
            mirror = git.Mirror.create(mirror_path, remote.url, remote.branch)
            mirror.fetch()
        except MemdeskError:
            shutil.rmtree(mirror_path, ignore_errors=True)
            raise
        config.remotes.append(remote)
        sync_config.save(self.path, config)
        return self.sync_status(actor=actor)

    def sync(
        self,
        remote: str | None = None,
        *,
        actor: Actor = USER,
        on_step: Callable[[Step], None] | None = None,
    ) -> dict[str, Any]:
        """Sync with one remote, or every remote in turn. `on_step` (the window) is given
        what each sync wrote here, to undo."""
        _person_only(actor, "sync")
        config = sync_config.load(self.path)
        chosen = [config.remote(remote)] if remote or not config.remotes else config.remotes
        return {"remotes": [self._sync_remote(config, r, on_step) for r in chosen]}

    def sync_remove(self, name: str, *, actor: Actor = USER) -> dict[str, Any]:
        """Stop syncing with a remote: its set-up and this machine's mirror of it go; the
        remote itself and every memory here stay as they are."""
        _person_only(actor, "stop syncing")
        config = sync_config.load(self.path)
        remote = config.remote(validate.name(name, "name"))
        with _only_one(sync_config.folder(self.path) / f"{remote.name}.lock"):
            config.remotes.remove(remote)
            sync_config.save(self.path, config)
            shutil.rmtree(self._mirror_path(remote), ignore_errors=True)
            sync_config.forget_result(self.path, remote)
        return self.sync_status(actor=actor)

    def sync_local(
        self, project: str, *, local: bool = True, actor: Actor = USER
    ) -> dict[str, Any]:
        """Keep a project's memories on this machine only (or let them sync again). Memories
        of it already in a repository stay there, no longer updated from here."""
        _person_only(actor, "choose what syncs")
        name = validate.name(project, "project")
        if name is None:
            raise ValidationError("name the project to keep on this machine", field="project")
        config = sync_config.load(self.path)
        config.local = sorted(set(config.local) | {name} if local else set(config.local) - {name})
        sync_config.save(self.path, config)
        return self.sync_status(actor=actor)

    def sync_status(self, *, actor: Actor = USER) -> dict[str, Any]:
        _person_only(actor, "see the sync set-up")
        config = sync_config.load(self.path)
        waiting = _waiting_by_remote()
        return {
            "every_minutes": config.every_minutes if config.remotes else None,
            "local": config.local,
            "writer": config.writer,
            "remotes": [
                {
                    "name": r.name,
                    "url": r.url,
                    "branch": r.branch,
                    "projects": r.projects,
                    "last": sync_config.last_result(self.path, r),
                    "waiting": waiting.get(r.name, 0),
                }
                for r in config.remotes
            ],
        }

    # -- one remote --------------------------------------------------------------------------

    def _mirror_path(self, remote: Remote) -> Path:
        return sync_config.folder(self.path) / f"{remote.name}.git"

    def _sync_remote(
        self, config: Config, remote: Remote, on_step: Callable[[Step], None] | None
    ) -> dict[str, Any]:
        started = clock.now()
        try:
            with _only_one(sync_config.folder(self.path) / f"{remote.name}.lock"):
                mirror = git.Mirror(self._mirror_path(remote), remote.branch)
                for _ in range(TRIES):
                    try:
                        result = self._sync_once(config, remote, mirror, on_step)
                        break
                    except git.Rejected:
                        continue
                else:
                    raise git.SyncFailed(
                        f"the remote changed {TRIES} times while syncing; sync again later"
                    )
        except MemdeskError as exc:
            result = {"ok": False, "error": exc.message}
            sync_config.save_result(self.path, remote, {**result, "at": started})
            raise
        result = {"ok": True, "remote": remote.name, "at": started, **result}
        sync_config.save_result(self.path, remote, result)
        return result

    def _sync_once(
        self,
        config: Config,
        remote: Remote,
        mirror: git.Mirror,
        on_step: Callable[[Step], None] | None,
    ) -> dict[str, Any]:
        head = mirror.fetch()
        base, theirs = TreeSide.read(mirror, mirror.base()), TreeSide.read(mirror, head)
        base_side, remote_side = base.side(), theirs.side()
        changed = {i for i, d in remote_side.digests.items() if base_side.digests.get(i) != d}
        theirs.prefetch(changed)
        incoming, refused = _check_all(theirs, changed)
        # Refused earlier and not changed since: still held, or this machine's older state
        # would go out over the remote's as if it were new.
        last = sync_config.last_result(self.path, remote) or {}
        still = {i for i in last.get("held", []) if i not in changed}
        self.flush_recalls()  # type: ignore[attr-defined]
        with self.database.atomic():  # type: ignore[attr-defined]  # one snapshot to render
            known = base.ids | theirs.ids
            local = render(remote, config.excluded(remote), known, config.writer)
        held = _held(remote) | set(refused) | still
        outcome = merge(base_side, local, remote_side, held)
        taken = self._write_merge(remote, outcome, incoming, local, refused, on_step)
        changes = _tree_changes(outcome, theirs)
        if changes or head is None:
            message = f"memdesk sync: {outcome.sent} from {_machine()}"
            commit = mirror.commit(head, changes, message)
            mirror.push(commit)
        else:
            commit = head
        mirror.set_base(commit)
        return {
            "sent": outcome.sent,
            "taken": taken,
            "conflicts": len(outcome.conflicts),
            "refused": [f"{k}: {why}" for k, why in sorted(refused.items())],
            "held": sorted((set(refused) - {IDENTITY}) | still),
            "commit": commit,
        }

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
            with self._write() as pending:  # type: ignore[attr-defined]
                done = self._take_all(remote, takes, local, refused, pending)
                for conflict in outcome.conflicts:
                    self._ask(remote, conflict, pending)
                return done

        if on_step is None:
            return write()
        taken, step = self.record(write)  # type: ignore[attr-defined]
        on_step(step)
        return taken

    def _take_all(
        self,
        remote: Remote,
        takes: list[Incoming],
        local: dict[str, Unit],
        refused: dict[str, str],
        pending: list[Change],
    ) -> int:
        """Write the remote's states here; when they would overfill the identity profile,
        everything but the identity entries."""
        for attempt in (takes, [t for t in takes if t.deleted or t.columns["layer"] != "L0"]):
            written: list[Change] = []
            try:
                with self.database.atomic():  # type: ignore[attr-defined]
                    done = self._take(remote.name, attempt, local, written)
                    self._check_identity_room([])  # type: ignore[attr-defined]
            except IdentityFull as exc:
                for take in takes:
                    if take not in attempt or not take.deleted and take.columns["layer"] == "L0":
                        refused[take.id] = exc.message
                continue
            pending.extend(written)
            return done
        return 0

    def _take(
        self, remote: str, takes: list[Incoming], local: dict[str, Unit], pending: list
    ) -> int:
        rows = _rows([t.id for t in takes])
        self._touch(list(rows))  # type: ignore[attr-defined]
        done, tasks, new = 0, set(), []
        why = f"from {remote}"
        for take in takes:
            row = rows.get(take.id)
            if row is not None and take.id in local and _changed_since(row, local[take.id]):
                continue  # written here while this sync ran: the next sync sends it
            if take.deleted:
                if row is None or row.status == "deleted":
                    continue
                keep_version(row, SYSTEM, "sync", f"deleted on {remote}")
                values = {"status": "deleted", **take.columns}
                Memory.update(**values).where(Memory.id == row.id).execute()
                pending.append(Change("deleted", row.uuid, values["version"], SYSTEM.label))
            elif row is None:
                new.append({"uuid": take.id, "flag": take.flag, **take.columns})
                pending.append(Change("created", take.id, take.columns["version"], SYSTEM.label))
                tasks.add(take.columns["task"])
            else:
                keep_version(row, SYSTEM, "sync", why)
                values = {
                    **take.columns,
                    "flag": _guarded(take, row.flag),
                }  # an earlier doubt stays
                Memory.update(**values).where(Memory.id == row.id).execute()
                pending.append(Change("updated", row.uuid, values["version"], SYSTEM.label))
                if row.content != values["content"] or row.task != values["task"]:
                    tasks |= {row.task, values["task"]}
            done += 1
        if new:  # a prepared statement: the query builder cost more than SQLite storing the row
            columns = tuple(new[0])
            self.database.cursor().executemany(  # type: ignore[attr-defined]
                f"INSERT INTO memory ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' * len(columns))})",
                [tuple(row[c] for c in columns) for row in new],
            )
        self._take_links([t for t in takes if not t.deleted], set(rows))
        for task in tasks - {None}:  # the neighbours' context an add would have refreshed
            neighbours.refresh_task(task)
        return done

    def _take_links(self, takes: list[Incoming], existed: set[str]) -> None:
        """Each memory's links become the remote's, but for this machine's own (links to
        what it does not share, and its inbox's hints)."""
        if not takes:
            return
        ids = _row_ids({t.id for t in takes} | {to for t in takes for to, _ in t.links})
        db = Memory._meta.database
        for take in takes:
            src = ids[take.id]
            self._touch([to for to, _ in take.links if to in ids])  # type: ignore[attr-defined]
            if take.id in existed:
                old = db.execute_sql(_SHARED_LINKS_FROM, (src, *LOCAL_RELATIONS)).fetchall()
                self._touch([u for _, u in old])  # type: ignore[attr-defined]
                Link.delete().where(Link.id.in_([n for n, _ in old])).execute()
            for to, relation in take.links:
                if to in ids:
                    Link.insert(
                        src=src, dst=ids[to], relation=relation, created_at=clock.now()
                    ).on_conflict_ignore().execute()

    def _ask(self, remote: Remote, conflict: Any, pending: list[Change]) -> None:
        """One inbox item per memory and kind: a later sync updates it, never adds another."""
        mine, theirs = conflict.mine.fields(), conflict.theirs.fields()
        shown = theirs if conflict.kind != DELETED_THERE else mine
        content = shown.get("content") or mine.get("content") or "(deleted)"
        why = _why(conflict.kind, remote.name, mine, theirs)
        subject = json.dumps([conflict.id])
        existing = Proposal.get_or_none(
            (Proposal.status == "pending")
            & (Proposal.kind == conflict.kind)
            & (Proposal.subject == subject)
        )
        if existing is not None:
            self._set_proposal(existing, content=content, why=why, agent=remote.name)  # type: ignore[attr-defined]
            return
        self._propose(  # type: ignore[attr-defined]
            pending,
            kind=conflict.kind,
            content=content,
            why=why,
            subject=subject,
            agent=remote.name,
            memory=conflict.id,
        )

    # -- the inbox's decisions -----------------------------------------------------------------

    def _accept_sync(self, proposal: Proposal, content: str | None, actor: Actor) -> None:
        memory_id = json.loads(proposal.subject)[0]
        if proposal.kind in (DELETED_THERE, DELETED_HERE):
            self.remove(memory_id, reason=f"deleted on {proposal.agent} too", actor=actor)  # type: ignore[attr-defined]
            return
        theirs = self._synced_state(proposal.agent, memory_id)
        with self._write() as pending:  # type: ignore[attr-defined]
            self._take(proposal.agent, [theirs], {}, pending)
        if content is not None:
            self.update(memory_id, content=content, actor=actor)  # type: ignore[attr-defined]

    def _reject_sync(self, proposal: Proposal, actor: Actor) -> None:
        """Keeping this machine's version makes it the newest, so the next sync sends it."""
        if proposal.kind != DISAGREE:
            return
        with self._write() as pending:  # type: ignore[attr-defined]
            row = self._row(json.loads(proposal.subject)[0])  # type: ignore[attr-defined]
            why = f"kept over {proposal.agent}'s version"
            self._save(row, {}, actor, pending, change="sync", reason=why)  # type: ignore[attr-defined]

    def _synced_state(self, remote_name: str | None, memory_id: str) -> Incoming:
        config = sync_config.load(self.path)
        try:
            remote = config.remote(remote_name)
        except MemdeskError:
            raise NotAllowed(
                f"sync with {remote_name} is no longer set up, so its version cannot be "
                "read; reject the item to keep this machine's",
                field="keys",
            ) from None
        mirror = git.Mirror(self._mirror_path(remote), remote.branch)
        side = TreeSide.read(mirror, mirror.base())
        if memory_id not in side.ids:
            raise NotAllowed(f"{remote.name} no longer holds memory {memory_id}", field="keys")
        return checked(side.load(memory_id))


# -- helpers -----------------------------------------------------------------------------------


def _person_only(actor: Actor, what: str) -> None:
    if actor.source == "agent":
        raise NotAllowed(f"only the person may {what}", field="remote")


@contextmanager
def _only_one(lock_path: Path) -> Iterator[None]:
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy("a sync of this database with that remote is running; wait for it") from None
        yield


def _bare_repository_at(url: str, branch: str) -> None:
    """A local path that does not exist yet becomes an empty bare repository."""
    if "://" in url or ":" in url.split("/")[0] or Path(url).exists():
        return
    if not git.available():
        raise git.SyncFailed("git is not installed; sync keeps memories in a git repository")
    Path(url).parent.mkdir(parents=True, exist_ok=True)
    git.create_bare(Path(url), branch)


def _check_all(theirs: TreeSide, ids: set[str]) -> tuple[dict[str, Incoming], dict[str, str]]:
    incoming, refused = {}, dict(theirs.refused)
    for memory_id in ids:
        try:
            incoming[memory_id] = checked(theirs.load(memory_id))
        except MemdeskError as exc:
            where = theirs.paths.get(memory_id, IDENTITY)
            refused[memory_id] = f"{where}: field {exc.field}: {exc.message}"
    return incoming, refused


def _held(remote: Remote) -> set[str]:
    """Memories waiting for the person after two machines disagreed."""
    query = Proposal.select(Proposal.subject).where(
        (Proposal.status == "pending")
        & (Proposal.kind == DISAGREE)
        & (Proposal.agent == remote.name)
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


def _changed_since(row: Memory, rendered: Unit) -> bool:
    fields = rendered.fields()
    return row.version != fields["version"]


def _guarded(take: Incoming, earlier: str | None) -> str | None:
    """The guard's reading of an incoming text, with a doubt kept from the memory here."""
    if not earlier:
        return take.flag
    columns = take.columns
    return withhold.reasons_for(
        columns["content"], columns["source"], confidence=columns["confidence"], earlier=earlier
    )


def _row_ids(uuids: set[str]) -> dict[str, int]:
    found, wanted = {}, sorted(uuids)
    for start in range(0, len(wanted), CHUNK):
        query = Memory.select(Memory.id, Memory.uuid).where(
            Memory.uuid.in_(wanted[start : start + CHUNK])
        )
        found.update((row.uuid, row.id) for row in query)
    return found


def _rows(uuids: list[str]) -> dict[str, Memory]:
    found = {}
    for start in range(0, len(uuids), CHUNK):
        query = Memory.select().where(Memory.uuid.in_(uuids[start : start + CHUNK]))
        found.update((row.uuid, row) for row in query)
    return found


def _tree_changes(outcome: Outcome, theirs: TreeSide) -> dict[str, bytes | None]:
    changes: dict[str, bytes | None] = {}
    for memory_id, unit in outcome.tree.items():
        path = theirs.paths.get(memory_id)
        if path is not None and (unit.in_identity or unit.path != path):
            changes[path] = None  # moved into the identity profile
        entry = theirs.tree.get(unit.path)
        if not unit.in_identity and (entry is None or entry.sha != unit.digest):
            changes[unit.path] = unit.text.encode()
    entries = sorted(
        [u for u in outcome.tree.values() if u.in_identity]
        + [theirs.identity[i] for i in outcome.kept if i in theirs.identity],
        key=lambda u: (u.fields().get("created") or "", u.id),
    )
    if entries or IDENTITY in theirs.tree:
        text = identity_file(entries).encode()
        entry = theirs.tree.get(IDENTITY)
        if entry is None or entry.sha != Unit("", text.decode()).digest:
            changes[IDENTITY] = text
    if README not in theirs.tree:
        changes[README] = _README.encode()
    return changes


def _why(kind: str, remote: str, mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    if kind == DELETED_THERE:
        return (
            f"Deleted on {remote}, but edited here since the last sync: the edit is kept on "
            "every machine. Accept to delete it here too (it goes to the Trash); reject to keep it."
        )
    if kind == DELETED_HERE:
        return (
            f"You deleted this here, but it was edited on {remote} since the last sync, so it "
            "is back with that edit. Accept to delete it again; reject to keep it."
        )
    return (
        f"Two machines disagree: this memory changed here and on {remote} since the last "
        "sync. This machine keeps its version until you decide. Accept to take the other "
        f"version; reject to keep this one. Words: {_word_diff(mine, theirs)}"
    )


def _word_diff(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """What the other version changed, word by word: [-here-] {+there+}."""
    a, b = str(mine.get("content", "")).split(), str(theirs.get("content", "")).split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(a[i1:i2]) if i2 - i1 <= 6 else f"{a[i1]} … {a[i2 - 1]}")
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    words = " ".join(out)
    others = sorted(
        k for k in theirs if k not in ("content", "version", "updated") and mine.get(k) != theirs[k]
    )
    return words + (f" (also differs: {', '.join(others)})" if others else "")


def _machine() -> str:
    return socket.gethostname() or "this machine"
