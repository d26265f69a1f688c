"""The reply to one request: answered at once on the server's thread, or, for an agent's
request, as work in the agents' lane whose end the reply waits for (`Working`).

A connection keeps the order of its replies and what it sends; this is what each one says.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from memdesk.api import errors, protocol
from memdesk.api.dispatch import Dispatcher, Session
from memdesk.api.errors import RpcError
from memdesk.api.lanes import NotRun
from memdesk.core import MemdeskError

logger = logging.getLogger(__name__)

# Answered on the server's thread whoever asks: no memories are read or written.
_INLINE = frozenset({"system.hello", "system.ping", "system.describe"})


@dataclass(frozen=True)
class Working:
    """A request whose work runs off the server's thread: answered when `future` ends."""

    id: Any
    future: Future
    quiet: bool = False  # a notification's: run, never answered
    in_batch: bool = False  # its answer joins the batch's


def answer(
    message: Any, dispatcher: Dispatcher, session: Session
) -> dict[str, Any] | Working | None:
    """The reply to one request, None for a notification (which never gets one), or the
    work whose end the reply waits for."""
    try:
        request = protocol.parse_request(message)
    except RpcError as exc:
        return protocol.error(protocol.request_id(message), exc)
    if session.role != "user" and request.method not in _INLINE:
        work = dispatcher.in_agents_lane(
            lambda: dispatcher.call(request.method, request.params, session)
        )
        return Working(request.id, work, quiet=request.is_notification)
    try:
        value = dispatcher.call(request.method, request.params, session)
    except RpcError as exc:
        reply = protocol.error(request.id, exc)
    except Exception:
        logger.exception("%s failed", request.method)
        exc = RpcError(
            errors.INTERNAL_ERROR,
            f"{request.method} failed inside memdesk; the details are in memdesk's log",
        )
        reply = protocol.error(request.id, exc)
    else:
        if isinstance(value, Future):
            return Working(request.id, value, quiet=request.is_notification)
        reply = protocol.result(request.id, value)
    return None if request.is_notification else reply


def ran(done: Future) -> bool:
    return not isinstance(done.exception(), NotRun)


def finished(request_id: Any, done: Future) -> dict[str, Any]:
    """The reply for work that ran off the server's thread (waiting for it if it has not
    ended)."""
    try:
        return protocol.result(request_id, done.result())
    except RpcError as exc:
        return protocol.error(request_id, exc)
    except MemdeskError as exc:
        return protocol.error(request_id, RpcError.from_service(exc))
    except Exception:
        logger.exception("work for request %r failed", request_id)
        exc = RpcError(
            errors.INTERNAL_ERROR, "the request failed inside memdesk; the details are in its log"
        )
        return protocol.error(request_id, exc)
