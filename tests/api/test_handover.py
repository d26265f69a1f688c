"""One owner, handed over: the window takes the database from a headless `memdesk serve`
while an agent keeps writing, and a client never repeats a write blindly."""

from __future__ import annotations

import signal
import threading

import pytest

from memdesk.api import instance
from memdesk.api.client import Client, OutcomeUnknown
from memdesk.api.server import SocketServer
from tests.api.conftest import TEST_LIMITS


@pytest.fixture
def headless(serve, sock_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_SOCKET", sock_path)
    server = serve()
    assert server.first_line == f"listening on {sock_path}"
    return server


def test_the_window_takes_over_from_serve_with_an_agent_writing(
    headless, qtbot, pump, service, db_path, sock_path
):
    written: list[str] = []
    failures: list[BaseException] = []
    stop = threading.Event()
    agent = Client(socket_path=sock_path, agent="claude-code", timeout=10)
    watcher = Client(socket_path=sock_path, agent="watcher", timeout=10)
    watcher.subscribe()

    def write() -> None:
        try:
            n = 0
            while not stop.is_set() or n < 50:
                written.append(
                    agent.add(f"note {n} written across the handover", dedup=False)["id"]
                )
                n += 1
        except BaseException as exc:  # reported by the test thread
            failures.append(exc)

    writer = threading.Thread(target=write)
    writer.start()
    qtbot.waitUntil(lambda: len(written) >= 20, timeout=10_000)

    assert pump.run(instance.hand_over, db_path, True) is False  # serve lets go
    window_server = SocketServer(service, sock_path, limits=TEST_LIMITS)
    pump.run(lambda: None)
    instance.listen_as_owner(window_server)
    try:
        qtbot.waitUntil(lambda: len(written) >= 150 or bool(failures), timeout=20_000)
        stop.set()
        qtbot.waitUntil(lambda: not writer.is_alive(), timeout=20_000)
        # The subscribed watcher reads what the old owner sent, follows to the new one...
        while pump.run(watcher.next_event, 0.5) is not None:
            pass
        # ...and hears the writes made there.
        last = pump.run(agent.add, "written after the watcher followed")
        assert pump.run(watcher.next_event, 5)["id"] == last["id"]
        written.append(last["id"])
    finally:
        stop.set()
        agent.close()
        watcher.close()
        window_server.close()
    assert failures == []
    assert headless.proc.wait(timeout=10) == 0
    stored = {m["id"] for m in service.list_memories(limit=10_000)}
    assert set(written) <= stored
    assert len(stored) == len(written)  # and nothing twice


def test_a_window_does_not_hand_over(server, pump, sock_path, monkeypatch, db_path):
    monkeypatch.setenv("MEMDESK_SOCKET", sock_path)
    assert pump.run(instance.hand_over, db_path, False) is True

    def ping() -> str:
        with Client(socket_path=sock_path) as client:
            return client.ping()

    assert pump.run(ping) == "pong"  # still the owner


def test_a_write_cut_off_without_goodbye_is_not_repeated(headless, sock_path, db_path, service):
    client = Client(socket_path=sock_path, agent="claude-code", timeout=10)
    client.add("before the crash")
    headless.proc.send_signal(signal.SIGSTOP)  # the request will be read by nobody...
    client._sock.settimeout(10)
    sender = threading.Thread(
        target=lambda: failures.append(_try(client.add, "in flight when it died"))
    )
    failures: list[object] = []
    sender.start()
    threading.Event().wait(0.3)
    headless.proc.kill()  # ...and the server dies without a goodbye
    sender.join(timeout=15)
    assert isinstance(failures[0], OutcomeUnknown)
    assert "may or may not have been saved" in failures[0].message
    client.close()


def test_reads_are_repeated_on_the_next_server(serve, sock_path):
    first = serve()
    client = Client(socket_path=sock_path, agent="reader", timeout=10)
    client.add("kept across restarts")
    first.proc.kill()
    first.proc.wait()
    serve()
    assert client.search("restarts")["hits"][0]["content"] == "kept across restarts"
    client.close()


def _try(call, *args):
    try:
        return call(*args)
    except Exception as exc:
        return exc


def test_a_closing_window_can_leave_serve_behind_for_attached_agents(
    server, pump, service, db_path, sock_path
):
    # What ui.app does on close when "Keep Serving Agents After Closing" is on.
    from memdesk.api.headless import start_serve

    agent = pump.run(lambda: Client(socket_path=sock_path, agent="claude-code", timeout=10))
    pump.run(agent.add, "written while the window was open")
    server.close("handover")
    service.close()
    started = start_serve(db_path, sock_path)
    try:
        after = agent.add("written after the window closed")  # waits for serve, then sends
        assert agent.search("window closed")["hits"][0]["id"] == after["id"]
        assert agent.count() == 2
    finally:
        agent.close()
        started.terminate()
        assert started.wait(timeout=20) == 0


def test_the_keep_serving_choice_is_a_remembered_menu_toggle(qtbot, service, tmp_path):
    from tests.ui.window_helpers import open_window

    window = open_window(qtbot, service, tmp_path / "settings.ini")
    assert window.keep_serving is False  # off unless the person turns it on
    window.menus.keep_serving.trigger()
    assert window.keep_serving is True
    assert window.settings.value(window.KEEP_SERVING, type=bool) is True
