"""Where the tone of a message falls: on the matter that holds a statement, not on a few
words first about the agent's last step, another matter opened part way, or a step of the
person's own after it (`tone` judges the tone itself)."""

from __future__ import annotations

import re

from memdesk.core.sessions import heard, tone
from memdesk.core.sessions.undecided import DEFERRED, UNDECIDED

_I = re.IGNORECASE

# A sentence that opens another matter ("anyway, format what you touched — we format with
# JuliaFormatter …", "fyi everything date-related goes through dayjs now"): the tone of what
# came before ("if we ever move to Zarr …, but not today", "which is kinda embarrassing") is
# of that matter, not of this one.
_ANOTHER_MATTER = re.compile(
    r"^(?:anyway|anyways|separately|unrelated(?:ly)?|on another note|different (?:topic|thing)|"
    r"other thing|one more thing|oh,? and|btw|by the way|fyi|side ?note)\b",
    _I,
)


def doubted_where(message: str, sentence: str) -> bool:
    """Whether the tone of the matter of `message` that holds `sentence` makes what it states
    the person's to confirm: a message may open another matter part way, open on a word about
    the agent's last step, or close on a step of its own."""
    said = [s.strip() for s in tone.SENTENCE_OR_LINE.split(message) if s.strip()]
    matters: list[list[str]] = [[]]
    for part in said:
        if matters[-1] and _ANOTHER_MATTER.match(part):
            matters.append([])
        matters[-1].append(part)
    wanted = sentence.strip()[:40]
    for matter in matters:
        at = next((n for n, part in enumerate(matter) if wanted and wanted in part), None)
        if at is not None:
            return tone.doubted("\n".join(_of_the_matter(matter, at)))
    return tone.doubted(message)


def _of_the_matter(matter: list[str], at: int) -> list[str]:
    """The sentences of `matter` whose tone falls on its sentence `at`: not a few words first
    about the agent's last step ("nope nope nope.", "ah kill that."), nor a step of its own
    after it ("I'll message her.", "room type can wait", "why is a PR build even
    trying to push docs though?"). A groan or praise first ("ugh.", "great.") and a doubt with
    no matter of its own ("not sure yet", "park it", "maybe too much?") still fall on all of
    it."""
    told = _content_words(matter[at])
    groan_aside = _OWN_WAY.match(matter[at]) and not tone.doubted(matter[at])
    return [
        part
        for n, part in enumerate(matter)
        if n == at
        or not (
            n == 0 < at
            and (_reacts(part) or _GROAN.match(part) and (groan_aside or _gives_work(part)))
            or n > at
            # (what would change "if we ever" do something else holds the way it is now,
            # whatever words it shares: "… if we ever switch the build over we could revisit")
            and (
                _WHAT_IF_SOME_DAY.match(part) or _own_step(part) and not _content_words(part) & told
            )
        )
    ]


# A groan first ("ugh.", "ugh that test is from the template.") is at what the agent found,
# not at the person's own way told after it ("we only ship inside canada so everything is
# CAD"); told of others or of things ("ugh. every single september the requests pile up"),
# what follows is the complaint itself.
_GROAN = re.compile(r"^ugh+\b", _I)
_OWN_WAY = re.compile(
    r"^\W*(?:we|we're|our|i|i'm|im|i'd|my|keep|use|any|anything|everything|all|no|never|"
    r"always|please|pls|for|fine|honestly)\b(?!.*\bevery single\b)",
    _I,
)


# A groan that sends the agent back to work ("ugh, reword those pls.", "ugh, that file is dead
# code, delete it.") is at the agent's step: what the person tells after it is not groaned at
_BACK_TO_WORK = re.compile(
    r"\b(?:redo|reword|rewrite|delete|remove|revert|undo|fix|drop|rip|change|rename|move|"
    r"split|squash|amend)\b",
    _I,
)


def _gives_work(sentence: str) -> bool:
    return bool(_BACK_TO_WORK.search(sentence))


def _reacts(sentence: str) -> bool:
    # ("died again, different flavor:" leads in what follows; "2 lol." laughs at it)
    return (
        len(sentence.split()) <= 3
        and not sentence.endswith((":", "?"))
        and not tone.VENTED.search(sentence)
        and not tone.CASUAL.search(sentence)
        and not tone.PRAISE.match(sentence)  # ("great. another friday deploy that took prod down.")
        and not heard.THINKING.search(sentence)
    )


_CONTENT_WORD = re.compile(
    r"\b(?!(?:this|that|with|from|have|what|when|then|them|they|just|"
    r"there|their|about|would|should|could|will)\b)[a-z][a-z-]{3,}\b",
    _I,
)


def _content_words(sentence: str) -> set[str]:
    return {w.casefold() for w in _CONTENT_WORD.findall(sentence)}


_OWN_NEXT_STEP = re.compile(r"^(?:i'?ll|i will|i'm gonna|i am going to)\b", _I)
_WHAT_IF_SOME_DAY = re.compile(r"^(?:and |but |though )?if (?:we|they|i) ever\b", _I)
_PONDERED = re.compile(r"^(?:maybe|or|might|could|should|perhaps|probably)\b", _I)


def _own_step(sentence: str) -> bool:
    words = len(sentence.split())
    if sentence.endswith("?"):
        return words >= 6 and not _PONDERED.match(sentence)
    if _OWN_NEXT_STEP.match(sentence):
        return words >= 4 or bool(tone.NEXT_STEP.match(sentence))  # "I'll message her."
    if _WHAT_IF_SOME_DAY.match(sentence):
        return True  # "if we ever pick up cities in indiana we'd need per-city tz, but not now"
    if UNDECIDED.search(sentence) or DEFERRED.search(sentence):
        # ("lets not decide now" says nothing of its own: it is of what came before)
        return bool(_NAMES_ITS_MATTER.search(sentence)) and not tone.DISTANCED.search(sentence)
    return False


_NAMES_ITS_MATTER = re.compile(
    r"\b(?:whether|which)\b|\b(?!(?:that|it|this|one|decision)\b)[a-z]+ (?:can|could) wait\b",
    _I,
)
