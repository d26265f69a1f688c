"""What a `memdesk` command pays for at start: what reads a session's statements compiles
~0.6 s of patterns, and only a session end needs it (a server loads it before it listens,
`MemoryService.warm_up`)."""

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


def test_warming_the_service_up_loads_it() -> None:
    assert _loads_the_reader(
        "tempfile, pathlib, memdesk.core; memdesk.core.MemoryService.open("
        "pathlib.Path(tempfile.mkdtemp()) / 'm.db').warm_up()"
    )
