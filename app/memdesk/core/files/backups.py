"""Backups of the whole database: taken daily and on demand, listed, restored.

They live in a `backups` folder beside the database. Automatic ones rotate (the newest
`KEEP` stay); the ones the person asked for, and the copy taken just before a restore, stay
until the person deletes them, so an agent or a week of restarts can never rotate away the
state someone chose to keep.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memdesk.core import clock, guard, rules
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import NotFound, StorageFailed, ValidationError
from memdesk.core.files import backup_rows
from memdesk.core.files.export import Progress, report
from memdesk.core.giving_way import give_way
from memdesk.store import backup as store_backup
from memdesk.store import statistics
from memdesk.store.migrations import SCHEMA_VERSION, migrate

logger = logging.getLogger(__name__)

KEEP = 7
EVERY = timedelta(days=1)
FOLDER = "backups"
_STAMP = "%Y-%m-%dT%H-%M-%SZ"
# checked, rows checked, current state kept, replaced, upgraded and indexed
RESTORE_STEPS = 5
# <database stem>-<UTC time>[-<n>]-<kind>.sqlite3
KINDS = {"auto": "daily", "manual": "taken by you", "before-restore": "before a restore"}
_NAME = re.compile(
    r"^(?P<stem>.+)-(?P<at>\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)(-\d+)?"
    rf"-(?P<kind>{'|'.join(KINDS)})\.sqlite3$"
)


class Backups:
    """Taking backups, listing them, and restoring one (the current state kept first)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def backup_folder(self) -> Path:
        return self.desk.path.parent / FOLDER

    def backup(self, *, automatic: bool = False, actor: Actor = USER) -> dict[str, Any]:
        """Copy the database now into the backup folder; returns the backup's description.

        Only the person (or memdesk's own schedule) may: automatic backups rotate, and an
        agent must not be able to push the person's backups out.
        """
        rules.check_person(
            actor, "take backups (the window or the memdesk command)", or_memdesk=True
        )
        if not automatic:
            self.desk.settle()
        return self._snapshot("auto" if automatic else "manual")

    def backups(self) -> list[dict[str, Any]]:
        """Every backup of this database, newest first."""
        folder = self.backup_folder()
        paths = (
            folder.glob(f"{_glob_safe(self.desk.path.stem)}-*.sqlite3") if folder.is_dir() else ()
        )
        found = [d for d in (_describe(p, self.desk.path.stem) for p in paths) if d is not None]
        # mtime orders two taken within one second (a backup, then the one before a restore)
        found.sort(key=lambda d: (d[1]["taken_at"], d[0]), reverse=True)
        return [described for _, described in found]

    def backup_due(self, now: datetime | None = None) -> bool:
        """True when no backup is younger than a day (the daily schedule asks this)."""
        now = now or datetime.now(UTC)
        newest = max((b["taken_at"] for b in self.backups()), default=None)
        return newest is None or now - datetime.fromisoformat(newest) >= EVERY

    def restore_backup(
        self, name: str, *, actor: Actor = USER, progress: Progress | None = None
    ) -> dict[str, Any]:
        """Replace every memory with a backup's (by name from `backups()`, or a file path).

        The current state is backed up first and named in the result, so a restore can
        itself be taken back. Listeners get one "reset" change: everything may differ.
        `progress(step, RESTORE_STEPS)` is told each step; returning False cancels while the
        backup is still being checked, and nothing changes. Once the current state is being
        kept, the restore goes on to the end.
        """
        rules.check_person(
            actor, "restore backups (the window or the memdesk command)", or_memdesk=True
        )
        source = self._find_backup(name)
        report(progress, 0, RESTORE_STEPS)
        # What is checked is what is installed: checked where it lay and copied again after,
        # a file swapped meanwhile went in unchecked (a trigger rewrote every new memory).
        with contextlib.ExitStack() as stack:
            try:
                held = stack.enter_context(
                    store_backup.private_copy(source, near=self.desk.path.parent)
                )
            except (sqlite3.DatabaseError, OSError, store_backup.BackupError) as exc:
                raise ValidationError(  # as store_backup.verify says it
                    f"{source} is not a memdesk backup: {exc}".replace(f": {source} ", ": "),
                    field="name",
                ) from None
            return self._restore_checked(source, held, progress, actor)

    def _restore_checked(
        self, source: Path, held: Path, progress: Progress | None, actor: Actor
    ) -> dict[str, Any]:
        try:
            facts = store_backup.verify(held, SCHEMA_VERSION)
        except store_backup.BackupError as exc:
            raise ValidationError(str(exc).replace(str(held), str(source)), field="name") from None
        report(progress, 1, RESTORE_STEPS)
        try:
            backup_rows.check(held)
        except ValidationError as exc:  # named as the person knows it, not the private copy
            raise ValidationError(
                exc.message.replace(str(held), str(source)), field="name"
            ) from None
        report(progress, 2, RESTORE_STEPS)
        self.desk.settle()
        before = self._snapshot("before-restore", checked=False)
        _tell(progress, 3)
        database = self.desk.database
        # The person's controls of agents are today's decisions, not the backup's: restoring
        # to undo an agent's damage let that agent, paused since, write again (a crafted
        # backup lifted any pause).
        controls = database.execute_sql("SELECT agent, mode, changed_at FROM agent_control")
        controls = controls.fetchall()
        try:
            store_backup.match_page_size(held, database.connection())
            store_backup.restore_into(database.connection(), held)
        except (store_backup.BackupError, sqlite3.DatabaseError) as exc:
            said = str(exc).replace(str(held), str(source))
            raise ValidationError(f"{said}; nothing was changed", field="name") from None
        _tell(progress, 4)
        migrate(database, self.desk.path)  # a backup from an older memdesk
        with self.desk.transaction():
            database.execute_sql("DELETE FROM agent_control")
            database.cursor().executemany(
                "INSERT INTO agent_control (agent, mode, changed_at) VALUES (?, ?, ?)", controls
            )
            _set_back_dates(database)
        statistics.analyze(database)  # the backup's own statistics are not to be trusted
        withheld = _guard_again(database)
        self.desk.replaced(by=actor.label)
        _tell(progress, RESTORE_STEPS)
        logger.info("restored %s (current state kept as %s)", source, before["name"])
        return {
            "restored": source.name,
            "memories": facts["memories"],
            "withheld": withheld,
            "before": before,
        }

    def _snapshot(self, kind: str, *, checked: bool = True) -> dict[str, Any]:
        folder = self.backup_folder()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _clear_abandoned(folder, self.desk.path.stem)
        at = datetime.now(UTC).strftime(_STAMP)
        dest, n = folder / f"{self.desk.path.stem}-{at}-{kind}.sqlite3", 1
        while dest.exists():  # two in one second
            n += 1
            dest = folder / f"{self.desk.path.stem}-{at}-{n}-{kind}.sqlite3"
        try:
            store_backup.snapshot(self.desk.path, dest, checked=checked)
        except (store_backup.BackupError, OSError) as exc:
            raise StorageFailed(f"could not back up {self.desk.path}: {exc}") from exc
        if kind == "auto":
            for old in [b for b in self.backups() if b["kind"] == "auto"][KEEP:]:
                Path(old["path"]).unlink(missing_ok=True)
        described = _describe(dest, self.desk.path.stem)
        assert described is not None
        return described[1]

    def _find_backup(self, name: str) -> Path:
        if not isinstance(name, str) or not name.strip():
            raise ValidationError(
                "name: give a backup's name (memdesk backup --list) or a file path", field="name"
            )
        if "/" in name or name.startswith("~"):
            path = Path(name).expanduser()
            if not path.exists():  # said as "not a memdesk backup: [Errno 2] …", exit 2
                raise NotFound(f"no file {path}: give a backup's path or its name", field="name")
            return path
        for backup in self.backups():
            if backup["name"] == name:
                return Path(backup["path"])
        raise NotFound(
            f"no backup named {name!r} in {self.backup_folder()}; `memdesk backup --list` "
            "lists them",
            field="name",
        )


def _guard_again(database: Any) -> int:
    """Read every memory of a restored file through the injection guard, as an import does: a
    file's flags are never trusted, so text the guard withholds is withheld again (a release
    the person gave before is asked again in the Inbox). Returns how many were withheld."""
    changed = []
    for row_id, content, flag in database.execute_sql("SELECT id, content, flag FROM memory"):
        found = guard.scan(content)
        kept = _reasons(flag)
        missing = [reason for reason in found if reason not in kept]
        if missing:
            changed.append((json.dumps(kept + missing), row_id))
    if changed:
        with database.atomic():
            database.cursor().executemany("UPDATE memory SET flag = ? WHERE id = ?", changed)
    return len(changed)


def _reasons(flag: str | None) -> list[str]:
    if not flag:
        return []
    try:
        reasons = json.loads(flag)
    except ValueError:
        return [flag]  # withheld all the same, whatever the file wrote there
    return [str(r) for r in reasons] if isinstance(reasons, list) else [str(reasons)]


def _describe(path: Path, stem: str) -> tuple[int, dict[str, Any]] | None:
    match = _NAME.match(path.name)
    if match is None or match["stem"] != stem or match["kind"] not in KINDS:
        return None
    at = datetime.strptime(match["at"], _STAMP).replace(tzinfo=UTC)
    try:
        facts = store_backup.inspect(path)
        stat = path.stat()
        size, order = stat.st_size, stat.st_mtime_ns
    except (store_backup.BackupError, OSError):
        facts, size, order = {"memories": None}, 0, 0
    return order, {
        "name": path.name,
        "path": str(path),
        "taken_at": at.isoformat(),
        "kind": match["kind"],
        "bytes": size,
        "memories": facts["memories"],
    }


def _glob_safe(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


class BackupSchedule:
    """Takes an automatic backup on start when the last is older than a day, and daily while
    running. A thread of its own: a copy of a large database takes seconds, and it reads its
    own snapshot, so the owner's requests go on meanwhile."""

    def __init__(self, service: Backups, check_every_s: float = 3600.0) -> None:
        self._service = service
        self._every = check_every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memdesk-backups", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        give_way()
        while not self._stop.is_set():
            try:
                if self._service.backup_due():
                    taken = self._service.backup(automatic=True)
                    logger.info("daily backup %s", taken["name"])
            except Exception:  # a failed backup must not stop the app; it is retried
                logger.exception("automatic backup failed")
            self._stop.wait(self._every)


# A copy still being written is younger than this: one older was left by a backup killed
# mid-way (kill -9, a power cut), full-size, listed nowhere.
ABANDONED = timedelta(hours=1)


def _clear_abandoned(folder: Path, stem: str) -> None:
    cutoff = (datetime.now(UTC) - ABANDONED).timestamp()
    for left in folder.glob(f"{_glob_safe(stem)}-*.sqlite3.partial*"):
        with contextlib.suppress(OSError):
            if left.stat().st_mtime < cutoff:
                left.unlink()


def _set_back_dates(database: Any) -> None:
    """Dates a fast clock put ahead of now, set back as an import sets them (the check let
    them through for that): left ahead, the memory ranked newest until the clock caught up."""
    latest = clock.latest_believable()
    database.execute_sql(
        "UPDATE memory SET created_at = min(created_at, ?), updated_at = min(updated_at, ?), "
        "last_recalled_at = min(last_recalled_at, ?) "
        "WHERE created_at > ? OR updated_at > ? OR last_recalled_at > ?",
        (latest,) * 6,
    )


def _tell(progress: Progress | None, step: int) -> None:
    """A step past the point of no return: told, never cancelled."""
    if progress is not None:
        progress(step, RESTORE_STEPS)
