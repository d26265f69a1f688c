"""The table of gap-fill patterns, from the most specific to the least (`core/sessions/gapfill.py`).

A pattern names what a sentence of the user's states, how to say it as a memory that stands
without the conversation, how sure that is (high: stored; medium: proposed; None: not a
finding after all; the judges that read it are in `pattern_judges`) and whether it is about
the user (global) or the project.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memdesk.core.sessions import markers, scope
from memdesk.core.sessions.pattern_judges import (
    DEICTIC,
    HIGH,
    MEDIUM,
    contrast,
    dont,
    fact,
    forbidden,
    general_use,
    lasting_use,
    no_need,
    own_use,
    rule,
    team_refusal,
)
from memdesk.core.sessions.pattern_words import (
    MINE,
    NOT_A_VERB,
    NOT_FORBIDDEN,
    PRESENT,
    ROLES,
    WHERE,
)
from memdesk.core.sessions.third_person import likes, person

_I = re.IGNORECASE


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: re.Pattern[str]
    kind: str  # the memory kind it is stored as
    render: Callable[[re.Match[str], str], str]
    judge: Callable[[re.Match[str], str], str | None]
    about_user: Callable[[str], bool]
    anywhere: bool = False  # search the clause, not only its start


def _p(
    name: str,
    regex: str,
    kind: str,
    render: Callable[[re.Match[str], str], str],
    judge: str | Callable[[re.Match[str], str], str | None] = HIGH,
    *,
    user: bool | None = None,
    anywhere: bool = False,
) -> Pattern:
    decide = judge if callable(judge) else (lambda _m, _b, c=judge: c)
    about = (lambda _b, u=user: u) if user is not None else scope.about_the_user
    return Pattern(name, re.compile(regex, _I), kind, render, decide, about, anywhere)


def _rest(text: str) -> str:
    return text.strip().rstrip(".!;,")


_IM = re.compile(r"^im\b", _I)  # "im on fish", typed fast


def _within_brackets(text: str) -> str:
    """`text` up to a bracket it did not open: "(…, I'm colorblind, so no red vs green) now
    the pdf export" was cut from inside an aside."""
    depth = 0
    for n, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return text[:n]
    return text


def _cap(text: str) -> str:
    text = re.sub(r"^please\s+", "", _rest(text), flags=_I)
    return text[:1].upper() + text[1:]


PATTERNS: tuple[Pattern, ...] = (
    _p(
        "remember_to",  # "remember to update the docs": a to-do for now, not a fact
        r"^(?:please\s+)?remember\s+to\s+(?P<x>.{3,240})$",
        "fact",
        lambda m, b: f"Remember to {_rest(m['x'])}",
        MEDIUM,
    ),
    _p(
        "remember",
        r"^(?:please\s+)?(?:always\s+)?remember(?:\s+that)?[:,]?\s+(?P<x>.{4,240})$",
        "fact",
        lambda m, b: person(_cap(m["x"])),
    ),
    _p(
        "prefer_choice",  # "I prefer the second option": a choice in this conversation
        r"^(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?prefer\s+(?P<x>(?:the|this|that|these|those|"
        # ("I'd prefer all of that in one commit": what was just asked for)
        r"it|option|one|yours|mine|both|all (?:of )?(?:that|this|it|them|these|those))\b.{0,200})$",
        "preference",
        lambda m, b: f"The user prefers {_rest(m['x'])}",
        MEDIUM,
    ),
    _p(
        "prefer",
        r"^(?P<who>i|we)(?:'d|\s+would)?\s+(?:really\s+|generally\s+|usually\s+|always\s+|"
        r"much\s+)?prefer\s+(?P<x>(?!if\b|it\s+if\b|that\s+you\b).{3,200})$",
        "preference",
        lambda m, b: (
            f"{'The user prefers' if m['who'].lower() == 'i' else 'The team prefers'} "
            f"{person(_rest(m['x']), named=m['who'].lower() == 'i')}"
        ),
    ),
    _p(
        "rather",
        r"^(?P<who>i|we)(?:'d|\s+would)\s+(?:much\s+)?rather\s+(?P<x>(?!not\b).{3,200})$",
        "preference",
        lambda m, b: (
            f"{'The user' if m['who'].lower() == 'i' else 'The team'} would rather "
            f"{person(_rest(m['x']), named=m['who'].lower() == 'i')}"
        ),
    ),
    _p(
        "prefer_that",
        r"^i(?:'d|\s+would)?\s+(?:really\s+)?prefer\s+(?:it\s+)?(?:if|that)\s+(?:you\s+)?"
        r"(?P<x>.{3,200})$",
        "preference",
        lambda m, b: f"The user prefers that the agent {_rest(m['x'])}",
        MEDIUM,
    ),
    _p(
        "like_hate",
        r"^i\s+(?:really\s+)?(?P<v>like|love|hate|dislike|can't stand|cannot stand|don't like)\s+"
        r"(?P<x>.{3,160})$",
        "preference",
        lambda m, b: f"The user {likes(m['v'])} {person(_rest(m['x']), named=True)}",
        lambda m, b: None if re.match(DEICTIC, m["x"], _I) else HIGH,
        user=True,
    ),
    _p(
        "always_never",
        # An imperative, not a description ("always the same error"): no article first.
        r"^(?:please\s+)?(?:(?P<w>always|never)|don't ever|do not ever|never ever)\s+"
        # nor a place named after a log ("always line 48")
        r"(?!" + NOT_A_VERB + r")(?![a-z]+ #?\d+\W*$)(?P<x>[a-z].{3,200})$",
        "preference",
        lambda m, b: f"{(m['w'] or 'never').capitalize()} {person(_rest(m['x']))}",
    ),
    _p(
        "from_now_on",
        r"^(?:from now on|going forward|in (?:the )?future|for future reference)[,:]?\s+"
        r"(?P<x>.{4,200})$",
        "preference",
        lambda m, b: person(_cap(m["x"])),
    ),
    _p(
        "keep",
        r"^(?:please\s+)?keep\s+(?!(?:going|it|that|this|them|those|these|on|up|me|trying|in "
        r"mind|an eye|track|calm)\b)(?P<x>.{4,200})$",
        "preference",
        lambda m, b: person(_cap(b)),
        general_use,
    ),
    _p(
        "use",
        r"^(?:please\s+)?(?:always\s+)?(?:use|stick to|stick with|go with)\s+(?P<x>.{3,200})$",
        "preference",
        lambda m, b: person(_cap(b)),
        lasting_use,
    ),
    _p(
        "no_ever",  # "No unsafe code in this crate, ever"
        r"^no\s+(?P<x>[a-z`][\w -]{2,60}.*?)(?:,\s*|\s+)(?:ever|anywhere|at all)$",
        "fact",
        lambda m, b: _cap(b),
        user=False,
    ),
    _p(
        "we_dont",
        r"^(?:here,?\s+)?we\s+(?:don't|do not|never|no longer|avoid|won't)\s+"
        r"(?P<v>use|run|support|need|want|allow|ship|deploy|do|touch|add|write|commit|push|have|"
        r"keep|rely on|depend on)?\s*(?P<x>(?!" + DEICTIC + r").{2,200})$",
        "fact",
        lambda m, b: _cap(b),
        team_refusal,
        user=False,
    ),
    _p(
        "we_use",
        r"^(?:in this (?:project|repo|team|codebase),?\s+|here,?\s+)?we(?:\s+always)?"
        r"(?:\s+use|\s+are\s+using|'re\s+using|\s+standardi[sz]ed\s+on|\s+deploy\s+with|"
        r"\s+build\s+with|\s+manage\s+\w+\s+with|\s+moved\s+to|\s+switched\s+to|\s+migrated\s+to|"
        # "we moved hosting from Fly.io to Render": what is used now, said as the change
        r"\s+(?:moved|switched|migrated)\s+(?:[\w.-]+\s+){0,2}from\s+[\w.@/-]+\s+(?:over\s+)?to|"
        r"\s+run\s+\w+\s+(?:with|on|in)|'re\s+on|\s+are\s+on)\s+"
        # "we use this helper to …" speaks of the code at hand, not of the team; "we're on 15"
        # names no thing without the question before it
        r"(?P<x>(?!this\b|that\b|these\b|those\b|it\b|the\b|v?[\d.]+\W*$).{2,200})$",
        "fact",
        lambda m, b: _cap(b),
        user=False,
    ),
    _p(
        "we_always",
        r"^we\s+(?P<w>always|usually|never|normally)\s+(?!" + NOT_A_VERB + r")(?P<x>\w.{3,200})$",
        "fact",
        lambda m, b: _cap(b),
        user=False,
    ),
    _p(
        "this_repo",
        r"^(?:in\s+)?(?:this|our)\s+(?:repo|repository|project|codebase|code base|service|crate|"
        r"app|team|monorepo|package)\b,?\s+(?P<x>(?!is\s+(?:a|the)\s+\w+$).{3,200})$",
        "fact",
        lambda m, b: _cap(b),
        user=False,
    ),
    _p(
        "my_is",
        rf"^my\s+(?P<k>{MINE})\s+(?:is|are)\s+(?P<x>[^?]{{1,200}})$",
        "fact",
        lambda m, b: f"The user's {m['k'].lower()} is {person(_rest(m['x']), named=True)}",
        user=True,
    ),
    _p(
        "my_condition",
        rf"(?:{markers.MY_CONDITION}|{markers.MY_SETUP}).{{0,200}}$",
        "fact",
        lambda m, b: person(_cap(_IM.sub("I'm", _within_brackets(b[m.start() :])))),
        user=True,
        anywhere=True,
    ),
    _p(
        "i_am_based",
        r"^i(?:'m|\s+am)\s+(?:based|located|living|working|sitting)?\s*(?:in|on|at|from)\s+"
        # "I'm on hivescale-fw, branch feat/x": where the work stands today
        r"(?!(?:[\w./-]+,?\s+){0,3}(?:branch|ticket|issue|step|stage|phase|sprint|pr|commit)\b)"
        r"(?P<x>[A-Z0-9].{1,160})$",
        "fact",
        lambda m, b: person(_cap(b)),
        user=True,
    ),
    _p(
        "call_me",
        r"^(?:please\s+)?(?:call me|address me as)\s+(?P<x>[\w][\w .'-]{0,40})$",
        "preference",
        lambda m, b: f"The user wants to be called {_rest(m['x'])}",
        user=True,
    ),
    _p(
        "i_am_role",
        rf"^i(?:'m|\s+am)\s+(?:a|an|the)\s+(?P<x>[\w +/-]{{0,40}}?(?:{ROLES}))\b.{{0,80}}$",
        "fact",
        lambda m, b: f"The user is a {m['x'].strip()}",
        user=True,
    ),
    _p(
        "i_habit",  # "I never publish from my machine"
        r"^i\s+(?:always|never|usually|only)\s+(?!" + NOT_A_VERB + r")(?P<x>\w.{3,160})$",
        "preference",
        lambda m, b: person(_cap(b)),
        user=True,
    ),
    _p(
        # "I name measures with the aggregation as a prefix", "I write migrations in plain JS":
        # how the person does a kind of thing, said of things in the plural
        "i_do_things",
        r"^i\s+(?:name|write|indent|format|prefix|structure|order|sort|wrap|comment|document|"
        r"test|commit|tag|capitali[sz]e|spell|organi[sz]e|group|split|pin|lay out|keep)\s+"
        r"(?!(?:it|this|that|them|these|those|the|a|an|my|your|our|up|on|out|back|\w+ing)\b)"
        r"(?P<x>[\w`'./-]+s\b.{3,160})$",
        "preference",
        lambda m, b: person(_cap(b)),
        user=True,
    ),
    _p(
        "i_use",
        r"^i\s+(?:always\s+|usually\s+|mostly\s+)?use\s+(?P<x>.{2,160})$",
        "preference",
        lambda m, b: f"The user uses {person(_rest(m['x']), named=True)}",
        own_use,
        user=True,
    ),
    _p(
        "rule",  # "Amounts must never be floats", "Every public item needs a doc comment"
        r"^(?P<s>(?:(?:every|each|all|any|our)\s+)?[\w#./`'-]+(?:\s+[\w#./`'-]+){0,5}?)\s+"
        r"(?P<v>must|should|need to|needs to|have to|has to|needs|need|shall|are to|is to)\s+"
        r"(?P<rest>.{3,200})$",
        "fact",
        lambda m, b: _cap(b),
        rule,
        user=False,
    ),
    _p(
        "you_dont_need",
        r"^(?:you\s+(?:don't|do not)\s+need|there's no need|no need)\s+(?:to\s+|for\s+)?"
        r"(?P<x>.{3,200})$",
        "preference",
        lambda m, b: f"Don't {_rest(m['x'])}" if not b.lower().startswith("you") else _cap(b),
        no_need,
        user=False,
    ),
    _p(
        "contrast",  # "the dev server runs on port 5173, not 3000"; "X isn't in Vault, it's in Y"
        r"^(?P<s>[\w#./`'-]+(?:\s+[\w#./`'-]+){0,6}?)\s+(?P<v>" + PRESENT + r"|isn't|aren't|"
        r"is not|are not|doesn't|don't)\b(?P<rest>.{2,200}?(?:,\s*not\s+\S|,\s*(?:it's|it is|"
        # (", it's sending grams" says what goes on now, against nothing)
        r"they're)\s+(?!\w+ing\b)\S|\binstead of\b|\brather than\b).*)$",
        "fact",
        lambda m, b: _cap(b),
        contrast,
        user=False,
    ),
    _p(
        "convention",  # "PR titles here follow conventional commits", "Benchmarks use criterion"
        r"^(?P<s>(?!the\b)(?:[\w#./`'-]+\s+){0,2}[\w#./`'-]+s(?:\s+(?:here|in this repo))?)\s+"
        r"(?P<v>follow|use|are "
        r"written (?:in|with)|are named|are formatted (?:with|by)|are tested with|get|go through|"
        # "deploys go out with kamal", "migrations are versioned by timestamp"
        r"go out (?:with|via|through)|ship (?:with|via|through)|are versioned (?:by|with)|"
        r"are (?:built|deployed|released|published) (?:with|via|by|through))"
        r"\s+(?P<rest>.{3,200})$",
        "fact",
        lambda m, b: _cap(b),
        fact,
        user=False,
    ),
    _p(
        "placement",  # "Staging is at …", "Alerts go to …", "Releases are cut with …"
        # ("the replica's on backblaze b2": the verb glued to its subject)
        r"^(?P<s>(?:our\s+|the\s+)?[\w#./`'-]+(?:\s+[\w#./`'-]+){0,5}?)(?:\s+|(?='s\s))"
        r"(?P<v>"
        + PRESENT
        + r"(?:\s+(?:cut|published|deployed|hosted|kept|stored|built|run|managed|reset|"
        r"scheduled|triggered|made|done|written|generated|released|recorded|measured|"
        r"expressed|saved|logged|tracked|entered|reported|priced|billed|quoted))?)\s+(?P<rest>"
        + WHERE
        + r"\b.{2,200})$",
        "fact",
        lambda m, b: person(_cap(b)),
        fact,
        user=False,
    ),
    _p(
        "our_is",  # "Our warehouse is Snowflake"; "The MSRV is 1.70"
        r"^(?P<s>(?:our|the)\s+(?:[\w./-]+\s+){0,3}?(?:msrv|version|warehouse|database|db|"
        r"cluster|context|namespace|region|bucket|registry|timeout|limit|budget|port|host|url|"
        r"domain|endpoint|branch|runtime|stack|cloud|provider|package manager|ci|default \w+|"
        r"main \w+|dev server|dev database|base url|on-call rotation|time ?zone|node version|"
        r"python version|go version))\s+(?P<v>is|are|has|have)\s+(?P<rest>.{1,200})$",
        "fact",
        lambda m, b: person(_cap(b)),
        fact,
        user=False,
    ),
    _p(
        "limit",  # "it has a 20 minute timeout"
        r"\b(?:has|have|with|gets?)\s+an?\s+(?P<x>\d[\w.,]*\s*(?:-\s*)?(?:minutes?|min|seconds?|s|"
        r"hours?|h|mb|gb|kb|%)?\s*(?:timeout|time limit|limit|budget|quota|cap))\b",
        "fact",
        lambda m, b: _cap(b),
        user=False,
        anywhere=True,
    ),
    _p(
        "its_not",
        # ("it's 1047 not 037, the county moved everything to 1047": why, after the comma)
        r"^(?:it's|it is|that's|that is|they're|they are)\s+(?:(?P<x>[^,]{2,80}),\s*|"
        r"(?P<y>(?:[^,]{0,70}?\s)?(?!(?:really|just|probably|maybe|still|also|actually|so|too|"
        r"that|fine|ok|okay|definitely|certainly|obviously|clearly|surely|usually|often|always|"
        r"almost|good|better|best|easier|safer)\b)[^\s,]{2,})\s+)not\s+(?:\S.{0,80}|[^,]{1,60},.{0,200})$",
        "fact",
        lambda m, b: f"Correction: {_cap(b)}",
        MEDIUM,
        user=False,
    ),
    _p(
        "dont",
        r"^(?:please\s+)?(?:don't|do not|dont)\s+(?P<x>(?!worry\b|bother\b|stop\b).{3,200})$",
        "preference",
        lambda m, b: f"Don't {_rest(m['x'])}",
        dont,
    ),
    _p(
        "no_thing",  # "no console.log in committed code", "No dynamic allocation after boot"
        rf"^no\s+(?!{NOT_FORBIDDEN}\b)[\w`'@./#+-]+(?:\s+[\w`'@./#+-]+){{0,5}}?"
        r"(?:,?\s+(?:ever|please)\b|\s+(?:in|on|for|inside|into|anywhere|after|before|outside|at|"
        r"under|within|across|from|to|without|unless|except|past|beyond)\s).{0,200}$",
        "preference",
        lambda m, b: person(_cap(b)),
        forbidden,
    ),
    _p(
        "no_its",
        # "no, it's B-plus a number", "no wait, …"; not "no jQuery in new code", which
        # forbids: what follows is no correction, and without its "no" it says the opposite
        r"^no(?:[,.!:]\s*|\s+(?=(?:wait|no|nope)\b))"
        r"(?P<x>(?!problem\b|thanks\b|worries\b|need\b|way\b|idea\b|more\b|keep\b)"
        r"\w.{8,200})$",
        "fact",
        lambda m, b: f"Correction: {_cap(m['x'])}",
        MEDIUM,
    ),
    _p(
        "actually",
        r"^actually[,:]?\s+(?:correction[,:]\s+)?"
        r"(?P<x>(?!no\b|yes\b|never mind\b|nvm\b|hold on\b|hang on\b|wait\b|let's\b|let us\b|"
        r"ok\b|okay\b|fine\b)"
        r".{6,200})$",
        "fact",
        lambda m, b: f"Correction: {_cap(m['x'])}",
        MEDIUM,
    ),
    _p(
        "thats_wrong",
        r"^(?:that's|that is|this is|it's|it is)\s+(?:wrong|incorrect|not right|not correct)"
        r"[,.;:!-]*\s*(?P<x>.*)$",
        "fact",
        lambda m, b: f"Correction: {_cap(m['x'])}",
        MEDIUM,
    ),
)
