"""How well a standing rule fits where the agent works, from the words of its repository
(`api/workspace.py` reads them: tools its manifests and lock files name, its dependencies,
branch and folder).

A rule naming something the repository uses ("this repo is pnpm only") ranks higher; one
naming a tool the repository does without, when it uses another of the same kind ("yarn
workspaces…" in a pnpm repository, "black" where ruff is configured), ranks lower. A rule
that names neither keeps its rank: most rules name no tool at all.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

USES, OTHER = 1.2, 0.6
MAX_SIGNALS, MAX_SIGNAL_CHARS = 300, 60
# Tools that stand in for one another: naming one where the repository uses another of the
# group says the rule is about another stack.
ALTERNATIVES = tuple(
    frozenset(group.split())
    for group in (
        "npm pnpm yarn bun",
        "pip poetry uv pdm pipenv conda hatch",
        "jest vitest mocha ava jasmine",
        "pytest unittest nose",
        "eslint biome oxlint",
        "ruff flake8 pylint black isort",
        "docker podman",
        "helm kustomize",
        "terraform pulumi",
        "make just tox nox",
        "python go golang rust ruby java kotlin typescript javascript elixir php swift",
        "django flask fastapi",
        "webpack vite rollup esbuild parcel",
        "goreleaser",
        "gradle maven",
    )
)
# Folder and branch words too common to say anything.
_COMMON = frozenset(
    "main master src app apps lib libs test tests feature features fix home work users user "
    "dev develop repo repos code project projects tmp the and new old".split()
)
_WORD = re.compile(r"[a-z0-9][a-z0-9+#-]*")


def usable(signals: Collection[str]) -> frozenset[str]:
    """The signals worth ranking by: lowercase, not the commonest folder and branch words."""
    return frozenset(s.lower() for s in signals if s.lower() not in _COMMON and len(s) > 1)


def fit(content: str, signals: frozenset[str]) -> float:
    if not signals:
        return 1.0
    words = _words(content)
    if words & signals:
        return USES
    return OTHER if words & _others(signals) else 1.0


@functools.lru_cache(maxsize=8192)
def _words(content: str) -> frozenset[str]:
    """A rule's words: every briefing ranks the same hundreds of standing rules again."""
    return frozenset(_WORD.findall(content.lower()))


@functools.lru_cache(maxsize=32)
def _others(signals: frozenset[str]) -> frozenset[str]:
    """The tools standing in for one the repository uses: each briefing ranks hundreds of
    rules against the same signals."""
    return frozenset().union(*(group for group in ALTERNATIVES if group & signals)) - signals
