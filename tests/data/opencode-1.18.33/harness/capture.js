// Capture plugin for the opencode trial (a server plugin, loaded from .opencode/plugin/).
//
// Writes every plugin hook call and every bus event it sees to $CAPTURE_DIR:
//   log.jsonl                      one line per call, in order: {seq, t, kind, name}
//   hook.<name>[-N].json           {input, output} of the N-th call of hook <name>
//                                  (output as it was BEFORE this plugin changed it)
//   event.<type>[-N].json          the N-th bus event of that type ({id, type, properties})
//   init.json                      PluginInput (minus client/$), timings of $ and child_process
// and injects markers: MARKER-SYSTEM-TRANSFORM (system prompt), MARKER-CHAT-MESSAGE (extra
// text part on the user message), MARKER-MESSAGES-TRANSFORM (per-request message rewrite),
// MARKER-TOOL-AFTER (appended to tool output), MARKER-SHELL-OUT (stdout of an external command).
//
// CAPTURE_MODE (env, comma list) switches extra behaviour:
//   deny          tool.execute.before throws Error("MARKER-DENIED ...") for the bash tool
//   throw-init    the plugin function itself throws (plugin fails to load)
//   throw-hooks   chat.message, system.transform and tool.execute.after throw after recording
//   throw:<hook>  that one hook (or "event") throws after recording
//   slow:<hook>   that one hook waits 3 s before returning
//   missing-cmd   the external command is a program that does not exist
//   no-inject     record only, change nothing
//   noid          the part added in chat.message has no "id"
//   idle-work     on session.idle, wait 2 s, then write idle-work-done.json (is it cut off at exit?)
//   slow:dispose  dispose waits 3 s, then writes dispose-slow-done.json
import fs from "node:fs"
import path from "node:path"
import { execFileSync } from "node:child_process"

const T0 = Date.now()
const UPTIME_AT_EVAL_MS = Math.round(process.uptime() * 1000)
const CAP = process.env.CAPTURE_DIR || path.join(process.env.HOME || "/tmp", "captured")
const MODE = new Set((process.env.CAPTURE_MODE || "").split(",").filter(Boolean))
fs.mkdirSync(CAP, { recursive: true })

let seq = 0
const counts = {}

function safe(v) {
  const seen = new WeakSet()
  return JSON.parse(
    JSON.stringify(v, (k, x) => {
      if (typeof x === "function") return "[function]"
      if (typeof x === "bigint") return String(x)
      if (x && typeof x === "object") {
        if (seen.has(x)) return "[circular]"
        seen.add(x)
      }
      return x
    }) ?? "null",
  )
}

function record(kind, name, data) {
  seq += 1
  counts[`${kind}.${name}`] = (counts[`${kind}.${name}`] || 0) + 1
  const n = counts[`${kind}.${name}`]
  const file = `${kind}.${name}${n > 1 ? "-" + n : ""}.json`
  try {
    fs.writeFileSync(path.join(CAP, file), JSON.stringify(safe(data), null, 2))
  } catch (e) {
    fs.writeFileSync(path.join(CAP, file), JSON.stringify({ unserializable: String(e) }))
  }
  fs.appendFileSync(
    path.join(CAP, "log.jsonl"),
    JSON.stringify({ seq, t: new Date().toISOString(), kind, name, file }) + "\n",
  )
}

function shellOut(cmd, args) {
  // node:child_process works inside opencode's Bun runtime
  const t = Date.now()
  try {
    const out = execFileSync(cmd, args, { encoding: "utf8", timeout: 5000, input: "{}" })
    return { ok: true, stdout: out, ms: Date.now() - t }
  } catch (e) {
    return { ok: false, error: String(e && e.message), code: e && e.code, ms: Date.now() - t }
  }
}

export const MemCapture = async (input, options) => {
  const tInit = Date.now()
  if (MODE.has("throw-init")) {
    record("plugin", "throw-init", { at: new Date().toISOString() })
    throw new Error("MARKER-INIT-THROW")
  }
  const { client, $, ...rest } = input
  // Bun's $ shell
  let bunShell
  const tb = Date.now()
  try {
    // an external program (not a Bun-shell builtin), JSON payload on stdin
    const cmd = MODE.has("missing-cmd") ? "memdesk-does-not-exist" : "sh"
    const payload = Buffer.from(JSON.stringify({ hook: "session-start" }))
    const r = await $`${cmd} -c ${"cat >/dev/null; echo MARKER-SHELL-OUT"} < ${payload}`.quiet().nothrow()
    bunShell = { exitCode: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }
  } catch (e) {
    bunShell = { threw: String(e && e.message) }
  }
  bunShell.ms = Date.now() - tb
  const child = MODE.has("missing-cmd")
    ? shellOut("memdesk-does-not-exist", ["hook"])
    : shellOut("sh", ["-c", "cat >/dev/null; echo MARKER-SHELL-OUT"])
  record("plugin", "init", {
    input: rest,
    inputKeys: Object.keys(input),
    hasClient: !!client,
    hasBunShell: typeof $ === "function",
    options: options ?? null,
    isBun: typeof Bun !== "undefined",
    bunVersion: typeof Bun !== "undefined" ? Bun.version : null,
    pid: process.pid,
    cwd: process.cwd(),
    argv: process.argv,
    env_names: Object.keys(process.env).sort(),
    msSinceModuleEval: tInit - T0,
    processUptimeAtModuleEvalMs: UPTIME_AT_EVAL_MS,
    processUptimeAtInitMs: Math.round(process.uptime() * 1000),
    msSinceRunStart: process.env.RUN_T0_MS ? Date.now() - Number(process.env.RUN_T0_MS) : null,
    selected_env: Object.fromEntries(
      ["OPENCODE", "AGENT", "OPENCODE_PID", "OPENCODE_CLIENT", "OPENCODE_SERVER_PASSWORD"].map((k) => [
        k,
        k.includes("PASSWORD") ? (process.env[k] ? "<set>" : null) : (process.env[k] ?? null),
      ]),
    ),
    bunShell,
    childProcess: child,
  })
  const shellText = (child.ok ? child.stdout : "").trim()

  const hook = (name, fn) => async (inp, out) => {
    record("hook", name, { input: inp, output: out })
    if (MODE.has("slow:" + name)) await new Promise((r) => setTimeout(r, 3000))
    if (MODE.has("throw:" + name)) throw new Error(`MARKER-HOOK-THROW in ${name}`)
    if (fn && !MODE.has("no-inject")) await fn(inp, out)
  }
  const boom = (name) => {
    if (MODE.has("throw-hooks")) throw new Error(`MARKER-HOOK-THROW in ${name}`)
  }

  return {
    event: async ({ event }) => {
      record("event", event.type, event)
      if (MODE.has("throw:event")) throw new Error(`MARKER-HOOK-THROW in event ${event.type}`)
      if (event.type === "session.idle" && MODE.has("idle-work")) {
        const t = Date.now()
        setTimeout(() => record("plugin", "idle-work-done", { startedAt: t, doneAt: Date.now() }), 2000)
      }
      if (event.type === "session.idle" && client) {
        // transcript through the SDK client (in-process server)
        try {
          const id = event.properties.sessionID
          const msgs = await client.session.messages({ path: { id } })
          record("sdk", "session.messages", { sessionID: id, data: msgs.data, error: msgs.error ?? null })
          const info = await client.session.get({ path: { id } })
          record("sdk", "session.get", { data: info.data, error: info.error ?? null })
        } catch (e) {
          record("sdk", "error", { error: String(e && e.stack) })
        }
      }
    },
    config: hook("config"),
    "chat.message": hook("chat.message", async (inp, out) => {
      boom("chat.message")
      const p0 = out.parts[0] || {}
      out.parts.push({
        ...(p0.id && !MODE.has("noid") ? { id: p0.id.replace(/.$/, (c) => (c === "z" ? "y" : "z")) } : {}),
        sessionID: out.message.sessionID,
        messageID: out.message.id,
        type: "text",
        synthetic: true,
        text: "<memdesk>MARKER-CHAT-MESSAGE " + shellText + "</memdesk>",
      })
    }),
    "chat.params": hook("chat.params"),
    "chat.headers": hook("chat.headers", async (inp, out) => {
      out.headers["x-memdesk-marker"] = "MARKER-HEADER"
    }),
    "permission.ask": hook("permission.ask"),
    "command.execute.before": hook("command.execute.before"),
    "tool.execute.before": hook("tool.execute.before", async (inp, out) => {
      if (MODE.has("deny") && inp.tool === "bash") {
        throw new Error("MARKER-DENIED by memdesk: bash is blocked in this trial")
      }
    }),
    "shell.env": hook("shell.env", async (inp, out) => {
      out.env.MEMDESK_MARK = "MARKER-SHELL-ENV"
    }),
    "tool.execute.after": hook("tool.execute.after", async (inp, out) => {
      boom("tool.execute.after")
      out.output = out.output + "\n<memdesk>MARKER-TOOL-AFTER</memdesk>"
    }),
    "experimental.chat.messages.transform": hook("experimental.chat.messages.transform", async (inp, out) => {
      const lastUser = [...out.messages].reverse().find((m) => m.info.role === "user")
      const p0 = lastUser && lastUser.parts[0]
      if (p0) {
        lastUser.parts.push({ ...p0, id: p0.id + "x", type: "text", synthetic: true, text: "MARKER-MESSAGES-TRANSFORM" })
      }
    }),
    "experimental.chat.system.transform": hook("experimental.chat.system.transform", async (inp, out) => {
      boom("experimental.chat.system.transform")
      out.system.push("<memdesk>MARKER-SYSTEM-TRANSFORM</memdesk>")
    }),
    "experimental.session.compacting": hook("experimental.session.compacting", async (inp, out) => {
      out.context.push("MARKER-COMPACTING")
    }),
    "experimental.compaction.autocontinue": hook("experimental.compaction.autocontinue"),
    "experimental.text.complete": hook("experimental.text.complete"),
    "tool.definition": hook("tool.definition"),
    dispose: async () => {
      record("hook", "dispose", { at: new Date().toISOString() })
      if (MODE.has("slow:dispose")) {
        await new Promise((r) => setTimeout(r, 3000))
        record("plugin", "dispose-slow-done", { at: new Date().toISOString() })
      }
    },
  }
}
