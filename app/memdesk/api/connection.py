"""One client connection: reads lines, answers them in order, pushes change notifications.

Every limit is enforced here, per connection, so that no client can stall the others: a line
over the size limit is answered and the connection closed; a half line left alone for
`idle_timeout_s` after its first byte is answered and closed (a byte now and then does not
keep it open); a client that sends many requests at once (lines, or a batch, which holds at
most `max_batch`) is served `lines_per_turn` of them or `turn_seconds` of work at a time,
letting other connections in between; a client
that does not read its replies stops being read until it catches up, and is closed once what
waits for it passes twice `max_pending_output` (pushed notifications, a large answer).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtNetwork import QLocalSocket

from memdesk.api import errors, protocol
from memdesk.api.dispatch import Dispatcher, Session
from memdesk.api.errors import RpcError
from memdesk.api.replies import Working, answer, finished, ran

logger = logging.getLogger(__name__)
_CONNECTED = QLocalSocket.LocalSocketState.ConnectedState
_CLOSING_GRACE_MS = 2000  # for the last bytes to reach a client being closed


@dataclass(frozen=True)
class Limits:
    max_line_bytes: int = protocol.MAX_LINE_BYTES
    max_connections: int = 32
    # Only a connection quiet this long yields to a newcomer (until twice the limit): with
    # more live agents than room, each newcomer closed one that reconnected and closed the
    # next, 320 a second, and the server's thread did little else.
    yield_after_s: float = 1.0
    idle_timeout_s: float = 10.0  # how long a half-sent line may wait for its end
    lines_per_turn: int = 64
    # A batch of 100 large lists took 1-2 s in one go, and everyone else waited for it.
    turn_seconds: float = 0.05
    max_pending_output: int = 8 * 1024 * 1024
    max_unread_total: int = 128 * 1024 * 1024  # waiting for agents, every connection together
    max_batch: int = 100  # 2,000 list calls in one batch built a 61 MB answer
    # The database work one agent's request may do; the person's own tools (import, restore,
    # check) have none.
    request_seconds: float = 5.0


@dataclass
class _Batch:
    """A batch answered over several turns: the requests left, and the answers so far."""

    waiting: deque[Any]
    encoded: list[bytes] = field(default_factory=list)
    size: int = 0


class Connection(QObject):
    """Owns one QLocalSocket; calls `on_closed(self)` once, when the socket is gone.

    A request whose work runs off the server's thread (a sync: seconds of git) is answered
    when that work ends; this connection reads nothing more until then, so its answers keep
    their order, while every other connection is served meanwhile."""

    def __init__(
        self,
        sock: QLocalSocket,
        dispatcher: Dispatcher,
        limits: Limits,
        parent: QObject,
        *,
        on_closed: Callable[[Connection], None],
        ask_turn: Callable[[Connection], None] | None = None,
        report_work: Callable[[Connection, Working], None],
    ) -> None:
        super().__init__(parent)
        self._on_closed = on_closed
        self._ask_turn = ask_turn  # the server's queue of agents' turns
        # Called from the thread that did a request's work: the server carries the news to
        # its own thread, and to this connection only if it is still there.
        self._report_work = report_work
        self._queued = False
        self.session = Session()
        self._sock = sock
        self._dispatcher = dispatcher
        self._limits = limits
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer already known to hold no newline
        self._closing = False
        self._last_said = False  # the goodbye is sent: read nothing more
        self._drain_scheduled = False
        self._batch: _Batch | None = None
        self._work: Working | None = None  # a request's work runs elsewhere; its answer first
        # When the unfinished line last grew; checked by the server's sweep, not a timer per
        # connection, so that a request costs no timer calls.
        self._partial_since: float | None = None
        # When it last asked for something: under a full house, the one idle longest yields.
        self.last_active = time.monotonic()
        sock.setParent(self)
        sock.readyRead.connect(self._on_ready_read)
        sock.bytesWritten.connect(self._on_bytes_written)
        sock.disconnected.connect(self._on_disconnected)

    def send(self, payload: bytes) -> None:
        if self._sock is None or self._sock.state() != _CONNECTED:
            return
        if self._sock.bytesToWrite() > 2 * self._limits.max_pending_output:
            # It does not read what it is sent: memory held for it would grow without bound.
            # (What waits unread counts, not the answer now: one answer past the limit, the
            # person's export of a large store, closed the person's own connection.)
            logger.warning("closing %r: it does not read its replies", self.session.agent)
            self.abort()
            return
        self._sock.write(payload)

    def _encoded(self, reply: dict[str, Any]) -> bytes:
        """A reply as sent. An agent's answer past `max_pending_output` is refused, not sent:
        one of 87 MB (a page of 10,000 large memories) was held whole for a client that never
        read it, and 64 such connections took the server to 3 GB. (The person's own tools,
        exporting a large store, are answered whole.)"""
        payload = protocol.encode(reply)
        limit = self._limits.max_pending_output
        if len(payload) <= limit or self.session.role == "user":
            return payload
        exc = RpcError(
            errors.TOO_LARGE,
            f"the answer is {len(payload):,} bytes; an agent's answer may be at most {limit:,}: "
            "ask for fewer (a smaller limit, then the next offset)",
            limit=limit,
        )
        return protocol.encode(protocol.error(reply.get("id"), exc))

    @property
    def unread(self) -> int:
        """Bytes sent that the client has not read yet."""
        return 0 if self._sock is None else self._sock.bytesToWrite()

    def abort(self) -> None:
        """Close at once, dropping what waits unsent."""
        self._closing = True
        if self._sock is not None:
            self._sock.abort()

    def reject(self, exc: RpcError) -> None:
        """Answer with an error that is not tied to a request, then close."""
        self.send(protocol.encode(protocol.error(None, exc)))
        self.close()

    def close(self) -> None:
        if self._closing or self._sock is None:
            return
        self._closing = True
        sock = self._sock
        # Queued bytes (the last answer) are flushed before the socket really closes; when
        # nothing is queued, Qt emits disconnected (and we clean up) right here.
        sock.disconnectFromServer()
        if (
            self._sock is not None
            and sock.state() == QLocalSocket.LocalSocketState.UnconnectedState
        ):
            self._on_disconnected()
        elif self._sock is not None:
            # A client that never reads would keep it closing for ever.
            QTimer.singleShot(_CLOSING_GRACE_MS, self, self._abort)

    @Slot()
    def _abort(self) -> None:
        if self._sock is not None:
            self._sock.abort()

    def say_goodbye(self, payload: bytes, *, wait: bool = False) -> None:
        """Send a last message and close; no request after it is read, even one that has
        already arrived (the message promises the client that). Work that ran elsewhere and
        has ended is answered first: what was done is never left for the client to resend.
        `wait`: block until it is written (the server is stopping: no loop will write it);
        otherwise the loop writes it while it goes on (waiting 200 ms for a client that never
        read held every other client back, the person's tools too)."""
        self._last_said = True
        work, self._work = self._work, None
        if work is not None:
            work.future.cancel()  # not started: never run, so the client may send it again
            answered = work.future.done() and not work.future.cancelled() and not work.quiet
            if answered and ran(work.future):
                self.send(self._encoded(finished(work.id, work.future)))
        self.send(payload)
        if wait:
            self.flush()
        self.close()

    def flush(self, timeout_ms: int = 200) -> None:
        if self._sock is not None and self._sock.bytesToWrite():
            self._sock.waitForBytesWritten(timeout_ms)

    @Slot()
    def _on_ready_read(self) -> None:
        self._buffer += self._sock.readAll().data()
        self._drain()
        if not self._buffer:
            self._partial_since = None
        elif self._partial_since is None:  # from a line's first byte, not its latest
            self._partial_since = time.monotonic()

    @Slot()
    def _on_bytes_written(self) -> None:
        waiting = self._buffer or self._batch is not None
        if waiting and self._sock.bytesToWrite() < self._limits.max_pending_output:
            self._drain()

    def _drain(self) -> None:
        self._drain_scheduled = False
        if self._ask_turn is not None and self.session.role != "user":
            # An agent's request waits for its turn among the agents' (one request a turn),
            # so the person's tools, served the moment they ask, wait behind one at most.
            self._greet()
            if self._ready():
                self._queue_turn()
            else:
                self._check_partial()
            return
        self._serve(self._limits.lines_per_turn)

    def take_turn(self) -> None:
        """One request of this agent's, then the next connection's turn."""
        self._queued = False
        if self._sock is not None:
            self._serve(1)

    def _queue_turn(self) -> None:
        if not self._queued and self._ask_turn is not None:
            self._queued = True
            self._ask_turn(self)

    def _serve(self, lines: int) -> None:
        turn_ends = time.monotonic() + self._limits.turn_seconds
        handled = 0
        while self._ready():
            if handled == lines or time.monotonic() > turn_ends:
                if self._ask_turn is not None and self.session.role != "user":
                    self._queue_turn()
                else:
                    self._drain_later()  # the others' turn first
                return
            handled += 1
            self._serve_one()
        self._check_partial()

    def _ready(self) -> bool:
        """A request waits and may be answered now (not while earlier work runs, nor while
        the client has not read what it was sent)."""
        if self._closing or self._last_said or self._work is not None:
            return False
        if self._sock is None or self._sock.bytesToWrite() >= self._limits.max_pending_output:
            return False  # resumed by bytesWritten once the client reads its answers
        if self._batch is not None:
            return True
        if self._buffer.find(b"\n", self._scanned) >= 0:
            return True
        self._scanned = len(self._buffer)
        return False

    def _serve_one(self) -> None:
        if self._batch is not None:
            self._answer_next_in_batch(self._batch)
            return
        end = self._buffer.find(b"\n", self._scanned)
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._scanned = 0
        self._partial_since = None  # the next line's clock starts at its first byte
        self.last_active = time.monotonic()
        if len(line) > self._limits.max_line_bytes:
            self._too_long(len(line))
            return
        self._handle_line(line)

    def _greet(self) -> None:
        """A greeting is answered at once, before any turn: it touches no memories, and the
        person's tools greet as an agent until it is answered."""
        while self._ready() and self._batch is None:
            end = self._buffer.find(b"\n", self._scanned)
            head = bytes(self._buffer[:end])
            if b"system.hello" not in head or len(head) > 4096:
                return
            try:
                message = protocol.decode(head)
            except RpcError:
                return
            if not (isinstance(message, dict) and message.get("method") == "system.hello"):
                return
            self._serve_one()

    def _check_partial(self) -> None:
        if self._closing or self._last_said or self._work is not None:
            return
        if len(self._buffer) > self._limits.max_line_bytes and self._scanned == len(self._buffer):
            self._too_long(len(self._buffer))

    def _drain_later(self) -> None:
        if not self._drain_scheduled:
            self._drain_scheduled = True
            QTimer.singleShot(0, self, self._drain)

    def _too_long(self, size: int) -> None:
        self._buffer.clear()
        limit = self._limits.max_line_bytes
        self.reject(
            RpcError(
                errors.TOO_LARGE,
                f"message line is over {size:,} bytes; the limit is {limit:,} bytes per line. "
                "Closing the connection.",
                limit=limit,
            )
        )

    def _handle_line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = protocol.decode(line)
        except RpcError as exc:
            self.send(protocol.encode(protocol.error(None, exc)))
            return
        if isinstance(message, list):
            if not message or len(message) > self._limits.max_batch:
                exc = RpcError(
                    errors.INVALID_REQUEST,
                    f"a batch holds 1 to {self._limits.max_batch} requests; this one holds "
                    f"{len(message)}. Send more batches.",
                )
                self.send(protocol.encode(protocol.error(None, exc)))
                return
            self._batch = _Batch(deque(message))  # answered by _drain, a few at a turn
            return
        reply = answer(message, self._dispatcher, self.session)
        if isinstance(reply, Working):
            self._work = reply
            reply.future.add_done_callback(lambda _done: self._report_work(self, reply))
        elif reply is not None:
            self.send(self._encoded(reply))

    @property
    def busy(self) -> bool:
        """A request of its own is being worked on right now (one waiting its turn is not:
        it is called off, unrun, if this connection must go)."""
        return self._work is not None and self._work.future.running()

    def worked(self, working: Working) -> None:
        """A request's work that ran elsewhere has ended: answer it (on the server's thread)."""
        if self._work is not working:
            return  # answered already, at goodbye
        self._work = None
        self.last_active = time.monotonic()
        if self._closing:
            return
        reply = finished(working.id, working.future)
        if working.in_batch and self._batch is not None:
            self._batch_answered(self._batch, None if working.quiet else reply)
        elif not working.quiet:
            self.send(self._encoded(reply))
        self._drain_later()

    def _answer_next_in_batch(self, batch: _Batch) -> None:
        """Answer the batch's next request; the whole answer goes once the last is done. Once
        the answers pass `max_pending_output`, the rest are not run, each answered so (a
        batch of list calls built a 61 MB answer)."""
        message = batch.waiting.popleft()
        limit = self._limits.max_pending_output
        if batch.size > limit:
            reply = protocol.error(
                protocol.request_id(message),
                RpcError(
                    errors.TOO_LARGE,
                    f"the answers to this batch passed {limit:,} bytes; this request was "
                    "not run. Send it again in a smaller batch.",
                    limit=limit,
                ),
            )
        else:
            reply = answer(message, self._dispatcher, self.session)
        if isinstance(reply, Working):  # answered when its work ends, the batch waiting
            working = self._work = replace(reply, in_batch=True)
            reply.future.add_done_callback(lambda _done: self._report_work(self, working))
            return
        self._batch_answered(batch, reply)

    def _batch_answered(self, batch: _Batch, reply: dict[str, Any] | None) -> None:
        if reply is not None:
            batch.encoded.append(self._encoded(reply)[:-1])  # without its newline
            batch.size += len(batch.encoded[-1])
        if not batch.waiting:
            self._batch = None
            if batch.encoded:
                self.send(b"[" + b",".join(batch.encoded) + b"]\n")

    def check_idle(self, now: float) -> None:
        """Close the connection if a half-sent line has waited longer than the limit."""
        since = self._partial_since
        if since is None or self._closing or now - since < self._limits.idle_timeout_s:
            return
        # its end may have come while the server was busy elsewhere: read, it is a whole line
        # waiting its turn, not a half one
        self._sock.waitForReadyRead(0)
        if self._partial_since != since or self._closing or b"\n" in self._buffer:
            return
        seconds = self._limits.idle_timeout_s
        self._buffer.clear()
        self.reject(
            RpcError(
                errors.INVALID_REQUEST,
                f"incomplete message: no end of line within {seconds:g} s; every message "
                "must end with a newline. Closing the connection.",
            )
        )

    @Slot()
    def _on_disconnected(self) -> None:
        if self._sock is None:
            return
        self._closing = True
        self._sock = None  # type: ignore[assignment]
        self._on_closed(self)
        self.deleteLater()
