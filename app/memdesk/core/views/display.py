"""Showing text an agent wrote: control and bidirectional-override characters made visible.

A right-to-left override makes "evil\u202etxt.exe" read as "evilexe.txt"; an ESC or BEL in a
memory would drive the person's terminal. Stored text is never altered; only what is shown.
"""

from __future__ import annotations

import re

# C0/C1 controls except tab and newline, and the bidi embedding/override/isolate marks.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with each hidden control shown as ⟨U+XXXX⟩."""
    return _HIDDEN.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)
