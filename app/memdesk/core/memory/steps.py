"""Undoable steps: the exact state of every memory one action touched, before and after.

A window action is one service call in one transaction. While it runs under `Recorder`, the
first touch of each memory captures its state before the change; created memories start from
None (absent). Undo writes the before-states back, redo the after-states, again in one
transaction, and only where the memory still holds what the step left: a memory an agent
changed (or Empty Trash purged) since makes the step refuse as a whole, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from memdesk.core import clock
from memdesk.core.actor import Actor
from memdesk.core.events import Change
from memdesk.core.memory.records import EDITABLE_FIELDS
from memdesk.core.search import neighbours
from memdesk.store import Link, Memory, Proposal

# What undo puts back. Counters (recalls, reinforcements) are evidence, not state. Whose
# words a memory holds changes with an edit (the person's rewording of an agent's note, an
# accepted correction): undone, the words went back and stayed the person's.
STATE_FIELDS = (*EDITABLE_FIELDS, "status", "supersedes", "flag", "source", "agent")
# Set once at creation; needed to bring an undone addition back exactly on redo.
BIRTH_FIELDS = ("created_at", "confidence")
# A proposal's whole row: an undone creation (Find Duplicates) is brought back exactly.
PROPOSAL_FIELDS = tuple(f for f in Proposal._meta.sorted_field_names if f != "id")
CHUNK = 500  # SQLite caps bound variables per statement

State = dict[str, Any]


@dataclass
class Step:
    """What one action did: memory id -> state before and after (None: did not exist); the
    same for the inbox's proposals it decided or created, by proposal number."""

    before: dict[str, State | None] = field(default_factory=dict)
    after: dict[str, State | None] = field(default_factory=dict)
    proposals_before: dict[int, State | None] = field(default_factory=dict)
    proposals_after: dict[int, State | None] = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        return list(self.before)

    def changed_fields(self, memory_id: str) -> tuple[str, ...]:
        """The fields this step changed on one memory (all of them for a creation or purge)."""
        before, after = self.before[memory_id], self.after[memory_id]
        if before is None or after is None:
            return (*STATE_FIELDS, "links")
        return tuple(k for k in (*STATE_FIELDS, "links") if before[k] != after[k])

    @property
    def empty(self) -> bool:
        return self.proposals_before == self.proposals_after and all(
            not self.changed_fields(i) for i in self.before
        )


class Recorder:
    """Collects the before-states of one transaction's memories, at their first touch."""

    def __init__(self) -> None:
        self.step = Step()
        self.pending: list[Change] = []  # announced once the recording commits

    def touch(self, uuids: Iterable[str]) -> None:
        new = [u for u in uuids if u not in self.step.before]
        if new:
            self.step.before.update(capture(new))

    def note(self, pending: list[Change]) -> None:
        """One write of the recording is done: new memories start from None."""
        for change in pending:
            if change.event == "created":
                self.step.before.setdefault(change.id, None)
        memories = {c.id for c in pending if c.event != "inbox"}  # "inbox": proposals only
        unrecorded = memories - self.step.before.keys()
        if unrecorded:  # a write path that forgot to touch: undo would miss it
            raise RuntimeError(f"changed without being recorded: {sorted(unrecorded)}")
        self.pending.extend(pending)

    def touch_proposals(self, numbers: Iterable[int], *, created: bool = False) -> None:
        new = [n for n in numbers if n not in self.step.proposals_before]
        if new:
            found = dict.fromkeys(new) if created else capture_proposals(new)
            self.step.proposals_before.update(found)

    def finish(self) -> Step:
        self.step.after = capture(self.step.ids)
        self.step.proposals_after = capture_proposals(list(self.step.proposals_before))
        return self.step


def capture_proposals(numbers: list[int]) -> dict[int, State | None]:
    states: dict[int, State | None] = dict.fromkeys(numbers)
    for start in range(0, len(numbers), CHUNK):
        for row in Proposal.select().where(Proposal.id.in_(numbers[start : start + CHUNK])):
            states[row.id] = {f: getattr(row, f) for f in PROPOSAL_FIELDS}
    return states


def proposal_conflict(expect: dict[int, State | None], now: dict[int, State | None]) -> str:
    """Why the proposals no longer hold what the step left ("" if they do)."""
    for number, want in expect.items():
        if now[number] != want:
            return (
                f"proposal {number} was decided or changed since, so this step cannot be "
                "applied over that; nothing was changed."
            )
    return ""


def write_proposals(target: dict[int, State | None], now: dict[int, State | None]) -> None:
    for number, state in target.items():
        if state is None:
            Proposal.delete().where(Proposal.id == number).execute()
        elif now[number] is None:
            Proposal.insert(id=number, **state).execute()
        elif state != now[number]:
            Proposal.update(**state).where(Proposal.id == number).execute()


def capture(uuids: Iterable[str]) -> dict[str, State | None]:
    """The state of each memory now, links included; None for one that does not exist."""
    uuids = list(dict.fromkeys(uuids))
    states: dict[str, State | None] = dict.fromkeys(uuids)
    by_row: dict[int, str] = {}
    for start in range(0, len(uuids), CHUNK):
        chunk = uuids[start : start + CHUNK]
        for row in Memory.select().where(Memory.uuid.in_(chunk)):
            state = {f: getattr(row, f) for f in (*STATE_FIELDS, *BIRTH_FIELDS)}
            state["links"] = []
            states[row.uuid] = state
            by_row[row.id] = row.uuid
    for link in links_touching(by_row):
        for end in (link[0], link[2]):
            if end in states and states[end] is not None:
                states[end]["links"].append(link)  # type: ignore[index]
    for state in states.values():
        if state is not None:
            state["links"] = sorted(set(state["links"]))
    return states


def links_touching(by_row: dict[int, str]) -> list[tuple[str, str, str]]:
    """(from uuid, relation, to uuid) of every link with an end among `by_row`'s rows."""
    ids = list(by_row)
    found: set[tuple[str, str, str]] = set()
    Src, Dst = Memory.alias(), Memory.alias()  # noqa: N806 (peewee aliases read as tables)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        query = (
            Link.select(Src.uuid, Link.relation, Dst.uuid)
            .join(Src, on=(Link.src == Src.id))
            .switch(Link)
            .join(Dst, on=(Link.dst == Dst.id))
            .where(Link.src.in_(chunk) | Link.dst.in_(chunk))
            .tuples()
        )
        found.update(query)
    return list(found)


def conflicts(
    step: Step,
    expect: dict[str, State | None],
    target: dict[str, State | None],
    now: dict[str, State | None],
) -> str:
    """Why the memories no longer hold `expect` in what the step changed (fields, and of the
    links only those it added or removed); "" if they do."""
    stale = []
    for memory_id in step.ids:
        fields = step.changed_fields(memory_id)
        want, got, put = expect[memory_id], now[memory_id], target[memory_id]
        if not fields or (want is None and got is None):
            continue
        if want is None or got is None or not _holds(fields, want, got, put):
            stale.append((memory_id, want, got))
    if not stale:
        return ""
    memory_id, want, got = stale[0]
    title = _title((got or want or {}).get("content", memory_id))
    if got is None:
        what = f"“{title}” was deleted permanently since (Empty Trash)"
    elif want is None:
        what = f"“{title}” exists again"
    else:
        what = f"“{title}” was changed since"
    more = f" (and {len(stale) - 1} more)" if len(stale) > 1 else ""
    return f"{what}{more}, so this step cannot be applied over that change; nothing was changed."


def _holds(fields: tuple[str, ...], want: State, got: State, put: State | None) -> bool:
    if put is None:  # about to be purged: it must be exactly as the step left it
        return all(got[f] == want[f] for f in fields)
    if any(got[f] != want[f] for f in fields if f != "links"):
        return False
    drop, add = link_delta(want, put)
    links = set(got["links"])
    return drop <= links and not add & links


def link_delta(start: State | None, end: State) -> tuple[set, set]:
    """The links going from `start` to `end` removes, and those it adds."""
    before = set(start["links"]) if start is not None else set()
    return before - set(end["links"]), set(end["links"]) - before


def _title(content: str) -> str:
    line = next((s.strip() for s in content.splitlines() if s.strip()), "")
    return line if len(line) <= 60 else line[:59] + "…"


def write(
    step: Step,
    states: tuple[dict[str, State | None], dict[str, State | None], dict[str, State | None]],
    actor: Actor,
    pending: list[Change],
    change: str,
    *,
    save: Callable[..., Any],
) -> None:
    """Put every memory of `step` from its state `now` into its `target` state (`states` is
    expect, target, now; the caller checked the conflicts against `expect`). `save` writes
    an edit of a row as a new version, as every other edit is written."""
    expect, target, now = states
    for memory_id, state in target.items():
        # only what the step itself made or purged: one it merely touched (an add refreshed
        # its neighbour's context) and the person purged since came back from the Trash's
        # Empty at the undo of that add
        if state is not None and now[memory_id] is None and expect[memory_id] is None:
            _recreate(memory_id, state)
            pending.append(Change("created", memory_id, 1, actor.label))
    edits = {}
    for memory_id, state in target.items():
        got = now[memory_id]
        if state is None or got is None:
            continue
        fields = {f: state[f] for f in STATE_FIELDS if f in step.changed_fields(memory_id)}
        if fields := {f: v for f, v in fields.items() if got[f] != v}:
            edits[memory_id] = fields
    for row in _rows_of(list(edits)):
        save(row, edits[row.uuid], actor, pending, change=change, reason=None)
    rows = _ids_of([i for i, s in target.items() if s is not None])
    for memory_id, state in target.items():
        if state is not None and "links" in step.changed_fields(memory_id):
            _set_links(*link_delta(expect[memory_id], state), rows)
    for memory_id, state in target.items():
        if state is None and now[memory_id] is not None:
            Memory.delete().where(Memory.uuid == memory_id).execute()
            pending.append(Change("deleted", memory_id, None, actor.label, purged=True))


def _recreate(memory_id: str, state: State) -> None:
    values = {f: state[f] for f in (*STATE_FIELDS, *BIRTH_FIELDS)}
    row = Memory.create(uuid=memory_id, updated_at=clock.now(), version=1, **values)
    neighbours.refresh_around(row)


def _ids_of(uuids: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for start in range(0, len(uuids), CHUNK):
        chunk = uuids[start : start + CHUNK]
        query = Memory.select(Memory.uuid, Memory.id).where(Memory.uuid.in_(chunk)).tuples()
        found.update(query)
    return found


def _rows_of(uuids: list[str]) -> list[Memory]:
    rows: list[Memory] = []
    for start in range(0, len(uuids), CHUNK):
        rows.extend(Memory.select().where(Memory.uuid.in_(uuids[start : start + CHUNK])))
    return rows


def _set_links(
    drop: set[tuple[str, str, str]], add: set[tuple[str, str, str]], rows: dict[str, int]
) -> None:
    ids = dict(rows)
    ids.update(_ids_of(list({end for s, _r, d in drop | add for end in (s, d)} - ids.keys())))
    for src, relation, dst in drop:
        Link.delete().where(
            (Link.src == ids[src]) & (Link.dst == ids[dst]) & (Link.relation == relation)
        ).execute()
    for src, relation, dst in add:
        if src in ids and dst in ids:  # an end purged meanwhile takes its links with it
            Link.insert(
                src=ids[src], dst=ids[dst], relation=relation, created_at=clock.now()
            ).on_conflict_ignore().execute()
