"""The words of where an agent works, read by the SessionStart hook (api/workspace.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from memdesk.api import workspace


def _repo(tmp_path):
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/feature/markdown-preview\n")
    (root / "package.json").write_text(
        json.dumps({"packageManager": "pnpm@9.1.0", "dependencies": {"@tanstack/query": "5"}})
    )
    (root / "pnpm-lock.yaml").write_text("lockfileVersion: 9\n")
    (root / "pyproject.toml").write_text(
        '[tool.ruff]\nline-length = 100\n[project]\nname="x"\n'
        'dependencies = ["polars>=1", "httpx"]\n'
    )
    (root / "web" / "src").mkdir(parents=True)
    return root


def test_manifests_lock_files_dependencies_branch_and_folder_are_read(tmp_path):
    words = workspace.signals(str(_repo(tmp_path) / "web" / "src"))
    for expected in ("pnpm", "node", "query", "ruff", "polars", "httpx", "markdown", "preview"):
        assert expected in words, words
    assert "npm" not in words  # package.json alone says nothing of the package manager


def test_a_huge_or_broken_manifest_is_skipped_and_never_fails(tmp_path):
    root = _repo(tmp_path)
    (root / "package.json").write_text('{"dependencies": {' + '"a": "1",' * 200_000 + "}")
    (root / "pyproject.toml").write_text("[[[ not toml")
    started = time.perf_counter()
    words = workspace.signals(str(root))
    assert time.perf_counter() - started < 0.5
    assert "pnpm" in words  # the lock file still counts
    assert "pnpm" not in workspace.signals(str(tmp_path / "missing"))
    assert workspace.signals(None) == []
    assert workspace.signals("\x00bad") == []


def test_the_session_start_hook_loads_no_toml_parser_or_openssl_it_does_not_need(tmp_path):
    # The hook starts a Python for every session: tomllib (its regexes compile at import) for a
    # package.json repository, and OpenSSL to name the socket, were ~7 ms of it for nothing.
    root = _repo(tmp_path)
    (root / "pyproject.toml").unlink()
    code = (
        "import sys; from memdesk.api import hooks, naming, workspace;"
        "naming.socket_path('/tmp/memdesk.db');"
        f"words = workspace.signals({str(root)!r});"
        "print('pnpm' in words, 'tomllib' in sys.modules, '_hashlib' in sys.modules)"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["True", "False", "False"]
