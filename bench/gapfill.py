"""Gap-fill extraction on a labelled set of user sentences: precision of what is stored.

    python bench/gapfill.py [--data bench/data/gapfill_labelled.jsonl]

Each line of the set is {"text", "label"}: "store" (lasting, about the user or the team: it
should become a memory), "propose" (plausible but possibly about the task at hand: the person
should decide) or "none". Prints, for the stored (high confidence) findings, precision
(labelled store) and recall (of store sentences); for stored + proposed, how many were worth
showing (store or propose) and the recall of both; and every miss and false alarm.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json

from memdesk.core.sessions import gapfill

DEFAULT = Path(__file__).resolve().parent / "data" / "gapfill_labelled.jsonl"


def evaluate(rows: list[dict]) -> dict:
    outcome = {"stored": [], "proposed": [], "dropped": []}
    for row in rows:
        found = gapfill.find([row["text"]])
        confidence = found[0].confidence if found else None
        where = {"high": "stored", "medium": "proposed"}.get(confidence, "dropped")
        outcome[where].append((row, found[0] if found else None))
    store = [r for r in rows if r["label"] == "store"]
    worth = [r for r in rows if r["label"] in ("store", "propose")]
    stored_ok = [r for r, _ in outcome["stored"] if r["label"] == "store"]
    shown = outcome["stored"] + outcome["proposed"]
    shown_ok = [r for r, _ in shown if r["label"] in ("store", "propose")]
    return {
        "sentences": len(rows),
        "stored": len(outcome["stored"]),
        "precision_stored": len(stored_ok) / max(1, len(outcome["stored"])),
        "recall_stored": len(stored_ok) / max(1, len(store)),
        "shown": len(shown),
        "precision_shown": len(shown_ok) / max(1, len(shown)),
        "recall_shown": len(shown_ok) / max(1, len(worth)),
        "outcome": outcome,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    result = evaluate(rows)
    labels = {k: sum(r["label"] == k for r in rows) for k in ("store", "propose", "none")}
    print(f"{result['sentences']} sentences ({labels})")
    print(
        f"stored (high): {result['stored']}, precision {result['precision_stored']:.3f}, "
        f"recall of store {result['recall_stored']:.3f}"
    )
    print(
        f"stored + proposed: {result['shown']}, worth showing {result['precision_shown']:.3f}, "
        f"recall of store+propose {result['recall_shown']:.3f}"
    )
    for where, items in result["outcome"].items():
        for row, finding in items:
            wrong = (
                (where == "stored" and row["label"] != "store")
                or (where == "proposed" and row["label"] == "none")
                or (where == "dropped" and row["label"] != "none")
            )
            if wrong:
                content = f" -> {finding.content!r} ({finding.pattern})" if finding else ""
                print(f"  {where:8} [{row['label']}] {row['text']!r}{content}")


if __name__ == "__main__":
    main()
