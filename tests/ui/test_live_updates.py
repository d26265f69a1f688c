"""Live: writes by agents (a worker thread, a socket client) show up without losing place."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import QPoint, QSettings
from PySide6.QtGui import QCursor

from memdesk.api.client import Client
from memdesk.api.server import SocketServer
from memdesk.core import agent
from memdesk.ui.dialogs.import_dialog import ImportDialog
from memdesk.ui.main_window import MainWindow
from tests.ui.window_helpers import (
    click_row,
    open_window,
    recorded_import,
    settle,
    shown_ids,
    shown_texts,
)


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.add_many([{"content": f"note {n}"} for n in range(30)], dedup=False)
    return open_window(qtbot, service, tmp_path / "s.ini")


def test_write_from_another_thread_appears_keeping_selection_and_scroll(qtbot, service, window):
    table = window.browser.table
    table.resize(table.width(), 200)
    click_row(qtbot, window, 2)
    selected = window.detail.memory_id
    table.verticalScrollBar().setValue(3)
    in_view = shown_ids(window)[table.rowAt(0)]

    def agent_writes():
        service.add("written by an agent", actor=agent("claude"), dedup=False)
        service.database.close()  # peewee: one connection per thread

    worker = threading.Thread(target=agent_writes)
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 31, timeout=1000)
    assert "written by an agent" in shown_texts(window)
    assert table.selected_ids() == [selected]
    assert shown_ids(window)[table.rowAt(0)] == in_view  # the new one is above, out of view
    assert window.detail.memory_id == selected


def test_the_persons_edit_that_moves_the_current_memory_keeps_it_in_view(qtbot, service, window):
    """A window tryout: retagged, the memory jumped to the top of the list (newest change
    first), out of view, and seemed gone until searched for."""
    table = window.browser.table
    table.resize(table.width(), 200)
    table.scrollToBottom()
    click_row(qtbot, window, table.rowAt(table.viewport().height() - 5))
    chosen = window.detail.memory_id
    service.update(chosen, tags=["kept"])  # what Retag does, as the person
    window.hub.flush()
    qtbot.waitUntil(lambda: shown_ids(window)[0] == chosen, timeout=2000)
    settle(window)
    assert table.current_id() == chosen
    assert table.rowAt(0) == 0  # scrolled up with it


def test_an_agents_edit_of_the_current_memory_does_not_move_the_view(qtbot, service, window):
    table = window.browser.table
    table.resize(table.width(), 200)
    table.scrollToBottom()
    click_row(qtbot, window, table.rowAt(table.viewport().height() - 5))
    chosen, bottom = window.detail.memory_id, table.verticalScrollBar().value()
    mine = service.add("an agent's note", actor=agent("claude"), dedup=False)
    service.update(mine["id"], tags=["x"], actor=agent("claude"))
    window.hub.flush()
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == 31, timeout=2000)
    settle(window)
    assert table.current_id() == chosen
    assert table.verticalScrollBar().value() == bottom


def _agents_add(service, count):
    service.add_many(
        [{"content": f"agent note {n}"} for n in range(count)], actor=agent("busy"), dedup=False
    )


@pytest.fixture
def long_list(qtbot, service, tmp_path):
    service.add_many([{"content": f"note {n}"} for n in range(300)], dedup=False)
    window = open_window(qtbot, service, tmp_path / "s.ini")
    click_row(qtbot, window, 5)
    return window


def test_the_open_memory_stays_selected_while_agents_add_by_the_hundred(service, long_list):
    """Agents adding nonstop pushed the memory the person had open further down than the
    refreshed page reached: the selection went and the detail panel went blank (seen under
    Xvfb with four agents writing)."""
    window = long_list
    opened = window.detail.memory_id
    window.detail.start_editing()
    window.detail.editor.content.setPlainText("my unsaved words")
    _agents_add(service, 450)
    settle(window)
    assert window.browser.model.rowCount() == 750
    assert window.browser.table.selected_ids() == [opened]
    assert window.browser.table.current_id() == opened
    assert window.detail.memory_id == opened
    assert window.detail.editor.content.toPlainText() == "my unsaved words"


def test_the_open_memory_stays_in_the_panel_when_agents_push_it_out_of_reach(service, long_list):
    window = long_list
    opened = window.detail.memory_id
    _agents_add(service, 2_500)  # further than a refresh follows it
    settle(window)
    assert window.detail.memory_id == opened  # not the blank "choose a memory" page


def test_what_the_person_reads_stays_in_view_while_agents_add_above_it(service, long_list):
    """Four agents writing moved every row under the person's eyes at each refresh: what
    they read scrolled away. At the top of the list the newest still come into view."""
    window = long_list
    table = window.browser.table
    table.verticalScrollBar().setValue(150)
    reading = shown_ids(window)[table.rowAt(0)]
    _agents_add(service, 450)
    settle(window)
    assert shown_ids(window)[table.rowAt(0)] == reading
    table.verticalScrollBar().setValue(0)
    service.add("the newest, by an agent", actor=agent("busy"), dedup=False)
    settle(window)
    assert table.verticalScrollBar().value() == 0
    assert window.browser.model.record(0)["content"] == "the newest, by an agent"


def test_at_the_top_rows_do_not_slide_under_the_pointer(service, long_list):
    """At the top of a newest-first list the newest come into view, but not while the
    pointer is over the rows: the row aimed at slid away and another memory was restored."""
    window = long_list
    table = window.browser.table
    table.verticalScrollBar().setValue(0)
    aimed = shown_ids(window)[table.rowAt(0)]
    QCursor.setPos(table.viewport().mapToGlobal(table.viewport().rect().center()))
    try:
        service.add("the newest, by an agent", actor=agent("busy"), dedup=False)
        settle(window)
        assert shown_ids(window)[table.rowAt(0)] == aimed
    finally:
        QCursor.setPos(table.mapToGlobal(table.rect().bottomRight()) + QPoint(200, 200))


def test_a_memory_that_leaves_the_list_leaves_the_panel(service, long_list):
    window = long_list
    service.remove(window.detail.memory_id)  # by the person, from the CLI
    settle(window)
    assert window.detail.memory_id == ""


def test_live_refresh_loads_off_the_gui_thread_and_keeps_rows_until_then(qtbot, service, window):
    before = shown_texts(window)
    service.add("written meanwhile", dedup=False)
    window.hub.flush()  # the refresh starts; its queries run on a worker thread
    assert shown_texts(window) == before  # nothing blanked or blocked while they run
    qtbot.waitUntil(lambda: "written meanwhile" in shown_texts(window), timeout=1000)
    assert window.browser.model.rowCount() == 31
    assert "31 memories" in window.browser.summary.text()


def test_write_over_the_socket_appears_within_a_second(qtbot, service, tmp_path, window):
    server = SocketServer(service, socket_path=str(tmp_path / "s.sock"))
    server.listen()
    server.clients_changed.connect(window.set_agent_count)
    server.agents_changed.connect(window.status.set_agent_names)
    result: dict = {}

    def client_writes():
        with Client(socket_path=server.socket_path, agent="claude") as client:
            result["memory"] = client.add("Socket-written memory")

    worker = threading.Thread(target=client_writes)
    worker.start()
    qtbot.waitUntil(lambda: not worker.is_alive(), timeout=5000)
    qtbot.waitUntil(lambda: "Socket-written memory" in shown_texts(window), timeout=1000)
    qtbot.waitUntil(lambda: window.sidebar.count_of("all") == 31, timeout=1000)
    assert "31 active" in window.status.counts.text()
    qtbot.waitUntil(lambda: "0 agents" in window.status.agents.text(), timeout=2000)
    server.close()


def test_the_status_bar_names_the_connected_agents(qtbot, service, window, tmp_path):
    server = SocketServer(service, socket_path=str(tmp_path / "n.sock"))
    server.listen()
    server.agents_changed.connect(window.status.set_agent_names)
    done = threading.Event()
    connected = threading.Event()

    def stay_connected():
        with Client(socket_path=server.socket_path, agent="claude-code") as client:
            client.search("anything")
            connected.set()
            done.wait(5)

    worker = threading.Thread(target=stay_connected)
    worker.start()
    qtbot.waitUntil(lambda: "claude-code" in window.status.agents.text(), timeout=3000)
    assert window.status.agents.text().startswith("1 connected")
    qtbot.waitUntil(connected.is_set, timeout=3000)  # its search answered: the loop ran
    done.set()
    worker.join(5)
    server.close()


def test_settings_restore_view_columns_and_splitter(qtbot, service, tmp_path, window):
    window.sidebar.select_key("trash")
    window.browser.table.setColumnWidth(3, 222)
    window.splitter.setSizes([150, 700, 300])
    sizes = window.splitter.sizes()
    window.close()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    again = MainWindow(service, settings=settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.sidebar.current_key == "trash"
    assert again.browser.table.preferred[3] == 222
    again.resize(2400, 900)  # room for every column as the person set it
    qtbot.waitUntil(lambda: again.browser.table.columnWidth(3) == 222, timeout=1000)
    # Offscreen, Qt fits the restored geometry to its virtual screen, so compare loosely.
    assert abs(again.splitter.sizes()[0] - sizes[0]) <= abs(again.width() - window.width())


def test_import_is_undoable_additions_and_changes_alike(qtbot, service, window, monkeypatch):
    exported = json.loads(service.export("json", ids=shown_ids(window)[:3], status=None))
    purged = shown_ids(window)[:2]
    for memory_id in purged:
        service.remove(memory_id)
        service.purge(memory_id)
    changed = next(m for m in exported["memories"] if m["id"] not in purged)
    original = changed["content"]
    changed["content"] = "Changed by the imported file"
    settle(window)

    monkeypatch.setattr(ImportDialog, "exec", recorded_import(service, exported))
    window.menus.import_.trigger()
    settle(window)
    assert window.browser.model.rowCount() == 30
    assert window.menus.undo.text() == "Undo Import (2 added, 1 changed)"
    window.undo_stack.undo()
    settle(window)
    assert window.browser.model.rowCount() == 28
    assert service.get(changed["id"])["content"] == original
    window.undo_stack.redo()
    settle(window)
    assert window.browser.model.rowCount() == 30
    assert service.get(changed["id"])["content"] == "Changed by the imported file"


def test_empty_database_shows_welcome_and_loads_demo(qtbot, tmp_path):
    from memdesk.core import MemoryService

    empty = MemoryService.open(tmp_path / "empty.db")
    try:
        window = open_window(qtbot, empty, tmp_path / "e.ini")
        assert window.pages.currentWidget() is window.empty_state
        window.empty_state.demo_requested.emit()
        settle(window)
        assert window.pages.currentWidget() is window.browser
        assert window.browser.model.rowCount() > 0
        window.close()
    finally:
        empty.close()
