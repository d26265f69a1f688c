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
