"""A message cut into the sentences and clauses the table of patterns reads: pasted text left
out, what is said for one occasion dropped with its lead-in, and a request told "from now on"
kept in front of it."""

from __future__ import annotations

import re

from memdesk.core.sessions import dropped, heard, lead_ins, pasted, sentence_ends, style_specs

# Sentences, and clauses that start a new statement ("…, and we use Poetry"; "…; never …").
_SPLIT = re.compile(
    sentence_ends.SENTENCE_END
    + r"\s+(?=[A-Z\"'(*_`])|"
    + sentence_ends.SAID_WRONG
    + "|"
    + sentence_ends.ASKED_AFTER
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
    # to-do's ("TODO: always …" is a task, not a rule) nor "Remember:", a signal of its own,
    # nor what a spec is for ("commit messages: lowercase, …", style_specs.py).
    rf"|(?!(?:[a-z']+\s){{0,3}}?(?:{lead_ins.NOT_A_LEAD_IN}|remember)\b[^:]{{0,30}}:)"
    rf"(?!{style_specs.TOPIC}\s*:)(?:[a-z']+\s){{0,3}}[a-z']+:\s+"
    rf"|{lead_ins.FRAMING})+",
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
