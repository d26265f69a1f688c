"""Hostile clients against a real `memdesk serve` for a while: its memory stays bounded and
the person is still answered.

    python bench/abuse.py [--seconds 120] [--memories 20000]

Starts `memdesk serve` on a temporary database and, for `--seconds`, runs at once: clients
sending random bytes and random JSON-RPC (every method, hostile parameters), lines over the
size limit, half lines dribbled a byte at a time, subscribers that never read while an agent
writes, batches of 100 large lists, 40 connections held open, 40 agents searching nonstop, writers
renaming themselves for every connection, `stats` in a loop, and the person's own tool syncing
with a crafted remote (32 MB of long files, forged fields, git hooks). Meanwhile the person's CLI
connection pings and searches every 0.2 s. Prints the server's RSS (start, highest, end),
the person's latency (p50, p95, highest, failures), the internal errors seen (must be 0) and
whether the store checks clean afterwards.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Callable  # noqa: E402

from memdesk.api.client import Client, MemdeskError  # noqa: E402
from memdesk.api.methods import METHODS  # noqa: E402

HOSTILE_VALUES = [
    None, True, -1, 0, 2**63, 1e308, "", "x" * 70_000, "\u202e", "'; DROP TABLE memory; --",
    [], [1] * 5000, {}, {"a": {"b": {"c": []}}}, "*", '"', "NEAR(", "a" * 4096,
]  # fmt: skip
PARAMETERS = "content query id k items session limit offset tags project text".split()


class Run:
    def __init__(self, sock: str, until: float) -> None:
        self.sock = sock
        self.until = until
        self.internal_errors: list[str] = []
        self.lock = threading.Lock()
        # Shared with the searchers' process: how many agent requests were answered.
        self.agent_requests = multiprocessing.get_context("fork").Value("q", 0)
        self.remote_report = ""

    def alive(self) -> bool:
        return time.monotonic() < self.until

    def connect(self) -> socket.socket | None:
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.settimeout(5)
        try:
            peer.connect(self.sock)
        except OSError:
            peer.close()
            return None
        return peer

    def note_replies(self, data: bytes) -> None:
        """Count the internal errors among whole reply lines (a reply cut short is skipped)."""
        for line in data.splitlines():
            try:
                replies = json.loads(line)
            except ValueError:
                continue
            for reply in replies if isinstance(replies, list) else [replies]:
                if isinstance(reply, dict) and reply.get("error", {}).get("code") == -32603:
                    with self.lock:
                        self.internal_errors.append(line[:300].decode("utf-8", "replace"))


def connect_again_and_again(run: Run, talk: Callable[[socket.socket], None]) -> None:
    """Until the run ends: connect, `talk`, hang up (a refused or cut connection is fine)."""
    while run.alive():
        peer = run.connect()
        if peer is None:
            time.sleep(0.05)
            continue
        try:
            talk(peer)
        except OSError:
            pass
        finally:
            peer.close()


def random_requests(run: Run) -> None:
    rng = random.Random(threading.get_ident())
    names = [method.name for method in METHODS]

    def talk(peer: socket.socket) -> None:
        for _ in range(50):
            if rng.random() < 0.2:
                line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
            else:
                params = {
                    rng.choice(PARAMETERS): rng.choice(HOSTILE_VALUES)
                    for _ in range(rng.randrange(4))
                }
                line = json.dumps(
                    {"jsonrpc": "2.0", "method": rng.choice(names), "params": params, "id": 1}
                ).encode()
            peer.sendall(line.replace(b"\n", b" ") + b"\n")
            run.note_replies(peer.recv(1 << 20))

    connect_again_and_again(run, talk)


def oversized_lines(run: Run) -> None:
    def talk(peer: socket.socket) -> None:
        peer.sendall(b'{"jsonrpc":"2.0","method":"memory.add","params":{"content":"')
        peer.sendall(b"x" * (2 << 20))
        run.note_replies(peer.recv(4096))

    connect_again_and_again(run, talk)


def dribblers(run: Run) -> None:
    peers = [run.connect() for _ in range(10)]
    while run.alive():
        for peer in (p for p in peers if p is not None):
            with contextlib.suppress(OSError):
                peer.sendall(b"{")
        time.sleep(1)
    for peer in (p for p in peers if p is not None):
        peer.close()


def deaf_subscribers(run: Run) -> None:
    while run.alive():
        deaf = [run.connect() for _ in range(5)]
        for peer in (p for p in deaf if p is not None):
            with contextlib.suppress(OSError):
                peer.sendall(b'{"jsonrpc":"2.0","method":"events.subscribe","id":1}\n')
        with Client(socket_path=run.sock, agent="writer", timeout=10) as writer:
            for n in range(40):
                if not run.alive():
                    break
                try:
                    writer.call("memory.add_many", items=[
                        {"content": f"abuse {n} {i} " + "w" * 2000} for i in range(50)
                    ])  # fmt: skip
                except MemdeskError:
                    time.sleep(0.5)  # over its write budget: refused, as it should be
        for peer in (p for p in deaf if p is not None):
            peer.close()


def large_batches(run: Run) -> None:
    request = {"jsonrpc": "2.0", "method": "memory.list", "params": {"limit": 500}, "id": 1}
    batch = json.dumps([{**request, "id": n} for n in range(100)]).encode() + b"\n"

    def talk(peer: socket.socket) -> None:
        peer.sendall(batch)
        time.sleep(0.5)  # reads slowly, if at all
        run.note_replies(peer.recv(1 << 16))

    connect_again_and_again(run, talk)


def crowd(run: Run) -> None:
    held = [run.connect() for _ in range(40)]
    while run.alive():
        time.sleep(0.2)
    for peer in (p for p in held if p is not None):
        peer.close()


def searcher(run: Run) -> None:
    """An agent searching nonstop, one request at a time, as agents' clients do."""
    words = ["deploy", "staging", "keys", "w1", "w42", "w777", "w3000"]
    rng = random.Random(threading.get_ident())
    while run.alive():
        try:
            with Client(socket_path=run.sock, agent=f"searcher-{rng.randrange(40)}") as c:
                while run.alive():
                    c.call("memory.search", query=" ".join(rng.sample(words, 2)), k=10)
                    with run.agent_requests.get_lock():
                        run.agent_requests.value += 1
        except (MemdeskError, OSError):
            time.sleep(0.05)


def renamed_writers(run: Run) -> None:
    """Writers that take a new name for every connection (the budget was per name)."""
    count = 0
    while run.alive():
        count += 1
        try:
            with Client(socket_path=run.sock, agent=f"writer-{count}") as c:
                c.call(
                    "memory.add_many",
                    items=[{"content": f"note {count}-{n} about w{n}"} for n in range(100)],
                )
        except (MemdeskError, OSError):
            time.sleep(0.05)


def stats_loop(run: Run) -> None:
    while run.alive():
        try:
            with Client(socket_path=run.sock, agent="stats-looper") as c:
                while run.alive():
                    c.call("stats")
        except (MemdeskError, OSError):
            time.sleep(0.05)


def craft_remote(folder: Path) -> None:
    """A remote made to hurt, for the person's own tool to sync with: 300 memory files of
    random words (75 of 250 KB, 225 of 60 KB for the guard to read: 32 MB), claiming
    the person's words, some with out-of-range fields, and git hooks on the remote's side that
    must never run. Built before the abuse starts (under every other abuser, building it took
    longer than the run)."""
    bare, work, hooks = folder / "crafted.git", folder / "crafted-work", folder / "hooks"
    ran = folder / "a-remote-hook-ran"
    git = ["git", "-c", "user.name=x", "-c", "user.email=x@x"]
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    hooks.mkdir()
    for name in ("pre-receive", "update", "post-receive", "post-update", "reference-transaction"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {ran}\n")
        (hooks / name).chmod(0o755)
    rng = random.Random(7)
    words = [f"w{n}" for n in range(20_000)]
    for n in range(300):
        memory_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        # A quarter too big to take; the rest just under the limit, so the guard reads them.
        size = 250_000 if n % 4 == 0 else 60_000
        text = " ".join(rng.choices(words, k=size // 5))[:size]
        updated = "9999-01-01" if n % 5 == 0 else "2026-01-02"
        front = (
            f'---\nid: "{memory_id}"\nlayer: "{"L0" if n % 3 else "L1"}"\nkind: "fact"\n'
            f'status: "active"\nwriter: "mallory@evil"\nsource: "user"\n'
            f'confidence: {0.1 if n % 2 else 1}\ncreated: "2026-01-01T00:00:00Z"\n'
            f'updated: "{updated}T00:00:00Z"\n---\n'
        )
        path = work / "memories" / memory_id[:2] / f"{memory_id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(front + text + "\n")
    subprocess.run([*git, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-qm", "crafted"], check=True)
    subprocess.run([*git, "-C", str(work), "push", "-q", str(bare), "main"], check=True)
    subprocess.run(["git", "-C", str(bare), "config", "core.hooksPath", str(hooks)], check=True)
    ran.unlink(missing_ok=True)  # the push above ran them once, as the remote's owner


def crafted_remote(run: Run) -> None:
    """The person's own tool syncing, again and again, with the remote `craft_remote` made."""
    folder = Path(run.sock).parent
    bare, ran = folder / "crafted.git", folder / "a-remote-hook-ran"
    syncs = 0
    with Client(socket_path=run.sock, agent="memdesk-cli", role="user", timeout=120) as c:
        c.call("sync.init", url=str(bare))
        while run.alive():
            with contextlib.suppress(MemdeskError):
                c.call("sync.run")
            syncs += 1
    run.remote_report = (
        f"{syncs} syncs with it; a remote hook ran: {'YES' if ran.exists() else 'no'}"
    )


ABUSERS = {
    "renamed": lambda run: _several(run, renamed_writers, 4),
    "stats": stats_loop,
    "random": lambda run: _several(run, random_requests, 4),
    "oversized": oversized_lines,
    "dribble": dribblers,
    "deaf": deaf_subscribers,
    "batches": large_batches,
    "crowd": crowd,
    "remote": crafted_remote,
}


def _elsewhere(run: Run, job, count: int) -> multiprocessing.Process:
    """`count` of `job` in a process of their own: their threads would otherwise hold the
    person's client back on this process's interpreter lock, not on memdesk. Forked before
    this process starts a thread: a fork while threads import copied a held import lock, and
    the forked searchers waited on it for ever."""
    process = multiprocessing.get_context("fork").Process(target=_several, args=(run, job, count))
    process.start()
    return process


def _several(run: Run, job, count: int) -> None:
    threads = [threading.Thread(target=job, args=(run,)) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def person(run: Run, took: list[float], connecting: list[float], failures: list[str]) -> None:
    while run.alive():
        started = time.perf_counter()
        try:
            with Client(socket_path=run.sock, agent="memdesk-cli", role="user", timeout=10) as c:
                connecting.append((time.perf_counter() - started) * 1000)
                c.call("system.ping")
                c.call("memory.search", query="deploy staging keys", k=10)
            took.append((time.perf_counter() - started) * 1000)
        except (MemdeskError, OSError) as exc:
            failures.append(str(exc))
        time.sleep(0.2)


def _person_elsewhere(run: Run, measured) -> multiprocessing.Process:
    """The person's tool in a process of its own, as the CLI and the window are: on a thread
    here it waited for this process's interpreter lock behind a dozen abusers' threads, and
    that wait was counted as memdesk's."""

    def measure() -> None:
        took: list[float] = []
        connecting: list[float] = []
        failures: list[str] = []
        person(run, took, connecting, failures)
        measured[1].send((took, connecting, failures))

    process = multiprocessing.get_context("fork").Process(target=measure)
    process.start()
    return process


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def seed(db: Path, memories: int) -> None:
    from memdesk.core import MemoryService

    rng = random.Random(0)
    vocabulary = [f"w{n}" for n in range(5000)] + ["deploy", "staging", "keys"]
    service = MemoryService.open(db)
    for start in range(0, memories, 5000):
        service.add_many(
            [
                {"content": " ".join(rng.choices(vocabulary, k=14))}
                for _ in range(min(5000, memories - start))
            ],
            dedup=False,
        )
    service.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument(
        "--only",
        nargs="*",
        choices=sorted([*ABUSERS, "searchers"]),
        help="these abusers alone (default: all)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="md-abuse-") as folder:
        db, sock = Path(folder) / "abuse.db", os.path.join(folder, "s")
        seed(db, args.memories)
        if "remote" in (args.only or ABUSERS):
            craft_remote(Path(folder))
        server = subprocess.Popen(
            [sys.executable, "-m", "memdesk", "serve", "--db", str(db), "--socket", sock],
            stdout=subprocess.PIPE,
            stderr=open(os.path.join(folder, "serve.err"), "w"),  # noqa: SIM115
        )
        server.stdout.readline()  # it says where it listens once it does
        start_rss = rss_mb(server.pid)
        run = Run(sock, time.monotonic() + args.seconds)
        chosen = args.only or [*sorted(ABUSERS), "searchers"]
        measured = multiprocessing.get_context("fork").Pipe(duplex=False)
        # The processes first: forked while this one has no other thread (see _elsewhere).
        processes = [_person_elsewhere(run, measured)]
        if "searchers" in chosen:
            processes.append(_elsewhere(run, searcher, 40))
        workers = [
            threading.Thread(target=ABUSERS[name], args=(run,))
            for name in chosen
            if name != "searchers"
        ]
        for worker in workers:
            worker.start()
        peak = start_rss
        while run.alive():
            time.sleep(0.5)
            peak = max(peak, rss_mb(server.pid))
        for worker in [*workers, *processes]:
            worker.join()
        took, connecting, failures = measured[0].recv()
        end_rss = rss_mb(server.pid)
        if server.poll() is not None:
            print(
                "memdesk serve died:\n"
                + Path(folder, "serve.err").read_text(errors="replace")[:3000]
            )
        with Client(socket_path=sock, agent="memdesk-cli", role="user", timeout=60) as c:
            problems = c.call("system.check")["problems"]
        server.terminate()
        server.wait(30)
        said = Path(folder, "serve.err").read_text(errors="replace").strip()
        if said:
            print("memdesk serve said:\n" + said[-3000:])
    took.sort()
    print(f"{args.seconds:g} s of abuse on {args.memories:,} memories")
    print(f"server RSS: start {start_rss:.0f} MB, highest {peak:.0f} MB, end {end_rss:.0f} MB")
    if took:
        print(
            f"the person's ping+search: {len(took)} answered, p50 {statistics.median(took):.0f} ms,"
            f" p95 {took[int(len(took) * 0.95)]:.0f} ms, highest {took[-1]:.0f} ms;"
            f" {len(failures)} failed"
        )
        connecting.sort()
        print(
            f"  of which connecting and saying hello: p50 {statistics.median(connecting):.0f} ms,"
            f" p95 {connecting[int(len(connecting) * 0.95)]:.0f} ms"
        )
    for failure in failures[:5]:
        print("  failed:", failure)
    if run.agent_requests.value:
        answered = run.agent_requests.value
        print(f"the agents' searches answered: {answered:,} ({answered / args.seconds:,.0f}/s)")
    if run.remote_report:
        print(f"the crafted remote: {run.remote_report}")
    print(f"internal errors: {len(run.internal_errors)}")
    for line in run.internal_errors[:5]:
        print("  ", line)
    print("store check:", problems or "clean")
    return 1 if run.internal_errors or failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
