"""What changed between two texts, word by word, in bounded time.

difflib's matcher is quadratic on repeated words: an agent's 60 KB memory of "<a <a <a …"
froze the window for 56 s each time its History was shown (a first version is diffed with
itself), and every agent waited behind it. The words both texts start and end with are
matched first, in linear time; only what lies between is given to difflib, and past
MAX_COMPARED word pairs it is shown as replaced whole.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

# Word pairs difflib may weigh: a thousand words changed on each side, under 0.1 s at worst.
MAX_COMPARED = 1_000_000

Opcode = tuple[str, int, int, int, int]


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """difflib's opcodes turning `a` into `b` (equal, delete, insert, replace)."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    out: list[Opcode] = [("equal", 0, start, 0, start)] if start else []
    middle_a, middle_b = a[start:end_a], b[start:end_b]
    if len(middle_a) * len(middle_b) > MAX_COMPARED:
        out.append(("replace", start, end_a, start, end_b))
    elif middle_a or middle_b:
        matcher = difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False)
        out += [
            (op, i1 + start, i2 + start, j1 + start, j2 + start)
            for op, i1, i2, j1, j2 in matcher.get_opcodes()
        ]
    if end_a < len(a):
        out.append(("equal", end_a, len(a), end_b, len(b)))
    return out
