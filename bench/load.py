"""Load bench: many agents at once on one `memdesk serve`, mixed operations, from outside.

    python -m bench.load [--clients 32] [--ops 2000] [--memories 20000]   (from the repo root)

Each client is a raw JSON-RPC connection on its own thread doing a mix of memory.add (40%),
memory.search (30%), memory.get (10%), memory.update (10%), memory.list (5%) and
context.build (5%). Prints, per operation, count and p50/p99 as the client saw it, then every
error reply by code (busy, locked, internal) and how many acknowledged adds and updates are
missing from the file at the end (lost).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `bench.rawrpc` from anywhere

import argparse
import collections
import random
import sqlite3
import statistics
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

from bench.rawrpc import Raw, RpcFailure, Server

WORDS = [f"w{n}" for n in range(3000)]
MIX = [
    ("memory.add", 40),
    ("memory.search", 30),
    ("memory.get", 10),
    ("memory.update", 10),
    ("memory.list", 5),
    ("context.build", 5),
]


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choices(WORDS, k=n))


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.took: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: collections.Counter[str] = collections.Counter()
        self.acked: dict[str, str] = {}


def _client(sock: str, number: int, ops: int, seed_ids: list[str], tally: Tally) -> None:
    rng = random.Random(number)
    raw = Raw(sock, f"agent-{number}")
    mine: list[str] = []
    names, weights = zip(*MIX, strict=True)
    took, errors = collections.defaultdict(list), collections.Counter()
    acked: dict[str, str] = {}
    try:
        for n in range(ops):
            method = rng.choices(names, weights)[0]
            if method == "memory.add":
                params = {"content": f"a{number}n{n} {_text(rng, 12)}", "project": f"p{number % 8}"}
            elif method == "memory.update" and mine:
                params = {"id": rng.choice(mine), "content": f"u{number}n{n} {_text(rng, 12)}"}
            elif method in ("memory.get", "memory.update"):
                method, params = "memory.get", {"id": rng.choice(mine or seed_ids)}
            elif method == "memory.list":
                params = {"project": f"p{rng.randrange(8)}", "limit": 20}
            else:
                params = {"query": _text(rng, 3)}
            started = time.perf_counter()
            try:
                result = raw.call(method, **params)
            except RpcFailure as exc:
                errors[f"{method} {exc.code}"] += 1
                continue
            took[method].append((time.perf_counter() - started) * 1000)
            if method == "memory.add":
                mine.append(result["id"])
                acked[result["id"]] = params["content"]
            elif method == "memory.update":
                acked[params["id"]] = params["content"]
    finally:
        raw.close()
    with tally.lock:
        for method, values in took.items():
            tally.took[method].extend(values)
        tally.errors.update(errors)
        tally.acked.update(acked)


def _seed(sock: str, memories: int) -> list[str]:
    rng = random.Random(0)
    raw = Raw(sock, "seeder", role="user")
    ids: list[str] = []
    try:
        for start in range(0, memories, 1000):
            items = [
                {"content": _text(rng, 15), "project": f"p{i % 8}"}
                for i in range(start, min(memories, start + 1000))
            ]
            ids.extend(raw.call("memory.add_many", items=items, dedup=False))
    finally:
        raw.close()
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--ops", type=int, default=2000, help="operations per client")
    parser.add_argument("--memories", type=int, default=20_000, help="seeded before the run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mdl-", dir=Path.home()) as folder:
        db, sock = Path(folder) / "load.db", str(Path(folder) / "s.sock")
        server = Server(db, sock)
        seed_ids = _seed(sock, args.memories)
        tally = Tally()
        threads = [
            threading.Thread(target=_client, args=(sock, n, args.ops, seed_ids, tally))
            for n in range(args.clients)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        server.stop()
        with closing(sqlite3.connect(db)) as conn:
            stored = dict(conn.execute("SELECT uuid, content FROM memory"))
    lost = sum(stored.get(i) != content for i, content in tally.acked.items())
    total = sum(len(v) for v in tally.took.values())
    print(
        f"{args.clients} clients x {args.ops} ops on {args.memories:,} seeded memories: "
        f"{total:,} answered in {elapsed:.1f} s ({total / elapsed:,.0f} ops/s)"
    )
    print("| operation | n | p50 ms | p99 ms |")
    print("|---|---|---|---|")
    for method, values in sorted(tally.took.items()):
        values.sort()
        p99 = values[int(len(values) * 0.99) - 1]
        print(f"| {method} | {len(values):,} | {statistics.median(values):.2f} | {p99:.2f} |")
    print(f"error replies: {dict(tally.errors) or 'none'}")
    print(f"acknowledged adds/updates: {len(tally.acked):,}; lost or wrong: {lost}")


if __name__ == "__main__":
    main()
