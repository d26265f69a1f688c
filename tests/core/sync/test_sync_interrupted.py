"""A sync killed at any moment (kill -9, mid-pull or mid-push) loses nothing: the next sync
finishes the job and both machines end up the same."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from memdesk.core.sync import git

MEMORIES = 300
# Where the sync process kills itself with SIGKILL: mid-write of what came in (its memories
# written, their links not yet, nothing committed), before the commit, before the push,
# before the base moves.
KILL_POINTS = {
    "mid-write": ("memdesk.core.sync.writing", "SyncWrites", "_take_links"),
    "before-commit": ("memdesk.core.sync.git", "Mirror", "commit"),
    "before-push": ("memdesk.core.sync.git", "Mirror", "push"),
    "before-base": ("memdesk.core.sync.git", "Mirror", "set_base"),
}
_KILLER = """
import importlib, os, signal, sys
module, owner, name, after = sys.argv[1:5]
owner = importlib.import_module(module) if owner == "-" else getattr(
    importlib.import_module(module), owner
)
original, calls = getattr(owner, name), []
def killing(*args, **kwargs):
    calls.append(1)
    if len(calls) > int(after):
        os.kill(os.getpid(), signal.SIGKILL)
    return original(*args, **kwargs)
setattr(owner, name, killing)
from memdesk.cli import main
main(["sync", "--db", sys.argv[5]])
"""


def _sync_killed_at(db, point: str) -> None:
    module, owner, name = KILL_POINTS[point]
    after = "0"
    done = subprocess.run(
        [sys.executable, "-c", _KILLER, module, owner, name, after, str(db)],
        capture_output=True,
        env={**os.environ, "MEMDESK_SOCKET": str(db) + ".no-socket"},
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()


@pytest.mark.parametrize("point", ["before-commit", "before-push", "before-base", "mid-write"])
def test_a_sync_killed_midway_loses_nothing(machines, point):
    items = [{"content": f"Fact number {n} about the build."} for n in range(MEMORIES)]
    machines.run("a", lambda s: s.add_many(items, dedup=False))
    machines.init("a", "b")
    machines.sync("a")
    edited = sorted(machines.shared("a"))[:10]
    for memory_id in edited:
        machines.run("a", lambda s, m=memory_id: s.update(m, content=f"Edited {m}."))
    if point != "mid-write":  # a push killed at this point
        _sync_killed_at(machines.root / "a.db", point)
    machines.sync("a")
    _sync_killed_at(machines.root / "b.db", "mid-write")  # and b's first pull, midway
    machines.sync("b")
    a, b = machines.shared("a"), machines.shared("b")
    assert len(a) == MEMORIES
    assert all(a[m]["content"] == f"Edited {m}." for m in edited)
    assert a == b
    assert [r["sent"] + r["taken"] for r in machines.sync("a", "b")] == [0, 0]


def test_a_push_refused_because_another_machine_pushed_first_is_merged_again(machines, monkeypatch):
    machines.run("a", lambda s: s.add("Laptop: the printer is on floor 2."))
    machines.run("b", lambda s: s.add("Desktop: lunch is at noon."))
    machines.init("a", "b")
    pushed = git.Mirror.push
    calls = []

    def b_pushes_first(mirror, commit):
        if not calls:  # while a merges, b syncs in another process
            subprocess.run(
                [sys.executable, "-m", "memdesk", "sync", "--db", str(machines.root / "b.db")],
                check=True,
                capture_output=True,
                env={**os.environ, "MEMDESK_SOCKET": str(machines.root / "none")},
            )
        calls.append(commit)
        pushed(mirror, commit)

    monkeypatch.setattr(git.Mirror, "push", b_pushes_first)
    result = machines.sync("a")[0]
    assert len(calls) == 2  # refused once, then merged again and pushed
    assert result["taken"] == 1
    monkeypatch.undo()
    machines.sync("b")
    assert machines.shared("a") == machines.shared("b")
    assert len(machines.shared("a")) == 2
