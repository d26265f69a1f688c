#!/usr/bin/env python3
"""Stand-in for an OpenAI-compatible Chat Completions API, for opencode trials.

Usage: python3 fake_openai.py <port|0> <logdir> <projdir>
Prints the bound port on stdout. Logs each request to LOG_DIR/NNN-<kind>.json
(<kind> = main | util) with the body and the reply that was sent.

Script for the main conversation (a request that offers tools), decided from
the tail of `messages`:
  last message is the user's prompt  -> tool call bash
                                        {"command": "echo hello > out.txt && cat out.txt"}
  last tool result came from bash    -> tool call write  {filePath: <proj>/notes.txt, content}
  last tool result came from write   -> tool call edit   {filePath, oldString, newString}
  otherwise (edit result, ...)       -> text "done"
If the prompt contains "just say done" the reply is the text "done" at once.
If it contains "[script:read]" the first call is read {filePath: <proj>/README.md}.
Utility requests (no tools: title generation, ...) get the text "Fake title".
"""

import itertools
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 0
LOG_DIR = sys.argv[2] if len(sys.argv) > 2 else "srvlog"
PROJ = sys.argv[3] if len(sys.argv) > 3 else "/tmp/opencode-trial/proj"
os.makedirs(LOG_DIR, exist_ok=True)
counter = itertools.count(1)
lock = threading.Lock()


def _text(content):
    if isinstance(content, str):
        return content
    out = []
    for p in content or []:
        if isinstance(p, dict) and p.get("type") == "text":
            out.append(p.get("text", ""))
    return "\n".join(out)


def decide(body):
    """Return ("text", str) or ("tool", name, args)."""
    msgs = body.get("messages") or []
    if not body.get("tools"):
        return ("text", "Fake title")
    names = {t.get("function", {}).get("name") for t in body["tools"]}
    last = msgs[-1] if msgs else {}
    target = os.path.join(PROJ, "notes.txt")
    if last.get("role") == "user":
        t = _text(last.get("content"))
        if "just say done" in t:
            return ("text", "done")
        if "[script:read]" in t and "read" in names:
            return ("tool", "read", {"filePath": os.path.join(PROJ, "README.md")})
        return (
            "tool",
            "bash",
            {
                "command": "echo hello > out.txt && cat out.txt",
                "description": "Write hello to out.txt",
            },
        )
    if last.get("role") == "tool":
        # find which tool produced it
        tcid = last.get("tool_call_id")
        name = None
        for m in msgs:
            for tc in m.get("tool_calls") or []:
                if tc.get("id") == tcid:
                    name = tc["function"]["name"]
        if name == "bash" and "write" in names:
            return ("tool", "write", {"filePath": target, "content": "alpha line\nbeta line\n"})
        if name == "write" and "edit" in names:
            return (
                "tool",
                "edit",
                {"filePath": target, "oldString": "beta line", "newString": "gamma line"},
            )
        return ("text", "done")
    return ("text", "done")


def usage():
    return {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        sys.stderr.write("[fake] " + (fmt % a) + "\n")

    def _log(self, kind, body, reply):
        with lock:
            n = next(counter)
        rec = {
            "n": n,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "method": self.command,
            "path": self.path,
            "headers": {
                k: (v if k.lower() not in ("authorization", "x-api-key") else "<" + v + ">")
                for k, v in self.headers.items()
            },
            "body": body,
            "reply": reply,
        }
        with open(os.path.join(LOG_DIR, f"{n:03d}-{kind}.json"), "w") as f:
            json.dump(rec, f, indent=2)

    def _send_json(self, obj, code=200):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            rep = {
                "object": "list",
                "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}],
            }
            self._log("models", None, rep)
            return self._send_json(rep)
        self._log("get404", None, {"status": 404})
        self._send_json({"error": {"message": "not found"}}, 404)

    def do_POST(self):
        ln = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(ln) if ln else b""
        try:
            body = json.loads(raw) if raw else {}
        except Exception:
            body = {"_raw": raw.decode("utf-8", "replace")}
        if not self.path.split("?")[0].endswith("/chat/completions"):
            self._log("post404", body, {"status": 404})
            return self._send_json({"error": {"message": "unknown path"}}, 404)
        d = decide(body)
        kind = "main" if body.get("tools") else "util"
        model = body.get("model", "fake-model")
        cid = "chatcmpl-fake"
        created = int(time.time())
        if d[0] == "text":
            msg = {"role": "assistant", "content": d[1]}
            finish = "stop"
        else:
            callid = f"call_{int(time.time() * 1000) % 10**9}"
            msg = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": callid,
                        "type": "function",
                        "function": {"name": d[1], "arguments": json.dumps(d[2])},
                    }
                ],
            }
            finish = "tool_calls"
        self._log(kind, body, msg)
        if not body.get("stream"):
            return self._send_json(
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                    "usage": usage(),
                }
            )
        chunks = []
        base = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model}
        if d[0] == "text":
            chunks.append(
                {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": d[1]}}]}
            )
        else:
            tc = msg["tool_calls"][0]
            chunks.append(
                {
                    **base,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {
                                "role": "assistant",
                                "tool_calls": [
                                    {
                                        "index": 0,
                                        "id": tc["id"],
                                        "type": "function",
                                        "function": {
                                            "name": tc["function"]["name"],
                                            "arguments": tc["function"]["arguments"],
                                        },
                                    }
                                ],
                            },
                        }
                    ],
                }
            )
        chunks.append(
            {
                **base,
                "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                "usage": usage(),
            }
        )
        data = (
            b"".join(("data: " + json.dumps(c) + "\n\n").encode() for c in chunks)
            + b"data: [DONE]\n\n"
        )
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


srv = ThreadingHTTPServer(("127.0.0.1", PORT), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
