"""What the user said of themself, stored as said of "the user": "I prefer tabs" becomes
"the user prefers tabs", the verb after it agreeing; what the user quotes stays as written."""

from __future__ import annotations

import re

from memdesk.core.sessions import pasted

_I = re.IGNORECASE

# "I" in either case: people typing fast write "i hate mocks"; not the "i" of "i.e.".
_SUBJECT_I = r"\b[Ii]"
_FIRST_PERSON = (
    (re.compile(_SUBJECT_I + r" (?:don't|dont)\b"), "the user doesn't"),
    (re.compile(_SUBJECT_I + r" do not\b"), "the user does not"),
    (re.compile(_SUBJECT_I + r"'m\b"), "the user is"),
    (re.compile(_SUBJECT_I + r" am\b"), "the user is"),
    (re.compile(_SUBJECT_I + r"'ve\b"), "the user has"),
    (re.compile(_SUBJECT_I + r"'d\b"), "the user would"),
    (re.compile(_SUBJECT_I + r"\b(?![.'’/-]\w)(?<![\w/-]i)"), "the user"),
    (re.compile(r"(?<![/\w])my(?![/\w])", _I), "the user's"),
    (re.compile(r"(?<![/\w])me(?![/\w])", _I), "the user"),
)
# The verb after "the user" as its subject (first, or after a comma or a conjunction), not as
# an object ("showing the user full files").
_VERB_AFTER_USER = re.compile(
    r"(^|[,;:] |\b(?:and|but|so|because|since|that|when|if|as) )"
    r"the user (always |never |usually |often |also |really |generally |only )?"
    r"(?!is\b|has\b|would\b|can\b|will\b|should\b|must\b|did\b|was\b|does\b|doesn't|"
    # an adverb is not the verb, nor "need" a past tense ("the user never needs", not "nevers")
    r"(?:always|never|usually|often|also|really|generally|only)\b|(?!\w*eed\b)\w+ed\b|had\b|(?:spent|went|ran|took|made|got|lost|broke|forgot|sent|saw|wrote|built|"
    r"found|came|thought|told|said|left|kept|began|chose|knew|gave|heard|held|meant|spoke)\b)"
    r"([a-z]+(?:-[a-z]+)*)\b(?!')"  # "squash-merge" takes its ending at the end
)  # nor a past tense ("the user spent", never "spents")


def person(text: str) -> str:
    """`text` with the user's "I" and "my" said of "the user", the verb after it agreeing;
    what the user quotes stays as they wrote it ("stop ending with 'Let me know …'")."""
    out, last = [], 0
    for quoted in pasted.QUOTED.finditer(text):
        out += [_said_of_the_user(text[last : quoted.start()]), quoted[0]]
        last = quoted.end()
    return "".join([*out, _said_of_the_user(text[last:])])


def _said_of_the_user(text: str) -> str:
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement, text)
    return _VERB_AFTER_USER.sub(lambda m: f"{m[1]}the user {m[2] or ''}{_third(m[3])}", text)


def _third(verb: str) -> str:
    head, dash, last = verb.rpartition("-")
    if dash:
        return f"{head}-{_third(last)}"
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
