"""Copy a trimmed selection of the trial's captures into OUT (the tests/data folder)."""

import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

T = "/tmp/opencode-trial"
R = T + "/runs"
OUT = T + "/out/opencode-1.18.33"
LIMIT = 1500  # strings longer than this are cut


def cut(v):
    if isinstance(v, str):
        if len(v) > LIMIT:
            return v[:700] + f"\n…[TRUNCATED {len(v) - 1000} chars for the fixture]…\n" + v[-300:]
        return v
    if isinstance(v, list):
        return [cut(x) for x in v]
    if isinstance(v, dict):
        return {k: cut(x) for k, x in v.items()}
    return v


def dump(obj, path, trim=True):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(cut(obj) if trim else obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


def read(p):
    with open(p) as f:
        return f.read()


def load(p):
    with open(p) as f:
        return json.load(f)


def nkey(fn):
    m = re.match(r"(.*?)(?:-(\d+))?\.json$", fn)
    return m.group(1), int(m.group(2) or 1)


def select(cap):
    """Pick representative payload files from a capture dir."""
    files = sorted(
        [f for f in os.listdir(cap) if f.endswith(".json")], key=lambda f: (nkey(f)[0], nkey(f)[1])
    )
    keep, seen = [], set()
    for fn in files:
        if not fn.endswith(".json"):
            continue
        base, n = nkey(fn)
        d = load(os.path.join(cap, fn))
        if base.startswith("event."):
            p = d.get("properties") or {}
            if base == "event.message.part.updated":
                part = p.get("part", {})
                sig = (
                    base,
                    part.get("type"),
                    (part.get("state") or {}).get("status"),
                    part.get("synthetic"),
                )
            elif base == "event.message.updated":
                info = p.get("info", {})
                sig = (
                    base,
                    info.get("role"),
                    info.get("finish"),
                    "completed" in (info.get("time") or {}),
                )
            elif base == "event.session.status":
                sig = (base, p.get("status", {}).get("type"))
            else:
                sig = (base,)
        elif base in ("hook.chat.params", "hook.chat.headers"):
            sig = (base, d["input"].get("agent"))
        elif base == "hook.experimental.chat.system.transform":
            sig = (base, d["output"]["system"][0][:30])
        elif base in ("hook.tool.execute.before", "hook.tool.execute.after", "hook.shell.env"):
            sig = (base, n)  # keep all
        elif base == "hook.tool.definition":
            sig = (base,) if d["input"]["toolID"] == "bash" else ("skip",)
            if sig == ("skip",):
                continue
        elif base.startswith("sdk.session.messages"):
            sig = (base, "last")
            keep = [k for k in keep if not k.startswith("sdk.session.messages")]
            keep.append(fn)
            continue
        else:
            sig = (base,)
        if sig in seen:
            continue
        seen.add(sig)
        keep.append(fn)
    return keep


def write_log(cap, dest, kept, logname="log.jsonl", tail=None):
    """log.jsonl: every plugin call in order; "file" only where that file was kept."""
    rows = [json.loads(x) for x in read(os.path.join(cap, "log.jsonl")).splitlines()]
    if tail:
        rows = rows[-tail:]
    with open(os.path.join(dest, logname), "w") as f:
        for r in rows:
            fn = r.pop("file", None)
            if fn in kept:
                r["file"] = fn
            f.write(json.dumps(r) + "\n")


def copy_run(run, dest, extra=(), only=None):
    cap = f"{R}/{run}/cap"
    os.makedirs(dest, exist_ok=True)
    files = list(only) if only is not None else select(cap)
    files += [x for x in extra if os.path.exists(os.path.join(cap, x)) and x not in files]
    for fn in files:
        dump(load(os.path.join(cap, fn)), os.path.join(dest, fn))
    write_log(cap, dest, set(files))


def req(run, n, dest):
    src = glob.glob(f"{R}/{run}/srv/{n:03d}-*.json")[0]
    r = load(src)
    body = r["body"]
    for t in body.get("tools") or []:
        fn = t.get("function", {})
        fn["description"] = (fn.get("description") or "")[:160] + (
            "…[truncated]" if len(fn.get("description") or "") > 160 else ""
        )
        fn["parameters"] = "…[parameters schema removed for the fixture]…"
    dump(r, dest)


def text(src, dest, maxlines=60):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(src, errors="replace") as f:
        lines = f.read().splitlines()
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", x) for x in lines]
    if len(lines) > maxlines:
        lines = lines[:maxlines] + [f"…[{len(lines) - maxlines} more lines cut]"]
    with open(dest, "w") as f:
        f.write("\n".join(lines) + "\n")


os.makedirs(OUT, exist_ok=True)
for entry in os.listdir(OUT):  # rebuild everything but the hand-written README.md
    if entry != "README.md":
        path = os.path.join(OUT, entry)
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)

# 1. non-interactive baseline and variants
copy_run("base", f"{OUT}/run", extra=["sdk.session.get.json"])
text(f"{R}/base/stderr", f"{OUT}/run/stderr.txt")
text(f"{R}/base/stdout", f"{OUT}/run/stdout.txt")
copy_run("continue", f"{OUT}/continue", only=["hook.chat.message.json", "plugin.init.json"])
deny_err = [
    f
    for f in os.listdir(f"{R}/deny/cap")
    if f.startswith("event.message.part.updated")
    and load(f"{R}/deny/cap/{f}")["properties"]["part"].get("state", {}).get("status") == "error"
]
copy_run(
    "deny",
    f"{OUT}/deny",
    only=[
        "hook.tool.execute.before.json",
        "hook.tool.execute.before-2.json",
        "sdk.session.messages.json",
    ]
    + deny_err,
)
text(f"{R}/deny/stderr", f"{OUT}/deny/stderr.txt")
text(f"{R}/deny/proj-files.txt", f"{OUT}/deny/proj-files.txt")
copy_run(
    "tui",
    f"{OUT}/interactive",
    extra=[
        "event.session.created-2.json",
        "hook.chat.message-2.json",
        "hook.chat.message-3.json",
        "hook.experimental.session.compacting.json",
        "event.session.compacted.json",
        "event.session.deleted.json",
        "hook.dispose.json",
    ],
)
for d in glob.glob(f"{OUT}/interactive/hook.tool.definition*"):
    os.remove(d)
copy_run(
    "tui-ask",
    f"{OUT}/interactive-permission",
    only=[
        "event.permission.asked.json",
        "event.permission.replied.json",
        "hook.tool.execute.before.json",
    ],
)
copy_run("session-delete", f"{OUT}/session-delete-cli", only=["event.session.deleted.json"])
copy_run(
    "run-ask",
    f"{OUT}/run-permission-ask",
    only=["event.permission.asked.json", "event.permission.replied.json"],
)
text(f"{R}/run-ask/stderr", f"{OUT}/run-permission-ask/stderr.txt")

# 2. fail-open matrix
fo = f"{OUT}/fail-open"
os.makedirs(fo)
summary = []
for run in [
    "throw-init",
    "throw-chat.message",
    "throw-experimental.chat.messages.transform",
    "throw-experimental.chat.system.transform",
    "throw-chat.params",
    "throw-tool.execute.before",
    "throw-tool.execute.after",
    "throw-shell.env",
    "throw-event",
    "missing-cmd",
    "chat-part-without-id",
    "slow-chat",
    "idle-work",
    "idle-work-slow-dispose",
]:
    d = f"{R}/{run}"
    rows = [json.loads(x) for x in read(f"{d}/cap/log.jsonl").splitlines()]
    summary.append(
        {
            "run": run,
            "CAPTURE_MODE": None,
            "exit_code": int(read(f"{d}/rc")),
            "elapsed_s": round(float(read(f"{d}/elapsed").split()[1]), 2),
            "model_requests": len(os.listdir(f"{d}/srv")),
            "project_files_after": read(f"{d}/proj-files.txt").strip().splitlines(),
            "plugin_calls_recorded": len(rows),
            "last_plugin_calls": [r["name"] for r in rows[-3:]],
        }
    )
    text(f"{d}/stderr", f"{fo}/{run}.stderr.txt", 40)
modes = {
    "throw-init": "throw-init",
    "missing-cmd": "missing-cmd",
    "chat-part-without-id": "noid",
    "slow-chat": "slow:chat.message",
    "idle-work": "idle-work",
    "idle-work-slow-dispose": "idle-work,slow:dispose",
}
for s in summary:
    s["CAPTURE_MODE"] = modes.get(s["run"], "throw:" + s["run"][len("throw-") :])
dump(summary, f"{fo}/summary.json")
dump(
    load(f"{R}/throw-chat.params/cap/event.session.error.json"),
    f"{fo}/throw-chat.params.event.session.error.json",
)
dump(load(f"{R}/missing-cmd/cap/plugin.init.json"), f"{fo}/missing-cmd.plugin.init.json")
for run in ("idle-work-slow-dispose", "idle-work"):
    write_log(f"{R}/{run}/cap", fo, set(), logname=f"{run}.log-tail.jsonl", tail=12)

# 3. model requests (bodies), tool schemas removed, long strings cut
mr = f"{OUT}/model-requests"
req("base", 1, f"{mr}/run/001-util-title.json")
req("base", 2, f"{mr}/run/002-main.json")
req("base", 5, f"{mr}/run/005-main.json")
req("continue", 1, f"{mr}/continue/001-main.json")
req("deny", 3, f"{mr}/deny/003-main.json")
req("tui", 1, f"{mr}/interactive/001-util-title.json")
req("tui", 6, f"{mr}/interactive/006-main-2nd-prompt.json")
req("tui", 7, f"{mr}/interactive/007-util-compaction.json")
req("tui", 9, f"{mr}/interactive/009-main-after-new.json")
req("loadpaths", 2, f"{mr}/load-paths/002-main.json")
req("throw-tool.execute.after", 5, f"{mr}/throw-tool.execute.after/005-main.json")

# 4. transcript
tr = f"{OUT}/transcript"
os.makedirs(tr)
dump(load(f"{R}/export/stdout"), f"{tr}/opencode-export.json")
db = sqlite3.connect(f"file:{T}/home/.local/share/opencode/opencode.db?mode=ro", uri=True)
with open(f"{tr}/db-schema.sql", "w") as f:
    tables = "('session','message','part','project','event','session_message','todo')"
    q = f"select sql from sqlite_master where type='table' and name in {tables} order by name"
    for (sql,) in db.execute(q):
        f.write(sql.strip() + ";\n\n")
sid = load(f"{R}/tui/cap/event.session.created-2.json")["properties"]["sessionID"]
rows = {"session_id": sid, "note": "rows of the interactive run's 2nd session, data column parsed"}
cols = [r[1] for r in db.execute("pragma table_info(session)")]
rows["session"] = dict(
    zip(cols, db.execute("select * from session where id=?", (sid,)).fetchone(), strict=True)
)
rows["message"] = [
    {"id": a, "session_id": b, "time_created": c, "time_updated": d, "data": json.loads(e)}
    for a, b, c, d, e in db.execute("select * from message where session_id=? order by id", (sid,))
]
rows["part"] = [
    {
        "id": a,
        "message_id": b,
        "session_id": c,
        "time_created": d,
        "time_updated": e,
        "data": json.loads(g),
    }
    for a, b, c, d, e, g in db.execute("select * from part where session_id=? order by id", (sid,))
]
dump(rows, f"{tr}/db-rows-interactive-session2.json")

# 5. load paths
lp = f"{OUT}/load-paths"
os.makedirs(lp)
for fn in glob.glob(f"{R}/loadpaths/cap/probe.*.json"):
    shutil.copy(fn, lp)
cfg = load(f"{R}/loadpaths/cap/hook.config.json")["input"]
dump(
    {"plugin": cfg["plugin"], "plugin_origins": cfg["plugin_origins"]},
    f"{lp}/config-plugin-origins.json",
)

# 6. startup / dependency install
st = f"{OUT}/startup"
os.makedirs(st)
for run in (
    "fresh-install",
    "fresh-noregistry",
    "installed-noregistry",
    "fresh-noregistry-stubbed",
    "fresh-noregistry-again-1",
    "fresh-noregistry-again-2",
    "base",
):
    d = load(f"{R}/{run}/cap/plugin.init.json")
    dump(
        {
            k: d[k]
            for k in (
                "processUptimeAtModuleEvalMs",
                "processUptimeAtInitMs",
                "msSinceRunStart",
                "msSinceModuleEval",
                "bunShell",
                "childProcess",
            )
        },
        f"{st}/{run}.init-timing.json",
    )
text(f"{R}/fresh-noregistry/stderr", f"{st}/fresh-noregistry.log.txt", 14)

# 7. TUI screens (tmux capture-pane), trailing blanks stripped
for run, dest in (("tui", "interactive"), ("tui-ask", "interactive-permission")):
    os.makedirs(f"{OUT}/{dest}/screens", exist_ok=True)
    for fn in sorted(glob.glob(f"{R}/{run}/screens/*.txt")):
        lines = [x.rstrip() for x in read(fn).splitlines()]
        lines = [x for x in lines if x.strip()]
        with open(f"{OUT}/{dest}/screens/" + os.path.basename(fn), "w") as f:
            f.write("\n".join(lines) + "\n")

# 8. harness
hd = f"{OUT}/harness"
os.makedirs(hd, exist_ok=True)
for fn in (
    "fake_openai.py",
    "capture.js",
    "probe.js",
    "markers.py",
    "opencode.json",
    "run.sh",
    "tui.sh",
    "tui-scripts.sh",
    "fresh-runs.sh",
    "all-runs.sh",
):
    shutil.copy(f"{T}/harness/{fn}", f"{hd}/{fn}")
shutil.copy(f"{T}/assemble.py", f"{hd}/assemble.py")

# 9. where each marker arrived, from the untrimmed request logs
with open(f"{mr}/markers.txt", "w") as f:
    for run, label in (
        ("base", "run"),
        ("continue", "continue"),
        ("deny", "deny"),
        ("tui", "interactive"),
        ("loadpaths", "load-paths"),
        ("throw-tool.execute.after", "throw-tool.execute.after"),
    ):
        out = subprocess.run(
            [sys.executable, f"{T}/harness/markers.py", f"{R}/{run}/srv"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        f.write(f"##### {label}  (runs/{run}/srv, untrimmed)\n{out}\n")
