"""One chunk of a sentence judged on its own (`clauses.read` cuts the sentence into chunks
and asks here of each): whether what it says holds beyond the work at hand, and how sure that
is. A chunk is read for markers anywhere in it, not from its start, so a rule told inside a
request, beside a reason or in an aside is still heard; a value or a general word with
nothing tying it to how the person or the team works is proposed rather than stored, being as
often what the person sees now as what holds (`around.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memdesk.core.sessions import around, asides, heads_at_hand, heard, markers
from memdesk.core.sessions.habits import habit_when
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
MAX_CHUNK = 300
_TAIL_TASK = re.compile(
    r",?\s+(?:and\s+)?then\s+.*$|,\s+and\s+(?:make|keep|run|send|show|tell|paste|ping|open|"
    r"compare|check|add|document|update|post|rerun|apply|push|commit|test|lock|draft|handle|"
    r"cover|link|screenshot|restart|watch|include|autogenerate)\b.*$",
    _I,
)
_MARKERS_ONLY = re.compile(
    rf"{markers.GENERAL.pattern}|{markers.TIED.pattern}|\b(?:not|just|only|also|too|even)\b|"
    r"[^\w\s]",
    _I,
)
# "('b3' instead of 'B3')": an example of what is seen, one value for another, no clause
_VALUE = r"[\"'`]?[\w.:/-]+[\"'`]?"
_ONE_FOR_ANOTHER = re.compile(
    rf"{_VALUE}\s+(?:instead of|rather than|vs\.?|versus|not|in place of|for)\s+{_VALUE}", _I
)
# "Next the cms side: Marta … owns the subscriber db": the topic named, then what holds
_NEXT_TOPIC = re.compile(
    r"^(?:next|now|on to|onto)(?: up)?,?\s+(?:(?:for|on|with)\s+)?(?:the\s+)?"
    r"[\w./-]+(?:\s+[\w./-]+){0,3}\s*:\s+",
    _I,
)


# what does not work told beside the way that must be taken: "bare pytest won't work here btw,
# tests have to go through make test"
_THE_WAY_IT_MUST_GO = re.compile(
    r"\b(?:won't|will not|doesn't|does not) work(?: here)?\b.*\b(?:has|have|needs?) to\b", _I
)


_A_WANT = re.compile(r"^i want$", _I)
# what is wanted is one thing named (the …, an identifier), or one thing for another
_WANTED_NOW = re.compile(
    r"^(?:(?:ok|okay|so|and|yeah|yes|but|now)[,\s]+)*i want (?:(?:the|this|that|these|those) |"
    r"[\w-]*[_.\d][\w.-]* |.*\binstead\b)",
    _I,
)


_INSTEAD_OF = re.compile(r"\b(?:instead of|rather than)\b", _I)


def _general(body: str) -> re.Match[str] | None:
    return (
        markers.GENERAL.search(body)
        or markers.RULED_OUT.search(body)
        or heard.WHENEVER_YOU.match(body)
        or around.REQUIRED.search(body)
    )


def _only_a_want(body: str) -> bool:
    said = [m[0].strip() for m in markers.FIRST_PERSON.finditer(body)]
    return bool(said) and all(_A_WANT.match(s) for s in said)


@dataclass(frozen=True)
class Heard:
    confidence: str
    kind: str
    content: str
    sentence: str
    about_user: bool
    said: str  # the user's own words the content came from
    # proposed only for want of a tie to how things stay ("the late cancel window is 12
    # hours"): the message around it may tie it (`clauses.read` looks)
    untied: bool = False


_TOLD_OF_THE_PAST = re.compile(r"(?:took|got|was|were|had|made|ran|went|came|spent|\w+ed)\b", _I)


def judge(chunk: str, sentence: str, led_in_for_good: bool = False) -> Heard | None:
    heard_here = _judged(chunk, sentence, led_in_for_good)
    if heard_here is None or heard_here.confidence == HIGH:
        return heard_here
    rest = heads_at_hand.after_the_head(chunk)
    again = _judged(rest, sentence, led_in_for_good) if rest else None
    return again if again is not None and again.confidence == HIGH else heard_here


def _judged(chunk: str, sentence: str, led_in_for_good: bool) -> Heard | None:
    topic = _NEXT_TOPIC.match(chunk)
    if topic and not _asked(chunk[topic.end() :]):
        chunk = chunk[topic.end() :]
    if len(chunk) > MAX_CHUNK or len(chunk.split()) < 4:
        return None
    why = heard.not_a_statement(chunk)
    if why in around.ROOM_FOR_WHAT_HOLDS:
        chunk, why = around.what_holds(chunk, why), None
    if why or not chunk:
        return None
    if asides.BARE_LIST.fullmatch(chunk.strip(" .")) or _ONE_FOR_ANOTHER.fullmatch(
        chunk.strip(" .")
    ):
        return None
    if len(_MARKERS_ONLY.sub(" ", chunk).split()) < 2:
        return None  # "anywhere, not just here": how far, said of a statement cut away
    # what the reason after the rule says is no state of the rule ("…, because CI is slow")
    main = around.ALSO_FINE.sub("", around.LASTS.sub("", around.REASON.sub("", chunk)))
    if habit := habit_when(main):
        main = main[habit.start("main") :]  # "if a test is flaky, we …": no fault of now
    if markers.DESCRIBES.match(main) or markers.STATE.search(around.IF_IT_LOOKS.sub(" ", main)):
        return None
    if (
        markers.PROBLEM.search(main)
        and not markers.GENERAL.search(chunk)
        and not _THE_WAY_IT_MUST_GO.search(main)
    ):
        return None
    if around.keeps_failing_the_person(main):
        return None
    task = _asked(chunk)
    if task and (told_after := _told_after_the_task(chunk, sentence)):
        return told_after
    body = (
        _TAIL_TASK.sub("", chunk).strip(" ,")
        if task
        else around.SO_FIX_NOW.sub("", around.THEN_THIS_TIME.sub("", chunk))
    )
    about_user = bool(
        re.match(r"(?:i|i'm|i'd|my)\b", body, _I)
    ) and not markers.PROJECT_WORDS.search(body)
    if markers.PEOPLE.match(body) or markers.HANDLED_BY.search(body) and not task:
        return heard_as(HIGH, "fact", body, sentence, about_user=False)
    first_person = markers.FIRST_PERSON.search(body)
    general = _general(body)
    if markers.PINNED.search(body) and not markers.DEICTIC_START.match(body):
        return heard_as(HIGH, "fact", body, sentence, about_user=False)
    if first_person and not task:
        # "I want the card to show …", "I want presigned urls instead": this thing, wanted now
        wanted_now = _only_a_want(body) and _WANTED_NOW.search(body)
        if wanted_now:
            # ("I want grafana behind the proxy instead of ip:3000": what replaces what is
            # there now says nothing of always)
            general = _general(_INSTEAD_OF.sub(" ", body))
        for_good = general or habit or led_in_for_good or around.STANDING.search(sentence)
        for_good = for_good or markers.TOLD_TO_KEEP.search(sentence)
        sure = MEDIUM if wanted_now and not for_good else HIGH
        return heard_as(sure, "preference", body, sentence, about_user)
    if (habit or markers.TEAM.search(body)) and not task and not markers.DEICTIC_START.match(body):
        return heard_as(HIGH, "fact", body, sentence, about_user=False)
    # "Going forward, please write the patterns anchored": a request for every time after
    # this one is a rule, however politely asked (the lead-in is off `chunk` by now)
    standing = (
        around.STANDING.search(body)
        or around.STANDING.match(sentence.strip(" ([*_"))
        or led_in_for_good
    )
    # (not what it took, told of the past: "took a whole evening, every time")
    standing = (
        standing or not _TOLD_OF_THE_PAST.match(body) and around.ALWAYS_AFTER_THE_ASK.search(body)
    )
    if task and standing and not markers.DEICTIC_START.match(body):
        return heard_as(HIGH, "preference", body, sentence, about_user)
    if general:
        if task or markers.DEICTIC_START.match(body):
            return heard_as(MEDIUM, "preference", body, sentence, about_user)
        # "the borrow checker always wins", "customers never read the error message": a
        # general word said of a thing, with nothing tying it to how the person or the team
        # works, is as often what the person sees as what holds. The person confirms it.
        tied = around.ties_a_general_word(body, sentence)
        return heard_as(HIGH if tied else MEDIUM, "fact", body, sentence, about_user, not tied)
    if not task and markers.VALUE.search(body) and markers.ENV_VERB.search(body):
        if markers.DEICTIC_START.match(body):
            return None  # "it runs on 5173": which "it" is lost without the conversation
        # A value said of something with nothing tying it to how things stay (ours, here,
        # this repo, told for the record) is as often what happens now ("the model overfits
        # after epoch 8"): the person confirms it.
        tied = around.ties_a_value(body, sentence)
        return heard_as(HIGH if tied else MEDIUM, "fact", body, sentence, about_user, not tied)
    if task and first_person:
        return heard_as(MEDIUM, "preference", body, sentence, about_user)
    if not task and markers.SWITCHED.search(sentence) and around.holds_now(body):
        return heard_as(HIGH, "fact", body, sentence, about_user=False)  # the way chosen
    return None


def _told_after_the_task(chunk: str, sentence: str) -> Heard | None:
    """What the clauses after a task's own clause state for good ("validate it properly pls,
    for forms we go through conform + zod everywhere"), when they hold on their own."""
    # (or joined to the ask by "and": "put it in R/suppress_small.R and every table that
    # leaves the building goes through suppress_small(), no exceptions")
    # ("…, and every test that needs a live bucket goes behind it": the rule needs the ask)
    joined = _before_and_after(chunk, _AND_WHAT_HOLDS)
    if _POINTS_AT_THE_ASK.search(joined[1]):
        joined = (chunk, "")
    for ask, rest in (_before_and_after(chunk, _COMMA), joined):
        if (
            not rest
            or len(ask.split()) > _ASK_WORDS
            or not _ASKED_OF_THIS.search(ask)
            or _asked(rest)
            or _STILL_THE_TASK.match(rest)
            or not (markers.GENERAL.search(rest) or markers.TEAM.search(rest))
        ):
            continue
        told = judge(rest, sentence)
        if told is not None and told.confidence == HIGH:
            return told
    return None


_ASK_WORDS = 8
_COMMA = re.compile(r", ")
_POINTS_AT_THE_ASK = re.compile(r"\b(?:it|them|that one|this one)\b", _I)
_AND_WHAT_HOLDS = re.compile(
    r"\s+and\s+(?=(?:every|any|all|no|nothing|everything|anything|anyone)\b)", _I
)


def _before_and_after(chunk: str, cut: re.Pattern[str]) -> tuple[str, str]:
    found = cut.search(chunk)
    return (chunk[: found.start()], chunk[found.end() :]) if found else (chunk, "")


# the work at hand, pointed at: "validate it properly pls", "give me fish syntax"
_ASKED_OF_THIS = re.compile(r"\b(?:it|this|that|them|these|those|me)\b", _I)
# ("split it in two, then everything else"): the task going on
_STILL_THE_TASK = re.compile(r"(?:then|and|or|but|so|with|to|via|after|before)\b|\d", _I)


def _asked(chunk: str) -> bool:
    chunk = _OPENER.sub("", chunk)
    return bool(
        markers.TASK.match(chunk) or markers.IMPERATIVE.match(chunk) or markers.ASKS.match(chunk)
    )


# ("alright, let's get this on staging so Lena can try reservations": the ask after its opener)
_OPENER = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|all right|right|cool|great|nice|sure)[,.!]?\s+)+", _I
)


def heard_as(
    confidence: str, kind: str, body: str, sentence: str, about_user: bool, untied: bool = False
) -> Heard:
    content = person(body.rstrip(".!;, "))
    return Heard(
        confidence, kind, content[:1].upper() + content[1:], sentence, about_user, body, untied
    )
