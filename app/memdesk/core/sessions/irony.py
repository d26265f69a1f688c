"""Irony and sarcasm in a sentence: what it states is said against its words ("oh great,
another yaml file", "love waiting 40 minutes for CI", "/s"), not a rule to keep."""

from __future__ import annotations

import re

_I = re.IGNORECASE

SARCASM = re.compile(
    # the "/s" tag stands alone ("m/s" is a unit)
    r"(?:(?<![\w/])/s\b|^(?:ha|haha|heh|hehe),?\s+you\b|\blol\b|\blmao\b|[🙃😏]|"
    r"\byeah,? (?:sure|right)\b|"
    r"\boh,? (?:great|wonderful|"
    r"perfect)\b|\blove (?:that|it|this|waiting)\b|"
    r"\btotally\b(?! (?:fine|ok|okay|agree|right|worth))|\bexactly what (?:i|we) "
    r"(?:want|need)|\bof course (?:it|the|that)\b.*\b(?:broke|breaks|fails?|failed)\b|"
    r"\bwhat could (?:possibly )?go wrong\b|\bjust love it\b|\balways a pleasure\b|"
    # (a rhetorical "who needs …" opens its clause; "she's the one who needs …" is plain)
    r"\bworst that could happen\b|(?:^|[,.!?;:—-]\s*)who needs\b|\bi swear\b|"
    # ("yeah let's just go with uuid v7 …" agrees)
    r"^(?:ah,? yes|wonderful|great|sure),?\s+let's just\b|"
    r"^(?:ah,? yes|wonderful|great|sure|yeah),?\s+(?:another|\w+ (?:decided|is always))|"
    # ("yeah the processing is slow because of …" agrees)
    r"^(?:ah,? yes|wonderful|great|sure),?\s+the\b|\bjust like in "
    r"(?:19|20)\d\d\b|\boh great\b|\blove how\b|\bclearly working\b|"
    r"\bevery fiber\b|\bnothing like an?\b|\bso done with\b|^brilliant\b|"
    # (not as a plain "really": "if something truly can't fail", "unless there's truly no way")
    r"\btruly\b(?!\s+(?:no|not|nothing|impossible|can'?t|cannot|won'?t|needed|necessary|"
    r"required|needs?|unavoidable)\b)|"
    r"^great, so\b|\bnever fails to\b|\bten out of ten\b|\b10/10\b|\bi (?:adore|love) how\b|"
    r"\bso (?:intuitive|helpful|fun)\b|\bnothing says\b|\bmy favou?rite\b|\bstrikes? again\b|"
    r"\bthanks,? whoever\b|^always (?:fun|a pleasure|a joy|great|nice|good)\b|"
    r"\bwhat a (?:joy|treat|time)\b|^ah,? yes\b|keeps on giving|^nothing like\b|"
    # ("YYYY-MM-DD", "yyyymmdd": a date's format, not a word drawn out)
    r"(?<![-/:._])\b[a-z]{0,12}(?P<ch>[a-z])(?P=ch){3,}(?![-/:._]?[mdhs]{2})|"
    r"\b(?:adore|love) (?:waiting|it when)\b|\bwhy would anyone\b|\bincredible engineering\b|"
    r"\btotal chaos\b|^sure,?\s+['‘\"“]|"
    r"\b(?P<w>[a-z]{2,12})[ ,]+(?P=w)[ ,]+(?P=w)\b|^obviously,? the (?:best|perfect|right)\b|"
    r"very helpful\b|\b(?:brilliant|genius|great) idea\b|\bdefinitely the (?:most|best) \w+|"
    r"\b(?:anyone|anybody) (?:has )?ever (?:picked|chosen|seen|made|written)\b|"
    r"^obviously,? (?:we|you) should\b|^(?:yes|yeah|sure|right),? (?:yes|yeah|sure|right)\b|"
    r"\bit'?s so (?:simple|easy|obvious)\b|\bdefinitely needs\b|^yeah,? because\b|"
    r"\bclearly (?:too|the best|so)\b|"
    # a chore praised as what everyone wants: "because everyone loves a 40-tab excel file"
    r"\b(?:everyone|everybody) (?:loves|enjoys|adores)\b|"
    r"\b(?:is|are|'s) (?:always|so much|such) (?:fun|a joy|a blast|a treat)\b|"
    # a word shouted before the word it stresses ("SO slow"; not "a SpecimenDatabase SO with")
    r"(?<!\ban )(?<!\ba )(?<!\bthe )(?-i:\b(?:SO|SUCH|TOTALLY|REALLY|VERY|SUPER)\b)"
    r"(?= (?!(?:with|for|in|on|of|to|and|or|that|which|is|are|was|has|from|per|as|at|by)\b)\w))",
    _I,
)


_LAUGH = re.compile(r"\b(?:lol|lmao|haha+|hehe)\b", _I)
_CLAUSE_BREAK = re.compile(r"[,;]\s|\s[—–-]+\s")
# (a story laughed at: "last weekend I finally ripped out authelia, took me 6 hours lol")
_TOLD_AS_PAST = re.compile(
    r"\b(?:was|were|had|did|got|took|went|came|said|told|ripped|moved|spent|broke|lost|found|"
    r"tried|switched|wrote|made|started|finished|used to|last (?:week|weekend|month|year|time))\b",
    _I,
)


def ironic(sentence: str) -> bool:
    """Whether `sentence` is said against its words. A laugh colours its own clause, not a
    rule told beside it: "tests are minitest here, please don't bring in rspec, I saw you
    suggest that last time lol" states a rule; "we always oversold the signed editions lol" and
    a story laughed at are the joke."""
    if not SARCASM.search(sentence):
        return False
    if SARCASM.search(_LAUGH.sub("", sentence)):
        return True
    beside = [c for c in _CLAUSE_BREAK.split(sentence) if c.strip() and not _LAUGH.search(c)]
    return all(_TOLD_AS_PAST.search(c) for c in beside)
