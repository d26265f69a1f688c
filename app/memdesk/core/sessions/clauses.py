"""Lasting statements wherever they stand in a message: behind a lead-in ("for the record,",
"quick note on tooling:"), between dashes or in parentheses in the middle of a task, or told
with another verb ("I stick to …", "we're a poetry shop, so …").

The table of `gapfill_patterns` reads a clause from its start; this reads each chunk of a
message (sentences, dashed asides, parentheses, semicolons) for markers anywhere in it
(markers.py):
what holds in general (always, never, every, instead of, "…, not X", "like the rest of the
repo"), a person's habit or taste in the first person, the team's own way ("we log with
structlog"), something ruled out ("isn't welcome", "is off the table"), a plain fact about the
environment with a concrete value (a port, a version, a host, a path, a schedule), or who
someone is. A chunk that is a task instruction with such a marker inside ("write the test
with freezegun like the rest of the suite") is proposed: the person decides. Everything
`heard` says is not a statement stays out, judged on the whole sentence too.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memdesk.core.sessions import (
    around,
    asides,
    dislikes,
    dropped,
    embedded,
    heard,
    lead_ins,
    markers,
    mending,
    pasted,
    refused_in_part,
    sentence_ends,
)
from memdesk.core.sessions.chunk_judge import MAX_CHUNK, Heard, heard_as, judge
from memdesk.core.sessions.pattern_judges import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
_SENTENCES = re.compile(
    sentence_ends.SENTENCE_END
    + r"\s+(?=\S)|\n+|"
    + sentence_ends.SAID_WRONG
    + "|"
    + sentence_ends.ASKED_AFTER
    + "|"
    + dropped.AFTER_DISMISSAL,
    _I,
)
# An aside marked as another matter: "(oh and …)", "— btw, … —"
_MARKED = (
    r"(?:(?:oh,?\s+)?and\s+)?(?:btw|by the way|fyi|fwiw|side ?note|ps|p\.s\.|unrelated(?:ly)?|"
    r"oh,? and)\b"
)
_ANNOUNCED = re.compile(
    rf"\(\s*({_MARKED}[^()]{{10,}}?)\s*\)|(?:^|\s)[—–]\s*({_MARKED}(?:[^()—–]|[—–](?=\s*so\b))"
    r"{10,}?)\s*(?:\s[—–](?!\s*so\b)(?:\s|$)|$)|"
    # announced after a comma, with a colon: "…over the websocket, so heads up: anything that …"
    r",\s*(?:so\s+)?(?:heads[- ]up|fyi|btw|side ?note|note)\s*:\s*([^:]{10,})$",
    _I,
)
# ("oh and from now on please use `<-`": the "oh and" joins the aside to its sentence)
_OH_AND = re.compile(r"^(?:oh,?\s+)?and,?\s+", _I)
# how a switch and what holds since read, whole: a story, or the state it left
_SWITCH_TOLD = ("a past event", "how things are at the moment")
_TRAILING = re.compile(r"[\s,.!]*(?:\b(?:please|thanks|thank you|ok|okay)\??)?[\s.!]*$", _I)

# What limits or acts on the clause before it: "just that function", "switch it and rerun".
_LIMITS = re.compile(
    r"^(?:just|only|but only|and only|not|except)\b|^(?:please\s+)?[a-z]+ (?:it|this|that|them)\b|"
    # "… before you commit — this time, I mean": the one-off says when what came before holds
    r"^(?:(?:but|and)\s+)?(?:this time|this once|for now|for today)\b",
    _I,
)
# (what follows says who holds to it: "…, but never backfills it" goes on about the story)
_AFTER_A_STORY = re.compile(
    r"(?:,\s*|\s+)(?:and\s+)?(?:so|but)\s+(?=(?:now\s+|these days\s+|since then\s+)?"
    r"(?:i|i'm|we|we're|our|my|every|all|the team|everyone)\b)",
    _I,
)
# "the feed sometimes sends the code lowercase ('b3' instead of 'B3') and our lookup misses
# it": after a fault, what goes on with "and" or "so" is the same report
_WRONG_NOW = "what is wrong now"
# "Authority check on BUKRS — is it mandatory in all our reports, or …?": a few words named,
# then asked about
_ASKED = "a question"
_TOPIC_ASKED_ABOUT = re.compile(r"[\w`'./+-]+(?: [\w`'./+-]+){0,5}")
_CARRIES_ON = re.compile(r"^\W*(?:and|so|which|then)\b", _I)
# "– and this goes for every script you write for me –": how far, the rule in another chunk
_HOW_FAR_ONLY = re.compile(rf"(?:and\s+)?(?:this|that|it){markers.POINTS_AHEAD}[^:;]*", _I)


def read(message: str) -> tuple[list[Heard], list[str]]:
    """The lasting statements of one user message, one per sentence, and the sentences that
    as a whole state nothing to keep (a question, a hedge, another's view, a passing ask, a
    story). A sentence whose chunks hold more than one statement ("I stick to named exports;
    I'd rather not see export default") is one statement, kept whole."""
    out: list[Heard] = []
    refused: list[str] = []
    for sentence in sentences_of(message):
        # "can you make it deterministic (and btw, in general just send me diffs …)": an aside
        # the person marks as another matter is read on its own, not as part of the question
        # or the task around it; one that says nothing on its own stays in its sentence
        for found in _ANNOUNCED.finditer(sentence):
            heard_there = read(_OH_AND.sub("", found[1] or found[2] or found[3]))[0]
            if heard_there:
                out.extend(replace(h, sentence=sentence) for h in heard_there)
                sentence = sentence.replace(found[0], " ", 1)
        chunks = asides.cut(sentence, _strip)
        if all(len(chunk) > MAX_CHUNK for chunk in chunks):
            continue  # nothing in it is short enough to be one statement
        why = why_not_kept(sentence)
        # "Inês is the head nurse and signs off on every template, so add her as reviewer on
        # this PR": what is asked for this PR follows from the statement, which holds
        held = around.SO_ASKED_NOW.sub("", sentence)
        if why == "a question":
            # "I always go for server-rendered SVG, so could we drop the Chart.js hook?": the
            # question asks what follows from the rule told before it
            held = around.SO_ASKED_IF.sub("", sentence)
        if (
            why in ("said for the task at hand", "a question")
            and held != sentence
            and not heard.for_the_task_at_hand(held)
            and not heard.not_a_statement(_strip(held))
        ):
            why, sentence = None, held
            chunks = asides.cut(sentence, _strip)
        # "…, so the 13B model won't fit locally; let's use the small checkpoint for now": a
        # one-off told after the statement is one clause of the sentence (told first, as in
        # "for now — …", it governs all that follows)
        later_one_off = (
            why == "said for the task at hand"
            and len(chunks) > 1
            and not heard.for_the_task_at_hand(chunks[0])
            # "… — just that function, the rest can stay", "… — switch it and rerun": about
            # what came before
            and not any(_LIMITS.match(c.strip()) for c in chunks[1:])
        )
        # "the app freezes on big files — Ahmed maintains the Qt parts — probably the UI
        # thread": a guess in its own aside is that aside's, when what opens is not hedged
        later_guess = (
            why == "a condition or a hedge"
            and len(chunks) > 1
            and heard.not_a_statement(_strip(chunks[0])) != why
        )
        clause_only = why in heard.CLAUSE_ONLY or later_guess
        if (
            why in _SWITCH_TOLD
            and len(chunks) == 1
            and (told := around.switch_and_what_holds(sentence))
        ):
            out.append(heard_as(HIGH, "fact", _strip(told), sentence, about_user=False))
            continue
        if why == "a past event" and len(chunks) == 1:
            # "we got burned by flaky mocks last year, so we always hit a real postgres": the
            # story is the reason, and what follows its "so" or "but" is read on its own
            if after := around.after_the_switch(sentence):
                chunks, why = after, None
            else:
                chunks = [c for c in _AFTER_A_STORY.split(sentence) if c.strip()]
        if why and len(chunks) == 1 and around.what_holds(_strip(sentence), why):
            why = None  # "it's gRPC only, the REST gateway got switched off last quarter"
        if why and (head := _without_the_refused_tail(sentence, chunks, why)):
            sentence, chunks, why = head, asides.cut(head, _strip), None
        if why and (rest := refused_in_part.after_its_head(sentence, why, why_not_kept)):
            sentence, chunks, why = rest, asides.cut(rest, _strip), None
        if why and not later_one_off and (not clause_only or len(chunks) == 1):
            refused.append(sentence.strip())
            continue
        judged = [
            None
            if why == _WRONG_NOW
            and _CARRIES_ON.match(chunk)
            or why == _ASKED
            and _TOPIC_ASKED_ABOUT.fullmatch(chunk.strip())
            and n < len(chunks) - 1
            else judge(_strip(chunk), sentence, _led_in_for_good(chunk))
            for n, chunk in enumerate(chunks)
        ]
        found = [heard_here for heard_here in judged if heard_here is not None]
        if len(found) == 1 and _HOW_FAR_ONLY.fullmatch(found[0].said.strip(" .")):
            found = []  # how far, of a rule the clause reader did not hear
        if not any(f.confidence == HIGH for f in found):
            told = [
                heard_here
                for statement, how in embedded.statements_in(sentence)
                if (heard_here := _told(statement, how, sentence)) is not None
            ]
            if told:
                out.extend(_with_its_request(heard_here, chunks) for heard_here in told)
                continue
        if len(found) == 1:
            out.append(_with_its_request(_with_its_values(found[0], chunks, judged), chunks))
        elif found and len(sentence) <= MAX_CHUNK:
            whole = _strip(around.without_the_task_before(sentence, chunks, judged, _strip))
            best = HIGH if any(f.confidence == HIGH for f in found) else MEDIUM
            about_user = all(f.about_user for f in found)
            untied = best == MEDIUM and all(f.untied for f in found)
            out.append(heard_as(best, found[0].kind, whole, sentence, about_user, untied))
    if mending.sets_the_agent_right(message):
        first = sentences_of(message)[0]
        out = [
            replace(h, confidence=HIGH, untied=False)
            if h.untied and mending.told_to_mend(h.said, h.sentence, first)
            else h
            for h in out
        ]
    # "…, I always mix them up": a clause cut out of its sentence that names nothing but "it"
    # or "them" says nothing without it
    out = [
        h
        for h in out
        if h.said.strip() == h.sentence.strip() or not markers.points_back_only(h.said)
    ]
    return out, refused


def _without_the_refused_tail(sentence: str, chunks: list[str], why: str) -> str:
    """The sentence without the tail `why` belongs to alone: its last comma-clauses, within
    its last aside ("oh right sorry — my local supabase api runs on 55421 btw, another
    client's stack is sitting on the default ports"), or that last aside whole when it is a
    guess at what someone did."""
    head = refused_in_part.before_its_tail(sentence, why, why_not_kept)
    if head and len(head) >= len(sentence) - len(chunks[-1]):
        return head
    return refused_in_part.before_its_last_aside(sentence, chunks, why, why_not_kept)


def why_not_kept(text: str) -> str | None:
    """Why `text` as a whole states nothing to keep (None: it may)."""
    return heard.not_a_statement(_strip(text)) or (
        "said for the task at hand" if heard.for_the_task_at_hand(text) else None
    )


def _with_its_values(found: Heard, chunks: list[str], judged: list[Heard | None]) -> Heard:
    """An aside beside the statement that only names what it is about (a model, a version, a
    host: "our PLCs are Beckhoff — CX5140 with TwinCAT 3.1 — so no Codesys syntax") is part
    of it, not a statement of its own nor a request."""
    # only after what opens the sentence: between a request's words, what follows an aside is
    # the request going on ("add the coupon test — Dana owns checkout — based on SHOP-1182")
    if judged.index(found) != 0 or len(chunks) < 2 or found.confidence != HIGH:
        return found
    aside = _strip(chunks[1])
    if not (
        not _GOES_ON_WITH.match(aside)
        and markers.VALUE.search(aside)
        and len(aside.split()) <= _ASIDE_WORDS
        and not asks_for_work(aside)
        and not markers.TASK.match(aside)
        and not heard.not_a_statement(aside)
    ):
        return found
    body = f"{found.said} ({aside})"
    return heard_as(HIGH, found.kind, body, found.sentence, found.about_user)


def _with_its_request(found: Heard, chunks: list[str]) -> Heard:
    """The person's dislike with the request beside it that says how (`dislikes.py`)."""
    if found.confidence != HIGH or len(found.sentence) > MAX_CHUNK:
        return found
    how = dislikes.how_asked_beside(found.said, [_strip(chunk) for chunk in chunks])
    if how is None:
        return found
    body = f"{found.said}: {how}"
    return heard_as(HIGH, found.kind, body, found.sentence, found.about_user)


_ASIDE_WORDS = 12
_GOES_ON_WITH = re.compile(
    r"^(?:with|that|which|who|to|via|based|after|about|for|in|on|from|by|and|then|it|so|but|"
    r"or|if|when|because|since|as)\b",
    _I,
)


asks_for_work = around.asks_for_work


def sentences_of(message: str) -> list[str]:
    """The message's sentences as the user wrote them (pasted text left out)."""
    return [s for s in pasted.split_outside_code(_SENTENCES, pasted.prose(message)) if s.strip()]


def whole(sentence: str) -> str:
    """A sentence as a memory's text: lead-in and trailing courtesies off, said of the user."""
    content = person(_strip(sentence).rstrip(".!;, "))
    return content[:1].upper() + content[1:]


def _led_in_for_good(chunk: str) -> bool:
    """Whether the lead-in `_strip` takes off says the rest holds for good ("(and from now on
    please write conventional commits …")."""
    lead = lead_ins.LEAD_IN.match(_unwrapped(chunk.strip()))
    return bool(lead and around.STANDING.search(lead.group()))


def _strip(text: str) -> str:
    text = _unwrapped(text.strip())
    text = lead_ins.LEAD_IN.sub("", text)
    return _TRAILING.sub("", text).strip(" ,:")


def _unwrapped(text: str) -> str:
    """Without the emphasis or quotes around the whole of it; a quote that closes an example
    at its end stays ("…, never 'we will run'")."""
    while len(text) > 1 and text[0] == text[-1] and text[0] in "*_`\"'":
        text = text[1:-1].strip()
    for end in (0, -1):  # a quote left open by a cut
        if text and text[end] in "\"'" and text.count(text[end]) == 1:
            text = text[1:] if end == 0 else text[:-1]
    return text.lstrip("*_`").rstrip("*_`").strip()


def _told(statement: str, how: str, sentence: str) -> Heard | None:
    """A statement cut out of a request, when it holds on its own: what the user framed as a
    rule is one, said in any words; a reason or an aside only with a concrete value, a
    person, or what the team's is."""
    heard_here = judge(statement, sentence)
    framed = how == embedded.FRAMED and heard_here is None and len(statement.split()) >= 3
    # a clause, not "the last tab" of "make the screen remember the last tab"
    framed = framed and bool(markers.ENV_VERB.search(statement))
    if framed and not heard.not_a_statement(statement):
        return heard_as(HIGH, "fact", statement, sentence, about_user=False)
    if heard_here is None:
        return None
    # a plain fact told in passing with nothing tying it to how things stay is asked
    plain_fact = heard_here.confidence == MEDIUM and heard_here.kind == "fact"
    if heard_here.confidence != HIGH and not plain_fact:
        return None
    if how == embedded.TOLD and not (
        markers.CONCRETE.search(statement)
        or markers.VALUE.search(statement)
        or markers.PEOPLE.match(statement)
    ):
        return None
    return heard_here
