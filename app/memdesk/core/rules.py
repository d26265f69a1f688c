"""The rules of memory: allowed values, limits, and who may write which layer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memdesk.core.actor import Actor
from memdesk.core.errors import NotAllowed

LAYERS = ("L0", "L1", "L2")
LAYER_NAMES = {"L0": "Identity", "L1": "Knowledge", "L2": "Archive"}
KINDS = ("fact", "preference", "decision", "learning", "observation", "context", "summary")
SOURCES = ("user", "agent", "system")
STATUSES = ("active", "inactive", "deleted")
VISIBILITIES = ("shared", "private")  # private: seen only by the agent that wrote it
# An agent control: active, and a note of its own that updates an older one of its own
# replaces it without an Inbox item (the person's choice, View ▸ Agents).
UPDATES_FINE = "updates_fine"
RELATIONS = ("related", "supersedes", "duplicate_of", "derived_from", "possible_update")
# Links that say the memory they point to is replaced or out of date: an agent's to the
# person's rule briefed it as "may be outdated" without an Inbox item.
JUDGING = ("supersedes", "duplicate_of", "possible_update")

IDENTITY_LIMIT = 1000  # characters of the profile as agents get it (see profile_size)
MAX_CONTENT_BYTES = 64 * 1024
MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_NAME_CHARS = 200  # project, task, agent
MAX_QUERY_CHARS = 64 * 1024  # any text typed or pasted is a query (10 kB must work)
MAX_K = 100
DEDUP_JACCARD = 0.6

# Agents keep knowledge; the identity profile is the person's (an agent proposes a change to
# it with identity.set), and the archive is written by the archive call and the person.
_WRITABLE = {
    "user": set(LAYERS),
    "agent": {"L1"},
    "system": set(LAYERS),
}


def writable_layers(actor: Actor) -> list[str]:
    return sorted(_WRITABLE[actor.source])


def check_may_write(actor: Actor, layer: str) -> None:
    if layer == "L0" and actor.source == "agent":
        raise NotAllowed(
            "the identity profile (L0) is the person's: an agent proposes a change to it with "
            "identity.set, which waits in the Inbox for the person",
            field="layer",
        )
    if layer not in _WRITABLE[actor.source]:
        allowed = ", ".join(sorted(_WRITABLE[actor.source]))
        raise NotAllowed(
            f"{actor.source} may not write layer {layer} ({LAYER_NAMES[layer]}); "
            f"allowed: {allowed}. Archive summaries go through archive.add.",
            field="layer",
        )


def wrote(actor: Actor, row: Any) -> bool:
    """Whether `actor` may change `row` as its own: the person and memdesk may change any
    memory, an agent only those it wrote here. A memory that came through sync from another
    machine (`writer`) is not this agent's, whatever its agent's name: a teammate's agent
    shares the host's name, and the person's agent rewrote and deleted its note."""
    if actor.source != "agent":
        return True
    return row.source == "agent" and row.agent == actor.agent and row.writer is None


def check_may_change(actor: Actor, row: Any) -> None:
    """An agent changes only the memories it wrote: the person's words (typed, or heard at a
    session end) and another agent's are not its to rewrite, hide, move or delete. It
    proposes a change instead (memory.correct), and the person decides in the Inbox."""
    if wrote(actor, row):
        return
    whose = f"agent {row.agent}'s" if row.source == "agent" else "the person's"
    if row.source == "agent" and row.writer is not None:
        whose = f"agent {row.agent}'s of {row.writer}"
    raise NotAllowed(
        f"memory {row.uuid} is {whose}: an agent changes only the memories it wrote; propose "
        "a change with memory.correct (it waits in the Inbox for the person)",
        field="id",
    )


def check_may_choose_injection(actor: Actor) -> None:
    """What memdesk brings up unasked is the person's to choose: an agent that could turn it
    off could silence the person's own rules."""
    if actor.source != "user":
        raise NotAllowed(
            "only the person decides whether a memory is brought up unasked (inject); "
            "agents may search for it as before",
            field="inject",
        )


def check_person(
    actor: Actor, what: str, *, field: str | None = None, or_memdesk: bool = False
) -> None:
    """Refuse `what` to anyone but the person (and memdesk itself, `or_memdesk`)."""
    refused = actor.source == "agent" if or_memdesk else actor.source != "user"
    if refused:
        raise NotAllowed(f"only the person may {what}", field=field)


def profile_size(lengths: Iterable[int]) -> int:
    """The identity profile's size as agents are given it and the person edits it: every
    active L0 entry, one after another on its own line, the line breaks counted."""
    lengths = list(lengths)
    return sum(lengths) + max(0, len(lengths) - 1)
