"""What an acknowledged write costs at each SQLite `synchronous` level, through the service.

WAL with synchronous=NORMAL survives a process crash (kill -9) but may lose the last commits
on power loss or an OS crash; FULL syncs the WAL on every commit and loses nothing
acknowledged. This prints add p50/p99 and the add_many rate for both, in the same run.

    python bench/durability.py [--adds 500]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import statistics
import tempfile
import time

from memdesk.core import MemoryService


def measure(level: str, adds: int) -> None:
    with tempfile.TemporaryDirectory(dir=Path.home()) as folder:  # a real disk, not tmpfs
        service = MemoryService.open(Path(folder) / "d.db")
        service.database.execute_sql(f"PRAGMA synchronous = {level}")
        took = []
        for n in range(adds):
            started = time.perf_counter()
            service.add(f"note {n} about durability and fsync", dedup=False)
            took.append((time.perf_counter() - started) * 1000)
        items = [{"content": f"bulk {n}"} for n in range(20_000)]
        started = time.perf_counter()
        service.add_many(items, dedup=False)
        rate = len(items) / (time.perf_counter() - started)
        service.close()
    took.sort()
    print(
        f"synchronous={level:<7} add p50 {statistics.median(took):6.2f} ms  "
        f"p99 {took[int(len(took) * 0.99)]:6.2f} ms   add_many {rate:8,.0f}/s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--adds", type=int, default=500)
    args = parser.parse_args()
    for level in ("NORMAL", "FULL", "NORMAL", "FULL"):
        measure(level, args.adds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
