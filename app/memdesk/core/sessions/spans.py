"""A statement told between commas, after a reaction, a correction of the agent or a request
and before the person's next thought: "careful there, amounts from recharge are in cents btw,
the shopify ones are dollars", "can you redo the chart, honestly, I'm colourblind so red and
green look the same to me", "it's not, the support desk is in Porto, opening hours are 8 to 17
Europe/Lisbon".

Read whole, such a sentence is the reaction's or the request's, and nothing in it is kept for
sure. Its clauses between commas and dashes are read instead: the longest run of them that
the table or the clause reader keeps for sure on its own is the statement, when what comes
before it only reacts, asks in so many words or sets the agent right (not a guess, a
condition, a request for this once), nothing from it on is a question, a hedge, a story or
the task at hand, and what comes right after it does not doubt it ("…, I think", "…, or was
it 5434?").

Measured when written (stop 96): read sessions of batches 1-25, 1,220 -> 1,248 stored and
185 -> 187 stored wrongly; single-turn rows, 7,974 -> 8,028 and 405 -> 418 (bench/heard.py
shapes). Read after any opening clause and up to the end of the sentence, it stored 133
more wrongly there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from memdesk.core.sessions import clauses as clauses_of
from memdesk.core.sessions import heard, markers
from memdesk.core.sessions.finding import Finding
from memdesk.core.sessions.pattern_judges import HIGH

_I = re.IGNORECASE

# where a clause ends: a comma, or a dash between spaces (not inside a path or a word)
_BETWEEN = re.compile(r",\s+|\s[—–-]+\s")
MAX_CLAUSES = 6
_WORDS = 4

# only a reaction, an aside to the agent or a call for attention: "haha yeah", "careful there",
# "oh wait nvm, brain fart", "heads up tho", "can't"
_REACTION = re.compile(
    r"^(?:(?:and|also|oh|ok|okay|so|then|yeah|yes|yep|yup|no|nah|nope|stop|careful|right|"
    r"sure|fine|good|great|cool|haha|hah|lol|ugh|hmm|hm|ah|wait|nvm|btw|sorry|honestly|tbh|"
    r"though|tho|there|well|anyway|actually|true|perfect|nice|thanks|alright|heads[- ]up|"
    r"one thing|brain fart|my bad|oops|can't|cannot|not yet|hold on|hang on|never ?mind|"
    r"while (?:you're|you are) (?:in there|at it)|good (?:call|catch|point))\b[\s,.!—–-]*)+$",
    _I,
)
# the agent set right: "it's not", "that fallback is wrong", "they're not on s3 actually",
# "you're pointing at the wrong port"
_SETS_RIGHT = re.compile(
    r"^(?:(?:no|nah|nope|and|but|so|oh)[,\s]+)*(?:(?:it|that|this|they|those|these)(?:'s|'re| is| "
    r"are)\s+not\b|(?:that's|that is|this is|it's|[\w ./-]{1,40}? (?:is|are))\s+(?:just\s+)?"
    r"(?:wrong|not right|incorrect|off|backwards|outdated|stale)\b|"
    r"you(?:'re| are) (?:pointing|looking|reading|using|running|on)\b[^,]*\bwrong\b|"
    # what the agent proposed, turned down: "nah skip alembic"
    r"(?:skip|drop|forget|ditch|scrap|no need for|not) (?:the |that |any )?"
    r"(?!(?:that|it|this|them|those)\b)[\w./-]+"
    r"(?: (?:stuff|thing|part|idea|step|approach))?$)",
    _I,
)
# what was asked: "can you redo it", "fix the assertions in the legacy ones", "don't stress
# about poking at content while you test", "can we kill that fixtures.json thing"
_FILLERS = re.compile(
    r"^(?:(?:and|also|oh|ok|okay|so|then|yeah|yes|sure|honestly|but|btw|now)\b[\s,.!]*)+", _I
)
_ASKED = re.compile(
    r"^(?:(?:can|could|would) (?:you|we)|(?:don't|do not|no need to|never mind|please|pls)\b|"
    r"let'?s\b)",
    _I,
)
# what governs all that follows it: a condition, a time told, a reason told first
_GOVERNS = re.compile(
    r"^(?:(?:and|but|so|oh|also)\s+)?(?:if|when|whenever|unless|once|since|because|as long as|"
    r"until|before|after|in case|assuming|suppose|what if|maybe|perhaps|probably|i think|"
    r"i guess|i believe|pretty sure|not sure|iirc)\b",
    _I,
)
# a tail that takes the statement back or doubts it: "…, I think", "…, or was it 5434?"
_DOUBTS_IT = re.compile(
    r"^(?:i think|i guess|i believe|iirc|if i remember(?: right(?:ly)?)?|or so|or something|"
    r"not sure|maybe|probably|right|no\?|or (?:was|is) it\b|at least (?:i think|for now)|"
    r"for now|today|this time|at the moment|right now)\b",
    _I,
)


_ENCLOSED = re.compile(r"\([^)]*\)?|\[[^\]]*\]?|\{[^}]*\}?|`[^`]*`?|\"[^\"]*\"?")
# a change asked, however wide ("rename X to Y across the repo", "in bin/replay.ml use Eio")
_CHANGE_ASKED = re.compile(r"(?:rename|in [\w./`-]+ (?:use|add|make|put|change|switch))\b", _I)
# what the agent did, praised: "…, that's exactly how I like a flash routine 👍"
_PRAISED = re.compile(r"\bexactly (?:how|what) (?:i|we)(?:'d)? (?:like|want)\b", _I)
# a request for this once: what is told beside it is why, for now ("don't regenerate the
# lockfile this time, the release branch is frozen")
THIS_ONCE = re.compile(
    r"\b(?:this time|today|tonight|for now|right now|just this once|"
    r"(?:for )?this (?:batch|run|once|pr|ticket|task|week|release)|"
    r"until (?:after )?(?:\d+(?::\d\d)?\s*(?:am|pm)?|lunch|tomorrow|monday|tuesday|wednesday|"
    r"thursday|friday))\b",
    _I,
)
_SHORT_TAIL = 4
_WANTS = re.compile(r"\bi (?:want|need|'d like|would like)\b", _I)
_BUT = re.compile(r"but\b", _I)
# what opens a clause that leans on another: an example, a reason, a concession
_NOT_ON_ITS_OWN = re.compile(
    r"(?:like|e\.?g\.?|i\.?e\.?|for example|for instance|because|cause|cuz|which|whatever|"
    r"whoever|wherever|(?:the )?problem is|(?:the )?issue is|\w+er (?:if|to|that)|"
    r"(?:always|only|just|even) (?:when|if|because|since))\b",
    _I,
)
# the reaction words a clause may open with before what it says
_LEADING = re.compile(
    r"^(?:(?:and|also|oh|ok|okay|so|then|yeah|yes|no|nah|hmm|hm|ah|well|actually|btw|but|"
    r"honestly|tbh|anyway|now|right|sure|careful|stop|wait|nope)\b[\s,.!—–-]*)+",
    _I,
)


def read(
    sentence: str, match: Callable[[str], Finding | None], *, after_a_request: bool = True
) -> Finding | None:
    """The statement `match` keeps for sure in a run of `sentence`'s clauses, or None; after
    a reaction or a correction only, unless `after_a_request`."""
    cut = [0, *(n for m in _between(sentence) for n in m.span())]
    bounds = list(zip(cut[::2], [*cut[1::2], len(sentence)], strict=False))
    if not 2 <= len(bounds) <= MAX_CLAUSES:
        return None
    clauses = [sentence[a:b] for a, b in bounds]
    # where a statement may start, judged once for every run that starts there: after what
    # only leads in, and with nothing from there on a question, a hedge, a story or the task
    # at hand (what only reacts before it is not the rest's)
    starts = {
        first
        for first in range(len(clauses))
        if _leads_in(clauses[:first], after_a_request)
        and clauses_of.why_not_kept(sentence[bounds[first][0] :]) is None
    }
    for size in range(len(clauses) - 1, 0, -1):
        for first in range(len(clauses) - size + 1):
            last = first + size
            if first not in starts or not _lets_it_stand(clauses[last:], sentence):
                continue
            said = sentence[bounds[first][0] : bounds[last - 1][1]].strip()
            if len(said.split()) < _WORDS or not _opens_a_statement(said):
                continue
            finding = match(said[:1].upper() + said[1:])
            if finding is not None and finding.confidence == HIGH:
                return replace(finding, sentence=said)
    return None


def _between(sentence: str) -> list[re.Match[str]]:
    """Where `sentence`'s clauses end: not inside brackets, quotes or code, nor between the
    items of what a colon opens ("change the order pls: shipment_id first, then …")."""
    inside = [m.span() for m in _ENCLOSED.finditer(sentence)]
    colon = sentence.find(": ")
    return [
        m
        for m in _BETWEEN.finditer(sentence)
        if not any(a < m.start() < b for a, b in inside) and not 0 <= colon < m.start()
    ]


def _leads_in(before: list[str], after_a_request: bool) -> bool:
    return all(_only_leads_in(clause.strip(" .!:"), after_a_request) for clause in before)


def _only_leads_in(clause: str, after_a_request: bool) -> bool:
    if not clause or _REACTION.match(clause) or _SETS_RIGHT.match(clause):
        return True
    if not after_a_request or _GOVERNS.match(clause) or THIS_ONCE.search(clause):
        return False
    # asked in so many words: a past "generated the sheet" or "Test run fetched …" reads as
    # an imperative too
    return bool(_ASKED.match(_FILLERS.sub("", clause)))


def _opens_a_statement(said: str) -> bool:
    """Whether `said` opens as a statement of its own: not a request ("use fake_cloud_firestore
    like the others do"), an example ("like bordereau_2024_05.csv …"), a reason or a
    condition cut from what it serves ("before we build anything", "so whatever you need to
    do with the cookie")."""
    opening = _LEADING.sub("", said)
    return not (
        _NOT_ON_ITS_OWN.match(opening)
        or _GOVERNS.match(opening)
        or _asks(opening)
        or _CHANGE_ASKED.match(opening)
        # what the person wants of this change: "I want temperature in there too"
        or _WANTS.search(said)
        and not markers.GENERAL.search(said)
        or heard.not_a_statement(said)
        or _PRAISED.search(said)
    )


def _lets_it_stand(after: list[str], sentence: str) -> bool:
    if not after:
        return True
    next_one = after[0].strip(" .!?")
    # "…, I think", "…, for now" doubt it; a clause of its own ("…, for now just prototype on
    # the sample") goes on to something else; "…, but shouldn't it pause …?" questions it
    short = len(next_one.split()) <= _SHORT_TAIL
    questioned = sentence.rstrip().endswith("?") and _BUT.match(next_one)
    return not (short and _DOUBTS_IT.match(next_one) or questioned)


def _asks(clause: str) -> bool:
    asked = _FILLERS.sub("", clause)
    return bool(_ASKED.match(asked) or markers.TASK.match(asked) or markers.IMPERATIVE.match(asked))
