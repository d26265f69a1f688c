"""The derived `context` of a memory: the text of its neighbours in the same task, then its
own text as the index can read it when it is written without spaces (see
`memdesk.store.unspaced`).

A dialog turn or a step of a task often only makes sense beside the ones around it (an answer
names neither the question nor its subject). Indexing the neighbours' text, at a lower weight,
lets a query find the memory itself; search still returns the memory, never the neighbours.
"""

from __future__ import annotations

import re

import peewee

from memdesk.store import Memory, unspaced

BEFORE, AFTER = 3, 2
# Most often the memory just before is what this one answers: it counts twice.
PREVIOUS_REPEAT = 3
# A leading "Speaker: " would put the neighbour's name into this memory's text.
_SPEAKER = re.compile(r"^[^:\n]{1,40}:\s+")


def _body(content: str) -> str:
    return _SPEAKER.sub("", content, count=1)


def own_context(content: str) -> str:
    """The context a memory outside any task has: its own text as the index can read its
    words (`unspaced.indexable`), or nothing."""
    return unspaced.indexable(content)


def context_for(before: list[str], after: list[str], own: str = "") -> str:
    """`before`: earlier contents, oldest first; `after`: later ones, nearest first; `own`:
    the memory's content."""
    parts = [_body(c) for c in before[-BEFORE:]]
    if before:
        parts += [_body(before[-1])] * (PREVIOUS_REPEAT - 1)
    parts += [_body(c) for c in after[:AFTER]]
    # The neighbours' text stays as it is: spaced, their words would outrank the memory's
    # own (the one before is written three times).
    return "\n".join(p for p in ("\n".join(parts), own_context(own)) if p)


def refresh_around(row: Memory) -> None:
    """Recompute the context of `row` and of the neighbours whose window it falls in."""
    if row.task is None:
        if (text := own_context(row.content)) != row.context:
            Memory.update(context=text).where(Memory.id == row.id).execute()
        return
    reach = max(BEFORE, AFTER) * 2
    key = (row.created_at, row.id)
    same_task = Memory.select(Memory.id, Memory.content, Memory.context).where(
        (Memory.task == row.task) & (Memory.id != row.id)
    )
    earlier = list(
        same_task.where(peewee.Tuple(Memory.created_at, Memory.id) < key)
        .order_by(Memory.created_at.desc(), Memory.id.desc())
        .limit(reach)
    )[::-1]
    later = list(
        same_task.where(peewee.Tuple(Memory.created_at, Memory.id) > key)
        .order_by(Memory.created_at, Memory.id)
        .limit(reach)
    )
    window = [*earlier, row, *later]
    contents = [m.content for m in window]
    middle = len(earlier)
    for i in range(max(0, middle - AFTER), min(len(window), middle + BEFORE + 1)):
        text = context_for(
            contents[max(0, i - BEFORE) : i], contents[i + 1 : i + 1 + AFTER], contents[i]
        )
        if text != window[i].context:
            Memory.update(context=text).where(Memory.id == window[i].id).execute()


def refresh_task(task: str) -> None:
    """Recompute every context in a task in one pass (after a batch add or an import)."""
    rows = list(
        Memory.select(Memory.id, Memory.content, Memory.context)
        .where(Memory.task == task)
        .order_by(Memory.created_at, Memory.id)
    )
    contents = [m.content for m in rows]
    for i, row in enumerate(rows):
        text = context_for(
            contents[max(0, i - BEFORE) : i], contents[i + 1 : i + 1 + AFTER], contents[i]
        )
        if text != row.context:
            Memory.update(context=text).where(Memory.id == row.id).execute()
