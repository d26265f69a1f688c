"""Sync at scale: the first push of a large store, the first pull on a second machine, an
incremental sync of 100 changes each way, and a sync with nothing to do — beside plain git
doing the same file work in the same run: committing and pushing the files from a work tree
(a first push), `git clone` of the repository (a first pull), and `git fetch` + `git status`
after a Python start (a sync with nothing to do, which the person runs as `memdesk sync`).

    python bench/sync.py [--memories 20000] [--changes 100]

Targets (issue #34): first pull <= 3x clone, nothing to do <= 5x fetch + Python start.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import random
import resource
import sqlite3
import statistics
import subprocess
import tempfile
import time
from typing import TYPE_CHECKING

# Imported in main(), not here: the guard's workers for a first pull import this file again
# (the window's and the CLI's import memdesk's small entry point).
if TYPE_CHECKING:
    from memdesk.core import MemoryService

BATCH = 5000
_RNG = random.Random(0)
WORDS = [
    "".join(_RNG.choice("bcdfghjklmnprstvz") + _RNG.choice("aeiou") for _ in range(3))
    for _ in range(5000)
]


def fill(service: MemoryService, count: int) -> None:
    """`count` memories and as many links between random pairs of them (files list a memory's
    links: a store without links hid what taking them costs)."""
    rng = random.Random(5)
    for first in range(0, count, BATCH):
        items = [
            {
                "content": " ".join(rng.choices(WORDS, k=rng.randint(6, 30))) + f" (note {n})",
                "tags": rng.sample(WORDS[:40], 2),
                "project": rng.choice(["web", "api", "infra", "docs", None]),
                "layer": "L2" if n % 10 == 0 else "L1",
            }
            for n in range(first, min(first + BATCH, count))
        ]
        service.add_many(items, dedup=False)
    connection = sqlite3.connect(service.path)
    with connection:  # straight into the file: the service links one pair per call
        connection.executemany(
            "INSERT OR IGNORE INTO link (src_id, dst_id, relation, created_at) "
            "VALUES (?, ?, 'related', '2026-01-01T00:00:00Z')",
            [(rng.randint(1, count), rng.randint(1, count)) for _ in range(count)],
        )
    connection.close()


def timed(label: str, action):
    started = time.perf_counter()
    result = action()
    took = time.perf_counter() - started
    print(f"{label:<44}{took:>8.2f} s")
    return result


def raw_git(remote: Path, folder: Path) -> None:
    """The same files through plain git: checkout-free copy, add, commit, push."""
    work, bare = folder / "raw-work", folder / "raw.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    archive = subprocess.run(
        ["git", "--git-dir", str(remote), "archive", "main"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
    git = ["git", "-C", str(work), "-c", "user.name=b", "-c", "user.email=b@b"]

    def commit_and_push() -> None:
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "all"], check=True)
        subprocess.run([*git, "push", "-q", str(bare), "HEAD:refs/heads/main"], check=True)

    timed("baseline: raw git add + commit + push", commit_and_push)


def clone_and_fetch(remote: Path, folder: Path) -> tuple[float, float, float]:
    """Plain git's first pull (`git clone`), its sync with nothing to do (`git fetch` +
    `git status` in the clone, after a Python start as a CLI has), and clone's peak RSS."""
    clones = []
    for n in range(3):  # one clone alone varied 0.9-7.4 s on a busy machine
        clone = folder / f"plain-clone-{n}"
        started = time.perf_counter()
        subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True)
        clones.append(time.perf_counter() - started)
    cloned = statistics.median(clones)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    subprocess.run(["git", "-C", str(clone), "fetch", "-q"], check=True)
    subprocess.run(["git", "-C", str(clone), "status", "-s"], check=True, capture_output=True)
    fetched = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return cloned, fetched, rss


def cli_sync(db: Path) -> float:
    """`memdesk sync` as the person types it: a process of its own, no window or serve."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(db), "sync"], check=True, capture_output=True
    )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--changes", type=int, default=100)
    args = parser.parse_args()
    from memdesk.core import MemoryService

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        remote = folder / "remote.git"
        a = MemoryService.open(folder / "a.db")
        timed(f"fill machine a with {args.memories:,} memories", lambda: fill(a, args.memories))
        a.sync_init(str(remote))
        result = timed("a: first push", a.sync)["remotes"][0]
        print(f"  sent {result['sent']:,}")
        rss_after_push = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        ids = [m["id"] for m in a.list_memories(limit=args.changes, order="created_at")]
        a.close()
        raw_git(remote, folder)

        cloned, fetched, clone_rss = clone_and_fetch(remote, folder)
        b = MemoryService.open(folder / "b.db")
        b.sync_init(str(remote))
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        started = time.perf_counter()
        result = b.sync()["remotes"][0]
        pulled = time.perf_counter() - started
        pull_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{'b: first pull':<44}{pulled:>8.2f} s  (took {result['taken']:,})")
        print(
            f"{'  baseline: git clone (median of 3)':<44}{cloned:>8.2f} s  -> "
            f"{pulled / cloned:.1f}x (<= 3x)"
        )
        print(
            f"  peak RSS: this process {pull_rss:,.0f} MB (before the pull {before:,.0f} MB); "
            f"git clone {clone_rss:,.0f} MB"
        )
        timed("b: sync with nothing to do (in process)", b.sync)
        b.close()
        c = MemoryService.open(folder / "c.db")
        c.sync_init(str(remote))
        c.close()
        first = cli_sync(folder / "c.db")
        print(f"{'c: first pull as `memdesk sync`':<44}{first:>8.2f} s  -> {first / cloned:.1f}x")
        idle = cli_sync(folder / "b.db")
        print(f"{'b: `memdesk sync` with nothing to do':<44}{idle:>8.2f} s")
        print(
            f"{'  baseline: Python start + git fetch + status':<44}{fetched:>8.2f} s  -> "
            f"{idle / fetched:.1f}x (<= 5x)"
        )

        a = MemoryService.open(folder / "a.db")
        edits, adds = ids[: args.changes * 6 // 10], args.changes * 3 // 10
        removes = ids[len(edits) : len(edits) + args.changes - len(edits) - adds]
        for memory_id in edits:
            a.update(memory_id, content=f"changed on a: {memory_id}")
        a.add_many([{"content": f"new on a {n}"} for n in range(adds)], dedup=False)
        a.remove_many(removes)
        result = timed(f"a: incremental push of {args.changes} changes", a.sync)["remotes"][0]
        print(f"  sent {result['sent']:,}")
        a.close()

        b = MemoryService.open(folder / "b.db")
        result = timed(f"b: incremental pull of {args.changes} changes", b.sync)["remotes"][0]
        print(f"  took {result['taken']:,}")
        timed("b: sync with nothing to do", b.sync)
        b.close()
        size = subprocess.run(
            ["du", "-sh", str(remote)], capture_output=True, text=True, check=True
        ).stdout.split()[0]
        print(f"remote repository size: {size}")
        print(f"peak RSS after a's first push: {rss_after_push:,.0f} MB")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS overall: {peak:,.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
