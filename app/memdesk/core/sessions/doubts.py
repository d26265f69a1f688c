"""Signs that a statement heard at session end may not last, in the words it was read from:
a story of the past ("back then", "before I joined", "last year"), what happens to the person
now or each time they try ("right now", "so far", "every time I hit play"), a hedge
("maybe", "probably"), a complaint ("ugh", "ruins my afternoon"), a measurement ("1.9ms",
"dropped from 342 to 12"); and, anywhere in the message, another's view the person keeps at
a distance ("that's his view", "I don't share it"). Such a statement is the person's to
confirm: proposed, not stored.

Rules tuned on the sentences they came from read 0.95 precision there and 0.70-0.78 on
sessions they never saw, where some of what they stored wrongly bore one of these signs
(docs/benchmarks.md, stop 53).
"""

from __future__ import annotations

import re

from memdesk.core.sessions import pasted

_I = re.IGNORECASE
_MONTH = r"january|february|march|april|may|june|july|august|september|october|november|december"
# "the user" stands for "I" in a finding's words (third_person.person)
_PAST = (
    r"back then|used to|(?<!the )last (?:year|month|week|time|quarter|sprint|release|summer|"
    r"winter)|in (?:19|20)\d\d|\w+ ago|yesterday|before (?:i|we|the user) (?:joined|moved|switched|"
    rf"started)|when (?:i|the user) was|until (?:last|recently|{_MONTH})"
)
_NOW = (
    r"right now|at the moment|currently|this (?:week|morning|afternoon|evening|sprint)|"
    r"after lunch|tonight|so far|(?<!just for )today|still"
)
_SUPPOSED = r"would mean|one day|someday|(?:i|the user) hopes?|if we ever"
_VENTED = (
    r"ugh|argh|why does|why is|seriously|sigh|wtf|ffs|drives me|ruins?|ruined|"
    r"every (?:single )?time (?:i|the user|something|it)"
)
_HEDGED = (
    r"maybe|probably|might|perhaps|not sure|i guess|i suppose|i wonder|"
    r"(?:never|not) (?:been |really |quite |entirely )*sure|yet"
)
_IN_WORDS = re.compile(
    rf"\b(?:{_PAST}|{_NOW}|{_VENTED}|{_HEDGED}|{_SUPPOSED}|dropped from|went from)\b", _I
)
_MEASURED = re.compile(r"\d(?:\.\d+)?\s?(?:ms|%)(?!\w)")
# A figure that bounds what is done is a rule ("our frame budget is 16.6 ms", "canaries start
# at 5%"), not a run's result.
_BOUND = re.compile(
    r"\b(?:budget|target|slo|sla|limit|timeout|under|at most|minimum|maximum|gate|threshold|"
    r"must|always|never|every|per|start|p\d\d)\b",
    _I,
)
_KEPT_APART = re.compile(
    r"\b(?:reckons|insists|adamant|of the opinion|maintains that|keeps (?:pushing|saying|"
    r"telling)|is convinced|swears by|(?:his|her|their) (?:view|point|preference|thing|call|"
    r"opinion|take)|i (?:don't|do not) (?:share|agree|buy)|doesn't mean|not convinced)\b",
    _I,
)
# Said as a rule on purpose, or a change that holds ("our metrics moved to Prometheus last
# month"): no sign beside it makes it the person's to confirm.
_ON_PURPOSE = re.compile(
    r"\b(?:from now on|going forward|as a rule|for the record|for next time|keep in mind|"
    r"remember|in general|(?:moved|switched|migrated|changed|upgraded) (?:over )?to)\b",
    _I,
)


def doubtful(content: str, sentence: str, message_prose: str) -> bool:
    """Whether a finding's words (`content`, read from `sentence` of a message whose prose is
    `message_prose`) bear a sign that what they state may not last."""
    if _ON_PURPOSE.search(sentence):
        return False
    content = pasted.QUOTED.sub("", content)  # "drafts get the label 'not yet'" is a rule
    return bool(
        _IN_WORDS.search(content)
        or _MEASURED.search(content)
        and not _BOUND.search(content)
        or _KEPT_APART.search(message_prose)
    )
