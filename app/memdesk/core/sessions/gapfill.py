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
from dataclasses import dataclass, replace

from memdesk.core.sessions import (
    asked_now,
    clauses,
    doubts,
    dropped,
    heard,
    lead_ins,
    markers,
    pasted,
    picks,
    replies,
    stories,
    task_then_fact,
    to_build,
    tone,
)
from memdesk.core.sessions.gapfill_patterns import PATTERNS, Pattern
from memdesk.core.sessions.later_sentences import (
    STANDING,
    answers_another,
    at_most_medium,
    leaning_back,
    made_lasting,
    one_lead,
)
from memdesk.core.sessions.pattern_judges import HIGH, LOW, MEDIUM
from memdesk.core.sessions.third_person import person

GLOBAL, PROJECT = "global", "project"
MAX_SENTENCE = 300

__all__ = ["GLOBAL", "HIGH", "LOW", "MEDIUM", "PROJECT", "Finding", "find", "sentences"]


@dataclass(frozen=True)
class Finding:
    pattern: str
    confidence: str
    kind: str
    content: str  # the memory, in words that stand without the conversation
    sentence: str  # the user's own words it came from
    scope: str = PROJECT


# Sentences, and clauses that start a new statement ("…, and we use Poetry"; "…; never …").
_SPLIT = re.compile(
    heard.SENTENCE_END
    + r"\s+(?=[A-Z\"'(*_`])|"
    + heard.SAID_WRONG
    + "|"
    + heard.ASKED_AFTER
    + "|"
    + dropped.AFTER_DISMISSAL
    + "|"
    r"\n+|;\s+(?!(?:it|they|that|this|so|which)\b)|"
    # not "… to /scratch and never to /home": what follows "never" there is no clause of its own
    r",?\s+(?:and|but|also)\s+(?=(?:i|we|my|our|(?:always|never)(?!\s+(?:to|in|on|for|from|with|"
    r"at|into|under|over|via|through|by)\b)|please|don't|do not|keep|use)\b)|"
    r",\s+(?=(?:don't ever|do not ever|never ever|and never|and always)\b)|"
    r"(?:,\s+|,?\s+so\s+)(?=please\s+(?:use|stick|keep|avoid|write|answer|explain|reply|"
    r"prefer|give|show|always|never|don't)\b)",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|but|also|oh|hey|btw|by the way|fyi|fwiw|sorry|listen|side ?note|"
    r"note|ps|hm+|wait|good|great|"
    r"nice|right(?!\s+now\b)|cool|fine|yes|yep|yeah|thanks|one more thing|heads up|oh and|and also|"
    r"important)[,:.!]?\s+"
    # "please no emojis in commit messages" is "no emojis in commit messages please"
    r"|(?:please|pls|plz),?\s+(?=no\s)"
    # A short lead-in ending in a colon ("Before we start:", "For the record:"), but not a
    # to-do's ("TODO: always …" is a task, not a rule) nor "Remember:", a signal of its own.
    rf"|(?!(?:[a-z']+\s){{0,3}}?(?:{lead_ins.NOT_A_LEAD_IN}|remember)\b[^:]{{0,30}}:)(?:[a-z']+\s){{0,3}}[a-z']+:\s+"
    rf"|{lead_ins.FRAMING})+",
    re.IGNORECASE,
)
# Openers of a correction: the rest says what is true.
_CORRECTING = re.compile(
    r"^(?:no(?=[,.:;!-]|\s+(?:wait|no|nope)\b)|nope|actually|wait|"
    r"that's (?:not right|wrong|incorrect)|that is (?:not right|"
    r"wrong)|not quite|close,? but)[,.:;!-]*\s+(?=\w)",
    re.IGNORECASE,
)
_ACCEPT = re.compile(
    r"^(?:yes|yep|yeah|sure|ok(?:ay)?|agreed|sounds good|good idea|great idea|perfect|"
    r"let's do (?:that|it)|do (?:it|that)|go (?:ahead|for it)|please do|let's (?:stick|go) with "
    r"(?:that|it)|makes sense|lgtm)\b(?![^.!]*\b(?:but|no|not|don't)\b)",
    re.IGNORECASE,
)
_PROPOSAL = re.compile(
    r"\b(?:i(?:'d| would)? (?:suggest|recommend|propose)|my suggestion is|we should|"
    r"let's)\s+(?:that\s+)?(?:we\s+)?(?P<x>[a-z][^.?!]{6,200})",
    re.IGNORECASE,
)
_LASTING = re.compile(
    r"\b(?:all|every|always|never|any|from now on|going forward|instead of|rather than|"
    r"for (?:all|every|everything)|new|whenever)\b",
    re.IGNORECASE,
)


# How long what follows holds, said in an opener ("One more thing, for all our future
# conversations: please …") or cut off before ", please …": kept in front of the request,
# where the table reads it, when the opener goes (a "please …" alone is a passing ask).
_FOR_GOOD = re.compile(
    r"\b(?:from now on|going forward|from here on(?: out)?|in (?:the )?future|"
    r"for future reference|(?:for|in) (?:all )?(?:our |my |your |any )?future "
    r"(?:conversations?|sessions?|chats?|work|projects?|code|answers?|replies))\b",
    re.IGNORECASE,
)
_FOR_GOOD_FIRST = re.compile(rf"^(?:{_FOR_GOOD.pattern})\s*[,:]\s*", re.IGNORECASE)
_PLEASE = re.compile(r"please\b", re.IGNORECASE)
_ONLY_FOR_GOOD = re.compile(rf"^\W*(?:{_FOR_GOOD.pattern})\W*$", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """A message's sentences and clauses, each trimmed; pasted text left out."""
    out = []
    for_good = False
    for part in pasted.split_outside_code(_SPLIT, pasted.prose(text)):
        if heard.for_the_task_at_hand(part):
            continue  # "today only: staging is QINT2" is for an occasion, lead-in and all
        part = pasted.unwrapped(part.strip().strip("*_\"'").strip())
        opener = _OPENER.match(part)
        said_for_good = (
            for_good and _PLEASE.match(part) or bool(opener and _FOR_GOOD.search(opener.group()))
        )
        part = part[opener.end() :].strip() if opener else part
        if told_for_good := _FOR_GOOD_FIRST.match(part):  # past an opener's few words
            said_for_good = True
            if _PLEASE.match(part[told_for_good.end() :]):
                part = part[told_for_good.end() :]
        if _ONLY_FOR_GOOD.match(part):
            for_good = True
            continue
        # and for the request cut off after it ("…: I'm not a native speaker, please write
        # short sentences")
        for_good = said_for_good and not part.endswith((".", "!", "?"))
        if said_for_good and _PLEASE.match(part):
            part = f"From now on, {part}"
        if part:
            out.append(part)
    return out


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
            text = message.get("content", "")
            if previous is not None and previous.get("role") == "assistant":
                found.extend(_accepted(previous.get("content", ""), text))
            in_message = _with_clauses(_in_message(sentences(text)), text)
            in_message = _one_per_sentence(_after_requests(in_message, text), text)
            in_message = one_lead(leaning_back(made_lasting(in_message, text)), text)
            if in_message and tone.doubted(text):
                in_message = [
                    f
                    if tone.lasts_whatever_the_tone(f.sentence)
                    or not tone.doubted_where(text, f.sentence)
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
            found.extend(in_message)
        if message.get("role") in ("user", "assistant"):
            previous = message
    return found


# "We don't use make here. Everything goes through tox.": what is not used, then what is;
# one statement in two sentences (not when the first said what is already: "we don't do
# celery in this team, every job runs on arq. it should email …" goes on with the task).
_NOT_THIS = ("we_dont",)
_SAYS_MORE = re.compile(r"[,;:—–]\s|\s-\s")
_WHAT_IS = re.compile(r"^(?:everything|each|every|all|the|our|it|they|that|[a-z]+s)\s+\w", re.I)


# A decision is read whole where it is found: the pick and why the other way is out.
_DECIDED = ("accepted_decision", "decision")


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
# "…also add NullPointerException... no wait, add our MissingBinException, not NPE": the ask
# mended, not a rule
_MENDS_THE_ASK = re.compile(
    r"^(?:\W*(?:no|wait|sorry|oops|actually)\b[,.!\s]*)+(?:please\s+)?(?:add|remove|use|make|put|"
    r"change|set|call|move|rename|drop|keep|skip|catch|return|throw)\b",
    re.IGNORECASE,
)


def _firmed(kept: list[Finding], heard_here: clauses.Heard) -> list[Finding]:
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


def _from_clause(heard_here: clauses.Heard) -> Finding:
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
        finding = _match(sentence) or _picked(sentence)
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
    """`found`, and the fact told after a request in a sentence where nothing else was."""
    for sentence in clauses.sentences_of(text):
        if any(f.sentence.strip(" .!") in sentence or sentence in f.sentence for f in found):
            continue
        if (fact := task_then_fact.read(sentence, _read_alone)) is not None:
            found = [*found, fact]
    return found


def _read_alone(sentence: str) -> Finding | None:
    """What the table or the clause reader hears in `sentence` as a message of its own."""
    if (finding := _match(sentence)) is not None:
        return finding
    heard_here = next((h for h in clauses.read(sentence)[0] if h.confidence == HIGH), None)
    return heard_here and _from_clause(heard_here)


def _picked(sentence: str) -> Finding | None:
    if len(sentence) > MAX_SENTENCE or (pick := picks.decided(sentence)) is None:
        return None
    confidence, content = pick
    return Finding("decision", confidence, "decision", content, sentence, PROJECT)


def _match(sentence: str) -> Finding | None:
    if len(sentence) > MAX_SENTENCE or heard.not_a_statement(sentence):
        return None
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


def accepts(reply: str) -> bool:
    """Whether the user's reply opens by accepting what the assistant just proposed."""
    return bool(_ACCEPT.match(next(iter(sentences(reply)), "")))


def asked_after(proposal: str, sentence: str) -> bool:
    """Whether `proposal` asks another question after `sentence`: "yes" to "I'll go with X.
    Should I also fix the typo in the README?" answers the typo, not X (red team 37). A short
    one ("OK?", "Sound good?") asks about what came before."""
    after = proposal[proposal.find(sentence) + len(sentence) :]
    return any(
        asked.rstrip().endswith("?") and len(asked.split()) > _ASKS_ABOUT_IT
        for asked in _SENTENCE_OR_LINE.split(after)
    )


_SENTENCE_OR_LINE = re.compile(r"(?<=[.!?])\s+|\n+")
_ASKS_ABOUT_IT = 4


def _accepted(proposal: str, reply: str) -> list[Finding]:
    """The decision in an assistant's proposal, when the user's reply accepts it."""
    if not accepts(reply):
        return []
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", pasted.prose(proposal)):
        match = _PROPOSAL.search(sentence)
        if match is None or sentence.rstrip().endswith("?") and "shall" not in sentence.lower():
            continue
        if asked_after(proposal, sentence):
            continue
        what = re.split(r"\s+(?:so that|so|because|since)\s+", match["x"].strip())[0]
        if markers.DEICTIC_START.match(what):
            continue  # "I'd suggest it as the rule": what "it" is was said before, not kept
        confidence = HIGH if _LASTING.search(what) else MEDIUM
        content = "Decision: " + person(what[:1].upper() + what[1:])
        out.append(Finding("accepted_decision", confidence, "decision", content, sentence))
    return out
