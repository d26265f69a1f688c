"""Gemini CLI's, Codex's and Copilot CLI's session lifecycle through `memdesk hook EVENT
--agent HOST`, fed the payloads and transcripts those CLIs really sent (tests/data/gemini-cli-
0.61.0/, codex-0.169.0/, copilot-cli-1.0.102/, captured offline against a stand-in model):
what the person said in one session is in the next one's briefing, as with Claude Code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from memdesk.api import hook_failures, hook_output, transcripts
from memdesk.api.client import Client

DATA = Path(__file__).resolve().parents[1] / "data"
SAID = "This repo uses pnpm only, never npm. label the axes with units, every plot."


@dataclass(frozen=True)
class Captured:
    folder: str
    prompt: str  # the host's name for the prompt event
    before_tool: str
    after_tool: tuple[str, ...]  # payload files of its after-tool event
    written: str  # a file one of its tool calls wrote
    transcript: str = "transcript-at-session-end.jsonl"
    # Copilot CLI names no transcript at SessionEnd: its log lies under ~/.copilot by session
    log_by_session: bool = False

    def load(self, name: str) -> dict:
        return json.loads((DATA / self.folder / name).read_text())


HOSTS = {
    "gemini-cli": Captured(
        "gemini-cli-0.61.0",
        "BeforeAgent",
        "BeforeTool",
        ("AfterTool.json", "AfterTool-2.json", "AfterTool-3.json"),
        "notes.txt",
    ),
    "codex": Captured(
        "codex-0.169.0",
        "UserPromptSubmit",
        "PreToolUse",
        ("PostToolUse.json", "PostToolUse-2.json"),
        "patched.txt",
    ),
    "copilot-cli": Captured(
        "copilot-cli-1.0.102/pascal",
        "UserPromptSubmit",
        "PreToolUse",
        ("PostToolUse.json", "PostToolUse-2.json", "PostToolUse-3.json"),
        "notes.txt",
        "session-events.jsonl",
        log_by_session=True,
    ),
}


@pytest.fixture(params=sorted(HOSTS))
def host(request, serve, db_path, sock_path, tmp_path):
    serve()
    agent, captured = request.param, HOSTS[request.param]
    home = tmp_path / "home"
    env = {**os.environ, "MEMDESK_SOCKET": sock_path, "HOME": str(home)}
    env.pop("MEMDESK_AGENT", None)
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    session = captured.load("SessionEnd.json")["session_id"]
    transcript = (
        home / ".copilot" / "session-state" / session / "events.jsonl"
        if captured.log_by_session
        else tmp_path / "session.jsonl"
    )
    transcript.parent.mkdir(parents=True, exist_ok=True)
    original = (DATA / captured.folder / captured.transcript).read_text()
    transcript.write_text(original.replace("please run the shell check", f"{SAID} Run the check."))

    def payload(name: str, **fields) -> dict:
        where = {} if captured.log_by_session else {"transcript_path": str(transcript)}
        return {**captured.load(name), "cwd": str(repo), **where, **fields}

    def start(event: str, *flags: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "memdesk", "hook", event, "--agent", agent]
            + ["--db", str(db_path), *flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )

    def run(event: str, sent: dict, *flags: str) -> dict | None:
        process = start(event, *flags)
        out, err = process.communicate(json.dumps(sent), timeout=60)
        assert (process.returncode, err) == (0, "")
        return json.loads(out) if out.strip() else None

    run.agent, run.captured = agent, captured  # type: ignore[attr-defined]
    run.payload, run.start = payload, start  # type: ignore[attr-defined]
    run.transcript = transcript  # type: ignore[attr-defined]
    return run


def test_a_session_is_briefed_observed_and_its_words_reach_the_next(host, sock_path, db_path):
    captured = host.captured
    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        memdesk.set_identity("Name: Ada. Backend engineer.")
        memdesk.add("Checkout totals are computed in pricing/totals.py", kind="observation")

    started = host("SessionStart", host.payload("SessionStart.json"))
    assert "Name: Ada" in _context(host.agent, started, "SessionStart")
    question = host.payload(f"{captured.prompt}.json", prompt="where are checkout totals?")
    asked = host(captured.prompt, question)
    assert "pricing/totals.py" in _context(host.agent, asked, captured.prompt)
    for name in captured.after_tool:
        event = host.payload(name)["hook_event_name"]
        assert host(event, host.payload(name)) is None

    # Gemini CLI fires SessionEnd three times at once when the person quits: one end.
    end = host.payload("SessionEnd.json")
    ends = [host.start("SessionEnd") for _ in range(3)]
    for process in ends:
        _, err = process.communicate(json.dumps(end), timeout=60)
        assert (process.returncode, err) == (0, "")
    assert hook_failures.recent(db_path) == []

    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        [session] = [s for s in memdesk.call("injections") if s["session"] == end["session_id"]]
        assert session["agent"] == host.agent
        [archived] = memdesk.list(layers=["L2"])
        assert captured.written in archived["content"]  # what its tools did

    later = host("SessionStart", host.payload("SessionStart.json", session_id="next"))
    assert "pnpm only, never npm" in _context(host.agent, later, "SessionStart")
    # what was only proposed is put to the person where the host shows them such a line
    told = later.get("systemMessage", "")
    assert ("Label the axes" in told) == (host.agent in hook_output.TELLS_THE_PERSON)
    assert "axes" not in _context(host.agent, later, "SessionStart")


def _context(agent: str, output: dict, event: str) -> str:
    """The context a hook gave, in the one shape its host reads."""
    if agent == "copilot-cli":
        return output["additionalContext"]
    assert output["hookSpecificOutput"]["hookEventName"] == event
    return output["hookSpecificOutput"]["additionalContext"]


def test_a_rule_a_call_breaks_is_refused_in_the_hosts_own_shape(host, sock_path):
    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        memdesk.add(SAID, kind="preference", project="shop")
    host("SessionStart", host.payload("SessionStart.json"))
    before = host.captured.before_tool
    call = host.payload(f"{before}.json", tool_input={"command": "npm install"})
    reminded = host(before, call)
    refused = host(before, call, "--deny-forbidden")
    if host.agent == "gemini-cli":
        assert reminded is None  # BeforeTool cannot carry a reminder
        assert refused["decision"] == "deny"
        assert "pnpm only, never npm" in refused["reason"]
    elif host.agent == "copilot-cli":
        assert reminded is None
        assert refused["permissionDecision"] == "deny"  # top level: the only shape it reads
        assert "pnpm only, never npm" in refused["permissionDecisionReason"]
    else:
        assert "pnpm only, never npm" in reminded["hookSpecificOutput"]["additionalContext"]
        assert refused["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("captured", sorted(HOSTS.values(), key=lambda c: c.folder))
def test_what_hooks_added_to_the_turn_is_never_read_as_the_persons_words(captured):
    messages = transcripts.read(DATA / captured.folder / captured.transcript).messages
    assert messages == [
        {"role": "user", "content": "please run the shell check"},  # no MARKER-… context
        {"role": "assistant", "content": "done"},
    ]


def test_a_session_start_and_its_first_prompt_at_once_both_answer(host, db_path):
    """Copilot CLI runs SessionStart and UserPromptSubmit side by side: neither may fail
    for the other having started the session first."""
    prompt = host.payload(f"{host.captured.prompt}.json", session_id="race", prompt="hello")
    start = host.payload("SessionStart.json", session_id="race")
    running = [(host.start("SessionStart"), start), (host.start(host.captured.prompt), prompt)]
    for process, sent in running:
        _, err = process.communicate(json.dumps(sent), timeout=60)
        assert (process.returncode, err) == (0, "")
    assert hook_failures.recent(db_path) == []


def test_a_session_log_still_being_written_at_its_end_is_read_again(host, sock_path, db_path):
    """The live Copilot CLI trial: 1 session end in 11 found the log without its messages
    yet ("no user or assistant messages found")."""
    import threading

    if not host.captured.log_by_session:
        pytest.skip("only Copilot CLI reads its log by session id at SessionEnd")
    end = host.payload("SessionEnd.json")
    whole = host.transcript.read_text()
    host.transcript.write_text(whole.splitlines()[0] + "\n")  # the session's first line only
    later = threading.Timer(0.15, lambda: host.transcript.write_text(whole))
    later.start()
    host("SessionStart", host.payload("SessionStart.json"))
    assert host("SessionEnd", end) is None
    later.join()
    assert hook_failures.recent(db_path) == []
