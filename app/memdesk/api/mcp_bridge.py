"""`memdesk mcp`: a stdio MCP server that forwards to the running memdesk over its socket.

Two tools only, so an agent's context is not filled with schemas: `memory` (reads) and
`memory_write`; their schemas come from the method table (`api/mcp_tools.py`). If no memdesk
runs for the database, `memdesk serve` is started in the background on first use (and again
if it goes away) and keeps running after the bridge exits.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    JSONRPCError,
    ListToolsResult,
    TextContent,
    Tool,
    ToolAnnotations,
)

from memdesk import __version__
from memdesk.api import headless, hello, mcp_refused, mcp_tools, naming, projects, protocol
from memdesk.api.client import Client, MemdeskError, NoAnswer, ServerUnavailable
from memdesk.api.errors import RpcError
from memdesk.api.mcp_in_flight import MAX_IN_FLIGHT, Answering, InFlight
from memdesk.core import errors as core_errors

logger = logging.getLogger(__name__)

AGENT_ENV = "MEMDESK_AGENT"  # the name writes are attributed to (default "mcp")
START_TIMEOUT_S = 15.0
ANSWER_TIMEOUT_S = 30.0  # then the agent hears memdesk is stopped or hung, not nothing

INSTRUCTIONS = """memdesk is the user's long-term memory, shared by all their agents and visible
to them in a desktop app. Read it before work (memory op=context); write to it when you learn
something that will still be true and useful in a later session."""

MEMORY_DESCRIPTION = """Read the user's long-term memory (only the user's recall statistics
change). Before a task: op context with the task as query. search, context, list, recent read
the project you work in and the memories of no project (project "": every project)."""
OPS = (
    "search {query} | context {query}: identity + relevant knowledge | get, history {id} | "
    "list {filters}: 20 a page | recent: changed in 7 days | identity | stats | help"
)

WRITE_DESCRIPTION = """Change the user's long-term memory. When the user states a lasting
preference, correction or fact (about them, their tools, this project), save it at once with
action add: one fact per memory, plain words, true without this conversation.
Never task progress, transient state or secrets. A restatement reinforces the old memory; a
near-copy with another number or name is linked to it for review. add and archive go to the
project you work in; project "" for what holds everywhere."""
ACTIONS = (
    "add {content} | update {id} | correct {id, content}: fix a wrong memory (history kept) | "
    "remove {id} | restore {id} | revert {id, version} | link {id, to} | archive {what}: "
    "this session's summary | set_identity {text}: propose the profile (user accepts)"
)

HELP = {
    "store": "corrections, preferences, stable facts, environment, decisions with reasons",
    "do_not_store": "task progress, transient state, short-term plans, secrets",
    "read_first": "memory op=context with the task as query, before starting work",
    "correct_not_duplicate": "if a memory is wrong, memory_write action=correct with its id",
    "end_of_session": "memory_write action=archive with what was done and what is unfinished",
    "layers": {"L0": "identity (<= 1,000 chars)", "L1": "knowledge", "L2": "archive"},
}
CUT_AT = 300  # characters of content a list shows; op=get gives the whole text
CUT_MARK = " …[cut: op=get for the full text]"


class ToolError(Exception):
    """A refusal the agent reads: says what was wrong and what is allowed."""


class Backend:
    """The connection to memdesk, made on first use and made again when memdesk went away
    (starting `memdesk serve` when nothing owns the database)."""

    def __init__(self, db: os.PathLike[str] | str, socket_path: str | None = None) -> None:
        self.db = db
        self.socket_path = socket_path or naming.socket_path(db)
        self.agent = os.environ.get(AGENT_ENV) or "mcp"
        self.timeout = ANSWER_TIMEOUT_S
        self._client: Client | None = None

    def call(self, method: str, params: dict[str, Any]) -> Any:
        try:
            try:
                return self._connected().call(method, **params)
            except NoAnswer:
                self.close()  # there but stopped or hung: another try only waits as long again
                raise
            except ServerUnavailable:
                # Gone and not back (killed, or closed with its window): nothing was done
                # (the client repeats only what cannot be done twice), so start it and retry.
                self.close()
                return self._connected().call(method, **params)
        except MemdeskError as exc:
            raise ToolError(
                f"{mcp_tools.in_mcp_terms(exc.message)} [{exc.type}, {exc.code}]"
            ) from None

    def _connected(self) -> Client:
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self) -> Client:
        try:
            return headless.connect_starting_serve(
                self.db, self.socket_path, self.agent, timeout=self.timeout, wait_s=START_TIMEOUT_S
            )
        except headless.StartFailed as exc:
            raise ToolError(str(exc)) from None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


_IN_HOST_PROJECT = {"memory.search", "memory.list", "context.build", "memory.add", "archive.add"}
# Reads of "this project or none", as a session sees memory (list and recent read every
# project, while search did not)
_WITH_GLOBAL = {"memory.search", "memory.list"}


class Tools:
    """The two tools: their definitions, and a call checked, forwarded and answered."""

    def __init__(self, backend: Backend, project: str | None = None) -> None:
        self._backend = backend
        self._project = project
        self.schemas = {
            "memory": mcp_tools.input_schema("op", mcp_tools.READS, OPS, local=("help",)),
            "memory_write": mcp_tools.input_schema("action", mcp_tools.WRITES, ACTIONS),
        }

    def definitions(self) -> list[Tool]:
        return [
            Tool(
                name="memory",
                description=MEMORY_DESCRIPTION,
                input_schema=self.schemas["memory"],
                annotations=ToolAnnotations(
                    title="Read memory", read_only_hint=True, idempotent_hint=True
                ),
            ),
            Tool(
                name="memory_write",
                description=WRITE_DESCRIPTION,
                input_schema=self.schemas["memory_write"],
                annotations=ToolAnnotations(
                    title="Write memory", read_only_hint=False, destructive_hint=False
                ),
            ),
        ]

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        if name not in self.schemas:
            raise ToolError(f"no tool {name!r}; the tools are: memory, memory_write")
        switch, ops = ("op", mcp_tools.READS) if name == "memory" else ("action", mcp_tools.WRITES)
        refusal = mcp_tools.check(self.schemas[name], arguments, name)
        if refusal:
            raise ToolError(refusal)
        if arguments[switch] == "help":
            return HELP
        op = ops[arguments[switch]]
        refusal = mcp_tools.fit_op(arguments[switch], op, arguments, switch)
        if refusal:
            raise ToolError(refusal)
        params = mcp_tools.call_params(op, arguments, switch)
        if "project" not in params and self._project and op.method in _IN_HOST_PROJECT:
            # The project the host works in: what it writes is of that project; what it reads,
            # of that project or of none. project "" writes or reads across every project.
            params["project"] = self._project
            if op.method in _WITH_GLOBAL:
                params["with_global"] = True
        result = self._backend.call(op.method, params)
        if op.method == "memory.search":
            # cut as a list is: one whole hit of 60 KB, and up to 100 of them, went into
            # the model's context
            return {**result, "hits": _cut(result["hits"])}
        return _cut(result) if op.method == "memory.list" else result


def _cut(memories: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**m, "content": m["content"][:CUT_AT] + CUT_MARK} if len(m["content"]) > CUT_AT else m
        for m in memories
    ]


def build_server(backend: Backend, project: str | None = None) -> Server:
    tools = Tools(backend, project)

    async def list_tools(_ctx: Any, _params: Any) -> ListToolsResult:
        return ListToolsResult(tools=tools.definitions())

    async def call_tool(_ctx: Any, params: CallToolRequestParams) -> CallToolResult:
        # null is "not given": many hosts send it for every optional argument left unused,
        # and no argument here takes null as a value
        arguments = {k: v for k, v in (params.arguments or {}).items() if v is not None}
        try:
            # The socket call blocks: off the event loop, so pings are still answered.
            result = await anyio.to_thread.run_sync(tools.call, params.name, arguments)
        except ToolError as exc:
            return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)
        return CallToolResult(content=[TextContent(type="text", text=_text(result))])

    return Server(
        "memdesk",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _text(value: Any) -> str:
    # Compact: a search of 8 hits is ~30% fewer tokens than indented JSON.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _BoundedLines:
    """stdin as lines of at most `limit` bytes, as the socket reads them: one unending line
    took the bridge past 1 GB. A longer line is skipped to its end, and read as an empty
    one (not JSON: the SDK sets it aside)."""

    def __init__(self, raw: BinaryIO, limit: int, in_flight: InFlight | None = None) -> None:
        self._raw, self._limit, self._in_flight = raw, limit, in_flight
        # Set once stdout is served: answers the bridge writes itself (`mcp_refused`).
        self.answer: Callable[[list[dict[str, Any]]], None] | None = None

    def readline(self) -> str:
        line = self._raw.readline(self._limit + 1)
        if len(line) > self._limit:
            tail = line[-256:]
            while not tail.endswith(b"\n") and (rest := self._raw.readline(1 << 16)):
                tail = (tail + rest)[-256:]
            if self.answer is not None and (
                errors := mcp_refused.too_long(line, tail, self._limit)
            ):
                self.answer(errors)
            return "\n"
        text = line.decode("utf-8", "replace")
        if self.answer is not None and (errors := mcp_refused.refusals(text)):
            self.answer(errors)
            return "\n"
        line, message = _answerable(text)
        if self._in_flight is not None and message is not None:
            self._in_flight.read(message)
        return line


def _answerable(line: str) -> tuple[str, dict[str, Any] | None]:
    """A request its SDK would set aside without a word, made one it answers: "invalid
    params" for `params` given as a list, a string or a number, nested past MAX_DEPTH (a tool
    call 500 deep was never answered), or a key given twice (the SDK took the last `op`; the
    socket refuses it); a request with no "jsonrpc" or another version is read as 2.0; a
    lone surrogate (a request's is refused first, `mcp_refused`) is read as U+FFFD, a
    byte-order mark dropped. A host waits for ever on an id never answered. With the line,
    the message it carries (None when it is no JSON object)."""
    line = line.removeprefix("\ufeff")
    try:
        message = json.loads(line, object_pairs_hook=_once_each)
    except RecursionError:
        return _params_dropped(line)
    except ValueError:
        if isinstance(sys.exc_info()[1], _KeyTwice):
            return _params_dropped(line)
        return line, None
    if not isinstance(message, dict):
        return line, None
    params, named = message.get("params"), message.get("id")
    asked = isinstance(message.get("method"), str) and isinstance(named, int | str)
    mended = False
    if params is not None and not isinstance(params, dict) or _deeper_than(params, MAX_DEPTH):
        message["params"], mended = {}, True  # a list, a string, a number: "invalid params"
    if asked and not isinstance(named, bool) and message.get("jsonrpc") != "2.0":
        message["jsonrpc"], mended = "2.0", True  # none, or "1.0": answered all the same
    if not mended and "\\ud" not in line.lower():
        return line, message
    text = json.dumps(message, ensure_ascii=False)
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text) + "\n", message


MAX_DEPTH = 64  # nesting of a tool's arguments; the SDK's parser stops far below Python's
_TOP = re.compile(
    r'^\s*\{\s*((?:"(?:id|method|jsonrpc)"\s*:\s*(?:"[^"\\]{0,200}"|-?\d{1,18})\s*,\s*)+)'
)


class _KeyTwice(ValueError):
    pass


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _KeyTwice("a key given twice")
    return dict(pairs)


def _deeper_than(value: Any, depth: int) -> bool:
    if depth < 0:
        return True
    if isinstance(value, dict):
        return any(_deeper_than(v, depth - 1) for v in value.values())
    if isinstance(value, list):
        return any(_deeper_than(v, depth - 1) for v in value)
    return False


def _params_dropped(line: str) -> tuple[str, dict[str, Any] | None]:
    """The request's id, method and version as they open the line, without its params; the
    line as it was (set aside) when they do not."""
    found = _TOP.match(line)
    if found is None:
        return line, None
    try:
        head = json.loads("{" + found[1].rstrip().rstrip(",") + "}")
    except ValueError:
        return line, None
    return json.dumps({**head, "params": {}}) + "\n", head


def _name_refused(agent: str) -> str | None:
    """Why memdesk would refuse `agent` as an agent's name (None: it would not), as far as
    the bridge can tell before it connects (the person's machine names it cannot know)."""
    try:
        hello.checked({"agent": agent}, None, holds_key=False, machine_names=tuple)
    except (RpcError, core_errors.MemdeskError) as exc:
        return exc.message.removeprefix("system.hello: ")
    return None


async def _send_all(write: Any, errors: list[dict[str, Any]]) -> None:
    for error in errors:
        await write.send(SessionMessage(JSONRPCError.model_validate(error)))


def run(args: argparse.Namespace) -> int:
    # stdout is the MCP channel: logging must go to stderr only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    backend = Backend(args.db, getattr(args, "socket", None))
    if refused := _name_refused(backend.agent):
        # at start, where the host shows it as its set-up's fault: said at every tool call
        # instead, it went to the model, which cannot change its host's environment
        print(f"memdesk mcp: {AGENT_ENV}={backend.agent!r}: {refused}", file=sys.stderr)
        return 2
    # An agent host starts its MCP servers in the folder it works in.
    server = build_server(backend, projects.project_of(os.getcwd()))

    async def serve() -> None:
        # A host that never read its answers while it went on asking took the bridge to 390 MB
        # in a minute: it reads no further while MAX_IN_FLIGHT answers wait to be written.
        in_flight = InFlight(MAX_IN_FLIGHT)
        raw = _BoundedLines(sys.stdin.buffer, protocol.MAX_LINE_BYTES, in_flight)
        async with stdio_server(stdin=anyio.wrap_file(raw)) as (read, write):
            answering = Answering(write, in_flight)
            raw.answer = lambda errors: anyio.from_thread.run(_send_all, write, errors)
            await server.run(read, answering, server.create_initialization_options())

    # The host stops its MCP servers with SIGINT, then SIGTERM: stdin is read in a thread no
    # cancellation reaches, so the bridge went on (Claude Code logged "SIGINT failed" at every
    # session end). A request in flight is one SQLite transaction: it is kept whole or not at
    # all, so ending at once loses nothing.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, lambda *_: os._exit(0))
    try:
        anyio.run(serve)
    finally:
        backend.close()
    return 0
