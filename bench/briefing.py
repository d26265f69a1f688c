"""Session start and per-prompt retrieval in a big store, in process.

    python -m bench.briefing [--memories 100000] [--runs 30]   (from the repository root)

Fills a temporary database with --memories memories (a fifth of no project, the rest spread
over 50 projects; kinds fact, preference, decision, observation; twelve words each from a
20,000-word vocabulary), then times `session_start` (identity, briefing, working memory) and
`session_prompt` for an agent, each in a fresh session of one of the projects (then ended,
untimed). Prints p50 and max, and the size of the last briefing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from memdesk.core import MemoryService, agent

PROJECTS = 50
BATCH = 5000


def _fill(service: MemoryService, memories: int, rnd: random.Random) -> None:
    words = [f"w{n}" for n in range(20_000)]
    kinds = ["fact", "preference", "observation", "decision"]
    for start in range(0, memories, BATCH):
        service.add_many(
            [
                {
                    "content": " ".join(rnd.choices(words, k=12)),
                    "project": None if n % 5 == 0 else f"proj{n % PROJECTS}",
                    "kind": rnd.choice(kinds),
                }
                for n in range(start, min(start + BATCH, memories))
            ],
            dedup=False,
        )


def _summary(took: list[float]) -> str:
    return f"p50 {statistics.median(took):.1f} ms, max {max(took):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    rnd = random.Random(1)
    claude = agent("claude-code")
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService.open(Path(folder) / "bench.db")
        started = time.perf_counter()
        _fill(service, args.memories, rnd)
        print(f"{args.memories} memories written in {time.perf_counter() - started:.1f} s")
        starts, prompts, last = [], [], {}
        for n in range(args.runs):
            session, project = f"s{n}", f"proj{n % PROJECTS}"
            began = time.perf_counter()
            last = service.session_start(session, actor=claude, project=project)
            starts.append((time.perf_counter() - began) * 1000)
            prompt = " ".join(rnd.choices([f"w{k}" for k in range(20_000)], k=6))
            began = time.perf_counter()
            service.session_prompt(session, f"{prompt} write tests for the deploy", actor=claude)
            prompts.append((time.perf_counter() - began) * 1000)
            service.session_end(session, actor=claude)  # else the next start "recovers" it
        print(f"session_start: {_summary(starts)}")
        print(f"session_prompt: {_summary(prompts)}")
        print(
            f"last briefing: {len(last['briefed'])} memories, {len(last['text'])} characters "
            f"in all, {last['more']} more stored"
        )
        service.close()


if __name__ == "__main__":
    main()
