"""The socket server: a QObject around QLocalServer that serves agents JSON-RPC lines.

It runs on the Qt event loop of the window app or of `memdesk serve`; requests are answered
on that thread, one at a time, so every write happens in order. It never touches widgets:
it emits signals.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import logging
import os
import socket
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMetaObject, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from memdesk.api import naming, protocol
from memdesk.api.bookkeeper import Bookkeeper
from memdesk.api.connection import Connection, Limits
from memdesk.api.dispatch import Dispatcher
from memdesk.core import Actor, Change, MemdeskError, MemoryService

SWITCH_INTERVAL_S = 0.001

logger = logging.getLogger(__name__)


BOOKKEEPING_MS = 200


class ServerError(Exception):
    """The server could not listen; the message says why and what to do."""


class AlreadyRunning(ServerError):
    """A live memdesk already serves this socket."""


class _Relay(QObject):
    """Carries "this request's work has ended" from the thread that did it to the server's,
    where the connection is answered if it is still open: a connection closed meanwhile is
    deleted on the server's thread, and no other thread may touch it."""

    done = Signal(object, object)  # the Connection, its Working

    def report(self, connection: Connection, working: object) -> None:
        self.done.emit(connection, working)


class SocketServer(QObject):
    clients_changed = Signal(int)
    agents_changed = Signal(list)  # the names of the connected agents, as they said hello
    show_requested = Signal()
    handover_requested = Signal()  # headless only: the window starting wants the database

    def __init__(
        self,
        service: MemoryService,
        socket_path: str | os.PathLike[str] | None = None,
        parent: QObject | None = None,
        *,
        limits: Limits | None = None,
        headless: bool = False,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._path = str(socket_path or naming.socket_path(service.path))
        self._limits = limits or Limits()
        self._dispatcher = Dispatcher(
            service,
            on_show=lambda: self.show_requested.emit(),
            on_hello=self._announce_agents,
            on_handover=self.handover_requested.emit if headless else None,
            request_seconds=self._limits.request_seconds,
        )
        self._server: QLocalServer | None = None
        self._connections: list[Connection] = []
        self._relay = _Relay(self)
        # queued even from this thread: an answer never runs inside the request that asked
        self._relay.done.connect(self._on_work_done, Qt.ConnectionType.QueuedConnection)
        # Agents' connections with a request waiting, each served one request a turn.
        self._turns: collections.deque[Connection] = collections.deque()
        self._turn_scheduled = False
        self._unsubscribe: Callable[[], None] | None = None
        self._pending_changes: collections.deque[Change] = collections.deque()
        self._sweep = QTimer(self)
        self._sweep.setInterval(max(50, int(self._limits.idle_timeout_s * 1000 / 4)))
        self._sweep.timeout.connect(self._on_sweep)
        # Searches queue their recall counts and log rows, written when requests pause.
        self._bookkeeper = Bookkeeper(service)
        self._bookkeeping = QTimer(self)
        self._bookkeeping.setInterval(BOOKKEEPING_MS)
        self._bookkeeping.timeout.connect(self._on_bookkeeping)
        self._lock_fd: int | None = None  # held while this server owns the database
        self._serving = contextlib.ExitStack()

    @property
    def socket_path(self) -> str:
        return self._path

    @property
    def client_count(self) -> int:
        return len(self._connections)

    def agent_names(self) -> list[str]:
        """Who is connected, one entry each: an agent or a hook by the name it gave in
        system.hello, the person's own tools as theirs."""
        return [
            f"you ({c.session.agent})" if c.session.role == "user" else c.session.agent
            for c in self._connections
        ]

    def _announce_agents(self) -> None:
        self.clients_changed.emit(len(self._connections))
        self.agents_changed.emit(self.agent_names())

    def listen(self) -> None:
        """Start accepting connections; replaces a stale socket, refuses a live one."""
        if len(os.fsencode(self._path)) > naming.MAX_SOCKET_PATH:
            raise ServerError(
                f"socket path {self._path} is too long for a Unix socket "
                f"(at most {naming.MAX_SOCKET_PATH} bytes); choose a shorter --socket"
            )
        try:
            naming.prepare_dir(self._path)
        except OSError as exc:
            raise ServerError(f"cannot prepare the socket directory: {exc}") from exc
        try:
            naming.refuse_what_is_not_ours(self._path)
        except OSError as exc:
            raise ServerError(str(exc)) from None
        self._own_database()
        if Path(self._path).exists():
            if naming.is_live(self._path):
                raise AlreadyRunning(f"memdesk is already running on socket {self._path}")
            logger.info("removing stale socket %s", self._path)
            QLocalServer.removeServer(self._path)
        try:
            self._dispatcher.role_key = naming.write_role_key(self._path)
        except OSError as exc:
            self._release_database()
            raise ServerError(f"cannot write the key for memdesk's own tools: {exc}") from exc
        self._service.warm_up()
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        server.setMaxPendingConnections(self._limits.max_connections)
        if not server.listen(self._path):
            message = server.errorString()
            server.deleteLater()
            self._release_database()
            raise ServerError(f"cannot listen on {self._path}: {message}")
        server.newConnection.connect(self._on_new_connection)
        self._server = server
        self._sweep.start()
        self._bookkeeping.start()
        self._unsubscribe = self._service.changes.subscribe(self._on_changes_any_thread)
        self._serving.enter_context(self._service.serving())
        # Agents' requests and a sync compute on threads of their own. CPython gives the
        # lock back to a thread done waiting on the disk or a socket only once the computing
        # thread's interval ends (5 ms by default), and the person's request waits that long
        # at each of its reads: under a crafted remote's sync, p95 215 ms; 1 ms: 56 ms.
        self._serving.callback(sys.setswitchinterval, sys.getswitchinterval())
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        logger.info("listening on %s", self._path)

    def _own_database(self) -> None:
        """Become the one owner of the database, or raise AlreadyRunning. The decision is one
        atomic step, an exclusive lock on `<database>.lock` held while this server runs (the
        kernel drops it if the process dies), so two servers started at the same moment
        cannot both win, whatever sockets they were given."""
        lock_path = self._service.path.with_name(self._service.path.name + ".lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise AlreadyRunning(
                f"memdesk is already running on {self._service.path} (a window or `memdesk "
                "serve` owns it)"
            ) from None
        self._lock_fd = fd

    def _release_database(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the file releases the lock
            self._lock_fd = None

    def close(self, reason: str = "stopping") -> None:
        """Stop listening and close every connection, after sending what is queued.

        Each connection gets a `system.closing` notification first. Every request this server
        read has been answered by then and it reads no more, so a client may send anything
        still unanswered to the next owner without risk of doing it twice.
        """
        self._sweep.stop()
        self._bookkeeping.stop()
        self._bookkeeper.flush()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._dispatcher.shutdown()  # what agents asked for ends before the goodbyes
        closing = protocol.encode(protocol.notification("system.closing", {"reason": reason}))
        for connection in list(self._connections):
            connection.say_goodbye(closing, wait=True)
        if self._server is not None:
            self._server.close()  # also removes the socket file
            self._server.deleteLater()
            self._server = None
            if naming.read_role_key(self._path) == self._dispatcher.role_key:
                naming.role_key_path(self._path).unlink(missing_ok=True)
        self._release_database()
        self._serving.close()

    @Slot()
    def _on_new_connection(self) -> None:
        assert self._server is not None
        while self._server.hasPendingConnections():
            sock = self._server.nextPendingConnection()
            if not _same_user(sock):
                logger.warning("refused a connection from another user")
                sock.abort()
                sock.deleteLater()
                continue
            if len(self._connections) >= self._limits.max_connections:
                self._make_room()
            connection = Connection(
                sock,
                self._dispatcher,
                self._limits,
                self,
                on_closed=self._on_connection_closed,
                ask_turn=self._want_turn,
                report_work=self._relay.report,
            )
            self._connections.append(connection)
            self._announce_agents()

    def _want_turn(self, connection: Connection) -> None:
        self._turns.append(connection)
        if not self._turn_scheduled:
            self._turn_scheduled = True
            QTimer.singleShot(0, self, self._next_turn)

    @Slot()
    def _next_turn(self) -> None:
        """One agent request, then back to the event loop: a request of the person's that
        arrived meanwhile is read and answered before the next agent's turn. (Serving agents
        for 4 ms a turn kept their throughput but left the person p95 143 ms, not 20.)"""
        self._turn_scheduled = False
        while self._turns:
            connection = self._turns.popleft()
            if connection in self._connections:
                connection.take_turn()
                break
        if self._turns and not self._turn_scheduled:
            self._turn_scheduled = True
            QTimer.singleShot(0, self, self._next_turn)

    @Slot(object, object)
    def _on_work_done(self, connection: Connection, working: object) -> None:
        # by identity: a connection deleted meanwhile must not be asked anything
        if any(c is connection for c in self._connections):
            connection.worked(working)  # type: ignore[arg-type]

    def _make_room(self) -> bool:
        """At the connection limit, the connection idle longest yields to a new one (agents'
        before the person's tools): silent connections kept open must not lock everyone out.
        It is told why, and reconnects when it next needs memdesk. One in use (quiet for less
        than `yield_after_s`) yields only past twice the limit: the newcomer is let in beside."""
        quiet_since = time.monotonic() - self._limits.yield_after_s
        crowded = len(self._connections) >= 2 * self._limits.max_connections
        idle = sorted(
            (
                c
                for c in self._connections
                if (crowded or c.last_active <= quiet_since) and not c.busy
            ),  # a request in hand is not idle (asked last: it takes the future's lock)
            key=lambda c: (c.session.role == "user", c.last_active),
        )
        if not idle:
            return False
        victim = idle[0]
        self._connections.remove(victim)
        reason = (
            f"memdesk is at its limit of {self._limits.max_connections} connections and this "
            "one was idle longest; reconnect when you need memdesk again"
        )
        victim.say_goodbye(
            protocol.encode(protocol.notification("system.closing", {"reason": reason}))
        )
        return True

    @Slot()
    def _on_sweep(self) -> None:
        now = time.monotonic()
        for connection in list(self._connections):
            connection.check_idle(now)
        self._bound_unread()
        self._keep_socket()

    def _bound_unread(self) -> None:
        """What waits unread for agents, all connections together, is bounded: 60 agents that
        never read, each just under its own limit, held 1.1 GB of the server's memory. Past
        the bound, the agent with the most waiting is closed."""
        agents = [c for c in self._connections if c.session.role != "user"]
        waiting = sum(c.unread for c in agents)
        while agents and waiting > self._limits.max_unread_total:
            heaviest = max(agents, key=lambda c: c.unread)
            waiting -= heaviest.unread
            agents.remove(heaviest)
            logger.warning(
                "closing %r: agents left %d bytes unread", heaviest.session.agent, waiting
            )
            heaviest.abort()

    def _keep_socket(self) -> None:
        """Listen again where the socket file was removed (a cleaner of the runtime folder, a
        person tidying up): left so, memdesk went on holding the database while every agent
        was told it was not running, and a second `serve` that it already was."""
        if self._server is None or os.path.lexists(self._path):
            return
        logger.warning("the socket %s was removed; listening on it again", self._path)
        try:  # the folder may have gone with it, and the key the person's tools show
            naming.prepare_dir(self._path)
            if not naming.role_key_path(self._path).exists():
                self._dispatcher.role_key = naming.write_role_key(self._path)
        except OSError as exc:
            logger.error("cannot make the socket's folder or key again: %s", exc)
            return
        self._server.close()
        if not self._server.listen(self._path):
            logger.error("cannot listen on %s again: %s", self._path, self._server.errorString())

    def _on_bookkeeping(self) -> None:
        if self._server is None:  # closed while a step was queued
            return
        if self._bookkeeper.tick():  # more idle work: next step once waiting events are handled
            QTimer.singleShot(0, self, self._on_bookkeeping)

    def _on_connection_closed(self, connection: Connection) -> None:
        if connection in self._connections:
            self._connections.remove(connection)
            self._announce_agents()

    def _on_changes_any_thread(self, changes: list[Change]) -> None:
        # Service listeners run on whichever thread wrote: queue the changes and let the
        # server's own thread write them to the sockets (a queued call crosses threads).
        self._pending_changes.extend(changes)
        self._bookkeeper.note_changes(len(changes))
        QMetaObject.invokeMethod(self, "_flush_changes", Qt.ConnectionType.QueuedConnection)

    @Slot()
    def _flush_changes(self) -> None:
        """Push queued changes to subscribed connections, from the server's thread."""
        changes = []
        while self._pending_changes:
            changes.append(self._pending_changes.popleft())
        listeners = [c for c in self._connections if c.session.subscribed]
        if not listeners or not changes:
            return
        lines = _lines(changes)
        ids = {change.id for change in changes if change.id}
        readable: dict[str, set[str]] = {}  # per agent: what it may hear of
        for connection in listeners:
            actor = connection.session.actor
            if connection.session.role == "user" or actor.source != "agent":
                connection.send(lines)
                continue
            # An agent hears only of memories it may read: the ids and writers of private
            # and withheld ones went to every subscriber.
            if actor.agent not in readable:
                readable[actor.agent] = self._readable(ids, actor)
            # The Inbox is the person's: an "inbox" event after an agent's write told it that
            # another agent's private memory said the same, one guessed word at a time.
            heard = [
                c
                for c in changes
                if c.id in readable[actor.agent] or not c.id and c.event != "inbox"
            ]
            if heard:
                connection.send(lines if len(heard) == len(changes) else _lines(heard))

    def _readable(self, ids: set[str], actor: Actor) -> set[str]:
        try:
            return self._service.heard_of_by(ids, actor)
        except MemdeskError:
            return set()  # the store is busy or closing: better silent than telling


def _lines(changes: list[Change]) -> bytes:
    return b"".join(
        protocol.encode(protocol.notification("memory.changed", change.to_dict()))
        for change in changes
    )


def _same_user(sock: QLocalSocket) -> bool:
    """On Linux, the peer's uid (SO_PEERCRED) must be ours; elsewhere the 0700 dir guards."""
    if not sys.platform.startswith("linux"):
        return True
    descriptor = int(sock.socketDescriptor())
    if descriptor < 0:
        return False
    # fromfd duplicates the descriptor, so closing our copy leaves Qt's socket open.
    with socket.fromfd(descriptor, socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        creds = peer.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid == os.getuid()
