"""The window's cycle collector: on the GUI thread, and never a stutter every few seconds."""

from __future__ import annotations

import gc

import pytest

from memdesk.ui import app as window_app


@pytest.fixture
def collector(qapp, monkeypatch):
    generations: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: generations.append(generation))
    gc.enable()  # as a fresh process has it (the suite itself collects on its main thread)
    timer = window_app.collect_on_the_gui_thread(qapp)
    yield timer, generations
    timer.stop()
    timer.deleteLater()
    gc.unfreeze()
    gc.enable()


def test_the_window_collects_young_objects_often_and_walks_everything_rarely(collector):
    """A full collection every 2 s walked every object (60 ms with a 100k store's views
    loaded): the window stuttered while the person typed."""
    timer, generations = collector
    assert not gc.isenabled()  # collections never start on a worker thread
    assert gc.get_freeze_count() > 0  # what startup made is not walked again
    generations.clear()
    for _ in range(window_app.FULL_EVERY):
        timer.timeout.emit()
    assert generations.count(2) == 1
    assert generations.count(1) == window_app.FULL_EVERY - 1
    assert timer.interval() <= 1000
