"""The bounded word diff says exactly how one text becomes the other, whatever its size."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memdesk.core import word_diff

words = st.lists(st.sampled_from(["a ", "b ", "c ", "<a ", "\n"]), max_size=60)


def _apply(a: list[str], b: list[str], ops: list[word_diff.Opcode]) -> list[str]:
    out: list[str] = []
    at_a = at_b = 0
    for op, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (at_a, at_b)  # contiguous, in order
        out += a[i1:i2] if op == "equal" else b[j1:j2]
        if op == "equal":
            assert a[i1:i2] == b[j1:j2]
        at_a, at_b = i2, j2
    assert (at_a, at_b) == (len(a), len(b))
    return out


@given(words, words)
def test_the_opcodes_turn_one_text_into_the_other(a, b):
    assert _apply(a, b, word_diff.opcodes(a, b)) == b


def test_past_the_bound_the_changed_middle_is_one_replacement(monkeypatch):
    monkeypatch.setattr(word_diff, "MAX_COMPARED", 10)
    a = ["keep "] + ["x "] * 5 + ["end"]
    b = ["keep "] + ["y "] * 5 + ["end"]
    assert word_diff.opcodes(a, b) == [
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 6, 1, 6),
        ("equal", 6, 7, 6, 7),
    ]
