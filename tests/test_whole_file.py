"""An export is written whole or not at all, and privately."""

from __future__ import annotations

import os
import time

import pytest

from memdesk import whole_file


def test_a_write_that_fails_leaves_the_earlier_file_and_no_hidden_copy(tmp_path):
    target = tmp_path / "memories.json"
    target.write_text("the export of last week")

    def fills_the_disk() -> None:
        with whole_file.writing(target) as out:
            out.write("half of this week's")
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        fills_the_disk()
    assert target.read_text() == "the export of last week"
    assert [p.name for p in tmp_path.iterdir()] == ["memories.json"]


def _left(folder, name, *, pid, idle_s, mode=0o600):
    left = folder / f".{name}.{pid}-0a1b2c3d.memdesk-partial"
    left.write_text("half an export")
    left.chmod(mode)
    os.utime(left, (time.time() - idle_s, time.time() - idle_s))
    return left


def test_only_copies_a_killed_writer_left_idle_are_cleared(tmp_path):
    """A red team's export in a container had its copy deleted under it (its process is none
    of this machine's), and files memdesk never writes (another user's mode) went too."""
    gone = _dead_pid()
    kept = [
        _left(tmp_path, "alive.json", pid=os.getppid(), idle_s=600),  # its writer runs
        _left(tmp_path, "elsewhere.json", pid=gone, idle_s=5),  # written to a moment ago
        _left(tmp_path, "shared.json", pid=gone, idle_s=600, mode=0o644),  # not as made here
    ]
    cleared = _left(tmp_path, "killed.json", pid=gone, idle_s=600)
    with whole_file.writing(tmp_path / "mine.json") as out:
        out.write("mine")
    assert not cleared.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*(p.name for p in kept), "mine.json"]
    )
    assert (tmp_path / "mine.json").stat().st_mode & 0o077 == 0


def _dead_pid() -> int:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    return int(done.stdout)
