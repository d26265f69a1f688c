"""`memdesk serve` killed with SIGKILL under write load: nothing acknowledged is lost.

A few rounds here; `python -m bench.crash --rounds N` runs the same loop for longer.
"""

from __future__ import annotations

from bench import crash


def test_no_acknowledged_write_is_lost_across_kill_9_rounds():
    outcome = crash.run(rounds=3, writers=3, seed=7)
    assert outcome.acknowledged > 100  # the loop really wrote under load
    assert outcome.lost == []
    assert outcome.wrong == []
    assert outcome.unsearchable == []
    assert outcome.problems == []
    assert outcome.errors == []
