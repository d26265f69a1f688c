"""Fixtures for the socket API: an in-process server on the Qt loop, and `memdesk serve`.

The client blocks, so with an in-process server it runs on a worker thread while the test
thread keeps the Qt loop turning (`pump`).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from memdesk.api.client import Client
from memdesk.api.connection import Limits
from memdesk.api.server import SocketServer

TEST_LIMITS = Limits(idle_timeout_s=0.3)


@pytest.fixture
def sock_dir() -> Iterator[Path]:
    # Unix socket paths are short (108 bytes); pytest's tmp_path can be longer than that.
    path = Path(tempfile.mkdtemp(prefix="md-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def sock_path(sock_dir) -> str:
    return str(sock_dir / "s.sock")


@pytest.fixture
def server(qtbot, service, sock_path) -> Iterator[SocketServer]:
    srv = SocketServer(service, sock_path, limits=TEST_LIMITS)
    srv.listen()
    yield srv
    srv.close()
    qtbot.wait(10)  # let deleteLater run


class Pump:
    """Runs blocking calls on worker threads while the Qt loop serves them."""

    def __init__(self, qtbot) -> None:
        self.qtbot = qtbot
        self.pool = ThreadPoolExecutor(max_workers=32)

    def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        future = self.pool.submit(fn, *args, **kwargs)
        self.qtbot.waitUntil(future.done, timeout=20_000)
        return future.result()


@pytest.fixture
def pump(qtbot) -> Iterator[Pump]:
    p = Pump(qtbot)
    yield p
    p.pool.shutdown(wait=True)


@pytest.fixture
def client(server, pump) -> Iterator[Client]:
    c = pump.run(lambda: Client(socket_path=server.socket_path, agent="tester", timeout=10))
    yield c
    c.close()


class Raw:
    """A bare socket to the server, for bytes the client would never send."""

    def __init__(self, path: str, pump: Pump | None = None) -> None:
        self.pump = pump
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        if self.pump and len(data) > 65536:  # may block until the server reads
            self.pump.run(self.sock.sendall, data)
        else:
            self.sock.sendall(data)

    def line(self) -> bytes:
        """The next line from the server, or b"" once it closed the connection."""
        return self.pump.run(self._line) if self.pump else self._line()

    def _line(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return b""
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw(server, pump) -> Iterator[Callable[[], Raw]]:
    opened: list[Raw] = []

    def connect() -> Raw:
        peer = Raw(server.socket_path, pump)
        opened.append(peer)
        return peer

    yield connect
    for peer in opened:
        peer.close()


# -- `memdesk serve` as a subprocess -----------------------------------------------------------

SERVE = (
    "import argparse, sys; from pathlib import Path; from memdesk.api import serve; "
    "sys.exit(serve.run(argparse.Namespace(db=Path(sys.argv[1]), socket=sys.argv[2])))"
)


def serve_command(db: Path, sock: str) -> list[str]:
    """`memdesk serve` once the CLI wires it; until then the same run() through python -c."""
    cli = Path(__file__).parents[2] / "app" / "memdesk" / "cli.py"
    if cli.exists() and "serve" in cli.read_text():
        return [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock]
    return [sys.executable, "-c", SERVE, str(db), sock]


class ServeProcess:
    def __init__(
        self, db: Path, sock: str, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> None:
        self.sock = sock
        self.proc = subprocess.Popen(
            serve_command(db, sock),
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MEMDESK_IDLE_TIMEOUT": "0.3", **(env or {})},
        )
        self.first_line = self.proc.stdout.readline().strip()

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, out, err


@pytest.fixture
def serve(db_path, sock_path) -> Iterator[Callable[..., ServeProcess]]:
    started: list[ServeProcess] = []

    def start(db: Path = db_path, sock: str = sock_path, **kw: Any) -> ServeProcess:
        process = ServeProcess(db, sock, **kw)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()
