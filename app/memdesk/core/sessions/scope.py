"""Where a statement heard from the person holds: in this repository (stored with the
session's project), or wherever they work (stored without one, briefed in every project).
Wrongly global, a repository's convention is briefed in every other project and pushes that
project's own rules out of the budget; wrongly local, a taste of the person's is missed
elsewhere: in doubt, the repository's."""

from __future__ import annotations

import re

from memdesk.core.sessions.finding import GLOBAL, PROJECT

_I = re.IGNORECASE

# Words that tie a statement to the repository, team or environment rather than the person.
PROJECT_WORDS = re.compile(
    r"\b(?:we|we're|we've|our|us|here|this (?:repo|repository|project|codebase|service|crate|"
    r"app|package|module)|the (?:repo|project|codebase|team|service|crate|app|suite)|ci|"
    r"staging|prod|production|deploys?|releases?|migrations?|the build)\b",
    _I,
)
_FIRST_SINGULAR = re.compile(r"^(?:i|i'm|i'd|i've|my)\b", _I)
_IMPERATIVE = re.compile(r"^(?:please|always|never|keep|use)\b", _I)
# What an instruction is about when it holds wherever the person works: how the agent talks
# to them. "Use named exports" or "use the v2 base URL for everything" is the repository's.
_TO_THE_PERSON = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|respond|explanations?|explain|summar(?:y|ies|ize)|"
    r"tone|emojis?|spelling|english|language|me|my|bullets?|bullet points|headings?|prose|"
    r"verbose|concise|questions?|ask|tell|chat|apolog\w*|(?:short|brief|long)er?\b)\b",
    _I,
)


def about_the_user(body: str) -> bool:
    """Whether a statement the table read holds wherever the person works: said of
    themself ("I prefer …"), or an instruction on how to talk to them, with nothing tying
    it to the repository."""
    if PROJECT_WORDS.search(body):
        return False
    if _FIRST_SINGULAR.match(body):
        return True
    return bool(_IMPERATIVE.match(body) and _TO_THE_PERSON.search(body))


# Where the person says a statement holds, whichever pattern read it: "I always use pnpm
# here" was briefed in every project and "across all my projects, …" in this one only.
_EVERYWHERE = re.compile(
    r"\b(?:(?:across|in|for|on) (?:all|every|each|any) (?:(?:of )?(?:my|our|the|your) )?"
    r"(?:other )?(?:projects?|repos?|repositories|codebases?|boxe?s|machines?)\b|"
    r"(?:doesn't|does not|don't|no) matter (?:which|what|the) "
    r"(?:project|repo|repository|codebase)|"
    r"whatever (?:the )?(?:project|repo|repository|codebase)\b|"
    r"wherever (?:i|we|you) (?:work|code|am|are)\b|not just (?:here|this (?:repo|project)))",
    _I,
)
_HERE = re.compile(
    r"\b(?:here|(?:in|for) this (?:repo|repository|project|codebase|app|service))\b", _I
)


def settled(sentence: str, scope: str) -> str:
    """`scope` as the person's own words put it: wherever they work when they say so, this
    repository when they say "here"."""
    if _EVERYWHERE.search(sentence):
        return GLOBAL
    if scope == GLOBAL and _HERE.search(sentence):
        return PROJECT
    return scope
