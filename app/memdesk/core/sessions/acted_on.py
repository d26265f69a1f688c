"""Whether an agent acted on a memory it was given: a later tool call of its session repeats
what the memory specifically names. By rules, no model, meant to be sure rather than complete.

A tool call is known by its observation ("ran `pnpm install`", "edited db/open.go (-1 +1
lines): db.Exec(…)", "read dotfiles/nvim/init.lua"). It acted on a memory when it
- runs a command the memory gives in backticks (its first two words, or all of a shorter one),
- runs a program the memory names in plain words (`pnpm`, `alembic`, `terraform`), not an
  everyday one (git, make, npm …: naming those says little),
- holds a technical name of the memory: a path, a file, a host, a flag, an identifier with
  dots or underscores, a version (`python3.11`, `eu-west-1`, `busy_timeout=5000`), or a number
  of three digits or more as a whole (a port: 9090),
- edits code with an identifier the memory names in a long plain word (`haversine`).
A folder named in prose ("this repo …") is not a cue: paths are (`ops/hosts`).
Prose-only memories ("prefers short answers") have nothing a tool call could repeat: never
counted as acted on (bench/used.py measures how often this is right).

A command the memory forbids ("ran `docker compose up`" after "use podman compose, not docker
compose") went against it: that is not using it, and `went_against` says so.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from memdesk.core.sessions import action_cues, action_rules

BACKTICKED = re.compile(r"`([^`\n]+)`")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-=:/@~+]*[A-Za-z0-9/]|[A-Za-z0-9]")
NUMBER = re.compile(r"^\d{3,}$")
TECHNICAL = re.compile(r"[A-Za-z].*[\d._\-=:/@]|[\d._\-=:/@].*[A-Za-z]")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Run in any session whatever it was told: a memory naming them is not why they ran.
EVERYDAY = frozenset(
    "git ls cd cat echo make python python3 node npm npx pip bash sh zsh grep rg find rm cp "
    "mv mkdir touch curl wget sudo env head tail less sed awk test true export source which "
    "code open chmod go".split()
)
LONG_WORD = 7  # a plain word this long, found as an identifier in edited code, names it


def acted_on(memory: str, observations: Iterable[str]) -> bool:
    found, against = last_marks(memory, list(observations))
    return found >= 0 and against < 0


def went_against(memory: str, observations: Iterable[str]) -> bool:
    """A later command ran what the memory says no to."""
    return last_marks(memory, list(observations))[1] >= 0


def last_marks(memory: str, observations: Sequence[str]) -> tuple[int, int]:
    """The last of `observations` that repeats what the memory names, and the last that ran
    what it says no to (-1: none). Read once per memory and session: asked again for each
    event's later calls, a session of a few hundred tool calls took the person's
    Injections view 40 s, the server answering no one."""
    cues = _Cues(memory)
    found = against = -1
    for at, text in enumerate(observations):
        called = _call_cues(text)
        if called is not None and action_rules.forbids(memory, called):
            against = at
        if cues.found_in(text):
            found = at
    return found, against


@functools.lru_cache(maxsize=4096)
def _call_cues(observation: str) -> action_cues.Cues | None:
    command = _command(observation.lower())
    return action_cues.of_call("Bash", {"command": command}) if command else None


# What the memory rules out names no use of it: after "listens on 6543, not 5432", a command
# on 5432 was counted as acting on the rule it broke.
RULED_OUT = re.compile(
    r"\b(?:not|never|no|instead of|rather than|avoid)\s+(?:`[^`\n]*`|[^,.;:()\n`]{1,60})",
    re.IGNORECASE,
)


class _Cues:
    def __init__(self, memory: str) -> None:
        memory = RULED_OUT.sub(" ", memory)
        spans = [" ".join(span.split()) for span in BACKTICKED.findall(memory)]
        self.commands = [" ".join(span.split()[:2]).lower() for span in spans if span.strip()]
        in_code = {w.lower() for span in spans for w in WORD.findall(span)}
        words = [w.strip(".:;,") for w in WORD.findall(BACKTICKED.sub(" ", memory))]
        self.names = {w.lower().removeprefix("~/").removeprefix("./") for w in words}
        self.technical = {
            w for w in self.names | in_code if len(w) >= 4 and TECHNICAL.search(w)
        } - {"./..."}
        self.numbers = {w for w in self.names | in_code if NUMBER.match(w)}
        plain = {w for w in self.names if w.isalpha()}
        self.programs = plain - EVERYDAY
        self.long = {_singular(w) for w in plain if len(w) >= LONG_WORD}

    def found_in(self, observation: str) -> bool:
        text = observation.lower()
        command = _command(text)
        if command is not None:
            words = command.split()
            if any(command.startswith(c) for c in self.commands):
                return True
            if words and _program(words) in self.programs:
                return True
        if any(t in text for t in self.technical):
            return True
        tokens = set(WORD.findall(text))
        if self.numbers & {t for piece in tokens for t in re.split(r"[^0-9]+", piece)}:
            return True
        code = _edited_code(observation)
        return bool(code and self.long & {_singular(i.lower()) for i in IDENTIFIER.findall(code)})


def _command(text: str) -> str | None:
    found = BACKTICKED.search(text)
    return found.group(1).strip() if text.startswith(("ran ", "`")) and found else None


def _program(words: list[str]) -> str:
    """The program a command runs, past `sudo` and `NAME=value` settings."""
    for word in words:
        if word != "sudo" and "=" not in word:
            return word.rsplit("/", 1)[-1]
    return ""


def _edited_code(observation: str) -> str | None:
    if not observation.startswith("edited ") or "): " not in observation:
        return None
    return observation.split("): ", 1)[1]


def _singular(word: str) -> str:
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
