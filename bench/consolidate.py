"""Find Duplicates at the size of real use: time, and what it proposes.

A store of N memories: LoCoMo dialog turns copied under many projects (each copy its own
project, so copies are never merged across projects), plus, in each project, planted
restatements of some turns (a word added, an ending changed) that must be found, and traps
(a number changed, a negation added) that must never be proposed.

    python bench/consolidate.py [--size 100000] [--data ../shared/bench/locomo_dev.json]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import random
import tempfile
import time

from memdesk.core import MemoryService

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo_dev.json"
PLANTED_EVERY = 50  # one restatement and one trap per this many memories


def turns(samples: list[dict]) -> list[str]:
    out = []
    for sample in samples:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                out += [f"{t['speaker']}: {t['text']}" for t in value if len(t["text"]) > 40]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    texts = turns(json.loads(args.data.read_text()))
    rng = random.Random(7)
    items, planted, traps = [], 0, 0
    for n in range(args.size):
        copy, index = divmod(n, len(texts))
        text = texts[index]
        items.append({"content": text, "project": f"p{copy}"})
        if n % PLANTED_EVERY == 0:
            items.append({"content": text + " really", "project": f"p{copy}"})
            items.append({"content": f"{text} not {rng.randint(2, 99)}", "project": f"p{copy}"})
            planted, traps = planted + 1, traps + 1
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService.open(Path(folder) / "bench.db")
        for start in range(0, len(items), 20_000):
            service.add_many(items[start : start + 20_000], dedup=False)
        started = time.perf_counter()
        found = service.find_duplicates()
        took = time.perf_counter() - started
        proposals = [i for i in service.inbox() if i["type"] == "merge"]
        contents = [[m["content"] for m in p["memories"]] for p in proposals]
        hit = sum(any(c.endswith(" really") for c in group) for group in contents)
        trapped = sum(any(" not " in c and c[-1].isdigit() for c in group) for group in contents)
        service.close()
    print(f"memories {found['memories']:,}  find_duplicates {took:.1f} s")
    print(f"merge proposals {len(proposals):,}  planted restatements found {hit}/{planted}")
    print(f"traps (number or negation changed) proposed: {trapped}/{traps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
