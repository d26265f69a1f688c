"""Build the desktop bundle: memdesk and its own Python in one folder (PyInstaller), started
from the bundle alone on a machine without Python or the project's environment.

    pip install pyinstaller && python packaging/bundle.py [--out dist]

Then `dist/memdesk/memdesk` is the app (window, CLI, serve, hooks and MCP alike), and
`dist/memdesk/memdesk desktop install` puts it in the application menu.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Modules found only at run time (plugins, lazy imports) or data files beside modules.
COLLECT = [
    "--collect-data",
    "memdesk",
    "--collect-submodules",
    "memdesk",
    "--collect-submodules",
    "detect_secrets",  # its detectors are loaded by name
    "--collect-data",
    "confusable_homoglyphs",
    "--collect-data",
    "pyqtgraph",
    "--collect-submodules",
    "superqt",
    "--collect-submodules",
    "qtpy",
]
# Other Qt bindings qtpy could reach for, pyqtgraph's examples (their import aborts outside a
# display), pyqtgraph's optional companions, Qt's QML stack and Tk: none is memdesk's, and
# they were 160 MB of the first bundle's 632.
EXCLUDE = [
    "PyQt5", "PyQt6", "PySide2", "tkinter", "pyqtgraph.examples",
    "scipy", "jedi", "parso", "IPython", "matplotlib", "pandas",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtDesigner",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        launcher = Path(work) / "launch_memdesk.py"  # not memdesk.py: it would hide the package
        launcher.write_text("from memdesk.entry import main\n\nraise SystemExit(main())\n")
        command = [
            sys.executable, "-m", "PyInstaller", "--noconfirm", "--onedir", "--name", "memdesk",
            "--log-level", "WARN", "--distpath", str(args.out), "--workpath", f"{work}/build",
            "--specpath", work, *COLLECT,
            *(f"--exclude-module={name}" for name in EXCLUDE),
            str(launcher),
        ]  # fmt: skip
        subprocess.run(command, check=True)
    bundle = args.out / "memdesk"
    size = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file())
    print(f"built {bundle} ({size / 2**20:.0f} MB); run {bundle / 'memdesk'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
