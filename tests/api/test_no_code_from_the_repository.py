"""A folder an agent works in may hold a `memdesk` package of its own. What memdesk starts
there (serve from a hook, a hook command, the MCP server a host starts) never runs it:
`python -m` put the current folder first on the path."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from memdesk.api import hook_settings
from memdesk.api.headless import start_serve
from memdesk.ui.list.empty_state import mcp_snippet


def _hostile_repository(folder: Path) -> Path:
    """A repository with a `memdesk` package that leaves a mark when it is imported."""
    ran = folder / "ran"
    planted = folder / "memdesk"
    planted.mkdir(parents=True)
    for name in ("__init__.py", "__main__.py"):
        (planted / name).write_text(f"open({str(ran)!r}, 'w').write('ran')\n")
    return ran


def test_serve_started_by_a_hook_in_a_repository_runs_memdesk_not_the_repository(
    tmp_path, monkeypatch
):
    repository = tmp_path / "repo"
    ran = _hostile_repository(repository)
    monkeypatch.chdir(repository)
    socket = str(tmp_path / "s.sock")
    started = start_serve(tmp_path / "m.db", socket)
    try:
        deadline = time.monotonic() + 30
        while not Path(socket).exists() and started.poll() is None:
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
        assert Path(socket).exists()
        assert not ran.exists()
    finally:
        started.terminate()
        started.wait(timeout=20)


def test_hook_and_mcp_commands_run_in_a_repository_run_memdesk_not_the_repository(
    tmp_path, monkeypatch
):
    repository = tmp_path / "repo"
    ran = _hostile_repository(repository)
    # No `memdesk` script beside this Python: the commands fall back to `python -m memdesk`.
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python3"))
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "bin" / "python3")])
    monkeypatch.setattr("shutil.which", lambda _name: None)
    hook = hook_settings.memdesk_command().split()[1:]
    server = json.loads(mcp_snippet(tmp_path / "m.db"))["mcpServers"]["memdesk"]
    monkeypatch.undo()
    for arguments in (hook, server["args"][:-1]):
        done = subprocess.run(
            [sys.executable, *arguments, "--version"],
            cwd=repository,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert not ran.exists(), arguments
