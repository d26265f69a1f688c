"""The injection guard on its corpus: how many attacks it withholds, how many ordinary notes it
flags, by split and category, and what one scan costs.

    python bench/guard.py [--split dev|held|all] [--show]

The corpus is tests/data/guard/{attacks,benign}.jsonl, one {"split", "category", "text"} a line.
"dev" rows are the ones rules may be tuned on; "held" rows were written with them, frozen
before the rules changed, and are only ever measured.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import time
from collections import defaultdict

from memdesk.core import guard

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "guard"


def load(name: str, split: str = "all") -> list[dict]:
    lines = (CORPUS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [row for row in rows if split in ("all", row["split"])]


def tally(rows: list[dict]) -> dict[str, list[int]]:
    """Per category (and "all"): [flagged, total]."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        hit = bool(guard.scan(row["text"]))
        for key in (row["category"], "all"):
            counts[key][0] += hit
            counts[key][1] += 1
    return counts


def _print(title: str, counts: dict[str, list[int]]) -> None:
    print(title)
    for key in sorted(counts, key=lambda k: (k == "all", k)):
        hit, total = counts[key]
        print(f"  {key:<16} {hit:>4}/{total:<4} {hit / total:.3f}")


# Repeated, these make an expression re-read the rest of the text from every position.
_HOSTILE = ["<a ", "<x ", "<!--", "<img src=", "QUJD", "aws", "![", "[", "sk-", "1gn0r3 ", "a "]


def _cost(texts: list[str], rounds: int = 20) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            guard.scan(text)
    return (time.perf_counter() - start) / (rounds * len(texts)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "held", "all"], default="all")
    parser.add_argument("--show", action="store_true", help="print every miss and false flag")
    args = parser.parse_args()
    attacks, benign = load("attacks", args.split), load("benign", args.split)
    _print(f"attacks withheld ({args.split})", tally(attacks))
    _print(f"benign flagged ({args.split})", tally(benign))
    print(
        f"scan cost: benign {_cost([r['text'] for r in benign]):.1f} µs, "
        f"attacks {_cost([r['text'] for r in attacks]):.1f} µs per text"
    )
    worst = max((_cost([seed * (60_000 // len(seed))], rounds=1), seed) for seed in _HOSTILE)
    print(f"slowest 60 KB hostile text: {worst[0] / 1e6:.2f} s ({worst[1]!r} repeated)")
    if args.show:
        for row in attacks:
            if not guard.scan(row["text"]):
                print(f"MISS  [{row['split']}/{row['category']}] {row['text']!r}")
        for row in benign:
            if reasons := guard.scan(row["text"]):
                print(f"FLAG  [{row['split']}/{row['category']}] {row['text']!r} {reasons}")


if __name__ == "__main__":
    main()
