"""What is told around a statement in the same clause, read before the clause is judged: the
reason after it ("…, because CI is slow"), the ask that follows from it ("…, so add her as
reviewer"), what else is fine, that it is said to last, what ties it to a rule ("…, that's a
park service requirement", "…, never raw fetch"), and the story of how it came to be ("it's
REST only, the SOAP endpoint got retired last spring")."""

from __future__ import annotations

import re
from collections.abc import Callable

from memdesk.core.sessions import heard, markers

_I = re.IGNORECASE

# "go into the private bucket, never the public one": one way, the other ruled out
ONE_NEVER_THE_OTHER = re.compile(
    r",\s+(?:and\s+)?never\s+(?:by|the|a|an|in|on|to|via|with|from|through|into|as|under)\b|"
    # "money in the go side is int64 cents, never float64, the db column is …"
    r",\s+(?:and\s+)?never\s+[\w./:-]+\s*(?:[,;.—–]|$)",
    _I,
)
# Where everything of a kind goes: "every user-facing string goes in strings.xml", "anything
# in marts/ that exposes PII goes through the mask_pii macro"
EVERYTHING_GOES = re.compile(
    r"\b(?:anything|everything|every [\w-]+(?: [\w-]+)?|all [\w-]+)\b[^,;]{0,60}?\b(?:goes|go|"
    r"must go|has to go|have to go|is routed|are routed|belongs|belong)\s+(?:through|in|into|"
    r"via|under)\b",
    _I,
)
# What is so set against what one might take it to be ("the business date is
# Europe/Amsterdam, not UTC", "we're not on gin, it's chi"): how things are, told to set
# them right
ONE_NOT_THE_OTHER = re.compile(
    r"(?:\b(?:is|are)|'s|'re)\s+[^,;]{1,40},\s+not\s+(?:the\s+)?"
    r"[\w./:-]+(?:\s+[\w./:-]+){0,2}\s*(?:[,.;—–-]|like\b|$)|"
    r"\bnot\s+(?:on\s+)?[\w./:-]+,\s+(?:it'?s|we'?re on|we use)\s+[\w./:-]+",
    _I,
)
# "always" as a word of its own after an ask: "label the axes with units, always, every plot"
ALWAYS_AFTER_THE_ASK = re.compile(
    r",\s*(?:always|ever|every (?:single )?time)(?=\s*(?:[,.;!—–-]|$))", _I
)
STANDING = re.compile(
    r"\b(?:from now on|going forward|from here on(?: out)?|in (?:the )?future|as a rule|"
    r"if (?:you|u|anyone|someone|we) ever|in general(?=\s*[,:;)—–-]|\s+(?:please|pls|no|just|"
    r"keep|don't|do not|never|always|i|for|skip|show|send|use)\b)|"
    r"by default|no exceptions|non-negotiable|house style|as (?:the|our) (?:standard|default)"
    r"(?: way)?|"
    # the person's own way: "…, no period at the end, that's how I do it everywhere"
    r"(?:that'?s|thats|this is) how (?:i|we) (?:do|work|write|like) (?:it|them|things) "
    r"(?:everywhere|in every \w+|in all (?:my|our) \w+)|"
    # said of the ask just made: "…, thats just how i work", "…, that's the rule in here"
    r"(?:that'?s|thats|that is|this is) (?:just |simply )?(?:how (?:i|we) (?:work|roll|do things|"
    r"write|write (?:it|them)|like (?:it|them|\w+ laid out)|do (?:it|them))|the rule "
    r"(?:here|in here|in this (?:repo|project|codebase|team))|(?:department|company|team|house|"
    r"our) (?:policy|rule)))\b",
    _I,
)
# What to do about the task once the rule is told: "…signed off by Maggie before it merges,
# so once it's fixed grab me before/after screenshots"
THEN_THIS_TIME = re.compile(r",\s+so\s+(?:once|as soon as)\s.*$", _I)
SO_ASKED_NOW = re.compile(
    r",\s+so\s+(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:add|put|tag|ping|cc|mention|"
    r"assign|set|make|send|keep|use|ask|draft|write|open|loop)\b[^;]*$",
    _I,
)
# "…, that's a park service requirement, so fix the labels": mending what breaks the rule now
SO_FIX_NOW = re.compile(
    r",\s+so\s+(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:fix|correct|rename|rip|redo)\b"
    r"[^;]*$",
    _I,
)
# "…, so if the layout looks off to you he's the one who'll know": a condition, no state of now
IF_IT_LOOKS = re.compile(
    r"\b(?:if|when|whenever|unless)\s+(?:[\w'-]+\s+){0,8}?(?:looks?|seems?|feels?|is|are)\s+"
    r"(?:\w+\s+)?(?:off|wrong|broken|weird|missing|stale|confusing|failing|slow|flaky)\b",
    _I,
)
# "all UI goes through the theme, don't style individual nodes": the way, and what not to do
AND_NOT_THIS = re.compile(
    r"^(?!(?:for|in|on|at|during|until|when|if|once)\b).*?,\s+(?:and\s+)?(?:don'?t|do not|never)"
    r"\s+(?!(?:knew|know|seen|saw|heard|thought|had|been|used|tried|noticed|got|managed|did)\b)"
    r"[a-z]+\b",
    _I,
)
SO_ASKED_IF = re.compile(
    r",\s+so\s+(?:could|can|would|should|shall)\s+(?:we|you|i)\b[^;?]*\?\s*$", _I
)
# "…, that's a park service requirement": the clause before is a rule someone set
REQUIRED = re.compile(
    r",\s+(?:that's|that is|it's|it is|this is)\s+(?:a|an|our|the)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:requirement|regulation|mandate|policy|rule)\b",
    _I,
)
# "…, so the formatting is skipped when the level is off": what follows from the rule says
# nothing of whether it is one
REASON = re.compile(
    r",?\s+(?:because|since|as|so that|given that)\s+[^,;]+$|"
    r",\s+so\s+(?:the|its?|it's|that|this|there|nothing|everything)\s[^;]+$",
    _I,
)
# "I'd rather not see Lombok …, records or plain getters are fine": what is allowed instead,
# not how things are now
ALSO_FINE = re.compile(
    r",\s+(?:but\s+)?(?!(?:they|it|that|this|these|those|everything|whatever|all)\b)[^,;]{1,60}?"
    r"\s+(?:is|are)\s+(?:fine|ok|okay|good|allowed)"
    r"(?:\s+(?:too|with me|by me|though))?\s*$",
    _I,
)
# "…, that won't change": said to last, not a fault ("it won't start")
LASTS = re.compile(
    r",?\s+(?:and\s+)?(?:that|this|it|those|these)(?:'s| is| are)?\s+(?:won'?t|will not|"
    r"(?:is|are)n'?t going to|(?:is|are) not going to|never|not going to|not gonna|won'?t ever)"
    r"\s+change\b[^,;]*$",
    _I,
)


# What a chunk refused as a whole reads as when a statement stands before its story or its
# consequence now ("it's gRPC only, the REST gateway got switched off last quarter"), and when
# it stands before its reason or the ask on the work ("…, because they keep dropping the index")
_TOLD_AFTER = ("a past event", "what is wrong now", "a condition or a hedge")
_FOLLOWED = ("said for the task at hand", "how things are at the moment")
ROOM_FOR_WHAT_HOLDS = (*_TOLD_AFTER, *_FOLLOWED)


def what_holds(chunk: str, why: str) -> str:
    """The statement in `chunk`, which as a whole reads as `why`, without what is told after
    it; empty when nothing before it holds on its own."""
    if why in _TOLD_AFTER:
        held = before_its_story(chunk) or without_what_follows(chunk)
    else:
        held = without_what_follows(chunk) if why in _FOLLOWED else ""
    if not held and why in _REASONS:
        held = before_its_reason(chunk)
    return held or (the_lasting_clauses(chunk) if why in _BESIDE_A_MOMENT else "")


# What a reason told after a rule reads as on its own: "don't bump duckdb past 1.1.3, the
# report box is on centos 7 and newer wheels won't load there"; "keep apiVersion pinned, the
# newer ones broke the nav last time we tried"
_REASONS = ("a past event", "what is wrong now", "how things are at the moment")


def before_its_reason(chunk: str) -> str:
    """The clauses before the reason told after them, when they hold on their own; empty
    otherwise. The longest such head: "we don't use pulumi cloud, state lives in the
    acme-pulumi-state bucket, so ignore the login bit in the old README" keeps where the state
    lives."""
    for cut in reversed(list(re.finditer(r",\s+", chunk))):
        head, tail = chunk[: cut.start()].strip(" ,;"), chunk[cut.end() :]
        if len(head.split()) < 4 or heard.not_a_statement(head) or not _a_rule(head):
            continue
        if heard.not_a_statement(tail.strip(" .")) is not None:
            return head
    return ""


# (a condition, not a rule: "every time Glyphs updates, the export breaks")
_CONDITION = re.compile(r"^(?:every time|each time|whenever|when|if|once|after|before|while)\b", _I)
# (nothing changed, no rule: "the nightly build uses the same flags as always")
_AS_EVER = re.compile(r"\bas (?:always|usual|ever|before)\b", _I)


def _a_rule(clause: str) -> bool:
    """Whether `clause` reads as a rule by its words: something ruled out, an instruction, a
    version held on purpose, or a general word tied to how the person or the team works."""
    clause = _AS_EVER.sub("", clause)
    return not _CONDITION.match(clause) and bool(
        markers.RULED_OUT.search(clause)
        or markers.IMPERATIVE.match(clause)
        or markers.PINNED.search(clause)
        or markers.GENERAL.search(clause)
        and ties_a_general_word(clause, clause)
    )


# What only this moment or this fault reads as, beside a clause marked to last ("I use uv
# for everything, pip just confuses me at this point"; "activate doesn't work, I'm on fish,
# it's been that way forever on all my machines")
_BESIDE_A_MOMENT = ("how things are at the moment", "what is wrong now")


_MINE = re.compile(r"(?:(?:and\s+)?(?:btw|fyi|fwiw),?\s+)?(?:i|i'm|i've|we|we're|we've)\b", _I)


def the_lasting_clauses(chunk: str) -> str:
    """The clauses of `chunk` before or after the one that reads as of the moment, when they
    state on their own how the person or the team works, everywhere or always; empty
    otherwise."""
    clauses = re.split(r",\s+", chunk.strip(" .;"))
    for n in range(1, len(clauses)):
        for part in (", ".join(clauses[:n]), ", ".join(clauses[n:])):
            if (
                len(part.split()) >= 4
                and _MINE.match(part)
                and markers.GENERAL.search(part)
                and not heard.not_a_statement(part)
            ):
                return part
    return ""


# "…, flip it to a plain if/else", "…because they keep dropping the index": the ask on the
# work at hand, or the reason, said after the rule
_FIX_IT = re.compile(
    r",\s+(?:so\s+)?(?:please\s+)?(?:fix|correct|rename|redo|flip|swap|change|convert|turn|"
    r"rewrite) (?:it|them|this|that|those|these)\b[^;]*$",
    _I,
)


# (not a time: "nobody has opened since 2023")
_BECAUSE = re.compile(
    r",?\s+(?:because|since(?!\s+(?:(?:19|20)\d\d|last|then|yesterday|\w+ ago)\b)|given that)"
    r"\s+[^,;]+$",
    _I,
)


def without_what_follows(chunk: str) -> str:
    """The statement without the reason or the ask on the work at hand said after it, when
    what is left states something on its own; empty otherwise."""
    head = _FIX_IT.sub("", _BECAUSE.sub("", chunk)).strip(" ,;")
    if head == chunk.strip(" ,;") or len(head.split()) < 4 or heard.not_a_statement(head):
        return ""
    return head


# Where a story told after a statement starts: ", ops moved it last year", " (since 2022"
_STORY_TOLD_AFTER = re.compile(r",\s+|\s+\(|\s+[—–]\s+|;\s+|\s+(?=since\b)", _I)


def before_its_story(chunk: str) -> str:
    """What holds before the story of how it came to be ("it's gRPC only, the REST gateway
    got switched off last quarter"); empty when the story is all there is."""
    for cut in reversed(list(_STORY_TOLD_AFTER.finditer(chunk))):
        head, tail = chunk[: cut.start()], chunk[cut.end() :]
        told = heard.not_a_statement(tail.strip(" ()"))
        # (the story may end with what to do about it now: "…, state lives in the acme-state
        # bucket, so ignore the login bit in the old README" keeps where the state lives)
        so = _SO.match(tail)
        asked_now = told and so and markers.IMPERATIVE.match(tail[so.end() :])
        if tail.startswith("and ") or not (
            told == "a past event" or asked_now or _THATS_WHY.match(tail)
        ):
            continue
        if head.count("(") > head.count(")"):
            head = head[: head.rindex("(")]
        head = head.strip(" ,;—–")
        holds = holds_now(head)
        return head if holds and len(head.split()) >= 4 and not heard.not_a_statement(head) else ""
    return ""


_NOW_CLAUSE = re.compile(
    r"(?:,\s+|\s+and\s+)(?=[^,;]*\b(?:now|these days|nowadays)\b|"
    # what is made since: "we moved off StateNotifier last spring, anything new is an …"
    r"(?:anything|everything|all|every) new\b|new \w+ (?:go|get|use|are|is|should)\b)",
    _I,
)


def after_the_switch(sentence: str) -> list[str]:
    """What holds now, told after the switch that made it so ("we dropped moment last year,
    everything goes through luxon now"); empty when the sentence tells no such thing."""
    switch = markers.SWITCHED.search(sentence)
    now = switch and _NOW_CLAUSE.search(sentence, switch.end())
    return [sentence[now.end() :]] if now else []


def switch_and_what_holds(sentence: str) -> str:
    """`sentence` when it tells a switch and how things are since, after it ("we dropped
    algolia last year, search is pagefind now") or before it ("it's SwiftData not Core Data,
    we moved off Core Data last spring"): the switch says what "now" replaced, so the two are
    one statement and neither is a status of the moment; else "". What the person goes on to
    tell after what holds ("…, the proxy is caddy now, that role is just dead code I never got
    round to deleting") is left out of it."""
    holding = after_the_switch(sentence) or _before_the_switch(sentence)
    if not holding:
        return ""
    told = holding[0]
    if not _holds_unquestioned(told):
        told = _FIRST_CLAUSE.match(told)[0] if after_the_switch(sentence) else ""
        if not told or not _holds_unquestioned(told):
            return ""
        sentence = sentence[: sentence.index(told) + len(told)]
    return _MENDING_WORD.sub("", sentence)


_FIRST_CLAUSE = re.compile(r"[^,;—–]*")


def _holds_unquestioned(text: str) -> bool:
    doubt = heard.not_a_statement(text)
    return holds_now(text) and doubt in (None, "how things are at the moment")


def _before_the_switch(sentence: str) -> list[str]:
    """What holds now when the switch is the clause after it, told as why; empty when the
    sentence opens with the switch."""
    switch = markers.SWITCHED.search(sentence)
    cut = switch and sentence.rfind(", ", 0, switch.start())
    return [sentence[:cut]] if cut and cut > 0 else []


# the word that sets the agent right is not part of what holds: "nah, we ripped jest out …"
_MENDING_WORD = re.compile(
    r"^\s*(?:(?:ugh|hm+|ah|oh|eh)\W+)?(?:no|nope|nah|wait|stop|actually)\b[\s,.!—–-]*", _I
)


# What holds now, not how things went: "it's gRPC only", "sarama is off the table"
# what follows from it now: "…, not 5432 — that's why the integration job can't connect"
_SO = re.compile(r"so,?\s+", _I)
_THATS_WHY = re.compile(r"(?:that'?s|thats|which is|this is)(?:\s+\w+ly)?(?:\s+also)?\s+why\b", _I)
_HOLDS_NOW = re.compile(
    r"\b(?:is|are|isn't|aren't|don't|do not|doesn't|does not|never|always|only|must|uses?|"
    r"runs?|lives?|goes|go|sits?|listens?|points?|stays?|belongs?)\b|'s\b|'re\b",
    _I,
)
_WAS = re.compile(
    r"\b(?:was|were|had|did|(?:have|has|'ve) \w+ed)\b|^(?:before|twice|once|back|last)\b", _I
)


def holds_now(text: str) -> bool:
    """Whether `text` says how something is, not how it went."""
    return bool(_HOLDS_NOW.search(text)) and not _WAS.search(text)


def asks_for_work(text: str) -> bool:
    """Whether `text` is a request by its shape ("point the debug build at staging")."""
    return bool(markers.IMPERATIVE.match(text) or markers.ASKS.match(text))


def without_the_task_before(
    sentence: str, chunks: list[str], judged: list, strip: Callable[[str], str]
) -> str:
    """The sentence from its first statement to its last, when it opens with a task that
    states nothing ("write the helper … (and please, type hints on everything — i'd rather not
    read untyped python ever again)")."""
    said = [n for n, heard_here in enumerate(judged) if heard_here is not None]
    if said[0] == 0 or not asks_for_work(strip(chunks[0])):
        return sentence
    start = sentence.find(chunks[said[0]].strip()[:30])
    last = chunks[said[-1]].strip()[-30:]
    end = sentence.find(last, start)
    if start <= 0 or end < 0:
        return sentence
    return sentence[start : end + len(last)]


def ties_a_general_word(body: str, sentence: str) -> bool:
    """Whether a general word ("always", "every") in `body`, of `sentence`, is said of how the
    person or the team works: theirs, ruled out, asked of the agent whenever, required, set
    against another way, or the way a switch chose."""
    return bool(
        markers.TIED.search(sentence)
        or markers.SWITCHED.search(sentence)
        or markers.RULED_OUT.search(body)
        or heard.WHENEVER_YOU.match(body)
        or ONE_NEVER_THE_OTHER.search(body)
        or AND_NOT_THIS.search(body)
        or REQUIRED.search(body)
        or ONE_NOT_THE_OTHER.search(body)
        or EVERYTHING_GOES.search(body)
        or _ASKED_POLITELY.match(body)
        or _BOUND.search(body)
        or _THE_ONLY_ONE.search(body)
    )


# who or what alone does it: "Marguerite is the only one who approves timesheets", "that's the
# only thing that should write into Baked/"
_THE_ONLY_ONE = re.compile(
    r"\bthe only (?:one|person|thing|place|service|job|module|script|team)\b(?! (?:i|we) )", _I
)


# asked of the agent: "pls no force unwraps anywhere, tests included"
_ASKED_POLITELY = re.compile(r"(?:(?:and|also|oh and|btw)\s+)?(?:please|pls|plz)\b", _I)


# A value given as a bound or a place things must keep to ("the cluster's python tops out
# at 3.10", "iOS 17 minimum", "new city config goes in yaml under config/cities/", "the
# checks have to use Europe/Dublin time"): a constraint, which outlasts the task it came up in
_BOUND = re.compile(
    r"\b(?:stuck on|tops out at|pinned (?:to|at)|minimum|msrv|at most|"
    r"no newer than|still supports?|only supports?|go(?:es)? in(?:to)?|lives? in|belongs? in|"
    r"has to|have to|must|needs? to be|hard requirement|"
    # what it rules out from now: "the workers run Python 3.11, so no 3.12 syntax"
    # (not until something happens: "…, so don't touch it until that's merged")
    r"so (?:please )?(?:don'?t|do not|never|no|nothing)(?!'s\b|\s+is\b)"
    r"(?![^.;]*\b(?:until|till|yet|for now|right now)\b))\b",
    _I,
)


def ties_a_value(body: str, sentence: str) -> bool:
    """Whether a value said of something in `body` is tied to how things stay."""
    return bool(
        markers.anchored(sentence)
        or markers.SWITCHED.search(sentence)
        or ONE_NOT_THE_OTHER.search(body)
        or _BOUND.search(body)
        or _WHERE_IT_IS.search(body)
    )


# where a thing is reached: a bucket, a host's address or port (not this machine's: a pasted
# "fetch at 'http://localhost:8000/…' … blocked" is what happened), a port said against the
# one it is not ("tracking server is http://mlflow.geo.internal:5000", "maps postgres to 5434
# not 5432")
_WHERE_IT_IS = re.compile(
    r"\b(?:s3|gs)://\S+|\bhttps?://(?!localhost\b|127\.)[\w-]+(?:\.[\w-]+)+|"
    r"\b[a-z][\w-]*(?:\.[\w-]+)+:\d{2,5}\b|"
    r"\b\d{2,5}\s+not\s+(?:the\s+)?\d{2,5}\b",
    _I,
)


# what the person does about it ("pip never works for me here, so I always use uv")
_SO_I_DO = re.compile(r"\bso (?:i|we)\b", _I)


def keeps_failing_the_person(text: str) -> bool:
    """Whether `text` tells of a thing that keeps failing the person ("the test db thing
    never works for me"): how often it breaks, no rule."""
    return bool(markers.FAILS_FOR_ME.search(text)) and not _SO_I_DO.search(text)
