#!/usr/bin/env python3
"""Hook capture script for the gemini-cli trial.

Usage (from settings.json): python3 /tmp/gemini-trial/capture.py <EVENT>
Saves stdin to $CAPTURE_DIR/<EVENT>-<n>.json, plus <EVENT>-<n>.meta.json with
argv and environment variable NAMES (no values). Prints the scripted reply.
"""

import json
import os
import shutil
import sys

CAP = os.environ.get("CAPTURE_DIR") or os.path.join(os.path.expanduser("~"), "captured")
os.makedirs(CAP, exist_ok=True)
event = sys.argv[1] if len(sys.argv) > 1 else "UNKNOWN"
raw = sys.stdin.read()

n = 1
while True:
    path = os.path.join(CAP, f"{event}-{n}.json")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        break
    except FileExistsError:
        n += 1
with os.fdopen(fd, "w") as f:
    f.write(raw)

meta = {
    "argv": sys.argv,
    "cwd": os.getcwd(),
    "env_names": sorted(os.environ.keys()),
    "selected_env": {
        k: os.environ.get(k)
        for k in (
            "GEMINI_PROJECT_DIR",
            "GEMINI_CWD",
            "CLAUDE_PROJECT_DIR",
            "GEMINI_SESSION_ID",
            "GEMINI_PLANS_DIR",
        )
        if k in os.environ
    },
}
with open(os.path.join(CAP, f"{event}-{n}.meta.json"), "w") as f:
    json.dump(meta, f, indent=2)

try:
    data = json.loads(raw) if raw.strip() else {}
except Exception:
    data = {}

if event == "SessionEnd":
    tp = data.get("transcript_path")
    if tp and os.path.exists(tp):
        ext = os.path.splitext(tp)[1] or ".txt"
        shutil.copyfile(tp, os.path.join(CAP, f"transcript-at-session-end-{n}{ext}"))
    else:
        with open(os.path.join(CAP, f"transcript-at-session-end-{n}.missing"), "w") as f:
            f.write(repr(tp))

out = {}
if event == "SessionStart":
    out = {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "MARKER-SESSION-START",
        }
    }
elif event == "BeforeAgent":
    out = {
        "hookSpecificOutput": {
            "hookEventName": "BeforeAgent",
            "additionalContext": "MARKER-BEFORE-AGENT",
        }
    }
elif event == "AfterTool":
    out = {
        "hookSpecificOutput": {
            "hookEventName": "AfterTool",
            "additionalContext": "MARKER-AFTER-TOOL",
        }
    }
elif (
    event == "BeforeTool"
    and os.path.exists(os.path.join(CAP, "..", "DENY_SHELL"))
    and data.get("tool_name") == "run_shell_command"
):
    out = {"decision": "deny", "reason": "MARKER-DENIED"}
print(json.dumps(out))
