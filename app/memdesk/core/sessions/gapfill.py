"""Filling the gaps an agent left: what the user stated in a session (preferences, corrections,
facts about the project and its environment, and decisions the assistant proposed that the
user accepted), found by a table of patterns, no model.

Each finding has a confidence: high is stored as an L1 memory, medium becomes a proposal the
person accepts or rejects, low is dropped. High is kept for what states something lasting:
a preference ("I'd rather …", "keep …", "always …"), a convention with a general subject
("amounts must never be floats"), where things are and how they run ("staging is at …",
"releases are cut with …"), a correction that says what is true ("it's X, not Y"). What may
only concern the task at hand ("don't …", "actually …") is medium; questions, hedges,
transient instructions, apologies, cancellations, sarcasm and pasted text are never
findings (`core/sessions/heard.py`). A finding's scope says whether it is about the user
(global) or about the project the session worked in. Measured on frozen sessions by
`bench/roundtrip.py` and on labelled sentences by `bench/gapfill.py` (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from memdesk.core.sessions import (
    accepted,
    apostrophes,
    asked_now,
    clauses,
    doubts,
    everywhere,
    fact_so_rule,
    heard,
    lead_ins,
    markers,
    matters,
    pasted,
    picks,
    reasons,
    refused_in_part,
    replies,
    spans,
    stories,
    style_specs,
    task_then_fact,
    to_build,
    tone,
)
from memdesk.core.sessions.chunk_judge import Heard
from memdesk.core.sessions.finding import GLOBAL, PROJECT, Finding
from memdesk.core.sessions.gapfill_patterns import PATTERNS, Pattern
from memdesk.core.sessions.later_sentences import (
    STANDING,
    answers_another,
    asked_for_good,
    at_most_medium,
    leaning_back,
    made_lasting,
    one_lead,
)
from memdesk.core.sessions.message_sentences import sentences
from memdesk.core.sessions.pattern_judges import HIGH, LOW, MEDIUM
from memdesk.core.sessions.scope import settled as settled_scope

MAX_SENTENCE = 300

__all__ = ["GLOBAL", "HIGH", "LOW", "MEDIUM", "PROJECT", "Finding", "find", "sentences"]


# Openers of a correction: the rest says what is true.
_CORRECTING = re.compile(
    r"^(?:no(?=[,.:;!-]|\s+(?:wait|no|nope)\b)|nope|actually|wait|"
    r"that's (?:not right|wrong|incorrect)|that is (?:not right|"
    r"wrong)|not quite|close,? but)[,.:;!-]*\s+(?=\w)",
    re.IGNORECASE,
)


def find(
    messages: Iterable[str | Mapping[str, str]], each: Callable[[], None] | None = None
) -> list[Finding]:
    """Every finding in a conversation: in the user's messages (a plain string is one), at
    most one per clause, the first pattern of the table that matches; and each decision an
    assistant proposed that the next user message accepted. `each` is called before each
    message (a time limit's checkpoint)."""
    found: list[Finding] = []
    previous: Mapping[str, str] | None = None
    for item in messages:
        if each is not None:
            each()
        message = {"role": "user", "content": item} if isinstance(item, str) else item
        if message.get("role") == "user":
            text = apostrophes.straight(message.get("content", ""))
            if previous is not None and previous.get("role") == "assistant":
                found.extend(accepted.decisions(previous.get("content", ""), text))
            in_message = _with_clauses(_in_message(sentences(text)), text)
            in_message = _one_per_sentence(_after_requests(in_message, text), text)
            in_message = one_lead(leaning_back(made_lasting(in_message, text)), text)
            in_message = asked_for_good(in_message, text)
            in_message = [_with_its_reason(f) for f in in_message]
            if in_message and tone.doubted(text):
                in_message = [
                    f
                    if tone.lasts_whatever_the_tone(f.sentence)
                    or tone.lasts_whatever_the_tone(_as_said(f.sentence, text))
                    or not matters.doubted_where(text, f.sentence)
                    else at_most_medium(f)
                    for f in in_message
                ]
            prose = pasted.prose(text)
            in_message = [
                at_most_medium(f)
                if replies.picked(text, f.sentence)
                # (why a way was picked is told of the past: "fp16 kept nan-ing last time")
                or f.pattern != "decision"
                and (
                    doubts.doubtful(f.content, f.sentence, prose)
                    or stories.told(f.content, f.sentence, prose)
                )
                or doubts.for_this_task(f.pattern, f.content)
                or to_build.asked(f.sentence)
                or doubts.made_so_now(f.sentence, prose)
                or answers_another(f.sentence, prose)
                or doubts.untied(f.pattern, f.content, f.sentence)
                else f
                for f in in_message
            ]
            found.extend(everywhere.kept(f) for f in in_message)
        if message.get("role") in ("user", "assistant"):
            previous = message
    return [replace(f, scope=settled_scope(f.sentence, f.scope)) for f in found]


# "We don't use make here. Everything goes through tox.": what is not used, then what is;
# one statement in two sentences (not when the first said what is already: "we don't do
# celery in this team, every job runs on arq. it should email …" goes on with the task).
_NOT_THIS = ("we_dont",)
_SAYS_MORE = re.compile(r"[,;:—–]\s|\s-\s")
_WHAT_IS = re.compile(r"^(?:everything|each|every|all|the|our|it|they|that|[a-z]+s)\s+\w", re.I)


# A decision is read whole where it is found: the pick and why the other way is out.
_DECIDED = ("accepted_decision", "decision")


def _as_said(sentence: str, text: str) -> str:
    """The message's sentence that holds `sentence`, its lead-in on ("fwiw the library's on
    central time": the table reads it without its "fwiw")."""
    cut = sentence.strip(" .!")
    return next((s for s in clauses.sentences_of(text) if cut in s), sentence)


def _with_clauses(found: list[Finding], text: str) -> list[Finding]:
    """The table's findings outside sentences that, read whole, state nothing to keep, and
    what `clauses` hears in the rest of the message (behind lead-ins, between dashes, in
    other words). One finding per statement: where the table read only a clause of a
    sentence that says more, its finding takes the whole sentence."""
    heard_in_text, refused = clauses.read(text)
    kept = [
        f
        for f in found
        if f.pattern in _DECIDED
        or not any(f.sentence.strip(" .!") in s or s in f.sentence for s in refused)
    ]
    # the words read so far, kept as they grow: joined afresh for each clause, a 60 KB
    # message took seconds
    read = set(_WORDS.findall(" ".join(f.sentence for f in kept).casefold()))
    for heard_here in heard_in_text:
        inside = [f for f in kept if f.sentence.strip(" .!") in heard_here.sentence]
        if len(inside) == 1 and inside[0].pattern == "decision":
            if heard_here.confidence == HIGH:  # a rule heard in the person's own words
                kept[kept.index(inside[0])] = _from_clause(heard_here)
            continue
        if _covered(heard_here.said.casefold(), read):
            kept = _firmed(kept, heard_here)  # the table read this already
            continue
        if len(inside) == 1:
            n = kept.index(inside[0])
            # the clause's cut when it holds the table's, else both halves: the whole sentence
            holds = _overlaps(inside[0].sentence.casefold(), heard_here.said.casefold())
            content = heard_here.content if holds else clauses.whole(heard_here.sentence)
            kept[n] = replace(inside[0], content=content, sentence=heard_here.sentence)
        elif not inside:
            kept.append(_from_clause(heard_here))
        else:
            continue
        read |= set(_WORDS.findall(heard_here.sentence.casefold()))
    return [
        replace(f, confidence=MEDIUM)
        if f.confidence == HIGH and asked_now.for_this_work(f.content, f.sentence)
        else f
        for f in kept
    ]


_CORRECTIONS = ("no_its", "actually", "its_not", "thats_wrong")
_MORE_NOS = re.compile(r"^(?:(?:no|nope|wait)\b[,.!\s]*)+", re.IGNORECASE)


def _with_its_reason(finding: Finding) -> Finding:
    """A correction the table could only propose, when the person tells why as how things
    stay here ("no, don't tag per resource, we set default_tags in the provider block")."""
    if finding.pattern not in _CORRECTIONS or finding.confidence != MEDIUM:
        return finding
    body = finding.sentence.strip().rstrip(".!")
    opener = _CORRECTING.match(body)
    rest = _MORE_NOS.sub("", body[opener.end() :] if opener else body)
    return replace(finding, confidence=HIGH) if reasons.told_for_good(rest, body) else finding


# "…also add NullPointerException... no wait, add our MissingBinException, not NPE": the ask
# mended, not a rule
_MENDS_THE_ASK = re.compile(
    r"^(?:\W*(?:no|wait|sorry|oops|actually)\b[,.!\s]*)+(?:please\s+)?(?:add|remove|use|make|put|"
    r"change|set|call|move|rename|drop|keep|skip|catch|return|throw)\b",
    re.IGNORECASE,
)


def _firmed(kept: list[Finding], heard_here: Heard) -> list[Finding]:
    """A correction the table could only propose, when what it says is true is a rule heard
    as such ("no, we partition by farm_id and event_date, never per turbine")."""
    # ("no, postgres is off the table for us — …": what is ruled out is a rule too)
    ruled = STANDING.search(heard_here.said) or markers.RULED_OUT.search(heard_here.said)
    if heard_here.confidence != HIGH or not ruled or _MENDS_THE_ASK.match(heard_here.said):
        return kept
    return [
        replace(f, confidence=HIGH)
        if f.pattern in _CORRECTIONS
        and f.confidence == MEDIUM
        and f.sentence.strip(" .!") in heard_here.sentence
        else f
        for f in kept
    ]


def _one_per_sentence(found: list[Finding], text: str) -> list[Finding]:
    """One finding for the clauses of a sentence that say one thing ("Credentials come from
    Airflow connections; I'd rather we never hardcode them"): each alone leaves out what the
    other holds. Clauses on different things ("I prefer pytest, and always run ruff") stay
    two findings."""
    out = [f for f in found if f.pattern in _DECIDED]
    rest = [f for f in found if f.pattern not in _DECIDED]
    for sentence in clauses.sentences_of(text):
        inside = [f for f in rest if f.sentence.strip(" .!") in sentence]
        whole = len(inside) > 1 and _one_thing(inside) or _leans_on_before(inside, sentence)
        if whole and len(sentence) <= MAX_SENTENCE:
            best = min(inside, key=lambda f: _RANK[f.confidence])
            scope = GLOBAL if all(f.scope == GLOBAL for f in inside) else PROJECT
            content = clauses.whole(sentence)
            out.append(replace(best, content=content, sentence=sentence.strip(), scope=scope))
        else:
            out.extend(inside)
        rest = [f for f in rest if f not in inside]
    return out + rest


_RANK = {HIGH: 0, MEDIUM: 1, LOW: 2}
_POINTING_BACK = re.compile(r"\b(?:it|its|them|they|their|that|this|those|these|one)\b", re.I)
_STEM = 4


def _one_thing(parts: list[Finding]) -> bool:
    """Whether a later clause points back at an earlier one, shares a word with it, or is
    too short to say anything alone ("…always start with a shebang and use argparse")."""
    seen: set[str] = set()
    for n, part in enumerate(parts):
        words = {w[:_STEM] for w in _WORDS.findall(part.sentence.casefold()) if len(w) >= _STEM}
        short = len(part.content.split()) < 3
        if n and (words & seen or _POINTING_BACK.search(part.sentence) or short):
            return True
        seen |= words
    return False


def _leans_on_before(inside: list[Finding], sentence: str) -> bool:
    """Whether the one finding of a sentence is its later clause and names what it is about
    only as "it" ("citations use biblatex; never switch it to natbib")."""
    if len(inside) != 1:
        return False
    said = inside[0].sentence.strip(" .!")
    if task_then_fact.after_request(sentence).strip(" .!") == said:
        return False
    return sentence.find(said) > 0 and bool(_IT.search(said))


_IT = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)


def _overlaps(content: str, said: str) -> bool:
    return _covered(content, set(_WORDS.findall(said)))


def _covered(content: str, words_said: set[str]) -> bool:
    words = set(_WORDS.findall(content))
    return bool(words) and len(words & words_said) >= 0.8 * len(words)


_WORDS = re.compile(r"[\w#-]+(?:[./][\w#-]+)*")  # "ledger/db/migrations", "v2.1", not "first."


def _from_clause(heard_here: Heard) -> Finding:
    scope = GLOBAL if heard_here.about_user else PROJECT
    return Finding(
        "clause",
        heard_here.confidence,
        heard_here.kind,
        heard_here.content,
        heard_here.sentence,
        scope,
    )


def _in_message(parts: list[str]) -> list[Finding]:
    found = []
    skip = False
    for n, sentence in enumerate(parts):
        if skip:
            skip = False
            continue
        finding = _match(sentence) or _picked(sentence) or _spec(sentence)
        if finding is None:
            continue
        if n and asked_now.SAME_CHANGE.match(parts[n - 1]) and not STANDING.search(finding.content):
            # "make no-show amber and keep cancelled red": one more item of the change asked
            finding = at_most_medium(finding)
        following = parts[n + 1] if n + 1 < len(parts) else ""
        if (
            finding.pattern in _NOT_THIS
            and not _SAYS_MORE.search(finding.content)
            and _WHAT_IS.match(following)
            and not heard.not_a_statement(following)
        ):
            rest = following.rstrip(".!")
            finding = replace(
                finding,
                content=f"{finding.content}; {rest[:1].lower() + rest[1:]}",
                sentence=f"{finding.sentence} {following}",
            )
            skip = True
        found.append(finding)
    return found


def _after_requests(found: list[Finding], text: str) -> list[Finding]:
    """`found`, and in a sentence where nothing else was, the fact told after a request or
    between commas (`spans`); in one where only what the person confirms was, that firmed."""
    for sentence in clauses.sentences_of(text):
        here = [f for f in found if f.sentence.strip(" .!") in sentence or sentence in f.sentence]
        if here:
            # (beside a statement stored, a span would take the message's lead from it:
            # `one_lead`)
            if not any(f.confidence == HIGH for f in found):
                found = _firmed_by_a_span(found, here, sentence)
            continue
        told = (
            task_then_fact.read(sentence, _read_alone)
            or fact_so_rule.read(sentence, _read_alone)
            or spans.read(sentence, _read_alone)
        )
        if told is not None:
            found = [*found, told]
    return found


def _firmed_by_a_span(found: list[Finding], here: list[Finding], sentence: str) -> list[Finding]:
    """Read whole, the sentence was at most the person's to confirm. A statement told in it
    after a reaction or a correction takes its place; one told after a request firms the
    request with it, which is what the person wants kept ("use it.each tables for stuff like
    this, I can't stand eight copy-pasted test cases", "don't put a real key in there, the
    specs talk to stripe-mock on 12111"), unless the request is for this once."""
    if (told := spans.read(sentence, _read_alone, after_a_request=False)) is not None:
        return [*(f for f in found if f not in here), told]
    if spans.THIS_ONCE.search(sentence) or spans.read(sentence, _read_alone) is None:
        return found  # ("dont push the wifi change until after 6pm, people are on calls")
    whole = [f for f in here if len(f.sentence) >= len(sentence.strip(" .!")) - 2]
    return [replace(f, confidence=HIGH) if f in whole[:1] else f for f in found]


def _read_alone(sentence: str) -> Finding | None:
    """What the table or the clause reader hears in `sentence` as a message of its own."""
    if (finding := _match(sentence)) is not None:
        return finding
    heard_here = next((h for h in clauses.read(sentence)[0] if h.confidence == HIGH), None)
    return heard_here and _from_clause(heard_here)


def _spec(sentence: str) -> Finding | None:
    """A spec for what the agent writes, where the clause reader does not hear the sentence
    (it keeps the examples quoted in "i write commit messages in the imperative — 'add
    parser', never 'added parser'")."""
    if len(sentence) > MAX_SENTENCE or (spec := style_specs.read(sentence)) is None:
        return None
    return None if any(h.confidence == HIGH for h in clauses.read(sentence)[0]) else spec


def _picked(sentence: str) -> Finding | None:
    if len(sentence) > MAX_SENTENCE or (pick := picks.decided(sentence)) is None:
        return None
    confidence, content = pick
    return Finding("decision", confidence, "decision", content, sentence, PROJECT)


_A_STORY = "a past event"
# what a story told after it is the reason for: "has to stay optional", not "is deployed to
# preview, prod stays on the old build …"
_MUST = re.compile(r"\b(?:has|have|needs?) to\b|\b(?:must|never|always|only)\b", re.IGNORECASE)


def _match(sentence: str) -> Finding | None:
    if len(sentence) > MAX_SENTENCE:
        return None
    if wrong := lead_ins.WRONG_ONE.match(sentence):
        return _match(sentence[wrong.end() :])
    if why := heard.not_a_statement(sentence):
        # "vintage has to stay optional — …, we got bitten by that last year": the story is
        # the tail's, told as the reason
        if why != _A_STORY:
            return None
        head = refused_in_part.before_its_tail(sentence, why, clauses.why_not_kept)
        return _match(head) if _MUST.search(head) else None
    body = sentence.rstrip(".!").strip()
    correcting = _CORRECTING.match(body)
    if correcting:
        rest = body[correcting.end() :]
        finding = _first(rest, sentence, high_only=True)
        if finding is not None:
            return finding
    return _first(body, sentence, high_only=False)


def _first(body: str, sentence: str, *, high_only: bool) -> Finding | None:
    for pattern in PATTERNS:
        match = pattern.regex.search(body) if pattern.anywhere else pattern.regex.match(body)
        if match is None:
            continue
        confidence = pattern.judge(match, body)
        if confidence is None:
            continue
        if high_only and confidence != HIGH:
            return None
        return _finding(pattern, match, body, sentence, confidence)
    return None


def _finding(pattern: Pattern, match: re.Match[str], body: str, sentence: str, confidence: str):
    content = pattern.render(match, body).strip()
    content = content[:1].upper() + content[1:]
    if len(content.split()) < 3 or content.endswith((":", "Correction:")):
        confidence = LOW  # nothing said that stands on its own
    scope = GLOBAL if pattern.about_user(body) else PROJECT
    return Finding(pattern.name, confidence, pattern.kind, content, sentence, scope)
