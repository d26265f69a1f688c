"""Per-agent controls over the socket and MCP: a paused agent is refused everything, a
read-only one every write, each with an error that names the control."""

from __future__ import annotations

import anyio
import pytest

from memdesk.api.client import Client, MemdeskError
from tests.api.test_mcp_bridge import _bridge, _session_run


def test_pause_and_read_only_over_the_socket(serve, sock_path):
    serve()
    with (
        Client(socket_path=sock_path, agent="claude-code", timeout=10) as agent,
        Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person,
    ):
        kept = agent.add("Staging runs Debian 12")
        person.call("agents.control", agent="claude-code", mode="read_only")
        assert agent.search("staging")["hits"][0]["id"] == kept["id"]  # reads still work
        with pytest.raises(MemdeskError) as refused:
            agent.add("Anything else")
        assert refused.value.code == -32005
        assert "read-only" in refused.value.message

        person.call("agents.control", agent="claude-code", mode="paused")
        for call in (lambda: agent.search("staging"), lambda: agent.get(kept["id"])):
            with pytest.raises(MemdeskError) as refused:
                call()
            assert "paused by the person" in refused.value.message
        assert agent.ping() == "pong"  # it is told, not cut off
        assert person.search("staging")["hits"]  # the person is never paused

        with pytest.raises(MemdeskError) as refused:
            agent.call("agents.control", agent="claude-code", mode="active")
        assert refused.value.code == -32005  # an agent cannot resume itself

        person.call("agents.control", agent="claude-code", mode="active")
        assert agent.add("Back to work")["content"] == "Back to work"
        roster = {a["agent"]: a["mode"] for a in person.call("agents.list")}
        assert roster.get("claude-code", "active") == "active"


def test_a_paused_agent_is_told_through_mcp(serve, db_path, sock_path):
    serve()
    with Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person:
        person.call("agents.control", agent="claude-test", mode="paused")

    async def steps(session):
        return await session.call_tool("memory", {"op": "search", "query": "anything"})

    result = anyio.run(_session_run, _bridge(db_path, sock_path), steps)
    assert result.is_error
    assert "paused by the person" in result.content[0].text
