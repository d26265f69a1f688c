"""Shared fixtures. Qt runs offscreen so the suite needs no display."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import shiboken6  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from memdesk.cli import main  # noqa: E402
from memdesk.core import MemoryService  # noqa: E402


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "memdesk.db"


@pytest.fixture
def service(db_path):
    svc = MemoryService.open(db_path)
    yield svc
    _close_windows()
    svc.close()


def _close_windows() -> None:
    """Close every open window before its database: pytest-qt closes the widgets it knows
    after this fixture's teardown, and a window's timer firing then would reopen the closed
    file, failing a later test with "still open in this process".

    Only shown, live windows: a hidden one is an earlier test's, already closed over a
    database gone since, and closing it again (or a popup its parent took down with it)
    crashed the suite."""
    app = QApplication.instance()
    for widget in app.topLevelWidgets() if app is not None else ():
        if shiboken6.isValid(widget) and widget.isVisible():
            widget.close()


@pytest.fixture
def run(capsys, db_path):
    """Run `memdesk ARGS --db DB` in-process and return (exit code, stdout, stderr)."""

    def memdesk(*args: str, db: Path | None = db_path) -> tuple[int, str, str]:
        argv = [*args, "--db", str(db)] if db is not None else list(args)
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refusing an argument
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return memdesk


@pytest.fixture
def run_json(run):
    """Run `memdesk ARGS --json`, require success, and return the parsed output."""

    def memdesk(*args: str, **options) -> object:
        code, out, err = run(*args, "--json", **options)
        assert (code, err) == (0, ""), err
        return json.loads(out)

    return memdesk
