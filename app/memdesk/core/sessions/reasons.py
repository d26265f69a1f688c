"""The reason told beside a pick or a correction, as a fact of its own: "go with ndjson, people
pipe this stuff into jq anyway", "no, don't pad in the tokenizer, padding happens per batch in
src/docclf/data/collate.py". Said with a reason that holds beyond the moment, the pick or the
correction is a rule of the project, not only an answer to the agent.

What only goes on with the task ("…, skip the driver patch", "…, I want to diff them first"),
points back ("…, that's prod"), or is too short to say anything ("…, offset -1") is no reason.
"""

from __future__ import annotations

import re

from memdesk.core.sessions import heard, markers

_I = re.IGNORECASE
_CLAUSE_BREAK = re.compile(r"\s*(?:,|;|—|–|--|\s-\s)\s*")
_MIN_WORDS = 4
# A clause that leans on what came before, or is the person's own plan or past
_LEANS_BACK = re.compile(
    r"^(?:that|this|those|these|which|so|and|but|or|then|same|i|i've|i'll|i'm|we'll)\b", _I
)
# A clause that asks the agent for something more: a request's shape (`markers.IMPERATIVE`),
# or an ask to leave something be
_ASKS = re.compile(r"^(?:please\s+)?(?:don'?t|do not|never|just|not|no|nah|nvm|hold on|wait)\b", _I)


# What tells a correction's reason holds beyond this task: the team, this place, every case
_STANDING = re.compile(
    r"\b(?:we|we're|we've|our|here|everything|anything|all|only|always|never|every\w*|"
    r"anywhere|nowhere|strictly|lives?|goes|go through|happens)\b",
    _I,
)
_OF_THE_MOMENT = re.compile(
    r"\b(?:yet|for now|this time|on purpose|for this|right now|today)\b|\bjust update\b", _I
)
# A correction that withdraws what was asked: what follows says why not, not how things are
_WITHDRAWN = re.compile(
    r"^(?:scratch|scrap|ignore|nah|nvm|never ?mind|forget|drop|hold on|that reminds)\b", _I
)


def told(rest: str) -> bool:
    """Whether `rest`, what follows a pick, holds a clause that states something of its own."""
    return any(_states(part) for part in _CLAUSE_BREAK.split(rest))


def told_for_good(rest: str, sentence: str) -> bool:
    """Whether `rest`, what a correction says after its opener, holds a clause that states
    how things stay (the team's way, this place, every case) and nothing says it is of the
    moment."""
    if _WITHDRAWN.match(rest) or _OF_THE_MOMENT.search(sentence):
        return False
    return any(_states(part) and _STANDING.search(part) for part in _CLAUSE_BREAK.split(rest))


def _states(part: str) -> bool:
    return (
        len(part.split()) >= _MIN_WORDS
        and "?" not in part
        and not _LEANS_BACK.match(part)
        and not _ASKS.match(part)
        and not markers.IMPERATIVE.match(part)
        and not heard.for_the_task_at_hand(part)
        and not heard.not_a_statement(part)
    )
