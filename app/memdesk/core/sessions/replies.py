"""What answers the agent rather than states something to keep: an answer to its question,
a pick among its options and what explains the pick, a verdict on its work, what the person's
last message meant; and what follows a message's opening one-off or change request. `heard`
reads a sentence with them, `gapfill` a message's opening."""

from __future__ import annotations

import re

from memdesk.core.sessions import pasted

_I = re.IGNORECASE

# An answer to the agent's question: "I mean the one that fails", "yes, go ahead and delete it".
# ("yeah lets go with the row lock as the standard way we book slots, anything that …"): a
# pick made for every time after this one
_NOT_FOR_ALL = (
    r"(?!.*\b(?:from now on|from here on|from here out|going forward|always|every|everything|"
    r"everywhere|anything (?:that|which)|in future|for all|by default|whenever|"
    r"that's how (?:we|i)|as (?:the|our) (?:standard|default|norm))\b)"
)
ANSWER = re.compile(
    r"^(?:sorry,? )?i mean(?:t)? (?:the|that|this|option|#?\d+)\b|"
    r"^(?:sorry,? |no,? )?i mean(?:t)? (?!it\b)[^,;]{1,40},? not\b|"
    r"^(?:thanks|thank you|thx|ty|cheers)\b[^.]{0,20}\bthat'?s (?:exactly |just )?"
    r"(?:what|how|it)\b|"
    r"^(?:(?:yes|yeah|yep|ok(?:ay)?|sure),?\s+)?go ahead\b|"
    # "the `.gitlab/ci/deploy.yml` include, yes", "I'd prefer B, the one that …", "the number
    # I gave you was in thousands"
    # "the second tab, the one called Volunteers 2024": which one was meant
    r"^(?:the )?(?:first|second|third|fourth|last|other|new|old|left|right) [\w-]+,? the one\b|"
    r",\s*(?:yes|yep|yeah|right|correct|exactly)[.!]*$|^i'?d (?:prefer|pick|take) (?-i:[A-D])\b|"
    # the verdict the agent asked for, and why: "urls are only checked at signup, so yes it's real"
    r",\s*so (?:yes|yeah|yep|no|nope|nah),?\s+(?:it|that|this|they)(?:'s|'re| is| are)\s+"
    r"[^,;]{1,40}[.!]*$|"
    r"\b(?:the|that|those) [\w ]{1,20}? i (?:gave|sent|showed|pasted) you\b|"
    # which one, said back: "Yes, the pspReference, not our merchantReference."
    r"^(?:yes|yeah|yep|yup|no|nope|right|correct),?\s+(?:the|that|this) [\w`' -]{1,30}?,\s*not "
    r"[\w`' -]{1,30}[.!]?$|"
    # the same with the yes left out, a name and no verb: "the pspReference, not our own"
    r"^(?:the|that|this) [\w`'-]+(?: (?!(?:is|are|was|were|runs?|lives?|sits?|goes|uses?|has|"
    r"have)\b)[\w`'-]+){0,2},\s*not (?:the|our|that|this|my) [\w`' -]{1,30}[.!]?$|"
    # where from, said back with no verb: "from the jump host, not my laptop"
    r"^(?:(?:no|nope|yes|yeah|yep),?\s+)?(?:from|on|in|at|via|through|over) "
    r"(?:the|my|our|this|that) [\w`'-]+(?: [\w`'-]+){0,2},"
    r"\s*not (?:from |on |in |at |via |over )?(?:the|our|my|that|this) [\w`' -]{1,30}[.!]?$|"
    # a verdict on what the agent offered: "QoS 1 is enough, we don't care about duplicates"
    r"^(?:(?:no|nope|yes|yeah|yep),?\s+)?[\w .-]{1,30}? (?:is|are) "
    r"(?:enough|plenty|sufficient)(?:[,;.!]|$)|"
    # the agent's own proposal named: "use flow control with block size 0, as in your second
    # proposal"; "the 'all environments' one"
    r"\bas (?:in|per) your (?:\w+ )?(?:proposal|option|suggestion|version|draft|idea|example)\b|"
    r"^(?:(?:yes|yeah|yep|no|ok(?:ay)?),?\s+)?the ['‘\"“][^'’\"”]{1,40}['’\"”] one\b|"
    # "go with keeping the optimistic UI", "Go with `tokio::select!`, the channel …"
    r"^(?:(?:ok(?:ay)?|alright|right|sure|yeah|yes|cool|fine),?\s+)?go with\b"
    rf"{_NOT_FOR_ALL}|"
    # a pick for what is being built: "ok lets go with a pinia store for that"
    r"^(?:(?:ok(?:ay)?|alright|right|sure|yeah|cool|fine),?\s+)?let'?s (?:go with|do|try|pick|"
    rf"use)\b{_NOT_FOR_ALL}|"
    # which one the agent asked about: "yes the sliding window one, not fixed window"
    # (not a statement with its verb: "the test db is the docker one on 5434")
    r"^(?:(?:yes|yeah|yep|no|nope|nah|ok(?:ay)?),?\s+)?(?:the|that) "
    r"(?:(?!(?:is|are|was|were)\b)[\w-]+\s+){0,4}?one\b"
    r"(?!\s+(?:is|are|runs?|has|lives?|uses?|goes)\b)|"
    # a reaction to what was shown: "I like that it doesn't touch the migrations" (not "I like
    # that you explain first", said of how the agent works)
    r"^(?:\w+,\s*)?i (?:really |do )?(?:like|love|appreciate) (?:that|how|the way) (?!you\b)|"
    # a pick among the agent's options, said as an answer: "Sure, I prefer the first approach
    # here" (a bare "I prefer the second option" is only proposed)
    r"^(?=(?:sure|ok(?:ay)?|yes|yeah|yep|fine|right|hmm+|well)\b|.*\b(?:here|for this|for now)\b)"
    r".*\b(?:prefer|like|go with|want|choose|pick|take)\b[^.;]{0,20}?\bthe (?:first|second|third|"
    r"last|latter|former|other|original) (?:approach|option|one|version|variant|idea|proposal|"
    r"suggestion|plan|draft|way)\b",
    _I,
)
# What the person's last message meant ("Sorry, that was confusing. I meant envs/prod"): it
# mends the conversation, as the message it mends was of the moment.
MEANT = re.compile(r"^(?:(?:sorry|oops|no|ah|err?m?),?\s+)*(?:i|we) meant\b", _I)
# A message that opens with a pick among the agent's options ("first one. keep the mapper in
# the repository", "The second one, with the range table. We normally …"): what follows
# explains the pick, the person's to confirm as a rule.
_PICKED = re.compile(
    r"(?:(?:yes|yeah|yep|ok(?:ay)?|no|sure|hmm+),?\s+)?(?:(?:the )?(?:first|second|third|fourth|"
    r"1st|2nd|3rd|4th|last|other|former|latter|top|bottom)(?: one| option| approach| variant|"
    r" version)?|"
    r"option (?:[a-d]|\d|one|two|three|four)|(?-i:[A-D])|[b-d]|a(?=\s*[)—–])|#?\d|"
    r"the [\w -]{1,30},\s*(?:yes|yep|yeah))"
    r"\s*(?:[.,;:!—–)]|-\s|$)",
    _I,
)
_FOR_GOOD_WORDS = (
    r"in general|generally|always|never|every|everything|from now on|going forward|"
    r"by default|in future|any time|whenever|must|our|here|style guide|lives? in|"
    r"(?:this|the) (?:repo|codebase|project|team)"
)
_FOR_GOOD = re.compile(rf"\b(?:{_FOR_GOOD_WORDS}|all|only)\b", _I)
# After "for this PR, …", "only touch the app stack" limits the same once
_FOR_GOOD_AFTER_ONCE = re.compile(rf"\b(?:{_FOR_GOOD_WORDS})\b", _I)


# A message that opens with a verdict on the agent's work ("You fixed the symptom, not the
# cause. The null comes from the parser — look upstream", "I don't love the name `Manager2`"):
# what follows is about this change.
_REVIEWED = re.compile(
    r"(?:(?:hmm+|ok(?:ay)?|so|no),?\s+)?(?:you (?:fixed|patched|changed|added|broke|missed|forgot|"
    r"removed|moved)|your [\w-]+ (?:fix|change|patch|diff|version|code|test|refactor)|"
    r"the (?:[\w.-]+ ){0,2}(?:diff|change|patch|fix|pr) (?:(?:is|looks) (?:wrong|off|broken|"
    r"not|too)|changes|touches|breaks)|"
    r"i (?:don'?t|do not) (?:love|like) the name)\b",
    _I,
)


# A message that opens with a one-off ("just this once, don't run black over the repo.
# Jonah has a big branch open …"): what follows is why, said of this once (read sets: no
# message so opened held a lasting statement).
_THIS_ONCE = re.compile(
    r"(?:(?:ok(?:ay)?|so|and|but|oh),?\s+)?(?:just\s+)?(?:this (?:time|once)\b(?!\s+of\b)|"
    r"for (?:now|today)\b|for (?:this|today'?s|the) (?:[\w-]+\s+){0,3}?only\b|"
    r"for this (?:pr|mr|branch|ticket|commit|change|release|sprint|run|week|migration|build|"
    r"batch|draft|report|test|update|demo|round|pass|iteration|attempt|patch|task|step|one)\b|"
    r"for (?:the|today'?s|tomorrow'?s) (?:[\w-]+ )?(?:demo|run|test|build|batch|export)\b)",
    _I,
)


# A message that opens with a change to make ("make the badge red and move it left. also the
# date should say '3 days ago'"): what it adds with "also" is one more item of that change.
_CHANGE_ASKED = re.compile(
    r"(?:(?:ok(?:ay)?|so|now|pls|please)\W+)?(?:make|change|move|put|bump|set|rename|swap|"
    r"switch|flip|turn|shorten|increase|decrease|raise|lower)\s",
    _I,
)
_ALSO_BEFORE = re.compile(r"\balso,?\s*$", _I)


def picked(message: str, sentence: str) -> bool:
    """Whether `sentence` explains a pick, a verdict on the agent's work or a one-off the
    message opened with, or adds one more item to the change it opened by asking for, and
    says no more: the person's to confirm as a rule ("first one. keep the mapper in the
    repository")."""
    opening = pasted.prose(message).strip()
    once = _THIS_ONCE.match(opening)
    for_good = _FOR_GOOD_AFTER_ONCE if once else _FOR_GOOD
    lasting = for_good.search(sentence) and not _HOW_PICKED.match(sentence.strip())
    opened = _PICKED.match(opening) or _REVIEWED.match(opening) or once
    # (the "also" is read as a lead-in, and left out of the sentence a finding keeps)
    at = opening.find(sentence.strip()[:40])
    one_more = _CHANGE_ASKED.match(opening) and at > 0 and _ALSO_BEFORE.search(opening[:at])
    return bool(opened or one_more) and not lasting


# "2nd one. always from the last saved token": the pick said again, no verb of its own
_HOW_PICKED = re.compile(
    r"^(?:always|never|only)\s+(?:from|in|on|at|with|via|through|by|to|for|after|before)\b"
    r"[^,.;!?]{0,40}[.!]?$",
    _I,
)
