"""The forms of a memory's text the guard reads, so that one rule catches every disguise of
the same words: invisible characters removed, NFKC, Unicode's look-alike letters mapped to
Latin (the confusables data of UTS #39), leetspeak read as letters, spaced-out letters
joined, and text hidden in base64, hex, ROT13 or Unicode tag characters decoded."""

from __future__ import annotations

import base64
import binascii
import codecs
import functools
import json
import re
import unicodedata
from pathlib import Path
from typing import NamedTuple

from memdesk.core import selectors

# Never seen in ordinary text: each is flagged where it stands, as well as removed.
_FLAGGED = re.compile("[\u200b\u2060-\u2064\u180e\u115f\u1160\u3164\uffa0]|(?<=.)\ufeff", re.S)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
# An emoji subdivision flag (England, Scotland, Wales) is a black flag and tag letters.
_TAG_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
_JOINERS = re.compile("[\u200c\u200d]")
# Removed before matching but not flagged: soft hyphens, the grapheme joiner, direction marks
# and variation selectors all occur in ordinary text.
_STRIPPED = re.compile(
    "[\u00ad\u034f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u180e\u115f\u1160"
    "\u3164\uffa0\ufeff\ufe00-\ufe0f\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
# Scripts that join letters with U+200C/U+200D as part of their spelling.
_JOINING_SCRIPTS = (
    "ARABIC", "SYRIAC", "NKO", "MANDAIC", "MONGOLIAN", "DEVANAGARI", "BENGALI", "GURMUKHI",
    "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA", "TIBETAN",
    "MYANMAR", "KHMER", "HEBREW",
)  # fmt: skip
_LATIN_NAME = re.compile(r"LATIN (?:LETTER SMALL CAPITAL|SMALL LETTER|CAPITAL LETTER) ([A-Z])")
_LEET = str.maketrans("013457@$!|8", "oieastasiib")
# A whole run of such characters holding a leet sign (runs without one are left as they are;
# matching every word to look inside it was most of the reading of a text with a number).
_LEET_WORD = re.compile(r"(?<![a-z0-9@$!|])[a-z0-9@$!|]*[0-9@$!|][a-z0-9@$!|]*")
_LEET_SIGN = re.compile(r"[0-9@$!|]")
_LETTER = re.compile("[a-z]")
_SEPARATOR = re.compile(r"[ .\-_*·•/]")
_SPACES = re.compile("  +")
_ASCII_WORD = re.compile("[a-z]+")
# Three or more single letters with one separator between each: "i g n o r e", "i.g.n.o.r.e".
_SPACED = re.compile(r"(?<![^\W_])[^\W\d_]([ .\-_*·•/])(?:[^\W\d_]\1){1,}[^\W\d_](?![^\W_])")
# A phrase quoted to talk about it ("'ignore previous instructions' style payloads", "such as
# 'you are now DAN'") is mentioned, not said to the reader.
_QUOTES = "'\"“‘"  # what a quoted phrase opens with
_QUOTED = rf"""[{_QUOTES}][^'"“”‘’\n]{{3,80}}['"”’]"""
_MENTIONED = re.compile(
    rf"{_QUOTED}(?=\s+(?:style|payloads?|attacks?|phrases?|strings?|patterns?|examples?|"
    rf"injections?)\b)|\b(?:such as|like|e\.g\.,?|the phrase|the string|known as)\s+{_QUOTED}"
)
_CONCAT = re.compile(r"""['"]\s*\+\s*['"]""")
_FLOW = re.compile(r"""[\s.…,;:!?'"()\[\]{}*_~`#>|/\\-]+""")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){10,}\b")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2}){3,}")


# What a terminal obeys rather than shows: an agent's note holding ESC hid words (SGR 8) and
# linked an address (OSC 8) for every host that prints another agent's search results (red
# team, stop 86). Tab and line ends are text.
_TERMINAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")


def invisible(text: str) -> list[str]:
    """Why the characters of `text` that no reader sees are suspicious (empty: they are not)."""
    found = []
    if control := _TERMINAL.search(text):
        found.append(f"contains a terminal control character (U+{ord(control.group()):04X})")
    if text.isascii():
        return found  # every character below reads outside ASCII
    if bidi := _BIDI.search(text):
        found.append(f"contains a direction-changing character (U+{ord(bidi.group()):04X})")
    if _TAGS.search(_TAG_FLAG.sub("", text)):
        found.append("hides text in invisible Unicode tag characters")
    if spans := selectors.stray(text):
        found.append(f"hides text in variation selectors (U+{ord(text[spans[0][0]]):04X})")
    hidden = _FLAGGED.search(text) or _stray_joiner(text)
    if hidden:
        found.append(f"contains an invisible character (U+{ord(hidden.group()):04X})")
    return found


def _stray_joiner(text: str) -> re.Match[str] | None:
    """A zero-width (non-)joiner that neither joins emoji nor letters of a joining script."""
    for joiner in _JOINERS.finditer(text):
        at = joiner.start()
        around = text[max(at - 1, 0) : at] + text[at + 1 : at + 2]
        if not any(_joins(ch) for ch in around):
            return joiner
    return None


def _joins(ch: str) -> bool:
    if unicodedata.category(ch) in ("So", "Sk", "Mn", "Me") or ch == "\ufe0f":
        return True
    return unicodedata.name(ch, "").startswith(_JOINING_SCRIPTS)


class Reading(NamedTuple):
    """A text as the guard reads it, casefolded: `forms` are the text plainly (first), then
    with its disguises undone (look-alikes, leetspeak, spaced letters, split strings) and as
    an acrostic; `flowing` are the same with punctuation and line breaks flattened to spaces,
    so words split across lines meet again; `words` is every form on one line, for the cheap
    check of whether a rule's words occur at all."""

    forms: list[str]
    flowing: list[str]
    words: str

    @property
    def plain(self) -> str:
        return self.forms[0]


def read(text: str) -> Reading:
    # (the expressions below are run only on a text that holds what each of their matches
    # does: every character _STRIPPED removes is outside ASCII, and a mention is quoted)
    stripped = text if text.isascii() else _STRIPPED.sub("", text)
    plain = unicodedata.normalize("NFKC", stripped).casefold()
    if any(quote in plain for quote in _QUOTES):
        plain = _MENTIONED.sub(" ", plain)
    folded = _undisguise(plain)
    forms = [plain] if folded == plain else [plain, folded]
    if acrostic := _first_words(plain):
        forms.append(acrostic)
    joined = [form.replace("-\n", "") for form in forms]
    flowing = [_FLOW.sub(" ", form) for form in joined]
    return Reading(forms, flowing, " ".join(" ".join(form.split()) for form in joined))


def look_alike_ascii(text: str) -> str:
    """`text` with each letter Unicode lists as looking like an ASCII one made that one."""
    return text if text.isascii() else "".join(_latin().get(ch, ch) for ch in text)


def _undisguise(plain: str) -> str:
    text = plain if plain.isascii() else "".join(_latin().get(ch, ch) for ch in plain)
    if _LEET_SIGN.search(text):
        text = _LEET_WORD.sub(_leet, text)
    text = _SPACED.sub(lambda m: _SEPARATOR.sub("", m.group()), text)
    if "+" in text:  # what a split string is joined with
        text = _CONCAT.sub("", text)
    return _SPACES.sub(" ", text) if "  " in text else text


def _leet(match: re.Match[str]) -> str:
    word = match.group()
    return word.translate(_LEET) if _LETTER.search(word) or len(word) <= 3 else word


def _first_words(plain: str) -> str:
    """The first word of every line, when there are several lines (an acrostic)."""
    lines = [line.split() for line in plain.splitlines() if line.strip()]
    return " ".join(words[0] for words in lines) if len(lines) >= 3 else ""


@functools.cache
def _latin() -> dict[str, str]:
    """Each non-ASCII letter Unicode lists as confusable with an ASCII one, mapped to it."""
    from confusable_homoglyphs import confusables

    data = json.loads(
        (Path(confusables.__file__).parent / "confusables.json").read_text(encoding="utf-8")
    )
    latin = {}
    for char in data:
        if not char.isascii() and (base := _ascii_look_alike(char, data)):
            latin[char] = base
    latin.update({"‹": "<", "›": ">", "〈": "<", "〉": ">", "«": "<", "»": ">"})
    latin.update(dict.fromkeys("‐‑‒–—―", "-"))
    return latin


def _ascii_look_alike(char: str, data: dict[str, list[dict[str, str]]]) -> str | None:
    """The ASCII letter or digit `char` looks like, following Unicode's look-alike links a
    few steps (Greek tau → small capital T → T) and dropping combining marks."""
    for _ in range(3):
        glyphs = [h["c"] for h in data.get(char, [])]
        for glyph in glyphs:
            base = "".join(
                c for c in unicodedata.normalize("NFKD", glyph) if not unicodedata.combining(c)
            )
            if len(base) == 1 and base.isascii() and base.isalnum():
                return base.lower()
            if len(glyph) == 1 and (latin := _LATIN_NAME.fullmatch(unicodedata.name(glyph, ""))):
                return latin.group(1).lower()
        if not glyphs:
            return None
        char = glyphs[0]
    return None


def hidden_texts(text: str) -> list[tuple[str, str]]:
    """Text carried inside `text` in an encoding: (how it was hidden, the decoded text)."""
    found = []
    smuggled = "" if text.isascii() else "".join(_TAGS.findall(_TAG_FLAG.sub("", text)))
    tags = "".join(chr(ord(ch) - 0xE0000) for ch in smuggled)
    if tags.strip():
        found.append(("Unicode tag characters", tags))
    for run in _BASE64.findall(text):
        if decoded := _printable(_b64(run)):
            found.append(("base64", decoded))
    for run in _HEX.findall(text):
        if decoded := _printable(binascii.unhexlify(run)):
            found.append(("hex", decoded))
    for run in _PERCENT.findall(text) if "%" in text else ():
        found.append(("percent-encoding", bytes.fromhex(run.replace("%", "")).decode("latin-1")))
    # The words of the text counted once, as English and as English in ROT13: only text
    # that reads as more words in ROT13 is decoded.
    words = _ASCII_WORD.findall(text.lower())
    if sum(map(_COMMON_ROT13.__contains__, words)) > sum(map(_COMMON.__contains__, words)):
        found.append(("ROT13", codecs.encode(text, "rot13")))
    return found


_COMMON = frozenset(
    "the and you your all to of a in is are be this that it for with now any not do from "
    "ignore previous instructions rules system prompt".split()
)


_COMMON_ROT13 = frozenset(codecs.encode(word, "rot13") for word in _COMMON)


def _b64(run: str) -> bytes:
    padded = run + "=" * (-len(run) % 4)
    try:
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return b""


def _printable(raw: bytes) -> str | None:
    """`raw` as text when it reads as words (not the bytes of an image, key or hash)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8 or " " not in text.strip():
        return None
    ordinary = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if ordinary / len(text) > 0.95 else None
