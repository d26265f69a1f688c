"""The layering contracts in pyproject.toml ([tool.importlinter]) hold: a violation fails here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

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


def test_no_module_takes_part_in_an_import_circle():
    """A circle of imports (type-only ones too) means two modules cannot be read apart."""
    graph = grimp.build_graph("memdesk")
    circles = [sorted(group) for group in _strongly_connected(graph) if len(group) > 1]
    assert circles == []


def _strongly_connected(graph: grimp.ImportGraph) -> list[set[str]]:
    """Tarjan's algorithm over memdesk's own modules, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(_imports(graph, root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            following = next(pending, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(sorted(_imports(graph, following)))))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                groups.append(group)
    return groups


def _imports(graph: grimp.ImportGraph, module: str) -> set[str]:
    return {m for m in graph.find_modules_directly_imported_by(module) if m.startswith("memdesk")}
