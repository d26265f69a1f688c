"""The injection guard: text that tries to steer the model reading it, hides words from the
person, carries data out through links, or holds a secret, found in a memory before agents
ever see it.

A flagged memory is stored and shown to the person, but withheld from agents until the person
clears it. Every rule reads every form of the text (`views.read`: look-alike letters,
leetspeak, spacing and split words undone), and text hidden in base64, hex, ROT13 or tag
characters is decoded and read again. tests/data/guard holds the corpus it is measured on
(bench/guard.py). `withhold` turns what the guard finds into a memory's flag.

May import nothing else of memdesk: every room that takes text in uses it.
"""

from __future__ import annotations

import json

from memdesk.core.guard import apart, languages, links, secrets, steering, views

_DEPTH = 2  # base64 inside base64 is read; deeper nesting is not worth the time
# Long text is read in overlapping windows: an instruction is a sentence or two, and no rule
# then costs more than a window's worth on text built to make expressions backtrack.
_WINDOW, _OVERLAP = 1_000, 200


def flag_of(text: str) -> str | None:
    """The memory.flag value for `text`: its reasons as JSON, or None when it is clean."""
    reasons = scan(text)
    return json.dumps(reasons) if reasons else None


def scan(text: str) -> list[str]:
    """Why `text` should be withheld from agents (empty: it need not be)."""
    return apart.scan(text, _scan_here)


def reading(expected: int) -> apart.Reading:
    """`with guard.reading(n) as r:` hand texts over with `r.read(texts)` as they come, then
    `r.findings()`: each text's `scan`, many read side by side while the caller goes on."""
    return apart.Reading(_scan_here, expected)


def _scan_here(text: str) -> list[str]:
    found = views.invisible(text)
    for window in _windows(text):
        found += _read(window, _DEPTH)
    return sorted(set(found), key=found.index)


def _windows(text: str) -> list[str]:
    if len(text) <= _WINDOW:
        return [text]
    step = _WINDOW - _OVERLAP
    return [text[start : start + _WINDOW] for start in range(0, len(text) - _OVERLAP, step)]


def _read(text: str, depth: int) -> list[str]:
    reading = views.read(text)
    found = steering.find(reading) + languages.find(reading.plain) + links.find(text)
    found += secrets.find(text)
    if depth and not found:
        for how, decoded in views.hidden_texts(text)[:8]:
            inner = [r for r in _read(decoded[:_WINDOW], depth - 1) if _instruction(r)]
            if inner:
                found += [f"hides words in {how}: {inner[0]}"]
                break
    return found


def _instruction(reason: str) -> bool:
    """Decoded text counts when it steers; a secret-looking run inside an encoding (a key
    fragment, random bytes that happen to decode) is too likely to be noise."""
    return not reason.startswith("looks like")
