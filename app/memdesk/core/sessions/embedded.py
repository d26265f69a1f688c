"""Statements told inside a request for work, as its reason or its context: "bump bundler
because our CI jobs run on the ruby:3.3 image", "keeping in mind the watchdog timeout on this
board is 250 ms", "write the tests using chispa, which is our assertion library", "do it with
Hammer, since that's what we standardised on".

Each is cut out as a sentence of its own, in words that stand without the request ("chispa is
our assertion library"), for `clauses` to judge like any other: the request itself is not a
statement, and what the cut-out says is kept only when it would be kept said alone.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# "… because X", "… since X", "… given that X": the reason is a statement of its own. Not
# "as": mostly a comparison ("as every model must"), which states the rule only with the
# request around it.
_REASON = re.compile(
    r"(?:,\s*|\s+)(?:because|since|given that|seeing as)\s+"
    r"(?P<x>(?!(?:it|that|this|then|so|you|please|also|make|add|run|check|fix)\b)[^,;()]{12,})",
    _I,
)
# "tag it and let goreleaser publish it, we never build the binaries by hand": a statement of
# the user's or the team's spliced on with a comma.
_SPLICED = re.compile(
    r",\s+(?P<x>(?:we|i|our)\s+(?!(?:can|could|should|might|will)\b)[^,;—–()]{8,})", _I
)
# "remember that X", "keeping in mind X", "keeping to our rule that X", "note that X".
_FRAMED = re.compile(
    r"\b(?:remember|keep(?:ing)? in mind|bear(?:ing)? in mind|note|noting|knowing|given|"
    r"(?:keeping to|sticking to|following|per|as per) (?:our|the) (?:rule|convention|policy|"
    r"standard|guideline)s?)(?: that)?[,:]?\s+(?P<x>(?:(?!,\s+(?:and|then|so|but)\b)[^;—–()])"
    r"{12,})",
    _I,
)
# "NP, which is our assertion library" / "NP, which Aiko maintains": the noun phrase is the
# last words before the comma after a preposition or verb.
_WHICH = re.compile(
    r"(?<![\w.+/@:-])(?P<np>(?:(?:the|our|my|a|an)\s+)?[\w.+/@:-]+(?:\s+[\w.+/@:-]+){0,3}),\s+which\s+"
    r"(?:(?P<be>is|are)\s+(?P<what>[^,;—–()]{4,})|(?P<who>(?-i:[A-Z][\w-]+)(?:\s+(?-i:[A-Z]"
    r"[\w-]+))?)\s+(?P<verb>maintains|owns|runs|handles|reviews|leads|manages))",
    _I,
)
# "with Playwright, since that's our e2e tool" -> "Playwright is our e2e tool".
_THATS = re.compile(
    r"(?<![\w.+/@:-])(?P<np>[\w.+/@:-]+(?:\s+[\w.+/@:-]+){0,2}),?\s+(?:since|because|as)\s+"
    r"(?:that's|that is|"
    r"it's|it is)\s+(?P<what>[^,;—–()]{4,})",
    _I,
)
# Words that end a noun phrase's reach backwards: what comes before them is the request.
_NP_START = re.compile(
    r"^.*\b(?:with|using|against|to|for|on|in|from|at|by|into|via|through|use|uses|run|"
    r"and|of)\s+",
    _I,
)


FRAMED, SPLICED, TOLD = "framed", "spliced", "told"


def statements_in(sentence: str) -> list[tuple[str, str]]:
    """The statements told inside `sentence` (a request), each as a sentence of its own, and
    how: FRAMED by the user as one ("remember that …", "our rule that …"), SPLICED on as the
    user's or the team's own ("…, we never publish from laptops"), or TOLD as a reason or
    an aside, which may state the rule only with the request around it ("… since the data
    tests must pass before every merge")."""
    framed = [(_tidy(m["x"].strip(" ,.!?")), FRAMED) for m in _FRAMED.finditer(sentence)]
    spliced = [
        (_tidy(_with_the_request(sentence, m).strip(" ,.!?")), SPLICED)
        for m in _SPLICED.finditer(sentence)
    ]
    out: list[str] = []
    for match in _WHICH.finditer(sentence):
        noun = _noun(match["np"])
        if match["be"]:
            out.append(f"{noun} {match['be']} {match['what'].strip()}")
        else:
            out.append(f"{match['who']} {match['verb']} {noun}")
    for match in _THATS.finditer(sentence):
        out.append(f"{_noun(match['np'])} is {match['what'].strip()}")
    out.extend(match["x"].strip(" ,.!?") for match in _REASON.finditer(sentence))
    return framed + spliced + [(_tidy(s), TOLD) for s in out]


def _with_the_request(sentence: str, spliced: re.Match[str]) -> str:
    """What is spliced on, or, when it points back at the request ("can you use the full
    module names, I do that in every repo"), the request said as the rule it is."""
    if not _POINTS_BACK.match(spliced["x"]):
        return spliced["x"]
    return f"{_ASKED.sub('', sentence[: spliced.start()])}, {spliced['x']}"


# "I do that in every repo", "we always do it this way": the request before is the habit
_POINTS_BACK = re.compile(
    r"(?:we|i)\s+(?:always\s+|usually\s+)?(?:do|did)\s+(?:that|this|it)\b", _I
)
_ASKED = re.compile(r"^\W*(?:(?:can|could|would|will) you\s+)?(?:please\s+|pls\s+)?", _I)


def _noun(phrase: str) -> str:
    return _NP_START.sub("", phrase).strip()


def _tidy(statement: str) -> str:
    statement = re.sub(r"[\s,.!?]+$", "", statement)
    return statement[:1].upper() + statement[1:]
