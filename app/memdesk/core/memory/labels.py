"""An agent's labels read by the guard as its words are: other agents get a memory's tags,
project and task with it, so a label may carry neither an instruction nor a secret (a red
team's agent put a GitHub token in a tag, and "ignore previous instructions" in a project
name, and every agent read them back)."""

from __future__ import annotations

import json
from typing import Any

from memdesk.core import guard
from memdesk.core.actor import Actor
from memdesk.core.errors import ValidationError


def check(actor: Actor, fields: dict[str, Any]) -> None:
    """Refuse an agent's `tags`, `project` or `task` among `fields` that the guard flags."""
    if actor.source != "agent":
        return  # the person's own labels: theirs to choose
    for name in ("tags", "project", "task"):
        value = fields.get(name)
        if not value:
            continue
        labels = json.loads(value) if name == "tags" and isinstance(value, str) else value
        for at, label in enumerate(labels if name == "tags" else [labels]):
            if isinstance(label, str) and (found := guard.scan(label)):
                where = f"tags[{at}]" if name == "tags" else name
                raise ValidationError(
                    f"{where} {label[:60]!r} is withheld by the injection guard ({found[0]}); "
                    "a label names a topic: write what it holds as the memory's text",
                    field=name,
                )
