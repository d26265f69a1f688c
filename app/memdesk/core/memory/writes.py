"""Adding memories: one or many, deduplicated against what is already known."""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import peewee

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import (
    ValidationError,
)
from memdesk.core.events import Change
from memdesk.core.guard import withhold
from memdesk.core.memory import corrected, dedup, labels
from memdesk.core.memory import dedup as dedup_rules
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.identity_room import check_identity_room
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import visible_to
from memdesk.core.memory.records import to_dict
from memdesk.core.memory.versions import Versions
from memdesk.core.search import frequency, neighbours, retrieval
from memdesk.core.search.filters import Filters
from memdesk.store import MAX_COUNT, Link, Memory, Proposal, time_limit
from memdesk.store.bulk import insert_rows

PROMOTE_AFTER = 3  # restatements of a private memory before it is proposed for sharing


@dataclass(frozen=True)
class Looked:
    """What a draft's near duplicates may be among, as read before the write lock."""

    uuids: list[str]
    after_id: int  # memories written after this one were not there to read

    def now(self, filters: Filters) -> list[tuple[str, str, str | None]]:
        """(uuid, content, project) of the candidates as they are now, with every memory
        written since (this batch's own among them), newest first."""
        since = retrieval.rows_since(self.after_id, filters)
        return since + retrieval.rows_named(self.uuids, filters) if self.uuids else since


def _alike_filters(draft: Draft) -> Filters:
    return Filters(layers=(draft.layer,), statuses=("active",), project=draft.project)


class Writes:
    """New memories: add one or many, each checked against what is known (a restatement
    reinforces, a near one with another number or name is linked as a possible update).
    Changing a memory: edits.py."""

    def __init__(
        self,
        desk: Desk,
        versions: Versions,
        proposing: Proposals,
        updates_fine: Callable[[str | None], bool],
    ) -> None:
        self.desk = desk
        self.versions = versions
        self.proposing = proposing
        # Whether the person let this agent's updates of its own notes through unasked
        # (review/agent_controls.py keeps that choice).
        self.updates_fine = updates_fine
        self._word_counts = dedup.WordCounts(frequency.count)
        desk.forget_when_replaced(self._forget_word_counts)

    def _forget_word_counts(self) -> None:
        self._word_counts = dedup.WordCounts(frequency.count)

    def add(
        self, content: str, *, dedup: bool = True, actor: Actor = USER, **fields: Any
    ) -> dict[str, Any]:
        """Add one memory. A restatement of an active memory in the same layer and project
        reinforces it instead, returned with `duplicate_of` set; a text alike but differing in
        a number, a negation or a name is added, linked to the older one as
        `possible_update`, and returned with `possible_update_of` set."""
        draft = Draft.parse({"content": content, **fields})
        looked = self.look(draft) if dedup else None
        with self.desk.write() as pending:
            return self.add_draft(draft, actor, pending, dedup=dedup, looked=looked)

    def add_many(
        self, items: Sequence[dict[str, Any]], *, dedup: bool = True, actor: Actor = USER
    ) -> list[dict[str, Any]]:
        """Add several memories in one transaction: all of them, or (on any error) none."""
        if not isinstance(items, list | tuple) or not all(isinstance(i, dict) for i in items):
            raise ValidationError("items must be a list of memory objects", field="items")
        drafts = [Draft.parse(item, where=f"items[{n}]") for n, item in enumerate(items)]
        # Compared before the write lock is taken: a hundred comparisons inside it held every
        # other writer, the person among them, 1–2 s a batch (red team 38).
        looked = [self.look(d) for d in drafts] if dedup else []
        with self.desk.write() as pending:
            if dedup:
                added = [
                    self.add_draft(d, actor, pending, dedup=True, refresh=False, looked=seen)
                    for d, seen in zip(drafts, looked, strict=True)
                ]
            else:
                added = self._insert_all(drafts, actor, pending)
            for task in {d.task for d in drafts if d.task is not None}:
                neighbours.refresh_task(task)
            return added

    def add_draft(
        self,
        draft: Draft,
        actor: Actor,
        pending: list[Change],
        *,
        dedup: bool,
        supersedes: str | None = None,
        refresh: bool = True,
        looked: Looked | None = None,
        archived: bool = False,
    ) -> dict[str, Any]:
        """`archived`: a session's summary filed through archive.add, which files any
        writer's in the archive (L2), as that writer's."""
        if not (archived and draft.layer == "L2"):
            rules.check_may_write(actor, draft.layer)
        labels.check(actor, {"tags": draft.tags, "project": draft.project, "task": draft.task})
        alike: Memory | None = None
        hidden: Memory | None = None  # what the writer restated but may not see
        restated: Memory | None = None  # an agent's note the person's words say again
        if dedup:
            alike, hidden = self._alike_for(draft, actor, looked)
            if alike is not None and dedup_rules.restates(alike.content, draft.content):
                if not _the_persons_words_over_an_agents(actor, alike):
                    return self._reinforce(alike, actor, pending)
                restated, alike = alike, None
            if alike is not None and dedup_rules.about_another(alike.content, draft.content):
                alike = None
            # Each summary in the archive stands for its own session: two sessions alike
            # (another day, another count) are no newer word replacing an older one (the
            # Inbox offered a project's summaries as "may replace 4 older memories").
            alike = None if draft.layer == "L2" else alike or corrected.replaced_by(draft, actor)
        if draft.layer == "L0":
            check_identity_room([len(draft.content)])
        replacing = alike if alike is not None and self._updates_fine(actor, alike) else None
        if replacing is not None:
            supersedes, alike = replacing.uuid, None
        values = _new_row(draft, actor, clock.now(), supersedes)
        cursor = self.desk.database.cursor()
        cursor.execute(_insert_sql(tuple(values)), tuple(values.values()))
        row = Memory(id=cursor.lastrowid, **values)
        if refresh and row.task is not None:
            neighbours.refresh_around(row)
        pending.append(Change("created", row.uuid, row.version, actor.label))
        if hidden is not None and hidden.visibility == "private":
            self._consider_sharing(hidden, actor, pending)
        elif hidden is not None and withhold.only_unsure(json.loads(hidden.flag or "[]")):
            # Another writer's unsure note, said again: support the person weighs in the
            # Inbox. The writer is told nothing of it (answered with a note of its own, it
            # once learned the hidden text word for word by guessing).
            self._count_support(hidden, actor, pending)
        out = to_dict(row)
        if replacing is not None:
            # The person let this agent's updates of its own notes through: the newer one
            # replaces the older, kept retired, as accepting the Inbox item would.
            self.desk.touch([replacing.uuid])
            why = f"replaced by {row.uuid}: {actor.agent}'s updates are fine (View ▸ Agents)"
            self.versions.set_status(
                replacing, "inactive", actor, pending, change="correct", reason=why
            )
            Link.create(src=row, dst=replacing, relation="supersedes", created_at=clock.now())
            out["replaced"] = replacing.uuid
        if restated is not None:
            Link.create(src=row, dst=restated, relation="related", created_at=clock.now())
            out["restates"] = restated.uuid
        if alike is not None:
            # Alike but saying something else (another number, a negation, a name): stored,
            # and linked so the person can retire the stale one.
            self.desk.touch([alike.uuid])
            Link.create(src=row, dst=alike, relation="possible_update", created_at=clock.now())
            self._propose_update(row, alike, actor, pending)
            out["possible_update_of"] = alike.uuid
        return out

    def propose_correction(
        self, old: Memory, draft: Draft, actor: Actor, pending: list[Change]
    ) -> dict[str, Any]:
        """An agent's correction of a memory it did not write: its words are stored as its
        own, linked to the old one as a possible update, and the person decides in the Inbox
        whether the old one is retired (it stays in force until then)."""
        out = self.add_draft(draft, actor, pending, dedup=False)
        row = Memory.get(Memory.uuid == out["id"])
        self.desk.touch([old.uuid])
        Link.create(src=row, dst=old, relation="possible_update", created_at=clock.now())
        self._propose_update(row, old, actor, pending)
        return {**out, "possible_update_of": old.uuid}

    def _updates_fine(self, actor: Actor, alike: Memory) -> bool:
        """The person chose that this agent's updates of its own notes need no review."""
        return (
            actor.source == "agent"
            and alike.agent == actor.agent
            and alike.source == "agent"
            and self.updates_fine(actor.agent)
        )

    def _propose_update(
        self, row: Memory, alike: Memory, actor: Actor, pending: list[Change]
    ) -> None:
        """One Inbox item per memory and its newer versions: a note that differs from the
        last only by a number joins the item already waiting for it (an agent writing such
        notes filled the Inbox with 263 items in a minute), and so does a writer's next note
        about a memory its item already names (300 notes "…, not 5000" made 300 items about
        the person's one rule); accepting it keeps the newest."""
        waiting = next(
            (
                p
                for p in Proposal.select().where(
                    (Proposal.status == "pending")
                    & (Proposal.kind == "update")
                    & Proposal.subject.contains(alike.uuid)
                )
                # the newest of the item set to another value; not another thing said alike
                # (each accepted with it was retired)
                if json.loads(p.subject)[0] == alike.uuid
                and dedup_rules.only_values_differ(alike.content, row.content)
                or p.agent == actor.agent
                and alike.uuid in json.loads(p.subject)
            ),
            None,
        )
        if waiting is None:
            self.proposing.propose(
                pending,
                agent=actor.agent,
                kind="update",
                content=row.content,
                why="may replace an older memory: "
                + dedup_rules.differences(alike.content, row.content),
                memory=row.uuid,
                subject=json.dumps([row.uuid, alike.uuid]),
            )
            return
        newest_first = [row.uuid, *json.loads(waiting.subject)]
        oldest = Memory.get(Memory.uuid == newest_first[-1])
        older = len(newest_first) - 1
        self.proposing.set(
            waiting,
            content=row.content,
            memory=row.uuid,
            subject=json.dumps(newest_first),
            support=waiting.support + 1,
            why=f"may replace {older} older memories: "
            + dedup_rules.differences(oldest.content, row.content),
        )

    def _insert_all(
        self, drafts: list[Draft], actor: Actor, pending: list[Change]
    ) -> list[dict[str, Any]]:
        """Many new memories in bulk: one statement per chunk instead of one per memory."""
        for layer in {d.layer for d in drafts}:
            rules.check_may_write(actor, layer)
        identity = [len(d.content) for d in drafts if d.layer == "L0"]
        if identity:
            check_identity_room(identity)
        stamp = clock.now()
        rows = [_new_row(d, actor, stamp) for d in drafts]
        if not rows:
            return []
        insert_rows(self.desk.database, "memory", tuple(rows[0]), [tuple(r.values()) for r in rows])
        pending.extend(Change("created", r["uuid"], 1, actor.label) for r in rows)
        return [to_dict(Memory(**row)) for row in rows]

    def _alike_for(
        self, draft: Draft, actor: Actor, looked: Looked | None = None
    ) -> tuple[Memory | None, Memory | None]:
        """The near duplicate of `draft` that `actor` may see, and a restatement it may not
        (another agent's private memory, one the guard withholds): an agent's write is never
        compared with what it cannot read, so the answer cannot tell it that text exists."""
        rows = (looked or self.look(draft)).now(_alike_filters(draft))
        alike = self.near_duplicate(draft, rows=rows, persons_first=actor.source != "agent")
        if alike is None or visible_to(alike, actor):
            return alike, None
        hidden = alike if dedup_rules.restates(alike.content, draft.content) else None
        return self.near_duplicate(draft, seen_by=actor, rows=rows), hidden

    def look(self, draft: Draft) -> Looked:
        """The memories `draft` may be a near duplicate of, read without the write lock; the
        write then reads again only what changed since (`Looked.now`)."""
        after_id = Memory.select(peewee.fn.MAX(Memory.id)).scalar() or 0
        words = dedup.word_set(draft.content)
        filters = _alike_filters(draft)
        ids = dedup.candidates(words, rules.DEDUP_JACCARD, self._word_counts, retrieval.postings)
        if ids is not None:
            rows = retrieval.rows_passing(ids, filters)
        else:  # words too common to read every memory holding them: the best-ranked ones
            spare = dedup.spare(words, rules.DEDUP_JACCARD)
            probe = dedup.rarest(words, self._word_counts)[: spare + 1]
            hits = retrieval.containing_any(probe, filters, k=20)
            rows = [(hit["uuid"], hit["content"], hit["project"]) for hit in hits]
        likeness = dedup.likeness_to(draft.content)
        for _uuid, content, _project in rows:
            likeness(content)  # each text's words read now, remembered for the write
        return Looked([uuid for uuid, _content, _project in rows], after_id)

    def near_duplicate(
        self,
        draft: Draft,
        seen_by: Actor | None = None,
        rows: list[tuple[str, str, str | None]] | None = None,
        *,
        persons_first: bool = False,
    ) -> Memory | None:
        """The most similar active memory in the draft's layer and project, if at least
        DEDUP_JACCARD alike (a restatement first, then the newest of equals); with `seen_by`,
        the most similar of those that actor may see; with `persons_first`, a restatement
        the person's own (typed, or heard from them) before an agent's. `rows`: the
        candidates, if read."""
        if rows is None:
            rows = self.look(draft).now(_alike_filters(draft))
        likeness = dedup.likeness_to(draft.content)
        ranked = []
        for memory_id, content, project in rows:
            if project != draft.project:  # no project is a project of its own here
                continue
            similarity = likeness(content)
            if similarity >= rules.DEDUP_JACCARD:
                ranked.append(((dedup.restates(content, draft.content), similarity), memory_id))
        # Best first; of equals, the first found (the newest).
        ranked.sort(key=lambda pair: pair[0], reverse=True)
        first: Memory | None = None
        for (restating, _similarity), memory_id in ranked:
            row = Memory.get(Memory.uuid == memory_id)
            if seen_by is not None and not visible_to(row, seen_by):
                continue
            if first is None:
                first = row
                if not (persons_first and restating and row.source == "agent"):
                    return row
            elif not restating:
                break
            elif row.source != "agent":
                # An agent's note said first: the person's own restatement is what the
                # person's words are known as (the agent may rewrite its note at will).
                return row
        return first

    def _reinforce(self, row: Memory, actor: Actor, pending: list[Change]) -> dict[str, Any]:
        # Not a new version: the content is unchanged, only the evidence for it grew. An
        # agent's restatement of what it may not change confirms nothing (restating the
        # person's other rules chose which of them filled every briefing, and cleared "may be
        # outdated" from a rule the person had not looked at in a year), unless the memory
        # waits for the person: then it is the support the person weighs in the Inbox.
        if rules.wrote(actor, row) or row.flag is not None:
            self._count_support(row, actor, pending)
        if row.visibility == "private":
            self._consider_sharing(row, actor, pending)
        return {**to_dict(row), "duplicate_of": row.uuid}

    def count_restated(self, row: Memory, actor: Actor) -> None:
        """The person said `row` again (heard at a later session's end): it counts as a
        restatement, as `add` of the same words does."""
        with self.desk.write() as pending:
            self._count_support(row, actor, pending)

    def _count_support(self, row: Memory, actor: Actor, pending: list[Change]) -> None:
        self.desk.touch([row.uuid])
        row.reinforce_count = min(row.reinforce_count + 1, MAX_COUNT)
        row.updated_at = clock.now()
        row.save(only=[Memory.reinforce_count, Memory.updated_at])
        pending.append(Change("updated", row.uuid, row.version, actor.label))

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
        self.proposing.propose(
            pending,
            # filed in the name of whoever caused it: in its owner's, the second writer's
            # private or unsure copy (and who wrote it, when) reached the owner's proposals
            agent=actor.agent if second else row.agent,
            kind="promote",
            content=row.content,
            why=f"share with every agent ({why})",
            memory=row.uuid,
            support=2 if second else row.reinforce_count,
        )


@functools.cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    # A prepared statement: building the INSERT in the query builder cost more than SQLite
    # took to store the row.
    return f"INSERT INTO memory ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _new_row(
    draft: Draft, actor: Actor, stamp: str, supersedes: str | None = None
) -> dict[str, Any]:
    # Every new memory costs a guard scan and maybe a near-duplicate check: a batch of them
    # is where a request out of time stops (and its transaction rolls back).
    time_limit.checkpoint()
    return {
        "uuid": str(uuid.uuid4()),
        "layer": draft.layer,
        "kind": draft.kind,
        "content": draft.content,
        "source": actor.source,
        "agent": actor.agent,
        "created_at": draft.created_at or stamp,
        "updated_at": stamp,
        "project": draft.project,
        "task": draft.task,
        "tags": validate.dump_tags(draft.tags),
        "importance": draft.importance,
        "supersedes": supersedes,
        "visibility": draft.visibility,
        "flag": withhold.reasons_for(
            draft.content,
            actor.source,
            confidence=draft.confidence,
            labels={"tags": draft.tags, "project": draft.project, "task": draft.task},
        ),
        "confidence": draft.confidence,
        "context": neighbours.own_context(draft.content),  # a task's: refreshed with it
    }


def _the_persons_words_over_an_agents(actor: Actor, alike: Memory) -> bool:
    """Whether the person's (or what memdesk heard them say) restates an agent's note: kept
    as their own beside it, not folded into a note the agent may rewrite or delete at will
    (red team: an agent wrote each sentence the person said first, then changed its note, and
    nothing was left in the person's name)."""
    return actor.source != "agent" and alike.source == "agent"
