"""What no one waits on gives the processor to what the person does: agents' requests and the
person's long calls run below the server's own thread, which answers the person."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from memdesk.api.lanes import Lanes
from memdesk.core.giving_way import NICENESS

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="only Linux gives each thread its priority"
)


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_agents_and_long_calls_run_below_the_thread_that_answers_the_person(service):
    lanes = Lanes(service)
    here = _niceness()
    try:
        agents = lanes.agents(_niceness).result(10)
        persons = lanes.persons(_niceness).result(10)
    finally:
        lanes.shutdown()
    lowered = min(here + NICENESS, 19)  # Linux's lowest
    assert (agents, persons) == (lowered, lowered)
    assert _niceness() == here  # the caller's own thread is left as it was
