"""The person stopping the work to tell something ("actually hold on, Dana owns the schema,
any migration goes past her", "actually nvm, …") states it plainly: it is stored without the
interruption (core/sessions/lead_ins.py). It was proposed as a "Correction: Hold on, …"."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    ("message", "stored"),
    [
        (
            "the export button goes in the toolbar next... actually hold on, Dana owns the "
            "toolbar, anything under src/toolbar goes through her. just leave a TODO",
            "Dana owns the toolbar, anything under src/toolbar goes through her",
        ),
        (
            "sweet, tests pass. should I tag it for the testers? actually nvm, Omar handles the "
            "releases from his machine, tools/sign.sh only works with his key. just zip the build",
            "Omar handles the releases from his machine, tools/sign.sh only works with his key",
        ),
    ],
)
def test_what_stops_the_work_is_stored_without_the_interruption(message, stored):
    kept = [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]
    assert stored in kept, gapfill.find([message])
