"""Who is writing: the user, an agent (named by its client) or the system."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    source: str  # user | agent | system
    agent: str | None = None
    # An agent host's hooks (holding the person's key), not an agent that took its name: an
    # agent named "claude-code" acted in the person's Claude Code sessions.
    host: bool = False

    @property
    def label(self) -> str:
        return f"agent:{self.agent}" if self.source == "agent" and self.agent else self.source


USER = Actor("user")
SYSTEM = Actor("system")


def agent(name: str | None) -> Actor:
    return Actor("agent", name or None)


def host(name: str) -> Actor:
    """An agent host's hooks, writing as the agent they serve."""
    return Actor("agent", name, host=True)
