"""The client's calls by name, one per JSON-RPC method, so agent code reads
`memory.add(...)` rather than `memory.call("memory.add", ...)`. Names follow MemoryService
where the CLI uses either. No Qt, only the standard library, as for the client itself."""

from __future__ import annotations

from typing import Any


class MethodCalls:
    """Mixin of Client (its `call`): each method is one call of a JSON-RPC method."""

    def ping(self) -> str:
        return self.call("system.ping")

    # -- the session lifecycle -----------------------------------------------------------------

    def session_start(self, session: str, **fields: Any) -> dict[str, Any]:
        return self.call("session.start", session=session, **fields)

    def session_prompt(self, session: str, prompt: str, **options: Any) -> dict[str, Any]:
        return self.call("session.prompt", session=session, prompt=prompt, **options)

    def session_action(self, session: str, tool: str, args: Any = None) -> dict[str, Any]:
        return self.call("session.action", session=session, tool=tool, args=args)

    def observe(self, session: str, tool: str, args: Any = None, result: Any = None) -> dict:
        return self.call("observe", session=session, tool=tool, args=args, result=result)

    def working_memory(self, session: str, **options: Any) -> dict[str, Any]:
        return self.call("working_memory", session=session, **options)

    def session_end(self, session: str, **fields: Any) -> dict[str, Any]:
        return self.call("session.end", session=session, **fields)

    def describe(self) -> dict[str, Any]:
        return self.call("system.describe")

    def add(self, content: str, **fields: Any) -> dict[str, Any]:
        return self.call("memory.add", content=content, **fields)

    def add_many(self, items: list[dict[str, Any]], *, dedup: bool = True) -> list[str]:
        return self.call("memory.add_many", items=items, dedup=dedup)

    def update(self, memory_id: str, **fields: Any) -> dict[str, Any]:
        return self.call("memory.update", id=memory_id, **fields)

    def correct(self, memory_id: str, content: str, **fields: Any) -> dict[str, Any]:
        return self.call("memory.correct", id=memory_id, content=content, **_given(fields))

    def remove(self, memory_id: str, *, reason: str | None = None) -> dict[str, Any]:
        return self.call("memory.remove", id=memory_id, **_given({"reason": reason}))

    def restore(self, memory_id: str, *, reason: str | None = None) -> dict[str, Any]:
        return self.call("memory.restore", id=memory_id, **_given({"reason": reason}))

    def revert(
        self, memory_id: str, version: int, *, expected_version: int | None = None
    ) -> dict[str, Any]:
        params = _given({"expected_version": expected_version})
        return self.call("memory.revert", id=memory_id, version=version, **params)

    def purge(self, memory_id: str) -> None:
        self.call("memory.purge", id=memory_id)

    def empty_trash(self) -> int:
        return self.call("memory.empty_trash")["purged"]

    def get(self, memory_id: str) -> dict[str, Any]:
        return self.call("memory.get", id=memory_id)

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        return self.call("memory.history", id=memory_id)

    def list(self, **filters: Any) -> list[dict[str, Any]]:
        return self.call("memory.list", **_given(filters, keep=("status",)))

    list_memories = list

    def count(self, **filters: Any) -> int:
        return self.call("memory.count", **_given(filters, keep=("status",)))

    def search(self, query: str, *, k: int = 10, **filters: Any) -> dict[str, Any]:
        return self.call("memory.search", query=query, k=k, **_given(filters))

    def link(self, src: str, dst: str, relation: str = "related") -> dict[str, str]:
        return self.call("memory.link", **{"from": src, "to": dst, "relation": relation})

    def unlink(self, src: str, dst: str, relation: str | None = None) -> int:
        params = _given({"from": src, "to": dst, "relation": relation})
        return self.call("memory.unlink", **params)["removed"]

    def identity(self) -> dict[str, Any]:
        return self.call("identity.get")

    def set_identity(self, text: str, *, expected: list[str] | None = None) -> dict[str, Any]:
        return self.call("identity.set", text=text, **_given({"expected": expected}))

    def archive(self, what: str, **fields: Any) -> dict[str, Any]:
        return self.call("archive.add", what=what, **_given(fields))

    def context(self, query: str, **options: Any) -> dict[str, Any]:
        return self.call("context.build", query=query, **_given(options))

    build_context = context

    def stats(self) -> dict[str, Any]:
        return self.call("stats")

    def export(self, format: str = "json", **filters: Any) -> str:
        return self.call("export", format=format, **_given(filters, keep=("status",)))


def _given(params: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Leave out parameters left at None, except those where None means something."""
    return {k: v for k, v in params.items() if v is not None or k in keep}
