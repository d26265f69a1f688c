"""How sure a pattern of the gap-fill table is of what it matched (`gapfill_patterns`): high
is stored, medium proposed, None no finding after all. A pattern's words say what a sentence
states; these judges read what it is said of (the thing in front of us or every one, the task's
own artefacts, a state of the moment) and whether it is said to last."""

from __future__ import annotations

import re

from memdesk.core.sessions import markers

HIGH, MEDIUM, LOW = "high", "medium", "low"

_I = re.IGNORECASE

DEICTIC = r"(?:it|this|that|these|those|them|one|yours|mine|the idea|your)\b"

_TASK_PLACE = re.compile(r"\b(?:here|there|in this file|in that file|above|below)\s*$", _I)

# A rule meant generally: an object that is not "the thing in front of us".
GENERAL_OBJECT = re.compile(
    r"\b(?:all|every|everything|everywhere|always|never|any|whenever|"
    rf"(?:instead of|rather than){markers.NOT_WHAT_IS_THERE}|"
    r"over|by default|from now on|going forward|in (?:this|the|our) (?:repo|codebase|project))\b"
    r"|,\s*not\b|\d",
    _I,
)

# "is failing", "is done": a state of the moment, not a fact to keep.
_STATE = re.compile(
    r"^(?:\w+\s+){0,1}(?:failing|broken|down|slow|done|ready|fixed|green|red|up|working|"
    r"missing|empty|wrong|weird|fine|ok|okay|good|bad|better|worse|flaky|passing|running|"
    r"finished|merged|deployed now|gone|back|confusing|outdated|annoying|great)\b",
    _I,
)

_ASKED_ON = re.compile(
    r"(?:commit|push|merge|run|put|send|write|save|ship|copy|paste|check|test|try|do|make|add|"
    r"move)\s+(?:what|it|this|that|them|everything|all)\b",
    _I,
)

# Subjects that name the task's own artefacts, not a lasting part of the environment.
TASK_SUBJECT = re.compile(
    r"^(?:it|this|that|these|those|they|he|she|you|there|both|either|neither|each of (?:them|"
    r"these|those)|all of (?:them|these|those)|the (?:bug|fix|error|issue|problem|"
    r"change|diff|test|failure|typo|crash|code|function|file|line|output|result|pr|branch|plan|"
    r"patch|build|run|job|last \w+|new \w+|first \w+|second \w+|old \w+)|"
    # what a run left behind, pointed at for this task: "log is in logs/ft-0412.out"
    r"(?:the |my |this )?(?:log|trace|stack ?trace|dump|core ?dump|screenshot|recording|repro)$)"
    r"\b",
    _I,
)


def general_use(match: re.Match[str], body: str) -> str | None:
    what = match["x"]
    if _TASK_PLACE.search(what):
        return None
    if re.search(r"\w\(\)", what):
        return MEDIUM  # "keep compose() small": the function in front of us
    # "keep your answers short" is about every answer; "keep your fix small", about this one
    if re.match(DEICTIC, what, _I) and not re.match(r"your [\w-]+s\b", what, _I):
        return None
    # "use the existing helper instead of writing a new one", "keep the fix under 20 lines",
    # "use the sandbox account for this": the one in front of us
    at_hand = re.match(
        r"the (?:existing|same|other|current|previous|old|new|fix|change|diff|patch|pr|commit|"
        r"function|test|script|file|query|migration|code|output|answer|reply|summary)\b",
        what,
        _I,
    ) or re.search(
        r"\bfor (?:this|that|these)\b(?! (?:repo|project|codebase|team|service)\b)", what, _I
    )
    if at_hand and not re.search(r"\b(?:always|never|every\w*|all|any)\b", what, _I):
        return MEDIUM
    if GENERAL_OBJECT.search(what) or not re.match(r"(?:the|a|an)\b", what, _I):
        return HIGH
    return MEDIUM


# "Use $wpdb->prefix instead of the hardcoded 'wp_', and remove the prepare()": a "use …"
# followed by the next edit is a task's step, unless it says it lasts.
_NEXT_EDIT = re.compile(
    r"(?:,\s*|\s+)and\s+(?:then\s+)?(?:remove|drop|delete|add|rename|fix|move|change|replace|"
    r"update|rerun|run|make|put|wire|call|return|bump|push|commit|set|configure|enable|disable|"
    r"turn|switch)\b",
    _I,
)

_LASTS = re.compile(
    r"^(?:please\s+)?(?:always\b|stick\b)|\b(?:always|never|every\w*|any|all|from now on|"
    r"going forward|everywhere|by default|in (?:this|our|all) (?:repo|project|codebase)s?)\b",
    _I,
)


def lasting_use(match: re.Match[str], body: str) -> str | None:
    confidence = general_use(match, body)
    if confidence == HIGH and _NEXT_EDIT.search(body) and not _LASTS.search(body):
        return MEDIUM
    return confidence


def fact(match: re.Match[str], body: str) -> str | None:
    subject, rest = match["s"].strip(), match["rest"]
    if TASK_SUBJECT.match(subject) or _STATE.match(rest.strip()) or _PERSONAL.match(subject):
        return None
    if _ASKED_ON.match(subject):
        return None  # "commit what we have with a decent msg": an ask, not a subject
    if re.search(r"\b(?:will|going to|was|were|used to)\b", match["v"], _I):
        return None
    if _MODAL.search(subject):
        return None  # "local can stay at the default 256": what may be, not where it is
    if match["v"].startswith("'s") and not _NAMED_THING.match(subject):
        return None  # "Lena's on PTO", "script's in the tools repo, 40 containers generated"
    return HIGH


_MODAL = re.compile(r"\b(?:can|could|may|might)\b", _I)
# a thing the verb is glued to: "the replica's on backblaze b2"
_NAMED_THING = re.compile(r"(?:the|our|my)\s", _I)


def contrast(match: re.Match[str], body: str) -> str | None:
    subject = match["s"].strip()
    if TASK_SUBJECT.match(subject) or re.match(r"(?:fix|change|move|put|make|add)\b", subject, _I):
        return None
    if _FAULTS.search(subject):
        return None  # "the DHL failures are the weight field": what causes a fault of now
    return None if _STATE.match(match["rest"].strip()) else HIGH


# What a ruled-out thing is ruled out for, said as lasting: "ever", "in new code" (not
# "please": "so no 4.x-only API please" asks it of the task at hand as often).
_FOR_GOOD = re.compile(r"\b(?:ever|new|committed|allowed)\b", _I)


def forbidden(match: re.Match[str], body: str) -> str:
    said = _COMPOUND_END.sub("", body)  # "no 4.x-only API": "-only" names the API
    return HIGH if markers.GENERAL.search(said) or _FOR_GOOD.search(said) else MEDIUM


_COMPOUND_END = re.compile(r"(?<=\w)-\w+")

_FAULTS = re.compile(
    r"\b(?:failures?|errors?|crash(?:es)?|timeouts?|bugs?|flakes?|flakiness|outages?|"
    r"regressions?|exceptions?|panics?|leaks?)\s*$",
    _I,
)

_PERSONAL = re.compile(r"^(?:i|we|you|i'm|we're|you're|let's|let us)\b", _I)

# "don't stage anything, I don't use git directly, it's jj everywhere for me": what follows
# the "don't" says the way it always goes
_AFTER_THE_ASK = re.compile(r",\s+|\s+[—–-]\s+")


def said_for_good_after(ask: str) -> bool:
    rest = _AFTER_THE_ASK.split(ask, maxsplit=1)[1:]
    return bool(rest) and bool(
        markers.GENERAL.search(rest[0])
        or markers.FIRST_PERSON.search(rest[0])
        or markers.RULED_OUT.search(rest[0])
        or _I_DO_IT_MYSELF.search(rest[0])
        or _HOW_THINGS_STAND.match(rest[0])
    )


# why not, told as how the project stands: "don't regenerate schema.rb, we switched to
# structure.sql", "don't touch assets/sprites, that's Priya's folder", "don't run plain deno
# test, it needs --unstable-kv" (what is true only now says so: "…, we have a beta this week")
_HOW_THINGS_STAND = re.compile(
    r"^(?:we (?:have|switched|moved|use|rely|keep)|we'?ve got|we'?re on|our|"
    r"that'?s (?:[\w-]+'s|our|the team's)|it needs|it'?ll (?:wipe|break|drop|delete|nuke|"
    r"overwrite)|it makes|it breaks|there'?s already)\b(?![^.;]*\b(?:this week|today|right now|"
    r"for now|at the moment|tonight|tomorrow)\b)",
    _I,
)


# ("…, I review the diff locally and push myself"; not "I'll do that one myself")
_I_DO_IT_MYSELF = re.compile(r"\bi (?!'ll\b|will\b)[^,;.]{0,60}\bmyself\b", _I)


# "we don't need the fallback", "… all these checks": what is in front of us
def team_refusal(match: re.Match[str], body: str) -> str | None:
    return (
        None
        if (match["v"] or "").lower() in ("need", "want")
        and re.match(
            r"(?:the|a|an|all (?:these|those|the)|any of (?:that|this|these))\b", match["x"], _I
        )
        else HIGH
    )


def own_use(match: re.Match[str], body: str) -> str | None:
    return (
        None
        if re.match(DEICTIC, match["x"], _I)
        else HIGH
        if re.search(
            # (and what it rules out: "I use fish shell, so don't give me bash-only syntax")
            r"\b(?:everywhere|always|for everything|by default|in every|"
            r"for all|for every|on every)\b|,\s*not\b|"
            r"\bso (?:please )?(?:don'?t|do not|never|no)\b",
            match["x"],
            _I,
        )
        else MEDIUM
    )


def rule(match: re.Match[str], body: str) -> str | None:
    return (
        None
        if TASK_SUBJECT.match(match["s"]) or re.match(r"(?:i|you|we|no|nothing)\b", match["s"], _I)
        # "Booking form should only offer those days", "the 64-node run needs approval
        # first": as often the work at hand as a rule, unless something says it lasts.
        # ("anything that touches revenue recognition needs a sign-off from Marcus"): who
        # a kind of change goes past is how the team works
        else (
            HIGH
            if GENERAL_OBJECT.search(body)
            or markers.TIED.search(body)
            or markers.HANDLED_BY.search(body)
            else MEDIUM
        )
    )


def no_need(match: re.Match[str], body: str) -> str | None:
    return HIGH if re.search(r",\s*(?:it|they|that)\b|\bbecause\b|\bsince\b", body) else MEDIUM


_EVER = re.compile(r"\b(?:ever|anywhere)\b", _I)


# ("don't run pulumi up yourself, ever"): a task's "don't" said for good
def dont(match: re.Match[str], body: str) -> str | None:
    return HIGH if _EVER.search(match["x"]) or said_for_good_after(match["x"]) else MEDIUM
