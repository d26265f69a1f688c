"""How many of the host's requests the MCP bridge holds: those read whose answers are not yet
written. stdin is read on a thread of its own, and each request becomes a task whose answer
waits for the host to read stdout; a host that asked on and never read grew the bridge by
5 MB a second. Reading stops while MAX_IN_FLIGHT answers wait, and goes on as they are
written or the host cancels what it asked."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCResponse

MAX_IN_FLIGHT = 64
# A request the SDK never answers would otherwise hold a place for good: past this wait the
# next line is read all the same.
ROOM_WAIT_S = 30.0
_CANCELLED = "notifications/cancelled"


class InFlight:
    def __init__(self, limit: int, wait_s: float = ROOM_WAIT_S) -> None:
        self._limit, self._wait_s = limit, wait_s
        self._asked: Counter[object] = Counter()  # a host may use one id again and again
        self._changed = threading.Condition()

    def read(self, message: dict[str, Any]) -> None:
        """Note a message the host sent; for a request, first wait for room."""
        method, named = message.get("method"), message.get("id")
        if method == _CANCELLED and isinstance(params := message.get("params"), dict):
            self.answered(params.get("requestId"))
        elif isinstance(method, str) and isinstance(named, int | str):
            with self._changed:
                self._changed.wait_for(lambda: self._asked.total() < self._limit, self._wait_s)
                self._asked[_key(named)] += 1

    def answered(self, named: object) -> None:
        with self._changed:
            key = _key(named)
            if self._asked[key] > 1:
                self._asked[key] -= 1
            else:
                self._asked.pop(key, None)
            self._changed.notify()


def _key(named: object) -> object:
    # 1, True and "1" are three ids to JSON; 1 == True to Python
    return (type(named).__name__, named)


class Answering:
    """The bridge's write stream, noting each answer as it is handed to stdout's writer."""

    def __init__(self, stream: Any, in_flight: InFlight) -> None:
        self._stream, self._in_flight = stream, in_flight

    async def send(self, item: SessionMessage) -> None:
        await self._stream.send(item)
        if isinstance(item.message, JSONRPCResponse | JSONRPCError):
            self._in_flight.answered(item.message.id)

    async def __aenter__(self) -> Answering:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> bool | None:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
