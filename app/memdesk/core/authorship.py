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
from collections.abc import Mapping
from dataclasses import dataclass, field

DIGEST_CHARS = 16  # 64 bits of SHA-256: enough that a teammate cannot make a text to match


def digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


@dataclass(frozen=True)
class Authorship:
    mine: str | None = None  # this machine's writer name
    machines: frozenset[str] = frozenset()  # the person's other machines' writer names
    team_projects: frozenset[str] = frozenset()  # projects synced through a team remote here
    vouched: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # writer: {id: digest}

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
        if self.vouched.get(writer, {}).get(memory_id) == digest(content):
            return None
        return f"{writer} through a team remote, unconfirmed by that machine"


EVERYONE_ELSE = Authorship()  # nothing synced is known as the person's: every writer is named
