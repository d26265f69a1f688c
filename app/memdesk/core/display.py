"""Showing text an agent wrote: control and bidirectional-override characters made visible.

A right-to-left override makes "evil\u202etxt.exe" read as "evilexe.txt"; an ESC or BEL in a
memory would drive the person's terminal. Stored text is never altered; only what is shown.
"""

from __future__ import annotations

import re

# C0/C1 controls except tab and newline, the bidi embedding/override/isolate marks, and the
# characters that show as nothing (an agent's proposal differing by a zero-width space read as
# no change in the Inbox). Joiners stay: emoji and scripts are built with them.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e"
    "\u2028\u2029\u2060-\u2069\ufeff\U000e0000-\U000e007f]"
)


def visible(text: str) -> str:
    """`text` with each hidden control shown as ⟨U+XXXX⟩."""
    return _HIDDEN.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)
