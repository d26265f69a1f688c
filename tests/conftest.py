"""Shared fixtures. Qt runs offscreen so the suite needs no display."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import shiboken6  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

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

    Only memdesk's own windows, and the list asked for again after each close: closing a
    main window takes down popups Qt made itself (completers, menus, tooltips), and a wrapper
    for one of those still says it is valid after Qt freed it, so touching it crashed the
    suite. Hidden windows are earlier tests', closed already over a database gone since."""
    app = QApplication.instance()
    closed: set[int] = set()
    while app is not None and (window := _next_shown(app, closed)) is not None:
        closed.add(shiboken6.getCppPointer(window)[0])
        window.close()


def _next_shown(app: QApplication, closed: set[int]) -> QWidget | None:
    return next(
        (
            widget
            for widget in app.topLevelWidgets()
            if type(widget).__module__.startswith("memdesk.")
            and widget.isVisible()
            and shiboken6.getCppPointer(widget)[0] not in closed
        ),
        None,
    )


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
