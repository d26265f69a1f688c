"""Shared fixtures. Qt runs offscreen so the suite needs no display."""

from __future__ import annotations

import functools
import gc
import itertools
import json
import os
import weakref
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import shiboken6  # noqa: E402
from PySide6.QtWidgets import QDialog, QWidget  # noqa: E402

from memdesk.cli import main  # noqa: E402
from memdesk.core import MemoryService  # noqa: E402

_TESTS = itertools.count(1)


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread():
    """Cycles are collected here, on the main thread, as the window collects them on its GUI
    thread (`ui.app.collect_on_the_gui_thread`). Left to trigger on whichever thread allocates,
    the collector freed a widget on a loader's thread; PySide deleted it later on the main
    thread from inside another widget's destructor, and Qt deadlocked the suite there."""
    gc.disable()
    yield
    gc.collect(2 if next(_TESTS) % 25 == 0 else 1)


@pytest.fixture(autouse=True)
def _projects_of_this_test(tmp_path, monkeypatch):
    """Which root folder each project name was given is kept per test (api/projects.py), not
    in the person's data folder."""
    monkeypatch.setenv("MEMDESK_PROJECTS_FILE", str(tmp_path / "projects.json"))


@pytest.fixture(autouse=True)
def _an_open_edit_is_discarded_when_a_test_ends(monkeypatch):
    """A window closed mid-edit asks whether to discard the edit: at a test's end, pytest-qt
    closing it waited on that question for ever. (A test of the question sets its own.)"""
    from memdesk.ui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "_confirm_discard", lambda _self: True)


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
    """Close every memdesk window still shown before its database: pytest-qt closes the
    widgets it knows after this fixture's teardown, and a window's timer firing then would
    reopen the closed file, failing a later test with "still open in this process".

    The windows are the ones memdesk's code showed (remembered below), never Qt's list of
    top-level widgets: building that list wraps every popup Qt made itself, and a wrapper
    left over from one Qt freed crashed the suite (exit 139) three times in a row."""
    while _SHOWN:
        window = _SHOWN.pop()()
        if window is not None and shiboken6.isValid(window) and window.isVisible():
            window.close()


# Weak: holding the windows would hand them to the cycle collector later, on whatever thread
# runs it, and a widget destroyed off the GUI thread deadlocked the suite.
_SHOWN: list[weakref.ref[QWidget]] = []


def _remembering(method):
    @functools.wraps(method)
    def shown(self, *args, **kwargs):
        if type(self).__module__.startswith("memdesk."):
            _SHOWN.append(weakref.ref(self))
        return method(self, *args, **kwargs)

    return shown


for _cls, _name in (
    (QWidget, "show"),
    (QWidget, "setVisible"),
    (QWidget, "showMaximized"),
    (QWidget, "showNormal"),
    (QDialog, "setVisible"),
    (QDialog, "open"),
    (QDialog, "exec"),
):
    setattr(_cls, _name, _remembering(getattr(_cls, _name)))


@pytest.fixture
def run(capsys, db_path, monkeypatch):
    """Run `memdesk ARGS --db DB` in-process and return (exit code, stdout, stderr)."""
    # the width lists are cut to is the terminal's: a test must not depend on where it runs
    # (a pytest-xdist worker sees another terminal than a plain run)
    monkeypatch.setenv("COLUMNS", "100")

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
