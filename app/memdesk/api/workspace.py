"""Where an agent works, in a few words: the tools a repository's manifests and lock files
name, its dependencies, the branch and the folder. Sent with session.start so the briefing
ranks the rules about what this repository uses above rules about what it does not.

Read by the hook, not the server: the server never opens paths an agent names. A fixed set
of files at the folder and at the repository's root, each bounded in size; never a walk of
the tree, so a large monorepo costs what a small one does. Any file that cannot be read or
parsed is skipped: the signals are a hint, never a reason for a hook to fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

MAX_FILE = 256 * 1024
MAX_WORDS = 300
UP_TO_ROOT = 8  # folders looked through for the repository's root (.git)
# A file's presence says what the repository uses.
PRESENT = {
    "package.json": ("node", "javascript"),
    "pnpm-lock.yaml": ("pnpm",),
    "pnpm-workspace.yaml": ("pnpm",),
    "yarn.lock": ("yarn",),
    "package-lock.json": ("npm",),
    "bun.lockb": ("bun",),
    "bun.lock": ("bun",),
    "tsconfig.json": ("typescript",),
    "deno.json": ("deno",),
    ".nvmrc": ("node", "nvm"),
    "pyproject.toml": ("python",),
    "uv.lock": ("uv",),
    "poetry.lock": ("poetry",),
    "pdm.lock": ("pdm",),
    "Pipfile": ("pipenv",),
    "requirements.txt": ("python", "pip"),
    "setup.py": ("python",),
    "tox.ini": ("tox",),
    "noxfile.py": ("nox",),
    "pytest.ini": ("pytest",),
    "manage.py": ("django",),
    "alembic.ini": ("alembic",),
    "go.mod": ("go",),
    ".golangci.yml": ("golangci-lint",),
    ".golangci.yaml": ("golangci-lint",),
    ".goreleaser.yaml": ("goreleaser",),
    ".goreleaser.yml": ("goreleaser",),
    "Cargo.toml": ("rust", "cargo"),
    "rustfmt.toml": ("rustfmt",),
    "clippy.toml": ("clippy",),
    "Gemfile": ("ruby", "bundler"),
    "pom.xml": ("java", "maven"),
    "build.gradle": ("java", "gradle"),
    "build.gradle.kts": ("kotlin", "gradle"),
    "Chart.yaml": ("helm", "kubernetes"),
    "kustomization.yaml": ("kustomize", "kubernetes"),
    "Dockerfile": ("docker",),
    "Containerfile": ("podman",),
    "docker-compose.yml": ("docker", "compose"),
    "docker-compose.yaml": ("docker", "compose"),
    "compose.yaml": ("docker", "compose"),
    "main.tf": ("terraform",),
    "Makefile": ("make",),
    "justfile": ("just",),
    ".pre-commit-config.yaml": ("pre-commit",),
    "biome.json": ("biome",),
    ".prettierrc": ("prettier",),
    "eslint.config.js": ("eslint",),
    ".eslintrc.json": ("eslint",),
    "vite.config.ts": ("vite",),
    "next.config.js": ("next",),
    "dbt_project.yml": ("dbt",),
    "airflow.cfg": ("airflow",),
    "mkdocs.yml": ("mkdocs",),
    ".github": ("github",),
}
_NAME = re.compile(r"^(?:@[\w.-]+/)?([a-z0-9][\w.-]*)", re.IGNORECASE)


def signals(cwd: str | None) -> list[str]:
    """The words of the folder `cwd` and its repository; [] when there is none to read."""
    if not cwd:
        return []
    try:
        here = Path(cwd).resolve()
        root = _root(here)
        words: list[str] = []
        for folder in dict.fromkeys([root, here]):
            words += _folder(folder)
        words += _branch(root)
        words += [part.lower() for part in here.parts[-3:] if part not in ("/", "")]
    except (OSError, RuntimeError, ValueError):
        return []
    return list(dict.fromkeys(w for w in words if 1 < len(w) <= 60))[:MAX_WORDS]


def _root(here: Path) -> Path:
    for folder in [here, *list(here.parents)[:UP_TO_ROOT]]:
        if (folder / ".git").exists():
            return folder
    return here


def _folder(folder: Path) -> list[str]:
    words: list[str] = []
    for name, named in PRESENT.items():
        if (folder / name).exists():
            words += named
    words += _package_json(_read(folder / "package.json"))
    words += _pyproject(_read(folder / "pyproject.toml"))
    words += _cargo(_read(folder / "Cargo.toml"))
    words += _go_mod(_read(folder / "go.mod"))
    return words


def _read(path: Path) -> str:
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE:
            return ""
        with path.open("rb") as handle:
            return handle.read(MAX_FILE).decode("utf-8", "replace")
    except OSError:
        return ""


def _package_json(text: str) -> list[str]:
    data = _parse(json.loads, text)
    if not isinstance(data, dict):
        return []
    words = []
    manager = data.get("packageManager")
    if isinstance(manager, str):
        words.append(manager.split("@", 1)[0].lower())
    for key in ("dependencies", "devDependencies", "peerDependencies"):
        deps = data.get(key)
        if isinstance(deps, dict):
            words += _names(deps)
    return words


def _toml(text: str) -> Any:
    if not text:  # most repositories have no pyproject.toml or no Cargo.toml: no import
        return None
    import tomllib  # here, not at the top: a hook imports this module on every prompt

    return _parse(tomllib.loads, text)


def _pyproject(text: str) -> list[str]:
    data = _toml(text)
    if not isinstance(data, dict):
        return []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    words = _names(project.get("dependencies") or [])
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        for deps in optional.values():
            words += _names(deps if isinstance(deps, list) else [])
    tool = data.get("tool")
    if isinstance(tool, dict):
        words += _names(tool)  # [tool.ruff], [tool.pytest], [tool.poetry] …
    system = data.get("build-system")
    if isinstance(system, dict):
        words += _names(system.get("requires") or [])
    return words


def _cargo(text: str) -> list[str]:
    data = _toml(text)
    if not isinstance(data, dict):
        return []
    words = []
    for key in ("dependencies", "dev-dependencies", "build-dependencies"):
        if isinstance(data.get(key), dict):
            words += _names(data[key])
    return words


def _go_mod(text: str) -> list[str]:
    modules = re.findall(r"^\s*(?:require\s+)?([\w.-]+(?:/[\w.-]+)+)\s+v\d", text, re.MULTILINE)
    return [module.rsplit("/", 1)[-1].lower() for module in modules]


def _branch(root: Path) -> list[str]:
    head = _read(root / ".git" / "HEAD").strip()
    if not head.startswith("ref: refs/heads/"):
        return []
    return [w.lower() for w in re.split(r"[/_.-]+", head.removeprefix("ref: refs/heads/")) if w]


def _names(entries: Any) -> list[str]:
    out = []
    for entry in entries if isinstance(entries, dict | list) else []:
        match = _NAME.match(str(entry).strip())
        if match:
            out.append(match[1].lower())
    return out


def _parse(parse: Any, text: str) -> Any:
    if not text:
        return None
    try:
        return parse(text)
    except (ValueError, TypeError, RecursionError):
        return None
