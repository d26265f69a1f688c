"""The window at 1,024 × 700, as the new-user trial used it: it never widens itself, no pane
is squeezed to nothing, and what it says is not cut."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt

from memdesk.core import SYSTEM
from memdesk.ui.list.demo_data import load_demo
from memdesk.ui.main_window import MainWindow
from tests.ui.window_helpers import click_row, open_window, settle

WIDTH, HEIGHT = 1024, 700


@pytest.fixture
def window(qtbot, service, tmp_path):
    load_demo(service)
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.resize(WIDTH, HEIGHT)
    settle(win)
    return win


def _fits(window: MainWindow) -> None:
    settle(window)
    assert window.minimumSizeHint().width() <= WIDTH
    assert window.width() == WIDTH
    assert _sidebar_readable(window)


def _sidebar_readable(window: MainWindow) -> bool:
    """Its layers and their counts whole, not "All …" and "Kno…"."""
    sidebar = window.sidebar
    return sidebar.width() >= sidebar.fontMetrics().horizontalAdvance("Knowledge (L1) 100,000")


def test_every_view_a_conflict_banner_and_a_long_message_fit(qtbot, service, window):
    _fits(window)
    for tab in (1, 2, 3, 0):
        window.view_tabs.setCurrentIndex(tab)
        _fits(window)
    window.sidebar.select_key("L1")
    settle(window)
    click_row(qtbot, window, 0)
    window.detail.start_editing()
    window.detail.editor.content.setPlainText("My careful wording")
    service.remove(window.detail.memory_id, actor=SYSTEM)  # the widest banner
    settle(window)
    assert window.detail.editor.banner.isVisible()
    _fits(window)
    window.view_tabs.setCurrentIndex(3)
    _fits(window)


def test_a_status_message_is_shown_whole_beside_the_counts(window):
    text = "Restored; the state before is kept as memdesk-2026-11-24T08-15-02.sqlite3"
    window.status.showMessage(text, 10_000)
    settle(window)
    message = window.status.message
    assert message.text() == text
    assert message.width() >= message.fontMetrics().horizontalAdvance(text)
    assert window.status.counts.width() >= window.status.counts.sizeHint().width()


def test_the_timeline_and_graph_controls_are_never_cut(qtbot, window):
    for tab, view in ((1, window.timeline), (2, window.graph)):
        window.view_tabs.setCurrentIndex(tab)
        view.wait()  # loaded and drawn: the counts have their final text
        settle(window)
        for control in (
            view.summary if tab == 1 else view.left_out,
            *view.findChildren(type(view.legend)),
        ):
            if control.isVisible() and not control.wordWrap():
                # Once the row is laid out again for the new text (a queued layout request).
                qtbot.waitUntil(lambda c=control: c.width() >= c.sizeHint().width(), timeout=2000)
        assert view.legend.wordWrap()


def test_a_squeezed_sidebar_is_not_restored(qtbot, service, window, tmp_path):
    window.splitter.setSizes([10, 900, 114])
    window.close()  # saves the panes as they are
    again = MainWindow(
        service, settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    )
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    settle(again)
    assert _sidebar_readable(again)


def test_a_narrow_list_column_shows_the_start_of_its_header(window):
    """Centred and clipped, "Source / agent" read "ource / ager"; now "Writer", or "Wri…"."""
    header = window.browser.table.horizontalHeader()
    assert header.defaultAlignment() & Qt.AlignmentFlag.AlignLeft
    assert header.textElideMode() == Qt.TextElideMode.ElideRight
    titles = [
        window.browser.model.headerData(n, Qt.Orientation.Horizontal) for n in range(header.count())
    ]
    assert all(len(title) <= 8 for title in titles)  # each a word a narrow column can start


def test_the_lists_headers_and_dates_are_whole_at_1024_px(window):
    """At 1,024 px the headers read "La…", "Proj…", "Re…" and the dates "2026-12-07 …"."""
    from PySide6.QtWidgets import QStyle

    from memdesk.ui.list.memory_table_model import COL_UPDATED, HEADERS

    table, model = window.browser.table, window.browser.model
    header = table.horizontalHeader()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    arrow = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
    horizontal = Qt.Orientation.Horizontal
    for column in range(1, len(HEADERS)):
        text = model.headerData(column, horizontal)
        room = table.columnWidth(column) - 2 * margin
        if column == header.sortIndicatorSection():
            room -= arrow + margin
        assert header.fontMetrics().horizontalAdvance(text) <= room, text
        assert model.headerData(column, horizontal, Qt.ItemDataRole.ToolTipRole).startswith(
            HEADERS[column]
        )
    assert [model.headerData(c, horizontal) for c in (1, 4, 7)] == ["L", "Proj", "Used"]
    cell = model.index(0, COL_UPDATED)
    date = model.data(cell)
    assert len(date) == len("2026-12-07")
    assert table.fontMetrics().horizontalAdvance(date) + 12 <= table.columnWidth(COL_UPDATED)
    assert date in model.data(cell, Qt.ItemDataRole.ToolTipRole)  # with its time there
    window.resize(1600, HEIGHT)
    settle(window)
    assert model.headerData(4, horizontal) == "Project"
    assert len(model.data(cell)) == len("2026-12-07 10:00")


def test_the_socket_and_database_are_shown_whole_when_there_is_room(window):
    window.resize(1400, HEIGHT)
    settle(window)
    for label in (window.status.socket, window.status.database):
        assert label.isVisible()
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())
