"""The agent session lifecycle: inject at start, before each prompt and action, observe tool
calls, keep a working-memory block (the end of a session: ending.py).

Sessions and observations live in their own tables; every observe is committed on its own,
so a crashed agent's work is there for the recovery block of its next start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from memdesk.core import clock, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.authorship import Authorship
from memdesk.core.desk import Desk
from memdesk.core.errors import NotAllowed, ValidationError
from memdesk.core.memory import labels
from memdesk.core.memory.identity import Identity
from memdesk.core.review.agent_controls import AgentControls
from memdesk.core.search.recall import Recall
from memdesk.core.sessions import (
    action_cues,
    action_rules,
    briefing,
    context,
    injected,
    quoting,
    session_notes,
    waiting,
    workspace_fit,
)
from memdesk.core.sessions.ending import Endings
from memdesk.core.sessions.observe import observe as extract
from memdesk.core.sessions.recovery import crashed_before
from memdesk.core.sessions.session_rows import (
    find_session,
    not_yours,
    owns,
    same_opener,
    session_id,
)
from memdesk.store import Memory, Observation, Session

logger = logging.getLogger(__name__)

WORKING_BUDGET = 2000
PROMPT_K, PROMPT_BUDGET = 5, 1200  # per prompt: a few memories, not a page
ACTION_CANDIDATES = 20  # searched before a tool call; those naming its cues are kept


class Sessions:
    """session_start, session_prompt, session_action, observe, working_memory,
    build_context, agents (the end of a session: ending.py)."""

    def __init__(
        self,
        desk: Desk,
        recall: Recall,
        identity: Identity,
        controls: AgentControls,
        endings: Endings,
        authorship: Callable[[], Authorship],
    ) -> None:
        self.desk = desk
        self.recall = recall
        self.identity = identity
        self.controls = controls
        self.endings = endings  # a crashed session is archived at the agent's next start
        # Whose synced memories are the person's own words (sync knows).
        self.authorship = authorship

    def build_context(self, query: str, **options: Any) -> dict[str, Any]:
        """The prompt block for an agent; see `memdesk.core.sessions.context.build_context`."""
        return context.build_context(
            self.identity, self.recall, self.authorship(), query, **options
        )

    def session_start(
        self,
        session: str,
        *,
        actor: Actor = USER,
        agent: str | None = None,
        project: str | None = None,
        task: str | None = None,
        cwd: str | None = None,
        host_pid: int | None = None,
        briefing_chars: int = briefing.DEFAULT_BUDGET,
        signals: Sequence[str] | None = None,
        for_person: bool = False,
        resumed: bool = False,
    ) -> dict[str, Any]:
        """The text to inject: the identity, the briefing (this project's standing rules and
        facts and the global ones), this task's working memory, and a recovery block when
        this agent's previous session on the task ended without session.end (that session is
        then archived as interrupted). A previous session whose host process (`host_pid`)
        still runs is live, not crashed: it is left alone. `for_person` (a host's hook, the
        person's tools): also `waiting`, what they said last time that waits for their word,
        told when a session opens, not when it resumes. `resumed` (the host resumed its
        conversation, whose context holds what this session was given): only what is new."""
        sid = session_id(session)
        name = validate.agent_name(agent, "agent") or actor.agent or "unknown"
        if actor.source == "agent" and name != actor.agent:
            raise NotAllowed(
                f"an agent opens sessions under its own name ({actor.agent}), not {name!r}",
                field="agent",
            )
        project, task = validate.name(project, "project"), validate.name(task, "task")
        labels.check(actor, {"project": project, "task": task})  # named on what it files
        cwd = None if cwd is None else validate.text(cwd, "cwd", 4096)
        if host_pid is not None:
            host_pid = validate.integer(host_pid, "host_pid", 1, 2**31 - 1)
        budget = validate.integer(briefing_chars, "briefing_chars", 0, briefing.MAX_BUDGET)
        where = workspace_fit.usable(
            validate.string_list(
                signals or [],
                "signals",
                workspace_fit.MAX_SIGNALS,
                workspace_fit.MAX_SIGNAL_CHARS,
            )
        )
        now = clock.now()
        with self.desk.write():
            row = Session.get_or_none(Session.id == sid)
            if row is not None and not owns(actor, row):
                raise not_yours(session)
            opened = row is None
            if row is None:
                row = Session.create(
                    id=sid,
                    agent=name,
                    project=project,
                    task=task,
                    cwd=cwd,
                    started_at=now,
                    last_seen_at=now,
                    host_pid=host_pid,
                    by_host=actor.host,
                )
            else:
                row.last_seen_at, row.ended_at = now, None
                row.host_pid = host_pid or row.host_pid
                row.save()
        # A resumed conversation holds its briefing already: given again, every rule was in
        # it twice, with the working memory's last prompt word for word (a tryout, stop 86).
        resumed = resumed is True and not opened
        given = injected.given_ids(row) if resumed else set()
        again = not (resumed and injected.was_briefed(row))
        parts = []
        identity = self.identity.identity(actor=actor)["text"] if again else ""
        if identity:
            parts.append(f"## Identity\n{identity}")
        standing = briefing.build(
            row.project,
            actor.agent if actor.source == "agent" else None,
            budget,
            where,
            own=self.authorship(),
            given=given,
        )
        if standing.text:
            parts.append(standing.text)
        crashed = crashed_before(row)
        recovered = None
        if crashed is not None:
            notes = session_notes.read(list(crashed.observations), crashed.task, crashed.cwd)
            recovery = session_notes.block(
                f"Recovered: your previous session ({crashed.id[:8]}, last seen "
                f"{crashed.last_seen_at[:16].replace('T', ' ')} UTC) ended without a close",
                notes,
                WORKING_BUDGET,
            )
            # Archived (and so closed) first: its work is in the recovery block, not twice.
            self.endings.archive(crashed, [], None, interrupted=True)
            recovered = crashed.id
        working = self._working_block(row, WORKING_BUDGET) if again else ""
        if working:
            parts.append(working)
        if crashed is not None and recovery:
            parts.append(recovery)
        text = quoting.block("\n\n".join(parts) + "\n") if parts else ""
        injected.record(self.desk, actor, row, "start", standing.ids, len(text))
        return {
            "session": sid,
            "text": text,
            "recovered": recovered,
            "project": row.project,
            "briefed": standing.ids,
            "more": standing.more,
            "waiting": waiting.since_last_time(row) if for_person and opened else None,
        }

    def session_prompt(
        self,
        session: str,
        prompt: str,
        *,
        actor: Actor = USER,
        k: int = PROMPT_K,
        budget_chars: int = PROMPT_BUDGET,
    ) -> dict[str, Any]:
        """The relevant knowledge for one prompt, of this session's project or of none, leaving
        out the identity and whatever this session was already given; logged against the
        session so its working memory knows what was asked."""
        row = find_session(session, actor)
        query = validate.query(prompt, "prompt")
        self._note(row, "prompt", "prompt", 5, _first_line(query), None, False)
        found = self.build_context(
            query,
            project=row.project,
            k=k,
            budget_chars=budget_chars,
            actor=actor,
            identity=False,
            given=injected.given_ids(row),
            sessions_project=True,
        )
        if found["ids"]:
            injected.record(self.desk, actor, row, "prompt", found["ids"], found["size"])
        return found

    def session_action(
        self, session: str, tool: str, args: Any = None, *, actor: Actor = USER
    ) -> dict[str, Any]:
        """Before a tool call: the standing rules of the session's project (and global ones)
        that name what the call runs or touches, the ones forbidding it first, and `deny`,
        the reason to refuse the call when one of the person's own rules forbids it (the
        hook uses it only if the person chose so). Logged as an "action" injection."""
        row = find_session(session, actor)
        tool = validate.text(tool, "tool", 200)
        cues = action_cues.of_call(tool, args, row.cwd)
        if not cues:
            return {"text": "", "ids": [], "deny": None}
        query = " ".join([*cues.programs, *sorted(cues.words), *sorted(cues.added)])

        def candidates(**only: Any) -> list[dict[str, Any]]:
            return self.recall.search(
                query,
                k=ACTION_CANDIDATES,
                layers=["L1"],
                project=row.project,
                with_global=True,
                only_global=True,  # a session in no project: the rules of none, not of all
                record=False,
                actor=actor,
                **only,
            )["hits"]

        # The person's words are searched apart: agents' notes that repeat the call's words
        # would otherwise take every candidate's place.
        hits = candidates(source=["user", "system"])
        seen = {hit["id"] for hit in hits}
        hits += [hit for hit in candidates() if hit["id"] not in seen]
        applied = action_rules.applying(hits, cues)
        own = self.authorship()
        deny = action_rules.denial(applied, own)
        # A reminder the session had since its context began is not repeated (one rule came
        # with a Bash call, a Write and an Edit: three times in a session, beside the
        # briefing); a rule that forbids this very call always is.
        reminded = injected.reminded(row)
        applied = [rule for rule in applied if rule.forbids or rule.id not in reminded]
        text = action_rules.block(applied, action_rules.describe(cues), own)
        ids = [rule.id for rule in applied]
        if ids:
            injected.record(self.desk, actor, row, "action", ids, len(text))
        if cues.unread:
            # padding put "git push --force" past what was read, and past the rule
            text = "\n".join(t for t in (text, f"({action_rules.UNREAD}.)") if t)
            deny = deny or action_rules.UNREAD
        return {"text": text, "ids": ids, "deny": deny}

    def observe(
        self, session: str, tool: str, args: Any = None, result: Any = None, *, actor: Actor = USER
    ) -> dict:
        """Read one tool call into an observation and keep it (committed at once)."""
        row = find_session(session, actor)
        if not isinstance(tool, str) or not tool.strip() or len(tool) > 200:
            raise ValidationError("tool must be the tool's name (1..200 characters)", field="tool")
        validate.text(tool, "tool")
        seen = extract(tool, args, result)
        self._note(row, tool.strip(), seen.kind, seen.importance, seen.text, seen.path, seen.failed)
        return {"kind": seen.kind, "importance": seen.importance, "text": seen.text}

    def working_memory(
        self, session: str, budget_chars: int = WORKING_BUDGET, *, actor: Actor = USER
    ) -> dict[str, Any]:
        budget = validate.integer(budget_chars, "budget_chars", 100, 100_000)
        text = self._working_block(find_session(session, actor), budget)
        return {"text": text, "size": len(text)}

    def agents(self, *, actor: Actor = USER) -> list[dict[str, Any]]:
        """Every agent that opened a session or wrote a memory: its last session, last seen,
        and a one-liner (that session's summary, or its last prompt). An agent is shown only
        its own."""
        out = []
        modes = self.controls.agent_modes()
        names = {name for (name,) in Session.select(Session.agent).distinct().tuples()}
        # agents that only write (over MCP or the socket) open no session: the roster left
        # them out, and so did the person's "pause every agent"
        wrote = dict(self.desk.database.execute_sql(_WRITERS).fetchall())
        names |= set(modes) | set(wrote)
        if actor.source == "agent":
            names &= {actor.agent}
        for name in names:
            theirs = Session.agent == name
            if actor.source == "agent":  # not the sessions the host's hooks opened
                theirs &= Session.by_host == actor.host
            last = Session.select().where(theirs).order_by(Session.last_seen_at.desc()).first()
            out.append(
                {
                    "agent": name,
                    "mode": modes.get(name, "active"),
                    "last_seen": last.last_seen_at if last else wrote.get(name, ""),
                    "session": last.id if last else "",
                    "project": last.project if last else None,
                    "task": last.task if last else None,
                    "open": last is not None and last.ended_at is None,
                    "last": self._one_liner(last) if last else _NO_SESSION if name in wrote else "",
                }
            )
        return sorted(out, key=lambda a: a["last_seen"], reverse=True)

    # -- inside --------------------------------------------------------------------------------

    def _note(
        self,
        row: Session,
        tool: str,
        kind: str,
        importance: int,
        text: str,
        path: str | None,
        failed: bool,
    ) -> None:
        now = clock.now()
        with self.desk.write():
            Observation.create(
                session=row.id,
                at=now,
                tool=tool,
                kind=kind,
                importance=importance,
                text=text,
                path=path,
                failed=failed,
            )
            Session.update(last_seen_at=now).where(Session.id == row.id).execute()

    def _working_block(self, row: Session, budget: int) -> str:
        """Rebuilt from every observation of this agent's open sessions on this task in this
        project (this one included), so it survives a compaction or a restart of the agent.
        Another agent's, or another project's task of the same name, gave a session its
        commands, their errors and its plan, unquoted and unnamed."""
        sessions = [row.id]
        if row.task:
            sessions += [
                s.id
                for s in Session.select(Session.id).where(
                    (Session.task == row.task)
                    & same_opener(row)
                    & (
                        Session.project.is_null()
                        if row.project is None
                        else Session.project == row.project
                    )
                    & Session.ended_at.is_null()
                    & (Session.id != row.id)
                )
            ]
        seen = list(
            Observation.select().where(Observation.session.in_(sessions)).order_by(Observation.id)
        )
        if not seen:
            return ""
        notes = session_notes.read(seen, row.task, row.cwd)
        return session_notes.block("Working memory", notes, budget)

    def _one_liner(self, row: Session) -> str:
        if row.summary:
            memory = Memory.get_or_none(Memory.uuid == row.summary)
            if memory is not None:
                return _first_line(memory.content)
        last = (
            row.observations.where(Observation.kind == "prompt").order_by(Observation.id.desc())
        ).first()
        return last.text if last else ""


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= 160 else line[:159] + "…"


# Each agent that wrote memories, and when it last did (a scan: 0.3 s at 1M memories)
# When each agent last wrote a memory: by its creation, not its last change, which the person's
# edit or undo makes too (undoing an Inbox accept showed the agent "seen" at that moment).
_WRITERS = (
    "SELECT agent, MAX(created_at) FROM memory WHERE source = 'agent' AND agent IS NOT NULL "
    "GROUP BY agent"
)
_NO_SESSION = "wrote memories outside any session (over MCP or the socket)"
