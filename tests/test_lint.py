"""ruff's lint rules and formatting (pyproject.toml [tool.ruff]) hold for app, tests, bench and
packaging: CI runs the README's test command only, so the lint runs here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff(command):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "app", "tests", "bench", "packaging"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
