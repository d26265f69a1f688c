"""Every method an agent can call, timed on a store of 100,000 memories with as many links
and a tenth as many past versions, from outside, through a real `memdesk serve`.

    python bench/methods.py [--count 100000] [--runs 3]

No request an agent sends may hold the server past its time limit (5 s) for the others: each
method is called `--runs` times as an agent, with the parameters an agent would send (the
person-only ones are refused fast, which is timed too), and the slowest call is printed beside
the median, with `memory.search` on plain FTS5 of the same file as the floor. The store is
built as bench/gui.py builds its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from contextlib import closing  # noqa: E402

from memdesk.api.client import Client, MemdeskError  # noqa: E402
from memdesk.api.connection import Limits  # noqa: E402
from memdesk.api.methods import METHODS  # noqa: E402
from memdesk.core import MemoryService  # noqa: E402

# Methods whose call changes what a later call sees in ways that would make the next runs
# time something else, or that end the connection: called, but last.
LAST = ("memory.purge", "memory.empty_trash", "events.subscribe", "events.unsubscribe")
SKIPPED = {"system.handover", "system.show"}  # for the window only; nothing to time


def params_for(method: str, ids: list[str], run: int) -> dict:
    """What an agent would plausibly send to `method`."""
    one, other = ids[run % len(ids)], ids[(run * 7 + 1) % len(ids)]
    session = f"bench-{run}"
    table: dict[str, dict] = {
        "system.hello": {"agent": "bench"},
        "memory.add": {"content": f"The bench deploys build {run} with pytest on staging."},
        "memory.add_many": {
            "items": [
                {"content": f"Bench note {run}-{n} about socket timeouts."} for n in range(20)
            ]
        },
        "memory.update": {"id": one, "content": f"Updated by the bench, run {run}."},
        "memory.correct": {"id": other, "content": f"Corrected by the bench, run {run}."},
        "memory.remove": {"id": ids[-1 - run]},
        "memory.restore": {"id": ids[-1 - run]},
        "memory.revert": {"id": one, "version": 1},
        "memory.purge": {"id": ids[-10 - run]},
        "memory.get": {"id": one},
        "memory.history": {"id": one},
        "memory.list": {"limit": 50},
        "memory.count": {},
        "memory.search": {"query": "deploy pytest cache", "k": 10},
        "memory.link": {"from": one, "to": other, "relation": "related"},
        "memory.unlink": {"from": one, "to": other},
        "identity.set": {"text": "Name: Ada. Prefers pytest."},
        "archive.add": {"what": f"Bench session {run} ran the checks."},
        "context.build": {"query": "how do we deploy to staging"},
        "export": {"format": "json", "project": "docs"},
        "import": {"text": "[]", "dry_run": True},
        "session.start": {"session": session, "project": "web"},
        "session.prompt": {"session": session, "prompt": "fix the socket timeout in the api"},
        "session.action": {"session": session, "tool": "Bash", "args": {"command": "npm test"}},
        "observe": {"session": session, "tool": "Bash", "args": {"command": "pytest -q"}},
        "working_memory": {"session": session},
        "session.end": {
            "session": session,
            "transcript": [{"role": "user", "content": "Always run pytest with -q here."}],
        },
        "agents.control": {"agent": "bench", "mode": "normal"},
        "proposals.decide": {"id": 1, "accept": False},
        "inbox.accept": {"keys": [f"memory:{one}"]},
        "inbox.reject": {"keys": [f"memory:{one}"]},
        "inbox.reconsider": {"keys": [f"memory:{one}"]},
        "sync.init": {"url": "/nonexistent/remote.git"},
        "sync.remove": {"name": "origin"},
        "sync.local": {"project": "web"},
        "system.restore_backup": {"name": "none"},
    }
    return table.get(method, {})


def plain_fts(db: Path, runs: int) -> float:
    with closing(sqlite3.connect(db)) as connection:
        took = []
        for _ in range(runs):
            started = time.perf_counter()
            connection.execute(
                "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT 10",
                ('"deploy" OR "pytest" OR "cache"',),
            ).fetchall()
            took.append(time.perf_counter() - started)
    return statistics.median(took) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from bench.gui import fill  # the same store as the window's bench

    with tempfile.TemporaryDirectory(prefix="md-methods-") as folder:
        db, sock = Path(folder) / "methods.db", os.path.join(folder, "s")
        service = MemoryService.open(db)
        built = fill(service, args.count)
        ids = [m["id"] for m in service.list_memories(limit=200)]
        service.close()
        print(f"store: {args.count:,} memories and as many links, built in {built:.0f} s")
        server = subprocess.Popen(
            [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        server.stdout.readline()
        rows = []
        order = sorted((m.name for m in METHODS if m.name not in SKIPPED), key=lambda n: n in LAST)
        with Client(socket_path=sock, agent="bench", timeout=120) as agent:
            for method in order:
                took, refused = [], ""
                for run in range(args.runs):
                    started = time.perf_counter()
                    try:
                        agent.call(method, **params_for(method, ids, run))
                    except MemdeskError as exc:
                        refused = exc.message[:60]
                    took.append((time.perf_counter() - started) * 1000)
                rows.append((max(took), statistics.median(took), method, refused))
        server.terminate()
        server.wait(30)
        floor = plain_fts(db, 20)
    limit = Limits().request_seconds * 1000
    print(f"{'method':<24} {'median ms':>10} {'slowest ms':>11}  (refused: why)")
    for slowest, median, method, refused in sorted(rows, reverse=True):
        mark = "  OVER THE LIMIT" if slowest > limit else ""
        print(f"{method:<24} {median:>10.1f} {slowest:>11.1f}{mark}  {refused}")
    print(f"plain FTS5 search on the same file: {floor:.1f} ms median")
    print(f"calls over {limit / 1000:g} s: {sum(r[0] > limit for r in rows)} of {len(rows)}")
    return 1 if any(r[0] > limit for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
