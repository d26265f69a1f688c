"""Who is writing: the user, an agent (named by its client) or the system."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    source: str  # user | agent | system
    agent: str | None = None

    @property
    def label(self) -> str:
        return f"agent:{self.agent}" if self.source == "agent" and self.agent else self.source


USER = Actor("user")
SYSTEM = Actor("system")


def agent(name: str | None) -> Actor:
    return Actor("agent", name or None)
