"""The L0 identity profile and its 1,000-character limit."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

from memdesk.core import guard, rules, validate
from memdesk.core.actor import USER, Actor
from memdesk.core.desk import Desk
from memdesk.core.display import visible
from memdesk.core.errors import (
    IdentityFull,
    ValidationError,
    VersionConflict,
)
from memdesk.core.events import Change
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.edits import Edits
from memdesk.core.memory.identity_room import identity_rows
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import visible_to
from memdesk.core.memory.versions import Versions
from memdesk.core.memory.writes import Writes
from memdesk.store import Memory, Proposal

IDENTITY_PROPOSAL = "identity"  # the Inbox kind of an agent's edit of the profile


class Identity:
    """The profile is all active L0 entries together: an agent proposes, the person edits."""

    def __init__(
        self,
        desk: Desk,
        writes: Writes,
        edits: Edits,
        versions: Versions,
        proposing: Proposals,
    ) -> None:
        self.desk = desk
        self.writes = writes
        self.edits = edits
        self.versions = versions
        self.proposing = proposing

    def identity(self, *, actor: Actor = USER) -> dict[str, Any]:
        """The whole profile: active L0 entries joined by newlines, with its size and limit.
        An agent is not given an entry the injection guard withholds, nor another agent's
        private one: the profile is injected into every session."""
        rows = [r for r in identity_rows() if visible_to(r, actor)]
        # To an agent each entry is one line: an entry written with line breaks (imported, or
        # from the person's remote) put a "## Standing rules" heading of its own inside the
        # Identity block every agent reads.
        lines = [
            " ".join(r.content.split()) if actor.source == "agent" else r.content for r in rows
        ]
        return {
            "text": "\n".join(lines),
            "size": rules.profile_size(len(line) for line in lines),
            "limit": rules.IDENTITY_LIMIT,
            "ids": [r.uuid for r in rows],
        }

    def identity_size(self, text: str) -> int:
        """The profile's size once the person saves `text` as it (what the editor's counter
        shows): blank lines between entries are not kept, so they are not counted."""
        return saved_size([r.content for r in identity_rows()], text.strip())

    def set_identity(
        self, text: str, *, expected: Sequence[str] | None = None, actor: Actor = USER
    ) -> dict[str, Any]:
        """Make the profile read `text`, mapped back onto its entries line by line: an entry
        whose lines changed gets a new version, one whose lines are all gone goes to the
        Trash, lines added before any entry become a new one. Entries keep their author and
        history; an unchanged entry is not touched.

        `expected` (the ids from `identity()`) makes it fail if an agent changed the
        profile since it was read, rather than overwrite that change.
        """
        if not isinstance(text, str):
            raise ValidationError("text must be text", field="text")
        if expected is not None and (
            not isinstance(expected, list | tuple) or not all(isinstance(i, str) for i in expected)
        ):
            raise ValidationError(
                "expected must be the list of ids identity() gave", field="expected"
            )
        text = validate.profile_lines(text).strip()
        if actor.source != "agent":  # an agent's text only waits in the Inbox
            rules.check_may_write(actor, "L0")
        with self.desk.write() as pending:
            # What the caller could not see, it did not mean to remove: an agent's text is
            # mapped onto the entries it is given, the others stay as they are.
            rows = [r for r in identity_rows() if visible_to(r, actor)]
            size = saved_size([r.content for r in rows], text)
            if size > rules.IDENTITY_LIMIT:
                raise IdentityFull(
                    f"Identity (L0) text is {size:,} characters; the limit is "
                    f"{rules.IDENTITY_LIMIT:,}. Cut {size - rules.IDENTITY_LIMIT:,} characters.",
                    field="text",
                    size=size,
                    limit=rules.IDENTITY_LIMIT,
                )
            if expected is not None and [r.uuid for r in rows] != list(expected):
                raise VersionConflict(
                    "the identity profile changed since it was read; "
                    "reload it and apply your edit again",
                    field="text",
                )
            if actor.source == "agent":
                return self._propose_identity(rows, text, actor, pending)
            self._write_identity(rows, text, actor, pending)
        return self.identity(actor=actor)

    def _propose_identity(
        self, rows: list[Memory], text: str, actor: Actor, pending: list[Change]
    ) -> dict[str, Any]:
        """An agent's edit of the profile waits in the Inbox: the profile is given to every
        agent as the person's, so only the person changes it."""
        contents, added = map_onto([r.content for r in rows], text)
        # what accepting would leave, not the words sent: lines only reordered, blank or
        # indented read as a change the Inbox showed and accepting never made
        unchanged = _applied(contents, added) == "\n".join(r.content for r in rows)
        proposed = None
        if not unchanged:
            _refuse_withheld(contents, rows, added)
            fields = {
                "content": text,
                "why": f"{actor.agent} proposes this profile:\n{_changes(rows, text)}",
                "subject": json.dumps([r.uuid for r in rows]),
            }
            # An agent's profile waits as one item, its latest: sent again, or put right
            # ("tea", then "coffee"), accepting each stacked their lines in the profile.
            waiting = (
                Proposal.select()
                .where(
                    (Proposal.kind == IDENTITY_PROPOSAL)
                    & (Proposal.status == "pending")
                    & (Proposal.agent == actor.agent)
                )
                .first()
            )
            if waiting is None:
                waiting = self.proposing.propose(
                    pending, kind=IDENTITY_PROPOSAL, agent=actor.agent, **fields
                )
            else:
                self.proposing.replace(waiting, pending, **fields)
            proposed = waiting.id
        answer = {**self.identity(actor=actor), "proposed": proposed}
        if proposed is not None:  # (an agent that saw only a number sent it again)
            answer["waiting"] = (
                "The profile is unchanged: your text waits in the person's Inbox until they "
                "accept it. Sent again, it replaces what waits."
            )
        return answer

    def accept_proposal(self, proposal: Proposal, content: str | None, actor: Actor) -> None:
        """The person accepts an agent's proposed profile, onto the entries that agent saw."""
        seen = json.loads(proposal.subject or "[]")
        with self.desk.write() as pending:
            by_id = {r.uuid: r for r in identity_rows()}
            if _stale(proposal, seen, by_id):
                raise VersionConflict(
                    "the identity profile changed since this was proposed; reject it and edit "
                    "the profile yourself (Edit Identity, Ctrl+I; or `memdesk identity --set`)",
                    field="keys",
                )
            rows = [by_id[u] for u in seen]
            if content is None:  # the agent's words, as a restored backup may have set them
                validate.profile_lines(proposal.content, field="keys")
                contents, added = map_onto([r.content for r in rows], proposal.content)
                _refuse_withheld(contents, rows, added)
            else:
                content = validate.profile_lines(content, field="content")
            # a line another accepted proposal (or the person) added since is not added twice
            since = {r.content for uuid, r in by_id.items() if uuid not in seen}
            lines = (content or proposal.content).split("\n")
            self._write_identity(
                rows,
                "\n".join(line for line in lines if line not in since),
                actor,
                pending,
                reason=f"identity profile edited: {proposal.agent}'s proposal, accepted",
            )

    def _write_identity(
        self,
        rows: list[Memory],
        text: str,
        actor: Actor,
        pending: list[Change],
        *,
        reason: str = "identity profile edited",
    ) -> None:
        contents, added = map_onto([r.content for r in rows], text)
        for row, content in zip(rows, contents, strict=True):
            if content is None:
                self.versions.set_status(
                    row,
                    "deleted",
                    actor,
                    pending,
                    change="remove",
                    reason="removed from the identity profile",
                )
            elif content != row.content:
                self.edits.apply(
                    row,
                    {"content": content},
                    actor,
                    pending,
                    change="update",
                    reason=reason,
                )
        for line in added:
            self.writes.add_draft(
                Draft(content=line, layer="L0", kind="preference"), actor, pending, dedup=False
            )


def proposal_why(proposal: Proposal) -> str:
    """What the Inbox says of an identity proposal: the lines it removes and adds, read from
    the words it would apply, not from its stored description (a crafted backup's proposal
    showed "+ Prefers tabs over spaces" and applied a new hard rule)."""
    seen = json.loads(proposal.subject or "[]")
    by_id = {r.uuid: r for r in identity_rows()}
    rows = [by_id[u] for u in seen if isinstance(u, str) and u in by_id]
    if _stale(proposal, seen, by_id):
        # set against the profile as it is now, its lines read as undoing the later change
        return (
            f"{proposal.agent} proposed this before the profile changed, so it cannot be "
            "accepted as it is: reject it, or Edit & Accept the words you want. Against the "
            f"profile now it would make these changes:\n{_changes(rows, proposal.content)}"
        )
    return f"{proposal.agent} proposes this profile:\n{_changes(rows, proposal.content)}"


def _stale(proposal: Proposal, seen: list[Any], by_id: dict[str, Memory]) -> bool:
    """Whether an entry the agent saw is gone or changed since it proposed (the person's own
    edit, or another proposal accepted): applied now, it would undo that change unseen."""
    return any(
        not isinstance(uuid, str)
        or uuid not in by_id
        or by_id[uuid].updated_at > proposal.created_at
        for uuid in seen
    )


def _changes(rows: list[Memory], text: str) -> str:
    """The profile's lines the proposal removes (-) and adds (+), as accepting would leave
    them (split as map_onto splits, at newlines only)."""
    before = "\n".join(r.content for r in rows).split("\n")
    after = _applied(*map_onto([r.content for r in rows], text))
    diff = difflib.ndiff(before, after.split("\n") if after else [])
    return "\n".join(visible(line) for line in diff if line.startswith(("- ", "+ ")))


def _applied(contents: list[str | None], added: list[str]) -> str:
    """The profile's text once `map_onto`'s result is written: the entries in their order,
    then the new ones."""
    return "\n".join([*(c for c in contents if c is not None), *added])


def _refuse_withheld(contents: list[str | None], rows: list[Memory], added: list[str]) -> None:
    """An agent may not propose what the guard would withhold: once accepted the entry is the
    person's and withheld from every agent, so a proposal that differed by one invisible
    character (which the Inbox could not show) made the person's rules vanish from all
    briefings."""
    changed = [c for c, r in zip(contents, rows, strict=True) if c and c != r.content]
    for text in [*changed, *added]:
        reasons = guard.scan(text)
        if reasons:
            raise ValidationError(
                f"the profile is given to every agent, so it cannot be proposed with text the "
                f"injection guard withholds ({reasons[0]}): {text[:80]!r}",
                field="text",
            )


def saved_size(entries: list[str], text: str) -> int:
    """The size of the profile `text` makes of `entries` (`map_onto`)."""
    contents, added = map_onto(entries, text)
    return rules.profile_size(len(c) for c in [*contents, *added] if c is not None)


def map_onto(entries: list[str], text: str) -> tuple[list[str | None], list[str]]:
    """Map an edited profile `text` back onto the `entries` it was joined from (by newlines).

    Returns each entry's new content (None when all its lines were deleted) and the lines
    that belong to no entry, each a new entry: a line the person types is an entry of its own
    (joined to the one above, a profile of four lines read as three entries). Lines are
    matched with difflib: a kept line stays with its entry, a replaced one takes the place of
    the line it replaces; a block replaced by more lines than it had adds the rest as new.
    """
    old = [(n, line) for n, entry in enumerate(entries) for line in entry.split("\n")]
    new = text.split("\n") if text else []
    owner_of_new: list[int | None] = [None] * len(new)
    matcher = difflib.SequenceMatcher(None, [line for _n, line in old], new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(j2 - j1):
                owner_of_new[j1 + k] = old[i1 + k][0]
        elif tag == "replace":
            for k in range(j2 - j1):
                # fewer new lines than old: spread them over the old block's owners, in order
                i = i1 + k if j2 - j1 >= i2 - i1 else i1 + k * (i2 - i1) // (j2 - j1)
                owner_of_new[j1 + k] = old[i][0] if i < i2 else None
    lines: list[list[str]] = [[] for _ in entries]
    added: list[str] = []
    for owner, line in zip(owner_of_new, new, strict=True):
        if owner is not None:
            lines[owner].append(line)
        elif line.strip():
            added.append(line.strip())
    contents = ["\n".join(ls).strip() or None for ls in lines]
    return contents, added
