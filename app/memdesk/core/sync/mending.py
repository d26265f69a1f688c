"""A memory whose file in a remote cannot be read: a typo in its front matter made by hand on
a git host, a symbolic link, a file far past a memory's size. The sync holds it (the file may
hold the person's own new words, so this machine's version does not go over it unasked) and
says so at every sync; once the person changes the memory here, this machine's version
replaces the broken file. Left held for good, an edit here stayed on this machine without a
word while the file stayed broken."""

from __future__ import annotations

from memdesk.core.sync.files import IDENTITY, Unit
from memdesk.core.sync.merge import Side

MEND = "fix the file there, or change the memory here: this machine's version then replaces it"


def broken(
    unreadable: set[str], before: dict[str, str], still: set[str], local: dict[str, Unit]
) -> dict[str, str]:
    """Each held memory whose file could not be read, with the digest this machine's version
    had when it was first refused (kept from sync to sync until mended)."""
    now = {i: local[i].digest for i in unreadable - {IDENTITY} if i in local}
    kept = {i: digest for i, digest in before.items() if i in still and i in local}
    return now | kept


def mended(before: dict[str, str], still: set[str], local: dict[str, Unit]) -> set[str]:
    """Of the memories held for a broken file, those changed here since it was refused."""
    return {
        i for i, digest in before.items() if i in still and i in local and local[i].digest != digest
    }


def sent_over(base: Side, remote: Side, ids: set[str]) -> Side:
    """The base with the remote's (broken) state as agreed for `ids`, so the merge sends this
    machine's version over it."""
    if not ids:
        return base
    agreed = {i: remote.digests.get(i, base.digests.get(i)) for i in ids}
    return Side({**base.digests, **agreed}, base.load)


def notices(broken: dict[str, str], refused: dict[str, str], remote: str) -> list[str]:
    """What a sync says of the memories held for a file it refused at an earlier sync (this
    one names its own refusals): an edit of them here stays here until the person acts."""
    earlier = sorted(i[:8] for i in broken.keys() - refused.keys())
    if not earlier:
        return []
    return [
        f"{len(earlier)} memory(ies) not sent: their files in {remote} could not be read at an "
        f"earlier sync ({', '.join(earlier[:5])}{' …' if len(earlier) > 5 else ''}); {MEND}"
    ]
