"""Secrets the guard withholds, and ordinary sentences it must not (issue #31 item 5).

    python bench/secrets.py [--show]

Ordinary text, none of it written to tune the rules: every turn of the LoCoMo conversations
(../shared/bench/locomo_dev.json, split into sentences; read in place, never copied), the
frozen round-trip data (transcripts' messages, paraphrases, environment facts, hard negatives,
the crowd of a year's memories), the extraction sets dev_v4 and heldout_v3, the guard
corpus's benign notes, and bench/data/guard_secrets/ordinary.jsonl: sentences using secret,
key, token or password in ordinary senses, written by a helper that never saw the rules.
Secrets: bench/data/guard_secrets/secrets.jsonl (the same helper), each holding a credential.

Prints false flags per source (target: at most 0.1% of all ordinary sentences), secrets
withheld by kind, and the flagged ordinary sentences with --show.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import re
from collections import defaultdict

from memdesk.core.guard import secrets

HERE = Path(__file__).resolve().parent
LOCOMO = HERE.parents[1] / "shared" / "bench" / "locomo_dev.json"
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
TEXT_FIELDS = ("text", "content")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if len(s.split()) >= 3]


def _transcript(path: Path) -> list[str]:
    out = []
    for record in _rows(path):
        content = (record.get("message") or {}).get("content")
        parts = [content] if isinstance(content, str) else []
        if isinstance(content, list):
            parts = [p.get("text", "") for p in content if isinstance(p, dict)]
        out += [s for part in parts for s in _sentences(part)]
    return out


def ordinary() -> dict[str, list[str]]:
    sources: dict[str, list[str]] = {}
    if LOCOMO.exists():
        samples = json.loads(LOCOMO.read_text("utf-8"))
        sources["LoCoMo turns"] = [
            s
            for sample in samples
            for key, turns in sample["conversation"].items()
            if key.startswith("session_") and isinstance(turns, list)
            for turn in turns
            for s in _sentences(turn.get("text", ""))
        ]
    roundtrip = HERE / "data" / "roundtrip"
    sources["round-trip transcripts"] = [
        s for p in sorted(roundtrip.glob("*-*.jsonl")) for s in _transcript(p)
    ]
    files = {
        "round-trip statements and negatives": [
            roundtrip / n for n in ("paraphrases.jsonl", "env_facts.jsonl", "negatives_v2.jsonl")
        ],
        "a year's memories (crowd)": [roundtrip / "crowd.jsonl"],
        "extraction sets (dev_v4, heldout_v3)": [
            HERE / "data" / "dev_v4" / "turns.jsonl",
            HERE / "data" / "heldout_v3" / "turns.jsonl",
        ],
        "guard corpus, benign": [HERE.parent / "tests" / "data" / "guard" / "benign.jsonl"],
        "secret/key/token words, ordinary": [HERE / "data" / "guard_secrets" / "ordinary.jsonl"],
    }
    for name, paths in files.items():
        sources[name] = [
            row[field]
            for path in paths
            for row in _rows(path)
            for field in TEXT_FIELDS
            if isinstance(row.get(field), str)
        ]
    return sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    flagged_all, total = [], 0
    print("| ordinary text | sentences | flagged |\n|---|---|---|")
    for name, texts in ordinary().items():
        flagged = [t for t in texts if secrets.find(t)]
        flagged_all += [(t, secrets.find(t)) for t in flagged]
        total += len(texts)
        print(f"| {name} | {len(texts):,} | {len(flagged)} |")
    share = len(flagged_all) / max(1, total)
    print(f"| **all** | **{total:,}** | **{len(flagged_all)} ({share:.2%})** |\n")
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missed = []
    for row in _rows(HERE / "data" / "guard_secrets" / "secrets.jsonl"):
        hit = bool(secrets.find(row["text"]))
        for key in (row.get("kind", "?"), "all"):
            by_kind[key][0] += hit
            by_kind[key][1] += 1
        if not hit:
            missed.append(row["text"])
    print("| secrets | withheld |\n|---|---|")
    for kind, (hit, n) in sorted(by_kind.items(), key=lambda kv: kv[0] != "all"):
        print(f"| {kind} | {hit}/{n} |")
    if args.show:
        print("\nordinary sentences flagged:")
        for text, why in flagged_all:
            print(f"  {why} <- {text[:160]!r}")
        print("\nsecrets missed:")
        for text in missed:
            print(f"  {text[:160]!r}")


if __name__ == "__main__":
    main()
