"""Agents calling `stats` in a loop while another agent searches: how long that agent waits.

    python bench/stats_flood.py [--memories 20000] [--searches 200]

Starts `memdesk serve` on a store of `--memories` memories with as many links and tags, then
for 0, 1 and 5 clients looping `stats` (each under its own agent name, as a hostile agent
would) times `--searches` searches of one more agent. Prints one `stats` call's time and the
searcher's p50 / p95 / highest for each. A red team saw p50 rise 7-33x (issue #33 item 4).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from memdesk.api.client import Client  # noqa: E402

WORDS = [f"w{n}" for n in range(5000)] + ["deploy", "staging", "keys"]


def seed(db: Path, memories: int) -> None:
    from memdesk.core import MemoryService

    rng = random.Random(0)
    service = MemoryService.open(db)
    for start in range(0, memories, 5000):
        service.add_many(
            [
                {"content": " ".join(rng.choices(WORDS, k=14)), "tags": rng.sample(WORDS[:60], 2)}
                for _ in range(min(5000, memories - start))
            ],
            dedup=False,
        )
    service.close()
    with sqlite3.connect(db) as connection:  # as many links as memories, as a year's store
        connection.executemany(
            "INSERT OR IGNORE INTO link (src_id, dst_id, relation, created_at) "
            "VALUES (?, ?, 'related', '2026-01-01T00:00:00.000Z')",
            [(rng.randint(1, memories), rng.randint(1, memories)) for _ in range(memories)],
        )


def searcher_waits(sock: str, loopers: int, searches: int) -> list[float]:
    stop = threading.Event()

    def loop(n: int) -> None:
        with Client(socket_path=sock, agent=f"stats-looper-{n}", timeout=120) as client:
            while not stop.is_set():
                client.call("stats")

    threads = [threading.Thread(target=loop, args=(n,)) for n in range(loopers)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # every looper is in its loop
    took = []
    rng = random.Random(1)
    with Client(socket_path=sock, agent="searcher", timeout=120) as client:
        for _ in range(searches):
            start = time.perf_counter()
            client.search(" ".join(rng.sample(WORDS, 2)), k=5)
            took.append(time.perf_counter() - start)
    stop.set()
    for thread in threads:
        thread.join()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--searches", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="md-stats-") as folder:
        db, sock = Path(folder) / "m.db", os.path.join(folder, "s")
        seed(db, args.memories)
        server = subprocess.Popen(
            [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock],
            stdout=subprocess.PIPE,
        )
        server.stdout.readline()
        try:
            with Client(socket_path=sock, agent="timer", timeout=120) as client:
                start = time.perf_counter()
                client.call("stats")
                first = time.perf_counter() - start
            print(f"{args.memories:,} memories and links; one agent's stats: {first * 1000:.0f} ms")
            for loopers in (0, 1, 5):
                took = sorted(searcher_waits(sock, loopers, args.searches))
                p95 = took[int(len(took) * 0.95) - 1]
                print(
                    f"searcher beside {loopers} stats loopers: p50 "
                    f"{statistics.median(took) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
                    f"highest {took[-1] * 1000:.1f} ms"
                )
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
