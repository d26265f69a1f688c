"""The memory a new one says it corrects: "local postgres is on 5432, not 5433" names the value
it replaces. Worded otherwise than the memory holding 5433, it is no near duplicate of it, so
nothing linked the two: a new user's correction was stored beside the old port, and the
next sessions were briefed both, neither marked."""

from __future__ import annotations

import re

from memdesk.core.actor import Actor
from memdesk.core.memory import dedup
from memdesk.core.memory.draft import Draft
from memdesk.core.memory.reads import visible_to
from memdesk.core.search import retrieval
from memdesk.core.search.filters import Filters
from memdesk.store import Memory

_REPLACES = re.compile(
    r"(?:,|\(|\b(?:and|but))\s*(?:not|no longer|instead of|rather than)\s+(?:on |at |port |v)?"
    r"(?P<old>\d[\w.:/-]*\w)",
    re.IGNORECASE,
)
# A name it replaces: "Priya owns billing now, not Marta", "we moved hosting from Fly.io to
# Render" (a capital: "not the default" names nothing).
_REPLACES_NAME = re.compile(
    r"(?:(?:,|\(|\b(?:and|but))\s*(?:not|no longer|instead of|rather than)\s+|"
    r"\b(?:moved|switched|migrated) (?:[\w.-]+ ){0,2}from )(?P<old>[A-Z][\w.-]*\w)"
)
# Besides the value, words the two must share to be about the same thing ("local postgres");
# a name is rarer than a number, and one word more says what it was ("billing", "hosting").
_SHARED = {"value": 2, "name": 1}


def replaced_by(draft: Draft, actor: Actor) -> Memory | None:
    """The active memory, in the draft's layer and project (or of none) and readable by
    `actor`, that holds the value `draft` says it replaces and most of what it is about; None
    if none does."""
    said = _REPLACES.search(draft.content)
    kind = "value"
    if said is None:
        said, kind = _REPLACES_NAME.search(draft.content), "name"
    if said is None:
        return _set_to_another_value(draft, actor)
    old = said["old"].casefold()
    holds_old = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w]|\.\d)")
    about = dedup.key_words(draft.content) - dedup.key_words(old)
    best, most = None, _SHARED[kind] - 1
    for hit in retrieval.containing_any(sorted(dedup.word_set(old)), _filters(draft), k=20):
        if hit["project"] not in (draft.project, None) or not holds_old.search(
            hit["content"].casefold()
        ):
            continue
        shared = len(about & dedup.key_words(hit["content"]))
        if shared > most:
            row = Memory.get(Memory.uuid == hit["uuid"])
            if visible_to(row, actor):
                best, most = row, shared
    return best


# One number, with its unit if it has one: "30 minutes", "port 5433" (its unit is before it).
_VALUE = re.compile(
    r"(?<![\w.:/-])(?:(?P<before>port|on|at|v) )?(?P<number>\d+(?:[.:]\d+)*)(?![\w.:/-]*\d)"
    r"(?:\s?(?P<unit>%|[a-z]+))?",
    re.IGNORECASE,
)


def _set_to_another_value(draft: Draft, actor: Actor) -> Memory | None:
    """ "Correction: the CI timeout is 30 minutes" names no value it replaces: the memory it sets
    right holds every word it is about, and the same kind of value ("minutes") with another
    number, alone of those it may read."""
    values = list(_VALUE.finditer(draft.content))
    if len(values) != 1:
        return None
    value = values[0]
    kind = ((value["before"] or "") + " " + (value["unit"] or "")).casefold()
    about = dedup.key_words(draft.content) - dedup.key_words(value[0]) - _CHANGE_WORDS
    if len(about) < _SHARED["value"]:
        return None
    found = []
    for hit in retrieval.containing_any(sorted(about), _filters(draft), k=20):
        if hit["project"] not in (draft.project, None):
            continue
        if not about <= dedup.key_words(hit["content"]):
            continue
        theirs = [
            m
            for m in _VALUE.finditer(hit["content"])
            if ((m["before"] or "") + " " + (m["unit"] or "")).casefold() == kind
        ]
        if len(theirs) == 1 and theirs[0]["number"] != value["number"]:
            row = Memory.get(Memory.uuid == hit["uuid"])
            if visible_to(row, actor):
                found.append(row)
    return found[0] if len(found) == 1 else None


# Words that say a value changed, not what it is about.
_CHANGE_WORDS = dedup.key_words("now correction actually currently anymore new")


def _filters(draft: Draft) -> Filters:
    # a project's correction may set right what holds everywhere ("postgres runs on 5433",
    # told with no project, corrected in a session in the project)
    return Filters(
        layers=(draft.layer,),
        statuses=("active",),
        project=draft.project,
        with_global=draft.project is not None,
    )
