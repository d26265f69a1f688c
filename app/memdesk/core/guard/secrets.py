"""Secrets written into a memory: Yelp's detect-secrets rule set (its provider detectors:
AWS, GitHub, GitLab, Slack, Stripe, Twilio, SendGrid, private keys, JWTs and more), plus the
formats it does not know yet and the forms people write by hand: a password in a URL, a
`password = …` assignment, an AWS key id with dashes. A value that is a placeholder
(${DB_PASSWORD}, <your-key>, ****) is not a secret."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterator

# Formats detect-secrets 1.5 does not cover (checked against its plugins).
_MORE = [
    (r"\bsk-(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,}|\bsk-[A-Za-z0-9]{32,}\b", "an API key"),
    (r"\bgithub_pat_[A-Za-z0-9_]{30,}|\bgh[pousr]_[A-Za-z0-9]{30,}", "a GitHub token"),
    (r"\bAIza[0-9A-Za-z_-]{30,}", "a Google API key"),
    (r"PuTTY-User-Key-File-\d|-----BEGIN [A-Z ]*PRIVATE KEY", "a private key"),
    (r"\bnpm_[A-Za-z0-9]{30,}\b", "an npm token"),
    (r"\bpypi-AgE[A-Za-z0-9_-]{30,}", "a PyPI token"),
    (r"\bhf_[A-Za-z0-9]{30,}\b", "a Hugging Face token"),
    (r"\bglpat-[A-Za-z0-9_-]{20,}", "a GitLab token"),
    (r"AccountKey=[A-Za-z0-9+/=]{40,}|SharedAccessSignature=|[?&]sig=[A-Za-z0-9%+/=]{30,}",
     "an Azure key"),
    (r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)(?:[\s_-]?[A-Z0-9]){16}\b",
     "an AWS access key"),
    (r"(?i:aws.{0,20}secret|secret.?access.?key)[^\n]{0,20}?[:=\s]\s*['\"]?[A-Za-z0-9/+=]{30,}",
     "an AWS secret key"),
]  # fmt: skip
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@]*:([^@\s/]{3,})@", re.I)
# A credential's name, then its value: after ":", "=" or "is" (assigned; the name may say
# what it is for: "password for the admin account: …"), or after a space.
# Glued to the name by ".", "-" or "_" it is not a value but the rest of a name
# ("password.validate()", "token refresh-logic" is fine, "secret-scanner" is one word).
_ASSIGNED = re.compile(
    r"\b(?:password|passwd|pwd|pass|passphrase|secret|api[_-]?key|apikey|access[_-]?key|"
    r"auth[_-]?token|token|client[_-]?secret|bearer)(?![\w.-])"
    r"(?:(?P<assigned>(?:\s+(?:for|of|on|to)(?:\s+[\w.@-]+){1,3}?)?(?:\s*[:=]\s*|\s+is\s+))|\s+)"
    r"['\"]?"
    r"(?P<value>[^\s'\",;)]{8,})",
    re.I,
)
# A name in code, not a value: a dotted path (settings.DB_PASSWORD, client.auth.token), an
# environment variable's name, a snake_case identifier.
_CODE_NAME = re.compile(
    r"^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|"
    r"[a-z]+(?:_[a-z]+)+)$"
)
_VERSION = re.compile(r"^v?\d+(?:\.\d+)+")
# A long random run a few words after a word that names a secret ("the signing key is kept
# as 9f8e…", "HMAC secret: q8Zt…"): what it holds, not the word, makes it one.
_RANDOM_NEAR = re.compile(
    r"(?i:\b(?:keys?|secrets?|tokens?|credentials?|signature|salt|hmac|passwords?)\b)"
    r"[^\n]{0,40}?(?<![\w/+=-])([A-Za-z0-9+/=_-]{24,})"
)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_PLACEHOLDER = re.compile(r"^(?:[$<{%\[]|\*+$|x+$|\.\.\.)|(?i:^(?:changeme|example|your|redacted))")
# Provider keys are long random runs; texts without one skip the detectors.
_RUN = re.compile(r"[A-Za-z0-9_+=-]{16,}")
_KEYWORD = re.compile(r"(?i:pass|pwd|secret|key|token|bearer)")


def find(text: str) -> list[str]:
    found = [f"looks like {kind}" for kind in _detected(text)]
    return sorted(set(found), key=found.index)


def _key_like(text: str) -> bool:
    if "://" in text and "@" in text or "PRIVATE KEY" in text or "PuTTY" in text:
        return True
    for run in _RUN.findall(text):
        if len(run) >= 20 or any(ch.isdigit() for ch in run) or not run[1:].islower():
            return True
    return False


def _detected(text: str) -> Iterator[str]:
    if _key_like(text):
        yield from _provider_keys(text)
    if "://" in text and any(_real(m.group(1)) for m in _URL_PASSWORD.finditer(text)):
        yield "a password in an address"
    if _KEYWORD.search(text) and (
        any(
            _real(m["value"]) and _value_like(m["value"].rstrip(".:!?"), bool(m["assigned"]))
            for m in _ASSIGNED.finditer(text)
        )
        or any(_random(m.group(1)) for m in _RANDOM_NEAR.finditer(text))
    ):
        yield "a password or key written out"


def _provider_keys(text: str) -> Iterator[str]:
    for plugin in _plugins():
        for line in text.splitlines():
            if next(iter(plugin.analyze_string(line)), None):
                yield f"a secret ({plugin.secret_type})"
                break
    for pattern, kind in _more():
        if pattern.search(text):
            yield kind


def _real(value: str) -> bool:
    return not _PLACEHOLDER.search(value)


def _value_like(value: str, assigned: bool) -> bool:
    """Whether `value`, written after a credential's name, looks like a credential: not a
    word, a hyphenated phrase ("reset-flow"), a path, a version or a name in code. Set with
    ":", "=" or "is", a value with letters and digits or symbols is one (a person's password
    "Tr0ub4dor&3"), and so are words joined by hyphens (a passphrase); after a bare space it
    must look random (long, and letters mixed with digits at high entropy)."""
    if len(value) < 8 or value.startswith(("/", "http", "./", "~")) or _CODE_NAME.match(value):
        return False
    letters = any(ch.isalpha() for ch in value)
    digits = any(ch.isdigit() for ch in value)
    words = all(part.isalpha() for part in re.split(r"[-_.]", value))
    if assigned:
        passphrase = value.count("-") >= 3 and words
        return passphrase or (letters and not words and (digits or not value.isalnum()))
    if _VERSION.match(value):
        return False
    classes = sum(
        (
            any(ch.islower() for ch in value),
            any(ch.isupper() for ch in value),
            digits,
            not value.isalnum(),
        )
    )
    random = len(value) >= 12 and _entropy(value) >= 3.0
    return letters and digits and (classes >= 3 or random) and not words


def _random(run: str) -> bool:
    """A run of characters that reads as random bytes (hex or base64), not an identifier."""
    run = run.rstrip("=")
    letters = any(ch.isalpha() for ch in run)
    digits = sum(ch.isdigit() for ch in run)
    return (
        letters
        and digits >= 3
        and not _UUID.match(run)
        and not _CODE_NAME.match(run)
        and _entropy(run) >= 3.5
    )


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character: ~4 for random hex or base64, ~3 for words."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


@functools.cache
def _more() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(pattern), kind) for pattern, kind in _MORE]


@functools.cache
def _plugins() -> list:
    """detect-secrets' provider detectors (its entropy, keyword and IP-address ones are left
    out: on prose they flag ordinary words, and a keyword rule for prose is ours above)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    return [
        kind()
        for kind in get_mapping_from_secret_type_to_class().values()
        if issubclass(kind, RegexBasedDetector) and kind.__name__ != "IPPublicDetector"
    ]
