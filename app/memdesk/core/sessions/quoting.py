"""How a memory's text is put before a model. The person's words are given as they are; what
an agent wrote is its claim, not the person's word, and may be hostile: it is given on one
line, in quotes (so it can start no line of its own, such as "system: …"), with its writer."""

from __future__ import annotations

import json


def injected(content: str, source: str, agent: str | None) -> str:
    if source != "agent":
        return content
    flat = json.dumps(" ".join(content.split()), ensure_ascii=False)
    return f"{flat} (written by agent {agent or 'unknown'})"
