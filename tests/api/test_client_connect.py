"""The client's way in: a full queue of waiting connections is waited out, not a failure."""

from __future__ import annotations

import socket
import threading

import pytest

from memdesk.api.client import Client, ServerUnavailable


@pytest.fixture
def busy_listener(sock_path):
    """A server that takes no connection for a moment while its queue is full."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sock_path)
    listener.listen(0)
    queued = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    queued.connect(sock_path)  # fills the queue: the next connect gets EAGAIN at once
    yield listener
    queued.close()
    listener.close()


def test_a_full_queue_is_waited_out(busy_listener, sock_path):
    taken = []
    later = threading.Timer(0.3, lambda: taken.extend(busy_listener.accept() for _ in range(2)))
    later.start()
    client = Client(socket_path=sock_path, timeout=5)  # no hello: nothing to answer
    later.join()
    assert client._sock is not None
    client.close()
    for peer, _address in taken:
        peer.close()


def test_a_queue_full_past_the_timeout_says_memdesk_is_unavailable(busy_listener, sock_path):
    with pytest.raises(ServerUnavailable, match="Resource temporarily unavailable"):
        Client(socket_path=sock_path, timeout=0.3)


def _impostor(sock_path, answer):
    """Something listening where memdesk's socket should be, answering each line with
    `answer(line)` (bytes), for ever."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sock_path)
    listener.listen(4)

    def serve():
        try:
            peer, _ = listener.accept()
        except OSError:  # closed first: the client refused before it was taken
            return
        with peer:
            for line in peer.makefile("rb"):
                try:
                    while True:  # for ever, for an answer that never ends
                        peer.sendall(answer(line))
                        if not answer(b"again"):
                            break
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    return listener


@pytest.mark.parametrize(
    "answer",
    [
        lambda line: b"" if line == b"again" else b"\x1b]0;PWNED\x07garbage \xff\xfe not json\n",
        lambda line: b"" if line == b"again" else b'["not", "an object"]\n',
        lambda line: b'{"jsonrpc":"2.0","id":999,"result":"pong"}\n',  # never its id, for ever
        lambda line: b" ",  # a byte now and then, never a whole answer
    ],
    ids=["bytes that are not UTF-8", "not an object", "answers to other ids", "never a line"],
)
def test_what_does_not_speak_memdesks_protocol_is_refused_within_the_time_limit(sock_path, answer):
    """A red team's socket answering bytes that are not UTF-8 gave the CLI a traceback; one
    answering other ids kept it waiting for ever."""
    from concurrent.futures import ThreadPoolExecutor

    listener = _impostor(sock_path, answer)
    pool = ThreadPoolExecutor(1)
    try:
        connecting = pool.submit(Client, socket_path=sock_path, agent="cli", timeout=1.0)
        with pytest.raises(ServerUnavailable):
            connecting.result(timeout=15)  # not for ever
    finally:
        listener.close()
        pool.shutdown(wait=False)


def test_a_socket_another_user_serves_is_refused_before_anything_is_sent(sock_path, monkeypatch):
    """A red team's socket served by user nobody was sent the person's `memory.add` and
    `memory.search`, and its made-up hits printed as the person's memories."""
    import os

    heard = []
    listener = _impostor(sock_path, lambda line: heard.append(line) or b"")
    monkeypatch.setattr(os, "getuid", lambda: os.geteuid() + 1)  # as if it were not ours
    try:
        with pytest.raises(ServerUnavailable, match="served by another user"):
            Client(socket_path=sock_path, agent="cli", timeout=1.0)
    finally:
        listener.close()
    assert heard == []


def test_a_stopped_server_is_said_once_not_waited_for_again_and_again(sock_path, monkeypatch):
    """A red team stopped `serve` (SIGSTOP): `memdesk add` waited 30 s per try, try after try,
    with nothing on the screen."""
    from memdesk.api import owner
    from memdesk.api.client import NoAnswer

    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(sock_path)
    mute.listen(8)  # takes connections, never answers
    tries = []

    def quick(**how):
        tries.append(how)
        return Client(**{**how, "timeout": 0.2})

    monkeypatch.setattr(owner, "Client", quick)
    monkeypatch.setenv("MEMDESK_SOCKET", sock_path)
    try:
        with pytest.raises(NoAnswer, match="did not answer"):
            owner.connect_if_running(agent="cli", role="user")
    finally:
        mute.close()
    assert len(tries) == 1
