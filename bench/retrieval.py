"""Retrieval recall@k on LoCoMo conversations, through the real memdesk service.

Each conversation goes into a fresh temporary database: one L1 memory per dialog turn
("Speaker: text"), created at the session's date plus the turn's index in seconds, project =
sample id, task = "<sample>/session_<n>", one tag = the turn id. Nothing else from the file is
loaded. Every question with evidence is asked through `search` with only the project filter.

    python bench/retrieval.py [--data ../shared/bench/locomo_dev.json]
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/socket.py would shadow the standard library's socket module for scripts run from here.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import re
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timedelta

from memdesk.core import MemoryService

KS = (1, 5, 10, 25)
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def session_date(text: str) -> datetime:
    """LoCoMo writes dates like '1:56 pm on 8 May, 2023'."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def load(service: MemoryService, sample: dict) -> None:
    conversation, sample_id = sample["conversation"], sample["sample_id"]
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))
    )
    items = []
    for number, key in sessions:
        start = session_date(conversation[f"{key}_date_time"])
        for index, turn in enumerate(conversation[key]):
            items.append(
                {
                    "content": f"{turn['speaker']}: {turn['text']}",
                    "created_at": (start + timedelta(seconds=index)).isoformat(),
                    "project": sample_id,
                    "task": f"{sample_id}/session_{number}",
                    "tags": [turn["dia_id"]],
                }
            )
    service.add_many(items, dedup=False)


def evaluate(service: MemoryService, sample: dict, scores: dict, timings: list[float]) -> None:
    for qa in sample["qa"]:
        evidence = set(qa.get("evidence") or [])
        if not evidence:
            continue
        started = time.perf_counter()
        hits = service.search(qa["question"], k=max(KS), project=sample["sample_id"])["hits"]
        timings.append((time.perf_counter() - started) * 1000)
        ranked = [h["tags"][0] if h["tags"] else None for h in hits]
        for k in KS:
            found = len(evidence & set(ranked[:k])) / len(evidence)
            scores[qa["category"]][k].append(found)
            scores["all"][k].append(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    if not args.data.exists():
        print(f"skipped: no LoCoMo file at {args.data}")
        return 0
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    scores: dict = defaultdict(lambda: defaultdict(list))
    timings: list[float] = []
    load_seconds = 0.0
    for sample in samples:
        with tempfile.TemporaryDirectory() as folder:
            service = MemoryService.open(Path(folder) / "bench.db")
            started = time.perf_counter()
            load(service, sample)
            load_seconds += time.perf_counter() - started
            evaluate(service, sample, scores, timings)
            service.close()
    print(f"{len(samples)} conversations, {len(timings)} questions, data {args.data}")
    print(f"{'category':<16}{'n':>6}" + "".join(f"{'R@' + str(k):>8}" for k in KS))
    order = sorted((c for c in scores if c != "all"), key=int) + ["all"]
    for category in order:
        name = "overall" if category == "all" else f"{category} {CATEGORIES.get(category, '')}"
        row = scores[category]
        print(
            f"{name:<16}{len(row[KS[0]]):>6}"
            + "".join(f"{statistics.fmean(row[k]):>8.3f}" for k in KS)
        )
    print(
        f"search mean {statistics.fmean(timings):.2f} ms, p50 {statistics.median(timings):.2f}"
        f" ms (k={max(KS)}, logged); loading {load_seconds:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
