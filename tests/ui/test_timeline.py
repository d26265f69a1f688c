"""The Timeline as a person uses it: points in lanes, a date range that narrows the list,
clicks that select everywhere, live agent writes."""

from __future__ import annotations

import threading
import time
from datetime import datetime

import pytest
from PySide6.QtCore import QPointF, Qt

from memdesk.core import agent
from tests.ui.window_helpers import open_window, settle, shown_texts

CLAUDE = agent("claude-code")


def _seconds(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


@pytest.fixture
def window(qtbot, service, tmp_path):
    for month in (1, 2, 3):
        for n in range(3):
            service.add(
                f"Knowledge from month {month} number {n}",
                created_at=f"2026-0{month}-1{n}T10:00:00Z",
                kind="fact" if n else "decision",
                dedup=False,
                actor=CLAUDE,
            )
    service.add("Who the user is", layer="L0", created_at="2026-02-01T09:00:00Z")
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.view_tabs.setCurrentIndex(1)  # View ▸ Timeline (Ctrl+2)
    win.timeline.wait()
    return win


def _points(timeline) -> int:
    return len(timeline.points.data)


def test_points_sit_in_their_lanes(window):
    timeline = window.timeline
    assert timeline.lane_names == ["L0 Identity", "L1 Knowledge"]
    assert _points(timeline) == 10
    assert timeline.summary.text() == "10 memories on the timeline"
    timeline.lanes.setCurrentText("Kind")
    assert timeline.lane_names == ["decision", "fact"]


def test_the_timeline_counts_as_the_header_and_names_the_retired_it_adds(service, window):
    """Retired memories are drawn as history: the header's count (the List's) and the
    Timeline's were 10 and 11 for one filter, with nothing to say why."""
    old = service.list_memories(layer="L1")[0]["id"]
    service.correct(old, "Knowledge corrected by the agent", actor=CLAUDE)
    settle(window)
    window.timeline.wait()
    assert window.browser.summary.text() == "10 memories"
    assert window.timeline.summary.text() == "10 memories and 1 retired on the timeline"
    window.sidebar.select_key("inactive")
    window.view_tabs.setCurrentIndex(1)
    window.timeline.wait()
    assert window.browser.summary.text() == "1 memory"
    assert window.timeline.summary.text() == "1 memory on the timeline"


def test_a_date_range_narrows_the_list(qtbot, window):
    window.timeline.set_date_range(
        _seconds("2026-02-01T00:00:00Z"), _seconds("2026-02-28T00:00:00Z")
    )
    settle(window)
    shown = shown_texts(window)
    assert sorted(shown) == sorted(
        ["Who the user is"] + [f"Knowledge from month 2 number {n}" for n in range(3)]
    )
    qtbot.mouseClick(window.timeline.clear_range, Qt.MouseButton.LeftButton)
    settle(window)
    assert len(shown_texts(window)) == 10


def test_a_click_makes_the_memory_current_everywhere(qtbot, service, window):
    scatter = window.timeline.points
    point = scatter.points()[0]
    scatter.sigClicked.emit(scatter, [point], None)
    settle(window)
    assert window.detail.memory_id == point.data()
    assert window.pages.currentWidget() is window.timeline  # the person stays where they are
    assert window.timeline.marker.data["x"][0] == point.pos().x()


def test_an_agent_write_appears_keeping_the_zoom(service, window):
    box = window.timeline.plot.getViewBox()
    box.setXRange(_seconds("2026-01-01T00:00:00Z"), _seconds("2026-02-01T00:00:00Z"), padding=0)
    before = box.viewRange()[0]
    new = service.add("Learned just now", actor=CLAUDE, created_at="2026-01-20T12:00:00Z")
    settle(window)
    window.timeline.wait()
    assert len(window.timeline._t) == 11
    assert new["id"] in set(window.timeline.points.data["data"])  # in view: January
    assert box.viewRange()[0] == pytest.approx(before)


def test_the_sidebar_view_applies_to_the_timeline(window):
    window.sidebar.select_key("L0")
    window.view_tabs.setCurrentIndex(1)
    window.timeline.wait()
    assert _points(window.timeline) == 1


def test_the_search_and_chips_stay_above_every_view_and_narrow_it(qtbot, window):
    assert window.browser.search.isVisible()  # on the Timeline page too
    assert window.browser.chips.isVisible()
    qtbot.keyClicks(window.browser.search, "month 2")
    qtbot.waitUntil(lambda: window.browser.model.hit_ids() is not None, timeout=5000)
    window.timeline.wait()
    found = set(window.browser.model.hit_ids())
    shown = set(window.timeline.points.data["data"])
    assert shown == found
    assert any("month 2" in text for text in shown_texts(window))
    window.browser.chips.set_value("kind", "decision")
    window.timeline.wait()
    decisions = window.browser.model.hit_ids()
    assert 0 < len(decisions) < len(found)
    assert _points(window.timeline) == len(decisions)


def test_as_of_shows_what_was_known_then(qtbot, service, window):
    import time as clock_time

    from memdesk.core import clock

    port = service.add("The staging port is 8080", created_at="2026-03-20T10:00:00Z")
    shell = service.add("The user's shell is bash", created_at="2026-03-20T10:00:00Z")
    moment = _seconds(clock.now())
    clock_time.sleep(0.02)
    service.update(port["id"], content="The staging port is 8443")
    fixed = service.correct(shell["id"], "The user's shell is fish")
    settle(window)

    window.timeline.set_moment(moment)
    window.timeline.wait()
    shown = set(window.timeline._data["id"])
    assert port["id"] in shown
    assert shell["id"] in shown  # not yet corrected then
    assert fixed["id"] not in shown
    assert window.timeline._tip(0, 0, port["id"]).startswith("The staging port is 8080")
    assert window.timeline.as_of.line.isVisible()

    window.timeline.set_moment(None)
    window.timeline.wait()
    shown = set(window.timeline._data["id"])
    assert fixed["id"] in shown
    assert shell["id"] in shown  # retired now: drawn as history, a bar up to its successor
    assert window.timeline._tip(0, 0, port["id"]).startswith("The staging port is 8443")


def test_play_replays_to_now(qtbot, window, monkeypatch):
    timeline = window.timeline
    loaded_here = []
    whole = timeline.service.timeline

    def timeline_load(**filters):
        loaded_here.append(threading.current_thread() is threading.main_thread())
        return whole(**filters)

    monkeypatch.setattr(timeline.service, "timeline", timeline_load)
    qtbot.mouseClick(timeline.as_of.play, Qt.MouseButton.LeftButton)
    assert timeline.as_of.box.isChecked()
    # Where the replay starts is one memory's date: the whole store is never loaded on the
    # window's thread to find it (100,000 memories froze the window for 0.4 s).
    assert True not in loaded_here
    qtbot.waitUntil(lambda: not timeline.as_of.play.isChecked(), timeout=30_000)
    timeline.wait()
    assert _points(timeline) == 10  # at the end, everything known now


def test_history_edits_retirements_and_session_spans(service, window):
    kept = service.add("Build with make", created_at="2026-03-01T10:00:00Z", task="build")
    service.update(kept["id"], content="Build with just")
    old = service.add("Deploy on Fridays", created_at="2026-03-02T10:00:00Z")
    service.correct(old["id"], "Deploy on Tuesdays")
    service.add("Session: moved the build to just", layer="L2", task="build")
    settle(window)
    window.timeline.wait()
    window.timeline.fit_all()  # the edit is of today
    assert len(window.timeline.ticks.data) == 1  # the one edit, on its memory's row
    assert len(window.timeline._history) == 2  # the retirement bar, the session's span
    window.timeline.plot.setXRange(
        _seconds("2027-01-01T00:00:00Z"), _seconds("2027-02-01T00:00:00Z")
    )
    window.timeline._show_points()
    assert len(window.timeline.ticks.data) == 0  # out of view


def test_too_many_points_in_view_become_a_heat_map_until_zoomed_in(service, window, monkeypatch):
    from memdesk.ui.timeline import timeline_view

    monkeypatch.setattr(timeline_view, "POINT_LIMIT", 5)
    timeline = window.timeline
    timeline.fit_all()
    timeline._show_points()
    assert timeline.heat.isVisible()
    assert _points(timeline) == 0
    assert len(timeline.ticks.data) == 0  # a heat map has no rows to tick
    timeline.plot.setXRange(_seconds("2026-01-09T00:00:00Z"), _seconds("2026-01-13T00:00:00Z"))
    timeline._show_points()
    assert not timeline.heat.isVisible()
    assert 0 < _points(timeline) <= 5


def test_the_lists_selection_is_ringed_in_the_timeline_and_graph(window):
    window.view_tabs.setCurrentIndex(0)
    window.browser.table.selectAll()
    chosen = set(window.selected_ids())
    window.view_tabs.setCurrentIndex(1)
    window.timeline.wait()
    assert len(window.timeline.selection.data) == len(chosen)
    window.view_tabs.setCurrentIndex(2)
    window.graph.wait()
    assert len(window.graph.selection.data) == len(chosen)


def _drag_across_the_strip(qtbot, window, since: str, until: str) -> None:
    strip = window.timeline.density
    box = strip.getViewBox()

    def at(iso: str):
        y = box.viewRange()[1][0] + 0.5 * (box.viewRange()[1][1] - box.viewRange()[1][0])
        return strip.mapFromScene(box.mapViewToScene(QPointF(_seconds(iso), y)))

    start, end = at(since), at(until)
    viewport = strip.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + (end - start) * step / 5)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    settle(window)


def test_dragging_across_the_density_strip_narrows_the_list(qtbot, window):
    _drag_across_the_strip(qtbot, window, "2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z")
    assert sorted(shown_texts(window)) == sorted(
        ["Who the user is"] + [f"Knowledge from month 2 number {n}" for n in range(3)]
    )
    assert window.timeline.clear_range.isEnabled()


def test_the_timelines_count_says_what_a_drawn_range_keeps(qtbot, service, window):
    """A drawn range narrowed the List and the header to 4 while the Timeline still said
    "10 memories on the timeline"."""
    old = service.list_memories(layer="L1")[0]["id"]  # month 3's: a retired one outside
    service.correct(old, "Knowledge corrected by the agent", actor=CLAUDE)
    settle(window)
    window.timeline.wait()
    _drag_across_the_strip(qtbot, window, "2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z")
    assert window.browser.summary.text() == "4 memories"
    assert window.timeline.summary.text() == "4 of 10 memories in the range"
    _drag_across_the_strip(qtbot, window, "2026-03-01T00:00:00Z", "2026-03-31T00:00:00Z")
    assert window.timeline.summary.text() == "2 of 10 memories in the range, and 1 retired"
    qtbot.mouseClick(window.timeline.clear_range, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.timeline.summary.text() == "10 memories and 1 retired on the timeline"
    _drag_across_the_strip(qtbot, window, "2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z")
    qtbot.mouseClick(window.browser.chips._clear_button, Qt.MouseButton.LeftButton)
    settle(window)
    window.timeline.wait()
    assert window.timeline.summary.text() == "10 memories and 1 retired on the timeline"
    assert not window.timeline.clear_range.isEnabled()


def test_a_drawn_range_is_a_chip_and_a_stats_count_clicked_after_it_shows_its_count(
    qtbot, service, tmp_path
):
    """#31 item 7: after a Timeline range, a Stats count showed 1 memory and no chip said why."""
    from tests.ui.window_helpers import open_window, settle, shown_ids

    for n in range(5):
        service.add(f"note {n} on the release train", dedup=False)
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    settle(window)
    window.timeline.range_selected.emit("2001-01-01T00:00:00.000Z", "2001-01-02T00:00:00.000Z")
    settle(window)
    assert shown_ids(window) == []
    chip = window.browser.chips._chips["since"]
    assert chip.text() == "Date: created 2001-01-01 – 2001-01-02  ✕"
    window.show_filtered("layer", "L1")  # a Stats count clicked
    settle(window)
    assert len(shown_ids(window)) == service.count(layer="L1") == 5
    assert chip.text() == "Date  ▾"


def test_the_legend_keeps_each_symbol_with_its_word(qtbot, service):
    """#31 item 8: at 1,024 px "●" ended one line of the legend and "you" began the next."""
    import re

    from memdesk.ui.timeline.timeline_view import TimelineView

    view = TimelineView(service)
    qtbot.addWidget(view)
    text = view.legend.text()
    assert re.search(r"[●▲■](</span>)? ", text) is None  # never a breakable space after one
    assert "●&nbsp;you" in text


def test_a_window_reopened_on_the_timeline_loads_it_once(qtbot, service, tmp_path, window):
    """Restoring the page shown last loaded it twice (100,000 memories: twice the wait)."""
    window.close()
    loads = []
    original = service.timeline
    service.timeline = lambda **filters: loads.append(filters) or original(**filters)
    reopened = open_window(qtbot, service, tmp_path / "settings.ini")
    reopened.timeline.wait()
    assert reopened.pages.currentWidget() is reopened.timeline
    assert len(loads) == 1


def test_a_burst_of_agent_writes_loads_the_timeline_a_few_times(qtbot, service, window):
    """Each write loaded the shown Timeline twice, on the loop that answers the agents'
    requests: it now keeps up at a pace and ends on the final state."""
    from PySide6.QtWidgets import QApplication

    from memdesk.ui.paced_refresh import PACE_MS

    timeline = window.timeline
    loads: list[int] = []
    timeline.loader.loaded.connect(lambda *_: loads.append(1))
    started = time.monotonic()
    for n in range(30):
        service.add(f"Agent note {n}", actor=CLAUDE, dedup=False)
        window.hub.flush()  # each write its own batch, as writes 300 ms apart arrive
        QApplication.processEvents()
    took = time.monotonic() - started
    timeline.wait()
    assert len(loads) <= 2 + took * 1000 / PACE_MS, (len(loads), took)
    assert len(timeline._data["id"]) == 10 + 30  # loaded, drawn where the view is


def test_as_of_ticked_long_after_the_timeline_opened_starts_at_now(qtbot, service, window):
    """The box's moment was the time the Timeline opened: ticked an hour later, memories
    added meanwhile were missing."""
    from PySide6.QtCore import QDateTime

    as_of = window.timeline.as_of
    as_of.edit.setDateTime(QDateTime.currentDateTimeUtc().addSecs(-3600))  # opened an hour ago
    half_an_hour_ago = QDateTime.currentDateTimeUtc().addSecs(-1800)
    added = service.add(
        "Added after the Timeline opened",
        created_at=half_an_hour_ago.toString("yyyy-MM-ddTHH:mm:ssZ"),
    )
    settle(window)
    with qtbot.waitSignal(as_of.moment_changed) as ticked:
        qtbot.mouseClick(as_of.box, Qt.MouseButton.LeftButton)
    assert abs(ticked.args[0] - QDateTime.currentDateTimeUtc().toSecsSinceEpoch()) < 60
    window.timeline.wait()
    assert added["id"] in set(window.timeline._data["id"])


def test_play_reads_stop_while_it_plays(qtbot, window):
    play = window.timeline.as_of.play
    qtbot.mouseClick(play, Qt.MouseButton.LeftButton)
    assert play.text() == "Stop"
    qtbot.mouseClick(play, Qt.MouseButton.LeftButton)
    assert play.text() == "Play"
    window.timeline.wait()
