"""The inbox's sync items (mixed into MemoryService through Sync): one per memory two machines
could not merge alone, kept up to date by later syncs, and what accepting or rejecting each
does."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

from memdesk.core.actor import Actor
from memdesk.core.errors import MemdeskError, NotAllowed
from memdesk.core.events import Change
from memdesk.core.sync import config as sync_config
from memdesk.core.sync import git
from memdesk.core.sync.config import Remote
from memdesk.core.sync.incoming import Incoming, checked
from memdesk.core.sync.merge import DELETED_HERE, DELETED_THERE, DISAGREE
from memdesk.core.sync.sides import TreeSide
from memdesk.store import Proposal


class SyncQuestions:
    """_ask leaves an item; _accept_sync and _reject_sync are the Inbox's accept and reject
    for it."""

    path: Path

    def _ask(self, remote: Remote, conflict: Any, pending: list[Change]) -> None:
        """One inbox item per memory and kind: a later sync updates it, never adds another."""
        mine, theirs = conflict.mine.fields(), conflict.theirs.fields()
        shown = theirs if conflict.kind != DELETED_THERE else mine
        content = shown.get("content") or mine.get("content") or "(deleted)"
        why = _why(conflict.kind, remote.name, mine, theirs)
        subject = json.dumps([conflict.id])
        existing = Proposal.get_or_none(
            (Proposal.status == "pending")
            & (Proposal.kind == conflict.kind)
            & (Proposal.subject == subject)
        )
        if existing is not None:
            self._set_proposal(existing, content=content, why=why, agent=remote.name)  # type: ignore[attr-defined]
            return
        self._propose(  # type: ignore[attr-defined]
            pending,
            kind=conflict.kind,
            content=content,
            why=why,
            subject=subject,
            agent=remote.name,
            memory=conflict.id,
        )

    def _accept_sync(self, proposal: Proposal, content: str | None, actor: Actor) -> None:
        memory_id = json.loads(proposal.subject)[0]
        if proposal.kind in (DELETED_THERE, DELETED_HERE):
            self.remove(memory_id, reason=f"deleted on {proposal.agent} too", actor=actor)  # type: ignore[attr-defined]
            return
        theirs = self._synced_state(proposal.agent, memory_id)
        with self._write() as pending:  # type: ignore[attr-defined]
            self._take(proposal.agent, [theirs], {}, pending)
        if content is not None:
            self.update(memory_id, content=content, actor=actor)  # type: ignore[attr-defined]

    def _reject_sync(self, proposal: Proposal, actor: Actor) -> None:
        """Keeping this machine's version makes it the newest, so the next sync sends it."""
        if proposal.kind != DISAGREE:
            return
        with self._write() as pending:  # type: ignore[attr-defined]
            row = self._row(json.loads(proposal.subject)[0])  # type: ignore[attr-defined]
            why = f"kept over {proposal.agent}'s version"
            self._save(row, {}, actor, pending, change="sync", reason=why)  # type: ignore[attr-defined]

    def _synced_state(self, remote_name: str | None, memory_id: str) -> Incoming:
        config = sync_config.load(self.path)
        try:
            remote = config.remote(remote_name)
        except MemdeskError:
            raise NotAllowed(
                f"sync with {remote_name} is no longer set up, so its version cannot be "
                "read; reject the item to keep this machine's",
                field="keys",
            ) from None
        mirror = git.Mirror(sync_config.mirror_path(self.path, remote), remote.branch)
        side = TreeSide.read(mirror, mirror.base())
        if memory_id not in side.ids:
            raise NotAllowed(f"{remote.name} no longer holds memory {memory_id}", field="keys")
        return checked(side.load(memory_id))


def _why(kind: str, remote: str, mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    if kind == DELETED_THERE:
        return (
            f"Deleted on {remote}, but edited here since the last sync: the edit is kept on "
            "every machine. Accept to delete it here too (it goes to the Trash); reject to keep it."
        )
    if kind == DELETED_HERE:
        return (
            f"You deleted this here, but it was edited on {remote} since the last sync, so it "
            "is back with that edit. Accept to delete it again; reject to keep it."
        )
    return (
        f"Two machines disagree: this memory changed here and on {remote} since the last "
        "sync. This machine keeps its version until you decide. Accept to take the other "
        f"version; reject to keep this one. Words: {_word_diff(mine, theirs)}"
    )


def _word_diff(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """What the other version changed, word by word: [-here-] {+there+}."""
    a, b = str(mine.get("content", "")).split(), str(theirs.get("content", "")).split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(a[i1:i2]) if i2 - i1 <= 6 else f"{a[i1]} … {a[i2 - 1]}")
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    words = " ".join(out)
    others = sorted(
        k for k in theirs if k not in ("content", "version", "updated") and mine.get(k) != theirs[k]
    )
    fields = "; ".join(f"{k}: [-{_shown(mine.get(k))}-] {{+{_shown(theirs[k])}+}}" for k in others)
    return words + (f" (also differs: {fields})" if others else "")


def _shown(value: Any) -> str:
    """A field's value as a person reads it in the diff: a list as its items."""
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 80 else text[:79] + "…"
