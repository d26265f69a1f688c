"""The end of an agent's session: what the user stated, found in the transcript, is stored
or proposed (sessions/gapfill.py finds it), and a summary of the work is filed in the L2
archive, once, however often the end is sent."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from memdesk.core import clock, validate
from memdesk.core.actor import SYSTEM, USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import ValidationError
from memdesk.core.memory import dedup, labels
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.edits import Edits
from memdesk.core.memory.proposals import AGENTS_ACCOUNT, Proposals
from memdesk.core.memory.undo import Undo
from memdesk.core.memory.writes import Writes
from memdesk.core.review.inbox import GAPFILL_TAG
from memdesk.core.sessions import archive, session_notes
from memdesk.core.sessions.finding import PROJECT, Finding
from memdesk.core.sessions.pattern_judges import HIGH, LOW
from memdesk.core.sessions.session_rows import find_session
from memdesk.store import Memory, MemoryVersion, Observation, Proposal, Session, time_limit

MAX_MESSAGES = 5000
MAX_MESSAGE_CHARS = 4000  # as a host's hook sends a user's message (api/transcripts.py)
# What an agent's own transcript is read for at one session end: its newest messages, as
# many characters of them as a long working session holds, and at most this many statements
# (filed or not). A person states a handful of lasting things in a session; an agent's 5,000
# "I prefer …" lines ran every session end to the time limit, and so did 1,000 lines the
# Inbox already had, each read and set aside: the agents' thread served no other agent
# meanwhile, and ending again at once held them again. (A host's transcript is read whole.)
MAX_AGENT_MESSAGES = 1000
MAX_AGENT_CHARS = 20_000
MAX_AGENT_FINDINGS = 50


def hearing() -> ModuleType:
    """What reads a session's statements (`gapfill`). Its patterns take ~0.6 s to compile,
    so it is imported when first needed, not by every `memdesk` command that opens the
    service; a serving service warms it up (`MemoryService.serving`)."""
    from memdesk.core.sessions import gapfill

    return gapfill


class Endings:
    """session_end and archive_session."""

    def __init__(
        self, desk: Desk, writes: Writes, edits: Edits, proposing: Proposals, undo: Undo
    ) -> None:
        self.desk = desk
        self.writes = writes
        self.edits = edits
        self.proposing = proposing
        self.undo = undo

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
        row = find_session(session, actor)
        messages = _messages(transcript)
        agent = None if from_host else actor
        if agent is not None:
            messages = _newest(messages[-MAX_AGENT_MESSAGES:], MAX_AGENT_CHARS)
        if summary is not None:
            summary = validate.text(summary, "summary")
        # The summary first: a session whose statements outlast the request's time limit
        # (400 stated facts) kept most of them and lost its summary.
        archived = self.archive(row, messages, summary, interrupted=False, by=agent)
        stored, proposed, skipped = [], [], []
        if agent is not None and _waiting_from(agent) >= PENDING_PER_AGENT:
            messages = []  # nothing it says would be filed: not read at all
            skipped.append({"why": _FULL.format(PENDING_PER_AGENT)})
        # extraction is Python, not SQL: it stops at the request's time limit by itself
        for finding in hearing().find(messages, each=time_limit.checkpoint):
            time_limit.checkpoint()  # each finding filed so far stays; ending again goes on
            if agent is not None and len(stored + proposed + skipped) == MAX_AGENT_FINDINGS:
                skipped.append(
                    {
                        "content": finding.content,
                        "sentence": finding.sentence,
                        "why": f"an agent's own transcript is read for at most "
                        f"{MAX_AGENT_FINDINGS} statements at one session end; the rest of "
                        "it was not read",
                    }
                )
                break
            try:
                outcome = self._file_finding(row, finding, agent=agent)
            except ValidationError as exc:
                # what memdesk's own reading got wrong is left out with why: the rest of the
                # session is still filed (a finding of a kind no memory has failed the whole
                # hook, and every statement of that session was lost)
                said = {"content": finding.content, "sentence": finding.sentence}
                outcome = "skipped", {**said, "why": f"not filed: {exc}"}
            {"stored": stored, "proposed": proposed, "skipped": skipped}[outcome[0]].append(
                outcome[1]
            )
        return {
            "session": row.id,
            "stored": stored,
            "proposed": proposed,
            "skipped": skipped,
            "summary": archived,
        }

    def archive_session(
        self,
        *,
        what: str,
        decisions: Sequence[str] | None = None,
        files: Sequence[str] | None = None,
        unfinished: Sequence[str] | None = None,
        commits: Sequence[str] | None = None,
        project: str | None = None,
        task: str | None = None,
        actor: Actor = SYSTEM,
    ) -> dict[str, Any]:
        """File the structured summary of a finished (or crashed) session in the L2 archive,
        as its writer's: an agent's summary filed as memdesk's ("system", as what a session
        end heard the person say) was searched and exported with the trust of the person's
        words (red team, stop 70)."""
        labels.check(actor, {"project": project, "task": task})
        content = archive.render_summary(what, decisions, files, unfinished, commits)
        fields = {"layer": "L2", "kind": "summary", "project": project, "task": task}
        draft = Draft.parse({"content": content, **fields, "tags": ["session"]})
        with self.desk.write() as pending:
            return self.writes.add_draft(draft, actor, pending, dedup=False, archived=True)

    def archive(
        self,
        row: Session,
        messages: Sequence[dict[str, str]],
        what: str | None,
        *,
        interrupted: bool,
        by: Actor | None = None,
    ) -> dict[str, Any] | None:
        """File (or bring up to date) the session's L2 summary, as memdesk's when its host
        ended it, as the agent's when the agent did (`by`: its summary is its own account).
        A summary someone else changed since is theirs now and left as they made it: an
        agent ending its session again rewrote the person's edit of it, in memdesk's name."""
        seen = list(row.observations.order_by(Observation.id))
        notes = session_notes.read(seen, row.task, row.cwd)
        if not seen and not messages and what is None:
            self._close(row, None)
            return None
        parts = session_notes.summary_parts(notes, messages, what)
        if interrupted:
            parts["what"] = "Interrupted (no session end): " + parts["what"]
        writer = by or Actor("system", row.agent)
        existing = Memory.get_or_none(Memory.uuid == row.summary) if row.summary else None
        if existing is not None:
            text = archive.render_summary(**parts)
            if existing.content == text:
                self._close(row, existing.uuid)
                return {"id": existing.uuid, "unchanged": True}
            if _last_changed_by(existing) not in (None, writer.label):
                self._close(row, existing.uuid)
                return {"id": existing.uuid, "unchanged": True, "why": _KEPT}
            memory = self.edits.update(existing.uuid, content=text, actor=writer)
        else:
            memory = self.archive_session(**parts, project=row.project, task=row.task, actor=writer)
        self._close(row, memory["id"])
        return {"id": memory["id"], "content": memory["content"]}

    def _close(self, row: Session, summary: str | None) -> None:
        with self.desk.write():
            row.ended_at = clock.now()
            row.summary = summary or row.summary
            row.save()

    def _file_finding(
        self, row: Session, finding: Finding, *, agent: Actor | None
    ) -> tuple[str, dict[str, Any]]:
        """`agent`: the agent that sent the transcript itself (not its host's hook): what it
        found is proposed, and compared only with what that agent may read (a red team's
        agent told "already known as <id>" learnt that the person's private memory said so)."""
        said = {"content": finding.content, "sentence": finding.sentence}
        why = f"{finding.pattern} ({finding.confidence}): {finding.sentence}"
        if agent is not None:
            # Only the agent's account: nothing shows the person said it, and a label of
            # confidence made the Inbox read as if the host had heard it.
            why = f"{agent.agent}{AGENTS_ACCOUNT}{finding.sentence}"
        if finding.confidence == LOW:
            return "skipped", {**said, "why": "too little said to stand on its own"}
        # What the user said of themself holds everywhere; what they said of the work, here.
        project = row.project if finding.scope == PROJECT else None
        draft = Draft.parse({"content": finding.content, "kind": finding.kind, "project": project})
        known = self.writes.near_duplicate(draft, seen_by=agent, persons_first=agent is None)
        # Alike but another number, name or negation is news ("Postgres 16", not 14): it is
        # filed, and linked to the older memory as a possible update by `add`. Heard from the
        # person, what only an agent's note says is not known: the note is the agent's to
        # rewrite, and an agent that wrote each sentence first left nothing in their name.
        if (
            known is not None
            and dedup.restates(known.content, draft.content)
            and (agent is not None or known.source != "agent")
        ):
            if agent is None and known.updated_at < row.started_at:
                # The person said it again in a later session: restated rules rank first in
                # the briefing, and "Remember: …" had counted for nothing. (Once a session:
                # the count moves `updated_at` past its start, so ending again adds nothing.)
                self.writes.count_restated(known, Actor("system", row.agent))
            return "skipped", {**said, "why": f"already known as {known.uuid}"}
        earlier = Proposal.get_or_none(Proposal.content == finding.content)
        account = None  # an agent's own account said it first; the host has heard it now
        if earlier is not None and agent is None and AGENTS_ACCOUNT in earlier.why:
            account, earlier = (earlier, None) if earlier.status == "pending" else (None, earlier)
        if account is not None and finding.confidence != HIGH:
            self.proposing.set(account, why=why, support=account.support + 1)
            return "proposed", {**said, "proposal": account.id}
        if earlier is not None:
            # An agent's own account lifts nothing: one name ending 30 sessions with the same
            # line put it first in the Inbox as "x30" (red team 38).
            if earlier.status == "pending" and earlier.session_id != row.id and agent is None:
                self.proposing.set(earlier, support=earlier.support + 1)
            if agent is not None and earlier.agent != agent.agent:
                # another's proposal is the person's to read: the agent hears what it said
                return "proposed", {**said, "proposal": earlier.id}
            return "skipped", {**said, "why": f"already {earlier.status} (proposal {earlier.id})"}

        if agent is not None and _waiting_from(agent) >= PENDING_PER_AGENT:
            # one name's session ends filed 10,550 proposals a minute, outside every budget
            return "skipped", {**said, "why": _FULL.format(PENDING_PER_AGENT)}

        def file() -> tuple[str | None, Proposal]:
            memory_id = None
            if finding.confidence == HIGH and agent is None:
                memory = self.writes.add(
                    finding.content,
                    kind=finding.kind,
                    tags=[GAPFILL_TAG],
                    project=project,
                    actor=Actor("system", row.agent),
                )
                memory_id = memory["id"]
            # Kept for the stored ones too: the provenance (session and sentence) of each.
            with self.desk.write() as pending:
                proposal = self.proposing.propose(
                    pending,
                    session_id=row.id,
                    agent=row.agent,
                    kind=finding.kind,
                    content=finding.content,
                    why=why,
                    status="accepted" if memory_id else "pending",
                    memory=memory_id,
                    project=project,
                )
            return memory_id, proposal

        memory_id, proposal = self.undo.record(file)[0]
        if memory_id and account is not None:
            self.proposing.set(account, status="accepted", memory=memory_id, decided_at=clock.now())
        if memory_id:
            return "stored", {**said, "id": memory_id}
        return "proposed", {**said, "proposal": proposal.id}


PENDING_PER_AGENT = 200
_FULL = "{} proposals of yours already wait for the person"


def _newest(messages: list[dict[str, str]], chars: int) -> list[dict[str, str]]:
    """The newest messages that hold at most `chars` characters together (whole: a message
    cut would start in mid-sentence)."""
    kept: list[dict[str, str]] = []
    for message in reversed(messages):
        chars -= len(message["content"])
        if chars < 0:
            break
        kept.append(message)
    return kept[::-1]


def _waiting_from(agent: Actor) -> int:
    waiting = (Proposal.agent == agent.agent) & (Proposal.status == "pending")
    return Proposal.select().where(waiting).limit(PENDING_PER_AGENT).count()


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
        # a message is read as far as a host sends it: a crafted 60 KB one cost seconds
        content = message["content"][:MAX_MESSAGE_CHARS]
        out.append({"role": message["role"], "content": content})
    return out


_KEPT = "its summary was changed since by someone else, and is left as they made it"


def _last_changed_by(memory: Memory) -> str | None:
    last = memory.versions.order_by(MemoryVersion.id.desc()).first()
    return last.changed_by if last is not None else None
