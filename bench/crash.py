"""Crash bench: `memdesk serve` killed with SIGKILL under write load, round after round.

    python -m bench.crash [--rounds 100] [--writers 4]     (from the repository root)

Each round starts the server, checks the file and the search index (system.check) and that
a sample of acknowledged writes is found by search, then writes from several raw clients
(memory.add, memory.add_many, memory.update) and kills the server at a random moment. At the
end every acknowledged write must be in the file with the content acknowledged (or with a
later one still in flight when the kill came), and both integrity checks must pass. The test
suite runs a few rounds (tests/api/test_crash_loop.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `bench.rawrpc` from anywhere

import argparse
import random
import sqlite3
import statistics
import tempfile
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from bench.rawrpc import Raw, RpcFailure, Server


@dataclass
class Outcome:
    rounds: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    unsearchable: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    restarts_s: list[float] = field(default_factory=list)


class Ledger:
    """What the server acknowledged, and what was in flight when it died."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acked: dict[str, str] = {}  # id -> content acknowledged last
        self.in_flight: dict[str, str] = {}  # id -> content sent, not yet acknowledged
        self.tokens: dict[str, str] = {}  # id -> a word only it holds

    def may_hold(self, memory_id: str, content: str) -> bool:
        return content in (self.acked[memory_id], self.in_flight.get(memory_id))


def _write(sock: str, name: str, ledger: Ledger, seed: int, outcome: Outcome) -> None:
    rng = random.Random(seed)
    try:
        raw = Raw(sock, name)
    except OSError:
        return
    mine: list[str] = []
    n = 0
    try:
        while True:
            n += 1
            token = f"tok{name.replace('-', '')}n{n}"
            roll = rng.random()
            if roll < 0.15 and mine:
                target = rng.choice(mine)
                content = f"{token} revised note from {name} number {n}"
                with ledger.lock:
                    ledger.in_flight[target] = content
                raw.call("memory.update", id=target, content=content)
                with ledger.lock:
                    ledger.acked[target] = content
                    ledger.tokens[target] = token
                    del ledger.in_flight[target]
            elif roll < 0.25:
                items = [{"content": f"{token}b{i} batch note from {name}"} for i in range(5)]
                ids = raw.call("memory.add_many", items=items, dedup=False)
                with ledger.lock:
                    for memory_id, item in zip(ids, items, strict=True):
                        ledger.acked[memory_id] = item["content"]
                        ledger.tokens[memory_id] = item["content"].split()[0]
                mine.extend(ids)
            else:
                content = f"{token} note from {name} number {n}"
                memory_id = raw.call("memory.add", content=content, dedup=False)["id"]
                with ledger.lock:
                    ledger.acked[memory_id] = content
                    ledger.tokens[memory_id] = token
                mine.append(memory_id)
    except (OSError, ConnectionError):
        pass  # the kill
    except RpcFailure as exc:
        outcome.errors.append(f"{name}: {exc.code} {exc}")
    finally:
        raw.close()


def _check_running(sock: str, ledger: Ledger, rng: random.Random, outcome: Outcome) -> None:
    raw = Raw(sock, "checker", role="user")  # a check is the person's to run
    try:
        report = raw.call("system.check")
        outcome.problems.extend(report["problems"])
        with ledger.lock:
            sample = rng.sample(sorted(ledger.tokens), min(20, len(ledger.tokens)))
            tokens = {i: ledger.tokens[i] for i in sample}
        for memory_id, token in tokens.items():
            hits = raw.call("memory.search", query=token, k=5)["hits"]
            if memory_id in [h["id"] for h in hits]:
                continue
            # An update in flight at the kill may have landed, replacing the token.
            if raw.call("memory.get", id=memory_id)["content"] != ledger.in_flight.get(memory_id):
                outcome.unsearchable.append(memory_id)
    finally:
        raw.close()


def _check_file(db: Path, ledger: Ledger, outcome: Outcome) -> None:
    with closing(sqlite3.connect(db)) as conn:
        stored = dict(conn.execute("SELECT uuid, content FROM memory"))
        outcome.problems.extend(
            r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"
        )
        try:
            conn.execute("INSERT INTO memory_fts(memory_fts, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as exc:
            outcome.problems.append(f"search index: {exc}")
    for memory_id in ledger.acked:
        if memory_id not in stored:
            outcome.lost.append(memory_id)
        elif not ledger.may_hold(memory_id, stored[memory_id]):
            outcome.wrong.append(memory_id)


def run(rounds: int, writers: int = 4, folder: Path | None = None, seed: int = 0) -> Outcome:
    rng = random.Random(seed)
    outcome, ledger = Outcome(), Ledger()
    with tempfile.TemporaryDirectory(prefix="mdc-") as tmp:
        db = (folder or Path(tmp)) / "crash.db"
        sock = str(Path(tmp) / "s.sock")
        for number in range(rounds):
            server = Server(db, sock)
            outcome.restarts_s.append(server.start_s)
            _check_running(sock, ledger, rng, outcome)
            threads = [
                threading.Thread(
                    target=_write, args=(sock, f"w{number}-{i}", ledger, rng.random(), outcome)
                )
                for i in range(writers)
            ]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.15, 0.6))
            server.kill()
            for thread in threads:
                thread.join()
            outcome.rounds += 1
        server = Server(db, sock)
        _check_running(sock, ledger, rng, outcome)
        server.stop()
        _check_file(db, ledger, outcome)
    outcome.acknowledged = len(ledger.acked)
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--writers", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    outcome = run(args.rounds, args.writers)
    restarts = sorted(outcome.restarts_s)
    print(f"rounds {outcome.rounds}, writers {args.writers}, {time.perf_counter() - started:.0f} s")
    print(f"acknowledged memories {outcome.acknowledged:,}")
    print(
        f"lost {len(outcome.lost)}, wrong content {len(outcome.wrong)}, "
        f"not found by search {len(outcome.unsearchable)}"
    )
    print(f"integrity problems {len(outcome.problems)}, error replies {len(outcome.errors)}")
    print(
        f"restart to listening: p50 {statistics.median(restarts):.2f} s, max {restarts[-1]:.2f} s"
    )
    for line in (outcome.problems + outcome.errors)[:10]:
        print("  ", line)


if __name__ == "__main__":
    main()
