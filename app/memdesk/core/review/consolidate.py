"""Consolidation: near-duplicates become merge proposals; the
person merges. Nothing is merged without them, and a merge deletes nothing.

Finding them is an all-pairs similarity join with prefix filtering (Bayardo et al., "Scaling
up all pairs similarity search", 2007): with words ordered rarest first, two word sets at
least t alike share one of each set's first |x| - ceil(t·|x|) + 1 words, so only pairs
sharing such a word are compared. A pair counts only when it also restates (no number,
negation or name differs: `dedup.restates`).
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from memdesk.core import clock, rules, validate
from memdesk.core.actor import Actor
from memdesk.core.desk import Desk
from memdesk.core.errors import NotAllowed, VersionConflict
from memdesk.core.memory import dedup
from memdesk.core.memory.proposals import Proposals
from memdesk.core.memory.reads import Reads, hidden_from_agents
from memdesk.core.memory.undo import Undo
from memdesk.core.memory.versions import Versions
from memdesk.core.review import inbox_items
from memdesk.store import Link, Memory, Proposal

Progress = Callable[[int, int], None]
TRUST = {"user": 0, "agent": 1, "system": 2}  # the keeper: the person's own words first
# Alike texts compared word by word per memory, and index entries read per memory: an agent's
# 8,000 near-copies that each differ by a number made every pair alike (165 s), and 32,000
# memories drawn from 25 common words made every word's entries long (195 s, 100,000 never
# ended). Bounded, both cost linear time; a memory's real restatements share a rare word,
# whose entries come first, or are among its newest same-sized neighbours.
MAX_COMPARED = 64
MAX_SCANNED = 128


class Consolidation:
    """find_duplicates, and the merge an accepted merge proposal makes."""

    def __init__(
        self, desk: Desk, reads: Reads, versions: Versions, proposing: Proposals, undo: Undo
    ) -> None:
        self.desk = desk
        self.reads = reads
        self.versions = versions
        self.proposing = proposing
        self.undo = undo

    def find_duplicates(
        self, *, project: str | None = None, progress: Progress | None = None
    ) -> dict[str, Any]:
        """Propose merging every cluster of active memories that say the same thing (same
        layer, project and visibility); a cluster pending or rejected before is not proposed
        again. Returns how many memories were read and the new proposals' keys."""
        project = validate.name(project, "project")
        query = Memory.select(
            Memory.uuid,
            Memory.content,
            Memory.layer,
            Memory.project,
            Memory.visibility,
            Memory.agent,
            Memory.source,
            Memory.reinforce_count,
            Memory.created_at,
        ).where((Memory.status == "active") & Memory.flag.is_null() & (Memory.layer != "L0"))
        if project is not None:
            query = query.where(Memory.project == project)
        rows = list(query.tuples())
        clusters = _clusters(rows, rules.DEDUP_JACCARD, progress)
        taken, known = _already_proposed()
        by_id = {row[0]: row for row in rows}
        keys: list[str] = []

        def propose() -> None:
            with self.desk.write() as pending:
                for cluster in clusters:
                    members = sorted(
                        (by_id[u] for u in cluster if u not in taken),
                        key=lambda r: (TRUST.get(r[6], 3), -r[7], r[8]),
                    )
                    keeper = members[0] if members else None
                    same = [m for m in members[1:] if dedup.restates(keeper[1], m[1])]
                    if not same or frozenset(m[0] for m in [keeper, *same]) in known:
                        continue
                    subject = [keeper[0], *(m[0] for m in same)]
                    row = self.proposing.propose(
                        pending,
                        kind="merge",
                        content=keeper[1],
                        why=f"{len(subject)} memories say the same thing",
                        subject=json.dumps(subject),
                        support=len(subject),
                    )
                    keys.append(f"proposal:{row.id}")

        self.undo.as_one(propose)
        return {"memories": len(rows), "proposed": keys}

    def merge(
        self, keeper_id: str, other_ids: list[str], content: str | None, actor: Actor
    ) -> None:
        """Keep one memory with the union of the cluster's tags, links and importance; the
        others are retired, linked to it as duplicate_of, their history kept."""
        with self.desk.write() as pending:
            keeper = self.reads.row(keeper_id)
            others = self.reads.rows(other_ids)
            for row in (keeper, *others):
                if row.status != "active":
                    raise NotAllowed(
                        f"{inbox_items.gone_now(row.content, row.status)}, so this merge no "
                        "longer applies; reject it and run Find Duplicates again",
                        field="keys",
                    )
            if len({hidden_from_agents(r) for r in (keeper, *others)}) > 1:
                # made private or withheld since it was proposed: merged, its tags went to
                # what every agent reads, or what agents read was retired for what they cannot
                hidden = next(r for r in (keeper, *others) if hidden_from_agents(r))
                raise VersionConflict(
                    f"memory {hidden.uuid[:8]} ({hidden.content[:80]!r}) is now private or "
                    "withheld from agents, unlike the others, so this merge no longer applies "
                    "(it would show its words or tags to agents, or retire theirs for it); "
                    "reject it and run Find Duplicates again",
                    field="keys",
                )
            # the keeper's own tags first, and no more than any memory may hold: 97 tags from
            # an agent's copies made every later backup and export refused by restore/import
            tags = list(dict.fromkeys(t for r in (keeper, *others) for t in json.loads(r.tags)))
            tags = tags[: rules.MAX_TAGS]
            fields: dict[str, Any] = {
                "tags": json.dumps(tags, ensure_ascii=False),
                "importance": max(r.importance for r in (keeper, *others)),
            }
            if content is not None:
                fields["content"] = content
            fields = {k: v for k, v in fields.items() if getattr(keeper, k) != v}
            merged = ", ".join(
                f"{r.uuid} ({r.agent or r.source}, {r.created_at[:10]})" for r in others
            )
            reason = f"merged {merged}"
            self.versions.save(keeper, fields, actor, pending, change="merge", reason=reason)
            stamp = clock.now()
            for row in others:
                why = f"merged into {keeper.uuid}"
                self.versions.set_status(
                    row, "inactive", actor, pending, change="merge", reason=why
                )
                Link.insert(
                    src=row, dst=keeper, relation="duplicate_of", created_at=stamp
                ).on_conflict_ignore().execute()
            _copy_links({r.id for r in others}, keeper, stamp)


def _copy_links(others: set[int], keeper: Memory, stamp: str) -> None:
    """The keeper holds the merged memories' links to the rest of the graph too."""
    for link in Link.select().where(Link.src.in_(others) | Link.dst.in_(others)):
        src = keeper.id if link.src_id in others else link.src_id
        dst = keeper.id if link.dst_id in others else link.dst_id
        if src != dst and link.relation != "duplicate_of":
            Link.insert(
                src=src, dst=dst, relation=link.relation, created_at=stamp
            ).on_conflict_ignore().execute()


def _already_proposed() -> tuple[set[str], set[frozenset[str]]]:
    """Memories in a pending merge (not proposed twice), and every cluster proposed before."""
    taken: set[str] = set()
    known: set[frozenset[str]] = set()
    for subject, status in (
        Proposal.select(Proposal.subject, Proposal.status)
        .where((Proposal.kind == "merge") & (Proposal.status != "accepted"))
        .tuples()
    ):
        uuids = json.loads(subject)
        known.add(frozenset(uuids))
        if status == "pending":
            taken.update(uuids)
    return taken, known


def _clusters(rows: list[tuple], threshold: float, progress: Progress | None) -> list[list[str]]:
    """Groups of uuids whose texts restate each other (connected by alike pairs)."""
    sets = [dedup.word_set(row[1]) for row in rows]
    frequency = Counter(w for words in sets for w in words)
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    index: dict[tuple, list[int]] = defaultdict(list)
    order = sorted(range(len(rows)), key=lambda i: len(sets[i]))
    for done, i in enumerate(order):
        words = sets[i]
        if progress is not None and done % 2000 == 0:
            progress(done, len(order))
        if not words:
            continue
        group = (rows[i][2], rows[i][3], rows[i][4], rows[i][5] if rows[i][4] == "private" else "")
        ranked = sorted(words, key=lambda w: (frequency[w], w))
        size = len(words)
        # Earlier sets are no larger: one at least t alike holds ceil(t·size) words, and
        # shares one of its (shorter) indexing prefix with this one's probing prefix.
        smallest = math.ceil(threshold * size)
        seen: set[int] = set()
        compared = scanned = 0
        for word in ranked[: size - smallest + 1]:
            # newest-indexed first: entries are in size order, so the rest are too small
            for j in reversed(index.get((group, word), ())):
                if len(sets[j]) < smallest or scanned == MAX_SCANNED:
                    break
                if j in seen:
                    continue
                seen.add(j)
                scanned += 1
                shared = len(words & sets[j])  # Jaccard inline: this loop is the hot path
                alike = shared >= threshold * (size + len(sets[j]) - shared)
                if alike and root(i) != root(j):
                    compared += 1
                    if dedup.restates(rows[j][1], rows[i][1]):
                        parent[root(i)] = root(j)
                    if compared == MAX_COMPARED:
                        break  # a flood of near-copies, each differing by a name or a number
            if compared == MAX_COMPARED or scanned == MAX_SCANNED:
                break
        for word in ranked[: size - math.ceil(2 * threshold / (1 + threshold) * size) + 1]:
            index[(group, word)].append(i)
    if progress is not None:
        progress(len(order), len(order))
    members: dict[int, list[str]] = defaultdict(list)
    for i, row in enumerate(rows):
        members[root(i)].append(row[0])
    return [m for m in members.values() if len(m) > 1]
