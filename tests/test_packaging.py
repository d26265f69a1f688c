"""The wheel people install: built from this tree, installed in a fresh virtual environment,
and run from outside the source tree (so nothing is found through the checkout)."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

WINDOW_SMOKE = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from memdesk.core import MemoryService
from memdesk.ui.icons import PNG_NAME, SVG_NAME, asset_path
from memdesk.ui.main_window import MainWindow
import memdesk
assert "site-packages" in memdesk.__file__, memdesk.__file__
app = QApplication(sys.argv)
service = MemoryService.open(Path(sys.argv[1]))
window = MainWindow(service, settings=QSettings(sys.argv[2], QSettings.Format.IniFormat))
window.show()
app.processEvents()
assert asset_path(SVG_NAME).is_file() and asset_path(PNG_NAME).is_file(), "icons missing"
assert window.browser.model.rowCount() == 1, window.browser.model.rowCount()
window.close()
service.close()
print("window ok")
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh environment with the wheel (and its dependencies) installed; its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(ROOT)],
        check=True,
        cwd=work,
    )
    [wheel] = work.glob("memdesk-*.whl")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    subprocess.run([bin_dir / "pip", "install", "-q", str(wheel)], check=True, cwd=work)
    return bin_dir


def _run(installed: Path, *args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MEMDESK_DB")}
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_installed_command_keeps_memories_outside_the_source_tree(installed, tmp_path):
    memdesk = str(installed / "memdesk")
    assert _run(installed, memdesk, "--version", cwd=tmp_path).startswith("memdesk ")
    db = str(tmp_path / "smoke.db")
    _run(installed, memdesk, "add", "The wheel works from anywhere", "--db", db, cwd=tmp_path)
    # A search reads the concept map, a data file of the package.
    assert "wheel works" in _run(installed, memdesk, "search", "wheel", "--db", db, cwd=tmp_path)
    shown = _run(
        installed,
        str(installed / "python"),
        "-c",
        WINDOW_SMOKE,
        db,
        str(tmp_path / "settings.ini"),
        cwd=tmp_path,
    )
    assert "window ok" in shown
