"""Showing text an agent wrote: control and bidirectional-override characters made visible.

A right-to-left override makes "evil\u202etxt.exe" read as "evilexe.txt"; an ESC or BEL in a
memory would drive the person's terminal. Stored text is never altered; only what is shown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memdesk.core import selectors

# The tag of what a session end heard the person say (and what the Inbox stored on accept).
HEARD_TAG = "gap-fill"

# C0/C1 controls except tab and newline, the bidi embedding/override/isolate marks, and the
# characters that show as nothing (an agent's proposal differing by a zero-width space read as
# no change in the Inbox). Joiners stay: emoji and scripts are built with them.
# The Hangul fillers and the grapheme joiner show as blanks; variation selectors that belong
# to no character (`selectors.stray`) as nothing.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e"
    "\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\u3164\ufeff\uffa0\U000e0000-\U000e007f]"
)


def visible(text: str) -> str:
    """`text` with each hidden control shown as ⟨U+XXXX⟩."""
    shown, start = [], 0
    for begin, end in selectors.stray(text):
        shown += [_HIDDEN.sub(_code, text[start:begin]), "".join(map(_named, text[begin:end]))]
        start = end
    return "".join(shown) + _HIDDEN.sub(_code, text[start:])


def _code(match: re.Match[str]) -> str:
    return _named(match.group())


def _named(char: str) -> str:
    return f"⟨U+{ord(char):04X}⟩"


def writer(memory: Mapping[str, Any]) -> str:
    """Whose words a memory holds, as the person reads it: what a session end heard the person
    say is theirs ("you, heard by claude-code"; a new user read "system" on their own words)."""
    if memory["source"] == "system" and memory.get("agent") and HEARD_TAG in memory["tags"]:
        return f"you, heard by {memory['agent']}"
    return memory.get("agent") or memory["source"]


def written_by(memory: Mapping[str, Any]) -> str:
    """`writer`, with the kind of writer an agent's name stands for ("agent (cursor)")."""
    short = writer(memory)
    return f"{memory['source']} ({short})" if short == memory.get("agent") else short


def quoted_start(words: str, room: int = 40) -> str:
    """The first `room` characters of `words` in quotes, cut with an ellipsis where they go
    on (an Undo label cut mid-word read 'Undo Correct "… in sprin"')."""
    return f"“{words[:room]}{'…' if len(words) > room else ''}”"
