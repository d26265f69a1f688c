"""A story of the past, told as one: what happened once, or how things were, is not a rule to
keep. "In the 2019 season we recorded everything on paper", "Before 2020 the shotfirer wrote
readings on a clipboard", and the sentences after such a start told in the past too ("Twice
we put the wrong wind direction on the Col du Lac sector").

Read from the grammar of time, not from what the story is about: a time of the past (a year,
a season or a term gone by, "for many years", "in my first house") beside a verb in the past
tense, and no word that says it still holds."""

from __future__ import annotations

import re

from memdesk.core.sessions.third_person import is_past

_I = re.IGNORECASE
_NUMBER = r"(?:\d+|a few|a couple of|several|many|some|two|three|four|five|six|seven|eight|ten)"
_SPAN = (
    r"(?:seasons?|winters?|summers?|springs?|autumns?|falls?|years?|terms?|semesters?|decades?|"
    r"months?|weeks?)"
)
_THEN = re.compile(
    rf"\b(?:(?:last|previous|that|the (?:first|early|old)) (?:[\w-]+ )?{_SPAN}|"
    rf"for {_NUMBER} (?:[\w-]+ )?{_SPAN}|{_NUMBER} {_SPAN} ago|"
    r"(?:until|till|before|in|around|by|back in|up to) (?:about |around |roughly |circa |"
    r"(?:early|mid|late)[- ])?(?:19|20)\d\d(?!\d|[-/.]\d)|"
    r"in my (?:first|old|previous|last|former|early) [\w-]+|"
    r"(?:years|months|decades|ages|a while|(?:a )?couple (?:of )?(?:years|months)) (?:ago|back)|"
    r"(?:on|at|in) (?:our|my|the) last [\w-]+|(?:in|during) the (?:19|20)\d\d(?:/\d\d)? [\w-]+|"
    r"back in (?:the )?[\w.-]+|"
    r"in (?:the )?(?:spring|summer|autumn|fall|winter|january|february|march|april|may|june|"
    r"july|august|september|october|november|december)|"
    r"before (?:this|that|the|our) [\w-]+(?: [\w-]+)? (?:arrived|came|existed|landed)|"
    r"before (?:this|that) (?:migration|move|rewrite|switch|upgrade)|"
    r"(?:the )?(?:first|original|old) version|\bv1\b(?![.\d])|^once\b)\b",
    _I,
)
# A word that says what was told still holds, or is a change that holds now ("we moved to
# Octopus last spring"), or a verb of the present beside the past one.
_STILL = re.compile(
    r"\b(?:is|are|am|isn't|aren't|do|does|don't|doesn't|has|have|hasn't|haven't|can|can't|"
    r"cannot|will|won't|must|should|shall|may|need|needs|want|wants|now|still|today|"
    r"nowadays|these days|currently|any ?more|since then|ever since|from then on|going forward|"
    r"from now on|(?:moved|switched|migrated|changed) (?:over )?to|"
    # a choice made once that holds since: "the network standardized on umqtt.robust"
    r"(?:standardi[sz]ed|settled|agreed) on|(?:it|that|there|here|what|"
    r"who)'s)\b|'(?:re|m|ll|ve)\b",
    _I,
)
# Who does, and what: "we use Hilt" is told in the present, whatever else the sentence says
# of the past ("Koin got removed in the last migration").
_DOER = re.compile(
    r"\b(?:we|i|you|they|the user)\s+(?:(?:always|never|usually|only|just|all|also|often|"
    r"normally|mostly|generally)\s+)?([a-z]+)\b",
    _I,
)
# Past modals, and verbs whose past is the present ("twice we put the wrong direction on it")
_NOT_THE_PRESENT = frozenset(
    "could would might ought put cut set hit let read shut cost hurt quit spread split".split()
)
_BE_OR_HAVE = frozenset("is are am be been being has have get gets got".split())
# ("goes through a reviewed migration": what the thing is, no story)
_DETERMINERS = frozenset("a an the every each our my your their".split())
# (a lead-in's colon ends its words: "bit of context on why we're building this: last year we
# sold everything through eventbrite …" tells the story after it)
_SENTENCES = re.compile(r"(?<=[.!?:])\s+|\n+")


def told(content: str, sentence: str, message: str) -> bool:
    """Whether a finding's words (`content`, read from `sentence` of `message`) are part of a
    story of the past: told in the past at a time of the past, or after a sentence of the
    message that was, in the past themselves. Its own clause is read, not its sentence's
    others ("we moved the catalogue to Postgres in 2019; every new table goes there")."""
    if not _in_the_past(content):
        return False
    if _THEN.search(sentence):
        return True
    before = message[: max(0, message.find(sentence[:40]))]
    return any(_THEN.search(s) and _in_the_past(s) for s in _SENTENCES.split(before))


def _in_the_past(sentence: str) -> bool:
    if _STILL.search(sentence) or any(
        not is_past(verb) and verb not in _NOT_THE_PRESENT
        for verb in map(str.casefold, _DOER.findall(sentence))
    ):
        return False
    words = re.findall(r"[a-z]+", sentence.casefold())
    # "were kept", "was lost": the past of be; "is called", "has moved": not a story's verb
    return any(
        is_past(w) and (i == 0 or words[i - 1] not in _BE_OR_HAVE | _DETERMINERS)
        for i, w in enumerate(words)
    )
