"""One entry of the method table: a method's name, what it does, and its parameters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Method:
    """A JSON-RPC method as `system.describe` tells it and the dispatcher checks it."""

    name: str
    summary: str
    params: dict[str, str]
    required: tuple[str, ...] = ()

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.params)

    def describe(self) -> dict[str, object]:
        return {"summary": self.summary, "params": self.params, "required": list(self.required)}
