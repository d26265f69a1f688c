"""Whose words a synced memory is: the person's own, or someone else's claim.

A file's writer is only a name, and a team remote is written by teammates: one of them could
put a rule into a team project in the name of the person's other machine (its name is in the
files that machine pushed), or edit that machine's memory, which keeps its author's name.
What the person's machines wrote in a team project is therefore vouched for through the
person's own remote, which only their machines write: each lists the memories it wrote there
with a digest of their text (`core/sync/vouching.py`). A memory in a team project counts as
the person's own words when this machine wrote it, or when its writer is one of the person's
machines and that machine vouched for exactly this text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DIGEST_CHARS = 16  # 64 bits of SHA-256: enough that a teammate cannot make a text to match
# What decides what agents are given of a memory: a teammate who changed only whether it is
# briefed, its status or how sure it is, in the person's name, hid the person's rule.
VERSION_FIELDS = (
    "content",
    "layer",
    "kind",
    "status",
    "source",
    "agent",
    "project",
    "task",
    "tags",
    "importance",
    "confidence",
    "inject",
    "supersedes",
)


def digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def version_digest(values: Mapping[str, Any]) -> str:
    """The digest of a version's fields as stored (a row's columns, or a synced file's)."""
    plain = [
        bool(values[f]) if f == "inject" else values[f] if f != "importance" else float(values[f])
        for f in VERSION_FIELDS
    ]
    return digest(json.dumps(plain, ensure_ascii=False))


def voucher(values: Mapping[str, Any]) -> str:
    """What a machine vouches for a memory it wrote: its text's digest and its version's."""
    return f"{digest(values['content'])}.{version_digest(values)}"


@dataclass(frozen=True)
class Authorship:
    mine: str | None = None  # this machine's writer name
    machines: frozenset[str] = frozenset()  # the person's other machines' writer names
    team_projects: frozenset[str] = frozenset()  # projects synced through a team remote here
    # writer: {memory id: `voucher`}
    vouched: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def someone_else(
        self, writer: str | None, memory_id: str, project: str | None, content: str
    ) -> str | None:
        """The writer to name when the memory is not the person's own words (None: it is)."""
        if writer is None or writer == self.mine:
            return None  # made here, or sent from here
        if writer not in self.machines:
            return writer
        if project not in self.team_projects:
            return None  # only the person's own remote carries it, and only they write there
        if self.vouched.get(writer, {}).get(memory_id, "").split(".")[0] == digest(content):
            return None
        return f"{writer} through a team remote, unconfirmed by that machine"

    def vouches_for(self, writer: str, memory_id: str, values: Mapping[str, Any]) -> bool:
        """Whether `writer`, a machine of the person's, vouched for this very version."""
        return self.vouched.get(writer, {}).get(memory_id) == voucher(values)


EVERYONE_ELSE = Authorship()  # nothing synced is known as the person's: every writer is named

# What a memory in someone else's name reads as to whoever lists or searches it: an agent
# reading only `source` took a teammate's rule, synced as "user", for the person's own.
SYNCED = "synced"
_PERSONS = ("user", "system")


def as_told(memory: dict[str, Any], own: Authorship) -> dict[str, Any]:
    """`memory` (as `get`, `list` or `search` give it), its `source` "synced" and its writer
    in `synced_from` when it is in the person's name but not their words."""
    if memory.get("writer") is None or memory["source"] not in _PERSONS:
        return memory
    name = own.someone_else(memory["writer"], memory["id"], memory["project"], memory["content"])
    return memory if name is None else {**memory, "source": SYNCED, "synced_from": name}
