// memdesk's session lifecycle for opencode: the briefing and each prompt's memories before the
// model, a tool call one of the person's rules forbids refused (when the person chose that),
// tool calls observed, and what the user said read at the end of each session.
//
// opencode loads this file from the "plugin" list of opencode.json, where `memdesk attach
// opencode` puts it with its options: the memdesk command, database and socket. Each step runs
// `memdesk hook <Event> --agent opencode`, which speaks Claude Code's hook protocol (JSON on
// stdin, JSON out). What opencode does with a plugin, as measured with the real CLI:
// tests/data/opencode-1.18.33/README.md. Every hook here fails open: a throw in chat.message
// would fail the person's prompt, so nothing but a refusal leaves this file.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TIMEOUT_MS = 15000; // a hung memdesk must not hang the session (opencode has no limit)
const TOOLS = { bash: "Bash", edit: "Edit", write: "Write", multiedit: "MultiEdit" };
// opencode's argument names, as Claude Code's hook payloads name them
const ARGS = { filePath: "file_path", oldString: "old_string", newString: "new_string" };

function toolInput(args) {
  const named = {};
  for (const [key, value] of Object.entries(args || {})) named[ARGS[key] || key] = value;
  return named;
}

// `opencode run "…"` hands the prompt over in quotes; the person did not type them
function unquoted(text) {
  return /^".*"$/s.test(text) ? text.slice(1, -1) : text;
}

export const memdesk = async ({ client, directory, worktree }, options = {}) => {
  const command = Array.isArray(options.command) ? options.command : ["memdesk"];
  const where = [
    ...(options.db ? ["--db", options.db] : []),
    ...(options.socket ? ["--socket", options.socket] : []),
  ];
  const cwd = worktree && worktree !== "/" ? worktree : directory;
  const briefed = new Set(); // sessions of this process given the briefing
  const ended = new Map(); // session -> the count of messages read at its last end

  function hook(event, fields, extra = []) {
    try {
      const done = spawnSync(
        command[0],
        [...command.slice(1), "hook", event, "--agent", "opencode", ...where, ...extra],
        {
          input: JSON.stringify({ hook_event_name: event, cwd, ...fields }),
          timeout: TIMEOUT_MS,
          encoding: "utf8",
        },
      );
      if (done.status !== 0 || !done.stdout || !done.stdout.trim()) return {};
      return JSON.parse(done.stdout).hookSpecificOutput || {};
    } catch {
      return {};
    }
  }

  async function end(sessionID) {
    try {
      const answer = await client.session.messages({ path: { id: sessionID } });
      const said = [];
      for (const { info, parts } of answer.data || []) {
        const text = (parts || [])
          .filter((p) => p.type === "text" && !p.synthetic && p.text)
          .map((p) => p.text)
          .join("\n");
        if (text && (info.role === "user" || info.role === "assistant")) {
          said.push({ role: info.role, content: info.role === "user" ? unquoted(text) : text });
        }
      }
      if (said.length === 0 || ended.get(sessionID) === said.length) return;
      ended.set(sessionID, said.length);
      const folder = mkdtempSync(join(tmpdir(), "memdesk-opencode-"));
      try {
        const transcript = join(folder, "transcript.json");
        writeFileSync(transcript, JSON.stringify(said));
        hook("SessionEnd", { session_id: sessionID, transcript_path: transcript, reason: "other" });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    } catch {
      // the next end of this session reads it again
    }
  }

  return {
    "chat.message": async (input, output) => {
      try {
        const sessionID = input.sessionID;
        const given = [];
        if (!briefed.has(sessionID)) {
          briefed.add(sessionID);
          const start = hook("SessionStart", { session_id: sessionID, source: "startup" });
          if (start.additionalContext) given.push(start.additionalContext);
        }
        const prompt = unquoted(
          (output.parts || [])
            .filter((p) => p.type === "text" && !p.synthetic)
            .map((p) => p.text)
            .join("\n"),
        );
        const asked = hook("UserPromptSubmit", { session_id: sessionID, prompt });
        if (asked.additionalContext) given.push(asked.additionalContext);
        if (given.length === 0) return;
        const last = output.parts[output.parts.length - 1];
        output.parts.push({
          // opencode requires a part id starting "prt" and orders parts by id: after the prompt
          id: last && last.id ? `${last.id.slice(0, -1)}z` : `prt_memdesk${Date.now()}`,
          sessionID: output.message.sessionID,
          messageID: output.message.id,
          type: "text",
          synthetic: true,
          text: given.join("\n\n"),
        });
      } catch {
        // the prompt goes on without memdesk
      }
    },
    "tool.execute.before": async (input, output) => {
      if (!options.deny || !TOOLS[input.tool]) return; // opencode cannot carry a reminder here
      const told = hook(
        "PreToolUse",
        {
          session_id: input.sessionID,
          tool_name: TOOLS[input.tool],
          tool_input: toolInput(output.args),
        },
        ["--deny-forbidden"],
      );
      if (told.permissionDecision === "deny") {
        throw new Error(told.permissionDecisionReason || "memdesk: one of the person's rules");
      }
    },
    "tool.execute.after": async (input, output) => {
      try {
        hook("PostToolUse", {
          session_id: input.sessionID,
          tool_name: TOOLS[input.tool] || input.tool,
          tool_input: toolInput(input.args),
          tool_response: String((output && output.output) || "").slice(0, 4000),
        });
      } catch {
        // observing is never worth a failed tool
      }
    },
    event: async ({ event }) => {
      if (event.type === "session.idle" || event.type === "session.deleted") {
        const sessionID = event.properties.sessionID || (event.properties.info || {}).id;
        if (sessionID && briefed.has(sessionID)) await end(sessionID);
      }
    },
    dispose: async () => {
      for (const sessionID of briefed) await end(sessionID);
    },
  };
};
