"""The layering contracts in pyproject.toml ([tool.importlinter]) hold: a violation fails here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    command = Path(sys.executable).with_name("lint-imports")
    if not command.exists():
        command = Path(shutil.which("lint-imports") or "lint-imports")
    result = subprocess.run(
        [str(command), "--config", str(ROOT / "pyproject.toml"), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report
