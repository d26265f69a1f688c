"""Several machines, each a database of its own, syncing through a bare repository on disk."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memdesk.core import MemoryService

if shutil.which("git") is None:
    pytest.skip(
        "git is not installed: sync tests need it (apt install git)", allow_module_level=True
    )

# What a machine shares, compared between machines: everything but this machine's own counts.
SHARED = (
    "id", "layer", "kind", "content", "source", "agent", "status", "created_at", "updated_at",
    "project", "task", "tags", "importance", "version", "supersedes", "confidence", "inject",
)  # fmt: skip


class Machines:
    """`with machines("a") as svc:` opens machine a's database (one open at a time: the store
    is one database per process)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.remote = root / "remote.git"

    @contextmanager
    def __call__(self, name: str) -> Iterator[MemoryService]:
        service = MemoryService.open(self.root / f"{name}.db")
        try:
            yield service
        finally:
            service.close()

    def run(self, name: str, action: Callable[[MemoryService], Any]) -> Any:
        with self(name) as service:
            return action(service)

    def init(self, *names: str, **options: Any) -> None:
        for name in names:
            self.run(name, lambda s: s.sync_init(str(self.remote), **options))

    def sync(self, *names: str) -> list[dict[str, Any]]:
        return [self.run(name, lambda s: s.sync()["remotes"][0]) for name in names]

    def shared(self, name: str) -> dict[str, dict[str, Any]]:
        return self.run(name, shared_state)

    def push_files(self, files: dict[str, str | None], remote: Path | None = None) -> None:
        """Change the repository by hand, as a person or a hostile teammate could."""
        work = self.root / "by-hand"
        git = ["git", "-C", str(work), "-c", "user.name=x", "-c", "user.email=x@x"]
        if not work.exists():
            source = str(remote or self.remote)
            subprocess.run(["git", "clone", "-q", source, str(work)], check=True)
        subprocess.run([*git, "pull", "-q"], check=True)
        for name, text in files.items():
            path = work / name
            if text is None:
                path.unlink()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "by hand", "--allow-empty"], check=True)
        subprocess.run([*git, "push", "-q"], check=True)

    def tree(self, remote: Path | None = None) -> dict[str, str]:
        """The pushed repository's files and their text."""
        git_dir = str(remote or self.remote)
        names = subprocess.run(
            ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "main"],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        return {
            name: subprocess.run(
                ["git", "--git-dir", git_dir, "show", f"main:{name}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout  # fmt: skip
            for name in names
        }


def shared_state(service: MemoryService) -> dict[str, dict[str, Any]]:
    """Each shared memory's synced fields and links, by id (Trash included)."""
    out = {}
    for memory in service.list_memories(status=None, limit=10_000):
        if memory["visibility"] != "shared" or memory["flag"]:
            continue
        # every history numbered apart, below the memory: else its export never reads back
        numbers = [v["version"] for v in service.history(memory["id"])]
        assert numbers == sorted(set(numbers)), (memory["content"], numbers)
        state = {k: memory[k] for k in SHARED}
        state["links"] = sorted(
            (link["id"], link["relation"])
            for link in service.get(memory["id"])["links"]
            if link["direction"] == "out" and link["relation"] != "possible_update"
        )
        out[memory["id"]] = state
    return out


@pytest.fixture
def machines(tmp_path) -> Machines:
    return Machines(tmp_path)
