"""The agent session lifecycle (mixed into MemoryService): inject at start, observe tool
calls, keep a working-memory block, and at the end fill the gaps and archive a summary.

Sessions and observations live in their own tables; every observe is committed on its own,
so a crashed agent's work is there for the recovery block of its next start.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from typing import Any

import peewee

from memdesk.core import clock, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.errors import NotAllowed, NotFound, ValidationError
from memdesk.core.events import Change
from memdesk.core.memory import dedup
from memdesk.core.memory.draft import Draft
from memdesk.core.review.inbox import GAPFILL_TAG
from memdesk.core.sessions import (
    action_cues,
    action_rules,
    briefing,
    gapfill,
    session_notes,
    workspace_fit,
)
from memdesk.core.sessions.observe import observe as extract
from memdesk.store import Injection, Memory, Observation, Proposal, Session, time_limit

logger = logging.getLogger(__name__)

WORKING_BUDGET = 2000
PROMOTE_AFTER = 3  # restatements of a private memory before it is proposed for sharing
MAX_MESSAGES = 5000
PROMPT_K, PROMPT_BUDGET = 5, 1200  # per prompt: a few memories, not a page
ACTION_CANDIDATES = 20  # searched before a tool call; those naming its cues are kept


class Sessions:
    """session_start, session_prompt, observe, working_memory, session_end, agents,
    proposals."""

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
    ) -> dict[str, Any]:
        """The text to inject: the identity, the briefing (this project's standing rules and
        facts and the global ones), this task's working memory, and a recovery block when
        this agent's previous session on the task ended without session.end (that session is
        then archived as interrupted). A previous session whose host process (`host_pid`)
        still runs is live, not crashed: it is left alone."""
        sid = _session_id(session)
        name = validate.name(agent, "agent") or actor.agent or "unknown"
        if actor.source == "agent" and name != actor.agent:
            raise NotAllowed(
                f"an agent opens sessions under its own name ({actor.agent}), not {name!r}",
                field="agent",
            )
        project, task = validate.name(project, "project"), validate.name(task, "task")
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
        with self._write():  # type: ignore[attr-defined]
            row = Session.get_or_none(Session.id == sid)
            if row is not None and not _owns(actor, row):
                raise _not_yours(session)
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
                )
            else:
                row.last_seen_at, row.ended_at = now, None
                row.host_pid = host_pid or row.host_pid
                row.save()
        parts = []
        identity = self.identity(actor=actor)["text"]  # type: ignore[attr-defined]
        if identity:
            parts.append(f"## Identity\n{identity}")
        standing = briefing.build(
            row.project,
            actor.agent if actor.source == "agent" else None,
            budget,
            where,
            own=self.own_writers(),  # type: ignore[attr-defined]
        )
        if standing.text:
            parts.append(standing.text)
        crashed = self._crashed_before(row)
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
            self._archive(crashed, [], None, interrupted=True)
            recovered = crashed.id
        working = self._working_block(row, WORKING_BUDGET)
        if working:
            parts.append(working)
        if crashed is not None and recovery:
            parts.append(recovery)
        text = "<memory-context>\n" + "\n\n".join(parts) + "\n</memory-context>" if parts else ""
        self._given(row, "start", standing.ids, len(text))
        return {
            "session": sid,
            "text": text,
            "recovered": recovered,
            "project": row.project,
            "briefed": standing.ids,
            "more": standing.more,
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
        row = self._session(session, actor)
        query = validate.query(prompt, "prompt")
        self._note(row, "prompt", "prompt", 5, _first_line(query), None, False)
        found = self.build_context(  # type: ignore[attr-defined]
            query,
            project=row.project,
            k=k,
            budget_chars=budget_chars,
            actor=actor,
            identity=False,
            given=self._given_ids(row),
        )
        if found["ids"]:
            self._given(row, "prompt", found["ids"], found["size"])
        return found

    def session_action(
        self, session: str, tool: str, args: Any = None, *, actor: Actor = USER
    ) -> dict[str, Any]:
        """Before a tool call: the standing rules of the session's project (and global ones)
        that name what the call runs or touches, the ones forbidding it first, and `deny`,
        the reason to refuse the call when one of the person's own rules forbids it (the
        hook uses it only if the person chose so). Logged as an "action" injection."""
        row = self._session(session, actor)
        tool = validate.text(tool, "tool", 200)
        cues = action_cues.of_call(tool, args, row.cwd)
        if not cues:
            return {"text": "", "ids": [], "deny": None}
        found = self.search(  # type: ignore[attr-defined]
            " ".join([*cues.programs, *sorted(cues.words), *sorted(cues.added)]),
            k=ACTION_CANDIDATES,
            layers=["L1"],
            project=row.project,
            with_global=True,
            record=False,
            actor=actor,
        )
        applied = action_rules.applying(found["hits"], cues)
        own = self.own_writers()  # type: ignore[attr-defined]
        text = action_rules.block(applied, action_rules.describe(cues), own)
        ids = [rule.id for rule in applied]
        if ids:
            self._given(row, "action", ids, len(text))
        return {"text": text, "ids": ids, "deny": action_rules.denial(applied)}

    def observe(
        self, session: str, tool: str, args: Any = None, result: Any = None, *, actor: Actor = USER
    ) -> dict:
        """Read one tool call into an observation and keep it (committed at once)."""
        row = self._session(session, actor)
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
        text = self._working_block(self._session(session, actor), budget)
        return {"text": text, "size": len(text)}

    def session_end(
        self,
        session: str,
        *,
        actor: Actor = USER,
        transcript: Any = None,
        summary: str | None = None,
        from_host: bool = True,
    ) -> dict[str, Any]:
        """Fill the gaps from the user's messages and file the L2 summary. Says what it
        stored, proposed and skipped (with why). Ending the same transcript again adds
        nothing: known memories and earlier proposals are skipped, an unchanged summary too.
        A transcript an agent sent itself (not `from_host`, its host's hook) is the agent's
        account of what the user said: everything found in it is proposed, nothing stored."""
        row = self._session(session, actor)
        messages = _messages(transcript)
        if summary is not None:
            summary = validate.text(summary, "summary")
        stored, proposed, skipped = [], [], []
        for finding in gapfill.find(messages):
            time_limit.checkpoint()  # each finding filed so far stays; ending again goes on
            outcome = self._file_finding(row, finding, store=from_host)
            {"stored": stored, "proposed": proposed, "skipped": skipped}[outcome[0]].append(
                outcome[1]
            )
        archived = self._archive(row, messages, summary, interrupted=False)
        return {
            "session": row.id,
            "stored": stored,
            "proposed": proposed,
            "skipped": skipped,
            "summary": archived,
        }

    def agents(self, *, actor: Actor = USER) -> list[dict[str, Any]]:
        """Every agent that opened a session: its last session, last seen, and a one-liner
        (that session's summary, or its last prompt). An agent is shown only its own."""
        out = []
        modes = self.agent_modes()  # type: ignore[attr-defined]
        names = {name for (name,) in Session.select(Session.agent).distinct().tuples()}
        names |= set(modes)
        if actor.source == "agent":
            names &= {actor.agent}
        for name in names:
            last = (
                Session.select()
                .where(Session.agent == name)
                .order_by(Session.last_seen_at.desc())
                .first()
            )
            out.append(
                {
                    "agent": name,
                    "mode": modes.get(name, "active"),
                    "last_seen": last.last_seen_at if last else "",
                    "session": last.id if last else "",
                    "project": last.project if last else None,
                    "task": last.task if last else None,
                    "open": last is not None and last.ended_at is None,
                    "last": self._one_liner(last) if last else "",
                }
            )
        return sorted(out, key=lambda a: a["last_seen"], reverse=True)

    # -- inside --------------------------------------------------------------------------------

    def _consider_sharing(self, row: Memory, actor: Actor, pending: list[Change]) -> None:
        """A private memory that proves itself (restated 3 times, or written on its own by a
        second agent) is proposed for sharing with every agent; the person decides."""
        second = actor.source == "agent" and actor.agent != row.agent
        if not (second or row.reinforce_count >= PROMOTE_AFTER):
            return
        if Proposal.get_or_none((Proposal.kind == "promote") & (Proposal.memory == row.uuid)):
            return  # proposed once: pending, or already decided by the person
        why = (
            f"also written by {actor.agent}"
            if second
            else f"restated {row.reinforce_count} times by {row.agent}"
        )
        self._propose(  # type: ignore[attr-defined]
            pending,
            agent=row.agent,
            kind="promote",
            content=row.content,
            why=f"share with every agent ({why})",
            memory=row.uuid,
            support=2 if second else row.reinforce_count,
        )

    def _given(self, row: Session, event: str, ids: list[str], chars: int) -> None:
        with self._write():  # type: ignore[attr-defined]
            at = clock.now()
            given = Injection.create(
                session=row.id, at=at, event=event, memories=json.dumps(ids), chars=chars
            )
            self.database.execute_sql(  # type: ignore[attr-defined]
                "INSERT INTO injected_memory (injection_id, session_id, memory, at) "
                "SELECT ?, ?, value, ? FROM json_each(?)",
                (given.id, row.id, at, json.dumps(ids)),
            )

    def _given_ids(self, row: Session) -> set[str]:
        """Every memory this session was given so far (briefing and earlier prompts)."""
        given: set[str] = set()
        for (memories,) in (
            Injection.select(Injection.memories).where(Injection.session == row.id).tuples()
        ):
            given.update(json.loads(memories))
        return given

    def _session(self, session: str, actor: Actor = USER) -> Session:
        row = Session.get_or_none(Session.id == _session_id(session))
        if row is None or not _owns(actor, row):
            raise _not_yours(session)
        return row

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
        with self._write():  # type: ignore[attr-defined]
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
        """Rebuilt from every observation of the open sessions on this task (this one
        included), so it survives a compaction or a restart of the agent."""
        sessions = [row.id]
        if row.task:
            sessions += [
                s.id
                for s in Session.select(Session.id).where(
                    (Session.task == row.task) & Session.ended_at.is_null() & (Session.id != row.id)
                )
            ]
        seen = list(
            Observation.select().where(Observation.session.in_(sessions)).order_by(Observation.id)
        )
        if not seen:
            return ""
        notes = session_notes.read(seen, row.task, row.cwd)
        return session_notes.block("Working memory", notes, budget)

    def _crashed_before(self, row: Session) -> Session | None:
        """This agent's latest earlier session on the same task (or folder) that never ended
        and left work behind. (Two sessions of one agent on one task at once would read as a
        crash; the other one's later calls still land, and its own end files its summary.)"""
        same = (Session.task == row.task) if row.task else (Session.cwd == row.cwd)
        worked = peewee.fn.EXISTS(Observation.select().where(Observation.session == Session.id))
        candidates = (
            Session.select()
            .where(
                (Session.agent == row.agent)
                & same
                & (Session.id != row.id)
                & Session.ended_at.is_null()
                & (Session.started_at <= row.started_at)
                & worked
            )
            .order_by(Session.last_seen_at.desc())
            .limit(20)
        )
        return next((s for s in candidates if not _host_alive(s, row)), None)

    def _archive(
        self,
        row: Session,
        messages: Sequence[dict[str, str]],
        what: str | None,
        *,
        interrupted: bool,
    ) -> dict[str, Any] | None:
        seen = list(row.observations.order_by(Observation.id))
        notes = session_notes.read(seen, row.task, row.cwd)
        if not seen and not messages and what is None:
            self._close(row, None)
            return None
        parts = session_notes.summary_parts(notes, messages, what)
        if interrupted:
            parts["what"] = "Interrupted (no session end): " + parts["what"]
        writer = Actor("system", row.agent)
        existing = Memory.get_or_none(Memory.uuid == row.summary) if row.summary else None
        if existing is not None:
            from memdesk.core.sessions import archive

            text = archive.render_summary(**parts)
            if existing.content == text:
                self._close(row, existing.uuid)
                return {"id": existing.uuid, "unchanged": True}
            memory = self.update(existing.uuid, content=text, actor=writer)  # type: ignore[attr-defined]
        else:
            memory = self.archive_session(  # type: ignore[attr-defined]
                **parts, project=row.project, task=row.task, actor=writer
            )
        self._close(row, memory["id"])
        return {"id": memory["id"], "content": memory["content"]}

    def _close(self, row: Session, summary: str | None) -> None:
        with self._write():  # type: ignore[attr-defined]
            row.ended_at = clock.now()
            row.summary = summary or row.summary
            row.save()

    def _file_finding(
        self, row: Session, finding: gapfill.Finding, *, store: bool
    ) -> tuple[str, dict[str, Any]]:
        said = {"content": finding.content, "sentence": finding.sentence}
        why = f"{finding.pattern} ({finding.confidence}): {finding.sentence}"
        if finding.confidence == gapfill.LOW:
            return "skipped", {**said, "why": "too little said to stand on its own"}
        # What the user said of themself holds everywhere; what they said of the work, here.
        project = row.project if finding.scope == gapfill.PROJECT else None
        draft = Draft.parse({"content": finding.content, "kind": finding.kind, "project": project})
        known = self._near_duplicate(draft)  # type: ignore[attr-defined]
        # Alike but another number, name or negation is news ("Postgres 16", not 14): it is
        # filed, and linked to the older memory as a possible update by `add`.
        if known is not None and dedup.restates(known.content, draft.content):
            return "skipped", {**said, "why": f"already known as {known.uuid}"}
        earlier = Proposal.get_or_none(Proposal.content == finding.content)
        if earlier is not None:
            if earlier.status == "pending" and earlier.session_id != row.id:
                self._set_proposal(earlier, support=earlier.support + 1)  # type: ignore[attr-defined]
            return "skipped", {**said, "why": f"already {earlier.status} (proposal {earlier.id})"}

        def file() -> tuple[str | None, Proposal]:
            memory_id = None
            if finding.confidence == gapfill.HIGH and store:
                memory = self.add(  # type: ignore[attr-defined]
                    finding.content,
                    kind=finding.kind,
                    tags=[GAPFILL_TAG],
                    project=project,
                    actor=Actor("system", row.agent),
                )
                memory_id = memory["id"]
            # Kept for the stored ones too: the provenance (session and sentence) of each.
            with self._write() as pending:  # type: ignore[attr-defined]
                proposal = self._propose(  # type: ignore[attr-defined]
                    pending,
                    session_id=row.id,
                    agent=row.agent,
                    kind=finding.kind,
                    content=finding.content,
                    why=why,
                    status="accepted" if memory_id else "pending",
                    memory=memory_id,
                )
            return memory_id, proposal

        memory_id, proposal = self.record(file)[0]  # type: ignore[attr-defined]
        if memory_id:
            return "stored", {**said, "id": memory_id}
        return "proposed", {**said, "proposal": proposal.id}

    def _one_liner(self, row: Session) -> str:
        if row.summary:
            memory = Memory.get_or_none(Memory.uuid == row.summary)
            if memory is not None:
                return _first_line(memory.content)
        last = (
            row.observations.where(Observation.kind == "prompt").order_by(Observation.id.desc())
        ).first()
        return last.text if last else ""


def _host_alive(other: Session, row: Session) -> bool:
    """Whether `other` is still running in another host process (a second agent window in the
    same folder): its host is known, is not this session's host, and is alive."""
    pid = other.host_pid
    if pid is None or pid == row.host_pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else: not ours to call dead
    return True


def _owns(actor: Actor, row: Session) -> bool:
    """An agent acts only on its own sessions (the person and memdesk itself on any)."""
    return actor.source != "agent" or row.agent == actor.agent


def _not_yours(session: str) -> NotFound:
    # The same answer whether the session exists or is another agent's: ids are not revealed.
    return NotFound(f"no session {session!r} of yours; call session.start first", field="session")


def _session_id(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ValidationError(
            "session must be the host's session id (text, 1..200 characters)", field="session"
        )
    return validate.text(value.strip(), "session")


def _messages(transcript: Any) -> list[dict[str, str]]:
    """A transcript as [{role, content}] (user, assistant); anything else is refused."""
    if transcript is None:
        return []
    if not isinstance(transcript, list) or len(transcript) > MAX_MESSAGES:
        raise ValidationError(
            f"transcript must be a list of at most {MAX_MESSAGES} {{role, content}} messages",
            field="transcript",
        )
    out = []
    for n, message in enumerate(transcript):
        if (
            not isinstance(message, dict)
            or message.get("role") not in ("user", "assistant", "system", "tool")
            or not isinstance(message.get("content"), str)
        ):
            raise ValidationError(
                f"transcript[{n}] must be {{role: user|assistant, content: text}}",
                field="transcript",
            )
        out.append({"role": message["role"], "content": message["content"]})
    return out


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= 160 else line[:159] + "…"
