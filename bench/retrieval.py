"""Retrieval recall@k on LoCoMo conversations, through the real memdesk service.

Each conversation goes into a fresh temporary database: one L1 memory per dialog turn
("Speaker: text"), created at the session's date plus the turn's index in seconds, project =
sample id, task = "<sample>/session_<n>", one tag = the turn id. Nothing else from the file is
loaded. Every question with evidence is asked through `search` with only the project filter.

With --haystack N (several allowed), each conversation is asked inside a store that also holds
N other memories: the other conversations' turns copied under other project names, dated
later (so they are the newest), untagged. Questions are then asked with the project filter,
with "this project or none" (what an agent's session in the project searches), with no filter
at all, and as plain FTS5 bm25 (one `fts5(content)` table over the same
memories, the OR of the question's words, no filter), with latency percentiles.

With --as-agent, the questions are asked as an agent: every search is then a recall, and the
recall boost of decay (memdesk.core.search.decay) reorders later questions' ties.

    python bench/retrieval.py [--data ../shared/bench/locomo_dev.json] [--haystack 0 10000]
        [--as-agent] [--conversations N]
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/socket.py would shadow the standard library's socket module for scripts run from here.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import re
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta

from memdesk.core import USER, MemoryService, agent

KS = (1, 5, 10, 25)
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def session_date(text: str) -> datetime:
    """LoCoMo writes dates like '1:56 pm on 8 May, 2023'."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def load(service: MemoryService, sample: dict) -> None:
    items: list[dict] = []
    load_items(sample, items)
    service.add_many(items, dedup=False)


def load_items(sample: dict, items: list[dict]) -> None:
    conversation, sample_id = sample["conversation"], sample["sample_id"]
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))
    )
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


def haystack(service: MemoryService, samples: list[dict], target: dict, size: int) -> None:
    """`size` memories copied from the conversations other than `target`, under other project
    names, dated after every original (the newest), untagged (never an answer)."""
    others = [s for s in samples if s is not target]
    turns = []
    for sample in others:
        scratch: list[dict] = []
        load_items(sample, scratch)
        turns.extend(scratch)
    batch: list[dict] = []
    for n in range(size):
        copy, turn = divmod(n, len(turns))
        item = turns[turn]
        stamp = datetime.fromisoformat(item["created_at"]) + timedelta(days=800 + copy)
        batch.append(
            {
                "content": item["content"],
                "created_at": stamp.isoformat(),
                "project": f"{item['project']}-copy{copy}",
                "task": f"{item['task']}-copy{copy}",
            }
        )
        if len(batch) == 20_000:
            service.add_many(batch, dedup=False)
            batch = []
    if batch:
        service.add_many(batch, dedup=False)


ASKER = {"actor": USER}  # --as-agent: agent("bench")


def evaluate(
    service: MemoryService, sample: dict, scores: dict, timings: list[float], mode: str = "project"
) -> None:
    plain = mode == "plain" and _plain_index(service)
    for qa in sample["qa"]:
        evidence = set(qa.get("evidence") or [])
        if not evidence:
            continue
        started = time.perf_counter()
        if plain:
            ranked = _plain_search(plain, qa["question"], max(KS))
        else:
            filters = {
                "project": {"project": sample["sample_id"]},
                "session": {"project": sample["sample_id"], "with_global": True},
            }.get(mode, {})
            hits = service.search(qa["question"], k=max(KS), **filters, **ASKER)["hits"]
            ranked = [h["tags"][0] if h["tags"] else None for h in hits]
        timings.append((time.perf_counter() - started) * 1000)
        for k in KS:
            found = len(evidence & set(ranked[:k])) / len(evidence)
            scores[qa["category"]][k].append(found)
            scores["all"][k].append(found)


def _plain_index(service: MemoryService) -> sqlite3.Connection:
    """A plain FTS5 table over the same memories' content (the baseline anyone would build)."""
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE VIRTUAL TABLE plain USING fts5(content, tag UNINDEXED)")
    source = sqlite3.connect(service.path)
    rows = source.execute("SELECT content, json_extract(tags, '$[0]') FROM memory")
    connection.executemany("INSERT INTO plain VALUES (?, ?)", rows)
    source.close()
    return connection


def _plain_search(connection: sqlite3.Connection, question: str, k: int) -> list[str | None]:
    words = list(dict.fromkeys(re.findall(r"[^\W_]+", question.casefold())))
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    rows = connection.execute(
        "SELECT tag FROM plain WHERE plain MATCH ? ORDER BY bm25(plain) LIMIT ?", (match, k)
    )
    return [tag for (tag,) in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--haystack", type=int, nargs="*", help="other memories per store (e.g. 0 10000 100000)"
    )
    parser.add_argument("--as-agent", action="store_true", help="ask as an agent (recalls)")
    parser.add_argument(
        "--conversations",
        type=int,
        help="ask only the first N conversations (a 1M store takes ~15 min to build here)",
    )
    args = parser.parse_args()
    if args.as_agent:
        ASKER["actor"] = agent("bench")
    if not args.data.exists():
        print(f"skipped: no LoCoMo file at {args.data}")
        return 0
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    if args.haystack is None:
        return alone(samples, args.data)
    for size in args.haystack:
        in_haystack(samples, size, args.conversations or len(samples))
    return 0


def stores(
    samples: list[dict], size: int, asked: int | None = None
) -> Iterator[tuple[dict, MemoryService, float]]:
    """Each of the first `asked` conversations (all by default) in a fresh temporary store
    with `size` haystack memories from the others: yields (conversation, service, seconds to
    build); the store is closed and removed after."""
    for sample in samples[:asked]:
        with tempfile.TemporaryDirectory() as folder:
            service = MemoryService.open(Path(folder) / "bench.db")
            started = time.perf_counter()
            load(service, sample)
            if size:
                haystack(service, samples, sample, size)
                while service.tidy_index(1000):  # as a running server does while idle
                    pass
            yield sample, service, time.perf_counter() - started
            service.close()


def alone(samples: list[dict], data: Path) -> int:
    scores: dict = defaultdict(lambda: defaultdict(list))
    timings: list[float] = []
    load_seconds = 0.0
    for sample, service, seconds in stores(samples, 0):
        load_seconds += seconds
        evaluate(service, sample, scores, timings)
    print(f"{len(samples)} conversations, {len(timings)} questions, data {data}")
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


MODES = {
    "project": "project filter",
    "session": "project or none",  # what an agent's session in the project searches
    "none": "no filter",
    "plain": "plain FTS5 bm25",
}


def in_haystack(samples: list[dict], size: int, asked: int) -> None:
    scores = {m: defaultdict(lambda: defaultdict(list)) for m in MODES}
    timings: dict[str, list[float]] = {m: [] for m in MODES}
    build = 0.0
    for sample, service, seconds in stores(samples, size, asked):
        build += seconds
        for mode in MODES:
            evaluate(service, sample, scores[mode], timings[mode], mode)
    print(
        f"\nhaystack {size:,} other memories per store, {asked} conversation(s), "
        f"{len(timings['project'])} questions ({build:.0f} s to build the stores)"
    )
    print(f"{'search':<22}" + "".join(f"{'R@' + str(k):>8}" for k in KS) + "     p50     p99")
    for mode, title in MODES.items():
        row = scores[mode]["all"]
        times = sorted(timings[mode])
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{title:<22}"
            + "".join(f"{statistics.fmean(row[k]):>8.3f}" for k in KS)
            + f"{statistics.median(times):>7.2f}{p99:>8.2f} ms"
        )


if __name__ == "__main__":
    sys.exit(main())
