"""Bulk window actions through the service: delete, restore and retag thousands of memories
in one recorded step, and undo and redo them (what the window runs on Del, Ctrl+R, Ctrl+T and
Ctrl+Z with a large selection).

    python bench/bulk.py [--memories 20000] [--selected 2000]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import tempfile
import time

from memdesk.core import MemoryService


def timed(label: str, action) -> object:
    started = time.perf_counter()
    result = action()
    print(f"{label:<28}{(time.perf_counter() - started) * 1000:>8.0f} ms")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--selected", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService.open(Path(folder) / "bulk.db")
        items = [
            {"content": f"note {n} on topic {n % 50} with a few more words"}
            for n in range(args.memories)
        ]
        service.add_many(items, dedup=False)
        ids = [m["id"] for m in service.list_memories(limit=args.selected)]
        print(f"{args.selected:,} of {args.memories:,} memories selected")
        _, step = timed(
            "delete (recorded)", lambda: service.record(lambda: service.remove_many(ids))
        )
        timed("undo delete", lambda: service.apply_step(step, undo=True))
        timed("redo delete", lambda: service.apply_step(step, undo=False))
        timed("restore (recorded)", lambda: service.record(lambda: service.restore_many(ids)))
        _, step = timed(
            "retag (recorded)",
            lambda: service.record(lambda: service.update_many(ids, {"tags": ["x"]})),
        )
        timed("undo retag", lambda: service.apply_step(step, undo=True))
        service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
