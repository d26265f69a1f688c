"""A step of the work at hand said with a rule's words ("change the serializer so it never
exposes cost", "use Decimal in the shipping calculator function", "let's start with a script
that lists the repositories"): a change to make now, which the person confirms, not a rule for
every time after."""

from __future__ import annotations

import re

from memdesk.core.sessions import clauses
from memdesk.core.sessions.later_sentences import STANDING

# A change to make now, said with a rule's words ("change the serializer so it never exposes
# cost", "use Decimal instead of float in the shipping function"): the person decides.
_CHANGE_NOW = re.compile(
    r"^(?:correction:\s+)?(?:please\s+)?(?:change|rewrite|configure|ensure|make(?! sure)|"
    r"refactor|update|fix|add|set|turn|move|rename|implement|write|convert|switch|replace|wire|"
    r"create|build|modify|edit|tweak|adjust|rip|remove|delete|strip|purge|get rid of)\b",
    re.IGNORECASE,
)


# An instruction about one place in the code ("use Decimal in the shipping calculator
# function"): a change to make there, not a rule for everywhere.
_ONE_PLACE = re.compile(
    r"^(?:please\s+)?(?:use|prefer|avoid|keep|put|call|return|log|raise|throw|store|name|"
    r"switch|pass|send|show|hide|no)\b.*\b(?:in|on|to|for|from|inside|within) (?:the|this|that) "
    r"[\w .-]{1,40}?(?:function|method|class|file|module|component|screen|page|test|script|"
    r"endpoint|handler|view|query|form|modal|table|job|migration|field|column|button|route|"
    r"controller|model|template|widget|hook|reducer|service|dialog|slider|panel|tab)\b|"
    # a source file or a function by name, what an instruction starts with: "in render/blur.rs
    # always clamp …", "use errgroup in cmd/sync.go …", "withdraw() in Vault.sol should …"
    r"^(?:(?:please\s+)?(?:use|in|inside|within|make|keep|put|call|change|have|add)\b"
    r"[^;]{0,60}?)?(?<![*\w])(?:[\w-]+/)*[\w-]+\.(?:py|rs|go|rb|js|jsx|ts|tsx|dart|java|kt|cs|"
    r"cpp|c|h|ex|exs|hs|swift|php|scala|clj|ml|nim|sol|lua|vue|svelte|gd|r|sql|pl|pm|cob|cbl)"
    r"\b(?!\.)|^(?:(?:please\s+)?(?:use|in|make|call|change)\b[^;]{0,60}?)?\b\w+(?:\.\w+)*\(\)|"
    # (not the whole of it: "in this codebase every handler is named after its route")
    r"^(?:in|inside|on) (?:the|this|that) (?!(?:repo|repository|project|codebase|monorepo|app|"
    r"crate|team)\b)[\w .-]{1,40}?(?:function|method|class|file|module|"
    r"component|screen|page|dialog|modal|form|view|panel|tab|widget|endpoint|handler)\b|"
    # "use COALESCE here instead of the CASE": here is the code in front of us, unless the
    # sentence says it holds throughout ("use pnpm here, not npm", "always …")
    r"^(?!.*(?:,\s*not\b|\b(?:always|never|every\w*|all|any|whenever|from now on|going "
    r"forward|in (?:this|the|our) (?:repo|project|codebase|team))\b))(?:please\s+)?(?:use|prefer|"
    r"avoid|keep|put|call|return|switch|change|replace|swap|make|add|do)\b[^.;]{1,60}?"
    r"\b(?:here|there|in here)\b",
    re.IGNORECASE,
)


# what an instruction about one place says of every place: "use async/await instead of
# `.then()` chains in anything you write for me"
_ALL_OF_IT = re.compile(
    r"\b(?:from now on|going forward|everywhere|(?:in|for) (?:anything|everything|any (?:code|"
    r"repo|project|codebase|file)|all (?:my|our|the) (?:code|repos|projects|codebases)))\b",
    re.IGNORECASE,
)


# What makes an instruction a rule and not a task: it says how, always ("keep the bundle
# under 350 kB", "use the v2 API for everything", "treat us-west-1 as off-limits").
_A_RULE = re.compile(
    r"^(?:please\s+)?(?:keep|use|prefer|avoid|treat|stick|put|name|write|run|never|always|"
    r"don't|do not)\b|\b(?:always|never|every|all|any|for everything|going forward|from now on|"
    r"instead of|rather than|by default|as a rule|whenever|only)\b|,\s*not\s",
    re.IGNORECASE,
)


# What to do next, as a plan of this work: "we'll handle the LFS ones manually", "let's start
# with a script that lists the repositories", "we're ready to cut v0.4.0" (not "let's always
# squash", a rule).
_PLAN_NOW = re.compile(
    r"^(?:let'?s|we(?:'ll| will)|i(?:'ll| will)|"
    r"(?:we(?:'re| are)|i(?:'m| am)) (?:ready|about|going|planning|set) to)\s",
    re.IGNORECASE,
)


# "Going forward, please write the patterns anchored": asked of every time from now on.
_FROM_NOW_ON = re.compile(
    r"^\W*(?:from now on|going forward|from here on(?: out)?|in (?:the )?future),", re.I
)


# a change asked for, cut from what follows it at an "and" (no full stop)
SAME_CHANGE = re.compile(
    r"^\W*(?:please\s+)?(?:make|change|move|set|turn|rename|swap|switch|paint|colou?r)\b"
    r"[^.!?]*$",
    re.IGNORECASE,
)


def for_this_work(content: str, sentence: str) -> bool:
    """Whether `content`, heard in `sentence`, asks for a change or a step of this work, said
    with a rule's words: the person decides."""
    asked_for_good = _FROM_NOW_ON.match(sentence)
    return bool(
        _CHANGE_NOW.search(content)
        and not asked_for_good
        or _ONE_PLACE.search(content)
        and not _ALL_OF_IT.search(content)
        or clauses.asks_for_work(content)
        and not (_A_RULE.search(content) or asked_for_good)
        or _PLAN_NOW.match(content)
        and not STANDING.search(content)
    )
