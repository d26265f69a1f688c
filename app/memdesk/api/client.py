"""A small client for agent code: talks to a running memdesk over its local socket.

No Qt, only the standard library, so any agent process can import it cheaply:

    from memdesk.api.client import Client
    with Client(agent="my-agent") as memory:
        memory.add("The user prefers tabs over spaces", kind="preference")
        hits = memory.search("indentation")["hits"]

Errors from the server raise `MemdeskError` with the JSON-RPC `code`, the `message` and
`data` (`data["type"]` is a stable name such as "not_found").

When the connection is lost the client reconnects and repeats the request if that cannot
do anything twice: the request was never sent, it only reads, or the server said goodbye
first (`system.closing`: whatever it did not answer, it did not do). A write whose server
died without a goodbye raises `OutcomeUnknown` instead of being repeated blindly.
"""

from __future__ import annotations

import collections
import errno
import itertools
import json
import os
import socket
import struct
import threading
import time
from typing import Any

from memdesk import paths
from memdesk.api import naming
from memdesk.api.client_calls import MethodCalls
from memdesk.api.repeatable import SAFE_TO_REPEAT

UNAVAILABLE = -32000  # client-side only: memdesk could not be reached
HANDOVER_WAIT_S = 10.0  # how long the next owner may take to listen after a handover


class MemdeskError(Exception):
    """An error answer from memdesk (or, with code -32000, no answer at all)."""

    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.data = data or {}

    @property
    def type(self) -> str:
        return str(self.data.get("type", "error"))


class ServerUnavailable(MemdeskError, ConnectionError):
    """No memdesk is listening on the socket, or it went away and did not come back."""

    def __init__(self, message: str) -> None:
        super().__init__(UNAVAILABLE, message, {"type": "unavailable"})


class NoAnswer(ServerUnavailable):
    """Something listens on the socket but did not answer the greeting in time (a stopped or
    hung memdesk): waiting again would only wait as long again."""


class OutcomeUnknown(MemdeskError):
    """memdesk stopped, or stopped answering, while a write was in flight, without saying
    whether it was done."""

    def __init__(self, method: str, what: str = "") -> None:
        what = what or f"memdesk stopped while {method} was in flight"
        super().__init__(
            UNAVAILABLE,
            f"{what}; it may or may not have been saved. Look for it (memory.search or "
            "memory.list) before sending it again.",
            {"type": "outcome_unknown"},
        )


class _Disconnected(Exception):
    def __init__(self, sent: bool) -> None:
        super().__init__()
        self.sent = sent  # the request reached the socket, so the server may have acted


class Client(MethodCalls):
    """One connection to memdesk. Thread-safe (calls are serialized); use one per thread
    for parallelism."""

    def __init__(
        self,
        db_path: str | os.PathLike[str] | None = None,
        socket_path: str | os.PathLike[str] | None = None,
        agent: str | None = None,
        timeout: float = 30.0,
        role: str | None = None,
    ) -> None:
        """`role="user"` is for the person's own memdesk tools only (the CLI), never agents."""
        if socket_path is None:
            socket_path = naming.socket_path(paths.resolve_db_path(db_path))
        self.socket_path = str(socket_path)
        self.agent = agent
        self.role = role
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._buffer = bytearray()
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._events: collections.deque[dict[str, Any]] = collections.deque()
        self._subscribed = False
        self._goodbye: str | None = None  # the server's system.closing reason, if it sent one
        self.greeting: dict[str, Any] = {}  # what system.hello answered
        self._connect()

    # -- connection ------------------------------------------------------------------------

    def _open_socket(self) -> socket.socket:
        """Connect, waiting while the server's queue of connections not yet taken is full
        (EAGAIN: clients connecting in a tight loop fill it) rather than failing at once."""
        deadline = time.monotonic() + self.timeout
        pause = 0.01
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(self.socket_path)
                _same_user(sock, self.socket_path)
                return sock
            except OSError as exc:
                sock.close()
                if exc.errno == errno.EAGAIN and time.monotonic() + pause < deadline:
                    time.sleep(pause)
                    pause = min(pause * 2, 0.2)
                    continue
                raise ServerUnavailable(
                    f"memdesk is not running on {self.socket_path} ({exc.strerror or exc}); "
                    "start it with `memdesk` or `memdesk serve`"
                ) from None

    def _connect(self) -> None:
        self._sock = self._open_socket()
        self._buffer.clear()
        self._goodbye = None
        try:
            if self.agent or self.role:
                hello = {"agent": self.agent or "unknown"}
                if self.role:
                    hello["role"] = self.role
                key = naming.read_role_key(self.socket_path)
                if self.role in naming.PRIVILEGED_ROLES and key:
                    hello["key"] = key
                self.greeting = self._roundtrip("system.hello", hello)
            if self._subscribed:
                self._roundtrip("events.subscribe", {})
        except TimeoutError:
            self.close()
            raise NoAnswer(
                f"memdesk on {self.socket_path} took the connection but did not answer within "
                f"{self.timeout:g} s (it may be stopped or hung); nothing was done"
            ) from None
        except _Disconnected:
            self.close()
            raise ServerUnavailable(f"memdesk on {self.socket_path} did not answer") from None
        except MemdeskError:  # e.g. the greeting was refused
            self.close()
            raise

    def close(self) -> None:
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- requests --------------------------------------------------------------------------

    def call(self, method: str, **params: Any) -> Any:
        """Call any method by name; see `system.describe` or docs/api.md."""
        with self._lock:
            try:
                if self._sock is None:
                    self._connect()
                return self._roundtrip(method, params)
            except TimeoutError:
                self.close()  # the answer may still come; this connection is out of step
                late = f"memdesk did not answer {method} within {self.timeout:g} s"
                if method not in SAFE_TO_REPEAT:  # (sent again, a slow write was done twice)
                    raise OutcomeUnknown(method, late) from None
                raise NoAnswer(f"{late} (it may be stopped or hung)") from None
            except _Disconnected as lost:
                goodbye = self._goodbye or self._unread_goodbye()
                self.close()
                if lost.sent and goodbye is None and method not in SAFE_TO_REPEAT:
                    raise OutcomeUnknown(method) from None
                self._reconnect(wait_s=HANDOVER_WAIT_S if goodbye == "handover" else 0.0)
                try:
                    return self._roundtrip(method, params)
                except _Disconnected:
                    self.close()
                    raise ServerUnavailable(
                        f"memdesk closed the connection on {self.socket_path}"
                    ) from None

    def _unread_goodbye(self) -> str | None:
        """The server's goodbye, if it is still unread in the socket (a send can fail on
        the closed connection before the client read what the server said last)."""
        if self._sock is None:
            return None
        try:
            self._sock.setblocking(False)
            while chunk := self._sock.recv(1 << 16):
                self._buffer += chunk
        except OSError:
            pass
        for line in bytes(self._buffer).split(b"\n"):
            if b'"system.closing"' in line:
                try:
                    return json.loads(line)["params"].get("reason", "stopping")
                except (ValueError, KeyError, AttributeError):
                    return "stopping"
        return None

    def _reconnect(self, wait_s: float) -> None:
        """Connect again; after a handover, wait (up to `wait_s`) for the next owner."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self._connect()
                return
            except ServerUnavailable:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.05)

    def notify(self, method: str, **params: Any) -> None:
        """Send a notification: the server acts on it but never answers."""
        with self._lock:
            if self._sock is None:
                self._connect()
            self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _roundtrip(self, method: str, params: dict[str, Any]) -> Any:
        ident = next(self._ids)
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        # the whole answer within the time limit: answers to other ids coming for ever kept
        # the CLI waiting for ever
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._read_message(deadline)
            if message.get("method") == "system.closing":
                self._goodbye = message.get("params", {}).get("reason", "stopping")
                continue
            if "id" not in message:
                self._events.append(message)
                continue
            if message["id"] is None and "error" in message:
                pass  # the server could not read the request at all: this one's answer
            elif message["id"] != ident:
                continue  # an answer to a request whose caller gave up (timeout)
            if "error" in message:
                error = message["error"]
                raise MemdeskError(error["code"], error["message"], error.get("data"))
            return message["result"]

    def _send(self, message: dict[str, Any]) -> None:
        assert self._sock is not None
        try:
            text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:  # NaN or an infinity (1e999 reads as one): not JSON at all
            raise MemdeskError(
                INVALID_PARAMS, "a number is NaN or infinite; JSON carries finite numbers only"
            ) from None
        # (a lone surrogate goes as its escape: the server names it)
        line = text.encode("utf-8", "backslashreplace") + b"\n"
        if len(line) > MAX_LINE_BYTES:  # the server would close the connection
            raise MemdeskError(
                TOO_LARGE,
                f"the request is {len(line):,} bytes; memdesk reads at most "
                f"{MAX_LINE_BYTES:,} in one (a memory's text at most 65,536): send "
                "less at once",
                {"type": "too_large", "field": "params"},
            )
        try:
            self._sock.sendall(line)
        except (BrokenPipeError, ConnectionResetError):
            raise _Disconnected(sent=False) from None

    def _read_message(self, deadline: float | None = None) -> dict[str, Any]:
        assert self._sock is not None
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError  # bytes that never make a whole answer count as none
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):  # bytes that are not UTF-8 among them
                    message = None
                if not isinstance(message, dict):
                    self.close()
                    raise ServerUnavailable(
                        f"what answers on {self.socket_path} does not speak memdesk's protocol "
                        "(an answer that is not a JSON-RPC object); is it memdesk?"
                    )
                return message
            try:
                chunk = self._sock.recv(1 << 16)
            except ConnectionResetError:
                raise _Disconnected(sent=True) from None
            if not chunk:
                raise _Disconnected(sent=True)
            self._buffer += chunk

    # -- events ----------------------------------------------------------------------------

    def subscribe(self) -> None:
        """Ask for `memory.changed` notifications; read them with `next_event`."""
        self.call("events.subscribe")
        self._subscribed = True

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next `memory.changed` params, waiting up to `timeout` s; None if none came.
        After a handover it follows (and subscribes again) to the next owner."""
        with self._lock:
            deadline = None if timeout is None else time.monotonic() + timeout
            while not self._events and self._sock is not None:
                if deadline is not None:
                    self._sock.settimeout(max(0.001, deadline - time.monotonic()))
                else:
                    self._sock.settimeout(None)
                try:
                    message = self._read_message()
                except TimeoutError:
                    break
                except _Disconnected:
                    goodbye = self._goodbye
                    self.close()
                    if goodbye != "handover":
                        raise ServerUnavailable("memdesk closed the connection") from None
                    self._reconnect(wait_s=HANDOVER_WAIT_S)
                    continue
                finally:
                    if self._sock is not None:
                        self._sock.settimeout(self.timeout)
                if message.get("method") == "system.closing":
                    self._goodbye = message.get("params", {}).get("reason", "stopping")
                else:
                    self._events.append(message)
            return self._events.popleft().get("params") if self._events else None


INVALID_PARAMS = -32602
TOO_LARGE = -32004
# protocol.MAX_LINE_BYTES, the longest line the server reads (protocol imports the server's
# errors and with them memdesk.core: 12 ms more for every hook run)
MAX_LINE_BYTES = 1024 * 1024


def _same_user(sock: socket.socket, path: str) -> None:
    """Refuse a socket another local user serves: the person's words and queries would reach
    that user's process, and its answers pass for the person's memories. (Linux tells the
    peer's user; elsewhere the socket's folder, the person's alone, has to do.)"""
    peer_credentials = getattr(socket, "SO_PEERCRED", None)
    if peer_credentials is None:
        return
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, peer_credentials, 12))
    if uid != os.getuid():
        sock.close()
        raise ServerUnavailable(
            f"{path} is served by another user (uid {uid}); memdesk talks only to a memdesk "
            "of your own"
        )
