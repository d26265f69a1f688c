"""A bare JSON-RPC line client and a `memdesk serve` launcher for the crash and load benches.

Deliberately independent of memdesk's own client: these benches check the server from the
outside, as any agent would see it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from memdesk.api import naming


def as_installed(env: dict[str, str]) -> dict[str, str]:
    """`env` for processes timed as a person's machine runs them: with bytecode caches (pip
    writes them at install; a PYTHONDONTWRITEBYTECODE=1 shell would time compiling every
    module from source on every hook, ~25 ms here), warmed by one import first."""
    env = {key: value for key, value in env.items() if key != "PYTHONDONTWRITEBYTECODE"}
    warm = "import memdesk.api.hooks, memdesk.api.headless, memdesk.cli"
    subprocess.run([sys.executable, "-c", warm], env=env, check=True)
    return env


class RpcFailure(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", ""))
        self.code = error.get("code")


class Raw:
    def __init__(self, path: str, agent: str, timeout: float = 30.0, role: str = "agent") -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.next_id = 0
        # role "user": a bench filling the store stands in for the person (no write budget)
        key = naming.read_role_key(path) if role in naming.PRIVILEGED_ROLES else None
        self.call("system.hello", agent=agent, role=role, **({"key": key} if key else {}))

    def call(self, method: str, **params: Any) -> Any:
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError("the server closed the connection")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:  # skip notifications
                break
        if "error" in reply:
            raise RpcFailure(reply["error"])
        return reply["result"]

    def close(self) -> None:
        self.file.close()
        self.sock.close()


class Server:
    """`memdesk serve` on `db`, started and waited for (its first line). Its log goes to a
    file beside the socket: a pipe nobody reads would fill and stall the server."""

    def __init__(self, db: Path, sock: str) -> None:
        self.log = Path(sock).with_suffix(".log")
        started = time.perf_counter()
        with self.log.open("a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        line = self.proc.stdout.readline().strip()
        self.start_s = time.perf_counter() - started
        if not line.startswith("listening on"):
            self.kill()
            raise RuntimeError(f"serve did not start: {line!r} {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.communicate()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.communicate(timeout=30)
