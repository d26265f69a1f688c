"""Where a sentence is cut into chunks a statement can stand in: dashed asides, parentheses,
semicolon clauses; and what joins a chunk back to the one before it (`clauses.read`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from memdesk.core.sessions import markers, pasted

_I = re.IGNORECASE
_ASIDES = re.compile(
    # (not a range: "01:00–05:00", "tue–sat")
    r"\s+[—–]\s+|\s+--?\s+|(?<!\d)—(?!\d)|(?<!\w)–|–(?!\w)|;\s+|\s*\(\s*|\s*\)\s*|"
    # a verdict on the work, then what holds: "naming is fine, but test files here are …"
    r"(?:(?<=\bfine)|(?<=\bgood)|(?<=\bok)|(?<=\bokay)|(?<=\bgreat)|(?<=\bcorrect)|(?<=\bright)|"
    r"(?<=\bworks)|(?<=\blgtm)),\s+but\s+"
)
# A call in code ("no unwrap() in lib code", "use pathlib.Path(...)"): its parentheses are
# not an aside.
_CALL = re.compile(r"[\w.]+!?\([^()\s]{0,40}\)")
_POINTS_BACK = re.compile(
    r"^(?:that's|that is|this is|it's|which|so\b|not\b|since\b|as\b|because\b|e\.g\.|"
    r"i\.e\.|like\b|"
    # examples in quotes of what came before: "second person — 'you run', never 'we run'"
    r"['‘\"“][^'’\"”]{1,40}['’\"”]\s*[,;]?\s*(?:(?:and|or|but|never|not|no)\b|$))",
    _I,
)
# A chunk cut off mid-clause by a dash ("lumen's task runner is just — see the justfile").
# After a semicolon, a pronoun that stands for what came before: "flaky tests are never
# deleted here; they get test.fixme and a ticket" (after a dash or a parenthesis, "it" is as
# often the task's: "(we keep them stable) it should print what would be deleted").
_GOES_ON = re.compile(r"^(?:they|it|these|those)\s+(?!(?:said|say|says|think|thinks)\b)\w", _I)
# What the person does with the thing just named: "numpydoc format — I use it for every
# docstring I write" is one statement; cut apart, the memory lost what "it" is.
_DOES_WITH_IT = re.compile(r"^(?:i|we)\s+(?:[a-z']+\s+){0,2}?(?:it|them)\b", _I)
_UNFINISHED = re.compile(r"\b(?:is|are|was|the|a|an|of|to|with|just|for|and|or|on|in)\s*$", _I)
# what names an example next, whatever cuts it off: "a tag of the form -- REQ: HLR-xxxx"
_NAMES_NEXT = re.compile(r"\b(?:of the form|such as|named|called)\s*$", _I)
# What the person wants instead, told after their taste ("I hate mocks — give me real sqlite").
_SPELLS_OUT = re.compile(
    r"^(?:(?:i|we)\s+(?:always\s+|just\s+)?)?(?:give me|use|show me|go with|stick to|keep|prefer|"
    r"just)\b",
    _I,
)
_GOES_ON_AFTER = re.compile(
    r"^(?:for|with|to|via|after|before|until|in|on|from|by|at|per|into|over|under|within)\s",
)
_PREDICATE = re.compile(
    r"^(?:has|have|is|owns|runs|maintains|handles|signs|approves|reviews|leads|manages|decides|"
    r"must|needs)\s",
)
# (a name or a role, not an aside with its own clause: "the bootstrap (we run it on …, takes
# 9 hours) is crashing")
_NAMED_BEFORE = re.compile(r"\(\s*[^()\s]+(?:\s+[^()\s]+){0,3}\s*\)\s*$")
# What is banned, then what instead: "please, no anyerror - explicit error sets"
_BARE_BAN = re.compile(r"(?:no|not|never)\s+[\w`.!()-]+", _I)
_SUBORDINATE = re.compile(r"^(?:since|because|as|given|if|when|while|whenever|unless)\b", _I)
# ("and fyi, if you ever change how we hit that server (endpoints, auth) give #apt-ops …")
_CONNECTIVES = re.compile(r"^(?:(?:oh|and|also|so|but|btw|fyi|by the way)\b[,\s]*)+", _I)
# "(trial_id, start, end, length)", "— feat:, fix:, chore: —": names listed, no clause
BARE_LIST = re.compile(r"[\w.-]+(?:\s*,\s*(?:and\s+|or\s+)?[\w.-]+)+", _I)
_LABEL_COLON = re.compile(r"[:/](?=,|$)")


def cut(sentence: str, stripped: Callable[[str], str]) -> list[str]:
    """Dashed asides, parentheses and semicolon clauses; one that points back ("that's
    the budget", "not the usual 6379", "so …") stays with the one before it, and what goes on
    after a parenthesis ("… a plugin (I always run …) so I can toggle it?") with the sentence
    around it. `stripped` is a chunk as the reader judges it, its lead-in off."""
    chunks: list[str] = []
    aside = -1  # the chunk a parenthesis just closed, when it stands alone
    start = 0
    calls = [m.span() for m in (*_CALL.finditer(sentence), *pasted.CODE_SPAN.finditer(sentence))]
    cuts = [c for c in _ASIDES.finditer(sentence) if not any(a <= c.start() < b for a, b in calls)]
    before = ""  # the cut before this chunk
    for cut in [*cuts, None]:
        chunk = sentence[start : cut.start() if cut else len(sentence)]
        start = cut.end() if cut else len(sentence)
        cut_before, before = before, cut[0] if cut else ""
        after_semicolon = ";" in cut_before
        if not chunk.strip():
            continue
        after_aside, aside = aside == len(chunks) - 1 and len(chunks) >= 2, -1
        # a short aside ("(red/green)") belongs to what it stands beside, as does what follows
        # a reason or condition told first ("Since my machine is an M2, builds target arm64")
        joins = chunks and (
            _POINTS_BACK.match(chunk.strip(" ,"))
            or after_semicolon
            and _GOES_ON.match(chunk.strip(" ,"))
            or len(chunk.split()) < 3
            # (a list in parentheses is read apart: "(var, always, eventually)" are names)
            or "(" not in cut_before
            and BARE_LIST.fullmatch(_LABEL_COLON.sub("", chunk.strip(" ,.")))
            or _DOES_WITH_IT.match(chunk.strip(" ,"))
            or _SUBORDINATE.match(_CONNECTIVES.sub("", chunks[-1].strip()))
            or _UNFINISHED.search(chunks[-1])
            or _NAMES_NEXT.search(chunks[-1])
            or markers.FIRST_PERSON.search(chunks[-1])
            and _SPELLS_OUT.match(chunk.strip(" ,"))
            or _BARE_BAN.fullmatch(stripped(chunks[-1]))
        )
        # "btw — admonitions (:::tip / :::warning) instead of bold lines please": a word or two
        # before a parenthesis go on after it
        joins = joins or after_aside and len(stripped(chunks[-2]).split()) <= 2
        said = chunk.strip()
        # "go to the canary hosts (storage-canary-1..3) for 48 hours before the fleet": the
        # clause goes on after the parenthesis (an aside of its own is still read alone)
        joins = joins or ")" in cut_before and _GOES_ON_AFTER.match(said)
        # "Marguerite Okafor (desk-tools lead) has to sign off on …", "anything that touches
        # the idoc export (Warehouse.Integration.Sap) has to go past Marta": the verb after what
        # the parenthesis named is that thing's
        joins = joins or (
            ")" in cut_before and _PREDICATE.match(said) and _NAMED_BEFORE.search(chunks[-1])
        )
        if joins and after_aside:
            chunks[-2] = f"{chunks[-2]} {said}"
        elif joins and "(" in cut_before:
            chunks[-1] = f"{chunks[-1]} ({said})"
        elif joins:
            # after a parenthesis the sentence goes on with its own words, comma or not
            glue = (
                ""
                if said.startswith(",")
                else " "
                if ")" in cut_before or _NAMES_NEXT.search(chunks[-1])
                else ", "
            )
            chunks[-1] = f"{chunks[-1]}{glue}{said}"
        else:
            chunks.append(chunk)
            if cut is not None and ")" in cut[0]:
                aside = len(chunks) - 1
    return _predicate_past_examples(chunks, stripped)


# "for anything that isn't the image being bad - file missing, permission denied, whatever -
# make it exit code 3": what is said of "anything" comes after the examples of it
_WHICHEVER = re.compile(
    r"^(?:(?:though|but|and|also|so),?\s+)?(?:for\s+)?(?:any|anything|everything|anyone|anybody|"
    r"whatever|whichever|every|each|all)\b",
    _I,
)
_EXAMPLE_WORDS = 4
_HEAD_WORDS = 12


def _predicate_past_examples(chunks: list[str], stripped: Callable[[str], str]) -> list[str]:
    out: list[str] = []
    n = 0
    while n < len(chunks):
        head = chunks[n]
        if (
            n + 2 < len(chunks)
            and _awaits_its_predicate(stripped(head))
            and _examples(chunks[n + 1])
        ):
            out.append(f"{head.rstrip()} - {chunks[n + 1].strip()} - {chunks[n + 2].lstrip()}")
            n += 3
            continue
        out.append(head)
        n += 1
    return out


def _awaits_its_predicate(chunk: str) -> bool:
    return bool(_WHICHEVER.match(chunk.strip())) and len(chunk.split()) <= _HEAD_WORDS


def _examples(chunk: str) -> bool:
    # (split, not matched: an expression for "items between commas" backtracked through every
    # way to share each item's spaces, 2^n steps on a list with an empty item at its end)
    items = chunk.strip(" ,.").split(",")
    return len(items) > 1 and all(0 < len(item.split()) <= _EXAMPLE_WORDS for item in items)
