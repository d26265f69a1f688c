"""The injection guard: text that tries to steer the model reading it, hidden characters,
and secrets, found in a memory before agents ever see it.

A flagged memory is stored and shown to the person, but withheld from agents until the person
clears it. The checks run on the raw text (invisible and bidirectional characters) and on its
NFKC form (so full-width or other look-alike letters do not slip past the word lists).
"""

from __future__ import annotations

import json
import re
import unicodedata

_STEERING = [
    (
        r"\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|"
        r"your|the)\b[^.\n]{0,30}\b(instructions?|prompts?|messages?|rules|directives|context)\b",
        "tells the reader to drop its instructions",
    ),
    (
        r"\byou are now\b|\bfrom now on,? you (are|will act|must)\b"
        r"|\bnew (system )?instructions\s*:",
        "tries to give the reader a new role or instructions",
    ),
    (
        r"\b(reveal|print|show|output|repeat)\b[^.\n]{0,20}\b(system prompt|hidden (prompt|"
        r"instructions)|your instructions)\b",
        "asks the reader to reveal its instructions",
    ),
    (
        r"\bdo not (tell|inform|mention (this|it) to) the user\b|\bwithout (telling|informing) the "
        r"user\b",
        "asks the reader to hide something from the user",
    ),
    (
        r"\b(exfiltrate|send|upload|post)\b[^\n]{0,40}\b(credentials|secrets?|api keys?|tokens?|"
        r"passwords?|ssh keys?)\b[^\n]{0,40}\b(to|at)\b",
        "asks the reader to send secrets away",
    ),
]
_ROLE_TAGS = [
    (
        r"<\s*/?\s*(system|assistant|user|instructions?|im_start|im_end|tool_call|function_calls)"
        r"\s*>",
        "contains a fake role or system tag",
    ),
    (r"<\|\s*(im_start|im_end|system|endoftext)\s*\|>", "contains a model control token"),
    (r"\[/?(INST|SYS)\]|<</?SYS>>", "contains a model control token"),
    (
        r"(?m:^)\s*(system|assistant)\s*:\s*(you\b|ignore|disregard|the user\b|from now|new "
        r"instructions|i will\b|i'll\b)",
        "starts a line as if the system spoke",
    ),
    (r"<\s*/?\s*memory-context\s*>", "contains memdesk's own context delimiter"),
]
_SECRETS = [
    (r"\bAKIA[0-9A-Z]{16}\b", "an AWS access key"),
    (r"-----BEGIN ([A-Z]+ )?PRIVATE KEY-----", "a private key"),
    (r"\bgh[pousr]_[A-Za-z0-9]{36,}\b", "a GitHub token"),
    (r"\bsk-(proj-|ant-)?[A-Za-z0-9_-]{20,}\b", "an API key"),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b", "a Slack token"),
    (r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b", "a JSON web token"),
    (
        r"\b(password|passwd|secret|api[_-]?key|token)\s*[:=]\s*['\"]?[^\s'\"]{8,}",
        "a password or key written out",
    ),
]
_HIDDEN = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)

_CHECKS = [(re.compile(pattern, re.IGNORECASE), why) for pattern, why in _STEERING + _ROLE_TAGS] + [
    (re.compile(pattern), f"looks like {why}") for pattern, why in _SECRETS
]
# A word every check needs one of: memories with none of them skip the expressions.
_TRIGGERS = (
    "ignore",
    "disregard",
    "forget",
    "override",
    "you are now",
    "from now on",
    "instruction",
    "reveal",
    "prompt",
    "the user",
    "exfiltrate",
    "send",
    "upload",
    "post",
    "<",
    "[",
    "system",
    "assistant",
    "akia",
    "private key",
    "gh",
    "sk-",
    "xox",
    "eyj",
    "pass",
    "secret",
    "api",
    "token",
)
# Every check in one pass first: most memories match none, and then one search is all they cost.
_ANY = re.compile(
    "|".join(f"(?i:{p})" for p, _ in _STEERING + _ROLE_TAGS)
    + "|"
    + "|".join(f"(?:{p})" for p, _ in _SECRETS)
)


def flag_of(text: str) -> str | None:
    """The memory.flag value for `text`: its reasons as JSON, or None when it is clean."""
    reasons = scan(text)
    return json.dumps(reasons) if reasons else None


def scan(text: str) -> list[str]:
    """Why `text` should be withheld from agents (empty: it need not be)."""
    found: list[str] = []
    hidden = _HIDDEN.search(text)
    if hidden:
        code = ord(hidden.group())
        found.append(f"contains an invisible or direction-changing character (U+{code:04X})")
    # ASCII is its own NFKC form: only other text needs folding (full-width letters and such).
    folded = text if text.isascii() else unicodedata.normalize("NFKC", _HIDDEN.sub("", text))
    lower = folded.lower()
    if not any(word in lower for word in _TRIGGERS):
        return found
    if not (_ANY.search(folded) or (folded is not text and _ANY.search(text))):
        return found
    for pattern, why in _CHECKS:
        if why not in found and (pattern.search(folded) or pattern.search(text)):
            found.append(why)
    return found
