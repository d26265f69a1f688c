"""Errors the service raises. Each carries a stable `code` that the API maps to JSON-RPC."""

from __future__ import annotations

from typing import Any


class MemdeskError(Exception):
    code = "error"

    def __init__(self, message: str, *, field: str | None = None, **data: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            out["field"] = self.field
        out.update(self.data)
        return out


class ValidationError(MemdeskError):
    code = "invalid"


class NotFound(MemdeskError):
    code = "not_found"


class IdentityFull(MemdeskError):
    code = "l0_full"


class VersionConflict(MemdeskError):
    code = "version_conflict"


class TooLarge(MemdeskError):
    code = "too_large"


class NotAllowed(MemdeskError):
    code = "not_allowed"


class Busy(MemdeskError):
    code = "busy"


class TooMany(Busy):
    """An agent went over its write budget: retry later (`retry_after` seconds)."""


class TooSlow(Busy):
    """A request ran past its time limit and was stopped; what it was writing was rolled back."""


class DiskFull(MemdeskError):
    """The disk holding the database is full: the write was not made; reads still work."""

    code = "disk_full"


class ReadOnly(MemdeskError):
    """The database file (or its folder) cannot be written: reads work, writes are refused."""

    code = "read_only"


class StorageFailed(MemdeskError):
    """A file memdesk writes beside the database (a backup) could not be written."""

    code = "storage_failed"


class IndexBroken(MemdeskError):
    """SQLite will not read the search index (a damaged or crafted file): nothing changed."""

    code = "index_broken"


def broken_index(exc: BaseException) -> IndexBroken | None:
    """What to tell for SQLite's refusal to read the search index; None for any other error.
    Left alone, such a refusal reached the person as a traceback and agents as an internal
    error, though `memdesk check --rebuild` mends it."""
    why = str(exc)
    if not any(sign in why for sign in ("fts5", "memory_fts", "vtable constructor failed")):
        return None
    return IndexBroken(
        f"the search index is damaged ({why}); nothing was changed. "
        "`memdesk check --rebuild` makes it again from the memories"
    )
