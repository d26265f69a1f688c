"""The rules of memory: allowed values, limits, and who may write which layer."""

from __future__ import annotations

from collections.abc import Iterable

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

IDENTITY_LIMIT = 1000  # characters of the profile as agents get it (see profile_size)
MAX_CONTENT_BYTES = 64 * 1024
MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_NAME_CHARS = 200  # project, task, agent
MAX_QUERY_CHARS = 64 * 1024  # any text typed or pasted is a query (10 kB must work)
MAX_K = 100
DEDUP_JACCARD = 0.6

# Agents keep identity and knowledge; the archive is written by the archive call and the user.
_WRITABLE = {
    "user": set(LAYERS),
    "agent": {"L0", "L1"},
    "system": set(LAYERS),
}


def writable_layers(actor: Actor) -> list[str]:
    return sorted(_WRITABLE[actor.source])


def check_may_write(actor: Actor, layer: str) -> None:
    if layer not in _WRITABLE[actor.source]:
        allowed = ", ".join(sorted(_WRITABLE[actor.source]))
        raise NotAllowed(
            f"{actor.source} may not write layer {layer} ({LAYER_NAMES[layer]}); "
            f"allowed: {allowed}. Archive summaries go through archive.add.",
            field="layer",
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
