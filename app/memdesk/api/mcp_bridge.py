"""`memdesk mcp`: a stdio MCP server that forwards to the running memdesk over its socket.

Two tools only, so an agent's context is not filled with schemas: `memory` (read-only
router) and `memory_write`. If no memdesk runs for the database, `memdesk serve` is started
in the background on first use and keeps running after the bridge exits.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from memdesk import __version__
from memdesk.api import naming
from memdesk.api.client import Client, MemdeskError, ServerUnavailable

logger = logging.getLogger(__name__)

AGENT_ENV = "MEMDESK_AGENT"  # the name writes are attributed to (default "mcp")
START_TIMEOUT_S = 15.0

INSTRUCTIONS = """memdesk is the user's long-term memory, shared by all their agents and visible
to them in a desktop app. Read it before work (memory op=context); write to it when you learn
something that will still be true and useful in a later session."""

MEMORY_DESCRIPTION = """Read the user's long-term memory (never changes anything).
op and args:
- search {query, k?=10, layers?, project?, task?, tags?, since?, until?}: ranked hits
- context {query, project?, k?=10, budget_chars?=4000}: a <memory-context> block to read
  before a task (identity profile + the most relevant knowledge)
- get {id}, history {id}: one memory, or every version of it
- list {layer?, project?, task?, tags?, status?, offset?, limit?=50, order?}
- identity {}: the user's profile (L0, at most 1,000 characters)
- help {}: what to store and how
Layers: L0 identity (who the user is, how they want to work), L1 knowledge (facts,
preferences, decisions, environment), L2 archive (session summaries, written by memdesk)."""

WRITE_DESCRIPTION = """Change the user's long-term memory.
action:
- add {content, kind?, layer?=L1, tags?, project?, task?, importance?, dedup?=true}
- update {id, content?, kind?, tags?, project?, task?, importance?, expected_version?, reason?}
- correct {id, content, reason?}: replaces a wrong memory; the old one stays in history
- remove {id, reason?}: to the Trash (the user can restore it)
What belongs here: corrections the user made, the user's preferences and conventions, stable
facts about the user, the projects and the environment (paths, versions, commands that work),
decisions and their reasons. One fact per memory, in plain words, true without the
conversation around it.
What does not: progress of the current task, transient state, plans for the next few
minutes, secrets (passwords, tokens, keys), anything the user asked not to keep.
A restatement of a memory reinforces it instead (dedup=false always adds); a similar text
with another number, negation or name is added and linked to the old one as possible_update.
Identity (L0) holds at most 1,000 characters."""

HELP = {
    "store": "corrections, preferences, stable facts, environment, decisions with reasons",
    "do_not_store": "task progress, transient state, short-term plans, secrets",
    "read_first": "memory op=context with the task as query, before starting work",
    "correct_not_duplicate": "if a memory is wrong, memory_write action=correct with its id",
    "layers": {"L0": "identity (<= 1,000 chars)", "L1": "knowledge", "L2": "archive"},
}
_READS = {
    "search": ("memory.search", ("query",)),
    "context": ("context.build", ("query",)),
    "get": ("memory.get", ("id",)),
    "history": ("memory.history", ("id",)),
    "list": ("memory.list", ()),
    "identity": ("identity.get", ()),
}
_WRITES = {
    "add": "memory.add",
    "update": "memory.update",
    "correct": "memory.correct",
    "remove": "memory.remove",
}


class Backend:
    """The connection to memdesk, made on first use and made again when memdesk went away
    (starting `memdesk serve` when nothing owns the database)."""

    def __init__(self, db: os.PathLike[str] | str, socket_path: str | None = None) -> None:
        self.db = db
        self.socket_path = socket_path or naming.socket_path(db)
        self.agent = os.environ.get(AGENT_ENV) or "mcp"
        self.log = Path(self.socket_path + ".log")  # serve's stderr, when the bridge starts it
        self._client: Client | None = None

    def call(self, method: str, params: dict[str, Any]) -> Any:
        try:
            try:
                return self._connected().call(method, **params)
            except ServerUnavailable:
                # Gone and not back (killed, or closed with its window): nothing was done
                # (the client repeats only what cannot be done twice), so start it and retry.
                self.close()
                return self._connected().call(method, **params)
        except MemdeskError as exc:
            raise ToolError(f"{exc.message} [{exc.type}, {exc.code}]") from None

    def _connected(self) -> Client:
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self) -> Client:
        try:
            return Client(socket_path=self.socket_path, agent=self.agent)
        except ServerUnavailable:
            server = self._start_server()
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                return Client(socket_path=self.socket_path, agent=self.agent)
            except ServerUnavailable as exc:
                code = server.poll()
                if code not in (None, 0):  # 0: another one won the race and serves
                    why = _last_line(self.log) or f"exit code {code}"
                    raise ToolError(f"memdesk serve could not start: {why}") from None
                if time.monotonic() > deadline:
                    raise ToolError(f"memdesk could not be started: {exc.message}") from None
                time.sleep(0.05)

    def _start_server(self) -> subprocess.Popen[bytes]:
        logger.info("starting memdesk serve for %s", self.db)
        command = [sys.executable, "-m", "memdesk", "serve", "--db", str(self.db)]
        command += ["--socket", self.socket_path]
        # Its own session, no pipes to us: it outlives the bridge and never blocks on a pipe.
        # Its log goes to a file beside the socket, where a failed start leaves its reason.
        naming.prepare_dir(self.socket_path)
        with self.log.open("wb") as sink:
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=sink,
                start_new_session=True,
            )

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _last_line(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
    return lines[-1].removeprefix("memdesk serve: ") if lines else ""


def build_server(backend: Backend) -> MCPServer:
    server: MCPServer = MCPServer("memdesk", instructions=INSTRUCTIONS, version=__version__)

    @server.tool(
        name="memory",
        description=MEMORY_DESCRIPTION,
        annotations=ToolAnnotations(title="Read memory", readOnlyHint=True),
    )
    def memory(
        op: Literal["search", "get", "list", "history", "identity", "context", "help"],
        args: dict[str, Any] | None = None,
    ) -> str:
        if op == "help":
            return _text(HELP)
        method, required = _READS[op]
        params = dict(args or {})
        missing = [name for name in required if name not in params]
        if missing:
            raise ToolError(f"op {op} needs args.{missing[0]}")
        return _text(backend.call(method, params))

    @server.tool(
        name="memory_write",
        description=WRITE_DESCRIPTION,
        annotations=ToolAnnotations(
            title="Write memory", readOnlyHint=False, destructiveHint=False
        ),
    )
    def memory_write(
        action: Literal["add", "update", "correct", "remove"],
        content: str | None = None,
        id: str | None = None,
        kind: str | None = None,
        layer: str | None = None,
        tags: list[str] | None = None,
        project: str | None = None,
        task: str | None = None,
        importance: float | None = None,
        expected_version: int | None = None,
        reason: str | None = None,
        dedup: bool | None = None,
    ) -> str:
        if dedup is not None and action != "add":
            raise ToolError("dedup applies to action add only")
        given = {
            "dedup": dedup,
            "content": content,
            "id": id,
            "kind": kind,
            "layer": layer,
            "tags": tags,
            "project": project,
            "task": task,
            "importance": importance,
            "expected_version": expected_version,
            "reason": reason,
        }
        params = {k: v for k, v in given.items() if v is not None}
        return _text(backend.call(_WRITES[action], params))

    return server


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def run(args: argparse.Namespace) -> int:
    # stdout is the MCP channel: logging must go to stderr only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    backend = Backend(args.db, getattr(args, "socket", None))
    try:
        build_server(backend).run("stdio")
    finally:
        backend.close()
    return 0
