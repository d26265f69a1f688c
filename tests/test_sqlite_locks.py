"""The process that has the database open never opens its files any other way.

SQLite locks the database with POSIX locks, which belong to the process: closing any
descriptor of the file drops them all. Another process then takes itself for the last one,
checkpoints and removes the -wal under the owner, and the owner's later writes are lost or
corrupt the file. Seen: `memdesk serve` upgrading a year's store (the backup before the
migration was a plain copy), another process reading meanwhile, "database disk image is
malformed" once serve stopped; the window's tray runs the doctor, which read the database's
first bytes, on a timer.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import peewee
import pytest

from memdesk import paths
from memdesk.api import doctor
from memdesk.core import MemoryService
from memdesk.store import migrations

READER = (
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]);"
    "c.execute('SELECT COUNT(*) FROM memory').fetchone(); c.close()"
)


def _rows(path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as plain:
        return plain.execute(sql).fetchall()


def writes_survive_other_processes(service: MemoryService, db_path: Path) -> None:
    """A hundred writes from a thread of the owner's (a connection opened later, as serve's
    lanes), other processes reading between them: none lost, the file intact."""
    before = _rows(db_path, "SELECT COUNT(*) FROM memory")[0][0]
    worker = ThreadPoolExecutor(1)
    try:
        for n in range(100):
            if n % 25 == 0:  # as `memdesk check`, a hook, or a person's sqlite3 would
                subprocess.run([sys.executable, "-c", READER, str(db_path)], check=True)
            worker.submit(service.add, f"Written while others read the store, note {n}").result()
        subprocess.run([sys.executable, "-c", READER, str(db_path)], check=True)
        worker.submit(service.release_thread).result()
    finally:
        worker.shutdown()
        service.close()
    assert _rows(db_path, "PRAGMA integrity_check") == [("ok",)]
    assert _rows(db_path, "SELECT COUNT(*) FROM memory") == [(before + 100,)]


def test_a_store_migrated_on_open_survives_other_processes_reading_it(db_path):
    older = migrations.SCHEMA_VERSION - 1
    database = peewee.SqliteDatabase(str(db_path), pragmas={"journal_mode": "wal"})
    try:
        migrations.migrate(database, db_path, target=older)
    finally:
        database.close()
    service = MemoryService.open(db_path)  # backs the file up, then migrates it
    writes_survive_other_processes(service, db_path)  # 56 of 100 were kept before
    backup = db_path.with_name(f"{db_path.name}.v{older}.bak")
    assert _rows(backup, "PRAGMA user_version") == [(older,)]
    assert backup.stat().st_mode & 0o077 == 0  # memories are private


def test_the_windows_set_up_check_leaves_its_own_database_alone(db_path, tmp_path):
    service = MemoryService.open(db_path)
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    # A hook whose program is the database itself: the doctor reads a program's first line.
    settings.write_text(
        '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", '
        f'"command": "{db_path} hook SessionStart"}}]}}]}}}}'
    )
    report = doctor.examine(db_path, tmp_path, serving=False)  # as the tray, on a timer
    assert not any("not a memdesk database" in line for line in report.lines)
    writes_survive_other_processes(service, db_path)


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_reading_the_open_database_as_a_file_is_refused_before_it_is_opened(
    db_path, tmp_path, suffix
):
    service = MemoryService.open(db_path)
    link = tmp_path / "export.json"
    link.symlink_to(f"{db_path}{suffix}")  # an import or a transcript named so
    with pytest.raises(paths.NotAFile, match="memdesk's open database"):
        paths.read_regular_file(link, 10**9)
    with pytest.raises(paths.NotAFile, match="memdesk's open database"):
        paths.read_file_start(f"{db_path}{suffix}", 100)
    writes_survive_other_processes(service, db_path)
    assert paths.read_regular_file(db_path, 10**9)  # closed: a file like any other


def test_an_export_is_never_written_over_the_store(run, db_path, tmp_path, qtbot):
    from PySide6.QtCore import Qt

    from memdesk.ui.dialogs.export_dialog import ExportDialog

    service = MemoryService.open(db_path)
    service.add("Kept, whatever the export's file name")
    dialog = ExportDialog(service)
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(db_path))  # the person picks the store by mistake
    qtbot.mouseClick(dialog.action_button, Qt.MouseButton.LeftButton)
    assert "memdesk's open database" in dialog.status.text()
    assert not dialog.is_busy()
    service.close()
    code, _out, err = run("export", "--output", str(db_path))  # as if another process served it
    assert code != 0
    assert "memdesk's open database" in err
    assert _rows(db_path, "SELECT content FROM memory") == [
        ("Kept, whatever the export's file name",)
    ]


def test_the_lock_a_server_holds_is_never_written_over(db_path):
    """`export -o <db>.lock` replaced the file a server locks: a second server then owned the
    same database (red team 67)."""
    service = MemoryService.open(db_path)
    try:
        lock = Path(f"{db_path}.lock")
        lock.touch()
        with pytest.raises(paths.NotAFile, match="memdesk's open database"):
            paths.refuse_open_database(lock)
    finally:
        service.close()
