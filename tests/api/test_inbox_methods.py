"""The inbox over the socket: agents write with a confidence; only the person decides."""

from __future__ import annotations

import json

import pytest

from memdesk.api.client import Client, MemdeskError


def test_an_unsure_write_waits_for_the_person(serve, sock_path):
    serve()
    with (
        Client(socket_path=sock_path, agent="claude-code", timeout=10) as agent,
        Client(socket_path=sock_path, agent="cursor", timeout=10) as other,
        Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person,
    ):
        unsure = agent.call("memory.add", content="Prod DB is db-7.internal", confidence=0.4)
        assert other.search("prod db")["hits"] == []
        (waiting,) = person.call("inbox.list")
        assert (waiting["type"], waiting["key"]) == ("unsure", f"memory:{unsure['id']}")
        for method, params in (
            ("inbox.list", {}),
            ("inbox.accept", {"keys": [waiting["key"]]}),
            ("inbox.find_duplicates", {}),
        ):
            with pytest.raises(MemdeskError) as refused:
                agent.call(method, **params)
            assert refused.value.code == -32005
            assert "only the person" in refused.value.message
        with pytest.raises(MemdeskError) as refused:
            person.call("memory.add", content="x", confidence=2)
        assert "confidence 2 is outside 0..1" in refused.value.message
        person.call("inbox.accept", keys=[waiting["key"]])
        assert other.search("prod db")["hits"][0]["id"] == unsure["id"]
        assert person.call("inbox.list") == []


def test_what_agents_were_given_is_the_persons_to_read_over_the_socket_and_the_cli(
    serve, sock_path, db_path, run
):
    serve()
    with (
        Client(socket_path=sock_path, agent="claude-code", timeout=10) as agent,
        Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person,
    ):
        person.call("memory.add", content="This repo uses pnpm only, never npm", project="shop")
        agent.call("session.start", session="s1", project="shop")
        with pytest.raises(MemdeskError) as refused:
            agent.call("injections")
        assert "only the person" in refused.value.message
        [session] = person.call("injections", sessions=5)
        assert session["agent"] == "claude-code"
        assert "pnpm only" in session["events"][0]["memories"][0]["line"]
        with pytest.raises(MemdeskError) as refused:
            person.call("injections", sessions=0)
        assert "sessions" in refused.value.message
    code, out, _ = run("injections")
    assert code == 0
    assert "claude-code session s1 (shop)" in out
    assert "session start: 1 memories" in out
    code, out, _ = run("--json", "injections", "--sessions", "1")
    assert json.loads(out)[0]["session"] == "s1"
