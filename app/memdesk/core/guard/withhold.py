"""Why agents may not see a memory yet: what the injection guard found in its text, or that
its writer was not sure of it. Either way the person decides, in the inbox."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from memdesk.core import guard

CONFIDENT = 0.8  # an agent's write below this waits for the person
UNSURE = "unsure:"


def unsure(confidence: float) -> str:
    return f"{UNSURE} its writer gave confidence {confidence:g} (below {CONFIDENT:g})"


LABELLED = "in its "  # how a reason found in a label starts


def reasons_for(
    content: str,
    source: str,
    *,
    confidence: float | None = None,
    earlier: str | None = None,
    scanned: list[str] | None = None,
    labels: Mapping[str, Any] | None = None,
) -> str | None:
    """The memory.flag value for `content` written by `source`: the guard's reasons read
    afresh (or `scanned` already, with guard.scan_many), and in its `labels` (tags, project,
    task: agents get them with the text), plus a writer's doubt (given now, or kept from
    `earlier` until the person edits or accepts); None when nothing is withheld."""
    reasons = guard.scan(content) if scanned is None else list(scanned)
    reasons += in_labels(labels or {})
    if source != "user":
        if confidence is not None and confidence < CONFIDENT:
            reasons.append(unsure(confidence))
        elif earlier:
            reasons += [r for r in json.loads(earlier) if r.startswith(UNSURE)]
    return json.dumps(reasons) if reasons else None


def only_unsure(flag: list[str]) -> bool:
    return all(reason.startswith(UNSURE) for reason in flag)


def relabelled(flag: str | None, labels: Mapping[str, Any]) -> str | None:
    """`flag` once only the labels changed: what the text and the doubt held stays (the
    person's release of the text is not undone by a new tag), the labels are read afresh."""
    kept = [r for r in json.loads(flag or "[]") if not r.startswith(LABELLED)]
    reasons = kept + in_labels(labels)
    return json.dumps(reasons) if reasons else None


def in_labels(labels: Mapping[str, Any]) -> list[str]:
    """What the guard finds in a memory's tags (a list or its JSON), project and task: a
    synced file or a tag typed by mistake carried a token, or an instruction to agents."""
    tags = labels.get("tags") or []
    tags = json.loads(tags) if isinstance(tags, str) else tags
    named = [("tag", t) for t in tags] + [(k, labels.get(k)) for k in ("project", "task")]
    return [  # the label itself is not quoted: it may be the secret
        f"{LABELLED}{what}: {reason}"
        for what, label in named
        if isinstance(label, str) and label
        for reason in _scanned(label)
    ]


@functools.lru_cache(maxsize=4096)
def _scanned(label: str) -> tuple[str, ...]:
    # the same few tags and projects on thousands of memories (a first pull) are read once
    return tuple(guard.scan(label))
