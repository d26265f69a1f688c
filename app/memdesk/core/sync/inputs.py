"""What one sync merges: the remote's changes as checked, this machine's memories, and the two
sides the merge compares them with, worked out with what the last sync held (held still,
looked at again, mended, shared again) so that no state goes out or comes in as new when it
is not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memdesk.core.authorship import Authorship
from memdesk.core.sync import mending
from memdesk.core.sync.arriving import Arrivals
from memdesk.core.sync.files import Unit
from memdesk.core.sync.merge import Side
from memdesk.core.sync.sides import TreeSide


@dataclass
class HeldBefore:
    """Of what the last sync held, `held`: those the remote has not changed since;
    `looked_again`: those this sync reads again, the `shared_again` among them."""

    held: set[str]
    looked_again: set[str]
    shared_again: set[str]


def held_before(
    last: dict[str, Any], changed: set[str], local: dict[str, Unit], theirs: set[str]
) -> HeldBefore:
    # Refused earlier and not changed since: held, or this machine's older state would go
    # out over the remote's as if it were new; those waiting (for a voucher of the person's
    # other machine, or for room past an earlier sync's budget) are looked at again (only
    # those: a crafted remote's thousands of refused files would be read again at every
    # sync).
    held = {i for i in last.get("held", []) if i not in changed}
    # Kept here (private, or its project kept local) when they were refused, shared again
    # since: held for good, neither side's edits went anywhere and no one was told.
    was_unshared = set(last.get("unshared", [])) & held
    shared_again = {i for i in was_unshared if i in local and i in theirs}
    looked_again = {i for i in last.get("waiting", []) if i in held and i in theirs}
    return HeldBefore(held, looked_again | shared_again, shared_again)


@dataclass
class Inputs:
    """`theirs`: the remote's tree; `arrived`: what it changed, checked; `local`: this
    machine's memories for it; `base` and `remote`: the sides the merge compares `local`
    with; `still`: held by the last sync and still held; `broken_before`: the last sync's
    memories held for a file it could not read; `shared_again`: those compared afresh, what
    both sides last agreed on not known."""

    theirs: TreeSide
    arrived: Arrivals
    local: dict[str, Unit]
    authors: Authorship
    base: Side
    remote: Side
    still: set[str]
    broken_before: dict[str, str]
    shared_again: set[str]


def merge_inputs(
    theirs: TreeSide,
    arrived: Arrivals,
    local: dict[str, Unit],
    authors: Authorship,
    sides: tuple[Side, Side],
    before: HeldBefore,
    again: set[str],
    broken_before: dict[str, str],
) -> Inputs:
    """The merge's inputs, from the base and remote `sides` as the trees give them and the
    held memories this sync read `again`. A mended memory is no longer refused: it leaves
    `arrived.refused`."""
    base_side, remote_side = sides
    # an older state is no opinion: as if the file were gone, this machine's goes back
    remote_side = Side(
        {i: d for i, d in remote_side.digests.items() if i not in arrived.older}, remote_side.load
    )
    still = before.held - again
    if mended := mending.mended(broken_before, still, local):
        still -= mended
        for memory_id in mended:
            arrived.refused.pop(memory_id, None)
        base_side = mending.sent_over(base_side, remote_side, mended)
    if taken_now := (again - before.shared_again) & arrived.incoming.keys():
        # never taken here: the state both sides last agreed on is this machine's
        agreed = {i: local[i].digest if i in local else None for i in taken_now}
        base_side = Side({**base_side.digests, **agreed}, base_side.load)
    if afresh := again & before.shared_again:
        # what both last agreed on is not known: alike is kept, unlike is asked
        base_side = Side({**base_side.digests, **dict.fromkeys(afresh)}, base_side.load)
    return Inputs(
        theirs, arrived, local, authors, base_side, remote_side, still, broken_before, afresh
    )
