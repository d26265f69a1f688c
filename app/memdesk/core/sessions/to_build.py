"""What the work asked for is to do, told while asking for it: "the notifier should text a
courier when ops have had them paused for more than 20 min", "the class page should show 'join
waitlist' when it's full". It is the feature's spec: it may stay true of the code, but the code
then holds it, and as often it changes with the next ticket; the person confirms it as a rule.
A rule said of every case ("the API should always return 404 when …") is not a spec."""

from __future__ import annotations

import re

_I = re.IGNORECASE

_BEHAVES_WHEN = re.compile(
    r"\b(?:should|needs? to|has to|have to|must|is supposed to|are supposed to)\s+"
    r"(?:also\s+|only\s+|then\s+|just\s+)?(?:show|display|text|sms|e-?mail|mail|send|notify|tell|"
    r"ping|alert|flip|render|redirect|return|emit|fire|trigger|post|publish|refresh|reload|hide|"
    r"appear|pop|open|close|lock|unlock|charge|cancel|switch|turn|light|highlight|disable|enable|"
    r"prompt|ask|warn|play|vibrate|beep|fade|scroll|jump|move|reset|expire|retry|kick)\b"
    r"[^.;!?]*?\bwhen(?:ever)?\b",
    _I,
)
# The feature told as a user story: "members should be able to cancel a room booking up to 2h
# before it starts, from the My Bookings page"; "as an admin I want to …"
_STORY = re.compile(
    r"^(?:and\s+|so\s+|also\s+)?(?:the\s+|our\s+|a\s+|an\s+)?[\w -]{1,30}?\s+(?:should|must|"
    r"need to|needs to|have to|has to)\s+be able to\b(?![^.;!?]*\b(?:only|never|not)\b)|"
    r"^as an? (?!(?:general\s+)?(?:rule|default|habit|reminder|note|side note)\b)[\w -]{1,30},?\s+"
    r"i (?:want|need|would like)\b",
    _I,
)
_EVERY_CASE = re.compile(
    r"\b(?:always|never|every\w*|any\w*|all|from now on|by default|convention|rule|"
    r"across the (?:app|codebase|repo))\b",
    _I,
)


def asked(sentence: str) -> bool:
    """Whether `sentence` tells what the feature being built is to do when something happens,
    or what its users are to be able to do."""
    told = sentence.strip()
    return bool(_BEHAVES_WHEN.search(told) and not _EVERY_CASE.search(told) or _STORY.match(told))
