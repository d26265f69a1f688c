"""`memdesk hook <event>`: Claude Code's hook protocol (JSON on stdin) onto the session
methods.

SessionStart and UserPromptSubmit print `hookSpecificOutput.additionalContext` for Claude Code
to inject; PreToolUse gives the standing rules about the call it precedes (and, when the person
chose `--deny-forbidden`, has Claude Code refuse a call one of their rules forbids, with the
rule's words); PostToolUse / PostToolUseFailure observe the tool call; PreCompact and SessionEnd
end the session with the transcript at `transcript_path`. Fail-open: whatever goes wrong
(memdesk not running, a bad payload, a timeout) the hook prints nothing and exits 0, so the
agent is never blocked; the reason goes to stderr, which Claude Code shows in its debug log.
Standard library and the Qt-free client only: it runs on every prompt.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from memdesk import paths
from memdesk.api import (
    hook_failures,
    hook_input,
    hook_output,
    naming,
    projects,
    sent,
    transcripts,
    workspace,
)
from memdesk.api.client import Client, MemdeskError, ServerUnavailable

AGENT_ENV = "MEMDESK_AGENT"
# The agent host's own hook: what it sends at session end is the host's transcript, not the
# agent's say-so (an agent's transcript is proposed, never stored as the user's words).
HOOK_ROLE = "hook"
BRIEFING_ENV = "MEMDESK_BRIEFING_CHARS"  # the session-start briefing's size; 0 turns it off
TELL_ENV = "MEMDESK_TELL_WAITING"  # 0: no line to the person about what waits in the Inbox
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "fish", "ksh", "cmd.exe", "powershell"})
EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "SessionEnd",
)
# Other hosts' own names for the same moments (each host's hooks reference, checked against
# the real CLI: tests/data/gemini-cli-0.61.0/): memdesk's step is named by Claude Code's
# event. Gemini CLI cannot add context before a tool call (BeforeTool may only deny), so its
# rules reach it in the briefing, or as a refusal; its PreCompress fires before every model
# turn and its transcript is whole at SessionEnd, so it is not hooked.
HOST_EVENTS = {
    "claude-code": {event: event for event in EVENTS},
    # Codex speaks Claude Code's protocol (tests/data/codex-0.169.0/); it has no failed-tool
    # event, and cuts SessionEnd hooks at 3 s (PreCompact has caught a long session earlier).
    "codex": {event: event for event in EVENTS if event != "PostToolUseFailure"},
    # Copilot CLI, registered by Claude Code's (PascalCase) names, sends snake_case payloads
    # (tests/data/copilot-cli-1.0.102/); it takes context only as a top-level
    # additionalContext, cannot take it before a tool call, and compacts without a word.
    "copilot-cli": {event: event for event in EVENTS if event != "PreCompact"},
    # opencode runs memdesk's plugin (api/hosts/opencode.js), which speaks Claude Code's
    # protocol; it can refuse a tool call but not remind before one, and never compacts aloud.
    "opencode": {
        event: event
        for event in ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SessionEnd")
    },
    # Cursor, from its hooks reference and its own SDK's hook runner (it cannot be run here):
    # a session start and a tool's after-effects take context; a prompt's context is read by
    # Cursor 3.x (undocumented, ignored before); before a tool it can only refuse.
    "cursor": {
        "sessionStart": "SessionStart",
        "beforeSubmitPrompt": "UserPromptSubmit",
        "preToolUse": "PreToolUse",
        "postToolUse": "PostToolUse",
        "sessionEnd": "SessionEnd",
    },
    "gemini-cli": {
        "SessionStart": "SessionStart",
        "BeforeAgent": "UserPromptSubmit",
        "BeforeTool": "PreToolUse",
        "AfterTool": "PostToolUse",
        "SessionEnd": "SessionEnd",
    },
}
# hosts with no reminder before a tool
REFUSE_ONLY = frozenset({"gemini-cli", "copilot-cli", "opencode", "cursor"})
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
ALL_EVENTS = tuple(dict.fromkeys(e for events in HOST_EVENTS.values() for e in events))
AGENT_FLAG = "--agent"  # which host runs the hook: its protocol and the writes' author
# Seconds an event may take before the hook gives up (Claude Code waits for it).
# A tool's whole output can ride in PostToolUse's payload; past this the input is not read on.
MAX_STDIN_BYTES = 16 * 1024 * 1024
TIMEOUTS = {"SessionStart": 10.0, "UserPromptSubmit": 3.0, "PreCompact": 20.0, "SessionEnd": 20.0}
SOCKET_FLAG = "--socket"  # a socket the person chose: the host runs hooks without their env
DENY_FLAG = "--deny-forbidden"  # PreToolUse: refuse a call the person's own rule forbids
NESTED_TOO_DEEP = (
    "memdesk could not read this tool call (its input is nested too deeply), so it could not "
    "check it against the person's rules; they have chosen to refuse such calls"
)
STARTING_S = 15.0  # how long after a serve began starting a hook waits for it
TRANSCRIPT_TRIES = 3  # a session log still being written at SessionEnd is read again


def run(
    event: str,
    stdin: str | bytes,
    db: str | os.PathLike[str] | None = None,
    *,
    deny: bool = False,
    agent: str | None = None,
    socket: str | None = None,
) -> tuple[str, str]:
    """(stdout, stderr) of the hook for `event` given its stdin, as `agent`'s host speaks
    hooks (Claude Code's protocol by default); never raises. A failure is also noted beside
    the database, for the window and `memdesk doctor` to show: the agent carries on, and the
    person is not left to find out from a debug log."""
    agent = agent or os.environ.get(AGENT_ENV) or "claude-code"
    payload: dict[str, Any] = {}
    try:
        if len(stdin) > MAX_STDIN_BYTES:
            raise ValueError(f"the hook input is over {MAX_STDIN_BYTES:,} bytes; not read")
        try:
            payload = json.loads(stdin or "{}")
        except RecursionError:
            # no host nests a call this deep: under the person's "deny", a call memdesk
            # cannot check against their rules is refused, not let through unread
            step = HOST_EVENTS.get(agent, HOST_EVENTS["claude-code"]).get(event)
            if deny and step == "PreToolUse":
                return hook_output.before_tool({"deny": NESTED_TOO_DEEP}, deny, agent), ""
            raise ValueError("the hook input is nested too deeply to read") from None
        if not isinstance(payload, dict):
            raise ValueError("the hook input is not a JSON object")
        if agent == "cursor":
            payload = _from_cursor(payload)
        return _handle(event, payload, db, deny, agent, socket), ""
    except ServerUnavailable as exc:
        if event == "SessionEnd" and not _transcript_to_keep(payload):
            return "", ""  # e.g. a host's own `mcp list` run: no session, nothing to keep
        why = _after_failed_start(db, payload.get("session_id")) or str(exc)
    except (MemdeskError, OSError, ValueError, transcripts.TranscriptError) as exc:
        why = paths.describe(exc) if isinstance(exc, OSError) else str(exc)
    except Exception as exc:  # fail-open whatever happens: the agent must never be blocked
        why = f"{type(exc).__name__}: {exc}"[:500]
    session = payload.get("session_id") if isinstance(payload, dict) else None
    hook_failures.note(db, event, why, session if isinstance(session, str) else None)
    return "", f"memdesk hook {event}: {why}\n"


def _transcript_to_keep(payload: dict[str, Any]) -> bool:
    """The ending session said something to capture (a transcript with messages in it)."""
    path = payload.get("transcript_path")
    if not path:
        return False
    try:
        return bool(transcripts.read(str(path)).messages)
    except transcripts.TranscriptError:
        return False


def _after_failed_start(db: Any, session: Any) -> str | None:
    """Why memdesk is not running when this session's start could not start it: that
    failure's reason is the fix, not "start memdesk"."""
    starts = [
        f
        for f in hook_failures.recent(db)
        if f["event"] == "SessionStart" and f.get("session") == session
    ]
    last = starts[-1] if starts else None
    if last is None:
        return None
    return (
        f"memdesk is not running: the session start at {last['at']} could not start it "
        f"({last['why']})"
    )


def _handle(
    event: str, payload: dict[str, Any], db: Any, deny: bool, agent: str, socket: str | None
) -> str:
    steps = HOST_EVENTS.get(agent, HOST_EVENTS["claude-code"])
    step = steps.get(event)
    if step is None:
        raise ValueError(f"unknown event {event!r}; memdesk handles: {', '.join(steps)}")
    session = payload.get("session_id")
    if not isinstance(session, str) or not session:
        raise ValueError("the hook input has no session_id")
    if step == "PreToolUse" and agent in REFUSE_ONLY and not deny:
        return ""  # the host's before-tool hook can only refuse: a reminder reaches no one
    with _connect(step, db, agent, socket) as memdesk:
        if step == "SessionStart":
            started = _start(memdesk, payload)
            told = hook_output.told(started, agent) if os.environ.get(TELL_ENV) != "0" else None
            return hook_output.context(event, started["text"], agent, told=told)
        if step == "UserPromptSubmit":
            prompt = sent.prompt(payload.get("prompt") or "")
            try:
                found = memdesk.session_prompt(session, prompt)
            except MemdeskError as exc:
                if exc.type != "not_found":  # hooks installed mid-session: start it now
                    raise
                _start(memdesk, payload)
                found = memdesk.session_prompt(session, prompt)
            return hook_output.context(event, found["text"] if found["ids"] else "", agent)
        if step == "PreToolUse":
            found = _ensure(
                memdesk,
                payload,
                lambda: memdesk.session_action(
                    session,
                    str(payload.get("tool_name") or "unknown"),
                    sent.action(payload.get("tool_input")),
                ),
            )
            return hook_output.before_tool(found, deny, agent)
        if step in ("PostToolUse", "PostToolUseFailure"):
            result = payload.get("tool_response", payload.get("tool_result"))
            if step == "PostToolUseFailure":
                result = {"error": payload.get("error") or "failed", "is_error": True}
            _ensure(
                memdesk,
                payload,
                lambda: memdesk.observe(
                    session,
                    str(payload.get("tool_name") or "unknown"),
                    sent.tool_call(payload.get("tool_input")),
                    sent.tool_call(result),
                ),
            )
            return ""
        messages: list[dict[str, str]] = []
        unread = None
        path = payload.get("transcript_path") or _copilot_transcript(agent, session)
        for attempt in range(TRANSCRIPT_TRIES if path else 0):
            try:
                read = transcripts.read(str(path))
            except transcripts.TranscriptError as exc:
                unread = str(exc)  # the session still ends: its observations are summarised
                if attempt + 1 < TRANSCRIPT_TRIES:
                    time.sleep(0.2)  # Copilot CLI may still be writing its last lines
                continue
            unread = None
            if read.of(session, str(path)):
                messages = read.messages
            else:
                named = ", ".join(name[:40] for name in sorted(read.named)[:3])
                unread = f"it is the transcript of session {named}, not of {session[:40]}"
            break
        failed: MemdeskError | None = None
        for part in transcripts.parts(messages):
            try:
                _ensure(
                    memdesk,
                    payload,
                    lambda part=part: memdesk.session_end(session, transcript=part),
                )
            except ServerUnavailable:
                raise
            except MemdeskError as exc:  # the parts after it still count; the hook says so
                failed = failed or exc
        if failed is not None:
            raise failed
        if unread and os.path.lexists(str(path)):
            # (a session ended before its first prompt has no transcript file: Claude Code
            # writes it with the first message, so nothing was said and nothing failed)
            raise ValueError(f"the session ended without its transcript: {unread}")
        return ""


def _start(memdesk: Client, payload: dict[str, Any]) -> dict[str, Any]:
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    # The project the agent works in (its sessions see that project's memories and those of
    # no project); its host process, so a second live session in the folder is not "crashed".
    fields: dict[str, Any] = {
        "project": projects.project_of(cwd),
        "cwd": cwd,
        "host_pid": host_pid(),
        "signals": workspace.signals(cwd) or None,
    }
    if payload.get("source") == "resume":  # not "compact" nor "clear": their context is new
        fields["resumed"] = True
    briefing = os.environ.get(BRIEFING_ENV, "").strip()
    if briefing.isascii() and briefing.isdigit():
        fields["briefing_chars"] = int(briefing)
    return memdesk.session_start(
        payload["session_id"], **{k: v for k, v in fields.items() if v is not None}
    )


def host_pid() -> int | None:
    """The agent host that ran this hook: the parent process, or the shell's parent when the
    host ran the hook through a shell."""
    pid = os.getppid()
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            fields = stat.read().rsplit(")", 1)
        name = fields[0].split("(", 1)[1]
        parent = int(fields[1].split()[1])
    except (OSError, IndexError, ValueError):
        return pid if pid > 1 else None  # no /proc (macOS): the parent is the best guess
    return parent if name in _SHELLS and parent > 1 else pid


def _ensure(memdesk: Client, payload: dict[str, Any], call: Any) -> Any:
    """Run `call`; if memdesk does not know the session yet (hooks installed mid-session,
    or a new database), start it and run `call` again."""
    try:
        return call()
    except MemdeskError as exc:
        if exc.type != "not_found" or "session" not in exc.message:
            raise
        _start(memdesk, payload)
        return call()


# Cursor's tool names, as Claude Code's (the rules and observations speak those).
_CURSOR_TOOLS = {"Shell": "Bash", "Write": "Write", "Edit": "Edit", "Delete": "Delete"}


def _from_cursor(payload: dict[str, Any]) -> dict[str, Any]:
    """Cursor's hook input in Claude Code's field names: its conversation is the session, its
    first workspace root the folder (its `cwd` is often empty)."""
    roots = payload.get("workspace_roots")
    cwd = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    tool = payload.get("tool_name")
    return {
        **payload,
        "session_id": payload.get("session_id") or payload.get("conversation_id"),
        "cwd": cwd or payload.get("cwd"),
        "tool_name": _CURSOR_TOOLS.get(tool, tool) if isinstance(tool, str) else tool,
        "tool_response": payload.get("tool_output"),
    }


def _copilot_transcript(agent: str, session: str) -> str | None:
    """Copilot CLI's SessionEnd names no transcript; its session log is kept by session id."""
    if agent != "copilot-cli" or not _SAFE_ID.fullmatch(session):
        return None
    log = Path.home() / ".copilot" / "session-state" / session / "events.jsonl"
    return str(log) if log.is_file() else None


class _connect:
    """A client for the hook's one exchange. SessionStart starts `memdesk serve` when
    nothing owns the database (the session is long; the start is ~0.5 s); the events on
    every prompt and tool call never wait for a start."""

    def __init__(self, event: str, db: Any, agent: str, socket: str | None) -> None:
        self.event = event
        self.db_path = paths.resolve_db_path(db)
        self.socket = socket or naming.socket_path(self.db_path)
        self.timeout = TIMEOUTS.get(event, 2.0)
        self.agent = agent

    def __enter__(self) -> Client:
        if self.event != "SessionStart":
            self.client = self._client_once_started()
            return self.client
        from memdesk.api import headless  # subprocess: only this event may start serve

        try:
            self.client = headless.connect_starting_serve(
                self.db_path,
                self.socket,
                self.agent,
                timeout=self.timeout,
                wait_s=self.timeout,
                role=HOOK_ROLE,
            )
        except headless.StartFailed as exc:
            raise ValueError(str(exc)) from None
        return self.client

    def _client_once_started(self) -> Client:
        """A client; when a session start is starting memdesk right now (Copilot CLI runs the
        first prompt's hook beside it), waited for, never started from here."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return Client(
                    socket_path=self.socket, agent=self.agent, timeout=self.timeout, role=HOOK_ROLE
                )
            except ServerUnavailable:
                if not _starting(self.socket) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        self.client.close()


def _starting(socket: str) -> bool:
    """A `memdesk serve` began starting for this socket in the last few seconds (its log is
    made as it starts)."""
    try:
        return time.time() - os.stat(socket + ".log").st_mtime < STARTING_S
    except OSError:
        return False


def main(argv: list[str]) -> int:
    """`memdesk hook EVENT [--db PATH] [--socket PATH] [--deny-forbidden]` without the full
    CLI: the fast path. Options may stand before or after the event, `--db PATH` or
    `--db=PATH`."""
    event, db, deny, unknown, agent, socket = parse_args(argv)
    if unknown:
        sys.stderr.write(
            f"memdesk hook: unknown option {unknown!r}; options: --db PATH, {SOCKET_FLAG} "
            f"PATH, {AGENT_FLAG} HOST, {DENY_FLAG}\n"
        )
        return 0  # fail-open: a hook never blocks the agent
    stdin = hook_input.read_input(sys.stdin.fileno(), MAX_STDIN_BYTES)
    out, err = run(event, stdin, db, deny=deny, agent=agent, socket=socket)
    # UTF-8 bytes, as every host reads them: written as text, a pipe in cp1252 (Windows, an
    # old locale) failed on an agent's "→", and every session after it started unbriefed
    with contextlib.suppress(OSError, ValueError):
        if out:
            sys.stdout.flush()
            sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape") + b"\n")
            sys.stdout.buffer.flush()
        if err:
            sys.stderr.buffer.write(err.encode("utf-8", "surrogateescape"))
            sys.stderr.buffer.flush()
    return 0


def parse_args(
    argv: list[str],
) -> tuple[str, str | None, bool, str | None, str | None, str | None]:
    """(event, database, deny, the first unknown option, agent, socket) of `memdesk hook`'s
    arguments."""
    event, deny = "", False
    values: dict[str, str | None] = dict.fromkeys(("--db", AGENT_FLAG, SOCKET_FLAG))
    words = iter(argv)
    for word in words:
        name, equals, value = word.partition("=")
        if word in values:
            values[word] = next(words, None)
        elif equals and name in values:
            values[name] = value
        elif word == DENY_FLAG:
            deny = True
        elif word.startswith("-"):
            return event, values["--db"], deny, word, values[AGENT_FLAG], values[SOCKET_FLAG]
        elif not event:
            event = word
    return event, values["--db"], deny, None, values[AGENT_FLAG], values[SOCKET_FLAG]
