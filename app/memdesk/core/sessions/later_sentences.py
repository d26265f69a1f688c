"""What a message's later sentences add to its first statement: a short one that only points
back joins it, and a later statement is stored only when it says itself that it holds for
good, not when it applies the first to the task at hand (`gapfill.find`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Protocol, TypeVar

from memdesk.core.sessions import clauses, heard, markers
from memdesk.core.sessions import finding as findings
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person


class _Said(Protocol):
    """A finding of `gapfill` (a dataclass), as far as these rules read it."""

    @property
    def confidence(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def sentence(self) -> str: ...


Finding = TypeVar("Finding", bound=_Said)


def leaning_back(found: list[Finding]) -> list[Finding]:
    """A short statement of the user's that only points back ("I like to sanity-check it.",
    "I always mix them up"), or one that says what goes wrong if the one before is not kept
    ("… any new parameter gets 2. otherwise hosts get confused"), says why the one before it
    holds: it joins that one, or, alone, is the person's to confirm."""
    out: list[Finding] = []
    for finding in found:
        points_back = markers.points_back_only(finding.sentence) or _ELSE.match(finding.sentence)
        ruled_on_it = _RULES_ON_IT.match(finding.sentence.strip())
        if (points_back or ruled_on_it and out) and finding.kind != "decision":
            if out:
                before = out[-1]
                joined = f"{before.content.rstrip('.')}. {finding.content}"
                # (a rule on what the one before names is as firm as the firmer of the two)
                firm = ruled_on_it and HIGH in (before.confidence, finding.confidence)
                firmer = HIGH if firm else before.confidence
                out[-1] = replace(before, content=joined, confidence=firmer)
                continue
            finding = at_most_medium(finding)
        out.append(finding)
    return out


_ELSE = re.compile(r"^(?:otherwise|or else)\b", re.IGNORECASE)
# A rule whose object is what the sentence before named: "the phpstan baseline only ever
# shrinks. never regenerate it to get green"
_RULES_ON_IT = re.compile(
    r"^(?:so\s+|and\s+|please\s+)?(?:never|always|don'?t|do not)\s+(?:ever\s+)?[a-z]+\s+"
    r"(?:it|them)\b",
    re.IGNORECASE,
)


def made_lasting(found: list[Finding], text: str) -> list[Finding]:
    """A short sentence that only says the one before holds for good ("put them in their own
    DAG, hourly. that's how we do freshness from here on", "… let's make that the rule")
    makes that one a rule: it joins it, stored."""
    said = clauses.sentences_of(text)
    lasting = {n for n, sentence in enumerate(said) if n and _MAKES_IT_LAST.match(sentence.strip())}
    if not lasting:
        return found
    where = [
        next((n for n, s in enumerate(said) if finding.sentence.strip()[:40] in s), None)
        for finding in found
    ]
    joined = {at + 1 for at in where if at is not None and at + 1 in lasting}
    out: list[Finding] = []
    for finding, at in zip(found, where, strict=True):
        if at in joined:
            continue  # said of the sentence before, joined to it there
        if at is not None and at + 1 in lasting:
            why = person(said[at + 1].strip().rstrip(".!"))
            finding = replace(
                finding,
                confidence=HIGH,
                content=f"{finding.content.rstrip('.')}; {why[:1].lower()}{why[1:]}",
                sentence=f"{finding.sentence.strip()} {said[at + 1].strip()}",
            )
        out.append(finding)
    return out


def asked_for_good(found: list[findings.Finding], text: str) -> list[findings.Finding]:
    """An ask nothing else heard ("please just show me diffs, don't paste whole files back at
    me"), made a rule by the short sentence after it ("that goes for everything btw"): the
    two, stored as one."""
    said = clauses.sentences_of(text)
    heard_in = {s.strip()[:40] for f in found for s in said if f.sentence.strip()[:40] in s}
    out = list(found)
    for n, sentence in enumerate(said):
        before = said[n - 1].strip() if n else ""
        if (
            not before
            or not _MAKES_IT_LAST.match(sentence.strip())
            or before[:40] in heard_in
            or before.endswith("?")
            or heard.not_a_statement(before) == "a question"
            or not markers.TASK.match(before)
            and not markers.IMPERATIVE.match(before)
        ):
            continue
        asked, why = (person(s.rstrip(".!")) for s in (before, sentence.strip()))
        content = f"{asked[:1].upper()}{asked[1:]}; {why[:1].lower()}{why[1:]}"
        out.append(
            findings.Finding("clause", HIGH, "preference", content, f"{before} {sentence.strip()}")
        )
    return out


_MAKES_IT_LAST = re.compile(
    r"^(?:and\s+|so\s+)?(?:that's|thats|that is|this is|let's make (?:that|this|it)|make (?:that|"
    r"this|it))\b[^.;!?]{0,50}?\b(?:from now on|going forward|from here on(?: out)?|the rule|"
    r"the standard|the default|for (?:every|all) [\w-]+|everywhere|in every [\w-]+)\b[^.;!?]{0,60}"
    r"[.!]?$"
    # or carries the one before to every place the person works: "same for every repo I work in"
    r"|^(?:and\s+)?(?:the\s+)?same (?:goes )?(?:for|with|in) (?:every|all|any|each)\b[^.;!?]{0,80}"
    r"[.!]?$"
    # "goes for any code you write for me really"
    r"|^(?:and\s+)?(?:(?:that|this|it)\s+)?(?:goes|applies|holds) (?:for|to) (?:every|all|any|each)"
    r"\w*\b[^.;!?]{0,80}[.!]?$",
    re.IGNORECASE,
)


# A sentence the person opens as another matter ("… set it on the dag. oh and anything that
# changes an alarm threshold goes past Dana"): not the task's context, whatever came first.
# So is what the person stops the work to tell ("… next... actually hold on, Mara does the UI").
_ANOTHER_MATTER = re.compile(
    r"(?:oh,? and|and also|also,|one more thing|"
    r"(?:actually,? )?(?:hold on|hang on|wait|nvm)\s*[,:—–-])"
    r"(?:\b|\s)",
    re.IGNORECASE,
)


def one_lead(found: list[Finding], text: str) -> list[Finding]:
    """A message's first statement is stored; a later one only when it says itself that it
    holds for good (always, never, "I prefer", "we use" …) or is told as another matter (fyi,
    heads up, "oh and …"), else the person confirms it.
    Beside the task they came with, people state one lasting thing: a second plain statement
    in the message was more often that task's context ("The current build takes 11 s") than
    another fact (dev sets as first measured: 10 of 24 such findings right)."""
    out: list[Finding] = []
    first: int | None = None  # where the message's first stored statement is in `out`
    for finding in found:
        if finding.confidence == HIGH:
            said = finding.sentence
            last = (clauses.sentences_of(said) or [said])[-1]
            made_last = (
                _MAKES_IT_LAST.match(last.strip())
                or markers.TOLD_TO_KEEP.search(said)
                or _ANOTHER_MATTER.match(said.strip())
            )
            if (
                first is not None
                and not made_last
                and (not STANDING.search(said) or _applies_it(said, text))
            ):
                if not _applies_it(said, text) and _says_what_instead(out[first], finding, text):
                    before, what = out[first], finding.content
                    if what[1:2].islower():  # "Checkpoints go …", not "MSRV is …"
                        what = what[:1].lower() + what[1:]
                    out[first] = replace(
                        before,
                        content=f"{before.content.rstrip('.')}; {what}",
                        sentence=f"{before.sentence.strip()} {said.strip()}",
                    )
                    continue
                finding = at_most_medium(finding)
            if first is None:
                first = len(out)
        out.append(finding)
    return out


# What is not so, said first ("no no, we don't have hdfs anywhere.", "ah no, never latest.",
# "prod isn't on fly"): the sentence right after it says what is, and the two are one memory.
# Not a rule told against what it rules out ("flags go through Unleash, never env vars").
_SAYS_NOT = re.compile(
    r"^(?:(?:no|nah|nope|ah|oh|ok|okay|wait|so|and|obviously|please|pls|btw|fyi)\b[,!.:]?\s+)*"
    r"(?:[\w.'-]+\s+){0,2}?(?:don'?t|do not|doesn'?t|does not|isn'?t|aren'?t|is not|are not|"
    r"never|no|not|nobody)\b",
    re.IGNORECASE,
)
_SAYS_NOT_WORDS = 20


def _says_what_instead(before: Finding, finding: Finding, text: str) -> bool:
    if len(before.sentence.split()) > _SAYS_NOT_WORDS or not _SAYS_NOT.match(before.sentence):
        return False
    said = clauses.sentences_of(text)
    where = [
        next((n for n, s in enumerate(said) if f.sentence.strip()[:40] in s), None)
        for f in (before, finding)
    ]
    return where[0] is not None and where[1] == where[0] + 1


# What a later sentence makes of the statement before it for the task at hand ("Our KFP is
# 2.0.5. So the exporter ought to take …", "… please use those hostnames in the playbook"):
# the task, in a rule's words; the statement it follows is what lasts (read sets v3–v67:
# 7 such findings stored, none right).
_APPLIES_IT = re.compile(
    r"\b(?:use|input|apply|take|follow|put|pass|set)\s+(?:those|that|these|them|it)\b|"
    r"\b(?:use|with|from)\s+(?:those|these)\s+\w",
    re.IGNORECASE,
)
_SO = r"\b(?:and\s+)?so\b(?!,?\s+(?:you know|you're aware|for (?:info|context))\b)[,\s]*"


def _applies_it(sentence: str, text: str) -> bool:
    said = sentence.strip()
    # (the table reads a sentence without the "So" that opens it)
    after_so = re.search(_SO + re.escape(said[:40]), text, re.IGNORECASE)
    return bool(_APPLIES_IT.search(said) or re.match(_SO, said, re.IGNORECASE) or after_so)


STANDING = re.compile(
    r"\b(?:always|never|every|everywhere|whenever|from now on|going forward|no exceptions|"
    r"non-?negotiable|not negotiable|instead of|rather than|by default|as a rule)\b|"
    r",\s*not\s+(?:the\s+|a\s+)?[\w.#/@-]|"  # what is true, said against what is not
    r"\bi(?:'d| would)? (?:much )?(?:rather|prefer)\b|"
    r"\bi (?:always|never|like|hate|want|stick|tend|can't stand)\b|"
    r"\bwe (?:use|always|never|don't|do not|stick|prefer|standardi[sz]ed)\b",
    re.IGNORECASE,
)


def at_most_medium(finding: Finding) -> Finding:
    return replace(finding, confidence=MEDIUM) if finding.confidence == HIGH else finding


# What the person says back to another's view told just before ("Jonas says one should
# always keep feet. But I don't fly in US.", "I find it good, but he is not the one who types
# it"): their answer to that view, which is no rule of theirs.
_BACK_AT_IT = re.compile(
    r"^(?:but\s+|and\s+|so\s+)?(?:i\b|i'|for me\b|personally\b|of course\b)"
    r".*\b(?:it|this|that|he|she|his|her|him)\b",
    re.IGNORECASE,
)
_ANOTHERS = "someone else's view"


def answers_another(sentence: str, prose: str) -> bool:
    """Whether `sentence` of a message's `prose` is the person's answer to another's view
    told in the sentence before it."""
    at = prose.find(sentence)
    before = prose[:at] if at > 0 else ""
    return bool(
        before
        and _BACK_AT_IT.search(sentence)
        and heard.not_a_statement(clauses.sentences_of(before)[-1].strip()) == _ANOTHERS
    )
