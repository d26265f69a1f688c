"""memdesk's opencode plugin (api/hosts/opencode.js) driven as opencode drives it, by Node in
place of opencode's Bun, with the payload shapes captured from opencode 1.18.33
(tests/data/opencode-1.18.33/): a rule said in one session reaches the next one's model as a
hidden part of its first message, a forbidden tool call is refused with the rule's words, and
nothing memdesk does can fail the person's prompt."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from memdesk.api import opencode_plugin
from memdesk.api.client import Client

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node to run the plugin")

# One opencode process: the plugin is made once, then its hooks are called as opencode does.
DRIVER = """
const [plugin, options, steps] = JSON.parse(process.argv[2]);
const said = {};  // sessionID -> the messages of that session, as client.session.messages gives
const client = { session: { messages: async ({ path }) => ({ data: said[path.id] || [] }) } };
const { memdesk } = await import(plugin);
const hooks = await memdesk({ client, directory: process.cwd(), worktree: process.cwd() }, options);
const out = [];
for (const [kind, sessionID, text] of steps) {
  try {
    if (kind === "prompt") {
      const message = { id: "msg_1", sessionID, role: "user" };
      const output = { message, parts: [{ id: "prt_0001", type: "text", text }] };
      await hooks["chat.message"]({ sessionID }, output);
      (said[sessionID] ||= []).push({ info: { role: "user" }, parts: output.parts });
      out.push(output.parts.slice(1).map((p) => p.text).join("\\n"));
    } else if (kind === "bash") {
      await hooks["tool.execute.before"]({ tool: "bash", sessionID }, { args: { command: text } });
      out.push("ran");
    } else if (kind === "write") {
      const args = { filePath: text, content: "x" };
      await hooks["tool.execute.after"]({ tool: "write", sessionID, args }, { output: "Wrote" });
      out.push("observed");
    } else if (kind === "idle") {
      await hooks.event({ event: { type: "session.idle", properties: { sessionID } } });
      out.push("ended");
    }
  } catch (error) {
    out.push(`refused: ${error.message}`);
  }
}
await hooks.dispose();
console.log(JSON.stringify(out));
"""


def _opencode(tmp_path: Path, options: dict, steps: list) -> list[str]:
    script = tmp_path / "driver.mjs"
    script.write_text(DRIVER)
    done = subprocess.run(
        ["node", str(script), json.dumps([opencode_plugin.PLUGIN.as_uri(), options, steps])],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def _memdesk() -> list[str]:
    script = Path(sys.executable).with_name("memdesk")
    return [str(script)] if script.exists() else [sys.executable, "-m", "memdesk"]


def test_what_the_user_said_reaches_the_next_sessions_model(serve, db_path, sock_path, tmp_path):
    serve()
    os.environ["MEMDESK_SOCKET"] = sock_path
    try:
        options = {"command": _memdesk(), "db": str(db_path)}
        first = _opencode(
            tmp_path,
            options,
            [
                ["prompt", "ses_1", '"For the record, this repo is pnpm only, never npm."'],
                ["write", "ses_1", str(tmp_path / "notes.md")],
                ["idle", "ses_1", ""],
            ],
        )
        assert first[-1] == "ended"
        second = _opencode(tmp_path, options, [["prompt", "ses_2", "Add a markdown parser."]])
    finally:
        del os.environ["MEMDESK_SOCKET"]
    assert "pnpm only" in second[0]  # the briefing, as a hidden part after the prompt
    with Client(socket_path=sock_path, agent="cli", role="user") as person:
        hits = person.call("memory.search", query="pnpm", k=5)["hits"]
    kept = [h["content"] for h in hits if h["layer"] == "L1"]  # beside the session's summary
    assert kept == ["This repo is pnpm only, never npm"]
    with closing(sqlite3.connect(db_path)) as db:  # the write, by its file (opencode's filePath)
        assert db.execute("SELECT kind, path FROM observation WHERE kind = 'write'").fetchall() == [
            ("write", str(tmp_path / "notes.md"))
        ]


def test_a_forbidden_call_is_refused_with_the_rule_and_nothing_fails_a_prompt(
    serve, db_path, sock_path, tmp_path
):
    serve()
    with Client(socket_path=sock_path, agent="cli", role="user") as person:
        person.call("memory.add", content="Never run npm in this repo: it is pnpm only.")
    os.environ["MEMDESK_SOCKET"] = sock_path
    try:
        options = {"command": _memdesk(), "db": str(db_path), "deny": True}
        told = _opencode(tmp_path, options, [["bash", "ses_3", "npm install marked"]])
        gone = {"command": ["/nonexistent/memdesk"], "db": str(db_path), "deny": True}
        failing = _opencode(
            tmp_path, gone, [["prompt", "ses_4", "hello"], ["bash", "ses_4", "npm install"]]
        )
    finally:
        del os.environ["MEMDESK_SOCKET"]
    assert told[0].startswith("refused: ")
    assert "pnpm only" in told[0]
    assert failing == ["", "ran"]  # no memdesk: the prompt and the tool go on, unchanged
