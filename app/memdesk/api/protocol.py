"""The wire format: one JSON-RPC 2.0 message (or batch array) per line, UTF-8.

Parsing is strict, so that what one client sends can never be read two ways: invalid UTF-8,
duplicate keys, NaN/Infinity and nesting deeper than `MAX_DEPTH` are rejected with an error
that says what is allowed. Nothing here knows about methods or the service.
"""

from __future__ import annotations

import heapq
import json
import math
import sys
from dataclasses import dataclass
from typing import Any

from memdesk.api import errors
from memdesk.api.errors import RpcError

MAX_LINE_BYTES = 1024 * 1024
MAX_DEPTH = 32
_ENVELOPE_KEYS = frozenset(("jsonrpc", "method", "params", "id"))
_NO_ID = object()  # a notification: no "id" member at all (null is a real id)


@dataclass(frozen=True, slots=True)
class Request:
    method: str
    params: dict[str, Any]
    id: Any = _NO_ID

    @property
    def is_notification(self) -> bool:
        return self.id is _NO_ID


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed; JSON numbers must be finite")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r}; each key may appear once per object")
            seen.add(key)
    return out


def _finite_float(text: str) -> float:
    number = float(text)
    if math.isinf(number):  # 1e400 parses as infinity
        raise ValueError(f"number {text[:20]} is out of range; JSON numbers must be finite")
    return number


# Python's own limit, said in the protocol's words: its refusal named a Python call to raise it
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a number has {digits:,} digits; numbers have at most {MAX_DIGITS:,}")
    return int(text)


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_keys,
    parse_constant=_reject_constant,
    parse_float=_finite_float,
    parse_int=_whole_number,
)


def _check_depth(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RpcError(
                errors.INVALID_REQUEST,
                f"message is nested deeper than {MAX_DEPTH} levels of arrays/objects",
            )
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))


def decode(line: bytes) -> Any:
    """Bytes of one line -> a JSON value, or RpcError (parse error / too deep)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RpcError(
            errors.PARSE_ERROR, f"line is not valid UTF-8 (bad byte at offset {exc.start})"
        ) from None
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise RpcError(
            errors.INVALID_REQUEST, f"message is nested deeper than {MAX_DEPTH} levels"
        ) from None
    except ValueError as exc:
        raise RpcError(errors.PARSE_ERROR, f"invalid JSON: {exc}") from None
    if isinstance(value, dict | list):
        _check_depth(value)
    return value


def request_id(message: Any) -> Any:
    """The id to answer with even when the rest of the message is bad (null if unusable)."""
    if isinstance(message, dict):
        ident = message.get("id")
        if _valid_id(ident):
            return ident
    return None


def _valid_id(ident: Any) -> bool:
    return ident is None or isinstance(ident, str) or (type(ident) is int)


def parse_request(message: Any) -> Request:
    """Check one JSON-RPC envelope; raise RpcError saying what is wrong and what is allowed."""
    if not isinstance(message, dict):
        raise RpcError(errors.INVALID_REQUEST, "a request must be a JSON object (or a batch array)")
    if message.get("jsonrpc") != "2.0":
        raise RpcError(errors.INVALID_REQUEST, 'a request needs "jsonrpc": "2.0"')
    extra = message.keys() - _ENVELOPE_KEYS
    if extra:
        raise RpcError(
            errors.INVALID_REQUEST,
            f"unknown member(s) {', '.join(heapq.nsmallest(5, extra))}"
            f"{' …' if len(extra) > 5 else ''}; allowed: jsonrpc, method, params, id",
        )
    method = message.get("method")
    if not isinstance(method, str) or not method:
        raise RpcError(errors.INVALID_REQUEST, '"method" must be a non-empty string')
    ident = message.get("id", _NO_ID)
    if ident is not _NO_ID and not _valid_id(ident):
        raise RpcError(errors.INVALID_REQUEST, '"id" must be a string, an integer or null')
    params = message.get("params", {})
    if isinstance(params, list):
        if params:
            raise RpcError(
                errors.INVALID_PARAMS,
                f"{method}: params must be an object of named parameters, not an array",
            )
        params = {}
    elif not isinstance(params, dict):
        raise RpcError(errors.INVALID_REQUEST, '"params" must be an object')
    return Request(method, params, ident)


def encode(message: Any) -> bytes:
    """One message as a line. Lone surrogates become JSON escapes, so output is valid UTF-8."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8", "backslashreplace") + b"\n"


def result(ident: Any, value: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": value}


def error(ident: Any, exc: RpcError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": exc.to_dict()}


def notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}
