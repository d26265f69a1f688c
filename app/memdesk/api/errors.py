"""JSON-RPC error codes, and how the service's errors map onto them.

The numbers are public API (documented in docs/api.md); never renumber them.
"""

from __future__ import annotations

from typing import Any

from memdesk.core import MemdeskError

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

NOT_FOUND = -32001
L0_FULL = -32002
VERSION_CONFLICT = -32003
TOO_LARGE = -32004
NOT_ALLOWED = -32005
BUSY = -32006
STORAGE = -32007  # the disk is full or the database is read-only: nothing was written
SYNC = -32008  # git or the sync remote failed (unreachable, refused): git's words say why

# Service error code -> JSON-RPC error code. "invalid" is bad params: the caller's fault.
SERVICE_CODES = {
    "invalid": INVALID_PARAMS,
    "not_found": NOT_FOUND,
    "l0_full": L0_FULL,
    "version_conflict": VERSION_CONFLICT,
    "too_large": TOO_LARGE,
    "not_allowed": NOT_ALLOWED,
    "busy": BUSY,
    "disk_full": STORAGE,
    "read_only": STORAGE,
    "storage_failed": STORAGE,
    "index_broken": STORAGE,
    "sync_failed": SYNC,
}
NAMES = {
    PARSE_ERROR: "parse_error",
    INVALID_REQUEST: "invalid_request",
    METHOD_NOT_FOUND: "method_not_found",
    INVALID_PARAMS: "invalid",
    INTERNAL_ERROR: "internal",
    **{number: name for name, number in SERVICE_CODES.items() if name != "invalid"},
    STORAGE: "storage",
    SYNC: "sync_failed",
}


class RpcError(Exception):
    """An error answered to the caller: a JSON-RPC code, a readable message, optional data.

    `data.type` repeats the code as a stable name (e.g. "not_found"); `data.field` names the
    offending parameter when there is one.
    """

    def __init__(self, code: int, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = {"type": NAMES.get(code, "error"), **data}

    @classmethod
    def from_service(cls, exc: MemdeskError) -> RpcError:
        details = {k: v for k, v in exc.to_dict().items() if k not in ("code", "message")}
        return cls(SERVICE_CODES.get(exc.code, INTERNAL_ERROR), exc.message, **details)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "data": self.data}
