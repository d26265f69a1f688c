"""How a thing the agent writes should look, told as a spec: "for commit messages: lowercase,
imperative, no feat:/fix: prefixes", "docstrings: google style, no types in them", "short
imperative commit messages, no feat:/fix: prefixes", "I do commit messages in lowercase
imperative, no emoji". Told without a verb of preference, none of the table's patterns heard
it (ten such statements in the read sessions gave nothing).

The thing must be one the agent writes (a commit message, a docstring, a name, a log line …):
"error: connection refused" or "step 2: run the seed" name no such thing. The spec must say
how (a "no …", a case or a form, or two or more items); one item alone is only proposed.
"""

from __future__ import annotations

import re

from memdesk.core.sessions import heard
from memdesk.core.sessions.finding import GLOBAL, PROJECT, Finding
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
# What the agent writes, as people name it (plural or not, short forms too).
_WRITTEN = (
    r"(?:commit (?:messages?|msgs?|subjects?|titles?)|commits|branch names?|branches|"
    r"pr (?:titles?|descriptions?|bodies)|pull request (?:titles?|descriptions?)|"
    r"(?:doc ?strings?|docblocks?|doc comments?|xml doc comments?|javadocs?|jsdocs?|comments)|"
    r"(?:test|variable|function|method|class|file|table|column|branch|env var|field|key|"
    r"route|endpoint|event|metric|topic|queue|bucket|job) names?|filenames?|naming|"
    r"(?:log|error|exception) (?:messages?|lines?)|log lines|changelog entries|"
    r"release notes|imports|type hints|timestamps|dates|times|money amounts|amounts|"
    r"ui (?:text|copy|strings)|user-facing (?:text|strings|copy)|answers|replies|explanations|"
    r"code blocks|sql|queries|migrations)"
)
TOPIC = rf"(?:(?:for|in|on)\s+)?(?:(?:all|our|my|the|any|every)\s+)?{_WRITTEN}"
# "for commit messages: …", "docstrings - …"
_COLON = re.compile(rf"^(?P<topic>{TOPIC})\s*(?::|\s-|—|–)\s*(?P<spec>\S.*)$", _I)
# "commit messages are lowercase imperative, no emoji"
_ARE = re.compile(rf"^(?P<topic>{TOPIC})\s+(?:are|should be|must be|stay)\s+(?P<spec>\S.*)$", _I)
# "short imperative commit messages, no feat:/fix: prefixes"
_BEFORE = re.compile(
    rf"^(?P<spec_head>(?:[\w-]+,?\s+){{1,3}}?)(?P<topic>{_WRITTEN})\s*,\s*(?P<spec>\S.*)$", _I
)
# "I write commit messages imperative, …", "I do commit messages in lowercase …"
_I_DO = re.compile(
    rf"^(?:i|we)\s+(?:always\s+)?(?:write|do|keep|format)\s+(?P<topic>{_WRITTEN})\s+"
    r"(?P<spec>(?!like this|that way|this way|the same)\S.*)$",
    _I,
)
# How it should look: a case, a form, a limit, what is left out.
_HOW = re.compile(
    r"\b(?:no|none of|never|always|without|only|lower ?case|upper ?case|imperative|"
    r"present tense|past tense|snake_case|camelcase|pascalcase|kebab-case|short|one line|"
    r"single line|max(?:imum)?|under \d+|at most|\d+ (?:chars|characters|words|lines)|style|"
    r"format|prefix(?:es|ed)?|suffix(?:es|ed)?|iso ?8601|utc|english)\b",
    _I,
)


def read(sentence: str) -> Finding | None:
    """The spec `sentence` gives for a thing the agent writes, or None."""
    body = sentence.strip().rstrip(".!")
    match = next(filter(None, (form.match(body) for form in _FORMS)), None)
    if match is None or heard.not_a_statement(sentence):
        return None
    spec = match["spec"]
    if not _HOW.search(f"{match.groupdict().get('spec_head') or ''} {spec}"):
        return None
    items = [part for part in _ITEM.split(spec) if part.strip()]
    sure = len(items) >= 2 or _LEFT_OUT.search(spec)
    told = person(body) if match.re is _I_DO else body
    return Finding(
        "style_spec",
        HIGH if sure else MEDIUM,
        "preference",
        told[:1].upper() + told[1:],
        sentence,
        GLOBAL if match.re is _I_DO and body[:1] in "iI" else PROJECT,
    )


_FORMS = (_COLON, _ARE, _I_DO, _BEFORE)
_ITEM = re.compile(r",\s+|;\s+|\s+and\s+")
_LEFT_OUT = re.compile(r"\b(?:no|never|always|none of)\b", _I)
