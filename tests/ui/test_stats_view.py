"""The Stats dashboard: every count is a link whose list holds exactly that many memories."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from memdesk.core import agent
from tests.ui.window_helpers import open_window, settle

CLAUDE, CURSOR = agent("claude-code"), agent("cursor")


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.set_identity("n" * 734)
    for n in range(6):
        service.add(
            f"Fact {n} about deploys", kind="fact", project="shop", dedup=False, actor=CLAUDE
        )
    for n in range(3):
        service.add(
            f"Choice {n} about queues", kind="decision", tags=["infra"], dedup=False, actor=CURSOR
        )
    service.add("Lunch is at noon")  # no agent ever recalls this one
    gone = service.add("Old and wrong")
    service.remove(gone["id"])
    service.search("deploys", actor=CLAUDE)  # two agent searches: recalls and latency
    service.search("queues", actor=CURSOR)
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.view_tabs.setCurrentIndex(3)
    win.stats_view.wait()
    return win


def _links(window, field):
    label = window.stats_view.findChild(type(window.stats_view.total), f"counts_{field}")
    return re.findall(r"<a href='[^\x1f]+\x1f([^']+)'>[^<]+</a> ([\d,]+)", label.text())


@pytest.mark.parametrize("field", ["layer", "kind", "source", "agent", "status", "project", "tag"])
def test_each_count_opens_a_list_of_that_many(window, field):
    links = _links(window, field)
    assert links
    for value, count in links:
        window.show_filtered(field, value)
        settle(window)
        assert window.pages.currentWidget() is window.browser
        assert window.browser.model.rowCount() == int(count.replace(",", "")), (field, value)


def test_the_tiles(window):
    stats = window.stats_view
    assert stats.identity.text() == "<b>73%</b> — 734 / 1,000"
    assert "2 searches" in stats.latency.text()
    assert "MB" in stats.file.text()
    assert "Fact" in stats.most.text()  # recalled by claude's search
    assert "older than 156 days" in stats.stale.text()


def test_check_now(qtbot, window):
    stats = window.stats_view
    assert stats.integrity.text() == "not checked yet"
    qtbot.mouseClick(stats.check_button, Qt.MouseButton.LeftButton)
    stats.wait()
    assert stats.integrity.text().startswith("<b>ok</b>")


def test_what_agents_were_given_per_day_by_agent_and_by_project(service, window):
    service.session_start("s1", actor=CLAUDE, project="shop")
    given = service.injections()[0]["chars"]
    window.stats_view.request()
    window.stats_view.wait()
    plot = window.stats_view.injected_plot.getPlotItem()
    [line] = plot.listDataItems()
    assert line.name() == "claude-code"
    assert line.yData[-1] == given  # today, the last day shown
    window.stats_view.injected_by.setCurrentText("By project")
    [line] = plot.listDataItems()
    assert line.name() == "shop"


def test_at_1024_by_700_every_count_is_in_view_without_a_sideways_scroll(window, qtbot):
    """#31 item 8: Stats needed a horizontal scroll at 1,024 x 700 and its Agent column was
    cut."""
    from PySide6.QtWidgets import QLabel

    window.resize(1024, 700)
    qtbot.wait(50)
    view = window.stats_view
    width = view.viewport().width()
    assert view.widget().width() <= width
    for field in ("layer", "kind", "source", "status", "agent", "project", "tag"):
        label = view.findChild(QLabel, f"counts_{field}")
        right = label.mapTo(view.viewport(), label.rect().topRight()).x()
        assert right <= width, field


def test_charts_count_from_zero(qtbot, service, tmp_path):
    """A tryout under Xvfb (stop 86): a chart of days with nothing drew its axis from -0.4 to
    0.4."""
    service.add("Lunch is at noon")  # nothing recalled, nothing given to agents
    win = open_window(qtbot, service, tmp_path / "settings.ini")
    win.view_tabs.setCurrentIndex(3)
    win.stats_view.wait()
    for chart in (win.stats_view.recalled_plot, win.stats_view.added_plot):
        low, high = chart.getViewBox().viewRange()[1]
        assert low == 0
        assert high >= 1


def test_the_trash_opened_from_a_count_can_be_restored_at_once(qtbot, service, tmp_path):
    """A window tryout (stop 90): Stats ▸ "deleted 1" showed the memory, current but not
    selected, so Restore stayed grey until the row was clicked."""
    gone = service.add("The old VPN endpoint is vpn1.corp")
    service.remove(gone["id"])
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.show_filtered("status", "deleted")
    settle(window)
    window.browser.table.setFocus()
    settle(window)
    assert window.detail.memory_id == gone["id"]
    assert window.browser.table.selected_ids() == [gone["id"]]
    assert window.menus.restore.isEnabled()
    window.menus.restore.trigger()
    settle(window)
    assert service.get(gone["id"])["status"] == "active"
