"""The Graph's layout process: started quickly, and never the reason a layout fails."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from memdesk.ui.graph import layout_worker

# A window's main module: importing it again costs as long as starting the window did.
MAIN = textwrap.dedent(
    """
    import os
    with open(os.environ["IMPORTS_LOG"], "a") as log:
        log.write("main imported\\n")
    from memdesk.ui.graph import layout_worker
    if __name__ == "__main__":
        print(len(layout_worker.layout(3, [(0, 1), (1, 2)])))
    """
)


def test_the_layout_worker_does_not_import_the_window_again(tmp_path):
    """multiprocessing's spawn imported the window's main module in the worker: the first
    Graph waited 0.5-1 s for PySide6 and all of memdesk to load a second time."""
    script, log = tmp_path / "window_main.py", tmp_path / "imports.log"
    script.write_text(MAIN)
    done = subprocess.run(
        [sys.executable, str(script)],
        env={**os.environ, "IMPORTS_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "3", done.stderr
    assert log.read_text().count("main imported") == 1


def test_a_worker_that_cannot_start_leaves_the_layout_to_this_process(monkeypatch):
    layout_worker._stop_worker()
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert len(layout_worker.layout(4, [(0, 1), (2, 3)])) == 4
    assert layout_worker._worker is None


def test_a_worker_that_died_is_started_again():
    assert len(layout_worker.layout(2, [(0, 1)])) == 2
    first = layout_worker._worker
    assert first is not None
    first.kill()
    first.wait()
    assert len(layout_worker.layout(2, [(0, 1)])) == 2
    assert layout_worker._worker is not None
    assert layout_worker._worker.pid != first.pid


def test_the_layout_worker_never_runs_a_memdesk_package_from_the_current_folder(
    tmp_path, monkeypatch
):
    planted = tmp_path / "memdesk"
    planted.mkdir()
    ran = tmp_path / "ran"
    (planted / "__init__.py").write_text(f"open({str(ran)!r}, 'w').write('ran')\n")
    monkeypatch.chdir(tmp_path)
    layout_worker._stop_worker()
    assert len(layout_worker.layout(2, [(0, 1)])) == 2
    assert layout_worker._worker is not None  # laid out by the worker, not in this process
    assert not ran.exists()
