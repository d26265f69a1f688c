"""Agents' latency while the person looks at a view: the window and its socket server in one
process (as `memdesk` runs them) on a store of N memories and links; an agent writes every
300 ms while another times `system.ping` every 100 ms, first on the List, then on the Graph.

    python bench/graph_ping.py [--count 3000] [--seconds 6] [--profile]

Target (tryout 91, #7): ping p90 on the Graph within a few ms of the List's; the graph ends
showing the last memory written. --profile prints where the GUI thread spent its time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# bench/ holds socket.py, which would shadow the standard library's socket for this script.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import argparse  # noqa: E402
import cProfile  # noqa: E402
import multiprocessing  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from memdesk.api.client import Client  # noqa: E402
from memdesk.api.server import SocketServer  # noqa: E402
from memdesk.core import MemoryService  # noqa: E402
from memdesk.ui.main_window import MainWindow  # noqa: E402

TABS = {"List": 0, "Graph": 2}


def writer(socket_path: str, seconds: float, last: multiprocessing.Array) -> None:
    rng = random.Random(1)
    with Client(socket_path=socket_path, agent="writer", timeout=30) as client:
        end = time.time() + seconds
        n = 0
        while time.time() < end:
            n += 1
            made = client.call(
                "memory.add",
                content=f"writer note {n}: {rng.choice(['redis', 'kafka'])} {rng.random():.6f}",
                project=rng.choice(["api", "web", "infra"]),
                dedup=False,
            )
            last.value = made["id"].encode()
            time.sleep(0.3)


def pinger(socket_path: str, seconds: float, out: multiprocessing.Queue) -> None:
    times = []
    with Client(socket_path=socket_path, agent="latency-probe", timeout=30) as client:
        end = time.time() + seconds
        while time.time() < end:
            started = time.perf_counter()
            client.call("system.ping")
            times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.1)
    out.put(sorted(times))


def fill(service: MemoryService, count: int) -> None:
    rng = random.Random(0)
    made = service.add_many(
        [
            {
                "content": f"memory {n} about w{rng.randint(0, 999)}",
                "project": rng.choice(["api", "web", "infra", None]),
                "tags": rng.sample(["ops", "db", "ci", "js", "perf"], 2),
            }
            for n in range(count)
        ],
        dedup=False,
    )
    rows = dict(service.database.execute_sql("SELECT uuid, id FROM memory").fetchall())
    ids = [m["id"] for m in made]
    links = {(rows[a], rows[b]) for a, b in (rng.sample(ids, 2) for _ in range(count))}
    with service.database.atomic():
        service.database.cursor().executemany(
            "INSERT INTO link (src_id, dst_id, relation, created_at) VALUES (?, ?, 'related', "
            "'2026-01-01T00:00:00.000Z')",
            list(links),
        )


def measure(app: QApplication, socket_path: str, seconds: float) -> tuple[list[float], str]:
    spawn = multiprocessing.get_context("spawn")
    out, last = spawn.Queue(), spawn.Array("c", 64)
    agents = [
        spawn.Process(target=writer, args=(socket_path, seconds, last)),
        spawn.Process(target=pinger, args=(socket_path, seconds, out)),
    ]
    for process in agents:
        process.start()
    times = None
    # The server answers on this thread: waiting for the agents without serving them hung.
    while times is None or any(process.is_alive() for process in agents):
        app.processEvents()
        time.sleep(0.001)
        if times is None and not out.empty():
            times = out.get()
    return times, last.value.decode()


def at(sorted_times: list[float], share: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(len(sorted_times) * share))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    app = QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService.open(Path(folder) / "bench.db")
        fill(service, args.count)
        settings = QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
        server = SocketServer(service, Path(folder) / "md.sock")
        server.listen()
        window = MainWindow(service, settings=settings, socket_path=str(server.socket_path))
        window.resize(1400, 900)
        window.show()
        reloads = [0]
        window.graph.signals.laid_out.connect(lambda *_: reloads.__setitem__(0, reloads[0] + 1))
        for name, index in TABS.items():
            window.choose_view(index)
            window.graph.wait()
            for _ in range(50):
                app.processEvents()
            reloads[0] = 0
            profile = cProfile.Profile() if args.profile and name == "Graph" else None
            if profile:
                profile.enable()
            times, last_id = measure(app, str(server.socket_path), args.seconds)
            if profile:
                profile.disable()
            started = time.perf_counter()
            while time.perf_counter() - started < 3:  # writes stopped: let the views catch up
                app.processEvents()
                time.sleep(0.005)
            window.graph.wait()
            shown = {n["id"] for n in window.graph.data["nodes"]}
            p50, p90 = at(times, 0.5), at(times, 0.9)
            print(
                f"{name:5}: ping p50 {p50:.0f} ms  p90 {p90:.0f} ms  max {times[-1]:.0f} ms"
                f"  ({len(times)} pings); graph loads {reloads[0]}"
                + (f"; last write in graph: {last_id in shown}" if name == "Graph" else "")
            )
            if profile:
                pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        server.close("stopping")
        window.close()
        app.processEvents()
        service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
