"""One agent's request may not hold the store: its database work stops at a time limit."""

from __future__ import annotations

import json

import pytest

from memdesk.api import errors
from memdesk.api.connection import Limits
from memdesk.api.dispatch import Dispatcher, Session
from memdesk.api.errors import RpcError
from memdesk.api.server import SocketServer
from memdesk.core import USER, agent
from memdesk.core.errors import TooSlow
from memdesk.store.time_limit import checkpoint
from tests.api.conftest import Raw


def _agent(name: str = "slowpoke") -> Session:
    return Session(agent=name, role="agent", actor=agent(name))


def _person() -> Session:
    return Session(agent="memdesk-cli", role="user", actor=USER)


@pytest.fixture
def crowded(service):
    service.add_many(
        [
            {"content": f"note {i} about the deploy pipeline and its staging keys"}
            for i in range(3000)
        ],
        actor=USER,
        dedup=False,
    )
    return service


def test_an_agents_request_past_the_limit_is_stopped_and_says_why(crowded):
    out_of_time = Dispatcher(crowded, request_seconds=0.0)
    with pytest.raises(RpcError) as raised:
        out_of_time.call("memory.search", {"query": "deploy pipeline", "k": 100}, _agent())
    assert raised.value.code == errors.BUSY
    assert "memory.search was stopped after 0 s" in raised.value.message
    assert "Ask for less" in raised.value.message


def test_a_write_stopped_by_the_limit_leaves_the_store_as_it_was(crowded):
    before = crowded.count()
    items = [{"content": f"agent note {i} on the release train"} for i in range(200)]
    with pytest.raises(RpcError):
        Dispatcher(crowded, request_seconds=0.0).call("memory.add_many", {"items": items}, _agent())
    assert crowded.count() == before
    assert crowded.check() == []


def test_the_limit_ends_with_the_request(crowded):
    with pytest.raises(RpcError):
        Dispatcher(crowded, request_seconds=0.0).call(
            "memory.search", {"query": "deploy", "k": 100}, _agent()
        )
    found = Dispatcher(crowded).call("memory.search", {"query": "deploy", "k": 100}, _agent())
    assert len(found["hits"]) == 100


def test_the_persons_own_tools_have_no_limit(crowded):
    found = Dispatcher(crowded, request_seconds=0.0).call(
        "memory.search", {"query": "deploy", "k": 100}, _person()
    )
    assert len(found["hits"]) == 100


def test_other_clients_search_bookkeeping_survives_a_stopped_request(crowded, caplog):
    """Searches queue their log rows; the next write writes them, whoever makes it."""
    reader = Dispatcher(crowded)
    for word in ("staging", "deploy", "pipeline", "keys", "note"):
        reader.call("memory.search", {"query": word, "k": 100}, _agent("reader"))
    with pytest.raises(RpcError):
        Dispatcher(crowded, request_seconds=0.0).call(
            "memory.add_many",
            {"items": [{"content": f"more {i}"} for i in range(200)]},
            _agent(),
        )
    logged = crowded.retrieval_log(limit=10)
    assert [entry["query"] for entry in logged] == ["note", "keys", "pipeline", "deploy", "staging"]
    assert "bookkeeping batch refused" not in caplog.text


def test_the_socket_server_applies_its_limit(crowded, sock_path, pump):
    strict = SocketServer(crowded, sock_path, limits=Limits(request_seconds=0.0))
    strict.listen()
    peer = Raw(sock_path, pump)
    try:
        peer.send(
            b'{"jsonrpc":"2.0","method":"memory.search","params":{"query":"deploy"},"id":1}\n'
        )
        error = json.loads(peer.line())["error"]
        assert (error["code"], error["data"]["type"]) == (errors.BUSY, "busy")
        peer.send(b'{"jsonrpc":"2.0","method":"system.ping","id":2}\n')
        assert json.loads(peer.line())["result"] == "pong"
    finally:
        peer.close()
        strict.close()


def test_a_long_loop_of_short_statements_is_stopped_too(service):
    """Near-duplicate checks and guard scans are Python work between short statements."""
    service.add_many([{"content": f"abuse {i} " + "w" * 2000} for i in range(20)])
    with pytest.raises(TooSlow), service.time_limit(0.0, "memory.add_many"):
        service.add_many(
            [{"content": f"more abuse {i} " + "w" * 2000} for i in range(20)], dedup=False
        )
    assert service.count() == 20


def test_without_a_limit_checkpoints_cost_nothing(service):
    checkpoint()
    service.add_many([{"content": f"note {i}"} for i in range(3)])
    assert service.count() == 3
