"""Did the agent act on a memory it was given? The rule (core/sessions/acted_on.py) on
labelled cases: a memory, the tool calls that followed, and whether they acted on it.

    python bench/used.py [--data bench/data/used_heldout.jsonl]

Prints precision and recall of "acted on" and every case the rule got wrong. The dev set is
the one the rule was written against; the held-out set was written before the rule, with other
tools and words, and never used to change it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json

from memdesk.core.sessions.acted_on import acted_on

DATA = Path(__file__).resolve().parent / "data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, action="append")
    args = parser.parse_args()
    for path in args.data or [DATA / "used_dev.jsonl", DATA / "used_heldout.jsonl"]:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        said = [acted_on(r["memory"], r["observations"]) for r in rows]
        hits = sum(s and r["used"] for s, r in zip(said, rows, strict=True))
        claimed, actual = sum(said), sum(r["used"] for r in rows)
        print(
            f"{path.name}: {len(rows)} cases, precision {hits / claimed if claimed else 1:.2f} "
            f"({hits}/{claimed}), recall {hits / actual if actual else 1:.2f} ({hits}/{actual})"
        )
        for s, r in zip(said, rows, strict=True):
            if s != r["used"]:
                kind = "false alarm" if s else "missed"
                print(f"  {kind}: {r['memory'][:70]!r} <- {r['observations']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
