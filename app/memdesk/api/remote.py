"""The running memdesk, seen through its socket with the service's method names.

The CLI works on a backend: the MemoryService when it owns the database file, else this
adapter around a `Client` of the memdesk (window or `memdesk serve`) that owns it. Each method
here is one JSON-RPC call; errors come back as `memdesk.core` errors with the server's
message, so the CLI prints them the same way whichever backend it has. No Qt.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, TextIO

from memdesk.api import client as rpc
from memdesk.api import owner
from memdesk.api.protocol import MAX_LINE_BYTES
from memdesk.core import errors as core
from memdesk.core.files import export

# data.type from the server -> the service error it came from (so `.code` survives the trip).
_ERRORS: dict[str, type[core.MemdeskError]] = {
    "invalid": core.ValidationError,
    "not_found": core.NotFound,
    "l0_full": core.IdentityFull,
    "version_conflict": core.VersionConflict,
    "too_large": core.TooLarge,
    "not_allowed": core.NotAllowed,
    "busy": core.Busy,
}
# Room for the request envelope around an imported file's text on one line.
_ENVELOPE_BYTES = 256


def as_service_error(exc: rpc.MemdeskError) -> core.MemdeskError:
    """The service error matching an error answer (or an unreachable server)."""
    data = dict(exc.data)
    type_ = str(data.pop("type", ""))
    kind = _ERRORS.get(type_, core.MemdeskError)
    field = data.pop("field", None)
    error = kind(exc.message, field=field if isinstance(field, str) else None, **data)
    if kind is core.MemdeskError and type_:
        # Kept by name ("unavailable", "outcome_unknown", "disk_full", …): the CLI's exit code
        # follows it (5 for a server that is busy or did not answer, not 2 "usage").
        error.code = type_
    return error


class RemoteService:
    """The MemoryService methods the CLI uses, each forwarded to the running memdesk."""

    def __init__(self, client: rpc.Client) -> None:
        self.client = client

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> RemoteService:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _call(self, method: str, **params: Any) -> Any:
        try:
            return self.client.call(method, **params)
        except rpc.MemdeskError as exc:
            raise as_service_error(exc) from None

    # -- writes ----------------------------------------------------------------------------

    def add(self, content: str, **fields: Any) -> dict[str, Any]:
        return self._call("memory.add", content=content, **_given(fields))

    def update(self, memory_id: str, **fields: Any) -> dict[str, Any]:
        return self._call("memory.update", id=memory_id, **_given(fields))

    def correct(self, memory_id: str, content: str, **fields: Any) -> dict[str, Any]:
        return self._call("memory.correct", id=memory_id, content=content, **_given(fields))

    def remove(self, memory_id: str, *, reason: str | None = None) -> dict[str, Any]:
        return self._call("memory.remove", id=memory_id, **_given({"reason": reason}))

    def restore(self, memory_id: str, *, reason: str | None = None) -> dict[str, Any]:
        return self._call("memory.restore", id=memory_id, **_given({"reason": reason}))

    def revert(
        self, memory_id: str, version: int, *, expected_version: int | None = None
    ) -> dict[str, Any]:
        params = _given({"expected_version": expected_version})
        return self._call("memory.revert", id=memory_id, version=version, **params)

    def purge(self, memory_id: str) -> None:
        self._call("memory.purge", id=memory_id)

    def empty_trash(self) -> int:
        return self._call("memory.empty_trash")["purged"]

    def set_identity(self, text: str, *, expected: list[str] | None = None) -> dict[str, Any]:
        return self._call("identity.set", text=text, **_given({"expected": expected}))

    def plan_import(self, text: str) -> dict[str, Any]:
        return self._call("import", text=_importable(text), dry_run=True)

    def import_json(self, text: str) -> dict[str, Any]:
        return self._call("import", text=_importable(text))

    def rebuild_index(self) -> None:
        self._call("system.check", rebuild=True)

    # -- reads -----------------------------------------------------------------------------

    def get(self, memory_id: str) -> dict[str, Any]:
        return self._call("memory.get", id=memory_id)

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        return self._call("memory.history", id=memory_id)

    def list_memories(self, **filters: Any) -> list[dict[str, Any]]:
        # status=None means "any status" here, as in the service: send it as null.
        return self._call("memory.list", **_given(filters, keep=("status",)))

    def count(self, **filters: Any) -> int:
        return self._call("memory.count", **_given(filters, keep=("status",)))

    def search(self, query: str, **options: Any) -> dict[str, Any]:
        return self._call("memory.search", query=query, **_given(options))

    def identity(self) -> dict[str, Any]:
        return self._call("identity.get")

    def export(self, format: str = "json", **filters: Any) -> str:
        return self._call("export", format=format, **_given(filters, keep=("status",)))

    def export_json_to(self, out: TextIO, **filters: Any) -> int:
        """The JSON export in parts: each a moment of the server's work (asked whole, a 100k
        export held every agent 26 s and ran past the 30 s answer limit, writing nothing)."""
        given = _given(filters, keep=("status",))
        end: dict[str, Any] = {}

        def pages() -> Iterator[list[dict[str, Any]]]:
            after: int | None = 0
            while after is not None:
                part = self._call("export.page", after=after, **given)
                after = part["after"]
                end["links"] = part["links"]
                yield part["memories"]

        return export.write_json(pages(), lambda: end.get("links", []), out)

    def stats(self) -> dict[str, Any]:
        return self._call("stats")

    def check(self) -> list[str]:
        return self._call("system.check")["problems"]

    def session_start(self, session: str, **fields: Any) -> dict[str, Any]:
        return self._call("session.start", session=session, **_given(fields))

    def session_end(self, session: str, **fields: Any) -> dict[str, Any]:
        return self._call("session.end", session=session, **_given(fields))

    def agents(self) -> list[dict[str, Any]]:
        return self._call("agents.list")

    def proposals(self, status: str = "pending") -> list[dict[str, Any]]:
        return self._call("proposals.list", status=status)

    def decide_proposal(self, number: int, accept: bool) -> dict[str, Any]:
        return self._call("proposals.decide", id=number, accept=accept)

    def injections(self, sessions: int = 50) -> list[dict[str, Any]]:
        return self._call("injections", sessions=sessions)

    def inbox(self, status: str = "pending") -> list[dict[str, Any]]:
        return self._call("inbox.list", status=status)

    def accept(
        self,
        keys: list[str],
        content: str | None = None,
        as_shown: dict[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        given = {"keys": keys, "content": content, "as_shown": as_shown}
        return self._call("inbox.accept", **_given(given))

    def reject(
        self,
        keys: list[str],
        reason: str | None = None,
        as_shown: dict[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        given = {"keys": keys, "reason": reason, "as_shown": as_shown}
        return self._call("inbox.reject", **_given(given))

    def reconsider(self, keys: list[str]) -> list[dict[str, Any]]:
        return self._call("inbox.reconsider", keys=keys)

    def find_duplicates(self, project: str | None = None) -> dict[str, Any]:
        return self._call("inbox.find_duplicates", **_given({"project": project}))

    def backup(self) -> dict[str, Any]:
        return self._call("system.backup")

    def backups(self) -> list[dict[str, Any]]:
        return self._call("system.backups")

    def restore_backup(self, name: str) -> dict[str, Any]:
        return self._call("system.restore_backup", name=name)

    def sync_init(self, url: str, **options: Any) -> dict[str, Any]:
        return self._call("sync.init", url=url, **_given(options))

    def sync(self, remote: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        return self._call("sync.run", **_given({"remote": remote}), dry_run=dry_run)

    def sync_remove(self, name: str) -> dict[str, Any]:
        return self._call("sync.remove", name=name)

    def sync_local(self, project: str, local: bool = True) -> dict[str, Any]:
        return self._call("sync.local", project=project, local=local)

    def sync_trust(self, writer: str, unmet: bool = False, trusted: bool = True) -> dict[str, Any]:
        return self._call("sync.trust", writer=writer, unmet=unmet, trusted=trusted)

    def sync_status(self) -> dict[str, Any]:
        return self._call("sync.status")


def _given(params: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Leave out options left at None (the server's defaults apply), except those in keep."""
    return {k: v for k, v in params.items() if v is not None or k in keep}


def _importable(text: str) -> str:
    size = len(json.dumps(text, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    if size + _ENVELOPE_BYTES > MAX_LINE_BYTES:
        raise core.TooLarge(
            f"the file is {size / 2**20:.1f} MiB as a request; the running memdesk accepts at "
            f"most {MAX_LINE_BYTES / 2**20:g} MiB per request. Quit the memdesk window or "
            "`memdesk serve` that owns this database and import again (the CLI then opens "
            "the file directly)",
            field="file",
            limit=MAX_LINE_BYTES,
        )
    return text


def connect(db_path: Any, agent: str = "cli") -> RemoteService | None:
    """The memdesk that owns `db_path`, as the user's own tool; None if none is running."""
    try:
        found = owner.connect_if_running(db_path, agent=agent, role="user")
    except rpc.MemdeskError as exc:  # it answered, but refused the greeting
        raise as_service_error(exc) from None
    return RemoteService(found) if found is not None else None
