"""Graph view speed: a graph of N memories and 3N links, laid out and drawn in the window.

    python bench/graph.py [--nodes 5000]    (runs offscreen unless a display is set)

Prints the time from asking for the graph to its drawing (the layout runs on a worker
thread), the longest the GUI thread was blocked meanwhile (a 5 ms timer measures the gaps),
and pan/zoom frame times. Targets (issue 12): 5,000 nodes / 15,000 edges laid out <= 3 s,
the event loop never blocked > 50 ms, pan/zoom >= 30 fps (<= 33 ms a frame).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from memdesk.core import MemoryService  # noqa: E402
from memdesk.ui.graph.graph_view import GraphView  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    app = QApplication(sys.argv)
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService.open(Path(folder) / "g.db")
        made = service.add_many(
            [{"content": f"memory {n} about w{rng.randint(0, 999)}"} for n in range(args.nodes)],
            dedup=False,
        )
        ids = [m["id"] for m in made]
        rows = dict(service.database.execute_sql("SELECT uuid, id FROM memory").fetchall())
        links = set()
        while len(links) < 3 * args.nodes:
            a, b = rng.sample(ids, 2)
            links.add((rows[a], rows[b]))
        with service.database.atomic():
            service.database.cursor().executemany(
                "INSERT INTO link (src_id, dst_id, relation, created_at) VALUES (?, ?, 'related', "
                "'2026-01-01T00:00:00.000Z')",
                list(links),
            )
        view = GraphView(service)
        view.resize(1200, 800)
        view.show()
        view.budget = args.nodes
        view.hubs.setCurrentText("None")
        view.wait()
        gaps, last = [], [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000)
            last[0] = now

        timer = QTimer(interval=5)
        timer.timeout.connect(tick)
        drawn: list[float] = []
        view.signals.laid_out.connect(lambda *_: drawn.append(time.perf_counter()))
        started = time.perf_counter()
        last[0] = started
        timer.start()
        view.reload(full=True)
        while not drawn:
            app.processEvents()
        app.processEvents()
        timer.stop()
        drawn_s = time.perf_counter() - started
        frames = []
        box = view.plot.getViewBox()
        for factor in (0.5, 0.5, 2.0, 2.0, 0.7, 1.4, 0.8, 1.25):
            begun = time.perf_counter()
            box.scaleBy((factor, factor))
            view.plot.repaint()
            app.processEvents()
            frames.append((time.perf_counter() - begun) * 1000)
        print(f"{args.nodes:,} nodes, {len(links):,} links")
        print(f"asked -> drawn: {drawn_s:.2f} s (target <= 3 s)")
        print(f"longest GUI-thread block meanwhile: {max(gaps):.0f} ms (target <= 50 ms)")
        print(
            f"zoom frame: median {statistics.median(frames):.0f} ms, max {max(frames):.0f} ms "
            "(target <= 33 ms)"
        )
        view.close()
        service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
