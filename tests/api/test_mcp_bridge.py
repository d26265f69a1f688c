"""The MCP bridge driven end-to-end by the official SDK's stdio client."""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys

import anyio
import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from memdesk.api.client import Client


def _bridge(db_path, sock_path) -> StdioServerParameters:
    env = {**os.environ, "MEMDESK_SOCKET": sock_path, "MEMDESK_AGENT": "claude-test"}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "memdesk", "mcp", "--db", str(db_path)], env=env
    )


async def _session_run(params, steps):
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await steps(session)


def _payload(result) -> object:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def test_lists_exactly_two_tools_and_writes_then_searches(serve, db_path, sock_path):
    serve()

    async def steps(session):
        tools = (await session.list_tools()).tools
        added = await session.call_tool(
            "memory_write",
            {"action": "add", "content": "The user deploys with Ansible", "kind": "fact"},
        )
        found = await session.call_tool("memory", {"op": "search", "query": "deploy"})
        missing = await session.call_tool("memory", {"op": "get", "id": "ffff0000"})
        helped = await session.call_tool("memory", {"op": "help"})
        return tools, added, found, missing, helped

    tools, added, found, missing, helped = anyio.run(
        _session_run, _bridge(db_path, sock_path), steps
    )
    assert sorted(t.name for t in tools) == ["memory", "memory_write"]
    descriptions = {t.name: t.description for t in tools}
    assert "Never task progress" in descriptions["memory_write"]
    # The agent hears too: a lasting statement of the user's is the agent's to save, now.
    assert "When the user states a lasting" in descriptions["memory_write"]
    memory = _payload(added)
    assert (memory["source"], memory["agent"]) == ("agent", "claude-test")
    assert _payload(found)["hits"][0]["id"] == memory["id"]
    assert missing.is_error
    assert "no memory" in missing.content[0].text
    assert "do_not_store" in _payload(helped)


def test_starts_memdesk_serve_when_none_runs(db_path, sock_path):
    async def steps(session):
        return await session.call_tool("memory", {"op": "identity"})

    result = anyio.run(_session_run, _bridge(db_path, sock_path), steps)
    try:
        assert _payload(result)["limit"] == 1000
        with Client(socket_path=sock_path) as client:
            assert client.ping() == "pong"  # still running after the bridge exited
    finally:
        _stop_server_on(sock_path)


def _stop_server_on(sock_path: str) -> None:
    """Stop the background server the bridge started: its pid from the socket's peer creds."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        peer.connect(sock_path)
        creds = peer.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid = struct.unpack("3i", creds)[0]
    os.kill(pid, signal.SIGTERM)
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        anyio.run(anyio.sleep, 0.05)


def test_the_bridge_survives_serve_being_killed_between_two_calls(serve, db_path, sock_path):
    first = serve()

    async def steps(session):
        added = await session.call_tool("memory_write", {"action": "add", "content": "Kept"})
        first.proc.kill()
        first.proc.wait()
        found = await session.call_tool("memory", {"op": "search", "query": "kept"})
        again = await session.call_tool("memory_write", {"action": "add", "content": "Later"})
        return added, found, again

    added, found, again = anyio.run(_session_run, _bridge(db_path, sock_path), steps)
    try:
        assert _payload(found)["hits"][0]["id"] == _payload(added)["id"]
        assert _payload(again)["content"] == "Later"
    finally:
        _stop_server_on(sock_path)  # the one the bridge started in place of the killed one


@pytest.mark.parametrize("name", ["user", "<system>", "x" * 201])
def test_a_name_memdesk_refuses_stops_the_bridge_at_start_with_the_reason(tmp_path, name):
    """An MCP tryout: the bridge started with MEMDESK_AGENT=user and every tool call then
    told the model of a set-up it cannot change; the host never showed it."""
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "mcp", "--db", str(tmp_path / "m.db")],
        env={**os.environ, "MEMDESK_AGENT": name},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"memdesk mcp: MEMDESK_AGENT={name!r}: agent ")
    assert done.stdout == ""


def test_a_serve_that_cannot_start_fails_fast_with_its_reason(tmp_path, sock_path):
    unusable = tmp_path / "not-a-db.sqlite3"
    unusable.write_bytes(b"this is not a database" * 200)

    async def steps(session):
        started = anyio.current_time()
        result = await session.call_tool("memory", {"op": "identity"})
        return result, anyio.current_time() - started

    result, took = anyio.run(_session_run, _bridge(unusable, sock_path), steps)
    assert result.is_error
    assert "not a usable memdesk database" in result.content[0].text
    assert took < 5  # not the client's whole wait for a server that never comes


def test_every_tool_call_an_agent_needs_and_readable_refusals(serve, db_path, sock_path):
    serve()

    async def steps(session):
        async def call(tool, **arguments):
            return await session.call_tool(tool, arguments)

        out = {"tools": (await session.list_tools()).tools}
        out["added"] = await call("memory_write", action="add", content="Uses pnpm, not npm")
        first = _payload(out["added"])["id"]
        out["again"] = await call(
            "memory_write", action="add", content="Uses pnpm, not npm", dedup=False
        )
        out["edited"] = await call("memory_write", action="update", id=first, content="Uses pnpm 9")
        out["reverted"] = await call("memory_write", action="revert", id=first, version=1)
        out["removed"] = await call("memory_write", action="remove", id=first)
        out["restored"] = await call("memory_write", action="restore", id=first)
        out["archived"] = await call(
            "memory_write", action="archive", what="Moved CI to pnpm", unfinished=["docs"]
        )
        out["identity"] = await call("memory_write", action="set_identity", text="Name: Ada")
        out["recent"] = await call("memory", op="recent", changed_since="1h")
        out["stats"] = await call("memory", op="stats")
        out["long"] = await call(
            "memory_write", action="add", content="longword " * 300, dedup=False
        )
        out["listed"] = await call("memory", op="list")
        out["found"] = await call("memory", op="search", query="longword")
        out["typo"] = await call("memory", op="search", query="pnpm", tag=["x"])
        out["wrong_op_arg"] = await call("memory", op="get", id=first, query="pnpm")
        out["missing"] = await call("memory", op="search")
        out["bad_kind"] = await call("memory_write", action="add", content="y", kind="fakt")
        out["bad_op"] = await call("memory", op="delete")
        out["bad_type"] = await call("memory", op="search", query="pnpm", k="ten")
        with Client(socket_path=sock_path, agent="setup-user", role="user") as person:
            persons = person.add("The person's own rule.")["id"]
        out["not_its_own"] = await call("memory_write", action="update", id=persons, tags=["x"])
        out["json_terms"] = await call("memory", op="search", query="x", k=True)
        # a host sending null for each optional argument it leaves unused
        out["nulls"] = await call("memory", op="search", query="pnpm", k=None, layer=None)
        return out

    out = anyio.run(_session_run, _bridge(db_path, sock_path), steps)

    for tool in out["tools"]:
        schema = tool.input_schema
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False
        assert all(p.get("description") for p in schema["properties"].values())
    assert out["tools"][0].annotations.read_only_hint is True
    # The whole definition an agent pays for, in characters (~4 per token).
    wire = sum(
        len(json.dumps(t.model_dump(mode="json", by_alias=True, exclude_none=True)))
        for t in out["tools"]
    )
    assert wire <= 4_500
    # One copy of each result, compact.
    assert out["added"].structured_content is None
    assert len(out["added"].content) == 1
    assert ", " not in out["added"].content[0].text.split('"content"')[0]
    assert _payload(out["again"])["id"] != _payload(out["added"])["id"]
    assert _payload(out["reverted"])["content"] == "Uses pnpm, not npm"
    assert _payload(out["restored"])["status"] == "active"
    assert _payload(out["archived"])["layer"] == "L2"
    assert _payload(out["identity"])["proposed"] >= 1  # the person decides, in the Inbox
    assert _payload(out["identity"])["text"] == ""
    assert len(_payload(out["recent"])) >= 3
    assert _payload(out["stats"])["by_layer"]["L2"] == 1
    listed = _payload(out["listed"])
    assert len(listed) <= 20
    assert any(m["content"].endswith("op=get for the full text]") for m in listed)
    [hit] = _payload(out["found"])["hits"]  # cut as a list's (60 KB a hit, up to 100 hits)
    assert hit["content"].endswith("op=get for the full text]")
    assert len(hit["content"]) < 400
    refusals = {
        k: out[k] for k in ("typo", "wrong_op_arg", "missing", "bad_kind", "bad_op", "bad_type")
    }
    for name, result in refusals.items():
        assert result.is_error, name
        text = result.content[0].text
        assert "pydantic" not in text
        assert "http" not in text
    assert "unknown argument 'tag'" in out["typo"].content[0].text
    assert "op get does not take 'query'" in out["wrong_op_arg"].content[0].text
    assert "op search needs 'query'" in out["missing"].content[0].text
    assert '"fakt" is not allowed; use one of: fact, preference' in out["bad_kind"].content[0].text
    assert "use one of: search, context" in out["bad_op"].content[0].text
    assert "k must be an integer" in out["bad_type"].content[0].text
    # the tool calls an MCP agent has, not the socket's methods; values in JSON
    assert "propose a change with memory_write action=correct" in (
        out["not_its_own"].content[0].text
    )
    assert "k must be an integer, not true" in out["json_terms"].content[0].text
    assert not out["nulls"].is_error, out["nulls"].content[0].text


def test_reads_and_writes_are_of_the_project_the_host_works_in(serve, db_path, sock_path, tmp_path):
    serve()
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    with Client(socket_path=sock_path, agent="setup") as memdesk:
        memdesk.add("Shop checkout totals round half-even", project="shop")
        memdesk.add("Blog checkout of drafts uses git", project="blog")
        memdesk.add("The user likes checkout code small", kind="preference")
    params = _bridge(db_path, sock_path)
    params.cwd = str(repo)
    params.env = {k: v for k, v in params.env.items() if k != "MEMDESK_PROJECT"}

    async def steps(session):
        calls = {
            "context": ("memory", {"op": "context", "query": "checkout"}),
            "search": ("memory", {"op": "search", "query": "checkout"}),
            "everywhere": ("memory", {"op": "search", "query": "checkout", "project": ""}),
            # as search reads: an MCP tryout's list and recent gave another project's memories
            "list": ("memory", {"op": "list"}),
            "recent": ("memory", {"op": "recent"}),
            "list_all": ("memory", {"op": "list", "project": ""}),
            "add": ("memory_write", {"action": "add", "content": "Checkout uses Stripe"}),
            "add_global": (
                "memory_write",
                {"action": "add", "content": "The user reads diffs first", "project": ""},
            ),
        }
        return {k: _payload(await session.call_tool(*call)) for k, call in calls.items()}

    out = anyio.run(_session_run, params, steps)
    assert "half-even" in out["context"]["text"]
    assert "likes checkout code small" in out["context"]["text"]
    assert "Blog" not in out["context"]["text"]
    searched = [hit["content"] for hit in out["search"]["hits"]]
    assert len(searched) == 2
    assert not any("Blog" in c for c in searched)
    assert len(out["everywhere"]["hits"]) == 3
    for read in ("list", "recent"):
        assert sorted(m["project"] or "" for m in out[read]) == ["", "shop"]
    assert len(out["list_all"]) == 3
    assert out["add"]["project"] == "shop"
    assert out["add_global"]["project"] is None


_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


def _bridge_process(*args: str) -> subprocess.Popen:
    """`memdesk mcp` as a host starts it, its stdin and stdout piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "memdesk", "mcp", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def test_memdesk_mcp_ends_on_sigint_at_once(tmp_path):
    """#35 item 12: `memdesk mcp` ignored SIGINT (still running 5 s later; Claude Code logs
    "SIGINT failed, sending SIGTERM" at every session end)."""
    import signal
    import time

    with _bridge_process("--db", str(tmp_path / "memdesk.db")) as bridge:
        try:
            # up and answering, as when a host ends its session (a fixed 1.5 s wait sent the
            # signal mid-start on a busy machine: Python's own exit 130)
            bridge.stdin.write(json.dumps(_INITIALIZE).encode() + b"\n")
            bridge.stdin.flush()
            assert b'"id":1' in bridge.stdout.readline().replace(b" ", b"")
            time.sleep(0.2)
            bridge.send_signal(signal.SIGINT)
            assert bridge.wait(timeout=3) == 0
        finally:
            bridge.kill()


def test_a_line_past_the_limit_is_skipped_whole_and_the_next_is_read():
    """A red team's one unending stdin line took the bridge past 1 GB."""
    import io

    from memdesk.api.mcp_bridge import _BoundedLines

    stream = io.BytesIO(b'{"id":1,"x":"' + b"a" * 5000 + b'"}\n{"id":2}\n')
    lines = _BoundedLines(stream, limit=1000)
    assert lines.readline() == "\n"  # not JSON: the SDK sets it aside
    assert lines.readline() == '{"id":2}\n'
    assert lines.readline() == ""


def test_memdesk_mcp_answers_a_line_past_the_limit_and_goes_on(tmp_path):
    """An MCP tryout: a tool call of 1.1 MB got no answer at all, and its host waited. Its
    id opens the line, or ends it (as the TypeScript SDK writes a request)."""
    big = "a" * (3 << 20)
    with _bridge_process("--db", str(tmp_path / "memdesk.db")) as bridge:
        try:
            bridge.stdin.write(json.dumps(_INITIALIZE).encode() + b"\n")
            bridge.stdin.write(b'{"jsonrpc":"2.0","id":7,"x":"' + big.encode() + b'"}\n')
            last = {"method": "tools/call", "params": {"x": big}, "jsonrpc": "2.0", "id": "z"}
            bridge.stdin.write(json.dumps(last).encode() + b"\n")
            bridge.stdin.write(b'{"jsonrpc":"2.0","id":8,"method":"ping"}\n')
            bridge.stdin.flush()
            answers = [json.loads(bridge.stdout.readline()) for _ in range(4)]
        finally:
            bridge.kill()
    by_id = {a["id"]: a for a in answers}
    assert set(by_id) == {1, 7, "z", 8}
    for named in (7, "z"):
        assert by_id[named]["error"]["message"].startswith("request too large: memdesk reads")
    assert by_id[8]["result"] == {}


def test_requests_its_sdk_would_leave_unanswered_are_answered(serve, db_path, sock_path):
    """A red team's `params` given as a list, and a lone surrogate in a tool's argument, got
    no answer at all: a host waits for ever on such an id."""
    serve()  # the test's own: a bridge starts one of its own that outlives it

    deep = "[" * 600 + "]" * 600
    asked = [
        _INITIALIZE,
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": [1, 2]},
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory",'
        '"arguments":{"op":"get","id":"\\ud800"}}}',
        # nested 600 deep: the SDK set it aside, the host waited for ever
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"memory",'
        f'"arguments":{{"op":"search","query":{deep}}}}}}}',
        # a key twice: the SDK ran the last `op`, where the socket refuses the request
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory",'
        '"arguments":{"op":"search","query":"x","op":"get"}}}',
        '\ufeff{"jsonrpc":"2.0","id":8,"method":"ping"}',
        # params as a string or a number, no "jsonrpc" or another version (red team 67)
        {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "x"},
        {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": 3},
        {"id": 11, "method": "ping"},
        {"jsonrpc": "1.0", "id": 12, "method": "ping"},
        # a lone surrogate in a write: stored as U+FFFD, and the agent told it worked
        '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"memory_write",'
        '"arguments":{"action":"add","content":"bad \\ud800 surrogate"}}}',
    ]
    lines = b"".join(
        (line if isinstance(line, str) else json.dumps(line)).encode() + b"\n" for line in asked
    )
    with _bridge_process("--db", str(db_path), "--socket", sock_path) as bridge:
        try:
            bridge.stdin.write(lines)
            bridge.stdin.flush()
            answers = _lines(bridge.stdout.fileno(), len(asked), seconds=20)
        finally:
            bridge.kill()
    by_id = {answer["id"]: answer for answer in map(json.loads, answers)}
    assert by_id[5]["error"]["code"] == -32602
    assert by_id[6]["error"]["code"] == -32602
    assert by_id[7]["error"]["code"] == -32602
    assert by_id[8]["result"] == {}
    assert by_id[9]["error"]["code"] == by_id[10]["error"]["code"] == -32602
    assert by_id[11]["result"] == by_id[12]["result"] == {}
    assert by_id[13]["error"]["code"] == -32602
    assert "params.arguments.content holds an unpaired surrogate" in by_id[13]["error"]["message"]
    assert by_id[4]["error"]["code"] == -32602  # wherever it is


def _lines(fd: int, count: int, seconds: float) -> list[bytes]:
    """`count` lines from `fd`, or as many as came within `seconds` (an answer never sent
    must fail the test, not hang it)."""
    import os
    import select
    import time

    data, deadline = b"", time.monotonic() + seconds
    while data.count(b"\n") < count and (left := deadline - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            data += chunk
    return data.splitlines()


def test_the_bridge_reads_no_further_while_its_answers_wait_unwritten():
    """Red team (stop 67): a host that asked on and never read stdout took the bridge to
    390 MB in a minute. Reading waits while the limit of answers is unwritten, and goes on
    as each is written or cancelled by the host."""
    import io
    import threading
    import time

    from memdesk.api.mcp_bridge import _BoundedLines
    from memdesk.api.mcp_in_flight import InFlight

    def asked(n):
        return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/list"}).encode() + b"\n"

    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
    notice = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    stream = io.BytesIO(
        asked(1) + asked(2) + json.dumps(notice).encode() + b"\n" + asked(3)
        + json.dumps(cancel).encode() + b"\n" + asked(4) + asked(5)
    )  # fmt: skip
    in_flight = InFlight(limit=2, wait_s=30)
    lines = _BoundedLines(stream, limit=1000, in_flight=in_flight)
    read = []

    def read_all():
        while line := lines.readline():
            read.append(line)

    reader = threading.Thread(target=read_all)
    reader.start()
    time.sleep(0.3)
    assert len(read) == 3  # two requests and a notice; the third request waits
    in_flight.answered(1)
    time.sleep(0.3)
    assert len(read) == 6  # request 3 read, and the cancel of 2 freed a place for 4
    in_flight.answered(3)
    reader.join(timeout=5)
    assert len(read) == 7
    # one id asked again and again holds as many places as it was asked
    again = InFlight(limit=2, wait_s=0.2)
    for _ in range(3):
        again.read({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
    started = time.monotonic()
    again.read({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
    assert time.monotonic() - started >= 0.2


def test_a_batch_a_bare_value_an_odd_id_and_no_json_are_answered(serve, db_path, sock_path):
    """Red team (stop 70): the SDK answered none of these, and a host waits on the id it
    sent until it gives up."""
    serve()
    asked = [
        json.dumps(_INITIALIZE),
        '[{"jsonrpc":"2.0","id":3,"method":"tools/list"},{"jsonrpc":"2.0","id":4,"method":"ping"}]',
        '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}',
        "null",
        "5",
        "{not json",
        '{"jsonrpc":"2.0","id":8,"method":"ping"}',
    ]
    with _bridge_process("--db", str(db_path), "--socket", sock_path) as bridge:
        try:
            bridge.stdin.write("".join(line + "\n" for line in asked).encode())
            bridge.stdin.flush()
            answers = [json.loads(a) for a in _lines(bridge.stdout.fileno(), 8, seconds=20)]
        finally:
            bridge.kill()
    # (answers to different ids may come in any order: the SDK answers initialize on its
    # own task while the bridge refuses the rest at once)
    by_id: dict[object, list[dict]] = {}
    for answer in answers:
        by_id.setdefault(answer["id"], []).append(answer)
    assert sorted(by_id, key=str) == sorted([1, 3, 4, None, 8], key=str)
    assert "result" in by_id[1][0]
    batch = by_id[3] + by_id[4]
    assert {a["error"]["code"] for a in batch} == {-32600}
    assert all("batches are not supported" in a["error"]["message"] for a in batch)
    assert sorted(a["error"]["code"] for a in by_id[None]) == [-32700, -32600, -32600, -32600]
    assert by_id[8][0]["result"] == {}


def test_a_stopped_memdesk_is_told_to_the_agent_once_not_waited_on_for_minutes(
    sock_path, tmp_path, monkeypatch
):
    """An MCP tryout stopped `serve` (SIGSTOP): a search waited over 90 s with no answer and
    nothing on stderr, each retry waiting its whole time again."""
    import time

    from memdesk.api import headless, mcp_bridge

    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(sock_path)
    mute.listen(8)  # takes connections, never answers
    started = []
    monkeypatch.setattr(headless, "start_serve", lambda *a: started.append(a))
    backend = mcp_bridge.Backend(tmp_path / "m.db", sock_path)
    backend.timeout = 0.3
    began = time.monotonic()
    try:
        with pytest.raises(mcp_bridge.ToolError, match="did not answer"):
            backend.call("memory.search", {"query": "pytest"})
    finally:
        mute.close()
    assert time.monotonic() - began < 2
    assert started == []  # nothing started beside the stopped one


def test_a_write_memdesk_did_not_answer_in_time_is_not_sent_again(sock_path):
    """Sent again after the client gave up, a slow write was done twice."""
    from memdesk.api.client import OutcomeUnknown

    heard = []
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sock_path)
    listener.listen(8)

    def answer_the_greeting_only() -> None:
        conn, _ = listener.accept()
        with conn, conn.makefile("rb") as reader:
            for line in reader:  # until the client closes
                message = json.loads(line)
                heard.append(message["method"])
                if message["method"] == "system.hello":
                    reply = {"jsonrpc": "2.0", "id": message["id"], "result": {"agent": "a"}}
                    conn.sendall(json.dumps(reply).encode() + b"\n")

    import threading

    serving = threading.Thread(target=answer_the_greeting_only, daemon=True)
    serving.start()
    client = Client(socket_path=sock_path, agent="a", timeout=0.3)
    try:
        with pytest.raises(OutcomeUnknown, match="may or may not have been saved"):
            client.call("memory.add", content="Deploys go out on Tuesdays.")
    finally:
        client.close()
        serving.join(5)
        listener.close()
    assert heard.count("memory.add") == 1


def test_the_docs_name_each_ops_parameters_as_the_tools_take_them():
    """An MCP tryout: docs/api.md promised `layers`, `until` and `order`, which the tools
    refuse."""
    from pathlib import Path

    from memdesk.api import mcp_tools

    docs = Path(__file__).parents[2] / "docs" / "api.md"
    text = " ".join(docs.read_text(encoding="utf-8").split())
    for ops in (mcp_tools.READS, mcp_tools.WRITES):
        for name, op in ops.items():
            assert f"{name} {{{', '.join(op.params)}}}" in text, name
