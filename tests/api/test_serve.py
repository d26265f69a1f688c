"""`memdesk serve` as a real subprocess: startup line, single instance, signals, concurrency."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.api.client import Client, MemdeskError, ServerUnavailable
from memdesk.api.owner import connect_if_running
from memdesk.core import MemoryService


def test_prints_listening_line_and_stops_cleanly_on_sigterm(serve, sock_path):
    server = serve()
    assert server.first_line == f"listening on {sock_path}"
    assert stat.S_IMODE(os.stat(sock_path).st_mode) & 0o077 == 0
    with Client(socket_path=sock_path) as client:
        assert client.ping() == "pong"
    code, _out, err = server.stop(signal.SIGTERM)
    assert code == 0, err
    assert not Path(sock_path).exists()


def test_sigint_also_stops_cleanly(serve):
    code, _out, err = serve().stop(signal.SIGINT)
    assert code == 0, err


def test_in_flight_write_finishes_before_exit(serve, sock_path, db_path):
    server = serve()
    items = [{"content": f"note number {i} about topic {i * 7}"} for i in range(1500)]
    with Client(socket_path=sock_path) as client:
        client._send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "memory.add_many",
                "params": {"items": items, "dedup": False},
            }
        )
        threading.Event().wait(0.1)  # the server is now inside the write
        server.proc.send_signal(signal.SIGTERM)
        reply = client._read_message()
    assert len(reply["result"]) == 1500
    assert server.proc.wait(timeout=20) == 0
    check = MemoryService.open(db_path)
    try:
        assert check.count() == 1500
    finally:
        check.close()


def test_second_server_on_same_socket_exits_cleanly(serve, db_path, sock_path):
    first = serve()
    second = serve()
    code, _out, err = second.stop()
    assert code == 0
    assert "already running" in err
    with Client(socket_path=sock_path) as client:  # the first one is unharmed
        assert client.ping() == "pong"
    assert first.proc.poll() is None


def test_stale_socket_from_killed_server_is_replaced(serve, sock_path):
    killed = serve()
    killed.proc.kill()
    killed.proc.wait()
    assert Path(sock_path).exists()  # left behind
    with pytest.raises(ServerUnavailable):
        Client(socket_path=sock_path)
    fresh = serve()
    assert fresh.first_line == f"listening on {sock_path}"
    with Client(socket_path=sock_path) as client:
        assert client.ping() == "pong"


def test_client_reconnects_once_after_restart(serve, sock_path):
    server = serve()
    client = Client(socket_path=sock_path, agent="survivor")
    try:
        client.add("before the restart")
        server.stop()
        serve()
        memory = client.add("after the restart")  # same client object, new connection
        assert memory["agent"] == "survivor"
    finally:
        client.close()


def test_connect_if_running(serve, db_path, sock_dir, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(sock_dir))
    assert connect_if_running(db_path) is None
    from memdesk.api import naming

    serve(sock=naming.socket_path(db_path))
    client = connect_if_running(db_path)
    assert client is not None
    with client:
        assert client.ping() == "pong"


def test_16_clients_500_concurrent_writes_each(serve, sock_path, db_path):
    serve()
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            with Client(socket_path=sock_path, agent=f"agent-{n}") as client:
                for i in range(500):
                    client.add(f"agent {n} writes fact {i}", dedup=False, tags=[f"a{n}"])
        except BaseException as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Client(socket_path=sock_path) as client:
        assert client.count() == 16 * 500
        assert all(client.count(tags=[f"a{n}"]) == 500 for n in range(16))


_LINES = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    ).map(lambda v: json.dumps(v).encode()),
    st.builds(
        lambda method, params, ident: json.dumps(
            {"jsonrpc": "2.0", "method": method, "params": params, "id": ident}
        ).encode(),
        st.sampled_from(
            [
                "memory.add",
                "memory.search",
                "memory.get",
                "memory.list",
                "identity.set",
                "memory.update",
                "context.build",
                "system.hello",
                "export",
                "nope",
            ]
        ),
        st.dictionaries(
            st.sampled_from(["content", "query", "id", "k", "text", "agent", "layer", "tags"]),
            st.none() | st.integers() | st.text(max_size=30) | st.lists(st.text(max_size=5)),
            max_size=3,
        ),
        st.integers() | st.text(max_size=5) | st.none(),
    ),
)


@pytest.fixture
def fuzz_target(serve, sock_path):
    serve()
    return sock_path


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(_LINES, min_size=1, max_size=5))
def test_random_and_malformed_lines_never_break_the_server(fuzz_target, lines):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        peer.settimeout(10)
        peer.connect(fuzz_target)
        for line in lines:
            peer.sendall(line.replace(b"\n", b" ") + b"\n")
        peer.sendall(b'{"jsonrpc":"2.0","method":"system.ping","id":"last"}\n')
        received = b""
        while b'"id":"last"' not in received:
            chunk = peer.recv(65536)
            assert chunk, "server closed the connection"
            received += chunk
    with Client(socket_path=fuzz_target) as client:
        assert client.ping() == "pong"


def test_errors_carry_code_message_and_type(serve, sock_path):
    serve()
    with Client(socket_path=sock_path) as client, pytest.raises(MemdeskError) as err:
        client.get("0000")
    assert (err.value.code, err.value.type) == (-32001, "not_found")
    assert "0000" in err.value.message


def test_one_database_has_one_owner_whatever_the_sockets(serve, db_path, sock_dir):
    first = serve(sock=str(sock_dir / "a.sock"))
    second = serve(sock=str(sock_dir / "b.sock"))
    code, _out, err = second.stop()
    assert code == 0
    assert "already running" in err
    assert first.proc.poll() is None


def test_simultaneous_first_opens_of_a_new_database_all_succeed(tmp_path):
    import subprocess
    import sys
    import time

    # Each process waits for the same instant, then opens the same new file.
    script = (
        "import sys, time; from memdesk.core import MemoryService\n"
        "while time.time() < float(sys.argv[3]): pass\n"
        "s = MemoryService.open(sys.argv[1]); s.add('hello ' + sys.argv[2], dedup=False)\n"
        "s.close()"
    )
    for round_ in range(3):
        db = tmp_path / f"new{round_}.db"
        start = time.time() + 1.5
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", script, str(db), str(n), str(start)],
                stderr=subprocess.PIPE,
            )
            for n in range(4)
        ]
        results = [(p.wait(timeout=60), p.stderr.read().decode()) for p in procs]
        for p in procs:
            p.stderr.close()
        assert results == [(0, "")] * 4


def test_serve_on_a_file_it_cannot_use_exits_5_as_every_command(tmp_path, sock_path):
    """A red team's read-only database got a clear line from `serve` but exit 2, "usage";
    the legend and every other command say 5."""
    import subprocess
    import sys

    unusable = tmp_path / "not-a-db.sqlite3"
    unusable.write_bytes(b"just some bytes, no database" * 100)
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "serve", "--db", str(unusable), "--socket", sock_path],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 5
    assert "not a usable memdesk database" in done.stderr


def test_a_damaged_search_index_is_told_to_the_agent_not_hidden_as_internal(
    serve, sock_path, db_path
):
    """Red team, stop 65: over a store whose index settings name a format SQLite refuses,
    every search and add answered "internal error" though `memdesk check --rebuild` mends it."""
    service = MemoryService.open(db_path)
    service.add("Deploys go through the staging cluster first")
    service.database.execute_sql("UPDATE memory_fts_config SET v = 99 WHERE k = 'version'")
    service.close()
    serve()
    with Client(socket_path=sock_path, agent="tester") as client:
        for call in (lambda: client.search("staging"), lambda: client.add("a new note")):
            with pytest.raises(MemdeskError) as err:
                call()
            assert err.value.code == -32007
            assert "search index is damaged" in err.value.message
        assert client.ping() == "pong"  # the server still answers
