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
_EVERY_CASE = re.compile(
    r"\b(?:always|never|every\w*|any\w*|all|from now on|by default|convention|rule|"
    r"across the (?:app|codebase|repo))\b",
    _I,
)


def asked(sentence: str) -> bool:
    """Whether `sentence` tells what the feature being built is to do when something happens."""
    return bool(_BEHAVES_WHEN.search(sentence)) and not _EVERY_CASE.search(sentence)
