"""Socket API bench: a headless server on 100,000 synthetic memories, measured from clients.

    python bench/socket.py [--memories 100000] [--searches 2000]

Starts `memdesk serve` on a temporary database, then measures from separate client processes:
memory.search k=10 p50/p99 (1 client, and 8 at once), memory.add p50, memory.add_many rate.
Targets (issue 4): search p50 <= 2 ms, p99 <= 10 ms; add p50 <= 2 ms; add_many >= 5,000/s.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name would shadow the
# standard library's `socket` module (imported by multiprocessing and the client).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import argparse  # noqa: E402
import itertools  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from memdesk.api.client import Client  # noqa: E402

# A Zipf-like vocabulary of 20,000 made-up words: a few are frequent, most are rare, as in
# real notes (a tiny vocabulary would make every query match every memory).
_RNG = random.Random(0)
VOCABULARY = [
    "".join(
        _RNG.choice("bcdfghjklmnprstvz") + _RNG.choice("aeiou") for _ in range(_RNG.randint(2, 4))
    )
    for _ in range(20_000)
]
# Cumulative weights computed once: passing plain weights makes every draw rebuild them, and
# the clients then spend more CPU than the server they measure.
_CUMULATIVE = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(VOCABULARY))))
_QUERY_CUMULATIVE = list(
    itertools.accumulate(1 / (rank + 1) for rank in range(50, len(VOCABULARY)))
)


def words(rng: random.Random, count: int) -> list[str]:
    return rng.choices(VOCABULARY, cum_weights=_CUMULATIVE, k=count)


def query_words(rng: random.Random, count: int) -> list[str]:
    """Query terms skip the 50 most frequent words, as stopwords are of little use in a query."""
    return rng.choices(VOCABULARY[50:], cum_weights=_QUERY_CUMULATIVE, k=count)


def sentence(rng: random.Random) -> str:
    return " ".join(words(rng, rng.randint(8, 20)))


def fill(sock: str, count: int) -> None:
    rng = random.Random(1)
    with Client(socket_path=sock, timeout=600) as client:
        for start in range(0, count, 5000):
            items = [{"content": sentence(rng)} for _ in range(min(5000, count - start))]
            client.add_many(items, dedup=False)


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def search_worker(args: tuple[str, int, int]) -> list[float]:
    sock, n, seed = args
    rng = random.Random(seed)
    times = []
    with Client(socket_path=sock, agent=f"bench-{seed}") as client:
        for _ in range(n):
            query = " ".join(query_words(rng, 3))
            started = time.perf_counter()
            client.search(query, k=10)
            times.append((time.perf_counter() - started) * 1000)
    return times


def plain_floor(db: Path, n: int, seed: int) -> list[float]:
    """The same queries as plain FTS5 bm25 on the same file, in-process (no socket, no join,
    no fusion): the floor the engine is compared with."""
    rng = random.Random(seed)
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    times = []
    for _ in range(n):
        query = " OR ".join(f'"{w}"' for w in query_words(rng, 3))
        started = time.perf_counter()
        connection.execute(
            "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? "
            "ORDER BY bm25(memory_fts) LIMIT 10",
            (query,),
        ).fetchall()
        times.append((time.perf_counter() - started) * 1000)
    connection.close()
    return times


def ping_worker(sock: str) -> None:
    with Client(socket_path=sock) as client:
        client.ping()
    time.sleep(0.5)  # keeps this worker busy so that each of the eight gets one ping


def add_worker(args: tuple[str, int]) -> list[float]:
    sock, n = args
    rng = random.Random(7)
    times = []
    with Client(socket_path=sock, agent="bench-add") as client:
        for _ in range(n):
            started = time.perf_counter()
            client.add(sentence(rng))
            times.append((time.perf_counter() - started) * 1000)
    return times


def add_many_rate(sock: str, batches: int = 5, size: int = 2000) -> float:
    rng = random.Random(9)
    ready = [[{"content": sentence(rng)} for _ in range(size)] for _ in range(batches)]
    with Client(socket_path=sock, agent="bench-many", timeout=600) as client:
        started = time.perf_counter()
        for items in ready:
            client.add_many(items, dedup=False)
        return batches * size / (time.perf_counter() - started)


def report(name: str, times: list[float]) -> None:
    print(
        f"{name:32} p50 {statistics.median(times):6.2f} ms   "
        f"p99 {percentile(times, 0.99):6.2f} ms   n={len(times)}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--searches", type=int, default=1000)
    parser.add_argument("--adds", type=int, default=1000)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mdb-") as tmp:
        db, sock = Path(tmp) / "bench.db", str(Path(tmp) / "s.sock")
        server = subprocess.Popen(
            [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            print(server.stdout.readline().strip(), flush=True)
            started = time.perf_counter()
            fill(sock, opts.memories)
            print(
                f"filled {opts.memories:,} memories in {time.perf_counter() - started:.1f} s",
                flush=True,
            )
            n = opts.searches
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(8) as pool:
                # Every worker started and connected once before timing: eight interpreters
                # starting up would otherwise share the CPU with the first measured searches.
                pool.map(ping_worker, [sock] * 8, chunksize=1)
                engine = pool.map(search_worker, [(sock, n, 1)])[0]
                report("memory.search k=10, 1 client", engine)
                floor = plain_floor(db, n, 1)
                report("plain FTS5 bm25, same queries", floor)
                print(
                    f"{'ratio engine / plain (p50)':32} "
                    f"{statistics.median(engine) / statistics.median(floor):.2f}x",
                    flush=True,
                )
                jobs = [(sock, max(1, n // 4), seed) for seed in range(8)]
                report("memory.search k=10, 8 clients", sum(pool.map(search_worker, jobs), []))
                report("memory.add (dedup on)", pool.map(add_worker, [(sock, opts.adds)])[0])
            print(f"{'memory.add_many (dedup off)':32} {add_many_rate(sock):,.0f} memories/s")
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
