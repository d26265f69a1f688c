"""A message that sets the agent right: how things are, told after the word that mends what
the agent took them to be ("not randf. nothing in gameplay calls randi() directly, it all goes
through the run_rng autoload"). What the clause reader proposes only for want of a tie is the
person's to keep there; the mending itself and what it says of the work at hand are not."""

from __future__ import annotations

import re

from memdesk.core.sessions import pasted

_I = re.IGNORECASE

# "no, …", "wait, gin?", "24?? no.", "not randf.", "stop, not kamal deploy directly."
_SETS_RIGHT = re.compile(
    r"^(?:(?:ugh|hm+|ah|oh|eh)\W+)?(?:(?:no|nope|nah|wait|stop|wrong)\b|not (?:quite|like "
    r"that|[\w.()-]+[.!])|that'?s (?:not right|wrong)|[\w.()-]+\?\?)",
    _I,
)
# what the agent did ("ah you added a labels list to …") or a guess at a size ("full run is
# like 20 mins"): said of the work at hand, not how things are
_OF_THE_WORK = re.compile(
    r"^(?:[\w/.]+,?\s+){0,3}you (?:\w+ed|wrote|put|made|did|took|set|left|broke|built|ran)\b|"
    r"\b(?:like|about|around|roughly|~)\s*\d",
    _I,
)


def sets_the_agent_right(message: str) -> bool:
    return bool(_SETS_RIGHT.match(pasted.prose(message).strip()))


def told_to_mend(said: str, sentence: str, first_sentence: str) -> bool:
    """Whether `said` (of `sentence`) tells how things are after the mending word, which
    opens the message's `first_sentence` (the mending itself is about the work: "nope,
    that's not thread-safe")."""
    return sentence != first_sentence and not _OF_THE_WORK.search(said)
