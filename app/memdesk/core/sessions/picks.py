"""A way picked for the project, told with why the other is out or that it stays: "go with
bf16, fp16 kept nan-ing on this model last time too", "spatie/laravel-permission it is, we're
not hand rolling roles again". The next session needs the pick (its mixed precision, its
roles library), so it is kept as a decision.

A pick with nothing said beside it ("go with blake3 for the hashes") is proposed: as often it
settles the task at hand. One of the agent's options by its place or name ("yes, go with
option 2", "the assign_async version"), one limited to now or to what is in front of us ("go
with the polling approach for now", "go with tabs in this file") and one said in doubt stay
what `replies.ANSWER` calls them: an answer to the agent.
"""

from __future__ import annotations

import re

from memdesk.core.sessions import heard, reasons
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
# ("… swears bincode is the only sane choice, but let's just go with ron …": the pick against
# another's)
_LEAD = (
    r"^(?:(?:ok(?:ay)?|yeah|yes|yep|sure|alright|right|cool|fine|hm+|so|then|good|but)[,.!]?\s+)*"
)
_WHO = r"(?:(?:let'?s|lets|we(?:'ll| will)|i'll)\s+(?:just\s+)?)?"
_REST = r"(?P<rest>(?:\s*[,;—–(]|\s+-\s|\s+(?:since|because|cause|cuz|as we|and that's)\b|\.?$).*)$"
_GO_WITH = re.compile(
    _LEAD + _WHO + r"(?:(?:go|stick)\s+with|go\s+for)\s+(?P<x>[^,;—–()]+?)" + _REST, _I
)
# "let's just go bf16 everywhere": the pick without its "with" (not "let's go through …")
_LETS_GO = re.compile(
    _LEAD + r"let'?s\s+(?:just\s+)?go\s+(?!(?:with|for|ahead|back|over|through|to|on|home|and|"
    r"into|in|out|up|down|away|along|live|public|check|see|look|find|fix|get|grab|ask|talk|"
    r"figure|try|run|do|make)\b)(?P<x>[^,;—–()]+?)" + _REST,
    _I,
)
# "we're staying on zephyr v3.5.0, settings storage regressed for us in 3.6", "the reporting
# queries stay on Dapper, EF just generates garbage SQL …": a named tool or version kept
# "let's do soft delete with a deleted_at timestamp, no hard deletes": a way of doing it (not
# "let's do it", "let's do the tests next")
_LETS_DO = re.compile(
    _LEAD + r"let'?s\s+(?:just\s+)?do\s+(?!(?:it|that|this|them|so|some|more|both|all|"
    r"everything|something|anything|one|the same|a (?:quick|final|last|first))\b)"
    r"(?P<x>[^,;—–()]+?)" + _REST,
    _I,
)
_STAYS = re.compile(
    _LEAD + r"(?P<who>we|we're|we are|we'll|(?!(?:it|this|that|he|she|you|they|i)\b)"
    r"(?:(?:the|our)\s+)?[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:stays?|staying|remains?|sticks?|"
    r"sticking)\s+(?:on|with)\s+(?P<x>[^,;—–()]*?(?-i:[A-Z0-9])[^,;—–()]*?)" + _REST,
    _I,
)
# "we're staying on the doctrine transport for messenger, ops doesn't want to run rabbit …":
# the team keeps a thing it names with "the"
_WE_STAY = re.compile(
    _LEAD + r"(?P<who>we're|we are|we'll|we)\s+(?:stay(?:ing)?|stick(?:ing)?)\s+(?:on|with)\s+"
    r"(?P<x>(?:the|our)\s+[\w.-]+(?:\s+[\w.-]+){0,4}?)" + _REST,
    _I,
)
_IT_IS = re.compile(
    _LEAD + r"(?!(?:whatever|what|for|with|to|as|that|this|it|so|and|but|if|when|i|no|yes)\b)"
    r"(?P<x>[\w/@.+:#{}`'-]+(?:\s+[\w/@.+`'-]+){0,2}?)\s+it\s+is(?:\s+then)?"
    r"(?P<rest>(?:\s*[,;—–(]|\s+-\s|\s+(?:for|since|because|cause|cuz)\b|\.?$).*)$",
    _I,
)
# Another matter told beside the pick ("go with lookback 3 — oh and every model in this repo
# …", "(and type hints on everything please …)"): the rest of the table hears it.
_ASIDE = re.compile(r"[()]|(?:^|[—–-]\s*)(?:and\s+)?(?:oh\s+and|btw|by the way|fyi|also)\b", _I)
# What only points at the agent's offer: its number, its place, "that", "your version".
_OFFERED = re.compile(
    # (a number alone is the agent's option; "480 for no-route", "45 days" are values picked)
    r"^(?:(?:the|your|that|this|those)\s+)?(?:option|choice|variant|#\d+\b|\d+(?:st|nd|rd|th)?$|"
    r"[a-d]\b|first|second|"
    r"third|last|latter|former|other|original|one|that|this|it|them|yours?|both)\b|"
    r"\b(?:one|version|variant|option|suggestion|proposal|idea|draft)$",
    _I,
)
# Said for now or for what is in front of us, or tried to see.
_ONLY_NOW = re.compile(
    r"\b(?:for now|for the moment|for today|today|tonight|this time|here|to start(?: with)?|"
    r"(?<!from )now|next(?![.\w-])|later|tomorrow|afterwards|"
    r"as a start|first|temporar\w*|we'll see|see how|for a bit|in (?:this|that) (?:file|"
    r"function|method|test|pr|branch|one|case|component|query|script)|on (?:this|that) "
    r"(?:route|one|page|file|endpoint|screen)|for (?:this|that) (?:one|pr|test|task|ticket|run|"
    r"case|file|function|endpoint|route|page|screen|job|query|script|migration)|for the (?:load "
    r"test|demo|spike|prototype|poc|experiment|test run|benchmark))\b",
    _I,
)
# Why the other way is out, or that the pick stays: what makes it a decision.
_WHY = re.compile(
    r"\b(?:since|because|cause|cuz|no|not|never|nothing|don't|doesn't|won't|instead of|"
    r"rather than|kill|drop|rip out|ditch|get rid of|overkill|too \w+|slow|timing out|times? out|"
    r"expensive|costing|fortune|broke|broken|buggy|flaky|nan-?\w*|mess|pain|bit us|useless|"
    r"deprecated|unmaintained|dead|garbage|regress\w*|leak\w*|crash\w*|fail\w*|blew up|blows up|"
    r"from now on|going forward|from here on|always|every\w*|standard|default|the rule|"
    # agreed with the team, or what the person needs to be able to do
    r"agreed|voted|signed off|(?:want|need) to be able to|hammered|"
    # what it spares everyone: "… so nobody has to keep offsets in sync by hand"
    r"nobody|no one|by hand)\b",
    _I,
)
_PICKS = (_GO_WITH, _LETS_GO, _LETS_DO, _IT_IS, _STAYS, _WE_STAY)
# The pick told against what was said first: "Marco swears bincode is the only sane choice …
# but let's just go with ron for the save format, …"
_AGAINST = re.compile(r"[\s,;.]but\s+(?=(?:let'?s|lets|we'll|we will|i'll)\s+(?:just\s+)?go\b)", _I)
_THEN = re.compile(r"\s+then$", _I)
# the start of the next clause, cut off by the sentence split ("…, oh")
_TRAILING = re.compile(r"[\s,]*\b(?:oh|ah|and|btw|so|also|but)$", _I)
_GOES_ON = re.compile(r"(?:for|since|because|cause|cuz|as|and)\b", _I)


def _pick(body: str) -> re.Match[str] | None:
    return next(filter(None, (p.match(body) for p in _PICKS)), None)


def decided(sentence: str) -> tuple[str, str] | None:
    """(confidence, content) of the pick `sentence` makes for the project, or None when it
    makes none or only answers the agent."""
    body = sentence.strip().rstrip(".!")
    match = _pick(body)
    if match is None and (against := _AGAINST.search(body)):
        body = body[against.end() :]
        match = _pick(body)
    if match is None or body.endswith("?"):
        return None
    what = _THEN.sub("", match["x"].strip())
    rest = _TRAILING.sub("", match["rest"]).strip(" ,;—–-")
    if _ASIDE.search(rest) or _OFFERED.search(what) or _ONLY_NOW.search(body):
        return None
    if not rest and match.re in (_IT_IS, _LETS_DO):
        # ("store it is." answers the agent's question as often as it decides; "let's do the
        # mqtt part" names the next piece of work)
        return None
    picked = (
        body[match.start("who") : match.end("x")]
        if match.re in (_STAYS, _WE_STAY)
        else f"go with {what}"
    )
    doubt = heard.not_a_statement(picked)
    if doubt not in (None, "an answer to the agent"):
        return None
    confidence = HIGH if _WHY.search(f"{what} {rest}") or reasons.told(rest) else MEDIUM
    joined = " " if _GOES_ON.match(rest) else ", "
    content = f"Decision: {person(picked)}" + (f"{joined}{person(rest)}" if rest else "")
    return confidence, content
