#!/usr/bin/env python3
"""Stand-in for the Gemini API (generativelanguage v1beta) for gemini-cli trials.

Logs every request to LOG_DIR/NNN-<kind>.json and answers with a scripted
sequence: shell call -> write_file -> replace -> text "done".
"""

import itertools
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 0
LOG_DIR = sys.argv[2] if len(sys.argv) > 2 else "srvlog"
PROJ = sys.argv[3] if len(sys.argv) > 3 else "/tmp/gemini-trial/proj"
os.makedirs(LOG_DIR, exist_ok=True)
counter = itertools.count(1)
lock = threading.Lock()


def usage():
    return {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}


def resp_parts(parts, model):
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": usage(),
        "modelVersion": model,
    }


def next_parts(body):
    """Decide what the model says, from the last content of the request."""
    tools = body.get("tools") or []
    contents = body.get("contents") or []
    gc = body.get("generationConfig") or {}
    schema = gc.get("responseJsonSchema") or gc.get("responseSchema")
    if schema and not tools:
        # JSON utility call (e.g. the model router's complexity classifier)
        obj = {}
        for k, v in (schema.get("properties") or {}).items():
            t = str(v.get("type", "STRING")).upper()
            obj[k] = (
                10
                if t in ("INTEGER", "NUMBER")
                else (
                    False
                    if t == "BOOLEAN"
                    else ([] if t == "ARRAY" else ({} if t == "OBJECT" else "simple"))
                )
            )
        return [{"text": json.dumps(obj)}]
    if not tools:
        # utility call (summaries, classifiers, ...)
        txt = json.dumps(body)[:4000]
        if "state_snapshot" in txt:
            return [{"text": "<state_snapshot>MARKER-COMPRESSED-SUMMARY</state_snapshot>"}]
        if "model_choice" in txt or "reasoning" in txt and "flash" in txt:
            return [{"text": json.dumps({"reasoning": "simple", "model_choice": "flash"})}]
        return [{"text": "ok"}]
    last = contents[-1] if contents else {}
    fr = [p["functionResponse"]["name"] for p in last.get("parts", []) if "functionResponse" in p]
    target = os.path.join(PROJ, "notes.txt")
    if not fr:
        user_text = " ".join(p.get("text", "") for p in last.get("parts", []))
        if "just say done" in user_text:
            return [{"text": "done"}]
        return [
            {
                "functionCall": {
                    "name": "run_shell_command",
                    "args": {
                        "command": "echo hello > out.txt && cat out.txt",
                        "description": "write hello to out.txt and show it",
                    },
                }
            }
        ]
    name = fr[-1]
    if name == "run_shell_command":
        return [
            {
                "functionCall": {
                    "name": "write_file",
                    "args": {"file_path": target, "content": "alpha line\nbeta line\n"},
                }
            }
        ]
    if name == "write_file":
        return [
            {
                "functionCall": {
                    "name": "replace",
                    "args": {
                        "file_path": target,
                        "old_string": "beta line",
                        "new_string": "gamma line",
                        "instruction": "replace beta with gamma",
                        "allow_multiple": False,
                    },
                }
            }
        ]
    return [{"text": "done"}]


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        sys.stderr.write("[fake] " + (fmt % a) + "\n")

    def _log(self, body_raw, reply):
        with lock:
            n = next(counter)
        kind = self.path.split("?")[0].rsplit("/", 1)[-1].replace(":", "_")
        try:
            body = json.loads(body_raw) if body_raw else None
        except Exception:
            body = body_raw.decode("utf-8", "replace")
        rec = {
            "n": n,
            "method": self.command,
            "path": self.path,
            "headers": {
                k: (v if k.lower() not in ("x-goog-api-key", "authorization") else "<" + v + ">")
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
        self._log(b"", {"status": 404})
        self._send_json(
            {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}}, 404
        )

    def do_POST(self):
        ln = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(ln) if ln else b""
        path = self.path.split("?")[0]
        model = path.rsplit("/", 1)[-1].split(":")[0]
        body = json.loads(raw) if raw else {}
        if path.endswith(":countTokens"):
            rep = {"totalTokens": 100}
            self._log(raw, rep)
            return self._send_json(rep)
        if path.endswith(":embedContent") or path.endswith(":batchEmbedContents"):
            rep = {"embedding": {"values": [0.0] * 8}}
            self._log(raw, rep)
            return self._send_json(rep)
        if path.endswith(":generateContent"):
            rep = resp_parts(next_parts(body), model)
            self._log(raw, rep)
            return self._send_json(rep)
        if path.endswith(":streamGenerateContent"):
            rep = resp_parts(next_parts(body), model)
            self._log(raw, rep)
            data = ("data: " + json.dumps(rep) + "\r\n\r\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._log(raw, {"status": 404})
        self._send_json({"error": {"code": 404, "message": "unknown", "status": "NOT_FOUND"}}, 404)


srv = ThreadingHTTPServer(("127.0.0.1", PORT), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
