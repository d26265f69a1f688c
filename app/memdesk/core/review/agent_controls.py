"""Per-agent controls: the person can pause an agent (it may
neither read nor write memories), make it read-only, or let its own updates replace its older
notes unasked. Kept in the database; looked up from
memory on every request, so a control costs a request nothing."""

from __future__ import annotations

from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import NotAllowed, TooMany
from memdesk.core.memory.proposals import Proposals
from memdesk.core.review.write_budget import Overrun, WriteBudgets
from memdesk.store import Proposal

# UPDATES_FINE: for an agent that writes progress notes (263 "possible update" items in a
# minute otherwise).
MODES = ("active", "paused", "read_only", rules.UPDATES_FINE)
OVERRUN = "overrun"  # the Inbox notice of an agent refused for its write budget


class AgentControls:
    def __init__(self, desk: Desk, proposing: Proposals) -> None:
        self.desk = desk
        self.proposing = proposing
        self._modes: dict[str, str] | None = None
        self._budgets: WriteBudgets | None = None
        desk.forget_when_replaced(self._forget_modes)  # read again after a restore

    def _forget_modes(self) -> None:
        self._modes = None

    def agent_modes(self) -> dict[str, str]:
        """{agent: "paused" | "read_only"} for every agent the person restricted."""
        if self._modes is None:
            rows = self.desk.database.execute_sql("SELECT agent, mode FROM agent_control")
            self._modes = dict(rows.fetchall())
        return dict(self._modes)

    def updates_fine(self, agent: str | None) -> bool:
        """The person let this agent's updates of its own notes replace the older unasked."""
        return agent is not None and self.agent_modes().get(agent) == rules.UPDATES_FINE

    def set_agent_mode(self, agent: str, mode: str, *, actor: Actor = USER) -> dict[str, Any]:
        """Pause an agent, make it read-only, let its updates of its own notes through
        ("updates_fine"), or let it act as any agent again ("active")."""
        rules.check_person(actor, "pause or restrict an agent", field="agent")
        name = validate.name(agent, "agent")
        if not name:
            raise NotAllowed("agent: give the agent's name", field="agent")
        validate.one_of(mode, MODES, "mode")
        with self.desk.write():
            sql = self.desk.database.execute_sql
            if mode == "active":
                sql("DELETE FROM agent_control WHERE agent = ?", (name,))
            else:
                sql(
                    "INSERT INTO agent_control (agent, mode, changed_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (agent) DO UPDATE SET mode = excluded.mode, "
                    "changed_at = excluded.changed_at",
                    (name, mode, clock.now()),
                )
        self._modes = None
        return {"agent": name, "mode": mode}

    def admit(self, actor: Actor, *, writes: bool, memories: int = 1, size: int = 0) -> None:
        """Refuse a paused agent anything, a read-only one any write, and one over its write
        budget (`memories` writes of `size` bytes) this write, saying why."""
        if actor.source != "agent" or not actor.agent:
            return
        mode = self.agent_modes().get(actor.agent)
        if mode == "paused":
            raise NotAllowed(
                f"agent {actor.agent!r} is paused by the person in memdesk (View ▸ Agents…): "
                "it may not read or write memories until resumed"
            )
        if mode == "read_only" and writes:
            raise NotAllowed(
                f"agent {actor.agent!r} is read-only (set by the person in memdesk, View ▸ "
                "Agents…): it may search and read memories but not change them"
            )
        if writes:
            if self._budgets is None:
                self._budgets = WriteBudgets()
            try:
                self._budgets.charge(actor.agent, memories, size)
            except TooMany:
                self._notice_overrun(actor.agent, self._budgets.sharing)
                raise

    def _notice_overrun(self, agent: str, sharing: list[str]) -> None:
        """Tell the person in the Inbox, once while the notice waits, not per refused write."""
        waiting = Proposal.select().where(
            (Proposal.kind == OVERRUN) & (Proposal.agent == agent) & (Proposal.status == "pending")
        )
        if waiting.exists():
            return
        budgets = self._budgets or WriteBudgets()
        with self.desk.write() as pending:
            self.proposing.propose(
                pending,
                agent=agent,
                kind=OVERRUN,
                content=(
                    f"Agent {agent!r} went over its write budget: its writes are refused "
                    "until it slows down."
                    if not sharing
                    else f"Agents together went over the write budget they share, last "
                    f"{agent!r}: their writes are refused until they slow down. Writing this "
                    f"minute ({len(sharing)} names): {', '.join(sharing[:40])}"
                    f"{', …' if len(sharing) > 40 else ''}."
                ),
                why=f"each agent may write {budgets.writes_per_minute:,} memories and "
                f"{budgets.bytes_per_minute // (1024 * 1024)} MiB a minute; a runaway or "
                "hostile agent would otherwise fill the store and this Inbox",
            )

    def over_budget(self) -> list[Overrun]:
        """The agents refused for their write budget since memdesk started, first one first."""
        found = self._budgets.overruns.values() if self._budgets else ()
        return sorted(found, key=lambda o: o.first_at)
