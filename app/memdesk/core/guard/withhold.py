"""Why agents may not see a memory yet: what the injection guard found in its text, or that
its writer was not sure of it. Either way the person decides, in the inbox."""

from __future__ import annotations

import json

from memdesk.core import guard

CONFIDENT = 0.8  # an agent's write below this waits for the person
UNSURE = "unsure:"


def unsure(confidence: float) -> str:
    return f"{UNSURE} its writer gave confidence {confidence:g} (below {CONFIDENT:g})"


def reasons_for(
    content: str,
    source: str,
    *,
    confidence: float | None = None,
    earlier: str | None = None,
    scanned: list[str] | None = None,
) -> str | None:
    """The memory.flag value for `content` written by `source`: the guard's reasons read
    afresh (or `scanned` already, with guard.scan_many), plus a writer's doubt (given now, or
    kept from `earlier` until the person edits or accepts); None when nothing is withheld."""
    reasons = guard.scan(content) if scanned is None else list(scanned)
    if source != "user":
        if confidence is not None and confidence < CONFIDENT:
            reasons.append(unsure(confidence))
        elif earlier:
            reasons += [r for r in json.loads(earlier) if r.startswith(UNSURE)]
    return json.dumps(reasons) if reasons else None


def only_unsure(flag: list[str]) -> bool:
    return all(reason.startswith(UNSURE) for reason in flag)
