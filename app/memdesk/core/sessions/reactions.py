"""A reaction to what the agent just showed ("exactly how I like it", "ok unlimited by
default, wild", "oh nice, that's the shape I like for these"): said of the thing at hand, not
a taste to keep. A lasting taste names its object ("I like short answers")."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# A taste whose object is what is at hand: the verb ends its clause, its object being the
# thing just shown ("exactly how I like it", "the kind of fix I like", "I like it very much").
# A lasting taste names its object ("I like short answers"), or points back to the way just
# told ("pros/cons lists, that's how I like it").
TASTE_FOR_THIS = re.compile(
    r"(?:\b(?:exactly|just|precisely|very much|totally) (?:how|what|the (?:kind|sort|type|style|"
    r"way)(?: of \w+(?: \w+)?)?)|\bthe (?:kind|sort|type|style) of \w+(?: \w+)?)\s+(?:that\s+)?"
    r"(?:i|we)\s+(?:\w+\s+){0,2}?(?:like|love|prefer|want(?:ed)?|enjoy|had in mind)"
    r"(?:\s+(?:it|them|this|that|to see|to read)(?:\s+\w+)?)?\s*(?:[.!,;)\u2600-\U0001faff]|$)|"
    r"(?<!how )\bi (?:really |just |very much |quite )?(?:like|love|prefer) (?:it|this|that)"
    r"(?: (?:very much|a lot|so much|better))?\s*(?:[.!,;)]|$)",
    _I,
)
# What the agent just found, and the person's surprise at it: "ok unlimited by default, wild"
REACTED = re.compile(
    # a verdict on what the agent found: "30k I can live with but make that a left join"
    r"\b(?:i|we) can live with\b|"
    r"^[^.;:!?]{1,60},\s+(?:wild|crazy|nuts|insane|wow|lol|huh|yikes|oof|wtf|fun|weird|"
    r"interesting|bizarre|amazing|go figure)\W*$|"
    # a saying about the moment: "always a good day when we get to delete code"
    r"^(?:(?:it's|its|it is)\s+)?always (?:a )?(?:good|great|nice|fun|happy|satisfying) "
    r"(?:day|feeling|sign|thing|moment) when\b",
    _I,
)
# Delight at what was just shown, told with a taste: "oh nice, that's exactly the shape I like
# for these", "wow ok, this is clean, I prefer it like this". (Not a taste pointing back to a
# way just told: "…, that's how I want all SQL written" does not start the sentence.)
LIKED_AT_HAND = re.compile(
    r"^\W*(?:(?:wow|nice|perfect|great|cool|neat|oh|ooh|ha|haha|omg|yes|yep|yeah|ok|okay|sweet|"
    r"super|awesome|clean|beautiful|ah|parfait|lovely|brilliant|excellent|very good|good|yes+|"
    # a cheer drawn out: "niiice", "oooh", "yesss"
    r"ni+ce+|wo+w+|o+h+|coo+l+|swee+t+|ye+s+|ya+y+)"
    r"\W+)*"
    # what was shown, named before the verdict: "oh nice, erase-verify-write-verify, that's …",
    # "ooh yes, that reads so much better, that's the style I prefer"
    r"(?:(?<=\W)[\w-]+(?: [\w-]+){0,5},\s+)?(?:that's|that is|thats|this is|it's|this looks|"
    # (not a liking spelt out after it: "exactly how I like fixtures: one factory per model")
    r"that looks|exactly(?![^.!?]*:))\b[^;:!?]{0,40}?\b(?:how |what |the (?:[\w-]+ ){1,6}?)"
    r"(?:that )?i "
    r"(?:always |really )?(?:like|love|want|wanted|prefer|hope|hoped|pictured|imagined)\b|"
    r"\bi (?:prefer|like|love) (?:it|this|that) (?:like this|here|better)\b|"
    r"\bthat'?s (?:exactly )?what (?:i|we) (?:like|love|want|wanted) to see\b|"
    # after a cheer, not after the way it points back to ("…, that's how I like it")
    r"[!\u2600-\U0001faff]\s*that'?s (?:exactly )?how i (?:like|want|prefer) it[.!]*\s*$|"
    # a cheer, what was shown, the verdict: "oh nice, sticky header and the bar-in-cell
    # thing, exactly how I like a table to look 👌"
    r"^\W*(?:wow|nice|perfect|great|cool|neat|oh|yes|yep|yeah|sweet|awesome|lovely|"
    r"brilliant)\W[^.;:!?]{0,80}?,\s+(?:that'?s |that is )?(?:exactly|just|precisely) "
    r"(?:how|what|the way) "
    r"(?:i|we) (?:like|love|want|prefer)\b|"
    # the verdict as a sentence of its own, pointing back at what was shown, unless it goes on
    # to say what that is: "much cleaner. exactly how i like the meta maps"
    r"^\W*(?:exactly|just|precisely) (?:how|what|the way) (?:i|we) (?:always |really )?"
    r"(?:like|love|want|wanted|prefer|pictured|imagined|envisioned|had in mind)\b"
    r"(?![^:—–]*[:—–]\s*\w)",
    _I,
)
