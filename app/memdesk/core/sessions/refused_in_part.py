"""A sentence refused as a whole for what only part of it says: the comma-clauses after a
statement that tell how it goes wrong otherwise, how it came to be, how things stand or what
someone else thinks of it ("tracking server is http://mlflow.geo.internal:5000, you need the
vpn up or it just hangs"), or the person's next step told in the clauses it opens with ("I'll
handle getting it out — prod migrations only ever go out through the deploy-db workflow").
What the refusal belongs to is cut off and the rest read on its own (`clauses.read`), so the
reason the whole was refused does not take the statement beside it along.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memdesk.core.sessions import heard, markers

_I = re.IGNORECASE

# What a comma-clause after the statement tells that is not the statement's: how it goes wrong
# otherwise ("…:5000, you need the vpn up or it just hangs"), how it came to be, how things
# stand that make it so ("local postgres is on 5442, 5432 is the other db I keep running"),
# what others do with it ("…goes to stderr, people pipe `-o json` into jq and …").
_MOMENT = "how things are at the moment"
_OF_NOW = re.compile(
    r"\b(?:now|today|tonight|currently|at the moment|atm|this (?:morning|week)|yet|still|"
    r"so far)\b",
    _I,
)
_OTHERS = "someone else's view"
_TAIL_OF_ITS_OWN = ("what is wrong now", "a past event", _MOMENT, _OTHERS)
# a view told of the clause before it, not beside it
_VIEW_OF_THE_HEAD = re.compile(
    r"^(?:at least|or so|according to)\b|\b(?:that'?s|this is|which is) what\b|"
    r"\b(?:thinks?|says?|said|reckons?|believes?|agrees?)\s+(?:so|that|it|this)\b"
    r"(?=\s+(?:would|will|could|should|is|was|makes?|helps?)\b|\W*$)",
    _I,
)
# A guess at what the agent did, told after the statement: "payouts to sellers go through
# Mangopay, …, and i bet you typed it as a stripe object"
_HEDGE = "a condition or a hedge"
_GUESS_AT_THE_WORK = re.compile(
    r"^(?:and\s+|but\s+|so\s+)?(?:i bet|i guess|i suspect|i'm guessing|probably)\s+you\b", _I
)
_A_CLAUSE = 4  # words
# a head that only opens a clause ("before we build anything, …") states nothing
_OPENS_A_CLAUSE = re.compile(
    r"(?:before|after|if|when|whenever|once|while|since|because|as|until|unless|though|"
    r"although)\b",
    _I,
)


def before_its_tail(sentence: str, why: str, why_of: Callable[[str], str | None]) -> str:
    """The statement a sentence opens with, when `why` (the sentence's reason to be refused)
    belongs to the comma-clauses after it alone: "tracking server is
    http://mlflow.geo.internal:5000, you need the vpn up or it just hangs with no error". Empty
    when no such head is there. A tail with a general word is the rule going on ("…, we use
    #[sqlx::test] everywhere …")."""
    if why not in (*_TAIL_OF_ITS_OWN, _HEDGE):
        return ""
    for comma in reversed([found.start() for found in re.finditer(r",\s", sentence)]):
        head, tail = sentence[:comma], sentence[comma + 1 :].strip()
        if why == _HEDGE and not _GUESS_AT_THE_WORK.match(tail):
            continue
        if len(head.split()) < _A_CLAUSE or _OPENS_A_CLAUSE.match(head.strip()):
            return ""
        if markers.GENERAL.search(tail) or len(tail.split()) < _A_CLAUSE:
            return ""  # (a verdict, "…, nothing changed", is what the sentence reports)
        if why == _OTHERS and _VIEW_OF_THE_HEAD.search(tail):
            return ""  # "…monthly, at least that's what Lukas keeps saying": the whole is theirs
        if why_of(tail) == why and why_of(head) is None:
            # (a fault told as how things are is the report: "…, it crashed twice overnight";
            # so is a moment: "branch release/7.1 is cut, …, going through QA now")
            if why == _MOMENT and (heard.tells_a_fault(tail) or _OF_NOW.search(tail)):
                return ""
            return head
    return ""


# a guess at what someone did, told last ("— looks like someone commented those out …")
_GUESSED = re.compile(r"(?:looks like|seems like|apparently|i think|i guess|probably)\b", _I)
_RULES = re.compile(
    r"\b(?:don'?t|do not|never|always|must|has to|have to|should|shouldn'?t|keep)\b", _I
)


def before_its_last_aside(
    sentence: str, chunks: list[str], why: str, why_of: Callable[[str], str | None]
) -> str:
    """The sentence without its last aside, when that aside is a guess at what someone did
    and `why` belongs to it alone: "the state's in the hpc-tfstate bucket …, so the s3
    backend needs … — looks like someone commented those out in backend.tf last month".
    Empty when no such aside is there."""
    if (
        why not in _TAIL_OF_ITS_OWN
        or len(chunks) < 2
        or not _GUESSED.match(chunks[-1].strip())
        or why_of(chunks[-1]) != why
        # (nor a guess that rules as well: "— looks like someone turned it off, don't turn
        # it back on")
        or _RULES.search(chunks[-1])
    ):
        return ""
    head = sentence[: sentence.rfind(chunks[-1].strip())].rstrip(" —–-,;(")
    return head if len(head.split()) >= _A_CLAUSE and why_of(head) is None else ""


# The person's next step opening a sentence ("I'll handle getting it out — prod migrations
# only ever go out through the deploy-db workflow …") is said of this work alone, not of what
# follows it.
_CLAUSE_CUT = re.compile(r",\s+|\s+[—–]\s+|\s+--?\s+")


def after_its_head(sentence: str, why: str, why_of: Callable[[str], str | None]) -> str:
    """The statement a sentence goes on with, when `why` (the sentence's reason to be
    refused) is the person's next step told in the clauses opening it. Empty when no such
    rest is there."""
    if why != "not decided":
        return ""
    for cut in _CLAUSE_CUT.finditer(sentence):
        head, rest = sentence[: cut.start()], sentence[cut.end() :].strip()
        if len(rest.split()) >= _A_CLAUSE and why_of(head) == why and why_of(rest) is None:
            return rest
    return ""
