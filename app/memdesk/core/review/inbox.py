"""The inbox: everything awaiting the person's decision.

Two kinds of item. Proposals (a row each): what a session end found but was not sure of
("extract"), sharing a private memory ("promote"), a newer memory that may replace an older
one ("update"), near-duplicates to merge ("merge"), what a sync could not merge alone
("sync_disagree", "sync_deleted_there", "sync_deleted_here", "sync_deleted_by_team",
"sync_new_unsigned"), and a notice: an agent refused for its write budget ("overrun";
accepting marks it seen). Withheld memories: stored, but kept from agents until accepted —
what the injection guard flagged ("flagged") and what an agent wrote with low confidence
("unsure"). Accepting applies the item; rejecting keeps it with the reason (a proposal as
dismissed, a memory in the Trash), and either can be reconsidered.
Only the person decides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from memdesk.core import clock, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.display import HEARD_TAG
from memdesk.core.errors import NotAllowed, NotFound, ValidationError, VersionConflict
from memdesk.core.events import Change
from memdesk.core.guard import withhold
from memdesk.core.memory.edits import Edits
from memdesk.core.memory.identity import IDENTITY_PROPOSAL, Identity
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import Reads, hidden_from_agents, visible_to
from memdesk.core.memory.status import StatusChanges
from memdesk.core.memory.undo import Undo
from memdesk.core.memory.versions import Versions
from memdesk.core.memory.writes import Writes
from memdesk.core.review import inbox_items as shown
from memdesk.core.review.consolidate import Consolidation
from memdesk.core.review.inbox_items import MEMORY, PROPOSAL, REJECTED
from memdesk.store import Link, Memory, Proposal, among

GAPFILL_TAG = HEARD_TAG
STATUSES = ("pending", "rejected")


class SyncAnswers(Protocol):
    """What a sync asked the person (sync/asking.py): the Inbox hands the answer back."""

    def accept(self, proposal: Proposal, content: str | None, actor: Actor) -> None: ...
    def reject(self, proposal: Proposal, actor: Actor) -> None: ...


class Inbox:
    """inbox, inbox_count, accept, reject, reconsider (and the proposals.* wrappers)."""

    def __init__(
        self,
        desk: Desk,
        reads: Reads,
        writes: Writes,
        edits: Edits,
        status: StatusChanges,
        versions: Versions,
        proposing: Proposals,
        undo: Undo,
        *,
        identity: Identity,
        consolidation: Consolidation,
        questions: SyncAnswers,
    ) -> None:
        self.desk = desk
        self.reads = reads
        self.writes = writes
        self.edits = edits
        self.status = status
        self.versions = versions
        self.proposing = proposing
        self.undo = undo
        # Who asked each kind of question decides what accepting or rejecting it does.
        self.identity = identity
        self.consolidation = consolidation
        self.questions = questions

    def inbox(self, status: str = "pending") -> list[dict[str, Any]]:
        """What waits for a decision (or was rejected), most supported first, then newest."""
        validate.one_of(status, STATUSES, "status")
        wanted = "pending" if status == "pending" else "dismissed"
        proposals = list(Proposal.select().where(Proposal.status == wanted))
        concerned = {p.id: shown.concerned(p) for p in proposals}
        rows = shown.memories({u for uuids in concerned.values() for u in uuids})
        items = [shown.proposal_item(p, concerned[p.id], rows) for p in proposals]
        memory_status = "active" if status == "pending" else "deleted"
        withheld = list(
            Memory.select().where(Memory.flag.is_null(False) & (Memory.status == memory_status))
        )
        reasons = shown.rejections(withheld) if status == "rejected" else {}
        items += [shown.memory_item(row, reasons.get(row.id)) for row in withheld]
        return sorted(items, key=lambda i: (i["support"], i["created_at"]), reverse=True)

    def inbox_count(self) -> int:
        pending = Proposal.select().where(Proposal.status == "pending").count()
        withheld = Memory.select().where(Memory.flag.is_null(False) & (Memory.status == "active"))
        return pending + withheld.count()

    def accept(
        self,
        keys: Sequence[str],
        *,
        content: str | None = None,
        actor: Actor = USER,
        as_shown: Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        """Accept items (all of them, or on any refusal none). `content` edits the one item
        being accepted first: the memory it stores, updates or keeps. `as_shown` (key: the
        item's words as the person saw them) refuses an item whose words changed since (a
        background sync brought newer words from the other machine)."""
        rules.check_person(actor, "accept what waits in the inbox", field="keys")
        keys = _keys(keys)
        self._still_as_shown(keys, as_shown)
        if content is not None:
            if len(keys) != 1:
                raise ValidationError(
                    "content edits one item: accept one key with it", field="content"
                )
            content = validate.content(content)
        return self.undo.as_one(lambda: [self._accept(key, content, actor) for key in keys])

    def reject(
        self,
        keys: Sequence[str],
        *,
        reason: str | None = None,
        actor: Actor = USER,
        as_shown: Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        """Reject items, keeping each with `reason`: a proposal as dismissed, a withheld
        memory in the Trash. `reconsider` brings them back. `as_shown` as for `accept`."""
        rules.check_person(actor, "reject what waits in the inbox", field="keys")
        keys = _keys(keys)
        self._still_as_shown(keys, as_shown)
        reason = validate.text(reason, "reason") if reason else None
        return self.undo.as_one(lambda: [self._reject(key, reason, actor) for key in keys])

    def reconsider(self, keys: Sequence[str], *, actor: Actor = USER) -> list[dict[str, Any]]:
        """Put rejected items back in the inbox."""
        rules.check_person(actor, "reconsider what waits in the inbox", field="keys")
        keys = _keys(keys)
        return self.undo.as_one(lambda: [self._reconsider(key, actor) for key in keys])

    # -- the proposals.* methods of earlier versions ---------------------------------------

    def proposals(self, status: str = "pending", *, actor: Actor = USER) -> list[dict[str, Any]]:
        """The proposals (all of them to the person); to an agent only its own, and none
        about a memory it may not read (what it quotes, such as the numbers of an update,
        would tell it)."""
        validate.one_of(status, ("pending", "accepted", "dismissed", "all"), "status")
        query = Proposal.select().order_by(Proposal.created_at.desc(), Proposal.id.desc())
        if status != "all":
            query = query.where(Proposal.status == status)
        if actor.source != "agent":
            return [shown.proposal(p) for p in query]
        own = [shown.proposal(p) for p in query.where(Proposal.agent == actor.agent)]
        about = {u for p in own for u in [p["memory"], *p["subject"]] if u}
        rows = Memory.select().where(Memory.uuid.in_(among(about)))
        readable = {row.uuid for row in rows if visible_to(row, actor)}
        return [p for p in own if all(u in readable for u in [p["memory"], *p["subject"]] if u)]

    def decide_proposal(self, number: int, accept: bool, *, actor: Actor = USER) -> dict[str, Any]:
        """Accept or dismiss one proposal by its number."""
        number = validate.integer(number, "id", 1)
        if accept:
            self.accept([f"{PROPOSAL}{number}"], actor=actor)
        else:
            self.reject([f"{PROPOSAL}{number}"], actor=actor)
        return shown.proposal(self._proposal_row(number))

    # -- inside ------------------------------------------------------------------------------

    def _still_as_shown(self, keys: list[str], as_shown: Mapping[str, str] | None) -> None:
        if as_shown is None:
            return
        if not isinstance(as_shown, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in as_shown.items()
        ):
            raise ValidationError(
                "as_shown maps item keys to the words shown (text to text)", field="as_shown"
            )
        for key in keys:
            seen = as_shown.get(key)
            if seen is None:
                continue
            now = (
                self.reads.row(key.removeprefix(MEMORY)).content
                if key.startswith(MEMORY)
                else self._pending(key).content
            )
            if now != seen:
                raise VersionConflict(
                    f"{key} changed since it was shown (a sync brought newer words, or an agent "
                    f"rewrote it); it now reads {now[:120]!r}. Look at it again and decide",
                    field="keys",
                )

    def _accept(self, key: str, content: str | None, actor: Actor) -> dict[str, Any]:
        if key.startswith(MEMORY):
            memory_id = key.removeprefix(MEMORY)
            row = self.reads.row(memory_id)
            if not row.flag or row.status != "active":
                raise NotAllowed(f"memory {row.uuid} is not waiting in the inbox", field="keys")
            if content is not None:
                self.edits.update(row.uuid, content=content, actor=actor)
            return {"key": key, "memory": self.status.clear_flag(row.uuid, actor=actor)}
        proposal = self._pending(key)
        kind = shown.kind_of(proposal)
        subject = json.loads(proposal.subject or "[]")
        if kind in ("promote", "update") and content is None:
            self._as_shown(proposal)
        if kind == "promote":
            edit = {"content": content} if content is not None else {}
            self.edits.update(proposal.memory, visibility="shared", actor=actor, **edit)
        elif kind == "update":
            self._replace(subject[0], subject[1:], content, actor)
        elif kind == "merge":
            self.consolidation.merge(subject[0], subject[1:], content, actor)
        elif kind.startswith("sync_"):
            self.questions.accept(proposal, content, actor)
        elif kind == IDENTITY_PROPOSAL:
            self.identity.accept_proposal(proposal, content, actor)
        elif kind == "overrun" and content is not None:
            raise ValidationError(
                "an agent's budget notice has no words to edit: accept it without content",
                field="content",
            )
        elif kind != "overrun":  # a notice: accepting it says it was seen
            proposal.memory = self._store_proposed(proposal, content, actor)
        self.proposing.set(proposal, status="accepted", decided_at=clock.now(), reason=None)
        return {"key": key, "proposal": shown.proposal(proposal)}

    def _as_shown(self, proposal: Proposal) -> None:
        """The memory an item proposes still reads as the person was shown: an agent rewrote
        its note after the item was made, and the person's accept retired their rule for
        words they never saw."""
        row = self.reads.row(proposal.memory)
        if row.content != proposal.content:
            raise VersionConflict(
                f"memory {row.uuid} changed since this was proposed; it now reads "
                f"{row.content[:120]!r}. Reject this item, or accept it with the words you want",
                field="keys",
            )

    def _store_proposed(self, proposal: Proposal, content: str | None, actor: Actor) -> str:
        earlier = Memory.get_or_none(Memory.uuid == proposal.memory)
        if earlier is not None and earlier.status == "deleted" and content is None:
            # Accepted, reconsidered (its memory went to the Trash), accepted again: the same
            # memory comes back.
            self.status.restore(earlier.uuid, actor=actor)
            return earlier.uuid
        memory = self.writes.add(
            content or proposal.content,
            kind=proposal.kind,
            tags=[GAPFILL_TAG],
            project=proposal.project,
            actor=actor,
        )
        return memory["id"]

    def _replace(self, new_id: str, old_ids: list[str], content: str | None, actor: Actor) -> None:
        """The newest memory replaces the older ones (newest first): they are retired, each
        linked as superseded by it."""
        with self.desk.write() as pending:
            new = self.reads.row(new_id)
            olds = [self.reads.row(old_id) for old_id in old_ids]
            for row in (new, *olds):
                if row.status != "active":
                    raise NotAllowed(
                        f"{shown.gone_now(row.content, row.status)}, so this update no longer "
                        "applies; reject it, or restore that memory first",
                        field="keys",
                    )
            fields: dict[str, Any] = {"supersedes": olds[0].uuid}
            if content is not None:
                fields["content"] = content
            unsure = bool(new.flag) and withhold.only_unsure(json.loads(new.flag))
            if unsure and content is None:
                fields["flag"] = None  # its writer's doubt: the person accepts its words
            stays_hidden = new.visibility == "private" or bool(new.flag) and not unsure
            if stays_hidden and not all(map(hidden_from_agents, olds)):
                # what agents read would be retired for what they cannot (and its id named
                # to them in the retired one's history)
                raise VersionConflict(
                    f"the newer memory ({new.uuid[:8]}: {new.content[:80]!r}) is "
                    f"{_hidden_how(new)}, so accepting would retire what agents read for a "
                    "memory none of them can; share or release it first, or reject this item",
                    field="keys",
                )
            reason = None
            if new.source == "agent" and any(old.source == "user" for old in olds):
                # What the person accepts in place of their own rule is theirs: left the
                # agent's, the rule lost its authority (an action it forbids was only
                # reminded of) and the agent could turn it around later, unasked.
                fields |= {"source": "user", "agent": None, "visibility": "shared"}
                # and only its words: the Inbox showed the words, and the agent's own project,
                # tags, kind and importance moved the person's rule out of its project
                old = olds[0]
                fields |= {
                    "project": old.project,
                    "tags": old.tags,
                    "kind": old.kind,
                    "importance": old.importance,
                    "layer": old.layer,
                }
                reason = f"the person accepted {new.agent}'s words in place of their own"
            self.versions.save(new, fields, actor, pending, change="update", reason=reason)
            why = f"replaced by {new.uuid}"
            for newer, old in zip((new, *olds), olds, strict=False):
                self.versions.set_status(
                    old, "inactive", actor, pending, change="correct", reason=why
                )
                _set_link(newer, old, "possible_update", present=False)
                _set_link(new, old, "supersedes", present=True)

    def _reject(self, key: str, reason: str | None, actor: Actor) -> dict[str, Any]:
        if key.startswith(MEMORY):
            row = self.reads.row(key.removeprefix(MEMORY))
            if not row.flag or row.status != "active":
                raise NotAllowed(f"memory {row.uuid} is not waiting in the inbox", field="keys")
            why = f"{REJECTED}: {reason}" if reason else REJECTED
            return {"key": key, "memory": self.status.remove(row.uuid, reason=why, actor=actor)}
        proposal = self._pending(key)
        if shown.kind_of(proposal) == "update":
            self._set_possible_update(proposal, present=False)
        elif shown.kind_of(proposal).startswith("sync_"):
            self.questions.reject(proposal, actor)
        self.proposing.set(proposal, status="dismissed", decided_at=clock.now(), reason=reason)
        return {"key": key, "proposal": shown.proposal(proposal)}

    def _reconsider(self, key: str, actor: Actor) -> dict[str, Any]:
        if key.startswith(MEMORY):
            row = self.reads.row(key.removeprefix(MEMORY))
            if not row.flag or row.status != "deleted":
                raise NotAllowed(f"memory {row.uuid} was not rejected in the inbox", field="keys")
            return {"key": key, "memory": self.status.restore(row.uuid, actor=actor)}
        proposal = self._proposal_row(_number(key))
        if proposal.status != "dismissed":
            raise NotAllowed(
                f"proposal {proposal.id} is {proposal.status}, not rejected", field="keys"
            )
        if shown.kind_of(proposal) == "update":
            self._set_possible_update(proposal, present=True)
        self.proposing.set(proposal, status="pending", decided_at=None, reason=None)
        return {"key": key, "proposal": shown.proposal(proposal)}

    def _set_possible_update(self, proposal: Proposal, *, present: bool) -> None:
        """Add or remove the possible_update links of an item's chain, newest first."""
        chain = json.loads(proposal.subject)
        with self.desk.write() as pending:
            for new_id, old_id in zip(chain, chain[1:], strict=False):
                new = Memory.get_or_none(Memory.uuid == new_id)
                old = Memory.get_or_none(Memory.uuid == old_id)
                if new is None or old is None:
                    continue
                self.desk.touch([new.uuid, old.uuid])
                _set_link(new, old, "possible_update", present=present)
                pending.append(Change("updated", new.uuid, new.version, "user"))

    def _pending(self, key: str) -> Proposal:
        proposal = self._proposal_row(_number(key))
        if proposal.status != "pending":
            raise ValidationError(
                f"proposal {proposal.id} is already {proposal.status}", field="keys"
            )
        return proposal

    def _proposal_row(self, number: int) -> Proposal:
        proposal = Proposal.get_or_none(Proposal.id == number)
        if proposal is None:
            raise NotFound(f"no proposal {number}; the inbox lists them", field="id")
        return proposal


def _set_link(src: Memory, dst: Memory, relation: str, *, present: bool) -> None:
    """Make the link exist or not (the caller has touched both ends for undo)."""
    if present:
        Link.insert(
            src=src, dst=dst, relation=relation, created_at=clock.now()
        ).on_conflict_ignore().execute()
    else:
        Link.delete().where(
            (Link.src == src) & (Link.dst == dst) & (Link.relation == relation)
        ).execute()


def _keys(keys: object) -> list[str]:
    if not isinstance(keys, list | tuple) or not keys:
        raise ValidationError(
            "keys must be a non-empty list of inbox keys (memory:<id> or proposal:<number>)",
            field="keys",
        )
    wrong = [k for k in keys if not (isinstance(k, str) and k.startswith((MEMORY, PROPOSAL)))]
    if wrong:  # (a key was given: "must be a non-empty list" read as if none had been)
        raise ValidationError(
            f"{str(wrong[0])[:60]!r} is not an inbox key: keys are memory:<id> or "
            "proposal:<number>, as `memdesk inbox` lists them",
            field="keys",
        )
    return list(dict.fromkeys(keys))


def _number(key: str) -> int:
    number = key.removeprefix(PROPOSAL)
    # ASCII digits only ("²".isdigit() is true, and int() refuses it), in SQLite's range
    if not (number.isascii() and number.isdigit()) or int(number) > validate.MAX_INTEGER:
        raise ValidationError(
            f"{key!r} is not an inbox key (proposal:<number>, at most {validate.MAX_INTEGER:,})",
            field="keys",
        )
    return int(number)


def _hidden_how(row: Memory) -> str:
    return "private" if row.visibility == "private" else "withheld from agents"
