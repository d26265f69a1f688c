"""A fact told right after a request, in the same sentence: "put it in vault.yml encrypted, the
vault password file lives at ~/.ansible/vault-pass", "deploy with helm then, staging is the
parcels-stg namespace". The request is for now; what follows its comma, when it has a subject
of its own and names a concrete value, is read as a sentence of its own.

Only after a request: after a guess, a condition or a story ("I think …, the timeout is the
problem", "if we grow, our biggest tenant …") the clause says how things stand in that telling.
Read after any opening clause, 35 more wrong clauses were stored on the single-turn sets;
after a request only, none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from memdesk.core.sessions import heard, markers
from memdesk.core.sessions.finding import Finding
from memdesk.core.sessions.pattern_judges import HIGH

_I = re.IGNORECASE
_FILLER = re.compile(
    r"^(?:(?:and|also|oh|ok|okay|so|then|yeah|no|nah|stop|careful)\b[,.!—–\s-]*)+", _I
)
_FIRST_COMMA = re.compile(r",\s+")
# a subject of its own, not an adverb of the request ("…, every time", "…, the way we did")
_SUBJECT = re.compile(
    r"(?:the|our|my|all|that whole|this whole|staging|prod|production)\b"
    r"(?!\s+(?:time|way|same|rest|other|one|thing|stuff)\b)",
    _I,
)

# a value spelt the way only a value is: a path, a host, a port, a version, an identifier
# (not a capitalised word mid-sentence: "…, the leak fix goes in its own PR" names none)
_CONCRETE = re.compile(r"\w[/._:-]\w|\d|`")

# the fact ends where the message goes on to the work: "…, my laptop is an M2 — and run it"
_NEXT_CLAUSE = re.compile(r"\s[—–-]\s|;\s")


def read(sentence: str, match: Callable[[str], Finding | None]) -> Finding | None:
    """What `match` keeps for sure in the clause after a request's first comma, or None."""
    fact = _NEXT_CLAUSE.split(after_request(sentence), maxsplit=1)[0]
    if not fact or heard.not_a_statement(sentence):
        return None
    if not (_SUBJECT.match(fact) and _CONCRETE.search(fact)):
        return None
    finding = match(fact[:1].upper() + fact[1:])
    if finding is None or finding.confidence != HIGH:
        return None
    return replace(finding, sentence=fact)


def after_request(sentence: str) -> str:
    """The clause after the first comma of `sentence` when what comes before is a request;
    else "". (Its "it" points at the request's thing, which the fact does not need: "…,
    staging is at staging.ledgerly.app if you want to reproduce it".)"""
    comma = _FIRST_COMMA.search(sentence)
    if comma is None:
        return ""
    request = _FILLER.sub("", sentence[: comma.start()])
    if not (markers.TASK.match(request) or markers.IMPERATIVE.match(request)):
        return ""
    return sentence[comma.end() :]
