"""Cursor's session lifecycle through `memdesk hook EVENT --agent cursor`. Cursor cannot be
installed here (no npm or PyPI package holds its CLI), so the payloads follow its hooks
reference (cursor.com/docs/agent/hooks) and the hook runner in Cursor's own SDK (PyPI
`cursor-sdk` 1.1.0): `conversation_id`, `workspace_roots`, `additional_context` back."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from memdesk.api.client import Client

FIRST, NEXT = "c0ffee00-1111-4222-8333-444455556666", "c0ffee00-2222-4222-8333-444455556666"


def _hook(event: str, payload: dict, env: dict, db_path, *options: str) -> dict:
    common = {
        "conversation_id": env["CONVERSATION"],
        "generation_id": "g-1",
        "hook_event_name": event,
        "cursor_version": "3.20.17",
        "workspace_roots": [env["WORKSPACE"]],
        "user_email": None,
        "transcript_path": None,
    }
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "hook", event, "--agent", "cursor", "--db", str(db_path)]
        + list(options),
        input=json.dumps({**common, **payload}),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stderr == ""
    return json.loads(done.stdout) if done.stdout.strip() else {}


def test_a_rule_said_in_one_conversation_reaches_the_next(serve, db_path, sock_path, tmp_path):
    serve()
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    env = {**os.environ, "MEMDESK_SOCKET": sock_path, "WORKSPACE": str(repo)}
    env["CONVERSATION"] = FIRST
    transcript = tmp_path / "conversation.jsonl"
    transcript.write_text(
        json.dumps({"role": "user", "message": {"content": [{"type": "text", "text": "hi"}]}})
        + "\n"
        + json.dumps({"role": "user", "content": "This repo uses pnpm only, never npm."})
        + "\n"
    )
    first = _hook("sessionStart", {"session_id": FIRST}, env, db_path)
    assert "(None stored yet.)" in first["additional_context"]  # asked to save, nothing else
    assert "pnpm" not in first["additional_context"]
    _hook("postToolUse", {"tool_name": "Shell", "tool_input": {"command": "ls"}}, env, db_path)
    ended = {"reason": "completed", "transcript_path": str(transcript)}
    assert _hook("sessionEnd", ended, env, db_path) == {}

    env["CONVERSATION"] = NEXT
    started = _hook("sessionStart", {"session_id": NEXT}, env, db_path)
    asked = _hook("beforeSubmitPrompt", {"prompt": "install a markdown parser"}, env, db_path)
    refused = _hook(
        "preToolUse",
        {"tool_name": "Shell", "tool_input": {"command": "npm install marked"}},
        env,
        db_path,
        "--deny-forbidden",
    )
    assert "pnpm only" in started["additional_context"]
    assert set(asked) <= {"additional_context"}
    assert refused["permission"] == "deny"
    assert "pnpm" in refused["agent_message"]
    with Client(socket_path=sock_path, agent="cli", role="user") as person:
        hits = person.call("memory.search", query="pnpm", k=5)["hits"]
    assert [h["content"] for h in hits if h["layer"] == "L1"] == [
        "This repo uses pnpm only, never npm"
    ]
