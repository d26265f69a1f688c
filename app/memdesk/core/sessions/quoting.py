"""How a memory's text is put before a model. The person's words are given as they are; what
an agent wrote, or a teammate's machine synced here, is its claim, not the person's word, and
may be hostile: it is given on one line, in quotes (so it can start no line of its own, such
as "system: …"), with its writer. No text in a block memdesk gives a host reads as markup."""

from __future__ import annotations

import json
import re

from memdesk.core import validate

OPEN, CLOSE = "<memory-context>\n", "</memory-context>"
# The start of a tag: what a host's parser, or memdesk's own transcript reader, takes for
# markup. A memory holding "</hook_context>" closed the envelope Gemini CLI keeps the
# briefing in, and the words after it were read back at session end as the person's own.
_TAG = re.compile(r"<(?=/?[A-Za-z!?])")


def block(body: str) -> str:
    """`body` in the block every hook and context answer gives, each "<" that would start a
    tag inside it made a look-alike ("‹", one character for one: budgets stay as counted)."""
    return OPEN + _TAG.sub("\u2039", body) + CLOSE


def injected(content: str, source: str, agent: str | None, synced_from: str | None = None) -> str:
    """`synced_from`: the writer of a memory that came from someone else's machine (a
    teammate's, or one not known as the person's): their claim too, quoted and named. Names
    are shown as `validate.shown_name`: one stored before names were checked may hold
    anything."""
    if source != "agent" and synced_from is None:
        return content
    flat = json.dumps(" ".join(content.split()), ensure_ascii=False)
    if synced_from is not None:
        return f"{flat} (synced from {validate.shown_name(synced_from)})"
    return f"{flat} (written by agent {validate.shown_name(agent or 'unknown')})"
