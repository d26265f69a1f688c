"""Gemini CLI's session lifecycle through `memdesk hook EVENT --agent gemini-cli`, fed the
payloads and the transcript Gemini CLI 0.61.0 really sent (tests/data/gemini-cli-0.61.0/,
captured offline against a stand-in model): what the person said in one session is in the
next one's briefing, as with Claude Code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.api import hook_failures
from memdesk.api.client import Client

CAPTURED = Path(__file__).resolve().parents[1] / "data" / "gemini-cli-0.61.0"
SAID = "This repo uses pnpm only, never npm."


@pytest.fixture
def gemini(serve, db_path, sock_path, tmp_path):
    serve()
    env = {**os.environ, "MEMDESK_SOCKET": sock_path}
    env.pop("MEMDESK_AGENT", None)
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    transcript = tmp_path / "session.jsonl"
    original = (CAPTURED / "transcript-at-session-end.jsonl").read_text()
    transcript.write_text(original.replace("please run the shell check", f"{SAID} Run the check."))

    def payload(name: str, **fields) -> dict:
        sent = json.loads((CAPTURED / name).read_text())
        return {**sent, "cwd": str(repo), "transcript_path": str(transcript), **fields}

    def start(event: str, *flags: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "memdesk", "hook", event, "--agent", "gemini-cli"]
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

    run.payload, run.start = payload, start  # type: ignore[attr-defined]
    return run


def test_a_gemini_session_is_briefed_observed_and_its_words_reach_the_next(
    gemini, sock_path, db_path
):
    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        memdesk.set_identity("Name: Ada. Backend engineer.")
        memdesk.add("Checkout totals are computed in pricing/totals.py", kind="observation")

    started = gemini("SessionStart", gemini.payload("SessionStart.json"))
    assert started["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Name: Ada" in started["hookSpecificOutput"]["additionalContext"]
    asked = gemini(
        "BeforeAgent", gemini.payload("BeforeAgent.json", prompt="where are checkout totals?")
    )
    assert asked["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert "pricing/totals.py" in asked["hookSpecificOutput"]["additionalContext"]
    for name in ("AfterTool.json", "AfterTool-2.json", "AfterTool-3.json"):
        assert gemini("AfterTool", gemini.payload(name)) is None

    # Gemini CLI fires SessionEnd three times at once when the person quits: one end.
    end = gemini.payload("SessionEnd.json")
    ends = [gemini.start("SessionEnd") for _ in range(3)]
    for process in ends:
        _, err = process.communicate(json.dumps(end), timeout=60)
        assert (process.returncode, err) == (0, "")
    assert hook_failures.recent(db_path) == []

    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        [session] = [s for s in memdesk.call("injections") if s["session"] == end["session_id"]]
        assert session["agent"] == "gemini-cli"
        archived = memdesk.list(layers=["L2"])
        assert len(archived) == 1
        assert "notes.txt" in archived[0]["content"]  # what its tools did

    later = gemini("SessionStart", gemini.payload("SessionStart.json", session_id="next"))
    assert "pnpm only, never npm" in later["hookSpecificOutput"]["additionalContext"]


def test_what_hooks_added_to_the_turn_is_never_read_as_the_persons_words():
    from memdesk.api import transcripts

    messages, session = transcripts.read(CAPTURED / "transcript-at-session-end.jsonl")
    assert session == "49a38aad-e502-4438-9322-4f098e1e1a8b"
    assert messages == [
        {"role": "user", "content": "please run the shell check"},  # no MARKER-… context
        {"role": "assistant", "content": "done"},
    ]


def test_a_refusal_is_gemini_clis_own_shape(gemini, sock_path):
    with Client(socket_path=sock_path, agent="setup", role="user") as memdesk:
        memdesk.add(SAID, kind="preference", project="shop")
    gemini("SessionStart", gemini.payload("SessionStart.json"))
    call = gemini.payload("BeforeTool.json", tool_input={"command": "npm install"})
    assert gemini("BeforeTool", call) is None  # a reminder cannot ride on BeforeTool
    refused = gemini("BeforeTool", call, "--deny-forbidden")
    assert refused["decision"] == "deny"
    assert "pnpm only, never npm" in refused["reason"]
