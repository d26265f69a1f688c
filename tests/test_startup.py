"""What a `memdesk` command pays for at start: what reads a session's statements compiles
~0.6 s of patterns, and only a session end needs it (a served service loads it at start, on a
thread of its own, `MemoryService.serving`)."""

from __future__ import annotations

import subprocess
import sys

_LOADED = "import sys, {module}; print('memdesk.core.sessions.gapfill' in sys.modules)"


def _loads_the_reader(module: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip() == "True"


def test_the_memdesk_command_does_not_load_what_reads_a_session_end() -> None:
    assert not _loads_the_reader("memdesk.cli")


def test_a_session_end_loads_it_when_it_is_needed() -> None:
    assert _loads_the_reader("memdesk.core.sessions.ending; memdesk.core.sessions.ending.hearing()")


_SERVED = """
import sys, tempfile, time
from pathlib import Path
from memdesk.core import MemoryService
with tempfile.TemporaryDirectory() as folder:
    memories = MemoryService.open(Path(folder) / "m.db")
    with memories.serving():
        waited = time.monotonic() + 20
        while "memdesk.core.sessions.gapfill" not in sys.modules and time.monotonic() < waited:
            time.sleep(0.05)
    memories.close()
print("memdesk.core.sessions.gapfill" in sys.modules)
"""


def test_a_serving_service_loads_it_at_start() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SERVED], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "True", done.stderr
