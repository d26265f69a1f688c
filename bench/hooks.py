"""Hook latency: `memdesk hook EVENT` as Claude Code runs it, a process per event.

    python -m bench.hooks [--runs 30] [--memories 10000]   (from the repository root)

Starts `memdesk serve` on a temporary database holding --memories memories, then times each
event end to end (process start, stdin, one socket exchange, stdout) and, in the same run,
the baseline of starting the same Python with nothing to do. Prints p50/p95 per event.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `bench.rawrpc` from anywhere

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.rawrpc import Raw, Server, as_installed

SESSION = "bench-session"


def _timed(command: list[str], stdin: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=env, check=False
    )
    took = (time.perf_counter() - started) * 1000
    if done.returncode != 0 or done.stderr:
        raise RuntimeError(done.stderr)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(0)
    words = [f"w{n}" for n in range(5000)]
    with tempfile.TemporaryDirectory(prefix="mdh-") as folder:
        db, sock = Path(folder) / "h.db", str(Path(folder) / "s.sock")
        server = Server(db, sock)
        raw = Raw(sock, "seeder", role="user")
        for start in range(0, args.memories, 2000):
            items = [{"content": " ".join(rng.choices(words, k=12))} for _ in range(2000)]
            raw.call("memory.add_many", items=items[: args.memories - start], dedup=False)
        raw.close()
        env = as_installed({**os.environ, "MEMDESK_SOCKET": sock})
        hook = [sys.executable, "-m", "memdesk", "hook"]
        base = {"session_id": SESSION, "cwd": folder, "transcript_path": ""}
        events = {
            "SessionStart": {**base, "source": "startup"},
            "UserPromptSubmit": {**base, "prompt": " ".join(rng.choices(words, k=8))},
            "PostToolUse": {
                **base,
                "tool_name": "Edit",
                "tool_input": {"file_path": "/x/a.py", "old_string": "a", "new_string": "b"},
                "tool_response": {"success": True},
            },
        }
        results = {"python startup (baseline)": []}
        results |= {event: [] for event in events}
        for _ in range(args.runs):
            results["python startup (baseline)"].append(
                _timed([sys.executable, "-c", "pass"], "", env)
            )
            for event, payload in events.items():
                command = [*hook, event, "--db", str(db)]
                results[event].append(_timed(command, json.dumps(payload), env))
        server.stop()
    print(f"{args.runs} runs each, {args.memories:,} memories")
    print("| event | p50 ms | p95 ms |")
    print("|---|---|---|")
    for name, values in results.items():
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(f"| {name} | {statistics.median(values):.0f} | {p95:.0f} |")


if __name__ == "__main__":
    main()
