"""Variation selectors that belong to no character.

A selector picks how the character before it looks (an emoji in colour, a CJK ideograph's
variant); on its own it shows as nothing. An agent can carry a whole message in selectors
after one emoji, a byte each (U+FE00–FE0F for 0–15, U+E0100–E01EF for the rest): the person
sees "Team prefers tabs 🙂" while another agent decodes an instruction. Ordinary text uses
one selector after a character that takes it, never a run.
"""

from __future__ import annotations

import re
import unicodedata

_RUN = re.compile("(.?)([\ufe00-\ufe0f\U000e0100-\U000e01ef]+)", re.S)
_KEYCAP_BASES = frozenset("0123456789#*")


def stray(text: str) -> list[tuple[int, int]]:
    """The spans of `text` holding selectors that no character before them takes."""
    if text.isascii():
        return []
    return [
        match.span(2)
        for match in _RUN.finditer(text)
        if len(match[2]) > 1 or not _takes(match[1], match[2])
    ]


def _takes(base: str, selector: str) -> bool:
    if not base:
        return False
    if selector >= "\U000e0100":  # ideographic variation sequences
        return unicodedata.name(base, "").startswith("CJK")
    if selector in "\ufe0e\ufe0f":  # text or emoji style; "1️⃣" is a digit's keycap
        return not base.isascii() or base in _KEYCAP_BASES
    return not base.isascii()
