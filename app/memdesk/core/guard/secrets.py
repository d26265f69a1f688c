"""Secrets written into a memory: Yelp's detect-secrets rule set (its provider detectors:
AWS, GitHub, GitLab, Slack, Stripe, Twilio, SendGrid, private keys, JWTs and more), plus the
formats it does not know yet and the forms people write by hand: a password in a URL, a
`password = …` assignment, an AWS key id with dashes. A value that is a placeholder
(${DB_PASSWORD}, <your-key>, ****) is not a secret."""

from __future__ import annotations

import functools
import re
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
_ASSIGNED = re.compile(
    r"\b(?:password|passwd|pwd|pass|passphrase|secret|api[_-]?key|apikey|access[_-]?key|"
    r"auth[_-]?token|token|client[_-]?secret|bearer)\b(?:\s+is)?\s*[:=]?\s*['\"]?"
    r"([^\s'\",;)]{8,})",
    re.I,
)
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
    if _KEYWORD.search(text) and any(
        _real(m.group(1)) and _mixed(m.group(1)) for m in _ASSIGNED.finditer(text)
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


def _mixed(value: str) -> bool:
    """A value with letters and digits or symbols: a password, not a word like 'through'."""
    letters = any(ch.isalpha() for ch in value)
    others = any(ch.isdigit() or not ch.isalnum() for ch in value.strip(".:"))
    return letters and others and not value.startswith(("/", "http", "./", "~"))


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
