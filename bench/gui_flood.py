"""The window beside agents working flat out: the same 100,000-memory store as bench/gui.py,
served on a socket as `memdesk` serves it, first quiet, then while agents add, edit, link and
search nonstop. What the person feels is printed side by side: keystroke to results, how long
the window is frozen at a time, each view drawn, a memory opened.

    python bench/gui_flood.py [--count 100000] [--agents 8] [--seconds 15]

Target (issue #33): no view frozen by agents' work for longer than it is when quiet by more
than a frame or two; keystroke p95 <= 100 ms under the flood.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# bench/ holds socket.py, which would shadow the standard library's socket for this script.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import argparse  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from PySide6.QtWidgets import QApplication  # noqa: E402

from memdesk.api.client import Client, MemdeskError  # noqa: E402
from memdesk.api.server import SocketServer  # noqa: E402
from memdesk.core import MemoryService  # noqa: E402
from memdesk.ui.list.search_box import TYPING_PAUSE_MS  # noqa: E402

_spec = importlib.util.spec_from_file_location("gui_bench", Path(__file__).with_name("gui.py"))
assert _spec
assert _spec.loader
gui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gui)

WORDS = ["deploy", "staging", "socket", "cache", "porch", "vector", "index", "timeout", "shard"]


def agent(socket_path: str, name: str, stop: float, done: multiprocessing.Value) -> None:
    """One agent: add a memory, edit it, link it to the one before, search; again, at once."""
    rng = random.Random(name)
    previous = None
    try:
        with Client(socket_path=socket_path, agent=name, timeout=30) as client:
            while time.time() < stop:
                text = " ".join(rng.choices(WORDS, k=8)) + f" ({name} {rng.random():.6f})"
                memory_id = client.call("memory.add", content=text)["id"]
                client.call("memory.update", id=memory_id, content=text + " (edited)")
                if previous:
                    client.call("memory.link", **{"from": memory_id, "to": previous})
                previous = memory_id
                client.call("memory.search", query=" ".join(rng.sample(WORDS, 2)), k=10)
                with done.get_lock():
                    done.value += 4
    except MemdeskError as exc:  # a write budget that says stop is an answer, not a failure
        print(f"  {name} stopped: {exc}", file=sys.stderr)


def typing(app: QApplication, window, typed: list[str]) -> tuple[list[float], list[float]]:
    """Each keystroke's text once: ms to its results (after the typing pause), and the
    longest the GUI thread was busy meanwhile."""
    browser = window.browser
    answered: list[int] = []
    browser.model.searched.connect(lambda: answered.append(1))
    shown, frozen = [], []
    for text in typed:
        started = time.perf_counter()
        browser.search.setText(text)
        app.processEvents()
        gui_ms = (time.perf_counter() - started) * 1000
        before = len(answered)
        _took, longest = gui.until(app, window, lambda b=before: len(answered) > b)
        frozen.append(max(gui_ms, longest))
        shown.append((time.perf_counter() - started) * 1000 - TYPING_PAUSE_MS)
    browser.search.setText("")
    return sorted(shown), sorted(frozen)


def views(app: QApplication, window) -> dict[str, float]:
    """ms to each view drawn, and to a memory opened in the detail panel."""
    out = {}
    for index, name, wait in (
        (1, "timeline", window.timeline.wait),
        (2, "graph", window.graph.wait),
        (3, "stats", window.stats_view.wait),
        (0, "list", None),
    ):
        started = time.perf_counter()
        window.view_tabs.setCurrentIndex(index)
        if wait is not None:
            wait()
        gui.wait_painted(app, window)
        out[name] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    window.browser.table.selectRow(3)
    gui.wait_painted(app, window)
    out["open a memory"] = (time.perf_counter() - started) * 1000
    return out


def watched(app: QApplication, window, seconds: float) -> list[float]:
    """Every stretch the GUI thread was busy while the person only looks (ms, sorted)."""
    busy = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        step = time.perf_counter()
        app.processEvents()
        busy.append((time.perf_counter() - step) * 1000)
        time.sleep(0.002)
    return sorted(busy)


def p95(values: list[float]) -> float:
    return values[int(len(values) * 0.95)]


def report(label: str, shown, frozen, drawn, idle) -> None:
    print(f"{label}:")
    print(
        f"  keystroke -> results: median {statistics.median(shown):.0f} ms, p95 "
        f"{p95(shown):.0f} ms, max {shown[-1]:.0f} ms; GUI thread per keystroke: median "
        f"{statistics.median(frozen):.0f} ms, p95 {p95(frozen):.0f} ms, max {frozen[-1]:.0f} ms"
    )
    print("  " + ", ".join(f"{name} {ms:.0f} ms" for name, ms in drawn.items()))
    print(
        f"  only looking: GUI thread busy p99 {idle[int(len(idle) * 0.99)]:.0f} ms, longest "
        f"{idle[-1]:.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    app = QApplication(sys.argv)
    typed = gui.keystrokes(gui.TYPED)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        service = MemoryService.open(db)
        gui.fill(service, args.count)
        service.close()
        _interactive, _counted, window, service = gui.open_window(app, db)
        server = SocketServer(service, Path(folder) / "md.sock")
        server.listen()
        report("quiet", *typing(app, window, typed), views(app, window), watched(app, window, 3))

        stop = time.time() + args.seconds + 600  # ended below, once measured
        done = multiprocessing.get_context("spawn").Value("i", 0)
        agents = [
            multiprocessing.get_context("spawn").Process(
                target=agent, args=(str(server.socket_path), f"agent-{n}", stop, done)
            )
            for n in range(args.agents)
        ]
        for process in agents:
            process.start()
        idle = watched(app, window, args.seconds)
        started, before = time.perf_counter(), done.value
        shown, frozen = typing(app, window, typed)
        drawn = views(app, window)
        rate = (done.value - before) / (time.perf_counter() - started)
        report(
            f"{args.agents} agents adding, editing, linking, searching", shown, frozen, drawn, idle
        )
        print(f"  agents' requests answered meanwhile: {rate:.0f}/s")
        for process in agents:
            process.terminate()
            process.join()
        server.close("stopping")
        window.close()
        app.processEvents()
        service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
