"""A question to the agent typed without its mark at the end ("…, what are you using for
that") and a line said against its words with an upside-down face ("… exactly what this
needs 🙃") state nothing to keep or to ask about (core/sessions/heard.py, irony.py); the one
was stored, the other proposed."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    "message",
    [
        "for the invoice export i need the week number and month names, what are you using for "
        "that",
        "because what this repo really needs is a fourth logging library 🙃 but fine, add it",
    ],
)
def test_nothing_is_heard(message):
    assert gapfill.find([message]) == []
