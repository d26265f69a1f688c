"""A fact and the rule it brings, joined by "so": "my laptop's an M2 so anything docker I do
locally needs --platform linux/amd64". Read whole, neither the table nor the clause reader
heard it; the rule after "so", heard on its own, is kept with its reason when the fact before
it is told as how things are (not a question, a moment, a story).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from memdesk.core.sessions import heard
from memdesk.core.sessions.finding import Finding
from memdesk.core.sessions.pattern_judges import HIGH
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
# the fact: the person's, their team's or the project's thing, in one clause
_FACT_SO_RULE = re.compile(
    r"^(?P<fact>(?:my|our|the|we|we're|i'm|i)\b[^,;.?!]{3,100}?),?\s+so\s+(?P<rule>[^;?]{8,})$",
    _I,
)


def read(sentence: str, match: Callable[[str], Finding | None]) -> Finding | None:
    """The rule `match` keeps for sure after a fact's "so", with the fact; or None."""
    found = _FACT_SO_RULE.match(sentence.strip().rstrip("."))
    if found is None or heard.not_a_statement(found["fact"]):
        return None
    rule = found["rule"]
    finding = match(rule[:1].upper() + rule[1:])
    if finding is None or finding.confidence != HIGH:
        return None
    whole = person(sentence.strip())
    return replace(finding, content=whole[:1].upper() + whole[1:], sentence=sentence)
